// The puzzles: /puzzles?game=<name> (or ?id=<id>, or ?daily=1, and
// &theme=<theme>) shows a position where the side to move has a proven
// forced win; /puzzles?history=1 an account's attempts (puzzles-history.js).
// The solver plays on the board: a move listed in the puzzle's accept for
// that turn is right, and the loser's reply is played from the puzzle's
// line; any other move fails: the board shows the reply that refutes it
// (POST /api/puzzles/<id>/refute: the opponent's proven win or the
// engine's move), in words too, and offers a retry, which is not rated
// and says so, as lichess does. Solved, the board marks the winning line
// with arrows. The result goes to POST /api/puzzles/<id>/result, which
// moves an account's puzzle rating (Glicko-2, family "puzzles") on its
// first attempt only; the home page shows the daily puzzle
// (dailyPuzzleCard). /puzzles?streak=1 is a puzzle streak: puzzles of
// rising rating (?min= of next), unrated, one after another until a wrong
// move ends it; the best is kept in this browser. "Next" asks for a puzzle not of the same game record
// nor the same position up to symmetry (?after=), the board turned to the
// new puzzle's side to move. Offline (or when the server does not answer)
// the page serves the puzzles kept for offline (puzzles-kept.js), and an
// account's results wait there for the network.

import { h } from './dom.js';
import { api, metaFor, getMeta } from './api.js';
import { play as enginePlay } from './engine.js';
import { isOffline } from './offline.js';
import { keptPuzzle, markTried, queueResult } from './puzzles-kept.js';
import { Board } from './board.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { account, loggedIn, whenAccount } from './account.js';
import { t, tn } from './i18n.js';
import { loadLearn } from './learn.js';
import { historyView } from './puzzles-history.js';

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

/** A streak's first puzzle is rated at least STREAK_START, each next STREAK_STEP more; a solved one gives way after STREAK_PAUSE_MS. */
const STREAK_START = 1000;
const STREAK_STEP = 40;
const STREAK_PAUSE_MS = 900;

/** The best streak of a game in this browser. */
function bestStreak(game) {
  try {
    return Number(JSON.parse(localStorage.getItem('puzzles.streak') || '{}')[game]) || 0;
  } catch (e) {
    return 0;
  }
}

function keepBestStreak(game, n) {
  try {
    const all = JSON.parse(localStorage.getItem('puzzles.streak') || '{}');
    all[game] = n;
    localStorage.setItem('puzzles.streak', JSON.stringify(all));
  } catch (e) {
    // no storage: the best is not kept
  }
}

/** The winner's moves of a line (its even plies), the last first: the arrows of the winning line. */
const winningMoves = (line) => line.filter((_, i) => i % 2 === 0).reverse();

/** The puzzles page of the URL's params. */
class PuzzlePage {
  constructor(params) {
    this.params = params;
    this.node = h('div.puzzles-page');
    this.alive = true;
    this.game = '';
    this.theme = params.get('theme') || '';
    this.board = null;
    this.mod = null;
    this.pz = null; // the puzzle shown
    this.fromKept = false; // whether it is one kept for offline
    this.ply = 0; // the plies of its line played
    this.done = false;
    this.attempt = 0; // 0 for the first attempt at the puzzle shown, then each retry
    // A puzzle streak (?streak=1): puzzles of rising rating, unrated, until a wrong move.
    this.streak = params.get('streak') ? { count: 0 } : null;
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
    this.loadThemes();
    const id = this.params.get('id');
    if (id) this.load(`/api/puzzles/${encodeURIComponent(id)}`, id);
    else if (this.params.get('daily')) this.load('/api/puzzles/daily');
    else this.load(this.nextURL());
  }

  /** The address of the next puzzle: of the game and theme chosen, unlike the one shown. */
  nextURL() {
    let url = `/api/puzzles/next?game=${encodeURIComponent(this.game)}`;
    if (this.streak) url += `&min=${STREAK_START + STREAK_STEP * this.streak.count}`;
    else if (this.theme) url += `&theme=${encodeURIComponent(this.theme)}`;
    if (this.pz && this.pz.game === this.game) url += `&after=${encodeURIComponent(this.pz.id)}`;
    return url;
  }

  layout() {
    this.boardBox = h('div.board-box');
    this.info = h('p.pz-info');
    this.themesLine = h('p.muted.pz-themes');
    this.task = h('p.pz-task');
    this.msg = h('div.pz-msg', { role: 'status', 'aria-live': 'polite' });
    this.ratingLine = h('p.pz-rating');
    this.gameSel = h('select#pz-game', this.meta.games.map((g) => h('option', { value: g.name, selected: g.name === this.game }, g.title)));
    this.themeSel = h('select#pz-theme', h('option', { value: '' }, t('pz.theme.all')));
    this.solutionBtn = h('button.btn.small.pz-solution', { type: 'button', hidden: true }, t('pz.showSolution'));
    this.retryBtn = h('button.btn.small.pz-retry', { type: 'button', hidden: true }, t('pz.retry'));
    const nextBtn = h('button.btn.primary.pz-next', { type: 'button' }, t('pz.next'));
    this.streakLine = h('p.pz-streak', { hidden: !this.streak });
    this.againBtn = h('button.btn.primary.pz-again', { type: 'button', hidden: true }, t('pz.streak.again'));
    this.againBtn.onclick = () => this.newStreak();
    this.node.append(
      h('div.pz-board', this.boardBox),
      h('section.card.puzzle', { 'aria-labelledby': 'pz-title' },
        h('h1#pz-title', t(this.streak ? 'pz.streak' : 'pz.title')),
        h('div.field.inline', h('label', { for: 'pz-game' }, t('pz.game')), this.gameSel),
        h('div.field.inline', { hidden: !!this.streak }, h('label', { for: 'pz-theme' }, t('pz.theme')), this.themeSel),
        this.streakLine,
        this.info, this.themesLine, this.task, this.msg,
        h('p.form-buttons', this.retryBtn, this.solutionBtn, this.againBtn, nextBtn),
        this.ratingLine,
        h('p.pz-links', h('a.pz-daily-link', { href: '/puzzles?daily=1' }, t('pz.daily')), ' · ',
          h('a.pz-streak-link', { href: `/puzzles?streak=1&game=${encodeURIComponent(this.game)}` }, t('pz.streak')), ' · ',
          h('a.pz-history-link', { href: `/puzzles?history=1&game=${encodeURIComponent(this.game)}` }, t('pz.history'))),
        h('p.muted.pz-about', t(this.streak ? 'pz.streak.about' : 'pz.about'))));
    nextBtn.hidden = !!this.streak; // a streak goes on by itself, and ends at a wrong move
    this.gameSel.onchange = () => {
      this.game = this.gameSel.value;
      this.theme = '';
      this.replaceURL();
      this.loadThemes();
      if (this.streak) this.newStreak();
      else this.load(this.nextURL());
    };
    this.themeSel.onchange = () => {
      this.theme = this.themeSel.value;
      this.replaceURL();
      this.load(this.nextURL());
    };
    nextBtn.onclick = () => this.load(this.nextURL());
    this.retryBtn.onclick = () => this.retry();
  }

  replaceURL() {
    const theme = this.streak ? '&streak=1' : this.theme ? `&theme=${encodeURIComponent(this.theme)}` : '';
    history.replaceState(null, '', `/puzzles?game=${encodeURIComponent(this.game)}${theme}`);
  }

  /** The theme menu of the game: the themes its puzzles have, with their counts (none offline). */
  async loadThemes() {
    const game = this.game;
    let themes = [];
    try {
      if (!isOffline()) themes = (await api('GET', `/api/puzzles/themes?game=${encodeURIComponent(game)}`)).themes || [];
    } catch (e) {
      themes = [];
    }
    if (!this.alive || game !== this.game) return;
    this.themeSel.textContent = '';
    this.themeSel.append(h('option', { value: '' }, t('pz.theme.all')));
    for (const th of themes) {
      this.themeSel.append(h('option', { value: th.id, selected: th.id === this.theme }, `${t('pz.theme.' + th.id)} (${th.count})`));
    }
    this.themeSel.value = themes.some((th) => th.id === this.theme) ? this.theme : '';
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
    if (this.streak) {
      this.ratingLine.textContent = t('pz.streak.unrated');
      return;
    }
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
      this.queue(solved, first && this.attempt === 0);
      return;
    }
    try {
      const r = await api('POST', `/api/puzzles/${encodeURIComponent(this.pz.id)}/result`, { solved });
      if (!this.alive) return;
      if (r.rated) {
        const d = r.diff > 0 ? `+${r.diff}` : String(r.diff);
        this.ratingLine.textContent = t('pz.newRating', { rating: r.rating, diff: d });
        this.ratingLine.dataset.rated = 'true';
      } else if (loggedIn()) {
        await this.showRating();
        if (r.retry) this.ratingLine.append(' ', h('span.pz-unrated', t('pz.unrated')));
      }
    } catch (err) {
      if (err.status === 0) this.queue(solved, (first || !this.fromKept) && this.attempt === 0);
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

  /** Shows the puzzle at url (id: the one asked for by name), on a board of its game turned to its side to move. */
  async load(url, id = '') {
    this.done = false;
    this.ply = 0;
    this.attempt = 0;
    this.solutionBtn.hidden = true;
    this.retryBtn.hidden = true;
    this.msg.textContent = '';
    this.msg.className = 'pz-msg';
    delete this.ratingLine.dataset.rated;
    let pz;
    try {
      pz = await this.fetchPuzzle(url, id);
      this.mod = await loadGame(pz.game);
    } catch (err) {
      this.say('error', err.message);
      return;
    }
    if (!this.alive) return;
    this.pz = pz;
    const mod = this.mod;
    this.game = pz.game;
    this.gameSel.value = this.game;
    const spec = gameSpec(this.meta, this.game);
    // The side to move at the bottom, whichever puzzle came before.
    const orientation = mod.orientation(mod.parse(pz.position, gridFor(mod)), pz.side, spec.sides);
    if (!this.board || this.board.game !== mod) {
      this.boardBox.textContent = '';
      this.board = new Board(this.boardBox, { game: mod, onMove: (m) => this.move(m), orientation });
    } else {
      this.board.setOrientation(orientation);
    }
    this.board.setArrows([]);
    this.side = await sideWord(spec, pz.side);
    this.opponent = await sideWord(spec, 1 - pz.side);
    if (!this.alive) return;
    this.node.dataset.puzzle = pz.id;
    this.node.dataset.orientation = String(orientation);
    this.info.textContent = tn('pz.info', pz.plays, { id: pz.id, rating: Math.round(pz.rating) });
    const themes = (pz.themes || []).map((th) => t('pz.theme.' + th));
    this.themesLine.textContent = themes.length ? t('pz.themes', { themes: themes.join(', ') }) : '';
    this.showStreak();
    this.task.textContent = t(pz.win_in === 1 ? 'pz.task.one' : 'pz.task.other', { side: this.side, n: pz.win_in });
    await this.board.set(pz.position, { legal: pz.legal[0] });
    this.showRating();
  }

  /** Another try at the puzzle shown, from its start: not rated, and the page says so. */
  async retry() {
    this.attempt++;
    this.ply = 0;
    this.done = false;
    this.retryBtn.hidden = true;
    this.solutionBtn.hidden = true;
    this.board.setArrows([]);
    this.say('retry', t('pz.retryUnrated'));
    await this.board.set(this.pz.position, { legal: this.pz.legal[0] });
  }

  /** A move on the board: right (the line's reply follows) or wrong (refuted, and a retry offered). */
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
      this.solved(alsoWins ? t('pz.solvedOther', { move: m, main }) : t('pz.solved'));
      return;
    }
    this.say('right', alsoWins ? t('pz.goodOther', { move: m, main }) : t('pz.good'));
    // The loser's reply from the line, then the solver's next turn.
    const reply = pz.line[this.ply];
    const before = this.positionAt(this.ply);
    await pause(300);
    if (!this.alive || this.pz !== pz) return;
    this.ply++;
    await this.board.set(this.positionAt(this.ply), { last: reply, from: before, legal: pz.legal[this.ply / 2] });
    this.msg.append(h('p', t('pz.reply', { move: reply })));
  }

  /** The puzzle solved: said, the winning line marked with arrows, the result reported (a streak's goes on instead). */
  async solved(text) {
    this.done = true;
    this.say('right', text, t('pz.winLine'), this.attempt > 0 ? t('pz.unrated') : '');
    this.board.setArrows(winningMoves(this.pz.line));
    if (!this.streak) {
      this.report(true);
      return;
    }
    this.streak.count++;
    this.showStreak();
    const pz = this.pz;
    await pause(STREAK_PAUSE_MS);
    if (this.alive && this.pz === pz && this.streak && !this.streak.over) this.load(this.nextURL());
  }

  /** The streak's line: its count and the best of the game (kept in this browser). */
  showStreak() {
    if (!this.streak) return;
    const best = Math.max(bestStreak(this.game), this.streak.count);
    if (best > bestStreak(this.game)) keepBestStreak(this.game, best);
    this.streakLine.textContent = `${t('pz.streak.count', { n: this.streak.count })} · ${t('pz.streak.best', { n: best })}`;
    this.streakLine.dataset.count = String(this.streak.count);
  }

  /** A wrong move in a streak: it is over, said with its count; a new one offered. */
  endStreak() {
    this.streak.over = true;
    this.msg.append(h('p.pz-streak-over', t('pz.streak.over', { n: this.streak.count })));
    this.againBtn.hidden = false;
    this.retryBtn.hidden = true;
  }

  newStreak() {
    this.streak = { count: 0 };
    this.againBtn.hidden = true;
    this.pz = null;
    this.load(this.nextURL());
  }

  /** The words for a refutation of the server (POST /api/puzzles/<id>/refute). */
  refutationText(r) {
    if (r.ends) return t(r.result === 'loss' ? 'pz.refute.loses' : 'pz.refute.draws', { move: r.move });
    const vars = { side: this.opponent, move: r.reply, n: r.reply_wins_in };
    if (r.reply_wins_in === 1) return t('pz.refute.win1', vars);
    if (r.reply_wins_in > 1) return t('pz.refute.winN', vars);
    return t(r.still_wins_in > 0 ? 'pz.refute.reply' : 'pz.refute.gone', vars);
  }

  /** A move the puzzle does not accept, played from from: the reply that refutes it shown, then a retry offered. */
  async wrong(m, from) {
    const pz = this.pz;
    const ply = this.ply;
    this.done = true;
    this.say('wrong', t('pz.wrong', { move: m }));
    if (this.attempt === 0 && !this.streak) this.report(false);
    let words = '';
    try {
      if (this.fromKept && isOffline()) throw new Error('offline');
      const r = await api('POST', `/api/puzzles/${encodeURIComponent(pz.id)}/refute`, { ply, move: m });
      if (!this.alive || this.pz !== pz) return;
      await this.board.set(r.position, { last: m, from });
      if (!r.ends) {
        await pause(300);
        if (!this.alive || this.pz !== pz) return;
        await this.board.set(r.after, { last: r.reply, from: r.position });
      }
      words = this.refutationText(r);
    } catch (err) {
      // Offline, or no answer: the wrong move alone, played by the browser's rules.
      try {
        const r = await enginePlay({ game: this.game, rules: pz.rules, position: from, moves: [m] });
        await this.board.set(r.position, { last: m, from });
      } catch (e) {
        this.board.set(from, {});
      }
    }
    if (!this.alive || this.pz !== pz) return;
    this.msg.append(...[words, this.streak ? '' : t('pz.retryOffer')].filter(Boolean).map((p) => h('p.pz-refutation', p)));
    this.retryBtn.hidden = !!this.streak;
    this.solutionBtn.hidden = false;
    this.solutionBtn.onclick = () => this.showSolution(ply);
    if (this.streak) this.endStreak();
  }

  async showSolution(k) {
    const pz = this.pz;
    this.solutionBtn.hidden = true;
    this.retryBtn.hidden = true;
    this.msg.append(h('p', t('pz.solutionWas', { move: pz.line[k] })));
    await this.board.set(this.positionAt(k), {});
    for (let i = k; i < pz.line.length && this.alive && this.pz === pz; i++) {
      await this.board.set(this.positionAt(i + 1), { last: pz.line[i], from: this.positionAt(i) });
      await pause(400);
    }
    if (!this.alive || this.pz !== pz) return;
    this.board.setArrows(winningMoves(pz.line));
    this.msg.append(h('p.pz-line', t('pz.line', { line: pz.line.slice(k).join(' ') })));
    this.retryBtn.hidden = !!this.streak;
  }
}

/** The puzzles page, or with ?history=1 the account's history of puzzles. */
export function puzzlesView(params) {
  return params.get('history') ? historyView(params) : new PuzzlePage(params);
}

/**
 * The home page's card of the daily puzzle: its board and a link to solve it.
 * Returns the card (node) and a promise settled once it is drawn (ready).
 */
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
  const ready = (async () => {
    try {
      const pz = await api('GET', '/api/puzzles/daily');
      const [mod, meta] = await Promise.all([loadGame(pz.game), getMeta()]);
      const spec = gameSpec(meta, pz.game);
      // Turned as the puzzle's page turns it: the side to move at the bottom.
      const orientation = spec ? mod.orientation(mod.parse(pz.position, gridFor(mod)), pz.side, spec.sides) : 0;
      const board = new Board(box, { game: mod, orientation });
      board.root.tabIndex = -1; // a picture, not a board to play on
      board.set(pz.position, {});
      card.dataset.puzzle = pz.id;
      text.textContent = t('pz.dailyText', { game: pz.title, n: pz.win_in });
    } catch (err) {
      text.textContent = err.message;
      text.className = 'error';
    }
  })();
  return { node: card, ready };
}
