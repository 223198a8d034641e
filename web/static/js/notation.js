// Squares, moves and position texts of both games. The server is the judge
// of the rules; this module only reads what it sends.

export const FILES = 'abcdefgh';

/** Square index 0..63 (a1 = 0, h1 = 7, a8 = 56) from a name such as "d4". */
export function sqIndex(name) {
  const f = FILES.indexOf(name[0]);
  const r = Number(name.slice(1)) - 1;
  if (f < 0 || !(r >= 0 && r < 8)) return -1;
  return r * 8 + f;
}

/** Square name from an index. */
export function sqName(i) {
  return FILES[i % 8] + String(Math.floor(i / 8) + 1);
}

export const fileOf = (i) => i % 8;
export const rankOf = (i) => Math.floor(i / 8);

/** Whether a game name is Tumbling Down ("tumbling-down" or an alias). */
export function isTumbling(game) {
  return String(game || '').startsWith('tumbling');
}

/**
 * Reads a move: a Magneton drop "d4", a Magneton move "d4-a1", a Tumbling
 * Down step "e5-f6" or tumble "e5>f6". Returns {from, to, kind} with square
 * indexes (from is -1 for a drop) or null.
 */
export function parseMove(move) {
  const m = /^([a-h][1-8])(?:([->]?)([a-h][1-8]))?$/.exec(String(move || '').trim());
  if (!m) return null;
  if (!m[3]) return { from: -1, to: sqIndex(m[1]), kind: 'drop' };
  return { from: sqIndex(m[1]), to: sqIndex(m[3]), kind: m[2] === '>' ? 'tumble' : 'step' };
}

/**
 * Reads a Magneton position text "8/8/8/8/8/8/8/8 w 12 12": board[i] is
 * "w", "b" or "" for square i; side is 0 (White) or 1 (Black); hands are the
 * stones in hand.
 */
export function parseMagneton(text) {
  const parts = String(text || '').trim().split(/\s+/);
  const board = new Array(64).fill('');
  const ranks = (parts[0] || '').split('/');
  for (let r = 0; r < 8 && r < ranks.length; r++) {
    let f = 0;
    for (const ch of ranks[r]) {
      if (ch >= '1' && ch <= '8') {
        f += Number(ch);
      } else if (f < 8) {
        board[(7 - r) * 8 + f] = ch === 'W' || ch === 'w' ? 'w' : 'b';
        f++;
      }
    }
  }
  return {
    board,
    side: parts[1] === 'b' ? 1 : 0,
    hands: [Number(parts[2] || 0), Number(parts[3] || 0)],
  };
}

/**
 * Reads a Tumbling Down position text: board[i] is the stack on square i,
 * bottom to top in "b" and "r" ("" when empty); side is the letter to move.
 */
export function parseTumbling(text) {
  const [rows, side] = String(text || '').trim().split(/\s+/);
  const board = new Array(64).fill('');
  const ranks = (rows || '').split('/');
  for (let r = 0; r < 8 && r < ranks.length; r++) {
    let f = 0;
    for (const item of ranks[r].split(',')) {
      if (/^\d+$/.test(item)) {
        f += Number(item);
      } else if (f < 8) {
        board[(7 - r) * 8 + f] = item;
        f++;
      }
    }
  }
  return { board, side: side || 'b' };
}

/**
 * The Kings of a Tumbling Down board: for each colour letter, the squares
 * of its tallest stacks made only of its own disks.
 */
export function tumblingKings(board) {
  const kings = { b: new Set(), r: new Set() };
  for (const c of ['b', 'r']) {
    let best = 0;
    board.forEach((s) => {
      if (s && [...s].every((d) => d === c)) best = Math.max(best, s.length);
    });
    if (best === 0) continue;
    board.forEach((s, i) => {
      if (s.length === best && [...s].every((d) => d === c)) kings[c].add(i);
    });
  }
  return kings;
}

/** The sign of a number: -1, 0 or 1. */
export const sign = (x) => (x > 0) - (x < 0);

/**
 * How the stones moved in a Magneton turn, worked out from the positions
 * before and after and the move: the mover (or dropped stone) and every
 * stone the magnet pulled or pushed, each along its line from the magnet.
 * Returns {magnet, drop, mover: {from, to} | null, slides: [{from, to, color}]}.
 */
export function magnetonSlides(before, after, move) {
  const mv = parseMove(move);
  if (!mv) return null;
  const magnet = mv.to;
  const removed = [];
  const added = [];
  for (let i = 0; i < 64; i++) {
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
  const mf = fileOf(magnet);
  const mr = rankOf(magnet);
  const dirOf = (sq) => {
    const df = fileOf(sq) - mf;
    const dr = rankOf(sq) - mr;
    if (df !== 0 && dr !== 0 && Math.abs(df) !== Math.abs(dr)) return null;
    return sign(df) + ',' + sign(dr);
  };
  const slides = [];
  for (const r of removed) {
    const d = dirOf(r.sq);
    if (!d) continue;
    const k = added.findIndex((a) => a.color === r.color && dirOf(a.sq) === d);
    if (k < 0) continue;
    const a = added.splice(k, 1)[0];
    slides.push({ from: r.sq, to: a.sq, color: r.color });
  }
  return { magnet, drop: mv.kind === 'drop', mover, slides };
}

/**
 * Where each disk of a Tumbling Down move came from and landed: a list of
 * {from, fromLevel, to, toLevel, color}, in the order the disks fall
 * (levels count from 0 at the bottom of a stack). Null if the positions do
 * not fit the move.
 */
export function tumblingFlights(before, after, move) {
  const mv = parseMove(move);
  if (!mv || mv.from < 0) return null;
  const stack = before.board[mv.from];
  if (!stack) return null;
  const df = fileOf(mv.to) - fileOf(mv.from);
  const dr = rankOf(mv.to) - rankOf(mv.from);
  if (Math.abs(df) > 1 || Math.abs(dr) > 1 || (df === 0 && dr === 0)) return null;
  if (mv.kind === 'step' || stack.length === 1) {
    const top = after.board[mv.to];
    if (!top) return null;
    return [{ from: mv.from, fromLevel: stack.length - 1, to: mv.to, toLevel: top.length - 1, color: stack[stack.length - 1] }];
  }
  // The squares along the line, up to the edge.
  const line = [];
  let f = fileOf(mv.from) + df;
  let r = rankOf(mv.from) + dr;
  while (f >= 0 && f < 8 && r >= 0 && r < 8) {
    line.push(r * 8 + f);
    f += df;
    r += dr;
  }
  const landing = [];
  for (let k = 0; k < stack.length; k++) landing.push(line[Math.min(k, line.length - 1)]);
  const count = new Map();
  landing.forEach((sq) => count.set(sq, (count.get(sq) || 0) + 1));
  const seen = new Map();
  const flights = [];
  for (let k = 0; k < stack.length; k++) {
    const sq = landing[k];
    const height = (after.board[sq] || '').length;
    const c = count.get(sq);
    if (height < c) return null;
    const j = seen.get(sq) || 0;
    seen.set(sq, j + 1);
    flights.push({ from: mv.from, fromLevel: k, to: sq, toLevel: height - c + j, color: stack[k] });
  }
  return flights;
}
