// The board: draws a position of either game, marks the last move, the
// legal targets and the Kings, animates moves, and lets the player move by
// click-click or drag (mouse and touch, through pointer events).

import {
  sqIndex, sqName, fileOf, rankOf, parseMove, parseMagneton, parseTumbling,
  tumblingKings, magnetonSlides, tumblingFlights, isTumbling,
} from './notation.js';

const SLIDE_MS = 260;
const DISK_MS = 240;
const DISK_GAP_MS = 110;

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** Vertical spacing of the disks of a stack of n, in square heights. */
function diskStep(n) {
  return n <= 1 ? 0 : Math.min(0.12, 0.6 / (n - 1));
}

/**
 * Board draws one game's positions into a container element.
 * options: {game, onMove(move), orientation: 0 | 1}; orientation 1 puts
 * rank 8 (and file h) at the bottom.
 */
export class Board {
  constructor(container, options) {
    this.game = options.game;
    this.tumbling = isTumbling(options.game);
    this.onMove = options.onMove || (() => {});
    this.orientation = options.orientation || 0;
    this.legal = [];
    this.interactive = false;
    this.selected = -1;
    this.position = null;
    this.lastMove = '';
    this.marks = new Set();

    this.root = el('div', 'board ' + (this.tumbling ? 'tumbling' : 'magneton'), {
      role: 'group', 'aria-label': 'Board',
    });
    this.squaresEl = el('div', 'squares');
    this.piecesEl = el('div', 'pieces', { 'aria-hidden': 'true' });
    this.coordsEl = el('div', 'coords', { 'aria-hidden': 'true' });
    this.root.append(this.squaresEl, this.piecesEl, this.coordsEl);
    this.squares = [];
    for (let i = 0; i < 64; i++) {
      const s = el('div', 'sq ' + ((fileOf(i) + rankOf(i)) % 2 === 0 ? 'dark' : 'light'), { 'data-sq': sqName(i) });
      this.squares.push(s);
      this.squaresEl.append(s);
    }
    container.append(this.root);
    this.layout();
    this.bindInput();
  }

  /** Row and column on screen (0 at top left) of a square. */
  cell(i) {
    const f = fileOf(i);
    const r = rankOf(i);
    return this.orientation ? { row: r, col: 7 - f } : { row: 7 - r, col: f };
  }

  layout() {
    for (let i = 0; i < 64; i++) {
      const { row, col } = this.cell(i);
      this.squares[i].style.gridRow = String(row + 1);
      this.squares[i].style.gridColumn = String(col + 1);
    }
    this.coordsEl.textContent = '';
    for (let k = 0; k < 8; k++) {
      const f = el('span', 'coord file ' + (k % 2 === 0 ? 'on-dark' : 'on-light'));
      f.textContent = 'abcdefgh'[this.orientation ? 7 - k : k];
      f.style.left = k * 12.5 + '%';
      const r = el('span', 'coord rank ' + (k % 2 === 0 ? 'on-light' : 'on-dark'));
      r.textContent = String(this.orientation ? k + 1 : 8 - k);
      r.style.top = k * 12.5 + '%';
      this.coordsEl.append(f, r);
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
   * viewer may move now, marks: extra squares to highlight}. Returns a
   * promise that settles when the animation is over.
   */
  set(position, opts = {}) {
    const legal = opts.legal || [];
    if (position === this.position && (opts.last || '') === this.lastMove && legal.join() === this.legal.join() && opts.from == null) {
      // Nothing on the board changed (a player connected, a draw offer):
      // keep the selection and an open chooser.
      this.interactive = legal.length > 0;
      this.marks = new Set((opts.marks || []).map(sqIndex));
      this.decorate();
      return Promise.resolve();
    }
    this.position = position;
    this.lastMove = opts.last || '';
    this.legal = opts.legal || [];
    this.interactive = this.legal.length > 0;
    this.marks = new Set((opts.marks || []).map(sqIndex));
    this.selected = -1;
    this.closeChooser();
    const anim = this.draw(position, opts.from != null && opts.last ? opts.from : null);
    this.decorate();
    return anim;
  }

  /** Draws the pieces, animating from the earlier position when given. */
  draw(text, fromText) {
    this.piecesEl.textContent = '';
    this.pieceAt = new Map();
    this.root.setAttribute('aria-label', `Board: ${text}`);
    return this.tumbling ? this.drawTumbling(text, fromText) : this.drawMagneton(text, fromText);
  }

  place(node, i, lift = 0) {
    const { row, col } = this.cell(i);
    node.style.left = col * 12.5 + '%';
    node.style.top = (row - lift) * 12.5 + '%';
    node.style.zIndex = String(10 + row * 40 + Math.round(lift * 100));
  }

  /** The translation, in the piece's own size, from square a (lifted la) to b (lifted lb). */
  offset(a, la, b, lb) {
    const ca = this.cell(a);
    const cb = this.cell(b);
    return `translate(${(ca.col - cb.col) * 100}%, ${(ca.row - la - (cb.row - lb)) * 100}%)`;
  }

  drawMagneton(text, fromText) {
    const pos = parseMagneton(text);
    this.parsed = pos;
    const nodes = new Array(64).fill(null);
    pos.board.forEach((c, i) => {
      if (!c) return;
      const s = el('div', 'stone ' + c);
      this.place(s, i);
      nodes[i] = s;
      this.piecesEl.append(s);
    });
    this.pieceAt = nodes;
    if (fromText == null) return Promise.resolve();
    const before = parseMagneton(fromText);
    const moves = magnetonSlides(before, pos, this.lastMove);
    if (!moves) return Promise.resolve();
    const anims = [];
    const first = moves.drop ? 180 : SLIDE_MS;
    const m = nodes[moves.magnet];
    if (m) {
      if (moves.drop) {
        anims.push(m.animate([{ transform: 'scale(1.6)', opacity: 0 }, { transform: 'scale(1)', opacity: 1 }],
          { duration: first, easing: 'ease-out', fill: 'backwards' }));
      } else {
        anims.push(m.animate([{ transform: this.offset(moves.mover.from, 0, moves.mover.to, 0) }, { transform: 'none' }],
          { duration: first, easing: 'ease-in-out', fill: 'backwards' }));
      }
    }
    if (moves.slides.length) {
      const ring = el('div', 'magnet-ring');
      this.place(ring, moves.magnet);
      this.piecesEl.append(ring);
      anims.push(ring.animate([{ transform: 'scale(0.6)', opacity: 0.9 }, { transform: 'scale(2.4)', opacity: 0 }],
        { duration: 520, delay: first - 60, easing: 'ease-out', fill: 'both' }));
    }
    for (const s of moves.slides) {
      const n = nodes[s.to];
      if (!n) continue;
      anims.push(n.animate([{ transform: this.offset(s.from, 0, s.to, 0) }, { transform: 'none' }],
        { duration: SLIDE_MS + 60, delay: first, easing: 'cubic-bezier(.3,.1,.3,1)', fill: 'backwards' }));
    }
    return Promise.all(anims.map((a) => a.finished.catch(() => {}))).then(() => {});
  }

  drawTumbling(text, fromText) {
    const pos = parseTumbling(text);
    this.parsed = pos;
    const kings = tumblingKings(pos.board);
    const disks = new Array(64).fill(null).map(() => []);
    pos.board.forEach((stack, i) => {
      if (!stack) return;
      const step = diskStep(stack.length);
      [...stack].forEach((c, level) => {
        const d = el('div', 'disk ' + c);
        this.place(d, i, level * step);
        disks[i].push(d);
        this.piecesEl.append(d);
      });
      const top = stack[stack.length - 1];
      const king = kings[top] && kings[top].has(i);
      if (stack.length > 1 || king) {
        const badge = el('div', 'stack-info' + (king ? ' king ' + top : ''));
        this.place(badge, i);
        badge.style.zIndex = String(2000);
        badge.innerHTML = (king ? '<span class="crown">♛</span>' : '') + (stack.length > 1 ? `<span class="height">${stack.length}</span>` : '');
        this.piecesEl.append(badge);
      }
    });
    this.pieceAt = disks;
    if (fromText == null) return Promise.resolve();
    const before = parseTumbling(fromText);
    const flights = tumblingFlights(before, pos, this.lastMove);
    if (!flights) return Promise.resolve();
    const anims = [];
    flights.forEach((f, k) => {
      const d = disks[f.to][f.toLevel];
      if (!d) return;
      const la = f.fromLevel * diskStep(before.board[f.from].length);
      const lb = f.toLevel * diskStep(pos.board[f.to].length);
      d.style.zIndex = String(1000 + k);
      anims.push(d.animate([
        { transform: this.offset(f.from, la, f.to, lb) },
        { transform: this.offset(f.from, la, f.to, lb) + ' translateY(-18%)', offset: 0.35 },
        { transform: 'none' },
      ], { duration: DISK_MS, delay: k * DISK_GAP_MS, easing: 'ease-in', fill: 'backwards' }));
    });
    return Promise.all(anims.map((a) => a.finished.catch(() => {}))).then(() => {
      flights.forEach((f) => {
        const d = disks[f.to][f.toLevel];
        if (d) this.place(d, f.to, f.toLevel * diskStep(pos.board[f.to].length));
      });
    });
  }

  /** Whether square i holds something the side to move may move. */
  movesFrom(i) {
    const name = sqName(i);
    return this.legal.filter((m) => m.length > 2 && m.startsWith(name) && (m[2] === '-' || m[2] === '>'));
  }

  isDrop(i) {
    return !this.tumbling && this.legal.includes(sqName(i));
  }

  /** Marks the last move, the selection, its targets and extra marks. */
  decorate() {
    const last = parseMove(this.lastMove);
    const targets = new Map();
    if (this.selected >= 0) {
      for (const m of this.movesFrom(this.selected)) {
        const t = sqIndex(m.slice(3));
        targets.set(t, true);
      }
    }
    for (let i = 0; i < 64; i++) {
      const s = this.squares[i];
      s.classList.toggle('last', !!last && (i === last.to || i === last.from));
      s.classList.toggle('selected', i === this.selected);
      s.classList.toggle('dest', targets.has(i));
      s.classList.toggle('occupied', this.occupied(i));
      s.classList.toggle('movable', this.interactive && (this.movesFrom(i).length > 0 || this.isDrop(i)));
      s.classList.toggle('mark', this.marks.has(i));
    }
    this.root.classList.toggle('interactive', this.interactive);
  }

  occupied(i) {
    return !!(this.parsed && this.parsed.board[i]);
  }

  /** The square under a point on the screen, or -1. */
  squareAt(x, y) {
    const r = this.root.getBoundingClientRect();
    const col = Math.floor(((x - r.left) / r.width) * 8);
    const row = Math.floor(((y - r.top) / r.height) * 8);
    if (col < 0 || col > 7 || row < 0 || row > 7) return -1;
    return this.orientation ? row * 8 + (7 - col) : (7 - row) * 8 + col;
  }

  bindInput() {
    this.root.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.root.addEventListener('contextmenu', (e) => {
      if (this.interactive) e.preventDefault();
    });
  }

  pointerDown(e) {
    if (!this.interactive || (e.button !== undefined && e.button !== 0)) return;
    const sq = this.squareAt(e.clientX, e.clientY);
    if (sq < 0) return;
    e.preventDefault();
    this.closeChooser();
    if (this.selected >= 0 && this.selected !== sq && this.tryMove(this.selected, sq, e)) return;
    if (this.isDrop(sq)) {
      this.send(sqName(sq));
      return;
    }
    if (this.movesFrom(sq).length === 0) {
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
    const pieces = this.tumbling ? this.pieceAt[sq] : [this.pieceAt[sq]].filter(Boolean);
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - x0, ev.clientY - y0) > 6) {
        const rect = this.root.getBoundingClientRect();
        ghost = el('div', 'drag-ghost ' + (this.tumbling ? 'tumbling' : 'magneton'));
        ghost.style.width = ghost.style.height = rect.width / 8 + 'px';
        for (const p of pieces) {
          const c = p.cloneNode(true);
          c.style.left = '0';
          c.style.top = (parseFloat(p.style.top) - this.cell(sq).row * 12.5) * 8 + '%';
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
      }
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      this.squares.forEach((s) => s.classList.remove('hover'));
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
   * Plays from-to if legal; when both a step and a tumble fit, asks which
   * (Shift chooses the tumble at once). Reports whether it was a target.
   */
  tryMove(from, to, e) {
    const a = sqName(from);
    const b = sqName(to);
    const options = this.legal.filter((m) => m === a + '-' + b || m === a + '>' + b);
    if (options.length === 0) return false;
    if (options.length === 1) {
      this.send(options[0]);
    } else if (e && e.shiftKey) {
      this.send(a + '>' + b);
    } else {
      this.choose(from, to, options);
    }
    return true;
  }

  /** A small popup over the target square: step the top disk or tumble the stack. */
  choose(from, to, options) {
    this.closeChooser();
    const box = el('div', 'chooser', { role: 'dialog', 'aria-label': 'Step or tumble' });
    const { row, col } = this.cell(to);
    if (col < 4) box.style.left = col * 12.5 + '%';
    else box.style.right = (7 - col) * 12.5 + '%';
    if (row < 6) box.style.top = (row + 1) * 12.5 + '%';
    else box.style.bottom = (8 - row) * 12.5 + '%';
    const n = (this.parsed.board[from] || '').length;
    const step = el('button', 'btn choose-step', { type: 'button' });
    step.textContent = `Step ${options.find((m) => m.includes('-'))}`;
    step.title = 'Move the top disk only';
    const tumble = el('button', 'btn choose-tumble', { type: 'button' });
    tumble.textContent = `Tumble ${options.find((m) => m.includes('>'))}`;
    tumble.title = `Topple the whole stack of ${n}`;
    const cancel = el('button', 'btn ghost choose-cancel', { type: 'button', 'aria-label': 'Cancel' });
    cancel.textContent = '×';
    step.onclick = () => this.send(options.find((m) => m.includes('-')));
    tumble.onclick = () => this.send(options.find((m) => m.includes('>')));
    cancel.onclick = () => this.closeChooser();
    box.addEventListener('pointerdown', (e) => e.stopPropagation());
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.closeChooser();
    });
    box.append(step, tumble, cancel);
    this.root.append(box);
    this.chooser = box;
    step.focus();
  }

  closeChooser() {
    if (this.chooser) {
      this.chooser.remove();
      this.chooser = null;
    }
  }

  send(move) {
    this.closeChooser();
    this.selected = -1;
    this.interactive = false;
    this.decorate();
    this.onMove(move);
  }
}
