// A game against the computer in the browser (/computer, and
// /computer?game=<name>&level=<1-8>&color=<first|second|random>, and
// &position=<text>&rules=<settings> to start from a position, as a
// lesson's practice game does): the
// browser's engine (engine.js) plays the computer's moves at a level and
// judges the player's, on the shared board (mouse, touch and keyboard,
// board.js), with the moves, whose turn or the result, a takeback and a
// new game. Nothing goes to the server: the game is not recorded, rated or
// shown to anyone, and it works offline (docs/offline.md). The game being
// played is kept in this browser (localStorage "computer.game"), so that a
// reload goes on with it; the choices for a new game too ("computer.new").
// The browser tests read the page as window.computerGame.

import { h, segmented, toast } from './dom.js';
import { metaFor } from './api.js';
import { Board } from './board.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { t, has, sideText } from './i18n.js';
import { resultText } from './words.js';
import { play, computerMove, engineGames, supported } from './engine.js';

/** The computer's time for a move, as the server gives it in a game without a clock. */
const moveMS = (level) => (level >= 8 ? 1000 : 300);

function kept(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch (e) {
    return null;
  }
}

function keep(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    // private browsing: the game lasts as long as the page
  }
}

class ComputerPage {
  constructor(params) {
    this.params = params;
    this.node = h('div.computer-page');
    this.alive = true;
    this.meta = null;
    this.spec = null; // the game's meta entry
    this.mod = null; // its module
    this.board = null;
    // The game: {game, rules, level, seat, start, moves, by (who made each
    // move: 'me' or 'cpu')} and, from the engine, {position, turn, legal,
    // result, reason}.
    this.state = null;
    this.gen = 0; // bumped at each change, so that a late answer of the computer is dropped
    this.thinking = false;
    this.choice = Object.assign({ game: '', level: 3, color: 'first' }, kept('computer.new'));
    for (const k of ['game', 'color']) if (params.get(k)) this.choice[k] = params.get(k);
    if (params.get('level')) this.choice.level = Number(params.get('level'));
    // A position to start from (a lesson's practice game): the first game
    // only, with its rules; a new game from the form starts as usual.
    this.from = params.get('position') ? { start: params.get('position'), rules: params.get('rules') || '' } : null;
    window.computerGame = this;
  }

  destroy() {
    this.alive = false;
    this.gen++;
    if (window.computerGame === this) window.computerGame = null;
  }

  async mounted() {
    const meta = await metaFor(this.node);
    if (!meta || !this.alive) return;
    this.layout();
    this.say('', t('doc.loading'));
    // The games the browser's engine knows (the server may have more).
    const names = supported() ? await engineGames() : [];
    if (!this.alive) return;
    this.meta = { ...meta, games: meta.games.filter((g) => names.includes(g.name)) };
    if (!this.meta.games.length) {
      this.say('error', t('cg.noEngine'));
      return;
    }
    this.renderForm();
    const saved = kept('computer.game');
    const asked = ['game', 'level', 'color', 'position'].some((k) => this.params.get(k));
    if (saved && !asked && gameSpec(this.meta, saved.game)) await this.resume(saved);
    else await this.newGame();
  }

  layout() {
    this.boardBox = h('div.board-box');
    this.status = h('div.cg-status', { role: 'status', 'aria-live': 'polite' });
    this.moves = h('ol.cg-moves', { 'aria-label': t('gm.moves') });
    this.takebackBtn = h('button.btn.small#cg-takeback', { type: 'button', onclick: () => this.takeback() }, t('cg.takeback'));
    this.form = h('div.cg-new');
    this.node.append(
      h('div.cg-board', this.boardBox),
      h('section.card.cg-side', { 'aria-labelledby': 'cg-title' },
        h('h1#cg-title', t('cg.title')),
        h('p.muted.cg-note', t('cg.notRecorded')),
        this.status,
        h('h2', t('gm.moves')), this.moves,
        h('p.form-buttons', this.takebackBtn),
        this.form));
  }

  /** The choices of a new game: the game, the level, the side; and its button. */
  renderForm() {
    const c = this.choice;
    const g = gameSpec(this.meta, c.game) || this.meta.games[0];
    c.game = g.name;
    const names = new Map((this.meta.levels || []).map((l) => [l.level, has('level.' + l.name) ? t('level.' + l.name) : l.name]));
    const title = (n) => [names.get(n), (g.level_ratings || [])[n - 1] ? t('home.about', { rating: g.level_ratings[n - 1] }) : ''].filter(Boolean).join(', ');
    this.form.textContent = '';
    this.form.append(
      h('h2', t('cg.newGame')),
      segmented('game', t('home.game'), this.meta.games.map((x) => [x.name, x.title]), c.game, (v) => { c.game = v; this.renderForm(); }),
      segmented('level', t('home.level'), [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n), title(n)]), String(c.level), (v) => { c.level = Number(v); }),
      segmented('color', t('home.youPlay'), [['first', sideText(g.sides[0].name)], ['random', t('home.random')], ['second', sideText(g.sides[1].name)]], c.color, (v) => { c.color = v; }),
      h('button.btn.primary#cg-start', { type: 'button', onclick: () => this.newGame() }, t('cg.start')));
  }

  say(cls, text) {
    this.status.className = 'cg-status ' + cls;
    this.status.textContent = text;
  }

  /** Loads the game's module and draws its board, turned for the player's side. */
  async boardFor(name, seat, position) {
    this.spec = gameSpec(this.meta, name);
    this.mod = await loadGame(this.spec.name);
    const mod = this.mod;
    this.boardBox.textContent = '';
    this.node.className = 'computer-page game-' + this.spec.name;
    this.board = new Board(this.boardBox, {
      game: mod, onMove: (m) => this.playerMove(m),
      orientation: mod.orientation(mod.parse(position, gridFor(mod)), seat, this.spec.sides),
    });
  }

  /** Starts a game with the choices made. */
  async newGame() {
    const c = this.choice;
    keep('computer.new', c);
    const seat = c.color === 'random' ? Math.floor(Math.random() * 2) : c.color === 'second' ? 1 : 0;
    const from = this.from || { start: '', rules: '' };
    this.from = null;
    await this.resume({ game: c.game, rules: from.rules, level: c.level, seat, start: from.start, moves: [], by: [] });
  }

  /** Shows a game (a new one, or the one kept), and lets the computer move when it is its turn. */
  async resume(g) {
    const gen = ++this.gen;
    this.thinking = false;
    this.state = null; // no moves until the game is shown
    if (this.board) this.board.set(this.board.position, {});
    const current = () => gen === this.gen && this.alive; // no other game asked for meanwhile
    let r;
    try {
      r = await play({ game: g.game, rules: g.rules, position: g.start || 'start', moves: g.moves });
      if (!current()) return;
      await this.boardFor(g.game, g.seat, r.start);
      if (!current()) return;
    } catch (err) {
      if (!current()) return;
      if (g.moves.length) return this.resume({ ...g, moves: [], by: [] }); // a kept game the rules no longer take
      this.say('error', err.message);
      return;
    }
    this.state = { ...g, start: r.start, by: g.by || [] };
    this.settle(r);
    await this.board.set(r.position, this.boardOpts());
    this.render();
    this.next();
  }

  /** Takes in the engine's answer for the moves so far. */
  settle(r) {
    Object.assign(this.state, { position: r.position, turn: r.turn, legal: r.legal || [], result: r.result, reason: r.reason });
    const { game, rules, level, seat, start, moves, by } = this.state;
    keep('computer.game', { game, rules, level, seat, start, moves, by });
  }

  over() {
    return this.state.result && this.state.result !== '*';
  }

  /** The board's options for the position: the player's moves on their turn, the end's marks when it is over. */
  boardOpts(from) {
    const s = this.state;
    const last = s.moves[s.moves.length - 1] || '';
    const myTurn = !this.over() && !this.thinking && s.turn === s.seat;
    const before = from || null;
    return {
      last, from: before, legal: myTurn ? s.legal : [],
      end: this.over() ? { result: s.result, reason: s.reason, before: before || '' } : null,
    };
  }

  /** Plays a move (the player's or the computer's) and shows it. */
  async apply(move, who, gen) {
    const s = this.state;
    const from = s.position;
    const r = await play({ game: s.game, rules: s.rules, position: s.start, moves: [...s.moves, move] });
    if (gen !== this.gen || !this.alive) return false;
    s.moves.push(move);
    s.by.push(who);
    this.settle(r);
    this.render();
    await this.board.set(r.position, this.boardOpts(from));
    return true;
  }

  /** A move made on the board. */
  async playerMove(m) {
    const s = this.state;
    if (!s || this.thinking || this.over() || s.turn !== s.seat) return;
    const gen = ++this.gen;
    try {
      if (!(await this.apply(m, 'me', gen))) return;
    } catch (err) {
      toast(err.message, 'error');
      this.board.set(s.position, this.boardOpts());
      return;
    }
    this.next();
  }

  /** The computer's move, when it is its turn. */
  async next() {
    const s = this.state;
    if (this.over() || s.turn === s.seat) return;
    const gen = ++this.gen;
    this.thinking = true;
    this.render();
    try {
      const m = await computerMove({
        game: s.game, rules: s.rules, start: s.start, moves: s.moves, level: s.level,
        movetime_ms: moveMS(s.level), new_game: !s.by.includes('cpu'),
      });
      if (gen !== this.gen || !this.alive) return;
      this.thinking = false;
      await this.apply(m.move, 'cpu', gen);
    } catch (err) {
      if (gen !== this.gen) return;
      this.thinking = false;
      this.render();
      this.say('error', t('cg.failed', { error: err.message }));
    }
  }

  /** Takes back the player's last move and the computer's answers after it. */
  async takeback() {
    const s = this.state;
    const i = s ? s.by.lastIndexOf('me') : -1;
    if (i < 0) return;
    const gen = ++this.gen;
    this.thinking = false;
    const moves = s.moves.slice(0, i);
    try {
      const r = await play({ game: s.game, rules: s.rules, position: s.start, moves });
      if (gen !== this.gen) return;
      s.moves = moves;
      s.by = s.by.slice(0, i);
      this.settle(r);
    } catch (err) {
      toast(err.message, 'error');
      return;
    }
    this.render();
    await this.board.set(s.position, this.boardOpts());
  }

  render() {
    const s = this.state;
    this.takebackBtn.disabled = !s || !s.by.includes('me');
    this.moves.textContent = '';
    for (let k = 0; k < s.moves.length; k += 2) {
      this.moves.append(h('li.cg-row', h('span.num', `${k / 2 + 1}.`),
        s.moves.slice(k, k + 2).map((m, j) => h('span.mv', { 'aria-current': k + j === s.moves.length - 1 ? 'true' : null }, m))));
    }
    if (!s.moves.length) this.moves.append(h('li.empty', t('gm.noMoves')));
    this.moves.scrollTop = this.moves.scrollHeight;
    const sides = this.spec.sides;
    if (this.over()) {
      const text = resultText({ result: s.result, reason: s.reason, sides, seat: s.seat }, this.spec, this.mod);
      this.status.className = 'cg-status over';
      this.status.textContent = '';
      this.status.append(h('strong.score', s.result === '1/2-1/2' ? '½-½' : s.result), ' ', h('span.reason', text));
    } else if (this.thinking) {
      this.say('thinking', t('cg.thinking', { level: s.level }));
    } else {
      this.say(s.turn === s.seat ? 'your-turn' : '', s.turn === s.seat ? t('home.yourTurn') : t('gm.toMove', { side: sideText(sides[s.turn].name) }));
    }
  }
}

/** The page of a game against the computer in the browser. */
export function computerView(params) {
  return new ComputerPage(params);
}
