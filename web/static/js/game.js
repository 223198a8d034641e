// The game page: the live board, players and clocks, the move list with
// replay, the chat, and the buttons to resign or abort, offer a draw, ask
// for a takeback or a rematch, claim a game the opponent left, download
// the record or analyse a position; spectators see it without the buttons
// that act. What is the game's own (the pieces, the board's size and
// orientation, the player bar's counts, the move box's hint, the wording
// of some endings) comes from the game's module (games.js). GamePage holds
// the game's state and socket and draws through its components, each in a
// module of its own: game-board, -players, -status, -moves, -actions,
// -input, -settings, -speech and -computer.js (the computer when it thinks
// in this browser), chat.js and review.js; game-events.js
// reads the server's messages and says what a new state changed;
// game-seat.js takes a seat (an invitation, an open game, a rematch).

import { t, sideText } from './i18n.js';
import { h, toast } from './dom.js';
import { api, getMeta } from './api.js';
import { GameSocket } from './socket.js';
import { loadGame, gridFor } from './games.js';
import { rememberGame } from './mine.js';
import { chatPanel } from './chat.js';
import { markFavicon, clearNotification } from './notify.js';
import { reviewPanel } from './review.js';
import { LiveBoard } from './game-board.js';
import { PlayerBars } from './game-players.js';
import { StatusBox, tickCountdowns } from './game-status.js';
import { MoveList } from './game-moves.js';
import { Actions, Links } from './game-actions.js';
import { MoveInput } from './game-input.js';
import { settingsPanel } from './game-settings.js';
import { onMessage, announce, tabTitle } from './game-events.js';
import { Speech } from './game-speech.js';
import { joinOpen, joinRematch, acceptInvite } from './game-seat.js';
import { BrowserComputer } from './game-computer.js';

/** The game page of the game id; the browser tests read it as window.magnetonGame. */
class GamePage {
  constructor(id) {
    this.id = id;
    this.invite = new URLSearchParams(location.search).get('invite');
    this.meta = null;
    this.state = null;
    this.game = null; // the game's module
    this.grid = null; // its board
    this.ply = 0; // the ply shown
    this.bottom = 0; // the side at the bottom
    this.socket = null;
    this.queue = Promise.resolve();
    this.clockBase = 0;
    this.skew = 0; // the browser's clock minus the server's, from the last message's at
    this.joiningRematch = false;
    this.downSince = 0; // when the socket was lost, while it is
    this.reconnected = false; // the socket is back: the next state may give time back
    this.tickTimer = null;
    this.onKey = (e) => this.key(e);
    this.onVisible = () => {
      if (document.visibilityState === 'visible') clearNotification();
    };
    this.parts();
  }

  /** The components and the page's layout. */
  parts() {
    this.input = new MoveInput(this);
    this.board = new LiveBoard(this, (m) => this.input.boardMove(m));
    this.players = new PlayerBars(this);
    this.status = new StatusBox(this);
    this.moves = new MoveList(this);
    this.actions = new Actions(this);
    this.links = new Links(this);
    this.speech = new Speech(this);
    this.computer = new BrowserComputer(this);
    this.settings = settingsPanel(() => {
      if (this.input.pending) this.input.cancelPending();
    }, (on) => this.speech.show(on));
    this.chat = chatPanel((msg) => {
      if (this.socket && this.socket.send(msg)) return true;
      toast(t('gm.notSentMsg'), 'error');
      return false;
    });
    this.review = reviewPanel({ goto: (ply) => this.goto(ply, false) });
    this.connBox = h('div.conn', { role: 'status', 'aria-live': 'polite' });
    this.node = h('div.game-page',
      h('div.game-layout',
        h('div.area-board', this.board.box, this.connBox, this.board.flag, this.speech.node, this.review.node),
        this.players.top,
        h('div.area-side', this.status.node, this.moves.node, this.moves.nav),
        h('div.area-chat', this.chat.node),
        // The questions (an offer, a takeback asked, a move to confirm, a
        // premove, a claim) have a room of their own, kept when empty, so
        // that the moves, their buttons and the chat never shrink for one.
        h('div.area-prompt', this.input.pendingBox, this.actions.prompt),
        h('div.area-actions', this.actions.node, this.input.form, this.links.node, this.settings.node),
        this.players.bottom));
  }

  positionAt(ply) {
    return ply === 0 ? this.state.start : this.state.positions[ply - 1];
  }

  /** Whether the viewer may move now: their turn, at the last move. */
  canMove() {
    const s = this.state;
    return s && s.status === 'playing' && s.seat != null && s.seat === s.turn && this.ply === s.moves.length && s.legal && s.legal.length > 0;
  }

  /** The server's time now, as far as the last message tells it. */
  serverNow() {
    return Date.now() - this.skew;
  }

  /** Whether the game is played live: not by correspondence (days a move). */
  live() {
    return !(this.state.clock && this.state.clock.per_move);
  }

  sendMove(move) {
    if (!this.socket.send({ type: 'move', move })) {
      toast(t('gm.notSentMove'), 'error');
      this.redrawBoard();
    }
  }

  send(msg) {
    if (!this.socket.send(msg)) toast(t('gm.notConnected'), 'error');
  }

  redrawBoard() {
    return this.board.render(false);
  }

  goto(ply, animate) {
    if (!this.state) return;
    ply = Math.max(0, Math.min(this.state.moves.length, ply));
    const forward = ply === this.ply + 1;
    this.ply = ply;
    this.board.render(animate && forward);
    this.moves.render();
    this.players.render();
    this.input.renderForm();
  }

  flip() {
    this.bottom = 1 - this.bottom;
    this.board.turn();
    this.redrawBoard();
    this.players.render();
  }

  /** Draws everything for the state; returns the board's animation. */
  renderAll(animate) {
    const s = this.state;
    this.status.render();
    this.players.render();
    this.moves.render();
    this.actions.render();
    this.links.render();
    this.input.renderForm();
    tabTitle(s);
    this.settings.seated(s.seat != null);
    this.node.dataset.status = s.status;
    this.chat.state(s);
    this.review.state(s);
    this.input.renderPending();
    return this.board.render(animate);
  }

  /** A whole state from the server: kept, drawn, and what changed said. */
  async onState(s) {
    // The sides' names in the page's language (the server gives English).
    for (const sd of s.sides || []) {
      if (sd.serverName == null) sd.serverName = sd.name;
      sd.name = sideText(sd.serverName);
    }
    const prev = this.state;
    const before = this.players.running(prev);
    const wasAtEnd = !prev || this.ply === prev.moves.length;
    const grew = prev && s.moves.length === prev.moves.length + 1;
    this.state = s;
    if (s.seat != null && !(prev && prev.seat === s.seat)) rememberGame(s.id);
    if (typeof s.at === 'number') this.skew = Date.now() - s.at;
    if (Array.isArray(s.chat)) this.chat.lines(s.chat);
    if (prev && s.moves.length !== prev.moves.length) this.input.pending = '';
    this.clockBase = Date.now();
    if (s.clock && s.clock.at) {
      const lag = Date.now() - s.clock.at;
      if (lag >= 0 && lag < 2000) this.clockBase = s.clock.at;
    }
    if (wasAtEnd || this.ply > s.moves.length) this.ply = s.moves.length;
    this.uncharged(prev, before);
    const anim = this.renderAll(wasAtEnd && grew);
    this.computer.state(s);
    announce(this, prev, s, grew);
    this.speech.state(prev, s, grew);
    await Promise.race([anim, new Promise((r) => setTimeout(r, 1500))]);
  }

  /** After a reconnection, time the server gave back (it was down, and no clock ran): said, not left to a clock jumping back. */
  uncharged(prev, before) {
    if (!this.reconnected || !before) return;
    this.reconnected = false;
    const now = this.players.running(this.state);
    const back = now && now.side === before.side && prev.moves.length === this.state.moves.length ? now.ms - before.ms : 0;
    if (back >= 1000) toast(t('gp.notCharged', { s: Math.round(back / 1000) }), 'info');
  }

  onStatus(up, code) {
    this.connBox.textContent = '';
    this.node.classList.toggle('offline', !up);
    if (!up && !this.downSince) this.downSince = Date.now();
    if (up && this.downSince) {
      this.downSince = 0;
      this.reconnected = true; // the next state may correct the clocks
    }
    if (up) this.computer.reconnected();
    if (!up) {
      const why = code === 1008 ? t('gm.tooMany') : '';
      this.connBox.append(h('span.reconnecting', why + t('gm.lost')));
    }
  }

  joinOpen() {
    return joinOpen(this);
  }

  joinRematch(newId) {
    return joinRematch(this, newId);
  }

  reconnect() {
    if (this.socket) this.socket.close();
    this.socket = new GameSocket(this.id, { message: (m) => onMessage(this, m), status: (up, code) => this.onStatus(up, code) });
  }

  /** The keyboard: Escape drops a move waiting, the arrows, Home and End replay, f flips the board. */
  key(e) {
    if (!this.state) return;
    // Escape takes back a move waiting for Confirm, or the premove.
    if (e.key === 'Escape' && this.input.cancelAll()) return;
    if (e.target.closest('input, textarea, select')) return;
    const n = this.state.moves.length;
    const keys = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, ArrowUp: 0, Home: 0, ArrowDown: n, End: n };
    if (e.key in keys) {
      e.preventDefault();
      this.goto(keys[e.key], e.key === 'ArrowRight');
    } else if (e.key === 'f') {
      this.flip();
    }
  }

  /** The page's countdowns between the server's messages; the claim's buttons appear when its countdown runs out. */
  tick() {
    if (!this.state) return;
    tickCountdowns(this.node, this.serverNow());
    this.actions.tick();
  }

  async mounted() {
    document.addEventListener('keydown', this.onKey);
    document.addEventListener('visibilitychange', this.onVisible);
    this.tickTimer = setInterval(() => this.tick(), 250);
    try {
      this.meta = await getMeta();
    } catch (err) {
      this.meta = null;
    }
    if (this.invite) await acceptInvite(this);
    let first = null;
    try {
      first = await api('GET', `/api/games/${this.id}`);
      this.game = await loadGame(first.game);
      this.grid = gridFor(this.game);
      this.meta = await getMeta(); // loaded by now: the game's endings and record formats
    } catch (err) {
      this.node.textContent = '';
      const title = err.status === 404 ? t('gm.noGame') : first ? t('gm.cannotHere', { game: first.title || first.game }) : t('gm.cannot');
      // A missing game's heading says it all; the line below says what may have happened, not the same again.
      this.node.append(h('div.card.not-found', h('h1', title), h('p', err.status === 404 ? t('gm.noGameWhy') : err.message), h('a.btn.primary', { href: '/' }, t('pr.back'))));
      return;
    }
    this.node.classList.add('game-' + this.game.name);
    this.onState(first);
    this.reconnect();
  }

  /** After a log-in or log-out: the players' names again, from the server. */
  refresh() {
    if (this.socket && this.state) this.socket.send({ type: 'sync' });
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('visibilitychange', this.onVisible);
    this.players.destroy();
    clearInterval(this.tickTimer);
    this.review.destroy();
    markFavicon(false);
    clearNotification();
    if (this.socket) this.socket.close();
  }
}

export function gameView(id) {
  const page = new GamePage(id);
  window.magnetonGame = page;
  return page;
}
