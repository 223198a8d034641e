// The board: draws a position of any game, on a board of the game's size,
// through the game's module (js/games/<name>.js, loaded by games.js), marks
// the last move, the legal targets and extra squares, animates moves, and
// lets the player move by click-click or drag (mouse and touch, through
// pointer events). The board knows no game: what the pieces look like, how
// a move is animated and which move a click or drag means are the module's
// (docs/adding-a-game.md, "The front end", lists what it asks a module).

import { t } from './i18n.js';
import { gridFor } from './games.js';

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

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

    this.root = el('div', 'board game-' + this.game.name, {
      role: 'group', 'aria-label': t('board.label'), 'data-game': this.game.name,
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
    this.inspector = el('div', 'inspector', { role: 'tooltip', id: 'inspector-' + Math.random().toString(36).slice(2) });
    this.inspector.hidden = true;
    this.root.append(this.squaresEl, this.piecesEl, this.coordsEl, this.notesEl, this.inspector, this.endEl);
    this.root.tabIndex = 0;
    this.squares = [];
    for (let i = 0; i < this.grid.squares; i++) {
      const s = el('div', 'sq ' + (this.grid.isDark(i) ? 'dark' : 'light'), { 'data-sq': this.grid.sqName(i) });
      this.squares.push(s);
      this.squaresEl.append(s);
    }
    container.append(this.root);
    this.layout();
    this.bindInput();
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
    const d = sq >= 0 && this.parsed && this.game.describe ? this.game.describe(this.parsed, sq) : null;
    this.inspected = d ? sq : -1;
    if (!d) {
      this.inspector.hidden = true;
      this.root.removeAttribute('aria-describedby');
      return;
    }
    this.inspector.textContent = '';
    const title = el('div', 'inspector-title');
    title.textContent = d.title || this.grid.sqName(sq);
    const list = el('ol', 'inspector-list');
    for (const it of d.items || []) {
      const li = el('li', 'inspector-item');
      const chip = el('span', 'inspector-chip ' + (it.cls || ''));
      const text = el('span');
      text.textContent = it.text || '';
      li.append(chip, text);
      list.append(li);
    }
    this.inspector.append(title, list);
    this.inspector.dataset.sq = this.grid.sqName(sq);
    const { row, col } = this.cell(sq);
    const { files, ranks } = this.grid;
    this.inspector.style.left = this.inspector.style.right = this.inspector.style.top = this.inspector.style.bottom = '';
    if (col < files / 2) this.inspector.style.left = this.x(col + 1);
    else this.inspector.style.right = this.x(files - col);
    if (row < ranks / 2) this.inspector.style.top = this.y(row);
    else this.inspector.style.bottom = this.y(ranks - 1 - row);
    this.inspector.hidden = false;
    this.root.setAttribute('aria-describedby', this.inspector.id);
  }

  /** Draws the pieces, animating from the earlier position when given. */
  draw(text, fromText) {
    this.piecesEl.textContent = '';
    this.root.setAttribute('aria-label', `${t('board.label')}: ${text}`);
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
    for (const s of this.squares) s.classList.remove('end-line', 'end-moved', 'end-king', 'preview-land');
    this.notesEl.textContent = '';
    const note = (sq, cls, text, pieces) => {
      const n = el('div', 'board-note ' + cls, { 'data-sq': this.grid.sqName(sq) });
      const { row, col } = this.cell(sq);
      n.style.left = this.x(col);
      n.style.top = this.y(row);
      if (pieces && pieces.length) {
        const chips = el('span', 'note-pieces');
        for (const c of pieces) chips.append(el('span', 'note-chip ' + c));
        n.append(chips);
      }
      if (text) {
        const t = el('span', 'note-text');
        t.textContent = text;
        n.append(t);
      }
      this.notesEl.append(n);
    };
    if (this.end) {
      for (const m of this.end.marks || []) if (m.sq >= 0) this.squares[m.sq].classList.add(m.cls || 'end-line');
      for (const n of this.end.notes || []) if (n.sq >= 0) note(n.sq, 'end-note', n.text);
    }
    if (this.previewing && this.game.preview && this.parsed) {
      let land = null;
      try {
        land = this.game.preview(this.parsed, this.previewing, this.rules);
      } catch (e) {
        console.warn(e);
      }
      for (const l of land || []) {
        this.squares[l.sq].classList.add('preview-land');
        note(l.sq, 'landing', l.text, l.pieces);
      }
      this.root.dataset.preview = this.previewing;
    } else {
      delete this.root.dataset.preview;
    }
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

  /** The move of the selected piece to square to that is worth previewing (a tumble before a step), or ''. */
  previewFor(from, to) {
    if (from < 0 || to < 0 || !this.game.preview) return '';
    const moves = this.targets(from).get(to) || [];
    if (!moves.length) return '';
    return moves[moves.length - 1];
  }

  bindInput() {
    this.root.addEventListener('pointerdown', (e) => {
      // A long press on a touch screen opens the stack inspector.
      clearTimeout(this.pressTimer);
      if (e.pointerType === 'touch' || e.pointerType === 'pen') {
        const sq = this.squareAt(e.clientX, e.clientY);
        const x0 = e.clientX;
        const y0 = e.clientY;
        const cancel = (ev) => {
          if (ev.type === 'pointermove' && Math.hypot(ev.clientX - x0, ev.clientY - y0) < 8) return;
          clearTimeout(this.pressTimer);
          window.removeEventListener('pointermove', cancel);
          window.removeEventListener('pointerup', cancel);
        };
        window.addEventListener('pointermove', cancel);
        window.addEventListener('pointerup', cancel);
        this.pressTimer = setTimeout(() => this.inspect(sq), 450);
      }
      this.pointerDown(e);
    });
    this.root.addEventListener('pointermove', (e) => {
      if (e.buttons || e.pointerType === 'touch') return;
      const sq = this.squareAt(e.clientX, e.clientY);
      if (sq !== this.hovered) {
        this.hovered = sq;
        this.inspect(sq);
        if (this.selected >= 0 && !this.chooser) this.preview(this.previewFor(this.selected, sq));
        else if (this.selected < 0 && this.game.preview && sq >= 0) this.preview(this.tapMove(sq));
      }
    });
    this.root.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'touch') return;
      this.hovered = -1;
      this.inspect(-1);
      if (!this.chooser) this.preview('');
    });
    // The keyboard: i lists the stack under the pointer or of the
    // selected piece, Escape closes the inspector.
    this.root.addEventListener('keydown', (e) => {
      if (e.key === 'i' && !e.ctrlKey && !e.metaKey && !e.altKey) {
        const sq = this.selected >= 0 ? this.selected : this.hovered;
        this.inspect(this.inspected >= 0 ? -1 : (sq >= 0 ? sq : this.firstOccupied()));
      } else if (e.key === 'Escape') {
        this.inspect(-1);
        this.preview('');
      }
    });
    this.root.addEventListener('contextmenu', (e) => {
      if (this.interactive) e.preventDefault();
    });
  }

  /** Edit mode: a click on a square calls f(sq) instead of moving (the analysis board's editor); null ends it. */
  setEditor(f) {
    this.editor = f || null;
    this.root.classList.toggle('editing', !!this.editor);
  }

  pointerDown(e) {
    if (this.editor && (e.button === undefined || e.button === 0)) {
      const sq = this.squareAt(e.clientX, e.clientY);
      if (sq >= 0) {
        e.preventDefault();
        this.editor(sq);
      }
      return;
    }
    if (!this.interactive || (e.button !== undefined && e.button !== 0)) return;
    const sq = this.squareAt(e.clientX, e.clientY);
    if (sq < 0) return;
    e.preventDefault();
    this.closeChooser();
    if (this.selected >= 0 && this.selected !== sq && this.tryMove(this.selected, sq, e)) return;
    const tap = this.tapMove(sq);
    if (tap) {
      this.send(tap);
      return;
    }
    if (this.targets(sq).size === 0) {
      this.selected = -1;
      this.decorate();
      return;
    }
    const wasSelected = this.selected === sq;
    this.selected = sq;
    this.decorate();
    this.startDrag(e, sq, wasSelected);
  }

  startDrag(e, sq, wasSelected) {
    const x0 = e.clientX;
    const y0 = e.clientY;
    let ghost = null;
    const pieces = this.pieceAt[sq] || [];
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - x0, ev.clientY - y0) > 6) {
        const rect = this.root.getBoundingClientRect();
        ghost = el('div', 'drag-ghost game-' + this.game.name);
        ghost.style.width = rect.width / this.grid.files + 'px';
        ghost.style.height = rect.height / this.grid.ranks + 'px';
        for (const p of pieces) {
          const c = p.cloneNode(true);
          c.style.left = '0';
          // The piece's lift, in square heights, as a percentage of the ghost's.
          c.style.top = (parseFloat(p.style.top) - parseFloat(this.y(this.cell(sq).row))) * this.grid.ranks + '%';
          c.style.width = c.style.height = '100%';
          ghost.append(c);
          p.classList.add('dragging');
        }
        document.body.append(ghost);
      }
      if (ghost) {
        const w = ghost.offsetWidth;
        ghost.style.transform = `translate(${ev.clientX - w / 2}px, ${ev.clientY - w / 2}px)`;
        const over = this.squareAt(ev.clientX, ev.clientY);
        this.squares.forEach((s, i) => s.classList.toggle('hover', i === over));
        this.preview(this.previewFor(sq, over));
      }
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      this.squares.forEach((s) => s.classList.remove('hover'));
      if (ghost && !this.chooser) this.preview('');
      if (ghost) {
        ghost.remove();
        pieces.forEach((p) => p.classList.remove('dragging'));
        const to = this.squareAt(ev.clientX, ev.clientY);
        if (to >= 0 && to !== sq) this.tryMove(sq, to, ev);
        return;
      }
      if (wasSelected) {
        this.selected = -1;
        this.decorate();
      }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }

  /**
   * Plays a move from one square to another if one is legal; when several
   * fit, the game's module chooses or asks (in a popup). Reports whether
   * the target was one of the piece's.
   */
  tryMove(from, to, e) {
    const moves = this.targets(from).get(to) || [];
    if (moves.length === 0) return false;
    const choice = moves.length === 1 ? moves[0] : this.game.choose(moves, { from, to, pos: this.parsed, shift: !!(e && e.shiftKey) });
    if (typeof choice === 'string') this.send(choice);
    else if (choice && choice.options) this.choose(to, choice);
    return true;
  }

  /** A small popup over the target square that asks which move: question is {label, options: [{move, text, title, cls}]}. */
  choose(to, question) {
    this.closeChooser();
    const box = el('div', 'chooser', { role: 'dialog', 'aria-label': question.label || t('board.which') });
    const { row, col } = this.cell(to);
    const { files, ranks } = this.grid;
    if (col < files / 2) box.style.left = this.x(col);
    else box.style.right = this.x(files - 1 - col);
    if (row < ranks - 2) box.style.top = this.y(row + 1);
    else box.style.bottom = this.y(ranks - row);
    const buttons = question.options.map((o) => {
      const b = el('button', 'btn' + (o.cls ? ' ' + o.cls : ''), { type: 'button', 'data-move': o.move });
      b.textContent = o.text || o.move;
      if (o.title) b.title = o.title;
      b.onclick = () => this.send(o.move);
      b.onpointerenter = b.onfocus = () => this.preview(o.move);
      return b;
    });
    const cancel = el('button', 'btn ghost choose-cancel', { type: 'button', 'aria-label': t('board.cancel') });
    cancel.textContent = '×';
    cancel.onclick = () => this.closeChooser();
    box.addEventListener('pointerdown', (e) => e.stopPropagation());
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.closeChooser();
    });
    box.append(...buttons, cancel);
    this.root.append(box);
    this.chooser = box;
    if (buttons.length) buttons[0].focus({ preventScroll: true });
    // The move that moves most (a tumble) is previewed until another is pointed at.
    this.preview(question.options.length ? question.options[question.options.length - 1].move : '');
  }

  closeChooser() {
    if (this.chooser) {
      this.chooser.remove();
      this.chooser = null;
      if (this.previewing) this.preview('');
    }
  }

  send(move) {
    this.closeChooser();
    this.previewing = '';
    this.selected = -1;
    this.interactive = false;
    this.decorate();
    this.onMove(move);
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
