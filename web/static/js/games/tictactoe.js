// Tic-tac-toe's front end: the toy third game (internal/tictactoe), which
// only the tests register, kept to show that a game of any board size is
// one module (what a game module exports: docs/adding-a-game.md, "The front
// end"). Marks x and o on a 3x3 board; a move is the square a mark goes on
// ("b2"); a position text is the ranks from the last down to 1 separated by
// "/", each a row of x, o and ".", then the side to move: "x.o/.x./o.. x".

import { t } from '../i18n.js';

export const name = 'tictactoe';
export const stylesheet = true;

export const moveHint = ['b2'];

const MARKS = ['x', 'o'];
const DROP_MS = 180;

/** Reads a position text of the board grid: board[i] is "x", "o" or "" for square i; side is 0 (X) or 1 (O). */
export function parse(text, grid) {
  const [rows, side] = String(text || '').trim().split(/\s+/);
  const board = grid.readRanks(rows, (row) => [...row].map((c) => (c === '.' ? '1' : c)), (c) => (MARKS.includes(c) ? c : ''));
  return { grid, board, side: side === 'o' ? 1 : 0 };
}

/** A position object as its text. */
export function format(pos) {
  const { grid, board } = pos;
  const ranks = [];
  for (let r = grid.ranks - 1; r >= 0; r--) {
    let row = '';
    for (let f = 0; f < grid.files; f++) row += board[grid.squareAt(f, r)] || '.';
    ranks.push(row);
  }
  return `${ranks.join('/')} ${MARKS[pos.side]}`;
}

/** Reads a move, a square's name: {from: -1, to}, or null. */
export function parseMove(move, grid) {
  const m = String(move || '').trim();
  const to = /^[a-z][1-9]$/.test(m) ? grid.sqIndex(m) : -1;
  return to < 0 ? null : { from: -1, to };
}

/** Draws the marks: one piece per square taken. */
export function draw(view, pos) {
  const pieces = pos.board.map(() => []);
  pos.board.forEach((c, i) => {
    if (c) pieces[i].push(view.piece('mark ' + c, i));
  });
  return pieces;
}

/** The new mark appears. */
export function animate(view, before, after, move, pieces) {
  const mv = parseMove(move, after.grid);
  const node = mv && pieces[mv.to][0];
  if (!node) return Promise.resolve();
  const anim = node.animate([{ transform: 'scale(0.4)', opacity: 0 }, { transform: 'none', opacity: 1 }],
    { duration: DROP_MS, easing: 'ease-out', fill: 'backwards' });
  return anim.finished.then(() => {}, () => {});
}

/** The marks a side has on the board. */
export function sideInfo(pos, side, sides) {
  const letter = sides[side].letter;
  const n = pos.board.filter((c) => c === letter).length;
  return { badge: { cls: 'chip ' + letter, text: '' }, text: `× ${n}`, title: t('tt.marks', { n }) };
}

/** A square's mark in words, for a screen reader: "X", "O", or '' when empty. */
export function squareWords(pos, sq) {
  const c = pos.board[sq];
  return c ? t(c === 'x' ? 'tt.sr.x' : 'tt.sr.o') : '';
}

/** Whose move it is, in words. */
export function turnWords(pos) {
  return t(pos.side === 1 ? 'tt.sr.oToMove' : 'tt.sr.xToMove');
}

/** A move in words, said of the side to move in the position before ("X plays b2"). */
export function moveWords(before, move) {
  const mv = parseMove(move, before.grid);
  return mv ? t(before.side === 1 ? 'tt.sr.oPlays' : 'tt.sr.xPlays', { to: before.grid.sqName(mv.to) }) : '';
}

/** Both sides see the board the same way, rank 1 at the bottom. */
export function orientation() {
  return 0;
}

/** A click on an empty square where a move is legal puts the mark there. */
export function tapMove(legal, sq, pos) {
  const m = pos.grid.sqName(sq);
  return legal.includes(m) ? m : '';
}

/** No mark moves once it is down. */
export function targets() {
  return new Map();
}

/** A move names one square: two squares never fit one. */
export function choose(moves) {
  return moves[0];
}

/** The endings read well in the generic sentence ("X wins by three in a row"). */
export function endingText() {
  return '';
}

/** The lines of three of a mark c through square sq: lists of squares along the line. */
export function lines(pos, c, sq) {
  const { grid, board } = pos;
  const out = [];
  for (const [df, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    const run = [sq];
    for (const s of [-1, 1]) {
      for (let f = grid.fileOf(sq) + s * df, r = grid.rankOf(sq) + s * dr; board[grid.squareAt(f, r)] === c; f += s * df, r += s * dr) {
        if (s < 0) run.unshift(grid.squareAt(f, r));
        else run.push(grid.squareAt(f, r));
      }
    }
    if (run.length >= 3) out.push(run);
  }
  return out;
}

/** Why the game ended, on the board: the line of three the last mark made. */
export function endMarks(before, after, move, end) {
  if (!end || end.reason !== 'three in a row') return null;
  const mv = parseMove(move, after.grid);
  const c = mv && after.board[mv.to];
  if (!c) return null;
  const runs = lines(after, c, mv.to);
  if (!runs.length) return null;
  const marks = [...new Set(runs.flat())].map((sq) => ({ sq, cls: 'end-line' }));
  const words = runs.map((r) => `${after.grid.sqName(r[0])}–${after.grid.sqName(r[r.length - 1])}`).join(', ');
  return { marks, notes: [], label: t('tt.threeInRow', { mark: c.toUpperCase(), lines: words }) };
}

/** A square's mark for the analysis board's SVG image: shapes in square units. */
export function svgSquare(pos, sq) {
  const c = pos.board[sq];
  const line = (x1, y1, x2, y2) => ({ tag: 'line', attrs: { x1, y1, x2, y2, stroke: '#1b1b1b', 'stroke-width': 0.09, 'stroke-linecap': 'round' } });
  if (c === 'x') return [line(0.22, 0.22, 0.78, 0.78), line(0.78, 0.22, 0.22, 0.78)];
  if (c === 'o') return [{ tag: 'circle', attrs: { cx: 0.5, cy: 0.5, r: 0.29, fill: 'none', stroke: '#c9341f', 'stroke-width': 0.09 } }];
  return [];
}

/** The analysis board's position editor: an X, an O, or the eraser. */
export const editTools = [
  { id: 'x', key: 'tt.tool.x', cls: 'chip x' },
  { id: 'o', key: 'tt.tool.o', cls: 'chip o' },
  { id: 'e', key: 'tt.tool.erase', cls: '' },
];

/** A position with a square edited by a tool ('side' with sq -1 turns the side to move); a new position object. */
export function edit(pos, sq, tool) {
  const p = { grid: pos.grid, board: [...pos.board], side: pos.side };
  if (tool === 'side') {
    p.side = 1 - p.side;
    return p;
  }
  p.board[sq] = MARKS.includes(tool) && p.board[sq] !== tool ? tool : '';
  return p;
}

/** The module's own words (the editor's tools), in every language; the loader adds them to the catalogues. */
export const texts = {
  "en": { "tt.tool.x": "An X", "tt.tool.o": "An O", "tt.tool.erase": "Erase",
    "tt.sr.x": "X", "tt.sr.o": "O", "tt.sr.xToMove": "X to move", "tt.sr.oToMove": "O to move", "tt.sr.xPlays": "X plays {to}", "tt.sr.oPlays": "O plays {to}", "tt.marks": "Marks on the board: {n}", "tt.threeInRow": "{mark}: three in a row, {lines}" },
  "es": { "tt.tool.x": "Una X", "tt.tool.o": "Una O", "tt.tool.erase": "Borrar",
    "tt.sr.x": "X", "tt.sr.o": "O", "tt.sr.xToMove": "juega X", "tt.sr.oToMove": "juega O", "tt.sr.xPlays": "X juega en {to}", "tt.sr.oPlays": "O juega en {to}", "tt.marks": "Marcas en el tablero: {n}", "tt.threeInRow": "{mark}: tres en raya, {lines}" },
  "it": { "tt.tool.x": "Una X", "tt.tool.o": "Una O", "tt.tool.erase": "Cancella",
    "tt.sr.x": "X", "tt.sr.o": "O", "tt.sr.xToMove": "tocca a X", "tt.sr.oToMove": "tocca a O", "tt.sr.xPlays": "X gioca in {to}", "tt.sr.oPlays": "O gioca in {to}", "tt.marks": "Segni sulla scacchiera: {n}", "tt.threeInRow": "{mark}: tris, {lines}" },
  "eo": { "tt.tool.x": "Signo X", "tt.tool.o": "Signo O", "tt.tool.erase": "Forviŝi",
    "tt.sr.x": "X", "tt.sr.o": "O", "tt.sr.xToMove": "X movas", "tt.sr.oToMove": "O movas", "tt.sr.xPlays": "X ludas sur {to}", "tt.sr.oPlays": "O ludas sur {to}", "tt.marks": "Signoj sur la tabulo: {n}", "tt.threeInRow": "{mark}: tri en vico, {lines}" }
};
