// The board by keyboard, as lichess's keyboard input and a screen reader
// want it: a cursor square moved with the arrow keys (Home and End to the
// row's ends, Ctrl with them to the board's corners), Enter or Space acts
// on it as a click does (the same click-click logic of board-input.js, so
// drops, moves and a game's phases work alike), Escape drops the piece
// picked; in the popup that asks which move, the arrows and Tab go from
// button to button, Enter plays and Escape goes back to the board. The
// cursor's square is the board's aria-activedescendant, so that a screen
// reader reads its name (board-speech.js) as it moves. The cursor is the
// keyboard's: a click never gives the board the focus (board-input.js), so
// after a mouse move the arrows replay the game, as on lichess.

import { t, tn } from './i18n.js';
import { say } from './board-speech.js';
import { el } from './dom.js';

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The keyboard of a Board (board.js), bound to its root. */
export class BoardKeys {
  constructor(board) {
    this.board = board;
    this.cursor = -1; // the square under the cursor, -1 until the board has had the focus
    // The keys, said when the board takes the focus: its description
    // (with the stack inspector's, board-notes.js).
    board.keysEl = el('p', 'board-keys visually-hidden', { id: board.root.id + '-keys' });
    board.keysEl.textContent = t('sr.keys');
    board.root.append(board.keysEl);
    board.root.setAttribute('aria-describedby', board.keysEl.id);
    board.root.addEventListener('keydown', (e) => this.key(e));
    board.root.addEventListener('focus', () => this.show());
  }

  /** On focus, the cursor where the player will want it: the piece picked, the last move's square, or a square to move from. */
  show() {
    const b = this.board;
    if (this.cursor < 0) {
      const last = b.game.parseMove(b.lastMove, b.grid);
      const movable = b.squares.findIndex((s) => s.classList.contains('movable'));
      this.cursor = b.selected >= 0 ? b.selected : movable >= 0 ? movable : last ? last.to : b.squareOfCell(b.grid.ranks - 1, 0);
    }
    this.mark();
  }

  /** Puts the cursor's class and the root's aria-activedescendant on the cursor's square. */
  mark() {
    const b = this.board;
    b.squares.forEach((s, i) => s.classList.toggle('cursor', i === this.cursor));
    if (this.cursor >= 0) b.root.setAttribute('aria-activedescendant', b.squares[this.cursor].id);
  }

  /** Moves the cursor to square sq and previews, as the pointer does, the move it would make. */
  moveTo(sq) {
    const b = this.board;
    if (sq < 0) return;
    this.cursor = sq;
    this.mark();
    b.inspect(b.inspected >= 0 ? sq : -1);
    if (b.selected >= 0) b.preview(b.gestures.previewFor(b.selected, sq));
  }

  key(e) {
    if (e.ctrlKey && !(e.key === 'Home' || e.key === 'End')) return;
    if (e.metaKey || e.altKey) return;
    if (e.target.closest('.chooser')) {
      this.chooserKey(e);
      return;
    }
    if (e.target !== this.board.root) return;
    const b = this.board;
    if (this.cursor < 0) this.show();
    const { row, col } = b.cell(this.cursor);
    const { files, ranks } = b.grid;
    let to = -1;
    if (STEPS[e.key]) {
      const [dr, dc] = STEPS[e.key];
      to = b.squareOfCell(Math.max(0, Math.min(ranks - 1, row + dr)), Math.max(0, Math.min(files - 1, col + dc)));
    } else if (e.key === 'Home') {
      to = b.squareOfCell(e.ctrlKey ? 0 : row, 0);
    } else if (e.key === 'End') {
      to = b.squareOfCell(e.ctrlKey ? ranks - 1 : row, files - 1);
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.act(e);
    } else if (e.key === 'Escape' && b.selected >= 0) {
      b.selected = -1;
      b.preview('');
      b.decorate();
      say(b, t('sr.cancelled'));
    } else {
      return;
    }
    // The page's own keys (the arrows replay a game) are not for a board that has the focus.
    e.preventDefault();
    e.stopPropagation();
    if (to >= 0) this.moveTo(to);
  }

  /** Enter or Space: a click on the cursor's square, and a word of what it did. */
  act(e) {
    const b = this.board;
    const sq = this.cursor;
    if (b.editor) {
      b.editor(sq);
      return;
    }
    if (!b.interactive) {
      say(b, t('sr.notYourMove'));
      return;
    }
    const what = b.gestures.activate(sq, e);
    const name = b.grid.sqName(sq);
    if (what === 'picked') say(b, tn('sr.picked', b.targets(sq).size, { sq: name }));
    else if (what === 'again') {
      b.selected = -1;
      b.decorate();
      say(b, t('sr.cancelled'));
    } else if (what === 'none') say(b, t('sr.nothing', { sq: name }));
  }

  /** The keys of the popup that asks which move. */
  chooserKey(e) {
    const box = e.target.closest('.chooser');
    const buttons = [...box.querySelectorAll('button')];
    const k = buttons.indexOf(document.activeElement);
    const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' || (e.key === 'Tab' && !e.shiftKey) ? 1
      : e.key === 'ArrowUp' || e.key === 'ArrowLeft' || (e.key === 'Tab' && e.shiftKey) ? -1 : 0;
    if (step) {
      e.preventDefault();
      buttons[(k + step + buttons.length) % buttons.length].focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.board.closeChooser();
    }
    // Enter and Space press the button itself; no key goes on to the page.
    e.stopPropagation();
  }
}
