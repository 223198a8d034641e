// The game page's computer when it thinks in this browser: in a game
// against the computer whose state says "where": "browser", on the
// player's own page, when the computer is to move, the browser's engine
// (js/engine.js) finds its move with the game's rules, moves, level and
// the computer's time (the clock's, or the state's movetime_ms, the time
// the server's computer would take), and the page sends it as the
// computer's. The server checks, times and records it as any move. Each
// position is thought about once and its move sent once per connection:
// a second tab's, or a late one after a takeback, is refused by the
// server as stale, which the page does not show. When the engine cannot
// (it does not load, stops, or the player's setting says the server), the
// page hands the computer to the server's, if the server's computer is
// on; else it says that the game cannot go on here.

import { toast } from './dom.js';
import { t } from './i18n.js';
import { computerMove, supported } from './engine.js';
import { enginePlace } from './prefs.js';

/** The game the engine's players last thought for: another one is a new game to them. */
let lastGame = '';

/** The longest wait for the engine's answer past the computer's time, before it counts as stopped. */
const WATCHDOG_MS = 20000;

/** Whether state s is its player's, in a game whose computer thinks in the browser and is to move. */
export function computerToMoveHere(s) {
  const c = s && s.computer;
  return !!c && c.where === 'browser' && s.status === 'playing' && s.seat != null && s.seat === 1 - c.seat && s.turn === c.seat;
}

/** The position a computer's move is for: the game, its moves and the position. */
function keyOf(s) {
  return `${s.id}:${s.moves.length}:${s.position}`;
}

/** The promise p, or a stopped engine's failure when it takes over ms. */
function within(p, ms) {
  let timer = 0;
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(t('engine.failed')), { code: 'engine_failed' })), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The browser's computer of the game page page (its state, socket and clocks). */
export class BrowserComputer {
  constructor(page) {
    this.page = page;
    this.busy = ''; // the position being thought about
    this.answer = null; // {key, move, ply, position}: the move found last
    this.sent = false; // the answer was sent on the socket as it is now
    this.stuck = false; // the engine stopped and the server cannot take over
    this.handed = false; // the computer was handed to the server
  }

  /** Whether the computer is thinking in this page now. */
  thinking() {
    return !!this.busy;
  }

  /** A new state: the computer thinks if it is its turn here. */
  state(s) {
    if (!computerToMoveHere(s)) {
      this.busy = ''; // an answer on its way is for a position left behind
      return;
    }
    const key = keyOf(s);
    if (this.busy === key || this.stuck || this.handed) return;
    if (this.answer && this.answer.key === key) {
      if (!this.sent) this.send();
      return;
    }
    if (!supported() || (enginePlace() === 'server' && s.computer.fallback)) {
      this.cannot(s, enginePlace() === 'server');
      return;
    }
    this.think(s, key);
  }

  /** The socket is back: the move sent on the lost one may not have arrived; the next state tells. */
  reconnected() {
    this.sent = false;
  }

  /** The engine's request for the computer's move in state s. */
  request(s) {
    const c = s.computer;
    const req = { game: s.game, rules: s.rules, start: s.start, moves: s.moves, level: c.level, new_game: lastGame !== s.id };
    if (s.clock) {
      req.time_ms = [0, 1].map((i) => Math.max(0, Math.round(this.page.players.clockMs(i))));
      req.inc_ms = [s.clock.increment_ms, s.clock.increment_ms];
    } else {
      req.movetime_ms = c.movetime_ms || 0; // 0: the engine's default time
    }
    return req;
  }

  /** Thinks about the position key of state s, and sends the move unless the game has moved on. */
  async think(s, key) {
    this.busy = key;
    const req = this.request(s);
    lastGame = s.id;
    const budget = s.clock ? req.time_ms[s.computer.seat] + req.inc_ms[0] : req.movetime_ms || 1000;
    let out;
    try {
      out = await within(computerMove(req), budget + WATCHDOG_MS);
    } catch (err) {
      if (this.busy !== key) return;
      this.busy = '';
      if (err.code === 'engine_restarted') {
        this.state(this.page.state); // another request restarted the worker: ask again
        return;
      }
      console.warn('the browser\'s computer failed:', err);
      this.cannot(this.page.state, false);
      return;
    }
    if (this.busy !== key) return;
    this.busy = '';
    const now = this.page.state;
    if (!computerToMoveHere(now) || keyOf(now) !== key) return;
    this.answer = { key, move: out.move, ply: s.moves.length, position: s.position };
    this.send();
  }

  send() {
    const a = this.answer;
    this.sent = !!this.page.socket && this.page.socket.send({ type: 'move', move: a.move, computer: true, ply: a.ply, position: a.position });
  }

  /**
   * The engine cannot play the computer here (chosen: the player's
   * setting says the server): the server's computer takes over when it
   * can, else the page says the game cannot go on here.
   */
  cannot(s, chosen) {
    if (s.computer.fallback) {
      this.handed = true;
      this.page.send({ type: 'computer', where: 'server' });
      if (!chosen) toast(t('gm.computerHandedOver'), 'info');
      return;
    }
    this.stuck = true;
    toast(t('gm.computerStuck'), 'error');
    this.page.status.render();
  }
}
