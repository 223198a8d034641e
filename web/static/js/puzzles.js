// The puzzles: /puzzles?game=<name> (or ?id=<id>, or ?daily=1) shows a
// position where the side to move has a proven forced win. The solver
// plays on the board: a move listed in the puzzle's accept for that turn
// is right, and the reply is played from the puzzle's line; any other move
// fails, and the solution is shown. The result goes to
// POST /api/puzzles/<id>/result, which moves an account's puzzle rating
// (Glicko-2, family "puzzles"); the home page shows the daily puzzle
// (dailyPuzzleCard). Offline (or when the server does not answer) the
// page serves the puzzles kept for offline (puzzles-kept.js), and an
// account's results wait there for the network.

import { h } from './dom.js';
import { api, metaFor } from './api.js';
import { play as enginePlay } from './engine.js';
import { isOffline } from './offline.js';
import { keptPuzzle, markTried, queueResult } from './puzzles-kept.js';
import { Board } from './board.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { account, loggedIn, whenAccount } from './account.js';
import { t, tn } from './i18n.js';
import { loadLearn } from './learn.js';

/** The puzzle rating of an account in a game ("1523?"), or '' when it has none. */
async function puzzleRating(game) {
  await whenAccount();
  if (!loggedIn()) return '';
  try {
    const u = await api('GET', `/api/users/${encodeURIComponent(account().name)}`);
    const r = (u.ratings || []).find((x) => x.game === game && x.family === 'puzzles');
    return r ? r.display || String(r.rating) : '';
  } catch (e) {
    return '';
  }
}

/** The side to move as a word of the game ("White"), from its learning module when it has one. */
async function sideWord(spec, side) {
  try {
    const lm = await loadLearn(spec.name);
    return t(lm.sides[side]);
  } catch (e) {
    return (spec.sides[side] || {}).name || '';
  }
}

/** A pause of ms milliseconds. */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The puzzles page of the URL's params. */
class PuzzlePage {
  constructor(params) {
    this.params = params;
    this.node = h('div.puzzles-page');
    this.alive = true;
    this.game = '';
    this.board = null;
    this.mod = null;
    this.pz = null; // the puzzle shown
    this.fromKept = false; // whether it is one kept for offline
    this.ply = 0; // the plies of its line played
    this.done = false;
  }

  destroy() {
    this.alive = false;
  }

  async mounted() {
    const meta = await metaFor(this.node);
    if (!meta) return;
    this.meta = meta;
    this.game = (gameSpec(meta, this.params.get('game')) || meta.games[0]).name;
    this.layout();
    const id = this.params.get('id');
    if (id) this.load(`/api/puzzles/${encodeURIComponent(id)}`, id);
    else if (this.params.get('daily')) this.load('/api/puzzles/daily');
    else this.load(`/api/puzzles/next?game=${encodeURIComponent(this.game)}`);
  }

  layout() {
    this.boardBox = h('div.board-box');
    this.info = h('p.pz-info');
    this.task = h('p.pz-task');
    this.msg = h('div.pz-msg', { role: 'status', 'aria-live': 'polite' });
    this.ratingLine = h('p.pz-rating');
    this.gameSel = h('select#pz-game', this.meta.games.map((g) => h('option', { value: g.name, selected: g.name === this.game }, g.title)));
    this.solutionBtn = h('button.btn.small.pz-solution', { type: 'button', hidden: true }, t('pz.showSolution'));
    const nextBtn = h('button.btn.primary.pz-next', { type: 'button' }, t('pz.next'));
    this.node.append(
      h('div.pz-board', this.boardBox),
      h('section.card.puzzle', { 'aria-labelledby': 'pz-title' },
        h('h1#pz-title', t('pz.title')),
        h('div.field.inline', h('label', { for: 'pz-game' }, t('pz.game')), this.gameSel),
        this.info, this.task, this.msg,
        h('p.form-buttons', this.solutionBtn, nextBtn),
        this.ratingLine,
        h('p.muted.pz-about', t('pz.about'))));
    this.gameSel.onchange = () => {
      this.game = this.gameSel.value;
      history.replaceState(null, '', `/puzzles?game=${encodeURIComponent(this.game)}`);
      this.load(`/api/puzzles/next?game=${encodeURIComponent(this.game)}`);
    };
    nextBtn.onclick = () => this.load(`/api/puzzles/next?game=${encodeURIComponent(this.game)}`);
  }

  positionAt(k) {
    return k === 0 ? this.pz.position : this.pz.positions[k - 1];
  }

  say(cls, ...parts) {
    this.msg.textContent = '';
    this.msg.className = 'pz-msg ' + cls;
    for (const p of parts) if (p) this.msg.append(h('p', p));
  }

  async showRating() {
    if (this.fromKept) {
      this.ratingLine.textContent = loggedIn() ? t('off.pzRating') : t('pz.guest');
      return;
    }
    const r = await puzzleRating(this.game);
    if (!this.alive) return;
    this.ratingLine.textContent = loggedIn() ? (r ? t('pz.yourRating', { rating: r }) : t('pz.noRatingYet')) : t('pz.guest');
  }

  /** Keeps the result for the network (an account's first attempt at a kept puzzle), and says so. */
  queue(solved, first) {
    if (first && queueResult(this.pz.id, this.pz.game, solved)) this.ratingLine.textContent = t('off.pzQueued');
    else this.ratingLine.textContent = loggedIn() ? t('off.pzRating') : t('pz.guest');
  }

  /** The result to the server, which moves an account's puzzle rating; offline it waits (puzzles-kept.js). */
  async report(solved) {
    const first = markTried(this.pz.id);
    if (this.fromKept && isOffline()) {
      this.queue(solved, first);
      return;
    }
    try {
      const r = await api('POST', `/api/puzzles/${encodeURIComponent(this.pz.id)}/result`, { solved });
      if (r.rated) {
        const d = r.diff > 0 ? `+${r.diff}` : String(r.diff);
        this.ratingLine.textContent = t('pz.newRating', { rating: r.rating, diff: d });
        this.ratingLine.dataset.rated = 'true';
      } else if (loggedIn()) {
        this.showRating();
      }
    } catch (err) {
      if (err.status === 0) this.queue(solved, first || !this.fromKept);
      else this.msg.append(h('p.error', err.message));
    }
  }

  /**
   * The puzzle at url; offline, or when the server does not answer, a
   * kept one (the one of id when kept, else the game's next).
   */
  async fetchPuzzle(url, id) {
    if (!isOffline()) {
      try {
        const pz = await api('GET', url);
        this.fromKept = false;
        return pz;
      } catch (err) {
        if (err.status !== 0) throw err;
      }
    }
    const pz = keptPuzzle(this.game, id, this.pz && this.pz.game === this.game ? this.pz.id : '');
    if (!pz) throw new Error(t('off.noPuzzles'));
    this.fromKept = true;
    return pz;
  }

  /** Shows the puzzle at url (id: the one asked for by name), on a board of its game. */
  async load(url, id = '') {
    this.done = false;
    this.ply = 0;
    this.solutionBtn.hidden = true;
    this.msg.textContent = '';
    this.msg.className = 'pz-msg';
    let pz;
    try {
      pz = this.pz = await this.fetchPuzzle(url, id);
      this.mod = await loadGame(pz.game);
    } catch (err) {
      this.say('error', err.message);
      return;
    }
    if (!this.alive) return;
    const mod = this.mod;
    this.game = pz.game;
    this.gameSel.value = this.game;
    this.node.dataset.puzzle = pz.id;
    const spec = gameSpec(this.meta, this.game);
    if (!this.board || this.board.game !== mod) {
      this.boardBox.textContent = '';
      this.board = new Board(this.boardBox, { game: mod, onMove: (m) => this.move(m), orientation: mod.orientation(mod.parse(pz.position, gridFor(mod)), pz.side, spec.sides) });
    }
    const side = await sideWord(spec, pz.side);
    this.info.textContent = tn('pz.info', pz.plays, { id: pz.id, rating: Math.round(pz.rating) });
    this.task.textContent = t(pz.win_in === 1 ? 'pz.task.one' : 'pz.task.other', { side, n: pz.win_in });
    this.board.set(pz.position, { legal: pz.legal[0] });
    this.showRating();
  }

  /** A move on the board: right (the line's reply follows) or wrong (the solution is offered). */
  async move(m) {
    const pz = this.pz;
    if (this.done || !pz) return;
    const from = this.positionAt(this.ply);
    if (!pz.accept[this.ply / 2].includes(m)) {
      this.wrong(m, from);
      return;
    }
    const main = pz.line[this.ply];
    const alsoWins = m !== main;
    this.ply++;
    await this.board.set(this.positionAt(this.ply), { last: main, from });
    if (this.ply >= pz.line.length) {
      this.done = true;
      this.say('right', alsoWins ? t('pz.solvedOther', { move: m, main }) : t('pz.solved'));
      this.report(true);
      return;
    }
    this.say('right', alsoWins ? t('pz.goodOther', { move: m, main }) : t('pz.good'));
    // The reply from the line, then the solver's next turn.
    const reply = pz.line[this.ply];
    const before = this.positionAt(this.ply);
    await pause(300);
    if (!this.alive) return;
    this.ply++;
    await this.board.set(this.positionAt(this.ply), { last: reply, from: before, legal: pz.legal[this.ply / 2] });
    this.msg.append(h('p', t('pz.reply', { move: reply })));
  }

  /** A move the puzzle does not accept, played from from: shown, and the solution offered. */
  async wrong(m, from) {
    const pz = this.pz;
    const ply = this.ply;
    this.done = true;
    this.board.set(from, {});
    try {
      const r = await enginePlay({ game: this.game, rules: pz.rules, position: from, moves: [m] });
      await this.board.set(r.position, { last: m, from });
    } catch (err) {
      // the board shows the position before the move
    }
    this.say('wrong', t('pz.wrong', { move: m }), t('pz.solutionWas', { move: pz.line[ply] }));
    this.solutionBtn.hidden = false;
    this.solutionBtn.onclick = () => this.showSolution(ply);
    this.report(false);
  }

  async showSolution(k) {
    const pz = this.pz;
    this.solutionBtn.hidden = true;
    for (let i = k; i < pz.line.length && this.alive; i++) {
      await this.board.set(this.positionAt(i + 1), { last: pz.line[i], from: this.positionAt(i) });
      await pause(400);
    }
    this.msg.append(h('p.pz-line', t('pz.line', { line: pz.line.slice(k).join(' ') })));
  }
}

export function puzzlesView(params) {
  return new PuzzlePage(params);
}

/** The home page's card of the daily puzzle: its board and a link to solve it. */
export function dailyPuzzleCard() {
  const box = h('div.board-box');
  const text = h('p.muted');
  const card = h('section.card.daily-puzzle', { 'aria-labelledby': 'daily-title' },
    h('h2#daily-title', t('pz.daily')),
    // The picture is a second way to the same link: hidden from screen
    // readers, which have the button below.
    h('a.daily-link', { href: '/puzzles?daily=1', tabindex: '-1', 'aria-hidden': 'true' }, box),
    text,
    h('p', h('a.btn.small', { href: '/puzzles?daily=1' }, t('pz.solveDaily'))));
  (async () => {
    try {
      const pz = await api('GET', '/api/puzzles/daily');
      const mod = await loadGame(pz.game);
      const board = new Board(box, { game: mod });
      board.root.tabIndex = -1; // a picture, not a board to play on
      board.set(pz.position, {});
      card.dataset.puzzle = pz.id;
      text.textContent = t('pz.dailyText', { game: pz.title, n: pz.win_in });
    } catch (err) {
      text.textContent = err.message;
      text.className = 'error';
    }
  })();
  return card;
}
