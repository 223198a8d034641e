// The board: draws a position of any game, on a board of the game's size,
// through the game's module (js/games/<name>.js, loaded by games.js), marks
// the last move, the legal targets and extra squares, animates moves, and
// lets the player move by click-click or drag (mouse and touch, through
// pointer events) or by keyboard (a cursor, board-keys.js), and names
// itself and its squares in words (board-speech.js). The board knows no game: what the pieces look like, how
// a move is animated and which move a click or drag means are the module's
// (docs/adding-a-game.md, "The front end", lists what it asks a module).

import { t } from './i18n.js';
import { el } from './dom.js';
import { drawArrows } from './board-arrows.js';
import { gridFor } from './games.js';
import { Gestures } from './board-input.js';
import { inspectSquare, drawNotes } from './board-notes.js';
import { BoardKeys } from './board-keys.js';
import { labelBoard } from './board-speech.js';

/**
 * Board draws one game's positions into a container element.
 * options: {game: the game's module, onMove(move), orientation: 0 | 1,
 * rules, grid}; orientation 1 puts the last rank (and file) at the bottom;
 * grid is the board's size, by default the one loadGame found for the
 * module (gridFor).
 */
export class Board {
  constructor(container, options) {
    this.game = options.game;
    this.grid = options.grid || gridFor(this.game);
    this.onMove = options.onMove || (() => {});
    this.orientation = options.orientation || 0;
    this.rules = options.rules || ''; // the game's rule settings, for the module's preview
    this.legal = [];
    this.interactive = false;
    this.selected = -1;
    this.position = null;
    this.parsed = null;
    this.lastMove = '';
    this.marks = new Set();
    this.end = null; // the module's endMarks for the position shown
    this.previewing = ''; // the move whose landing is previewed
    this.inspected = -1; // the square whose stack the inspector lists
    this.pieceAt = [];
    this.view = {
      piece: (cls, sq, lift = 0) => {
        const node = el('div', 'piece ' + cls);
        this.place(node, sq, lift);
        this.piecesEl.append(node);
        return node;
      },
      place: (node, sq, lift = 0) => this.place(node, sq, lift),
      offset: (a, la, b, lb) => this.offset(a, la, b, lb),
      grid: this.grid,
    };

    const id = 'board-' + Math.random().toString(36).slice(2);
    // An application: a screen reader passes the keys to the board's
    // cursor (board-keys.js) and reads the cursor's square.
    this.root = el('div', 'board game-' + this.game.name, {
      id, role: 'application', 'aria-label': t('board.label'), 'data-game': this.game.name,
      'data-files': this.grid.files, 'data-ranks': this.grid.ranks,
    });
    // The style sheet sizes the squares and pieces by these.
    this.root.style.setProperty('--files', String(this.grid.files));
    this.root.style.setProperty('--ranks', String(this.grid.ranks));
    this.squaresEl = el('div', 'squares');
    this.piecesEl = el('div', 'pieces', { 'aria-hidden': 'true' });
    this.coordsEl = el('div', 'coords', { 'aria-hidden': 'true' });
    this.notesEl = el('div', 'notes', { 'aria-hidden': 'true' });
    this.endEl = el('p', 'board-end visually-hidden', { 'aria-live': 'polite' });
    this.sayEl = el('p', 'board-say visually-hidden', { role: 'status' });
    this.inspector = el('div', 'inspector', { role: 'tooltip', id: 'inspector-' + Math.random().toString(36).slice(2) });
    this.inspector.hidden = true;
    this.root.append(this.squaresEl, this.piecesEl, this.coordsEl, this.notesEl, this.inspector, this.endEl, this.sayEl);
    this.root.tabIndex = 0;
    this.squares = [];
    for (let i = 0; i < this.grid.squares; i++) {
      const name = this.grid.sqName(i);
      const s = el('div', 'sq ' + (this.grid.isDark(i) ? 'dark' : 'light'), { 'data-sq': name, id: `${id}-${name}`, role: 'img', 'aria-label': name });
      this.squares.push(s);
      this.squaresEl.append(s);
    }
    container.append(this.root);
    this.layout();
    this.gestures = new Gestures(this);
    this.keys = new BoardKeys(this);
  }

  /** Row and column on screen (0 at top left) of a square. */
  cell(i) {
    const { files, ranks } = this.grid;
    const f = this.grid.fileOf(i);
    const r = this.grid.rankOf(i);
    return this.orientation ? { row: r, col: files - 1 - f } : { row: ranks - 1 - r, col: f };
  }

  /** The square shown at a row and column of the screen (0 at top left). */
  squareOfCell(row, col) {
    const { files, ranks } = this.grid;
    return this.orientation ? this.grid.squareAt(files - 1 - col, row) : this.grid.squareAt(col, ranks - 1 - row);
  }

  /** The left edge of a column, in percent of the board's width. */
  x(col) {
    return (col * 100) / this.grid.files + '%';
  }

  /** The top edge of a row (fractions too: a raised piece), in percent of the board's height. */
  y(row) {
    return (row * 100) / this.grid.ranks + '%';
  }

  layout() {
    for (let i = 0; i < this.grid.squares; i++) {
      const { row, col } = this.cell(i);
      this.squares[i].style.gridRow = String(row + 1);
      this.squares[i].style.gridColumn = String(col + 1);
    }
    this.coordsEl.textContent = '';
    const coord = (cls, sq) => el('span', `coord ${cls} ${this.grid.isDark(sq) ? 'on-dark' : 'on-light'}`);
    for (let k = 0; k < this.grid.files; k++) {
      const bottom = this.squareOfCell(this.grid.ranks - 1, k);
      const f = coord('file', bottom);
      f.textContent = this.grid.sqName(bottom)[0];
      f.style.left = this.x(k);
      this.coordsEl.append(f);
    }
    for (let k = 0; k < this.grid.ranks; k++) {
      const left = this.squareOfCell(k, 0);
      const r = coord('rank', left);
      r.textContent = this.grid.sqName(left).slice(1);
      r.style.top = this.y(k);
      this.coordsEl.append(r);
    }
  }

  /** Turns the board round. */
  setOrientation(o) {
    if (o === this.orientation) return;
    this.orientation = o;
    this.layout();
    if (this.position != null) this.draw(this.position, null);
    if (this.arrowMoves) drawArrows(this, this.arrowMoves);
  }

  /** Draws the engine's best moves as arrows (board-arrows.js), best first; [] for none. */
  setArrows(moves) {
    drawArrows(this, moves || []);
  }

  /**
   * Shows a position. opts: {last: move text that led to it, from: the
   * position before that move (to animate it), legal: legal moves when the
   * viewer may move now, marks: extra squares to highlight, end: {result,
   * reason, before} when the position ends the game (before: the position
   * before the last move), to mark why}. Returns a promise that settles
   * when the animation is over.
   */
  set(position, opts = {}) {
    const legal = opts.legal || [];
    const endKey = opts.end ? [opts.end.result, opts.end.reason, opts.end.before || ''].join('|') : '';
    if (position === this.position && (opts.last || '') === this.lastMove && legal.join() === this.legal.join() && opts.from == null) {
      // Nothing on the board changed (a player connected, a draw offer):
      // keep the selection and an open chooser.
      this.interactive = legal.length > 0;
      this.marks = new Set((opts.marks || []).map((n) => this.grid.sqIndex(n)));
      if (endKey !== this.endKey) this.setEnd(opts.end, endKey);
      this.decorate();
      return Promise.resolve();
    }
    this.position = position;
    this.lastMove = opts.last || '';
    this.legal = legal;
    this.interactive = this.legal.length > 0;
    this.marks = new Set((opts.marks || []).map((n) => this.grid.sqIndex(n)));
    this.selected = -1;
    this.previewing = '';
    this.closeChooser();
    const anim = this.draw(position, opts.from != null && opts.last ? opts.from : null);
    this.setEnd(opts.end, endKey);
    if (this.inspected >= 0) this.inspect(this.inspected);
    this.decorate();
    return anim;
  }

  /** Works out, through the module, what to mark on a position that ends the game. */
  setEnd(end, key) {
    this.endKey = key;
    this.end = null;
    if (end && this.game.endMarks && this.parsed) {
      try {
        const before = end.before ? this.game.parse(end.before, this.grid) : null;
        this.end = this.game.endMarks(before, this.parsed, this.lastMove, { result: end.result, reason: end.reason }) || null;
      } catch (e) {
        console.warn(e);
      }
    }
    this.endEl.textContent = this.end && this.end.label ? this.end.label : '';
    if (this.end && this.end.label) this.root.dataset.end = end.reason || '';
    else delete this.root.dataset.end;
  }

  /** Shows where a move's pieces would land (the module's preview), or nothing for ''. */
  preview(move) {
    move = move || '';
    if (move === this.previewing) return;
    this.previewing = move;
    this.decorate();
  }

  /** The stack inspector: lists the pieces of square sq bottom to top, or hides for -1. */
  inspect(sq) {
    inspectSquare(this, sq);
  }

  /** Draws the pieces, animating from the earlier position when given. */
  draw(text, fromText) {
    this.piecesEl.textContent = '';
    const pos = this.game.parse(text, this.grid);
    this.parsed = pos;
    this.pieceAt = normalise(this.game.draw(this.view, pos), this.grid.squares);
    this.targetCache = new Map();
    if (fromText == null) return Promise.resolve();
    return Promise.resolve(this.game.animate(this.view, this.game.parse(fromText, this.grid), pos, this.lastMove, this.pieceAt)).catch((e) => console.warn(e));
  }

  place(node, i, lift = 0) {
    const { row, col } = this.cell(i);
    node.style.left = this.x(col);
    node.style.top = this.y(row - lift);
    node.style.zIndex = String(10 + row * 40 + Math.round(lift * 100));
  }

  /** The translation, in the piece's own size, from square a (lifted la) to b (lifted lb). */
  offset(a, la, b, lb) {
    const ca = this.cell(a);
    const cb = this.cell(b);
    return `translate(${(ca.col - cb.col) * 100}%, ${(ca.row - la - (cb.row - lb)) * 100}%)`;
  }

  /** The moves of the piece on square i, by target square (the module's answer, kept until the next draw). */
  targets(i) {
    if (!this.targetCache) this.targetCache = new Map();
    if (!this.targetCache.has(i)) this.targetCache.set(i, this.game.targets(this.legal, i, this.parsed));
    return this.targetCache.get(i);
  }

  /** The move a click on square i plays at once, or ''. */
  tapMove(i) {
    return this.legal.length ? this.game.tapMove(this.legal, i, this.parsed) || '' : '';
  }

  /** Marks the last move, the selection, its targets and extra marks. */
  decorate() {
    const last = this.game.parseMove(this.lastMove, this.grid);
    const targets = this.selected >= 0 ? this.targets(this.selected) : new Map();
    for (let i = 0; i < this.grid.squares; i++) {
      const s = this.squares[i];
      s.classList.toggle('last', !!last && (i === last.to || i === last.from));
      s.classList.toggle('selected', i === this.selected);
      s.classList.toggle('dest', targets.has(i));
      s.classList.toggle('occupied', this.occupied(i));
      s.classList.toggle('movable', this.interactive && (this.targets(i).size > 0 || this.tapMove(i) !== ''));
      s.classList.toggle('mark', this.marks.has(i));
    }
    drawNotes(this);
    labelBoard(this);
    this.root.classList.toggle('interactive', this.interactive);
  }

  firstOccupied() {
    for (let i = 0; i < this.grid.squares; i++) if (this.occupied(i)) return i;
    return -1;
  }

  occupied(i) {
    return !!(this.parsed && this.parsed.board[i]);
  }

  /** The square under a point on the screen, or -1. */
  squareAt(x, y) {
    const r = this.root.getBoundingClientRect();
    const col = Math.floor(((x - r.left) / r.width) * this.grid.files);
    const row = Math.floor(((y - r.top) / r.height) * this.grid.ranks);
    if (col < 0 || col >= this.grid.files || row < 0 || row >= this.grid.ranks) return -1;
    return this.squareOfCell(row, col);
  }

  /** Edit mode: a click on a square calls f(sq) instead of moving (the analysis board's editor); null ends it. */
  setEditor(f) {
    this.editor = f || null;
    this.root.classList.toggle('editing', !!this.editor);
  }

  /** Closes the popup that asks which move, if open. */
  closeChooser() {
    this.gestures.closeChooser();
  }
}

/** A module's pieces as one array of nodes for each of n squares. */
function normalise(pieces, n) {
  return Array.from({ length: n }, (_, i) => {
    const p = pieces && pieces[i];
    if (!p) return [];
    return Array.isArray(p) ? p.filter(Boolean) : [p];
  });
}
