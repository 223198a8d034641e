// Squares and moves of the 8x8 board, whatever the game. The server is the
// judge of the rules; the front end only reads what it sends. A game's own
// position text and move kinds are read by its module (js/games/<name>.js).
//
// Squares cross the wire as names ("d4"). Where the front end numbers them
// it does so as the Go side does (game.Square): file-major, a1 = 0, a2 = 1,
// ..., a8 = 7, b1 = 8, ..., h8 = 63 (docs/protocol.md, "Squares").

export const FILES = 'abcdefgh';

/** The square of a file (0 = a) and a rank (0 = rank 1), or -1 off the board. */
export function squareAt(file, rank) {
  if (!(file >= 0 && file < 8 && rank >= 0 && rank < 8)) return -1;
  return file * 8 + rank;
}

/** The file of a square, 0 (a) to 7 (h). */
export const fileOf = (i) => i >> 3;

/** The rank of a square, 0 (rank 1) to 7 (rank 8). */
export const rankOf = (i) => i & 7;

/** Square index 0..63 from a name such as "d4" (a1 = 0, a2 = 1, b1 = 8); -1 if it is not one. */
export function sqIndex(name) {
  const s = String(name || '');
  if (s.length !== 2) return -1;
  return squareAt(FILES.indexOf(s[0]), s.charCodeAt(1) - 49);
}

/** Square name from an index. */
export function sqName(i) {
  return FILES[fileOf(i)] + String(rankOf(i) + 1);
}

/** The sign of a number: -1, 0 or 1. */
export const sign = (x) => (x > 0) - (x < 0);

/**
 * The squares a move text names, for games whose moves are written with
 * square names ("d4", "d4-a1", "e5>f6"): {from, to} as indexes, from -1
 * when the move names one square only. Null when it names none.
 */
export function moveSquares(move) {
  const names = String(move || '').match(/[a-h][1-8]/g);
  if (!names) return null;
  return { from: names.length > 1 ? sqIndex(names[0]) : -1, to: sqIndex(names[names.length - 1]) };
}

/**
 * The moves of a list that take a piece from one square to another, by
 * target square: a Map from the target's index to the moves (several when
 * moves of different kinds share the two squares).
 */
export function targetsFrom(legal, from) {
  const out = new Map();
  for (const m of legal || []) {
    const sq = moveSquares(m);
    if (!sq || sq.from !== from || sq.from < 0) continue;
    if (!out.has(sq.to)) out.set(sq.to, []);
    out.get(sq.to).push(m);
  }
  return out;
}

/**
 * Reads the board part of a position text in the common form: ranks from 8
 * down to 1 separated by "/", each a row of items from file a to h, where a
 * number is that many empty squares. split turns a rank's text into its
 * items; cell turns an item into what the square holds. Returns 64 squares,
 * file-major ("" for an empty one).
 */
export function readRanks(rows, split, cell) {
  const board = new Array(64).fill('');
  const ranks = String(rows || '').split('/');
  for (let k = 0; k < 8 && k < ranks.length; k++) {
    let f = 0;
    for (const item of split(ranks[k])) {
      if (/^\d+$/.test(item)) {
        f += Number(item);
      } else if (item && f < 8) {
        board[squareAt(f, 7 - k)] = cell(item);
        f++;
      }
    }
  }
  return board;
}
