// The game page: the live board, players and clocks, the move list with
// replay, and the buttons to resign, offer a draw, ask for a rematch,
// download the record or analyse a position. Spectators see the same page
// without the buttons that act. What is the game's own (the pieces, the
// player bar's counts, the move box's hint, the board's orientation, the
// wording of some endings) comes from the game's module (games.js).

import { h, toast, formatClock, morphChildren } from './dom.js';
import { api, getMeta } from './api.js';
import { Board } from './board.js';
import { GameSocket } from './socket.js';
import { gameSpec, loadGame } from './games.js';
import { resultText, rulesLabel, stateClock } from './words.js';
import { profileHref, ratingDiff } from './players.js';
import { rememberGame } from './mine.js';
import { play, soundOn, setSound } from './sound.js';

const ICONS = {
  first: 'M6 5h2v14H6zM18 5v14l-9-7z',
  prev: 'M16 5v14l-9-7z',
  next: 'M8 5v14l9-7z',
  last: 'M16 5h2v14h-2zM6 5v14l9-7z',
  flip: 'M7 4l-4 4h3v8h2V8h3zM17 20l4-4h-3V8h-2v8h-3z',
};

function icon(path) {
  return `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="currentColor" d="${path}"/></svg>`;
}

/** Which way to turn the board so that side i's pieces start at the bottom. */
function orientationFor(game, state, i) {
  return game.orientation(game.parse(state.start), i, state.sides) ? 1 : 0;
}

let meta = null;

/** How a seat's player is shown: you, Anonymous, the computer, or a free seat. */
function playerLabel(player, you, status) {
  if (you) return 'you';
  if (!player) return status === 'waiting' ? 'waiting…' : '';
  if (player === 'human') return 'Anonymous';
  return player;
}

export function gameView(id) {
  const params = new URLSearchParams(location.search);
  const invite = params.get('invite');

  const boardBox = h('div.board-box');
  const topBar = h('div.player.top');
  const bottomBar = h('div.player.bottom');
  const statusBox = h('div.status', { role: 'status', 'aria-live': 'polite' });
  const movesBox = h('div.moves', { role: 'list', 'aria-label': 'Moves' });
  const navBox = h('div.replay-nav');
  const actionsBox = h('div.actions');
  const extraBox = h('div.extra');
  const connBox = h('div.conn', { role: 'status', 'aria-live': 'polite' });
  const soundBtn = h('button.btn.small.ghost.sound-toggle', { type: 'button', onclick: () => { setSound(!soundOn()); showSound(); } });
  function showSound() {
    soundBtn.textContent = soundOn() ? 'Sound on' : 'Sound off';
    soundBtn.setAttribute('aria-pressed', String(soundOn()));
    soundBtn.title = soundOn() ? 'A tone when the opponent moves and when the game ends: click to turn off' : 'Click to hear a tone when the opponent moves';
  }
  showSound();
  const moveForm = h('form.move-form', { hidden: true });
  const replayFlag = h('button.replay-flag', { type: 'button', hidden: true, onclick: () => goto(v.state.moves.length, false) });
  const node = h('div.game-page',
    h('div.game-layout',
      h('div.area-board', boardBox, connBox, replayFlag),
      topBar,
      h('div.area-side', statusBox, movesBox, navBox),
      h('div.area-actions', actionsBox, moveForm, extraBox, soundBtn),
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
  };
  window.magnetonGame = v;

  const positionAt = (ply) => (ply === 0 ? v.state.start : v.state.positions[ply - 1]);
  const canMove = () => {
    const s = v.state;
    return s && s.status === 'playing' && s.seat != null && s.seat === s.turn && v.ply === s.moves.length && s.legal && s.legal.length > 0;
  };

  function sendMove(move) {
    if (!v.socket.send({ type: 'move', move })) {
      toast('Not connected: the move was not sent. Reconnecting…', 'error');
      renderBoard(false);
    }
  }

  function ensureBoard() {
    if (v.board) return;
    if (v.state.seat != null) v.bottom = v.state.seat;
    v.board = new Board(boardBox, { game: v.game, onMove: sendMove, orientation: orientationFor(v.game, v.state, v.bottom) });
  }

  function renderBoard(animate) {
    ensureBoard();
    const behind = v.state.status === 'playing' && v.ply < v.state.moves.length;
    replayFlag.hidden = !behind;
    if (behind) replayFlag.textContent = `Move ${v.ply} of ${v.state.moves.length} · back to the game ▸`;
    const s = v.state;
    const ply = v.ply;
    const opts = { last: ply > 0 ? s.moves[ply - 1] : '', legal: canMove() ? s.legal : [] };
    if (animate && ply > 0) opts.from = positionAt(ply - 1);
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

  function playerBar(bar, i) {
    const s = v.state;
    const side = s.sides[i];
    const info = v.game.sideInfo(v.game.parse(positionAt(v.ply)), i, s.sides);
    const hand = info && h('span.hand', { title: info.title || null },
      info.badge ? h('span', { class: info.badge.cls || null }, info.badge.text || '') : null, info.text || '');
    const you = s.seat === i;
    const turn = s.status === 'playing' && s.turn === i;
    bar.classList.toggle('turn', turn);
    bar.setAttribute('data-side', String(i));
    const clock = s.clock ? h('div.clock', { 'data-clock': String(i), class: turn ? 'running' : '' }, formatClock(clockMs(i))) : null;
    // An account's name links to its profile; a rated game shows the
    // rating it began with and, once over, the change it made.
    const name = side.user
      ? h('a.player-name.user-link', { href: profileHref(side.user), title: `${side.user}'s profile` }, side.user)
      : h('span.player-name', playerLabel(side.player, you, s.status));
    const over = s.status === 'finished' && side.rating && typeof side.rating_diff === 'number';
    const who = h('div.who',
      h('span.dot', { class: side.connected ? 'on' : 'off', title: side.connected ? 'connected' : 'not connected' }),
      h('span.side-name', h('span.chip.' + side.letter), side.name),
      h('span.player-id', name,
        side.user && you ? h('small.you', ' (you)') : null,
        side.rating ? h('span.rating', { title: 'rating when the game began' }, side.rating) : null,
        over ? ratingDiff(side.rating_diff) : null),
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
          c.textContent = formatClock(ms);
          c.classList.toggle('low', ms < 20000);
        }
      }, 100);
    }
  }

  // ---- status, move list, replay

  function renderStatus() {
    const s = v.state;
    statusBox.textContent = '';
    statusBox.className = 'status';
    const kind = [s.rated ? 'Rated' : 'Casual', stateClock(s.clock) || 'no clock'].join(' · ');
    const rules = h('div.rules', { title: s.rules || 'standard' }, `${kind} · ${rulesLabel(meta, s.game, s.rules)}`);
    statusBox.append(h('div.title', s.title, rules));
    if (s.status === 'finished') {
      statusBox.classList.add('over');
      statusBox.append(h('div.result', { 'data-result': s.result },
        h('strong.score', s.result === '1/2-1/2' ? '½-½' : s.result), h('span.reason', resultText(s, gameSpec(meta, s.game), v.game))));
    } else if (s.status === 'aborted') {
      statusBox.classList.add('over');
      statusBox.append(h('div.result', { 'data-result': 'aborted' }, h('strong.score', 'Aborted'),
        h('span.reason', 'Nobody played this game for a day, so the server gave it up. It has no result.')));
    } else if (s.status === 'waiting') {
      statusBox.append(h('div.line', 'Waiting for an opponent to join'));
    } else if (s.seat == null) {
      statusBox.append(h('div.line', `Watching · ${s.sides[s.turn].name} to move`));
    } else if (s.seat === s.turn) {
      statusBox.append(h('div.line.your-turn', 'Your turn'));
    } else {
      statusBox.append(h('div.line', `${s.sides[s.turn].name} to move`));
    }
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
    if (s.moves.length === 0) movesBox.append(h('p.empty', s.status === 'waiting' ? 'The game starts when your opponent arrives.' : 'No moves yet.'));
    const cur = movesBox.querySelector('[aria-current="true"]');
    if (cur) {
      const top = cur.offsetTop - movesBox.offsetTop;
      if (top < movesBox.scrollTop || top > movesBox.scrollTop + movesBox.clientHeight - 30) movesBox.scrollTop = top - movesBox.clientHeight / 2;
    } else if (v.ply === s.moves.length) {
      movesBox.scrollTop = movesBox.scrollHeight;
    }
  }

  function renderNav() {
    const n = v.state.moves.length;
    navBox.textContent = '';
    const b = (label, path, ply, disabled) => {
      const btn = h('button.btn.icon', { type: 'button', 'aria-label': label, title: label, disabled, onclick: () => goto(ply, true) });
      btn.innerHTML = icon(path);
      return btn;
    };
    const flipBtn = h('button.btn.icon', { type: 'button', 'aria-label': 'Flip the board', title: 'Flip the board (f)', onclick: flip });
    flipBtn.innerHTML = icon(ICONS.flip);
    navBox.append(
      b('First position', ICONS.first, 0, v.ply === 0),
      b('Previous move', ICONS.prev, v.ply - 1, v.ply === 0),
      b('Next move', ICONS.next, v.ply + 1, v.ply === n),
      b('Last position', ICONS.last, n, v.ply === n),
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
    if (!v.socket.send(msg)) toast('Not connected. Reconnecting…', 'error');
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
        const input = h('input.invite-url', { type: 'text', readonly: true, value: url, 'aria-label': 'Invitation link', onfocus: (e) => e.target.select() });
        actionsBox.append(h('div.invite',
          h('p', 'Send this link to your opponent. The game starts when they open it.'),
          h('div.copy-row', input, h('button.btn.primary', {
            type: 'button',
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(url);
                toast('Invitation link copied');
              } catch (e) {
                input.select();
              }
            },
          }, 'Copy'))));
      } else if (seated) {
        actionsBox.append(h('p.note', 'Waiting for your opponent to open the invitation.'));
      } else {
        actionsBox.append(h('button.btn.primary.big', { type: 'button', id: 'join', onclick: joinOpen }, 'Join this game'));
      }
      return;
    }
    if (s.status === 'playing' && seated) {
      if (s.draw_offer === other) {
        actionsBox.append(h('div.offer', h('span', 'Your opponent offers a draw'),
          h('button.btn.primary', { type: 'button', onclick: () => send({ type: 'draw', action: 'accept' }) }, 'Accept draw'),
          h('button.btn', { type: 'button', onclick: () => send({ type: 'draw', action: 'decline' }) }, 'Decline')));
      }
      const offered = s.draw_offer === s.seat;
      actionsBox.append(
        h('button.btn', { type: 'button', id: 'offer-draw', disabled: offered || s.draw_offer === other, onclick: () => send({ type: 'draw', action: 'offer' }) }, offered ? 'Draw offered' : '½ Offer draw'),
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
        }, v.confirmResign ? 'Really resign?' : '⚑ Resign'));
    }
    if (s.status === 'finished') {
      if (seated) {
        const r = s.rematch;
        if (r && r.game) {
          actionsBox.append(h('button.btn.primary', { type: 'button', onclick: () => joinRematch(r.game) }, 'Go to the rematch'));
        } else if (r && r.offered_by === other) {
          // As visible as a draw offer: a banner, not only a button's text.
          actionsBox.append(h('div.offer.rematch-offer', h('span', 'Your opponent wants a rematch'),
            h('button.btn.primary', { type: 'button', id: 'rematch', onclick: () => send({ type: 'rematch', action: 'accept' }) }, 'Accept rematch')));
        } else if (r && r.offered_by === s.seat) {
          actionsBox.append(h('button.btn', { type: 'button', disabled: true }, 'Rematch offered…'));
        } else {
          actionsBox.append(h('button.btn.primary', { type: 'button', id: 'rematch', onclick: () => send({ type: 'rematch', action: 'offer' }) }, 'Rematch'));
        }
      } else if (s.rematch && s.rematch.game) {
        actionsBox.append(h('a.btn', { href: `/g/${s.rematch.game}` }, 'Watch the rematch'));
      }
      actionsBox.append(h('a.btn', { href: '/' }, 'New game'));
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
        links.push(h('a.link', { href: `/api/games/${encodeURIComponent(s.id)}/record?${q}`, download: `${s.id}.${f.name}`, title: f.title || null, 'data-format': f.name }, `Download ${f.name.toUpperCase()}`));
      }
    }
    const analyse = h('a.link', {
      href: '#',
      onclick: (e) => {
        e.preventDefault();
        const q = new URLSearchParams({ game: s.game, rules: s.rules || '', position: positionAt(v.ply) });
        location.assign('/#/analysis?' + q.toString());
      },
    }, 'Analyse this position');
    if (s.status === 'finished' || s.seat == null) links.push(analyse);
    extraBox.append(h('div.links', links));
  }

  function renderMoveForm() {
    const on = canMove();
    moveForm.hidden = !on;
    if (!on || moveForm.childElementCount) return;
    const input = h('input', { type: 'text', id: 'move-input', autocomplete: 'off', spellcheck: 'false', placeholder: v.game.moveHint || '' });
    moveForm.append(h('label', { for: 'move-input' }, 'Type a move'), input, h('button.btn.small', { type: 'submit' }, 'Play'));
    moveForm.onsubmit = (e) => {
      e.preventDefault();
      const m = input.value.trim();
      if (!m) return;
      input.value = '';
      sendMove(m);
    };
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
    const flag = yourTurn ? '● Your turn · ' : askedRematch ? '● Rematch? · ' : '';
    document.title = `${flag}${s.title} · ${s.sides[0].name} vs ${s.sides[1].name}`;
    node.dataset.status = v.state.status;
    return renderBoard(animate);
  }

  // ---- server messages

  async function onState(s) {
    const prev = v.state;
    const wasAtEnd = !prev || v.ply === prev.moves.length;
    const grew = prev && s.moves.length === prev.moves.length + 1;
    v.state = s;
    if (s.seat != null && !(prev && prev.seat === s.seat)) rememberGame(s.id);
    v.clockBase = Date.now();
    if (s.clock && s.clock.at) {
      const lag = Date.now() - s.clock.at;
      if (lag >= 0 && lag < 2000) v.clockBase = s.clock.at;
    }
    if (wasAtEnd || v.ply > s.moves.length) v.ply = s.moves.length;
    const anim = renderAll(wasAtEnd && grew);
    if (prev && s.seat != null && prev.draw_offer === s.seat && s.draw_offer == null && s.status === 'playing' && s.moves.length === prev.moves.length) {
      toast('Your draw offer was declined.');
    }
    if (s.status === 'finished' && prev && prev.status !== 'finished') {
      toast(resultText(s, gameSpec(meta, s.game), v.game) || 'Game over');
      if (s.seat != null) play('end');
    } else if (grew && s.seat != null && s.status === 'playing' && s.turn === s.seat) {
      play('turn'); // the opponent has moved
    }
    const offeredBy = (x) => (x && x.rematch && !x.rematch.game ? x.rematch.offered_by : null);
    if (s.seat != null && offeredBy(s) === 1 - s.seat && offeredBy(prev) !== 1 - s.seat && prev) {
      toast('Your opponent wants a rematch');
      play('turn');
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
    } else if (msg.type === 'error') {
      toast(msg.message || 'The server refused that.', 'error');
      v.queue = v.queue.then(() => { if (v.state) renderBoard(false); });
    }
  }

  function onStatus(up, code) {
    connBox.textContent = '';
    node.classList.toggle('offline', !up);
    if (!up) {
      const why = code === 1008 ? 'Too many messages; ' : '';
      connBox.append(h('span.reconnecting', `${why}Connection lost — reconnecting…`));
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

  function onKey(e) {
    if (!v.state || e.target.closest('input, textarea, select')) return;
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
      try {
        meta = await getMeta();
      } catch (err) {
        meta = null;
      }
      if (invite) {
        try {
          await api('POST', `/api/games/${id}/join`, { invite });
        } catch (err) {
          if (err.status === 409) toast('This invitation has already been used; you are watching.', 'info');
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
        const title = err.status === 404 ? 'No such game' : first ? `${first.title || first.game} cannot be shown here` : 'The game cannot be shown';
        node.append(h('div.card.not-found', h('h1', title), h('p', err.message), h('a.btn.primary', { href: '/' }, 'Back to the lobby')));
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
      clearInterval(v.clockTimer);
      if (v.socket) v.socket.close();
    },
  };
}
