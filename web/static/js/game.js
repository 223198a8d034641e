// The game page: the live board, players and clocks, the move list with
// replay, the chat, and the buttons to resign or abort, offer a draw, ask
// for a takeback or a rematch, claim a game the opponent left, download
// the record or analyse a position. Spectators see the same page without
// the buttons that act. What is the game's own (the pieces, the
// player bar's counts, the move box's hint, the board's orientation, the
// wording of some endings) comes from the game's module (games.js).

import { t, serverText, sideText } from './i18n.js';
import { h, toast, formatClock, formatDays, secondsLeft, morphChildren, ICONS } from './dom.js';
import { api, getMeta } from './api.js';
import { Board } from './board.js';
import { GameSocket } from './socket.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { resultText, rulesLabel, stateClock, clockLabel, abortText, playerName } from './words.js';
import { profileHref, ratingDiff } from './players.js';
import { rememberGame } from './mine.js';
import { play, soundOn, setSound, volume, setVolume } from './sound.js';
import { chatPanel } from './chat.js';
import { confirmMoves, setConfirmMoves, chatOn } from './prefs.js';
import { markFavicon, notify, clearNotification, canNotify, notifyPermission, askNotify } from './notify.js';
import { reviewPanel, keepInView } from './review.js';

/** Below this much time on a live clock, it turns red and a tone warns once. */
const LOW_MS = 20000;
/** The same for a correspondence clock: an hour. */
const LOW_DAYS_MS = 3600000;


function icon(path) {
  return `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="currentColor" d="${path}"/></svg>`;
}

/** Which way to turn the board so that side i's pieces start at the bottom. */
function orientationFor(game, state, i) {
  return game.orientation(game.parse(state.start, gridFor(game)), i, state.sides) ? 1 : 0;
}

let meta = null;

/** How a seat's player is shown: you, Anonymous, the computer, or a free seat. */
function playerLabel(player, you, status) {
  if (you) return t('gm.you');
  if (!player) return status === 'waiting' ? t('gm.waitingSeat') : '';
  return playerName(player);
}

export function gameView(id) {
  const params = new URLSearchParams(location.search);
  const invite = params.get('invite');

  const boardBox = h('div.board-box');
  const topBar = h('div.player.top');
  const bottomBar = h('div.player.bottom');
  const statusBox = h('div.status', { role: 'status', 'aria-live': 'polite' });
  const movesBox = h('div.moves', { role: 'list', 'aria-label': t('gm.moves') });
  const navBox = h('div.replay-nav');
  const actionsBox = h('div.actions');
  const extraBox = h('div.extra');
  const connBox = h('div.conn', { role: 'status', 'aria-live': 'polite' });
  const soundBtn = h('button.btn.small.ghost.sound-toggle', { type: 'button', onclick: () => { setSound(!soundOn()); showSound(); } });
  const volumeInput = h('input.volume#volume', {
    type: 'range', min: '0', max: '100', step: '5', value: String(Math.round(volume() * 100)), 'aria-label': t('gm.volume'),
    onchange: () => { setVolume(Number(volumeInput.value) / 100); play('move'); },
  });
  function showSound() {
    soundBtn.textContent = soundOn() ? t('gm.soundOn') : t('gm.soundOff');
    soundBtn.setAttribute('aria-pressed', String(soundOn()));
    soundBtn.title = soundOn() ? t('gm.soundOnTitle') : t('gm.soundOffTitle');
    volumeInput.disabled = !soundOn();
  }
  showSound();
  const confirmBox = h('input.switch#confirm-moves', {
    type: 'checkbox', role: 'switch', checked: confirmMoves(),
    onchange: () => { setConfirmMoves(confirmBox.checked); if (!confirmBox.checked && v.pending) cancelPending(); },
  });
  const notifyBox = h('span.notify-setting.player-only');
  function showNotify() {
    notifyBox.textContent = '';
    const p = notifyPermission();
    if (p === 'default') {
      notifyBox.append(h('button.link-btn#notify-ask', {
        type: 'button', title: t('gm.notifyTitle'),
        onclick: async () => { await askNotify(); showNotify(); },
      }, t('gm.notify')));
    } else if (p === 'granted') {
      notifyBox.append(h('small.muted', t('gm.notifyOn')));
    } else if (p === 'denied') {
      notifyBox.append(h('small.muted', { title: t('gm.notifyBlockedTitle') }, t('gm.notifyBlocked')));
    }
  }
  if (canNotify()) showNotify();
  const settingsBox = h('div.settings',
    h('span.sound-setting', soundBtn, volumeInput),
    h('span.switch-setting.player-only', { title: t('gm.confirmTitle') }, confirmBox, h('label', { for: 'confirm-moves' }, t('gm.confirmMoves'))),
    notifyBox);
  const moveForm = h('form.move-form', { hidden: true });
  const pendingBox = h('div.pending', { hidden: true, role: 'status' });
  const replayFlag = h('button.replay-flag', { type: 'button', hidden: true, onclick: () => goto(v.state.moves.length, false) });
  const chat = chatPanel((msg) => {
    if (v.socket && v.socket.send(msg)) return true;
    toast(t('gm.notSentMsg'), 'error');
    return false;
  });
  const review = reviewPanel({ goto: (ply) => goto(ply, false) });
  const node = h('div.game-page',
    h('div.game-layout',
      h('div.area-board', boardBox, connBox, replayFlag, review.node),
      topBar,
      h('div.area-side', statusBox, movesBox, navBox),
      h('div.area-chat', chat.node),
      h('div.area-actions', pendingBox, actionsBox, moveForm, extraBox, settingsBox),
      bottomBar));

  const v = {
    state: null,
    game: null, // the game's module
    ply: 0,
    board: null,
    bottom: 0,
    userFlipped: false,
    socket: null,
    queue: Promise.resolve(),
    clockTimer: null,
    clockBase: 0,
    confirmResign: false,
    joiningRematch: false,
    skew: 0, // the browser's clock minus the server's, from the last message's at
    pending: '', // a move made on the board, waiting for Confirm
    premove: '', // a move typed during the opponent's turn, played when the turn comes
    lowWarned: false,
    tickTimer: null,
    claimReady: false, // the claim's countdown had run out when the actions were drawn
  };
  v.chat = chat; // for the tests: chat.count, the lines received
  window.magnetonGame = v;

  const positionAt = (ply) => (ply === 0 ? v.state.start : v.state.positions[ply - 1]);
  const canMove = () => {
    const s = v.state;
    return s && s.status === 'playing' && s.seat != null && s.seat === s.turn && v.ply === s.moves.length && s.legal && s.legal.length > 0;
  };

  function sendMove(move) {
    if (!v.socket.send({ type: 'move', move })) {
      toast(t('gm.notSentMove'), 'error');
      renderBoard(false);
    }
  }

  /** The server's time now, as far as the last message tells it. */
  const serverNow = () => Date.now() - v.skew;

  /** Whether the game is played live: not by correspondence (days a move). */
  const live = () => !(v.state.clock && v.state.clock.per_move);

  /**
   * A move made on the board: sent at once, or, with "Confirm moves" on,
   * shown on the board (its squares marked) until the player confirms or
   * cancels it — a misclick costs nothing.
   */
  function boardMove(move) {
    if (!confirmMoves()) {
      sendMove(move);
      return;
    }
    v.pending = move;
    renderPending();
    renderBoard(false);
    const ok = pendingBox.querySelector('#confirm-move');
    if (ok) ok.focus();
  }

  function cancelPending() {
    v.pending = '';
    renderPending();
    if (v.state) renderBoard(false);
  }

  function renderPending() {
    pendingBox.textContent = '';
    if (v.pending && !canMove()) v.pending = '';
    if (v.premove && !(v.state && v.state.status === 'playing')) v.premove = '';
    if (v.pending) {
      pendingBox.append(h('span', t('gm.play'), ' ', h('strong.pending-move', v.pending), '?'),
        h('button.btn.primary#confirm-move', {
          type: 'button',
          onclick: () => {
            const m = v.pending;
            v.pending = '';
            renderPending();
            if (m && canMove()) sendMove(m);
          },
        }, t('gm.confirm')),
        h('button.btn#cancel-move', { type: 'button', onclick: cancelPending }, t('acc.cancel')));
    } else if (v.premove) {
      pendingBox.append(h('span', t('gm.premove'), ' ', h('strong.premove', v.premove), t('gm.premoveNote')),
        h('button.btn#cancel-premove', { type: 'button', onclick: () => { v.premove = ''; renderPending(); renderMoveForm(); } }, t('acc.cancel')));
    }
    pendingBox.hidden = !v.pending && !v.premove;
  }

  /** The premove, played now if it is the player's turn and the move is legal; dropped (with a word) if not. */
  function playPremove() {
    if (!v.premove || !canMove()) return false;
    const want = v.premove.toLowerCase();
    v.premove = '';
    renderPending();
    const m = v.state.legal.find((x) => x.toLowerCase() === want);
    if (!m) {
      toast(t('gm.premoveIllegal', { move: want }));
      return false;
    }
    sendMove(m);
    return true;
  }

  function ensureBoard() {
    if (v.board) return;
    if (v.state.seat != null) v.bottom = v.state.seat;
    v.board = new Board(boardBox, { game: v.game, onMove: boardMove, orientation: orientationFor(v.game, v.state, v.bottom), rules: v.state.rules });
  }

  function renderBoard(animate) {
    ensureBoard();
    const behind = v.state.status === 'playing' && v.ply < v.state.moves.length;
    replayFlag.hidden = !behind;
    if (behind) replayFlag.textContent = t('gm.replayFlag', { n: v.ply, total: v.state.moves.length });
    const s = v.state;
    const ply = v.ply;
    const opts = { last: ply > 0 ? s.moves[ply - 1] : '', legal: canMove() && !v.pending ? s.legal : [] };
    if (v.pending) {
      const grid = gridFor(v.game);
      const mv = v.game.parseMove(v.pending, grid);
      opts.marks = mv ? [mv.from >= 0 ? grid.sqName(mv.from) : null, grid.sqName(mv.to)].filter(Boolean) : [];
    }
    if (animate && ply > 0) opts.from = positionAt(ply - 1);
    if (s.status === 'finished' && ply === s.moves.length && ply > 0) opts.end = { result: s.result, reason: s.reason, before: positionAt(ply - 1) };
    return v.board.set(positionAt(ply), opts);
  }

  function goto(ply, animate) {
    if (!v.state) return;
    ply = Math.max(0, Math.min(v.state.moves.length, ply));
    const forward = ply === v.ply + 1;
    v.ply = ply;
    renderBoard(animate && forward);
    renderMoves();
    renderNav();
    renderPlayers();
    renderMoveForm();
  }

  // ---- players and clocks

  function clockMs(i) {
    const c = v.state.clock;
    if (!c) return null;
    let ms = c.remaining_ms[i];
    if (v.state.status === 'playing' && c.running === i) ms -= Date.now() - v.clockBase;
    return ms;
  }

  /** A clock's text: minutes and seconds, or days and hours by correspondence. */
  const clockText = (ms) => (live() ? formatClock(ms) : formatDays(ms));
  const lowAt = () => (live() ? LOW_MS : LOW_DAYS_MS);

  function playerBar(bar, i) {
    const s = v.state;
    const side = s.sides[i];
    const info = v.game.sideInfo(v.game.parse(positionAt(v.ply), gridFor(v.game)), i, s.sides);
    const hand = info && h('span.hand', { title: info.title || null },
      info.badge ? h('span', { class: info.badge.cls || null }, info.badge.text || '') : null, info.text || '');
    const you = s.seat === i;
    const turn = s.status === 'playing' && s.turn === i;
    bar.classList.toggle('turn', turn);
    bar.setAttribute('data-side', String(i));
    // A clock that has not started (before both first moves) is not
    // shown as running, though it is the side's turn.
    const running = turn && s.clock && s.clock.running === i;
    const ms = clockMs(i);
    const clock = s.clock ? h('div.clock', { 'data-clock': String(i), class: [running ? 'running' : '', running && ms < lowAt() ? 'low' : '', live() ? '' : 'days'].filter(Boolean).join(' ') || null }, clockText(ms)) : null;
    const away = s.status === 'playing' && side.away_since && !side.connected;
    // An account's name links to its profile; a rated game shows the
    // rating it began with and, once over, the change it made.
    const name = side.user
      ? h('a.player-name.user-link', { href: profileHref(side.user), title: t('gm.profileOf', { name: side.user }) }, side.user)
      : h('span.player-name', playerLabel(side.player, you, s.status));
    const over = s.status === 'finished' && side.rating && typeof side.rating_diff === 'number';
    const who = h('div.who',
      h('span.dot', { class: side.connected ? 'on' : 'off', title: side.connected ? 'connected' : 'not connected' }),
      h('span.side-name', h('span.chip.' + side.letter), side.name),
      h('span.player-id', name,
        side.user && you ? h('small.you', ' (you)') : null,
        side.rating ? h('span.rating', { title: 'rating when the game began' }, side.rating) : null,
        over ? ratingDiff(side.rating_diff) : null),
      away ? h('span.away', { title: `not connected since ${new Date(side.away_since).toLocaleTimeString()}` }, 'left the game') : null,
      hand);
    // Made again on every move, but kept node for node where nothing
    // changed, so that a click on the name's link is not lost.
    morphChildren(bar, clock ? [who, clock] : [who]);
  }

  function renderPlayers() {
    const s = v.state;
    playerBar(bottomBar, v.bottom);
    playerBar(topBar, 1 - v.bottom);
    clearInterval(v.clockTimer);
    if (s.clock && s.status === 'playing') {
      v.clockTimer = setInterval(() => {
        for (const bar of [topBar, bottomBar]) {
          const c = bar.querySelector('.clock');
          if (!c) continue;
          const i = Number(c.dataset.clock);
          const ms = clockMs(i);
          c.textContent = clockText(ms);
          const low = ms < lowAt();
          c.classList.toggle('low', low);
          // One warning a game when one's own running clock runs low;
          // again only after it has come well back (an increment).
          if (i === s.seat && s.clock.running === i && live()) {
            if (low && !v.lowWarned) {
              v.lowWarned = true;
              play('low');
            } else if (ms > LOW_MS * 1.5) {
              v.lowWarned = false;
            }
          }
        }
      }, live() ? 100 : 1000);
    }
  }

  // ---- status, move list, replay

  function renderStatus() {
    const s = v.state;
    statusBox.textContent = '';
    statusBox.className = 'status';
    const kind = [s.rated ? t('home.ratedLabel') : t('gm.casual'), clockLabel(stateClock(s.clock)) || t('w.noClock')].join(' · ');
    const rules = h('div.rules', { title: s.rules || 'standard' }, `${kind} · ${rulesLabel(meta, s.game, s.rules)}`);
    // The game's rules and lessons, for whoever opened a game they do not know.
    const rulesLink = h('a.rules-link', { href: `/learn/${encodeURIComponent(s.game)}`, target: '_blank', rel: 'noopener' }, t('gm.rulesLink'));
    statusBox.append(h('div.title', s.title, ' ', rulesLink, rules));
    if (s.status === 'finished') {
      statusBox.classList.add('over');
      statusBox.append(h('div.result', { 'data-result': s.result },
        h('strong.score', s.result === '1/2-1/2' ? '½-½' : s.result), h('span.reason', resultText(s, gameSpec(meta, s.game), v.game))));
    } else if (s.status === 'aborted') {
      statusBox.classList.add('over');
      statusBox.append(h('div.result', { 'data-result': 'aborted' }, h('strong.score', t('gm.aborted')),
        h('span.reason', abortText(s))));
    } else if (s.status === 'waiting') {
      statusBox.append(h('div.line', t('gm.waitingJoin')));
    } else if (s.seat == null) {
      statusBox.append(h('div.line', t('gm.watchingToMove', { side: s.sides[s.turn].name })));
    } else if (s.seat === s.turn) {
      statusBox.append(h('div.line.your-turn', t('home.yourTurn')));
    } else {
      statusBox.append(h('div.line', t('gm.toMove', { side: s.sides[s.turn].name })));
    }
    if (s.status === 'playing' && s.first_move_by) {
      // Before each side's first move the clocks stand still; the side
      // to move has this long, or the game is aborted.
      const text = s.seat === s.turn ? t('gm.firstMoveYou') : t('gm.firstMove', { side: s.sides[s.turn].name });
      statusBox.append(h('div.line.first-move', {
        'data-deadline': String(s.first_move_by),
        'data-text': text,
      }, countdownText(text, s.first_move_by)));
    }
  }

  /** A countdown's sentence: {s} becomes the seconds (or minutes) left until the server's moment at. */
  function countdownText(text, at) {
    const secs = secondsLeft(at - serverNow());
    let left = `${secs} s`;
    if (secs >= 2 * 86400) left = `${Math.floor(secs / 86400)} days`;
    else if (secs >= 2 * 3600) left = `${Math.floor(secs / 3600)} hours`;
    else if (secs >= 120) left = `${Math.ceil(secs / 60)} min`;
    return text.replace('{s}', left);
  }

  /**
   * Runs the page's countdowns (the first move's, the claim's) between
   * the server's messages; when the claim's runs out the buttons to claim
   * appear without waiting for the server to say so.
   */
  function tick() {
    if (!v.state) return;
    for (const e of node.querySelectorAll('[data-deadline]')) {
      const text = countdownText(e.dataset.text, Number(e.dataset.deadline));
      if (e.textContent !== text) e.textContent = text;
    }
    const c = claimInfo();
    if (c && c.ready !== v.claimReady) renderActions();
  }

  /** What the player may claim of an opponent who left: null, or {at: when, ready: now}. */
  function claimInfo() {
    const s = v.state;
    if (!s || s.status !== 'playing' || s.seat == null) return null;
    const o = s.sides[1 - s.seat];
    if (o.claimable) return { at: 0, ready: true };
    if (!o.away_since || o.connected || !s.claim_after_ms || !live()) return null;
    const at = o.away_since + s.claim_after_ms;
    return { at, ready: serverNow() >= at };
  }

  function renderMoves() {
    const s = v.state;
    movesBox.textContent = '';
    const per = 2;
    for (let k = 0; k < s.moves.length; k += per) {
      const row = h('div.move-row', { role: 'listitem' }, h('span.num', `${k / per + 1}.`));
      for (let j = k; j < k + per && j < s.moves.length; j++) {
        row.append(h('button.mv', { type: 'button', 'data-ply': String(j + 1), 'aria-current': j + 1 === v.ply ? 'true' : null, onclick: () => goto(j + 1, false) }, s.moves[j]));
      }
      movesBox.append(row);
    }
    if (s.moves.length === 0) movesBox.append(h('p.empty', s.status === 'waiting' ? t('gm.startsWhen') : t('gm.noMoves')));
    review.decorate(movesBox, v.ply);
    keepInView(movesBox, movesBox.querySelector('[aria-current="true"]'), v.ply === s.moves.length);
  }

  function renderNav() {
    const n = v.state.moves.length;
    navBox.textContent = '';
    const b = (label, path, ply, disabled) => {
      const btn = h('button.btn.icon', { type: 'button', 'aria-label': label, title: label, disabled, onclick: () => goto(ply, true) });
      btn.innerHTML = icon(path);
      return btn;
    };
    const flipBtn = h('button.btn.icon', { type: 'button', 'aria-label': t('gm.flip'), title: t('gm.flipTitle'), onclick: flip });
    flipBtn.innerHTML = icon(ICONS.flip);
    navBox.append(
      b(t('gm.first'), ICONS.first, 0, v.ply === 0),
      b(t('gm.prev'), ICONS.prev, v.ply - 1, v.ply === 0),
      b(t('gm.next'), ICONS.next, v.ply + 1, v.ply === n),
      b(t('gm.last'), ICONS.last, n, v.ply === n),
      flipBtn);
  }

  function flip() {
    v.bottom = 1 - v.bottom;
    v.board.setOrientation(orientationFor(v.game, v.state, v.bottom));
    renderBoard(false);
    renderPlayers();
  }

  // ---- actions

  function send(msg) {
    if (!v.socket.send(msg)) toast(t('gm.notConnected'), 'error');
  }

  function renderActions() {
    const s = v.state;
    actionsBox.textContent = '';
    const seated = s.seat != null;
    const other = seated ? 1 - s.seat : null;
    if (s.status === 'waiting') {
      const link = localStorage.getItem('invite_' + s.id);
      if (seated && link) {
        const url = new URL(link, location.origin).href;
        const input = h('input.invite-url', { type: 'text', readonly: true, value: url, 'aria-label': t('gm.inviteLink'), onfocus: (e) => e.target.select() });
        actionsBox.append(h('div.invite',
          h('p', t('gm.sendLink')),
          h('div.copy-row', input, h('button.btn.primary', {
            type: 'button',
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(url);
                toast(t('gm.copied'));
              } catch (e) {
                input.select();
              }
            },
          }, t('gm.copy')))));
      } else if (seated) {
        actionsBox.append(h('p.note', t('gm.waitInvite')));
      } else {
        actionsBox.append(h('button.btn.primary.big', { type: 'button', id: 'join', onclick: joinOpen }, t('gm.joinGame')));
      }
      return;
    }
    if (s.status === 'playing' && seated) {
      const claim = claimInfo();
      v.claimReady = !!(claim && claim.ready);
      if (claim && claim.ready) {
        actionsBox.append(h('div.offer.claim', h('span', t('gm.claimNow')),
          h('button.btn.primary#claim-win', { type: 'button', onclick: () => send({ type: 'claim', action: 'win' }) }, t('gm.claimWin')),
          h('button.btn#claim-draw', { type: 'button', onclick: () => send({ type: 'claim', action: 'draw' }) }, t('gm.claimDraw'))));
      } else if (claim) {
        const text = t('gm.claimSoon');
        actionsBox.append(h('div.offer.claim.waiting', h('span', { 'data-deadline': String(claim.at), 'data-text': text }, countdownText(text, claim.at))));
      }
      if (s.draw_offer === other) {
        actionsBox.append(h('div.offer', h('span', t('gm.drawOffered')),
          h('button.btn.primary', { type: 'button', onclick: () => send({ type: 'draw', action: 'accept' }) }, t('gm.acceptDraw')),
          h('button.btn', { type: 'button', onclick: () => send({ type: 'draw', action: 'decline' }) }, t('gm.decline'))));
      }
      const tb = s.takeback;
      if (tb && tb.offered_by === other) {
        actionsBox.append(h('div.offer.takeback-offer', h('span', t('gm.takebackAsked')),
          h('button.btn.primary#takeback-accept', { type: 'button', onclick: () => send({ type: 'takeback', action: 'accept' }) }, t('gm.acceptTakeback')),
          h('button.btn#takeback-decline', { type: 'button', onclick: () => send({ type: 'takeback', action: 'decline' }) }, t('gm.decline'))));
      }
      if (s.abortable) {
        // Before one's first move there is nothing to resign: the game
        // can be called off, with no result and no rating change.
        actionsBox.append(h('button.btn.danger', { type: 'button', id: 'abort', onclick: () => send({ type: 'abort' }) }, '✕ ' + t('gm.abort')));
        return;
      }
      if (s.takeback_allowed || (tb && tb.offered_by === s.seat)) {
        const asked = tb && tb.offered_by === s.seat;
        actionsBox.append(h('button.btn', {
          type: 'button', id: 'takeback', disabled: asked || (tb && tb.offered_by === other),
          title: t('gm.takebackTitle'),
          onclick: () => send({ type: 'takeback', action: 'offer' }),
        }, asked ? t('gm.takebackPending') : t('gm.takeback')));
      }
      const offered = s.draw_offer === s.seat;
      actionsBox.append(
        h('button.btn', { type: 'button', id: 'offer-draw', disabled: offered || s.draw_offer === other, onclick: () => send({ type: 'draw', action: 'offer' }) }, offered ? t('gm.drawPending') : t('gm.offerDraw')),
        h('button.btn.danger', {
          type: 'button',
          id: 'resign',
          onclick: () => {
            if (!v.confirmResign) {
              v.confirmResign = true;
              renderActions();
              setTimeout(() => { v.confirmResign = false; if (v.state) renderActions(); }, 4000);
              return;
            }
            v.confirmResign = false;
            send({ type: 'resign' });
          },
        }, v.confirmResign ? t('gm.reallyResign') : t('gm.resign')));
    }
    if (s.status === 'finished') {
      if (seated) {
        const r = s.rematch;
        if (r && r.game) {
          actionsBox.append(h('button.btn.primary', { type: 'button', onclick: () => joinRematch(r.game) }, t('gm.goRematch')));
        } else if (r && r.offered_by === other) {
          // As visible as a draw offer: a banner, not only a button's text.
          actionsBox.append(h('div.offer.rematch-offer', h('span', t('gm.rematchAsked')),
            h('button.btn.primary', { type: 'button', id: 'rematch', onclick: () => send({ type: 'rematch', action: 'accept' }) }, t('gm.acceptRematch'))));
        } else if (r && r.offered_by === s.seat) {
          actionsBox.append(h('button.btn', { type: 'button', disabled: true }, t('gm.rematchPending')));
        } else {
          actionsBox.append(h('button.btn.primary', { type: 'button', id: 'rematch', onclick: () => send({ type: 'rematch', action: 'offer' }) }, t('gm.rematch')));
        }
      } else if (s.rematch && s.rematch.game) {
        actionsBox.append(h('a.btn', { href: `/g/${s.rematch.game}` }, t('gm.watchRematch')));
      }
      actionsBox.append(h('a.btn', { href: '/' }, t('home.newGame')));
    }
  }

  function renderExtra() {
    const s = v.state;
    // Rebuilt only when what it shows changes: a link replaced under the
    // pointer between press and release loses the click.
    const key = [s.id, s.game, s.rules, s.status, s.seat, s.moves.length > 0].join('|');
    if (extraBox.dataset.key === key) return;
    extraBox.dataset.key = key;
    extraBox.textContent = '';
    const links = [];
    if (s.moves.length > 0 || s.status === 'finished') {
      const spec = gameSpec(meta, s.game);
      for (const f of (spec && spec.formats) || []) {
        const q = new URLSearchParams({ format: f.name });
        links.push(h('a.link', { href: `/api/games/${encodeURIComponent(s.id)}/record?${q}`, download: `${s.id}.${f.name}`, title: f.title || null, 'data-format': f.name }, t('gm.download', { format: f.name.toUpperCase() })));
      }
    }
    // Never for a game still being played: the engine would advise a player.
    const analyse = h('a.link#analyse-link', {
      href: `/analysis?id=${encodeURIComponent(s.id)}`,
      onclick: (e) => {
        e.preventDefault();
        location.assign(`/analysis?id=${encodeURIComponent(s.id)}&ply=${v.ply}`);
      },
    }, t('gm.analysis'));
    if (s.status === 'finished') links.push(analyse);
    extraBox.append(h('div.links', links));
  }

  /**
   * Whether a move may be typed ahead now: a live game, the opponent to
   * move, and the board at the last move. (The board itself takes no
   * premoves: only the side to move gets its legal moves from the server,
   * and the board knows a game's moves only from those.)
   */
  const canPremove = () => {
    const s = v.state;
    return s && s.status === 'playing' && s.seat != null && s.seat !== s.turn && v.ply === s.moves.length && live() && s.sides[1 - s.seat].player;
  };

  function renderMoveForm() {
    const now = canMove();
    const ahead = !now && canPremove();
    moveForm.hidden = !now && !ahead;
    if (moveForm.hidden) return;
    if (!moveForm.childElementCount) {
      const input = h('input', { type: 'text', id: 'move-input', autocomplete: 'off', spellcheck: 'false', placeholder: v.game.moveHint || '' });
      moveForm.append(h('label', { for: 'move-input' }), input, h('button.btn.small', { type: 'submit' }));
      moveForm.onsubmit = (e) => {
        e.preventDefault();
        const m = input.value.trim();
        if (!m) return;
        input.value = '';
        if (canMove()) {
          sendMove(m);
        } else if (canPremove()) {
          v.premove = m;
          renderPending();
        }
      };
    }
    moveForm.querySelector('label').textContent = now ? t('gm.typeMove') : t('gm.premove');
    moveForm.querySelector('button').textContent = now ? t('gm.playButton') : t('gm.queue');
    moveForm.querySelector('input').title = now ? '' : t('gm.premoveTitle');
  }

  function renderAll(animate) {
    renderStatus();
    renderPlayers();
    renderMoves();
    renderNav();
    renderActions();
    renderExtra();
    renderMoveForm();
    // The tab says when it is your move, as lichess's does.
    const s = v.state;
    const yourTurn = s.status === 'playing' && s.seat != null && s.turn === s.seat;
    const askedRematch = s.status === 'finished' && s.seat != null && s.rematch && !s.rematch.game && s.rematch.offered_by === 1 - s.seat;
    // An opponent's question shows there too, before the turn (a
    // takeback is asked on one's own turn), so that it is seen from
    // another tab.
    const asked = s.status === 'playing' && s.seat != null
      ? (s.takeback && s.takeback.offered_by === 1 - s.seat ? '● Takeback? · ' : s.draw_offer === 1 - s.seat ? '● Draw? · ' : '')
      : '';
    const flag = asked || (yourTurn ? '● Your turn · ' : askedRematch ? '● Rematch? · ' : '');
    document.title = `${flag}${s.title} · ${s.sides[0].name} vs ${s.sides[1].name}`;
    markFavicon(yourTurn);
    // Moves to confirm and turns to be told of are a player's.
    for (const e of settingsBox.querySelectorAll('.player-only')) e.hidden = s.seat == null;
    node.dataset.status = v.state.status;
    chat.state(s);
    review.state(s);
    renderPending();
    return renderBoard(animate);
  }

  // ---- server messages

  async function onState(s) {
    // The sides' names in the page's language (the server gives English).
    for (const sd of s.sides || []) {
      if (sd.serverName == null) sd.serverName = sd.name;
      sd.name = sideText(sd.serverName);
    }
    const prev = v.state;
    const wasAtEnd = !prev || v.ply === prev.moves.length;
    const grew = prev && s.moves.length === prev.moves.length + 1;
    v.state = s;
    if (s.seat != null && !(prev && prev.seat === s.seat)) rememberGame(s.id);
    if (typeof s.at === 'number') v.skew = Date.now() - s.at;
    if (Array.isArray(s.chat)) chat.lines(s.chat);
    if (prev && s.moves.length !== prev.moves.length) v.pending = '';
    v.clockBase = Date.now();
    if (s.clock && s.clock.at) {
      const lag = Date.now() - s.clock.at;
      if (lag >= 0 && lag < 2000) v.clockBase = s.clock.at;
    }
    if (wasAtEnd || v.ply > s.moves.length) v.ply = s.moves.length;
    const anim = renderAll(wasAtEnd && grew);
    if (prev && s.seat != null && prev.draw_offer === s.seat && s.draw_offer == null && s.status === 'playing' && s.moves.length === prev.moves.length) {
      toast(t('gm.drawDeclined'));
    }
    const seated = s.seat != null;
    const other = seated ? 1 - s.seat : null;
    if (prev && seated && prev.takeback && prev.takeback.offered_by === s.seat && !s.takeback && s.status === 'playing' && s.moves.length === prev.moves.length) {
      toast(t('gm.takebackDeclined'));
    }
    if (prev && s.moves.length < prev.moves.length) {
      toast(s.moves.length === prev.moves.length - 1 ? 'A move was taken back.' : `${prev.moves.length - s.moves.length} moves were taken back.`);
    }
    const over = (s.status === 'finished' || s.status === 'aborted') && prev && prev.status === 'playing';
    if (over) {
      toast(s.status === 'aborted' ? abortText(s) : resultText(s, gameSpec(meta, s.game), v.game) || t('gm.over'));
      if (seated) play('end');
      // (The server sends the players the whole state, with the
      // spectators' room now open to them, if the spectators chatted.)
    } else if (prev && prev.status === 'waiting' && s.status === 'playing' && seated) {
      toast(t('gm.begun'));
      if (s.turn === s.seat) {
        play('move');
        notify(t('home.yourTurn'), t('gm.notifyHere', { game: s.title }), 'game-' + s.id);
      }
    } else if (grew && seated && s.status === 'playing' && s.turn === s.seat) {
      // The opponent has moved: a knock if it took something (its target
      // was occupied), else the plain tone.
      const mv = v.game.parseMove(s.moves[s.moves.length - 1], gridFor(v.game));
      const before = v.game.parse(s.moves.length > 1 ? s.positions[s.positions.length - 2] : s.start, gridFor(v.game));
      play(mv && before.board && before.board[mv.to] ? 'capture' : 'move');
      notify(t('home.yourTurn'), t('gm.notifyPlayed', { game: s.title, side: s.sides[other].name, move: s.moves[s.moves.length - 1] }), 'game-' + s.id);
      if (!playPremove()) renderMoveForm();
    }
    // Asked something by the opponent: a banner (renderActions), a toast
    // and a tone, so that it is not missed.
    const asks = [
      [(x) => x.draw_offer, t('gm.drawOffered')],
      [(x) => (x.takeback ? x.takeback.offered_by : null), t('gm.takebackAsked2')],
      [(x) => (x.rematch && !x.rematch.game ? x.rematch.offered_by : null), t('gm.rematchAsked')],
    ];
    for (const [by, text] of asks) {
      if (prev && seated && by(s) === other && by(prev) !== other) {
        toast(text);
        play('offer');
      }
    }
    if (s.rematch && s.rematch.game && s.seat != null && !(prev && prev.rematch && prev.rematch.game)) joinRematch(s.rematch.game);
    await Promise.race([anim, new Promise((r) => setTimeout(r, 1500))]);
  }

  /**
   * The state after an update: the server sends the history once (a
   * state) and then updates without it, each with the number of moves
   * (ply) and the last move and position. Null when the update does not
   * follow the state held (a message was missed): then ask for a whole
   * state again.
   */
  function applyUpdate(prev, u) {
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

  function onMessage(msg) {
    if (msg.type === 'state') {
      if (msg.id && msg.id !== id) return;
      v.queue = v.queue.then(() => onState(msg)).catch((e) => console.warn(e));
    } else if (msg.type === 'update') {
      if (msg.id && msg.id !== id) return;
      v.queue = v.queue.then(() => {
        const next = applyUpdate(v.state, msg);
        if (!next) {
          v.socket.send({ type: 'sync' });
          return null;
        }
        return onState(next);
      }).catch((e) => console.warn(e));
    } else if (msg.type === 'chat') {
      v.queue = v.queue.then(() => {
        // A line from someone else, shown: a soft tone for the players.
        if (chat.add(msg.line) && v.state && v.state.seat != null && chatOn()) play('chat');
      });
    } else if (msg.type === 'error') {
      toast(serverText(msg.message || msg.error, msg.code, msg.vars) || t('gm.refused'), 'error');
      v.queue = v.queue.then(() => { if (v.state) renderBoard(false); });
    }
  }

  function onStatus(up, code) {
    connBox.textContent = '';
    node.classList.toggle('offline', !up);
    if (!up) {
      const why = code === 1008 ? t('gm.tooMany') : '';
      connBox.append(h('span.reconnecting', why + t('gm.lost')));
    }
  }

  async function joinOpen() {
    try {
      await api('POST', `/api/games/${id}/join`, {});
      reconnect();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  async function joinRematch(newId) {
    if (v.joiningRematch) return;
    v.joiningRematch = true;
    try {
      await api('POST', `/api/games/${newId}/join`, { rematch_of: id });
    } catch (err) {
      if (err.status !== 409) console.warn('rematch join:', err.message);
    }
    location.assign(`/g/${newId}`);
  }

  function reconnect() {
    if (v.socket) v.socket.close();
    v.socket = new GameSocket(id, { message: onMessage, status: onStatus });
  }

  function onVisible() {
    if (document.visibilityState === 'visible') clearNotification();
  }

  function onKey(e) {
    if (!v.state) return;
    if (e.key === 'Escape' && (v.pending || v.premove)) {
      // Escape takes back a move waiting for Confirm, or the premove.
      v.premove = '';
      cancelPending();
      renderMoveForm();
      return;
    }
    if (e.target.closest('input, textarea, select')) return;
    const n = v.state.moves.length;
    const keys = { ArrowLeft: v.ply - 1, ArrowRight: v.ply + 1, ArrowUp: 0, Home: 0, ArrowDown: n, End: n };
    if (e.key in keys) {
      e.preventDefault();
      goto(keys[e.key], e.key === 'ArrowRight');
    } else if (e.key === 'f') {
      flip();
    }
  }

  return {
    node,
    async mounted() {
      document.addEventListener('keydown', onKey);
      document.addEventListener('visibilitychange', onVisible);
      v.tickTimer = setInterval(tick, 250);
      try {
        meta = await getMeta();
      } catch (err) {
        meta = null;
      }
      if (invite) {
        try {
          await api('POST', `/api/games/${id}/join`, { invite });
        } catch (err) {
          if (err.status === 409) toast(t('gm.inviteUsed'), 'info');
          else toast(err.message, 'error');
        }
        history.replaceState(null, '', `/g/${id}`);
      }
      let first = null;
      try {
        first = await api('GET', `/api/games/${id}`);
        v.game = await loadGame(first.game);
        meta = await getMeta(); // loaded by now: the game's endings and record formats
      } catch (err) {
        node.textContent = '';
        const title = err.status === 404 ? t('gm.noGame') : first ? t('gm.cannotHere', { game: first.title || first.game }) : t('gm.cannot');
        node.append(h('div.card.not-found', h('h1', title), h('p', err.message), h('a.btn.primary', { href: '/' }, t('pr.back'))));
        return;
      }
      node.classList.add('game-' + v.game.name);
      onState(first);
      reconnect();
    },
    refresh() {
      // After a log-in or log-out: the players' names again, from the server.
      if (v.socket && v.state) v.socket.send({ type: 'sync' });
    },
    destroy() {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('visibilitychange', onVisible);
      clearInterval(v.clockTimer);
      clearInterval(v.tickTimer);
      review.destroy();
      markFavicon(false);
      clearNotification();
      if (v.socket) v.socket.close();
    },
  };
}
