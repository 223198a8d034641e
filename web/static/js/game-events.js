// What the server's messages tell the game page (onMessage): whole states,
// the updates sent between them (applyUpdate), chat lines and refusals;
// and what a new state tells the people at the page: the toasts, tones and
// notifications of what changed (announce: an offer declined, moves taken
// back, the game begun or over, the opponent's move, a question asked) and
// the tab's title (tabTitle).

import { toast } from './dom.js';
import { t, tn, serverText, sideText } from './i18n.js';
import { gameTitle } from './api.js';
import { gameSpec } from './games.js';
import { resultText, abortText, playerName } from './words.js';
import { play } from './sound.js';
import { notify, markFavicon } from './notify.js';
import { chatOn } from './prefs.js';

/** A message of the game page page's socket, handled in the order they came (page.queue). */
export function onMessage(page, msg) {
  const next = (f) => {
    page.queue = page.queue.then(f).catch((e) => console.warn(e));
  };
  if ((msg.type === 'state' || msg.type === 'update') && msg.id && msg.id !== page.id) return;
  if (msg.type === 'state') {
    next(() => page.onState(msg));
  } else if (msg.type === 'update') {
    next(() => {
      const s = applyUpdate(page.state, msg);
      if (!s) {
        page.socket.send({ type: 'sync' });
        return null;
      }
      return page.onState(s);
    });
  } else if (msg.type === 'chat') {
    // A line from someone else, shown: a soft tone for the players.
    next(() => {
      if (page.chat.add(msg.line) && page.state && page.state.seat != null && chatOn()) play('chat');
    });
  } else if (msg.type === 'error') {
    // A computer's move from this browser that came too late (another tab
    // of the player's sent it, the game moved on): nothing to say.
    if (msg.code === 'computer_stale' || msg.code === 'computer_time_up') return;
    toast(serverText(msg.message || msg.error, msg.code, msg.vars) || t('gm.refused'), 'error');
    next(() => { if (page.state) page.redrawBoard(); });
  }
}

/** The tab says when it is your move, as lichess's does, or when the opponent asks something. */
export function tabTitle(s) {
  const yourTurn = s.status === 'playing' && s.seat != null && s.turn === s.seat;
  const askedRematch = s.status === 'finished' && s.seat != null && s.rematch && !s.rematch.game && s.rematch.offered_by === 1 - s.seat;
  // An opponent's question shows there too, before the turn (a takeback
  // is asked on one's own turn), so that it is seen from another tab.
  const asked = s.status === 'playing' && s.seat != null
    ? (s.takeback && s.takeback.offered_by === 1 - s.seat ? 'gm.tabTakeback' : s.draw_offer === 1 - s.seat ? 'gm.tabDraw' : '')
    : '';
  const flag = asked || (yourTurn ? 'gm.tabYourTurn' : askedRematch ? 'gm.tabRematch' : '');
  // The players, as lichess's tab names them; while a seat is free, the
  // sides.
  const names = s.sides.map((sd) => sd.user || (sd.player === 'you' ? t('gm.you') : sd.player ? playerName(sd.player) : ''));
  const [first, second] = names.every(Boolean) ? names : s.sides.map((sd) => sideText(sd.name));
  const title = t('gm.tabTitle', { game: gameTitle(s.game, s.title), first, second });
  document.title = flag ? t('gm.tabFlag', { flag: t(flag), title }) : title;
  markFavicon(yourTurn);
}

/**
 * The state after an update: the server sends the history once (a state)
 * and then updates without it, each with the number of moves (ply) and the
 * last move and position. Null when the update does not follow the state
 * held (a message was missed): then ask for a whole state again.
 */
export function applyUpdate(prev, u) {
  if (!prev) return null;
  let moves = prev.moves;
  let positions = prev.positions;
  if (u.ply === moves.length + 1) {
    moves = [...moves, u.last];
    positions = [...positions, u.position];
  } else if (u.ply < moves.length && u.ply >= 0 && (u.ply === 0 ? prev.start : positions[u.ply - 1]) === u.position) {
    // A takeback: the history held, cut back.
    moves = moves.slice(0, u.ply);
    positions = positions.slice(0, u.ply);
  } else if (u.ply !== moves.length) {
    return null;
  }
  return Object.assign({}, u, { type: 'state', start: prev.start, moves, positions });
}

/** An offer of the player's declined, and moves taken back. */
function declined(prev, s) {
  const same = s.status === 'playing' && s.moves.length === prev.moves.length;
  if (s.seat != null && prev.draw_offer === s.seat && s.draw_offer == null && same) toast(t('gm.drawDeclined'));
  if (s.seat != null && prev.takeback && prev.takeback.offered_by === s.seat && !s.takeback && same) toast(t('gm.takebackDeclined'));
  const rematchAsked = (x) => x.rematch && !x.rematch.game && x.rematch.offered_by === s.seat;
  if (s.seat != null && rematchAsked(prev) && !s.rematch) toast(t('gp.rematchDeclined'));
  if (s.moves.length < prev.moves.length) {
    toast(tn('gm.takenBack', prev.moves.length - s.moves.length));
  }
}

/** The game over, begun, or the opponent's move made (grew: one move more): a toast, a tone, a notification, the premove played. */
function news(page, prev, s, grew) {
  const seated = s.seat != null;
  if ((s.status === 'finished' || s.status === 'aborted') && prev && prev.status === 'playing') {
    toast(s.status === 'aborted' ? abortText(s) : resultText(s, gameSpec(page.meta, s.game), page.game) || t('gm.over'));
    if (seated) play('end');
    // (The server sends the players the whole state, with the
    // spectators' room now open to them, if the spectators chatted.)
  } else if (prev && prev.status === 'waiting' && s.status === 'playing' && seated) {
    toast(t('gm.begun'));
    if (s.turn === s.seat) {
      play('move');
      notify(t('home.yourTurn'), t('gm.notifyHere', { game: gameTitle(s.game, s.title) }), 'game-' + s.id);
    }
  } else if (grew && seated && s.status === 'playing' && s.turn === s.seat) {
    // The opponent has moved: a knock if it took something (its target
    // was occupied), else the plain tone.
    const mv = page.game.parseMove(s.moves[s.moves.length - 1], page.grid);
    const before = page.game.parse(s.moves.length > 1 ? s.positions[s.positions.length - 2] : s.start, page.grid);
    play(mv && before.board && before.board[mv.to] ? 'capture' : 'move');
    notify(t('home.yourTurn'), t('gm.notifyPlayed', { game: gameTitle(s.game, s.title), side: sideText(s.sides[1 - s.seat].name), move: s.moves[s.moves.length - 1] }), 'game-' + s.id);
    if (!page.input.playPremove()) page.input.renderForm();
  }
}

/** Asked something by the opponent: a banner (the actions), a toast and a tone, so that it is not missed. */
function asked(prev, s) {
  const other = 1 - s.seat;
  const asks = [
    [(x) => x.draw_offer, t('gm.drawOffered')],
    [(x) => (x.takeback ? x.takeback.offered_by : null), t('gm.takebackAsked2')],
    [(x) => (x.rematch && !x.rematch.game ? x.rematch.offered_by : null), t('gm.rematchAsked')],
  ];
  for (const [by, text] of asks) {
    if (by(s) === other && by(prev) !== other) {
      toast(text);
      play('offer');
    }
  }
}

/**
 * Tells the game page page's viewer what the state s changed since prev
 * (null for the first): grew says the game has one move more.
 */
export function announce(page, prev, s, grew) {
  if (prev) declined(prev, s);
  news(page, prev, s, grew);
  if (prev && s.seat != null) asked(prev, s);
  // Only a player at the page when the rematch starts follows it: an old
  // game opened later (a replay from a profile) stays, with its link.
  if (prev && s.rematch && s.rematch.game && s.seat != null && !(prev.rematch && prev.rematch.game)) page.joinRematch(s.rematch.game);
}
