// The account's logged-in browsers (GET /api/account/sessions), in a
// dialog of the account box: each with its browser in short, when it
// logged in and was last seen, this one marked; any other logs out with
// its button, or all others at once.

import { t } from './i18n.js';
import { h, formatDate, showDialog } from './dom.js';
import { api } from './api.js';

/** One browser of the list: a row with its words and, for another browser, its Log out button. */
function sessionRow(se, end) {
  return h('li.session-row', { 'data-id': se.id, class: se.current ? 'current' : null },
    h('div.session-what',
      h('strong.session-agent', se.agent || t('acc.unknownBrowser')),
      se.current ? h('span.badge.session-this', t('acc.thisBrowser')) : null,
      h('small.session-times', t('acc.sessionTimes', { created: formatDate(se.created), seen: formatDate(se.seen) }))),
    se.current ? null : h('button.btn.small.ghost.session-logout', {
      type: 'button', 'aria-label': t('acc.logoutOneLabel', { agent: se.agent || t('acc.unknownBrowser') }), onclick: () => end({ id: se.id }),
    }, t('acc.logoutOne')));
}

/** Shows the sessions of an answer in the dialog's list, and whether there are others to log out. */
function show(d, res, end) {
  const sessions = (res && res.sessions) || [];
  const list = d.querySelector('#sessions-list');
  list.textContent = '';
  list.removeAttribute('aria-busy');
  list.append(...sessions.map((se) => sessionRow(se, end)));
  d.querySelector('#sessions-logout-others').disabled = !sessions.some((se) => !se.current);
}

/** Opens the dialog of the account's browsers; the focus goes back to opener when it closes. */
export function openSessions(opener) {
  const old = document.getElementById('sessions-dialog');
  if (old) old.remove();
  const error = h('p.form-error#sessions-error', { role: 'alert' });
  const d = h('dialog.dialog.sessions-dialog#sessions-dialog', { 'aria-labelledby': 'sessions-title' });
  const run = async (method, path, body) => {
    error.textContent = '';
    try {
      show(d, await api(method, path, body), end);
    } catch (err) {
      error.textContent = err.message || t('acc.failed');
    }
  };
  const end = (body) => run('POST', '/api/account/sessions/logout', body);
  d.append(h('div.dialog-body',
    h('h2#sessions-title', t('acc.sessions')),
    h('p.note', t('acc.sessionsNote')),
    h('ul.session-list#sessions-list', { 'aria-busy': 'true' }),
    error,
    h('div.form-buttons',
      h('button.btn#sessions-logout-others', { type: 'button', disabled: true, onclick: () => end({ others: true }) }, t('acc.logoutOthers')),
      h('button.btn.ghost#sessions-close', { type: 'button', onclick: () => d.close() }, t('acc.close')))));
  showDialog(d, opener);
  d.querySelector('#sessions-close').focus();
  run('GET', '/api/account/sessions');
}
