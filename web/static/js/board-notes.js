// What the board says besides the pieces: why a finished game ended (the
// module's endMarks: marked squares and notes), where a move's pieces would
// land (its preview), and the stack inspector (its describe) listing a
// square's pieces; styled by css/analysis.css.

import { el } from './dom.js';

/** The stack inspector of a Board: lists the pieces of square sq bottom to top, or hides for -1. */
export function inspectSquare(board, sq) {
  const d = sq >= 0 && board.parsed && board.game.describe ? board.game.describe(board.parsed, sq) : null;
  board.inspected = d ? sq : -1;
  if (!d) {
    board.inspector.hidden = true;
    board.root.setAttribute('aria-describedby', board.keysEl.id);
    return;
  }
  board.inspector.textContent = '';
  const title = el('div', 'inspector-title');
  title.textContent = d.title || board.grid.sqName(sq);
  const list = el('ol', 'inspector-list');
  for (const it of d.items || []) {
    const li = el('li', 'inspector-item');
    const chip = el('span', 'inspector-chip ' + (it.cls || ''));
    const text = el('span');
    text.textContent = it.text || '';
    li.append(chip, text);
    list.append(li);
  }
  board.inspector.append(title, list);
  board.inspector.dataset.sq = board.grid.sqName(sq);
  const { row, col } = board.cell(sq);
  const { files, ranks } = board.grid;
  board.inspector.style.left = board.inspector.style.right = board.inspector.style.top = board.inspector.style.bottom = '';
  if (col < files / 2) board.inspector.style.left = board.x(col + 1);
  else board.inspector.style.right = board.x(files - col);
  if (row < ranks / 2) board.inspector.style.top = board.y(row);
  else board.inspector.style.bottom = board.y(ranks - 1 - row);
  board.inspector.hidden = false;
  board.root.setAttribute('aria-describedby', `${board.keysEl.id} ${board.inspector.id}`);
}

/** Draws a Board's end marks and notes and the landing of the move previewed (board.previewing). */
export function drawNotes(board) {
  for (const s of board.squares) s.classList.remove('end-line', 'end-moved', 'end-king', 'preview-land');
  board.notesEl.textContent = '';
  const note = (sq, cls, text, pieces) => {
    const n = el('div', 'board-note ' + cls, { 'data-sq': board.grid.sqName(sq) });
    const { row, col } = board.cell(sq);
    n.style.left = board.x(col);
    n.style.top = board.y(row);
    // A note wider than its square, on an edge file, runs inward (analysis.css).
    if (col === 0) n.dataset.edge = 'first';
    else if (col === board.grid.files - 1) n.dataset.edge = 'last';
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
    board.notesEl.append(n);
  };
  if (board.end) {
    for (const m of board.end.marks || []) if (m.sq >= 0) board.squares[m.sq].classList.add(m.cls || 'end-line');
    for (const n of board.end.notes || []) if (n.sq >= 0) note(n.sq, 'end-note', n.text);
  }
  if (board.previewing && board.game.preview && board.parsed) {
    let land = null;
    try {
      land = board.game.preview(board.parsed, board.previewing, board.rules);
    } catch (e) {
      console.warn(e);
    }
    for (const l of land || []) {
      board.squares[l.sq].classList.add('preview-land');
      note(l.sq, 'landing', l.text, l.pieces);
    }
    board.root.dataset.preview = board.previewing;
  } else {
    delete board.root.dataset.preview;
  }
}
