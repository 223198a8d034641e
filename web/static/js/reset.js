// The page of a link that sets a new password, /reset#<token> (mailed, or
// made by the site's operator): two fields for the new password, posted
// with the link's token (POST /api/account/reset), which logs every
// browser of the account out; then the log-in form, the name filled in.
// The token is in the address's fragment, which no request carries; the
// page takes it from there and clears it from the address bar.

import { t } from './i18n.js';
import { h } from './dom.js';
import { api } from './api.js';
import { openLogin, reloadAccount } from './account.js';

// The link's token, taken from the address once (the page is drawn again
// in a new language, after the address bar has forgotten it).
let token = '';

/** The token of the address's fragment, kept, and cleared from the address bar. */
function takeToken() {
  const m = /^#([A-Za-z0-9_-]{16,64})$/.exec(location.hash);
  if (m) {
    token = m[1];
    history.replaceState(null, '', '/reset');
  }
  return token;
}

/** The form that sets the password; done(name) follows the server's yes. */
function resetForm(done) {
  const pw = h('input#reset-password', { type: 'password', name: 'password', autocomplete: 'new-password', required: true, 'aria-describedby': 'reset-password-hint reset-error' });
  const pw2 = h('input#reset-password2', { type: 'password', name: 'repeat', autocomplete: 'new-password', required: true, 'aria-describedby': 'reset-error' });
  const error = h('p.form-error#reset-error', { role: 'alert' });
  const submit = h('button.btn.primary#reset-submit', { type: 'submit' }, t('reset.submit'));
  const refuse = (message, input) => {
    error.textContent = message;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    input.select();
  };
  const send = async () => {
    error.textContent = '';
    pw.removeAttribute('aria-invalid');
    pw2.removeAttribute('aria-invalid');
    if (pw.value !== pw2.value) return refuse(t('acc.differ'), pw2);
    submit.disabled = true;
    submit.textContent = t('acc.changing');
    try {
      const res = await api('POST', '/api/account/reset', { token, password: pw.value });
      token = '';
      done(res.name);
    } catch (err) {
      refuse(err.message || t('acc.failed'), err.code === 'reset_bad' ? pw2 : pw);
    } finally {
      submit.disabled = false;
      submit.textContent = t('reset.submit');
    }
  };
  return h('form.account-form.reset-form#reset-form', { onsubmit: (e) => { e.preventDefault(); send(); } },
    h('p.note', t('reset.note')),
    h('div.field', h('label', { for: 'reset-password' }, t('acc.newPw')), pw, h('small.hint#reset-password-hint', t('acc.pwHint'))),
    h('div.field', h('label', { for: 'reset-password2' }, t('acc.newPw2')), pw2),
    error,
    h('div.form-buttons', submit));
}

/** The page that sets a password with the address's link. */
export function resetView() {
  const node = h('section.card.reset-page', { 'aria-labelledby': 'reset-title' }, h('h1#reset-title', t('reset.title')));
  const forgot = (e) => openLogin('forgot', e.currentTarget);
  if (!takeToken()) {
    node.append(h('p.error#reset-none', t('reset.noToken')),
      h('p', h('button.btn#reset-forgot', { type: 'button', onclick: forgot }, t('acc.forgotTitle'))));
    return { node };
  }
  const form = resetForm((name) => {
    const login = h('button.btn.primary#reset-login', { type: 'button', onclick: (e) => openLogin('login', e.currentTarget, name) }, t('acc.login'));
    form.replaceWith(h('div#reset-done', h('p', { role: 'status' }, t('reset.done', { name })), h('div.form-buttons', login)));
    login.focus();
    reloadAccount(); // this browser may have been logged in to the account
  });
  node.append(form);
  return { node, mounted: () => node.querySelector('#reset-password').focus() };
}
