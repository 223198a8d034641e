// Magneton's front end (what a game module exports: docs/adding-a-game.md,
// "The front end"): stones on the board and in hand, drops on empty squares
// and moves "d4-a1", and the magnetic effect animated as slides away from or
// towards the magnet. Positions carry the board's grid (pos.grid).

import { sign } from '../notation.js';
import { t, tn } from '../i18n.js';

export const name = 'magneton';
export const stylesheet = true;

export const moveHint = ['d4', 'd4-a1'];

const SLIDE_MS = 260;
const DROP_MS = 180;

/**
 * Reads a position text "8/8/8/8/8/8/8/8 w 12 12" of the board grid:
 * board[i] is "w", "b" or "" for square i; side is 0 (White) or 1 (Black);
 * hands are the stones in hand.
 */
export function parse(text, grid) {
  const parts = String(text || '').trim().split(/\s+/);
  const board = grid.readRanks(parts[0], (row) => [...row], (ch) => (ch === 'W' || ch === 'w' ? 'w' : 'b'));
  return {
    grid,
    board,
    side: parts[1] === 'b' ? 1 : 0,
    hands: [Number(parts[2] || 0), Number(parts[3] || 0)],
  };
}

/**
 * Reads a move: a drop "d4" or a move "d4-a1". Returns {from, to, kind}
 * with square indexes (from is -1 for a drop, kind "drop" or "move") or
 * null.
 */
export function parseMove(move, grid) {
  const m = /^([a-z][1-9])(?:-([a-z][1-9]))?$/.exec(String(move || '').trim());
  if (!m) return null;
  const from = m[2] ? grid.sqIndex(m[1]) : -1;
  const to = grid.sqIndex(m[2] || m[1]);
  if (to < 0 || (m[2] && from < 0)) return null;
  return { from, to, kind: m[2] ? 'move' : 'drop' };
}

/**
 * How the stones moved in a turn, worked out from the positions before and
 * after and the move: the mover (or dropped stone) and every stone the
 * magnet pulled or pushed, each along its line from the magnet. Returns
 * {magnet, drop, mover: {from, to} | null, slides: [{from, to, color}]}.
 */
export function slides(before, after, move) {
  const grid = before.grid;
  const mv = parseMove(move, grid);
  if (!mv) return null;
  const magnet = mv.to;
  const removed = [];
  const added = [];
  for (let i = 0; i < grid.squares; i++) {
    const a = before.board[i];
    const b = after.board[i];
    if (a && a !== b) removed.push({ sq: i, color: a });
    if (b && a !== b) added.push({ sq: i, color: b });
  }
  const take = (list, sq) => {
    const k = list.findIndex((x) => x.sq === sq);
    return k >= 0 ? list.splice(k, 1)[0] : null;
  };
  let mover = null;
  if (mv.kind === 'drop') {
    take(added, magnet);
  } else {
    take(removed, mv.from);
    take(added, magnet);
    mover = { from: mv.from, to: mv.to };
  }
  const mf = grid.fileOf(magnet);
  const mr = grid.rankOf(magnet);
  const dirOf = (sq) => {
    const df = grid.fileOf(sq) - mf;
    const dr = grid.rankOf(sq) - mr;
    if (df !== 0 && dr !== 0 && Math.abs(df) !== Math.abs(dr)) return null;
    return sign(df) + ',' + sign(dr);
  };
  const out = [];
  for (const r of removed) {
    const d = dirOf(r.sq);
    if (!d) continue;
    const k = added.findIndex((a) => a.color === r.color && dirOf(a.sq) === d);
    if (k < 0) continue;
    const a = added.splice(k, 1)[0];
    out.push({ from: r.sq, to: a.sq, color: r.color });
  }
  return { magnet, drop: mv.kind === 'drop', mover, slides: out };
}

/** Draws the stones: one piece per occupied square. */
export function draw(view, pos) {
  const pieces = pos.board.map(() => []);
  pos.board.forEach((c, i) => {
    if (c) pieces[i].push(view.piece('stone ' + c, i));
  });
  return pieces;
}

/** The dropped or moved stone arrives, a ring spreads from the magnet, and the stones it moved slide. */
export function animate(view, before, after, move, pieces) {
  const plan = slides(before, after, move);
  if (!plan) return Promise.resolve();
  const anims = [];
  const first = plan.drop ? DROP_MS : SLIDE_MS;
  const m = pieces[plan.magnet][0];
  if (m) {
    if (plan.drop) {
      anims.push(m.animate([{ transform: 'scale(1.6)', opacity: 0 }, { transform: 'scale(1)', opacity: 1 }],
        { duration: first, easing: 'ease-out', fill: 'backwards' }));
    } else {
      anims.push(m.animate([{ transform: view.offset(plan.mover.from, 0, plan.mover.to, 0) }, { transform: 'none' }],
        { duration: first, easing: 'ease-in-out', fill: 'backwards' }));
    }
  }
  if (plan.slides.length) {
    const ring = view.piece('magnet-ring', plan.magnet);
    const spread = ring.animate([{ transform: 'scale(0.6)', opacity: 0.9 }, { transform: 'scale(2.4)', opacity: 0 }],
      { duration: 520, delay: first - 60, easing: 'ease-out', fill: 'both' });
    // Spread out, the ring is unseen but still 2.4 times a square: gone, so
    // that on an edge square it does not make a phone's page wider.
    spread.finished.then(() => ring.remove(), () => {});
    anims.push(spread);
  }
  for (const s of plan.slides) {
    const n = pieces[s.to][0];
    if (!n) continue;
    anims.push(n.animate([{ transform: view.offset(s.from, 0, s.to, 0) }, { transform: 'none' }],
      { duration: SLIDE_MS + 60, delay: first, easing: 'cubic-bezier(.3,.1,.3,1)', fill: 'backwards' }));
  }
  return Promise.all(anims.map((a) => a.finished.catch(() => {}))).then(() => {});
}

/** The stones a side has in hand. */
export function sideInfo(pos, side, sides) {
  const n = pos.hands[side];
  return { badge: { cls: 'chip ' + sides[side].letter, text: '' }, text: `× ${n}`, title: tn('mk.inHand', n) };
}

/** A square's stone in words, for a screen reader: "white stone", or '' when empty. */
export function squareWords(pos, sq) {
  const c = pos.board[sq];
  return c ? t(c === 'w' ? 'sr.mk.whiteStone' : 'sr.mk.blackStone') : '';
}

/** Whose move it is, in words. */
export function turnWords(pos) {
  return t(pos.side === 1 ? 'sr.mk.blackToMove' : 'sr.mk.whiteToMove');
}

/**
 * A move in words, said of the side that made it in the position before
 * ("Black drops on d4"); with the position after, also how many stones the
 * magnet moved. '' for a text that is no move.
 */
export function moveWords(before, move, after) {
  const mv = parseMove(move, before.grid);
  if (!mv) return '';
  const black = before.side === 1;
  const sq = (i) => before.grid.sqName(i);
  const said = mv.kind === 'drop'
    ? t(black ? 'sr.mk.blackDrops' : 'sr.mk.whiteDrops', { to: sq(mv.to) })
    : t(black ? 'sr.mk.blackMoves' : 'sr.mk.whiteMoves', { from: sq(mv.from), to: sq(mv.to) });
  const plan = after ? slides(before, after, move) : null;
  const n = plan ? plan.slides.length : 0;
  return n ? `${said}; ${t(n === 1 ? 'sr.mk.slid.one' : 'sr.mk.slid.other', { n })}` : said;
}

/** The second side (Black) sees the board from the other side. */
export function orientation(start, side) {
  return side === 1 ? 1 : 0;
}

/** A click on a square where a drop is legal drops a stone there. */
export function tapMove(legal, sq, pos) {
  const drop = pos.grid.sqName(sq);
  return legal.includes(drop) ? drop : '';
}

/** Where the stone on a square may move. */
export function targets(legal, from, pos) {
  return pos.grid.targetsFrom(legal, from);
}

/** Two squares name one move at most. */
export function choose(moves) {
  return moves[0];
}

/** Magneton's endings read well in the generic sentence. */
export function endingText() {
  return '';
}

/**
 * The runs of four or more stones of colour c in a position that hold one
 * of the squares given (all runs of four when none is given): lists of
 * squares, each in order along its line.
 */
export function lines(pos, c, through) {
  const { grid, board } = pos;
  const out = [];
  const dirs = [[1, 0], [0, 1], [1, 1], [1, -1]];
  for (const [df, dr] of dirs) {
    for (let i = 0; i < grid.squares; i++) {
      if (board[i] !== c) continue;
      // Only from the first stone of a run.
      if (board[grid.squareAt(grid.fileOf(i) - df, grid.rankOf(i) - dr)] === c) continue;
      const run = [];
      for (let f = grid.fileOf(i), r = grid.rankOf(i); grid.squareAt(f, r) >= 0 && board[grid.squareAt(f, r)] === c; f += df, r += dr) run.push(grid.squareAt(f, r));
      if (run.length >= 4 && (!through || run.some((q) => through.has(q)))) out.push(run);
    }
  }
  return out;
}

/**
 * Why the game ended, on the board: the winning line of four and the
 * stones the magnet pushed or pulled into it (before is the position
 * before the last move, or null).
 */
export function endMarks(before, after, move, end) {
  if (!end || end.reason !== 'line') return null;
  const winner = end.result === '1-0' ? 'w' : end.result === '0-1' ? 'b' : '';
  if (!winner) return null;
  const plan = before ? slides(before, after, move) : null;
  const moved = new Map((plan ? plan.slides : []).map((s) => [s.to, s]));
  let runs = lines(after, winner, moved.size ? new Set(moved.keys()) : null);
  if (!runs.length) runs = lines(after, winner, null);
  if (!runs.length) return null;
  const mover = before ? (before.side === 0 ? 'w' : 'b') : winner;
  const marks = [];
  const notes = [];
  const seen = new Set();
  for (const run of runs) {
    for (const q of run) {
      if (seen.has(q)) continue;
      seen.add(q);
      const s = moved.get(q);
      marks.push({ sq: q, cls: s ? 'end-moved' : 'end-line' });
      if (s) notes.push({ sq: q, text: t(s.color === mover ? 'mk.pushed' : 'mk.pulled') });
    }
  }
  const name = t(winner === 'w' ? 'mk.White' : 'mk.Black');
  const sqName = (q) => after.grid.sqName(q);
  const words = runs.map((r) => `${sqName(r[0])}–${sqName(r[r.length - 1])}`).join(' and ');
  const by = [...moved.values()].filter((s) => seen.has(s.to)).map((s) => t('mk.moved', { sq: sqName(s.to), how: t(s.color === mover ? 'mk.pushed' : 'mk.pulled'), from: sqName(s.from) }));
  return { marks, notes, label: t('mk.line', { side: name, squares: words }) + (by.length ? ', ' + t('mk.madeBy', { stones: by.join(', ') }) : '') };
}

/** A square's stone for the analysis board's SVG image: shapes in square units. */
export function svgSquare(pos, sq) {
  const c = pos.board[sq];
  if (!c) return [];
  return [{ tag: 'circle', attrs: { cx: 0.5, cy: 0.5, r: 0.4, fill: c === 'w' ? '#f4f1ea' : '#1b1b1b', stroke: c === 'w' ? '#8a857b' : '#000', 'stroke-width': 0.03 } }];
}

/** The analysis board's position editor: a stone of either colour, taken from its hand, or the eraser, which puts it back. */
export const editTools = [
  { id: 'w', key: 'mk.toolWhite', cls: 'chip w' },
  { id: 'b', key: 'mk.toolBlack', cls: 'chip b' },
  { id: 'x', key: 'mk.toolErase', cls: '' },
];

/** A position with a square edited by a tool ('side' with sq -1 turns the side to move); a new position object. */
export function edit(pos, sq, tool) {
  const p = { grid: pos.grid, board: [...pos.board], side: pos.side, hands: [...pos.hands] };
  if (tool === 'side') {
    p.side = 1 - p.side;
    return p;
  }
  const had = p.board[sq];
  if (had) p.hands[had === 'w' ? 0 : 1]++;
  p.board[sq] = '';
  if (tool === 'w' || tool === 'b') {
    if (had === tool) return p; // a second click takes the stone away
    const k = tool === 'w' ? 0 : 1;
    p.board[sq] = tool;
    p.hands[k] = Math.max(0, p.hands[k] - 1);
  }
  return p;
}

/** A position object as its text. */
export function format(pos) {
  const rows = pos.grid.writeRanks(pos.board, (c) => (c === 'w' ? 'W' : 'B'), '');
  return `${rows} ${pos.side === 1 ? 'b' : 'w'} ${pos.hands[0]} ${pos.hands[1]}`;
}

/**
 * What a drop or move would do before it is played: the stones the magnet
 * pulls and pushes, each at the square it would slide to (with the rules'
 * force, strong unless rules say force=weak or weak-force). Returns
 * [{sq, pieces, text, from}], or null for a move that is not one.
 */
export function preview(pos, move, rules) {
  const { grid } = pos;
  const squareAt = (f, r) => grid.squareAt(f, r);
  const mv = parseMove(move, grid);
  if (!mv) return null;
  const weak = /(^|,)\s*(force=weak|weak-force)\s*(,|$)/.test(String(rules || ''));
  const me = pos.side === 1 ? 'b' : 'w';
  const board = [...pos.board];
  if (mv.kind === 'move') {
    if (board[mv.from] !== me) return null;
    board[mv.from] = '';
  } else if (board[mv.to]) {
    return null;
  }
  if (board[mv.to]) return null;
  board[mv.to] = me;
  const mf = grid.fileOf(mv.to);
  const mr = grid.rankOf(mv.to);
  const out = [];
  for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    let d = 1;
    while (squareAt(mf + d * df, mr + d * dr) >= 0 && !board[squareAt(mf + d * df, mr + d * dr)]) d++;
    const q = squareAt(mf + d * df, mr + d * dr);
    if (q < 0) continue;
    const c = board[q];
    let to = q;
    if (c !== me) {
      if (d > 1) to = weak ? squareAt(mf + (d - 1) * df, mr + (d - 1) * dr) : squareAt(mf + df, mr + dr);
    } else {
      let e = d;
      while (squareAt(mf + (e + 1) * df, mr + (e + 1) * dr) >= 0 && !board[squareAt(mf + (e + 1) * df, mr + (e + 1) * dr)]) {
        e++;
        if (weak) break;
      }
      to = squareAt(mf + e * df, mr + e * dr);
    }
    if (to !== q) out.push({ sq: to, from: q, pieces: ['stone-chip ' + c], text: t(c === me ? 'mk.pushed' : 'mk.pulled') });
  }
  return out;
}
