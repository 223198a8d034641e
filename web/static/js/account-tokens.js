// The account's bot and API tokens (GET /api/account/tokens), in a dialog
// of the account box: each token with its label, when it was made and
// last used, and its Revoke button; a form that makes one (shown this
// once); and, for a person's account, the button that makes it a bot for
// good (POST /api/account/bot), after a confirmation that says so.

import { t } from './i18n.js';
import { h, formatDate, showDialog } from './dom.js';
import { api } from './api.js';

/** One token of the list, with its Revoke button unless revoked. */
function tokenRow(tk, revoke) {
  return h('li.token-row', { 'data-id': tk.id },
    h('div.token-what',
      h('strong.token-label', tk.label),
      h('small.token-times', `${formatDate(tk.created)} · ${tk.revoked ? t('acb.revoked') : tk.used ? t('acb.used', { date: formatDate(tk.used) }) : t('acb.never')}`)),
    tk.revoked ? null : h('button.btn.small.ghost.token-revoke', { type: 'button', onclick: () => revoke(tk.id) }, t('acb.revoke')));
}

/** Opens the dialog; the focus goes back to opener when it closes. */
export function openTokens(opener) {
  const old = document.getElementById('tokens-dialog');
  if (old) old.remove();
  const error = h('p.form-error#tokens-error', { role: 'alert' });
  const list = h('ul.token-list#tokens-list', { 'aria-busy': 'true' });
  const secret = h('div.token-secret#token-secret', { hidden: true });
  const botBox = h('div.token-bot#token-bot');
  const d = h('dialog.dialog.tokens-dialog#tokens-dialog', { 'aria-labelledby': 'tokens-title' });
  const show = (res) => {
    const tokens = (res && res.tokens) || [];
    list.removeAttribute('aria-busy');
    list.replaceChildren(...(tokens.length ? tokens.map((tk) => tokenRow(tk, revoke)) : [h('li.muted', t('acb.none'))]));
    botBox.replaceChildren(res && res.bot
      ? h('p.note#token-is-bot', t('acb.isBot'))
      : h('button.btn#make-bot', { type: 'button', onclick: makeBot }, t('acb.make')));
  };
  const run = async (fn) => {
    error.textContent = '';
    try {
      await fn();
      show(await api('GET', '/api/account/tokens'));
    } catch (err) {
      error.textContent = err.message || t('acc.failed');
    }
  };
  const revoke = (id) => run(() => api('POST', `/api/account/tokens/${encodeURIComponent(id)}/revoke`, {}));
  const makeBot = () => {
    if (window.confirm(t('acb.confirm'))) run(() => api('POST', '/api/account/bot', { confirm: true }));
  };
  const label = h('input#token-label', { type: 'text', maxlength: 60, required: true, autocomplete: 'off' });
  const form = h('form.token-form#token-form', h('label', { for: 'token-label' }, t('acb.label')), label,
    h('button.btn.primary#token-create', { type: 'submit' }, t('acb.create')));
  form.onsubmit = (e) => {
    e.preventDefault();
    run(async () => {
      const res = await api('POST', '/api/account/tokens', { label: label.value });
      label.value = '';
      secret.hidden = false;
      secret.replaceChildren(h('p', t('acb.shown')), h('code#token-value', res.token));
    });
  };
  d.append(h('div.dialog-body',
    h('h2#tokens-title', t('acb.title')),
    h('p.note', t('acb.intro')),
    botBox, list, secret, form, error,
    h('div.form-buttons', h('button.btn.ghost#tokens-close', { type: 'button', onclick: () => d.close() }, t('acc.close')))));
  showDialog(d, opener);
  label.focus();
  run(async () => {});
}
