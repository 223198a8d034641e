// The moderators' page, /mod: the open reports, newest first, each with
// what it is about (the player, the game, the chat line) and the actions
// that answer it (mute for an hour or a day, ban, close the account,
// dismiss); a player by name (unmute, unban, a link that sets the
// password); and the log of every moderator's action. The server checks
// that the viewer is a moderator; anyone else is told so.

import { t, has } from './i18n.js';
import { h, toast, formatDate } from './dom.js';
import { api } from './api.js';

/** The actions a report may be answered with: what each sends. */
const ACTIONS = [
  { id: 'mute-hour', key: 'md.muteHour', body: { action: 'mute', minutes: 60 } },
  { id: 'mute-day', key: 'md.muteDay', body: { action: 'mute', minutes: 24 * 60 } },
  { id: 'ban', key: 'md.ban', body: { action: 'ban' } },
  { id: 'close', key: 'md.close', body: { action: 'close' } },
];

/** The text of key, or fallback when the catalogue has none (a reason of the server's own flags). */
const text = (key, fallback) => (has(key) ? t(key) : fallback);

/** The moderators' page. */
class ModPage {
  constructor() {
    this.reports = h('ol.mod-reports');
    this.log = h('ol.mod-log');
    this.node = h('div.mod',
      h('section.card', { 'aria-labelledby': 'mod-title' }, h('h1#mod-title', t('md.title')), this.reports),
      this.playerCard(),
      h('section.card', { 'aria-labelledby': 'mod-log-title' }, h('h2#mod-log-title', t('md.log')), this.log));
  }

  /** The card that acts on a player by name: unmute, unban, a link that sets the password. */
  playerCard() {
    const name = h('input#mod-player', { type: 'text', maxlength: '20', autocomplete: 'off', spellcheck: 'false' });
    const out = h('div.mod-link', { hidden: true, 'aria-live': 'polite' });
    const who = () => encodeURIComponent(name.value.trim());
    const act = async (body, label) => {
      try {
        await api('POST', `/api/mod/users/${who()}`, body);
        toast(label, 'info');
        await this.load();
      } catch (err) {
        toast(err.message, 'error');
      }
    };
    const link = async () => {
      try {
        const a = await api('POST', `/api/mod/users/${who()}/reset-link`, {});
        // The link starts with the site's address as the moderator sees it.
        const url = h('input#mod-link-url', { type: 'text', readonly: true, value: location.origin + a.path, 'aria-label': t('md.linkFor', { name: a.name }), onfocus: (e) => e.target.select() });
        const copy = async () => {
          try {
            await navigator.clipboard.writeText(url.value);
            toast(t('an.copied'));
          } catch (e) {
            url.select();
          }
        };
        out.textContent = '';
        out.append(h('p', t('md.linkMade', { name: a.name, until: formatDate(a.expires) })),
          h('div.copy-row', url, h('button.btn.small', { type: 'button', onclick: copy }, t('an.copy'))));
        out.hidden = false;
        await this.load();
      } catch (err) {
        toast(err.message, 'error');
      }
    };
    return h('section.card', { 'aria-labelledby': 'mod-player-title' }, h('h2#mod-player-title', t('md.player')),
      h('div.field', h('label', { for: 'mod-player' }, t('md.playerName')), name),
      h('div.mod-actions',
        h('button.btn.small', { type: 'button', 'data-action': 'unmute', onclick: () => act({ action: 'unmute' }, t('md.unmute')) }, t('md.unmute')),
        h('button.btn.small', { type: 'button', 'data-action': 'unban', onclick: () => act({ action: 'unban' }, t('md.unban')) }, t('md.unban')),
        h('button.btn.small', { type: 'button', 'data-action': 'reset-link', onclick: link }, t('md.resetLink'))),
      out);
  }

  async mounted() {
    await this.load();
  }

  async load() {
    try {
      const [reports, log] = await Promise.all([api('GET', '/api/mod/reports'), api('GET', '/api/mod/log')]);
      this.renderReports(reports.reports || []);
      this.renderLog(log.actions || []);
    } catch (err) {
      this.node.textContent = '';
      this.node.append(h('div.card.not-found', h('h1', t('md.title')), h('p', err.message)));
    }
  }

  renderReports(list) {
    this.reports.textContent = '';
    if (!list.length) this.reports.append(h('li.empty', t('md.none')));
    for (const r of list) this.reports.append(this.reportNode(r));
  }

  reportNode(r) {
    const reason = h('input.mod-reason', { type: 'text', maxlength: '300', 'aria-label': t('md.reason'), placeholder: t('md.reason') });
    const act = async (body, label) => {
      try {
        if (body) {
          await api('POST', `/api/mod/users/${encodeURIComponent(r.target)}`, { ...body, reason: reason.value.trim(), report: r.id });
        } else {
          await api('POST', `/api/mod/reports/${encodeURIComponent(r.id)}/close`, { reason: reason.value.trim() });
        }
        toast(label, 'info');
        await this.load();
      } catch (err) {
        toast(err.message, 'error');
      }
    };
    const buttons = ACTIONS.map((a) => h('button.btn.small', { type: 'button', 'data-action': a.id, onclick: () => act(a.body, t(a.key)) }, t(a.key)));
    buttons.push(h('button.btn.small.ghost', { type: 'button', 'data-action': 'dismiss', onclick: () => act(null, t('md.dismiss')) }, t('md.dismiss')));
    const what = r.game
      ? h('a', { href: `/g/${encodeURIComponent(r.game)}` }, r.chat_seq >= 0 ? t('md.line', { n: r.chat_seq + 1 }) : t('md.game'))
      : null;
    return h('li.mod-report', { 'data-report': r.id },
      h('p.mod-head',
        h('a.user-link', { href: `/@/${encodeURIComponent(r.target)}` }, r.target), ' · ',
        h('strong', text(`rp.${r.reason}`, r.reason)), ' · ',
        r.reporter ? t('md.by', { name: r.reporter }) : t('md.flag'), ' · ', formatDate(r.created), what ? ' · ' : null, what),
      r.text ? h('blockquote.mod-text', r.text) : null,
      h('div.mod-actions', reason, buttons));
  }

  renderLog(list) {
    this.log.textContent = '';
    if (!list.length) this.log.append(h('li.empty', t('md.noLog')));
    for (const a of list) {
      this.log.append(h('li', formatDate(a.at), ' · ', a.moderator || '—', ' · ', text(`md.did.${a.action}`, a.action),
        a.target ? ` · ${a.target}` : '', a.game ? ` · ${a.game}` : '', a.reason ? ` · ${a.reason}` : ''));
    }
  }
}

/** The view of /mod. */
export function modView() {
  return new ModPage();
}
