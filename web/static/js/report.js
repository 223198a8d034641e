// The report of a player, a game or a chat line to the site's moderators
// (POST /api/reports): a small dialog with the reason and the reporter's
// own words. The moderators see it on their page (mod.js).

import { t } from './i18n.js';
import { h, toast, showDialog } from './dom.js';
import { api } from './api.js';

/** The reasons a report gives, as the server takes them. */
export const REASONS = ['cheating', 'abuse', 'spam', 'other'];

/** The longest words a report takes (the server's limit). */
const MAX_TEXT = 500;

/**
 * Opens the report dialog for what (the body of the request without its
 * reason and words: {user} for a player, {game, chat_seq} for a chat line)
 * about the player called name; opener gets the focus back.
 */
export function openReport(what, name, opener = document.activeElement) {
  const reasons = REASONS.map((r, i) => h('label.report-reason',
    h('input', { type: 'radio', name: 'report-reason', value: r, checked: i === 0 }), ' ', t(`rp.${r}`)));
  const text = h('textarea#report-text', { maxlength: String(MAX_TEXT), rows: '3', 'aria-label': t('rp.words') });
  const error = h('p.form-error', { role: 'alert' });
  const send = h('button.btn.primary', { type: 'submit', id: 'report-send' }, t('rp.send'));
  const form = h('form.report-form', {
    onsubmit: async (e) => {
      e.preventDefault();
      const reason = form.querySelector('input[name="report-reason"]:checked').value;
      send.disabled = true;
      try {
        await api('POST', '/api/reports', { ...what, reason, text: text.value.trim() });
        d.close();
        toast(t('rp.sent'), 'info');
      } catch (err) {
        error.textContent = err.message;
      } finally {
        send.disabled = false;
      }
    },
  },
  h('fieldset', h('legend', t('rp.reason')), reasons),
  h('label', { for: 'report-text' }, t('rp.words')), text,
  error,
  h('div.form-buttons', send, h('button.btn.ghost', { type: 'button', onclick: () => d.close() }, t('acc.cancel'))));
  const d = h('dialog.dialog#report-dialog', { 'aria-labelledby': 'report-title' },
    h('div.dialog-body', h('h2#report-title', t('rp.title', { name })), form));
  showDialog(d, opener);
  reasons[0].querySelector('input').focus();
}
