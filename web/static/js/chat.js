// The game page's chat: the lines this viewer may see (the server keeps the
// players' room and the spectators' room apart while the game is going
// on), an input for this viewer's room, a switch that turns the chat off,
// and, for a player, a button that hides the opponent's lines. Every text
// is put in as text (textContent), never as HTML: a link or a tag someone
// typed is shown as they typed it.

import { t } from './i18n.js';
import { h } from './dom.js';
import { chatOn, setChatOn, isMuted, setMuted } from './prefs.js';

/** The server's limit on a line's length. */
export const MAX_CHAT = 300;

/**
 * A chat panel; send(msg) sends a message over the game's socket and
 * reports whether it went. Call state(s) with every game state, lines(list)
 * with a whole state's lines, add(line) with a new one.
 */
export function chatPanel(send) {
  const list = h('ol.chat-lines', { role: 'log', 'aria-live': 'polite', 'aria-label': t('ch.messages') });
  const empty = h('p.chat-empty', t('ch.empty'));
  const input = h('input#chat-input', { type: 'text', maxlength: String(MAX_CHAT), autocomplete: 'off', 'aria-label': t('ch.yours') });
  const count = h('small.chat-count', { 'aria-live': 'polite' });
  const form = h('form.chat-form', input, count);
  const room = h('span.chat-room');
  const mute = h('button.btn.small.ghost#chat-mute', { type: 'button', hidden: true });
  const toggle = h('input.switch#chat-on', { type: 'checkbox', role: 'switch', checked: chatOn() });
  const off = h('p.chat-off', { hidden: true }, t('ch.off'));
  const node = h('section.chat', { 'aria-labelledby': 'chat-title' },
    h('div.chat-head',
      h('h2#chat-title', t('ch.title')), room, mute,
      h('span.chat-switch', { title: t('ch.switch') }, toggle, h('label.visually-hidden', { for: 'chat-on' }, t('ch.on')))),
    list, empty, off, form);

  let s = null;
  let all = [];

  /** The name the opponent's lines carry, for muting. */
  function opponentName() {
    if (!s || s.seat == null) return '';
    const o = s.sides[1 - s.seat];
    return o.user || (o.player && o.player !== 'human' ? o.player : '');
  }

  function hidden(line) {
    if (isMuted(line.name)) return true;
    return !!s && s.seat != null && line.side === 1 - s.seat && isMuted(opponentName());
  }

  function lineNode(line) {
    const mine = s && s.seat != null && line.side === s.seat;
    const spectator = line.room === 'spectators';
    return h('li.chat-line', { 'data-room': line.room || 'players', 'data-side': String(line.side ?? -1), class: mine ? 'mine' : null },
      h('span.chat-name', line.name || t('w.anonymous')),
      spectator ? h('span.chat-tag', { title: "said in the spectators' room" }, 'spectator') : null,
      h('span.chat-text', line.text || ''));
  }

  function render() {
    const on = chatOn();
    toggle.checked = on;
    list.hidden = !on;
    off.hidden = on;
    const seated = s && s.seat != null;
    // Writing is for a game someone can still read: not an aborted one.
    form.hidden = !on || !s || s.status === 'aborted';
    const toRoom = s && s.chat_room === 'spectators' ? 'spectators' : 'players';
    room.textContent = s ? (toRoom === 'spectators' ? t('ch.spectators') : t('ch.players')) : '';
    room.title = toRoom === 'spectators' ? t('ch.toSpectators') : t('ch.toPlayers');
    input.placeholder = toRoom === 'spectators' ? t('ch.saySpectators') : seated ? t('ch.sayOpponent') : t('ch.say');
    const opp = opponentName();
    const opponentIsPerson = seated && s.sides[1 - s.seat].player && !/^computer/i.test(s.sides[1 - s.seat].player);
    mute.hidden = !on || !opponentIsPerson;
    const muted = !!opp && isMuted(opp);
    mute.textContent = muted ? t('ch.unmute') : t('ch.mute');
    mute.title = muted ? t('ch.showAgain', { name: opp }) : opp ? t('ch.hide', { name: opp }) : t('ch.hideOpponent');
    mute.setAttribute('aria-pressed', String(muted));
    const shown = all.filter((l) => !hidden(l));
    list.textContent = '';
    for (const l of shown) list.append(lineNode(l));
    empty.hidden = !on || shown.length > 0;
    list.scrollTop = list.scrollHeight;
  }

  function showCount() {
    const left = MAX_CHAT - input.value.length;
    count.textContent = left <= 50 ? `${left} left` : '';
  }

  input.addEventListener('input', showCount);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHAT) return;
    if (send({ type: 'chat', text })) {
      input.value = '';
      showCount();
    }
  });
  toggle.addEventListener('change', () => {
    setChatOn(toggle.checked);
    render();
  });
  mute.addEventListener('click', () => {
    const opp = opponentName();
    if (!opp) return;
    setMuted(opp, !isMuted(opp));
    render();
  });

  return {
    node,
    state(next) {
      s = next;
      render();
    },
    lines(lines) {
      all = Array.isArray(lines) ? lines.slice() : [];
      render();
    },
    /** Adds a line; reports whether the viewer sees it (chat on, not muted, not their own). */
    add(line) {
      if (!line) return false;
      all.push(line);
      if (!chatOn() || hidden(line)) return false;
      empty.hidden = true;
      list.append(lineNode(line));
      list.scrollTop = list.scrollHeight;
      return !(s && s.seat != null && line.side === s.seat);
    },
    /** Whether there is anything to show: lines, or a game one can still write in. */
    get count() {
      return all.length;
    },
  };
}
