// The game page's chat: the lines this viewer may see (the server keeps the
// players' room and the spectators' room apart while the game is going
// on), an input for this viewer's room, a switch that turns the chat off,
// and, for a player, a button that hides the opponent's lines. Every text
// is put in as text (textContent), never as HTML: a link or a tag someone
// typed is shown as they typed it.

import { t, tn } from './i18n.js';
import { h } from './dom.js';
import { chatOn, setChatOn, isMuted, setMuted } from './prefs.js';
import { openReport } from './report.js';
import { playerName } from './words.js';

/** The server's limit on a line's length. */
export const MAX_CHAT = 300;

/**
 * A chat panel; send(msg) sends a message over the game's socket and
 * reports whether it went. Call state(s) with every game state, lines(list)
 * with a whole state's lines, add(line) with a new one. Every line of
 * someone else's can be reported to the moderators.
 */
class ChatPanel {
  constructor(send) {
    this.list = h('ol.chat-lines', { role: 'log', 'aria-live': 'polite', 'aria-label': t('ch.messages') });
    this.empty = h('p.chat-empty', t('ch.empty'));
    // No maxlength: it would cut a pasted line silently; the counter says
    // how much is over, and the line is not sent until it fits.
    this.input = h('input#chat-input', { type: 'text', autocomplete: 'off', 'aria-label': t('ch.yours'), 'aria-describedby': 'chat-count' });
    this.counter = h('small.chat-count#chat-count', { 'aria-live': 'polite' });
    this.form = h('form.chat-form', this.input, this.counter);
    this.room = h('span.chat-room');
    this.mute = h('button.btn.small.ghost#chat-mute', { type: 'button', hidden: true });
    this.toggle = h('input.switch#chat-on', { type: 'checkbox', role: 'switch', checked: chatOn() });
    this.off = h('p.chat-off', { hidden: true }, t('ch.off'));
    this.node = h('section.chat', { 'aria-labelledby': 'chat-title' },
      h('div.chat-head',
        h('h2#chat-title', t('ch.title')), this.room, this.mute,
        h('span.chat-switch', { title: t('ch.switch') }, this.toggle, h('label.visually-hidden', { for: 'chat-on' }, t('ch.on')))),
      this.list, this.empty, this.off, this.form);
    this.s = null;
    this.all = [];
    this.listen(send);
  }

  listen(send) {
    this.input.addEventListener('input', () => this.showCount());
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (text.length > MAX_CHAT) {
        this.showCount();
        this.input.focus();
        return;
      }
      if (send({ type: 'chat', text })) {
        this.input.value = '';
        this.showCount();
      }
    });
    this.toggle.addEventListener('change', () => {
      setChatOn(this.toggle.checked);
      this.render();
    });
    this.mute.addEventListener('click', () => {
      const opp = this.opponentName();
      if (!opp) return;
      setMuted(opp, !isMuted(opp));
      this.render();
    });
  }

  /** The name the opponent's lines carry, for muting. */
  opponentName() {
    const s = this.s;
    if (!s || s.seat == null) return '';
    const o = s.sides[1 - s.seat];
    return o.user || (o.player && o.player !== 'human' ? o.player : '');
  }

  hidden(line) {
    if (isMuted(line.name)) return true;
    const s = this.s;
    return !!s && s.seat != null && line.side === 1 - s.seat && isMuted(this.opponentName());
  }

  lineNode(line) {
    const s = this.s;
    const mine = s && s.seat != null && line.side === s.seat;
    const spectator = line.room === 'spectators';
    const name = line.name ? playerName(line.name) : t('w.anonymous');
    const report = !mine && s && s.id && typeof line.seq === 'number'
      ? h('button.chat-report.link-btn', {
        type: 'button', title: t('rp.line', { name }), 'aria-label': t('rp.line', { name }),
        onclick: (e) => openReport({ game: s.id, chat_seq: line.seq }, name, e.currentTarget),
      }, '⚑')
      : null;
    return h('li.chat-line', { 'data-room': line.room || 'players', 'data-side': String(line.side ?? -1), 'data-seq': String(line.seq ?? ''), class: mine ? 'mine' : null },
      h('span.chat-name', name),
      spectator ? h('span.chat-tag', { title: "said in the spectators' room" }, 'spectator') : null,
      h('span.chat-text', line.text || ''), report);
  }

  render() {
    const s = this.s;
    const on = chatOn();
    this.toggle.checked = on;
    this.list.hidden = !on;
    this.off.hidden = on;
    // Writing is for a game someone can still read: not an aborted one.
    this.form.hidden = !on || !s || s.status === 'aborted';
    const toRoom = s && s.chat_room === 'spectators' ? 'spectators' : 'players';
    this.room.textContent = s ? (toRoom === 'spectators' ? t('ch.spectators') : t('ch.players')) : '';
    this.room.title = toRoom === 'spectators' ? t('ch.toSpectators') : t('ch.toPlayers');
    this.input.placeholder = toRoom === 'spectators' ? t('ch.saySpectators') : s && s.seat != null ? t('ch.sayOpponent') : t('ch.say');
    this.renderMute(on);
    const shown = this.all.filter((l) => !this.hidden(l));
    this.list.textContent = '';
    for (const l of shown) this.list.append(this.lineNode(l));
    this.empty.hidden = !on || shown.length > 0;
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** The button that hides the opponent's lines: a player's, against a person. */
  renderMute(on) {
    const s = this.s;
    const seated = s && s.seat != null;
    const opp = this.opponentName();
    const opponentIsPerson = seated && s.sides[1 - s.seat].player && !/^computer/i.test(s.sides[1 - s.seat].player);
    this.mute.hidden = !on || !opponentIsPerson;
    const muted = !!opp && isMuted(opp);
    this.mute.textContent = muted ? t('ch.unmute') : t('ch.mute');
    this.mute.title = muted ? t('ch.showAgain', { name: opp }) : opp ? t('ch.hide', { name: opp }) : t('ch.hideOpponent');
    this.mute.setAttribute('aria-pressed', String(muted));
  }

  showCount() {
    const left = MAX_CHAT - this.input.value.trim().length;
    this.counter.textContent = left < 0 ? tn('gp.chatOver', -left, { max: MAX_CHAT }) : left <= 50 ? tn('gp.chatLeft', left) : '';
    this.counter.classList.toggle('over', left < 0);
    if (left < 0) this.input.setAttribute('aria-invalid', 'true');
    else this.input.removeAttribute('aria-invalid');
  }

  state(next) {
    this.s = next;
    this.render();
  }

  lines(lines) {
    this.all = Array.isArray(lines) ? lines.slice() : [];
    this.render();
  }

  /** Adds a line; reports whether the viewer sees it (chat on, not muted, not their own). */
  add(line) {
    if (!line) return false;
    this.all.push(line);
    if (!chatOn() || this.hidden(line)) return false;
    this.empty.hidden = true;
    this.list.append(this.lineNode(line));
    this.list.scrollTop = this.list.scrollHeight;
    const s = this.s;
    return !(s && s.seat != null && line.side === s.seat);
  }

  /** Whether there is anything to show: lines, or a game one can still write in. */
  get count() {
    return this.all.length;
  }
}

/** The chat panel of a game page (ChatPanel). */
export function chatPanel(send) {
  return new ChatPanel(send);
}
