// The board's gestures: a click or tap on a square, click-click and drag
// (mouse, touch and pen, through pointer events) make a move of the legal
// ones, through the game's module (tapMove, targets, choose); a popup asks
// when two squares fit several moves; the pointer over a square previews a
// move and inspects a stack, as does a long press; the editor takes the
// clicks in edit mode.

import { el } from './dom.js';
import { t } from './i18n.js';

/** The gestures of a Board (board.js), bound to its root. */
export class Gestures {
  constructor(board) {
    this.board = board;
    this.chooser = null; // the popup that asks which move
    this.hovered = -1; // the square under the pointer
    this.pressTimer = null;
    this.bind();
  }

  /** The move of the selected piece to square to that is worth previewing (a tumble before a step), or ''. */
  previewFor(from, to) {
    const b = this.board;
    if (from < 0 || to < 0 || !b.game.preview) return '';
    const moves = b.targets(from).get(to) || [];
    if (!moves.length) return '';
    return moves[moves.length - 1];
  }

  bind() {
    const b = this.board;
    b.root.addEventListener('pointerdown', (e) => {
      // A long press on a touch screen opens the stack inspector.
      clearTimeout(this.pressTimer);
      if (e.pointerType === 'touch' || e.pointerType === 'pen') {
        const sq = b.squareAt(e.clientX, e.clientY);
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
        this.pressTimer = setTimeout(() => b.inspect(sq), 450);
      }
      this.pointerDown(e);
    });
    b.root.addEventListener('pointermove', (e) => {
      if (e.buttons || e.pointerType === 'touch') return;
      const sq = b.squareAt(e.clientX, e.clientY);
      if (sq !== this.hovered) {
        this.hovered = sq;
        b.inspect(sq);
        if (b.selected >= 0 && !this.chooser) b.preview(this.previewFor(b.selected, sq));
        else if (b.selected < 0 && b.game.preview && sq >= 0) b.preview(b.tapMove(sq));
      }
    });
    b.root.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'touch') return;
      this.hovered = -1;
      b.inspect(-1);
      if (!this.chooser) b.preview('');
    });
    // The keyboard (the cursor's keys are board-keys.js's): i lists the
    // stack of the selected piece, under the pointer or under the cursor,
    // Escape closes the inspector.
    b.root.addEventListener('keydown', (e) => {
      if (e.key === 'i' && !e.ctrlKey && !e.metaKey && !e.altKey) {
        const sq = b.selected >= 0 ? b.selected : this.hovered >= 0 ? this.hovered : b.keys.cursor;
        b.inspect(b.inspected >= 0 ? -1 : (sq >= 0 ? sq : b.firstOccupied()));
      } else if (e.key === 'Escape') {
        b.inspect(-1);
        b.preview('');
      }
    });
    b.root.addEventListener('contextmenu', (e) => {
      if (b.interactive) e.preventDefault();
    });
  }

  pointerDown(e) {
    const b = this.board;
    if (b.editor && (e.button === undefined || e.button === 0)) {
      const sq = b.squareAt(e.clientX, e.clientY);
      if (sq >= 0) {
        e.preventDefault();
        b.editor(sq);
      }
      return;
    }
    if (!b.interactive || (e.button !== undefined && e.button !== 0)) return;
    const sq = b.squareAt(e.clientX, e.clientY);
    if (sq < 0) return;
    e.preventDefault();
    const what = this.activate(sq, e);
    if (what === 'picked' || what === 'again') this.startDrag(e, sq, what === 'again');
  }

  /**
   * A click (or the keyboard's Enter, board-keys.js) on square sq: the move
   * to it of the piece picked, the move a click there plays, or the piece
   * there picked. Says what it did: 'moved', 'picked', 'again' (the piece
   * picked already) or 'none' (nothing to move there).
   */
  activate(sq, e) {
    const b = this.board;
    this.closeChooser();
    if (b.selected >= 0 && b.selected !== sq && this.tryMove(b.selected, sq, e)) return 'moved';
    const tap = b.tapMove(sq);
    if (tap) {
      this.send(tap);
      return 'moved';
    }
    if (b.targets(sq).size === 0) {
      b.selected = -1;
      b.decorate();
      return 'none';
    }
    const again = b.selected === sq;
    b.selected = sq;
    b.decorate();
    return again ? 'again' : 'picked';
  }

  startDrag(e, sq, wasSelected) {
    const b = this.board;
    const x0 = e.clientX;
    const y0 = e.clientY;
    let ghost = null;
    const pieces = b.pieceAt[sq] || [];
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - x0, ev.clientY - y0) > 6) {
        const rect = b.root.getBoundingClientRect();
        ghost = el('div', 'drag-ghost game-' + b.game.name);
        ghost.style.width = rect.width / b.grid.files + 'px';
        ghost.style.height = rect.height / b.grid.ranks + 'px';
        for (const p of pieces) {
          const c = p.cloneNode(true);
          c.style.left = '0';
          // The piece's lift, in square heights, as a percentage of the ghost's.
          c.style.top = (parseFloat(p.style.top) - parseFloat(b.y(b.cell(sq).row))) * b.grid.ranks + '%';
          c.style.width = c.style.height = '100%';
          ghost.append(c);
          p.classList.add('dragging');
        }
        document.body.append(ghost);
      }
      if (ghost) {
        const w = ghost.offsetWidth;
        ghost.style.transform = `translate(${ev.clientX - w / 2}px, ${ev.clientY - w / 2}px)`;
        const over = b.squareAt(ev.clientX, ev.clientY);
        b.squares.forEach((s, i) => s.classList.toggle('hover', i === over));
        b.preview(this.previewFor(sq, over));
      }
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      b.squares.forEach((s) => s.classList.remove('hover'));
      if (ghost && !this.chooser) b.preview('');
      if (ghost) {
        ghost.remove();
        pieces.forEach((p) => p.classList.remove('dragging'));
        const to = b.squareAt(ev.clientX, ev.clientY);
        if (to >= 0 && to !== sq) this.tryMove(sq, to, ev);
        return;
      }
      if (wasSelected) {
        b.selected = -1;
        b.decorate();
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
    const b = this.board;
    const moves = b.targets(from).get(to) || [];
    if (moves.length === 0) return false;
    const choice = moves.length === 1 ? moves[0] : b.game.choose(moves, { from, to, pos: b.parsed, shift: !!(e && e.shiftKey) });
    if (typeof choice === 'string') this.send(choice);
    else if (choice && choice.options) this.choose(to, choice, e);
    return true;
  }

  /**
   * A small popup over the target square that asks which move: question is
   * {label, options: [{move, text, title, cls}]}; e is the event that
   * asked (a click, or the keyboard's Enter).
   */
  choose(to, question, e) {
    const b = this.board;
    this.closeChooser();
    const box = el('div', 'chooser', { role: 'dialog', 'aria-label': question.label || t('board.which') });
    const { row, col } = b.cell(to);
    const { files, ranks } = b.grid;
    if (col < files / 2) box.style.left = b.x(col);
    else box.style.right = b.x(files - 1 - col);
    if (row < ranks - 2) box.style.top = b.y(row + 1);
    else box.style.bottom = b.y(ranks - row);
    const buttons = question.options.map((o) => {
      const btn = el('button', 'btn' + (o.cls ? ' ' + o.cls : ''), { type: 'button', 'data-move': o.move });
      btn.textContent = o.text || o.move;
      if (o.title) btn.title = o.title;
      btn.onclick = () => this.send(o.move);
      btn.onpointerenter = btn.onfocus = () => b.preview(o.move);
      return btn;
    });
    const cancel = el('button', 'btn ghost choose-cancel', { type: 'button', 'aria-label': t('board.cancel') });
    cancel.textContent = '×';
    cancel.onclick = () => this.closeChooser();
    box.addEventListener('pointerdown', (e) => e.stopPropagation());
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.closeChooser();
    });
    box.append(...buttons, cancel);
    b.root.append(box);
    keepInside(box, b.root);
    this.chooser = box;
    // The focus goes into the popup; after the key that opened it is up,
    // lest that key's press also press the first button.
    const focus = () => { if (this.chooser === box && buttons.length) buttons[0].focus({ preventScroll: true }); };
    this.chooserByKey = !!e && e.type === 'keydown';
    if (this.chooserByKey) b.root.addEventListener('keyup', focus, { once: true });
    else focus();
    // The move that moves most (a tumble) is previewed until another is pointed at.
    b.preview(question.options.length ? question.options[question.options.length - 1].move : '');
  }

  closeChooser() {
    const b = this.board;
    if (this.chooser) {
      // The keyboard's focus was in the popup it opened: back to the
      // board, not lost. (A click leaves the board without the focus, and
      // the arrow keys to the page.)
      const focused = this.chooserByKey && this.chooser.contains(document.activeElement);
      this.chooser.remove();
      this.chooser = null;
      if (b.previewing) b.preview('');
      if (focused) b.root.focus({ preventScroll: true });
    }
  }

  send(move) {
    const b = this.board;
    this.closeChooser();
    b.previewing = '';
    b.selected = -1;
    b.interactive = false;
    b.decorate();
    b.onMove(move);
  }
}

/**
 * Moves a popup placed at a square back inside the board where it would
 * stick out: a chooser wider than the board's room beside its square, on
 * a phone's narrow board, went past the screen's edge.
 */
function keepInside(box, root) {
  const r = root.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (b.left < r.left) {
    box.style.right = '';
    box.style.left = '0px';
  } else if (b.right > r.right) {
    box.style.left = '';
    box.style.right = '0px';
  }
}
