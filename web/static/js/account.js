// Who the browser is: a guest with a generated name, or a logged-in
// player (GET /api/account). The header's account box: the guest's name
// with Sign up and Log in, or the player's name (a link to the profile)
// with a menu: the e-mail address, the password, the logged-in browsers
// (account-sessions.js), the download of the account's data, log-out, and
// the deletion of the account. Each form is a small dialog
// (account-forms.js); the server's error is shown in the form. A change of
// account is told to the listeners (app.js refreshes the current view).
// Offline the box shows the account last known in this browser, marked
// offline, without the forms that need the server.

import { t, onLangChange, locale, dated } from './i18n.js';
import { h, toast } from './dom.js';
import { api } from './api.js';
import { profileHref } from './players.js';
import { FORMS } from './account-forms.js';
import { openSessions } from './account-sessions.js';
import { openTokens } from './account-tokens.js';

let current = null; // {name, guest, email, mail}, null until the server has answered
let ready = null;
const listeners = new Set();
let box = null;
let dialog = null;

/** The account as last known: {name, guest, email, mail}, or null before the first answer. */
export function account() {
  return current;
}

/** Whether a player is logged in (not a guest). */
export function loggedIn() {
  return !!(current && !current.guest);
}

/** The account once the server has answered (a guest when it could not be asked). */
export function whenAccount() {
  return (ready || Promise.resolve()).then(() => current);
}

/** Calls fn(account) after every sign-up, log-in and log-out; returns the function that stops it. */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The account of an answer of the server (GET /api/account and the account's actions). */
function accountOf(a) {
  return { name: a.name, guest: !!a.guest, email: a.email || '', mail: !!a.mail, standing: a.standing || null };
}

/** Keeps the account's name in this browser, for the pages offline. */
function remember(a) {
  try {
    localStorage.setItem('account', JSON.stringify({ name: a.name, guest: a.guest }));
  } catch (e) {
    // private browsing: offline the box says nothing of the account
  }
}

/** The account last known in this browser, marked offline; null if none. */
function remembered() {
  try {
    const a = JSON.parse(localStorage.getItem('account') || 'null');
    return a && typeof a.name === 'string' ? { ...accountOf(a), offline: true } : null;
  } catch (e) {
    return null;
  }
}

/** Whether the account is the one last known, the server not answering (offline). */
export function accountOffline() {
  return !!(current && current.offline);
}

function set(a) {
  const before = current;
  current = a && typeof a.name === 'string' ? accountOf(a) : current;
  if (current && !current.offline) remember(current);
  render();
  if (!before || !current || before.name !== current.name || before.guest !== current.guest) {
    for (const fn of listeners) {
      try {
        fn(current);
      } catch (e) {
        console.warn(e);
      }
    }
  }
}

/** Makes the header's account box in container and asks the server who the browser is. */
export function initAccount(container) {
  box = h('div.account', { 'aria-label': t('acc.account'), role: 'group' });
  container.append(box);
  render();
  ready = load();
  return ready;
}

/** Asks the server again who the browser is (after a new password logged it out, say). */
export async function reloadAccount() {
  try {
    set(await api('GET', '/api/account'));
  } catch (err) {
    console.warn(err);
  }
}

async function load() {
  try {
    const a = await api('GET', '/api/account');
    current = accountOf(a);
    remember(current);
  } catch (err) {
    // Not reached (offline): the account last known here, if any.
    current = err.status === 0 ? remembered() || { ...accountOf({ name: '', guest: true }), offline: true } : null;
    box.dataset.error = err.message;
  }
  render();
}

// ---- the header's box

function render() {
  if (!box) return;
  box.textContent = '';
  box.classList.toggle('guest', !current || current.guest);
  box.classList.toggle('user', !!current && !current.guest);
  if (!current) {
    if (!ready || !box.dataset.error) return; // still asking
  }
  if (current && current.offline) {
    if (current.name) box.append(h('span.account-name', { title: t('off.accountTitle') }, current.name));
    box.append(h('span.tag.offline-tag', t('off.tag')));
    return;
  }
  if (!current || current.guest) {
    box.append(
      current ? h('span.account-name', { title: t('acc.guestTitle') }, current.name) : null,
      h('button.btn.small.ghost', { type: 'button', id: 'signup-open', onclick: (e) => openForm('signup', e.currentTarget) }, t('acc.signup')),
      h('button.btn.small', { type: 'button', id: 'login-open', onclick: (e) => openForm('login', e.currentTarget) }, t('acc.login')));
    return;
  }
  const toggle = h('button.btn.small.ghost.menu-toggle', {
    type: 'button', id: 'account-menu-button', 'aria-haspopup': 'true', 'aria-expanded': 'false', 'aria-controls': 'account-menu', 'aria-label': t('acc.menu'),
  }, h('span.caret', { 'aria-hidden': 'true' }, '▾'));
  const item = (id, label, fn) => h('button.menu-item', { type: 'button', id, onclick: () => { closeMenu(); fn(); } }, label);
  const menu = h('div.menu', { id: 'account-menu', hidden: true },
    h('a.menu-item', { href: profileHref(current.name), id: 'account-profile' }, t('acc.profile')),
    current.standing && current.standing.moderator ? h('a.menu-item', { href: '/mod', id: 'account-mod' }, t('md.title')) : null,
    item('account-email-open', t('acc.email'), () => openForm('email', toggle)),
    item('account-password-open', t('acc.password'), () => openForm('password', toggle)),
    item('account-sessions-open', t('acc.sessions'), () => openSessions(toggle)),
    item('account-tokens-open', t('acb.title'), () => openTokens(toggle)),
    h('a.menu-item', { href: '/api/account/data', download: '', id: 'account-data' }, t('acc.data')),
    item('logout', t('acc.logout'), () => logout(false)),
    item('logout-everywhere', t('acc.logoutAll'), () => logout(true)),
    item('account-delete-open', t('acc.delete'), () => openForm('delete', toggle)));
  const items = () => [...menu.querySelectorAll('.menu-item')];
  function openMenu(focusFirst) {
    menu.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    if (focusFirst) items()[0].focus();
  }
  function closeMenu(refocus) {
    menu.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
    if (refocus) toggle.focus();
  }
  toggle.onclick = () => (menu.hidden ? openMenu(false) : closeMenu(false));
  toggle.onkeydown = (e) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      openMenu(true);
    }
  };
  menu.onkeydown = (e) => {
    const list = items();
    const i = list.indexOf(document.activeElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      closeMenu(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = list.length;
      list[(i + (e.key === 'ArrowDown' ? 1 : n - 1)) % n].focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      list[e.key === 'Home' ? 0 : list.length - 1].focus();
    }
  };
  const wrap = h('div.menu-wrap', toggle, menu);
  wrap.addEventListener('focusout', (e) => {
    if (!menu.hidden && e.relatedTarget && !wrap.contains(e.relatedTarget)) closeMenu(false);
  });
  const st = current.standing || {};
  const muted = st.muted_until && st.muted_until > Date.now()
    ? h('span.tag.muted-tag', { id: 'account-muted', title: st.reason || '' }, t('md.mutedUntil', { until: dated(new Date(st.muted_until).toLocaleString(locale())) }))
    : null;
  box.append(h('a.account-name.user-link', { href: profileHref(current.name), title: t('acc.profile') }, current.name));
  if (muted) box.append(muted);
  box.append(wrap);
}

// Closes the menu on a click anywhere else, and on Escape from the toggle.
document.addEventListener('click', (e) => {
  if (!box) return;
  const menu = box.querySelector('.menu');
  if (menu && !menu.hidden && !e.target.closest('.menu-wrap')) {
    menu.hidden = true;
    box.querySelector('.menu-toggle').setAttribute('aria-expanded', 'false');
  }
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !box) return;
  const menu = box.querySelector('.menu');
  if (menu && !menu.hidden) {
    menu.hidden = true;
    const t = box.querySelector('.menu-toggle');
    t.setAttribute('aria-expanded', 'false');
    t.focus();
  }
});

async function logout(everywhere) {
  try {
    const a = await api('POST', '/api/account/logout', everywhere ? { everywhere: true } : {});
    set(a);
    toast(everywhere ? t('acc.loggedOutAll') : t('acc.loggedOut'));
    const first = box.querySelector('button');
    if (first) first.focus();
  } catch (err) {
    toast(err.message, 'error');
  }
}

// ---- the forms

/** Opens an account form (kind 'signup', 'login', 'forgot', ...); app.js and the pages may call it, name filling the name's field. */
export function openLogin(kind = 'login', opener = document.activeElement, name = '') {
  openForm(kind, opener, name);
}

/** The form's fields, each an input (kept by name in inputs) with its label and hint. */
function formFields(f, inputs) {
  return f.fields.map((fd) => {
    const hintId = fd.hint ? fd.id + '-hint' : null;
    const input = h('input', {
      id: fd.id, name: fd.name, type: fd.type, autocomplete: fd.autocomplete, required: !fd.optional, value: fd.value || null,
      spellcheck: 'false', autocapitalize: fd.type === 'text' ? 'none' : null, 'aria-describedby': [hintId, 'account-error'].filter(Boolean).join(' '),
    });
    inputs[fd.name] = input;
    return h('div.field', h('label', { for: fd.id }, fd.label), input, fd.hint ? h('small.hint', { id: hintId }, fd.hint) : null);
  });
}

/** Says why the form was refused (in error), marking the input it is about and putting the focus there. */
function fail(error, message, input) {
  error.textContent = message;
  if (!input) return;
  input.setAttribute('aria-invalid', 'true');
  input.focus();
  if (input.type === 'password' || input.value) input.select();
}

/** Sends the form of kind (f) with its inputs; closes the dialog d when the server agrees. */
async function sendForm(kind, f, inputs, d) {
  const error = d.querySelector('#account-error');
  const submit = d.querySelector('#account-submit');
  error.textContent = '';
  for (const input of Object.values(inputs)) input.removeAttribute('aria-invalid');
  const v = {};
  for (const [k, input] of Object.entries(inputs)) v[k] = k === 'name' ? input.value.trim() : input.value;
  if (kind === 'password' && v.new_password !== v.repeat) {
    fail(error, t('acc.differ'), inputs.repeat);
    return;
  }
  submit.disabled = true;
  submit.textContent = f.busy;
  try {
    const a = await api('POST', f.path, f.body(v));
    if (f.after) {
      shown(d, f.after(a));
      return;
    }
    d.close();
    set(a);
    toast(f.done(current));
  } catch (err) {
    fail(error, err.message || t('acc.failed'), badInput(kind, err, inputs));
  } finally {
    submit.disabled = false;
    submit.textContent = f.submit;
  }
}

/** The input a refusal of the form of kind is about. */
function badInput(kind, err, inputs) {
  const code = err.code || '';
  if (kind === 'password') return err.status === 401 ? inputs.password : inputs.new_password;
  if (code === 'email_bad') return inputs.email;
  if (err.status === 409 || code.startsWith('name_')) return inputs.name || inputs.password;
  return inputs.password || inputs.who;
}

/** Replaces the dialog's form by a message, with a button that closes it. */
function shown(d, message) {
  const form = d.querySelector('form');
  const close = h('button.btn.primary', { type: 'button', id: 'account-close', onclick: () => d.close() }, t('acc.close'));
  form.replaceWith(h('div.account-form', h('p.note#account-message', { role: 'status' }, message), h('div.form-buttons', close)));
  close.focus();
}

/** The form of kind (f) with its inputs, sent in the dialog d; opener is where the focus goes back. */
function formNode(kind, f, inputs, d, opener) {
  const fields = formFields(f, inputs);
  const typed = () => (inputs.name ? inputs.name.value : '');
  const change = (other) => openForm(other, opener, typed());
  return h('form.account-form', { 'aria-labelledby': 'account-dialog-title', onsubmit: (e) => { e.preventDefault(); sendForm(kind, f, inputs, d); } },
    // A password manager wants the user name beside a password.
    ['password', 'email', 'delete'].includes(kind) && current ? h('input.visually-hidden', { type: 'text', name: 'username', autocomplete: 'username', value: current.name, tabindex: '-1', 'aria-hidden': 'true', readonly: true }) : null,
    f.note ? h('p.note', f.note) : null,
    fields,
    f.forgot ? h('p.form-forgot', h('button.link-btn', { type: 'button', id: 'account-forgot', onclick: () => change('forgot') }, t('acc.forgot'))) : null,
    h('p.form-error', { id: 'account-error', role: 'alert' }),
    h('div.form-buttons',
      f.submit ? h('button.btn' + (f.danger ? '.danger' : '.primary'), { type: 'submit', id: 'account-submit' }, f.submit) : null,
      h('button.btn.ghost', { type: 'button', id: 'account-cancel', onclick: () => d.close() }, f.submit ? t('acc.cancel') : t('acc.close'))),
    f.other ? h('p.form-other', f.other[0] + ' ', h('button.link-btn', { type: 'button', id: 'account-switch', onclick: () => change(f.other[2]) }, f.other[1])) : null);
}

function openForm(kind, opener, keepName = '') {
  if (dialog) {
    dialog.close();
    dialog.remove();
    dialog = null;
  }
  const f = FORMS[kind](current);
  const inputs = {};
  const d = h('dialog.dialog', { id: 'account-dialog', 'aria-labelledby': 'account-dialog-title', 'data-kind': kind });
  d.append(h('div.dialog-body', h('h2#account-dialog-title', f.title), formNode(kind, f, inputs, d, opener)));
  const first = inputs.name || inputs.who;
  if (first && keepName) first.value = keepName;
  dialog = d;
  // A click on the backdrop (outside the body) closes the dialog.
  d.addEventListener('click', (e) => {
    if (e.target === d) d.close();
  });
  d.addEventListener('close', () => {
    d.remove();
    if (dialog === d) dialog = null;
    // Back to where the person was: the button that opened the form, or,
    // once the box has changed, its first control.
    const back = opener && opener.isConnected ? opener : box && box.querySelector('a, button');
    if (back && !(dialog && dialog.open)) back.focus();
  });
  document.body.append(d);
  d.showModal();
  const focus = kind === 'email' ? inputs.email : (first && !first.value ? first : inputs.password) || first || d.querySelector('#account-cancel');
  focus.focus();
}

// The header's box in a new language.
onLangChange(() => {
  if (box) box.setAttribute('aria-label', t('acc.account'));
  render();
});
