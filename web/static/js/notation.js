// Squares and moves of a rectangular board, whatever the game and its size.
// The server is the judge of the rules; the front end only reads what it
// sends. A game's own position text and move kinds are read by its module
// (js/games/<name>.js).
//
// A Grid is one game's board as GET /api/meta gives it (meta.games[i].board,
// {files, ranks}). Squares cross the wire as names, a file letter from a and
// a rank number from 1 ("d4", "c3"); where the front end numbers them it
// does so as the Go side does (game.Board): file-major, a1 = 0, a2 = 1, ...,
// the last rank of file a = ranks - 1, b1 = ranks (docs/protocol.md,
// "Squares"; docs/adding-a-game.md, "The front end").

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A board of files x ranks squares (1 to 26 files, a to z, and 1 to 9 ranks, as game.Board allows). */
export class Grid {
  constructor(files, ranks) {
    if (!(Number.isInteger(files) && Number.isInteger(ranks) && files >= 1 && files <= 26 && ranks >= 1 && ranks <= 9)) {
      throw new Error(`a board of ${files} x ${ranks} squares: want 1 to 26 files and 1 to 9 ranks`);
    }
    this.files = files;
    this.ranks = ranks;
    this.squares = files * ranks;
    /** The files' letters, "abc" for three files. */
    this.letters = LETTERS.slice(0, files);
    this.names = new RegExp(`[a-${this.letters[files - 1]}][1-${ranks}]`, 'g');
    Object.freeze(this);
  }

  /** The square of a file (0 = a) and a rank (0 = rank 1), or -1 off the board. */
  squareAt(file, rank) {
    if (!(file >= 0 && file < this.files && rank >= 0 && rank < this.ranks)) return -1;
    return file * this.ranks + rank;
  }

  /** The file of a square, 0 (a) to files - 1. */
  fileOf(i) {
    return Math.floor(i / this.ranks);
  }

  /** The rank of a square, 0 (rank 1) to ranks - 1. */
  rankOf(i) {
    return i % this.ranks;
  }

  /** Whether a square is a dark one of the checkered board (a1 is dark). */
  isDark(i) {
    return (this.fileOf(i) + this.rankOf(i)) % 2 === 0;
  }

  /** The square of a name such as "d4"; -1 if it is not one of this board's. */
  sqIndex(name) {
    const s = String(name || '');
    if (s.length !== 2) return -1;
    return this.squareAt(this.letters.indexOf(s[0]), s.charCodeAt(1) - 49);
  }

  /** The name of a square. */
  sqName(i) {
    return this.letters[this.fileOf(i)] + String(this.rankOf(i) + 1);
  }

  /**
   * The squares a move text names, for games whose moves are written with
   * square names ("d4", "d4-a1", "e5>f6"): {from, to} as numbers, from -1
   * when the move names one square only. Null when it names none.
   */
  moveSquares(move) {
    const names = String(move || '').match(this.names);
    if (!names) return null;
    return { from: names.length > 1 ? this.sqIndex(names[0]) : -1, to: this.sqIndex(names[names.length - 1]) };
  }

  /**
   * The moves of a list that take a piece from one square to another, by
   * target square: a Map from the target to the moves (several when moves
   * of different kinds share the two squares).
   */
  targetsFrom(legal, from) {
    const out = new Map();
    for (const m of legal || []) {
      const sq = this.moveSquares(m);
      if (!sq || sq.from !== from || sq.from < 0) continue;
      if (!out.has(sq.to)) out.set(sq.to, []);
      out.get(sq.to).push(m);
    }
    return out;
  }

  /**
   * Reads the board part of a position text in the common form: the ranks
   * from the last down to 1 separated by "/", each a row of items from file
   * a on, where a number is that many empty squares. split turns a rank's
   * text into its items; cell turns an item into what the square holds.
   * Returns the squares, numbered as above ("" for an empty one).
   */
  readRanks(rows, split, cell) {
    const board = new Array(this.squares).fill('');
    const ranks = String(rows || '').split('/');
    for (let k = 0; k < this.ranks && k < ranks.length; k++) {
      let f = 0;
      for (const item of split(ranks[k])) {
        if (/^\d+$/.test(item)) {
          f += Number(item);
        } else if (item && f < this.files) {
          board[this.squareAt(f, this.ranks - 1 - k)] = cell(item);
          f++;
        }
      }
    }
    return board;
  }

  /**
   * Writes squares in the form readRanks reads: item(square's content)
   * gives a full square's item, runs of empty squares become their number,
   * and sep joins the items of a rank ("" or ",").
   */
  writeRanks(board, item, sep) {
    const ranks = [];
    for (let r = this.ranks - 1; r >= 0; r--) {
      const items = [];
      let empty = 0;
      for (let f = 0; f < this.files; f++) {
        const c = board[this.squareAt(f, r)];
        if (!c) {
          empty++;
          continue;
        }
        if (empty) items.push(String(empty));
        empty = 0;
        items.push(item(c));
      }
      if (empty) items.push(String(empty));
      ranks.push(items.join(sep));
    }
    return ranks.join('/');
  }
}

const grids = new Map();

/** The Grid of a board as the meta gives it ({files, ranks}), one per size. */
export function gridOf(board) {
  const key = `${board && board.files}x${board && board.ranks}`;
  if (!grids.has(key)) grids.set(key, new Grid(board && board.files, board && board.ranks));
  return grids.get(key);
}

/** The sign of a number: -1, 0 or 1. */
export const sign = (x) => (x > 0) - (x < 0);
