// Tumbling Down's front end (the interface is described in ../games.js):
// stacks of disks seen a little from the side, with the height of a stack
// and the Kings' crowns; steps "e5-f6" and tumbles "e5>f6", with a popup
// when both fit; the falling disks animated one after the other.

import { sqIndex, sqName, fileOf, rankOf, squareAt, readRanks, targetsFrom } from '../notation.js';

export const name = 'tumbling-down';
export const stylesheet = true;

export const moveHint = 'e5-f6 or e5>f6';

const DISK_MS = 240;
const DISK_GAP_MS = 110;
const COLOURS = ['b', 'r'];

/**
 * Reads a position text: board[i] is the stack on square i, bottom to top
 * in "b" and "r" ("" when empty); side is the letter to move.
 */
export function parse(text) {
  const [rows, side] = String(text || '').trim().split(/\s+/);
  const board = readRanks(rows, (row) => row.split(','), (item) => item);
  return { board, side: side || 'b' };
}

/**
 * Reads a move: a step "e5-f6" (the top disk) or a tumble "e5>f6" (the
 * whole stack). Returns {from, to, kind} with square indexes, kind "step"
 * or "tumble", or null.
 */
export function parseMove(move) {
  const m = /^([a-h][1-8])([->])([a-h][1-8])$/.exec(String(move || '').trim());
  if (!m) return null;
  return { from: sqIndex(m[1]), to: sqIndex(m[3]), kind: m[2] === '>' ? 'tumble' : 'step' };
}

/**
 * The Kings of a board: for each colour letter, the squares of its
 * tallest stacks made only of its own disks.
 */
export function kings(board) {
  const out = { b: new Set(), r: new Set() };
  for (const c of COLOURS) {
    let best = 0;
    board.forEach((s) => {
      if (s && [...s].every((d) => d === c)) best = Math.max(best, s.length);
    });
    if (best === 0) continue;
    board.forEach((s, i) => {
      if (s.length === best && [...s].every((d) => d === c)) out[c].add(i);
    });
  }
  return out;
}

/**
 * Where each disk of a move came from and landed: a list of {from,
 * fromLevel, to, toLevel, color}, in the order the disks fall (levels count
 * from 0 at the bottom of a stack). Null if the positions do not fit the
 * move.
 */
export function flights(before, after, move) {
  const mv = parseMove(move);
  if (!mv) return null;
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
  for (let f = fileOf(mv.from) + df, r = rankOf(mv.from) + dr; squareAt(f, r) >= 0; f += df, r += dr) {
    line.push(squareAt(f, r));
  }
  const landing = [];
  for (let k = 0; k < stack.length; k++) landing.push(line[Math.min(k, line.length - 1)]);
  const count = new Map();
  landing.forEach((sq) => count.set(sq, (count.get(sq) || 0) + 1));
  const seen = new Map();
  const out = [];
  for (let k = 0; k < stack.length; k++) {
    const sq = landing[k];
    const height = (after.board[sq] || '').length;
    const c = count.get(sq);
    if (height < c) return null;
    const j = seen.get(sq) || 0;
    seen.set(sq, j + 1);
    out.push({ from: mv.from, fromLevel: k, to: sq, toLevel: height - c + j, color: stack[k] });
  }
  return out;
}

/** Vertical spacing of the disks of a stack of n, in square heights. */
function diskStep(n) {
  return n <= 1 ? 0 : Math.min(0.12, 0.6 / (n - 1));
}

/** Draws the disks of every stack, and over a stack its height and, on a King, a crown. */
export function draw(view, pos) {
  const k = kings(pos.board);
  const pieces = new Array(64).fill(null).map(() => []);
  pos.board.forEach((stack, i) => {
    if (!stack) return;
    const step = diskStep(stack.length);
    [...stack].forEach((c, level) => pieces[i].push(view.piece('disk ' + c, i, level * step)));
    const top = stack[stack.length - 1];
    const king = k[top] && k[top].has(i);
    if (stack.length > 1 || king) {
      const badge = view.piece('stack-info' + (king ? ' king ' + top : ''), i);
      badge.style.zIndex = String(2000);
      badge.innerHTML = (king ? '<span class="crown">♛</span>' : '') + (stack.length > 1 ? `<span class="height">${stack.length}</span>` : '');
    }
  });
  return pieces;
}

/** The moved disks fly from their old stack to where they land, one after the other. */
export function animate(view, before, after, move, pieces) {
  const plan = flights(before, after, move);
  if (!plan) return Promise.resolve();
  const anims = [];
  plan.forEach((f, k) => {
    const d = pieces[f.to][f.toLevel];
    if (!d) return;
    const la = f.fromLevel * diskStep(before.board[f.from].length);
    const lb = f.toLevel * diskStep(after.board[f.to].length);
    d.style.zIndex = String(1000 + k);
    anims.push(d.animate([
      { transform: view.offset(f.from, la, f.to, lb) },
      { transform: view.offset(f.from, la, f.to, lb) + ' translateY(-18%)', offset: 0.35 },
      { transform: 'none' },
    ], { duration: DISK_MS, delay: k * DISK_GAP_MS, easing: 'ease-in', fill: 'backwards' }));
  });
  return Promise.all(anims.map((a) => a.finished.catch(() => {}))).then(() => {
    plan.forEach((f) => {
      const d = pieces[f.to][f.toLevel];
      if (d) view.place(d, f.to, f.toLevel * diskStep(after.board[f.to].length));
    });
  });
}

/** A side's King: its height and squares. */
export function sideInfo(pos, side, sides) {
  const squares = [...kings(pos.board)[sides[side].letter]];
  const height = squares.length ? pos.board[squares[0]].length : 0;
  const where = squares.map(sqName).join(', ');
  return {
    badge: { cls: 'crown-chip', text: '♛' },
    text: height ? `${height} · ${where}` : 'no King',
    title: height ? `King: ${height} high on ${where}` : 'no King',
  };
}

/** A side whose disks start in the upper half sees the board the other way round. */
export function orientation(start, side, sides) {
  const letter = sides[side].letter;
  let sum = 0;
  let n = 0;
  start.board.forEach((s, sq) => {
    for (const d of s) {
      if (d === letter) {
        sum += rankOf(sq);
        n++;
      }
    }
  });
  if (n === 0) return side === 1 ? 1 : 0;
  return sum / n > 3.5 ? 1 : 0;
}

/** Every move starts from a stack: a click alone plays nothing. */
export function tapMove() {
  return '';
}

/** Where the stack on a square may step or tumble. */
export function targets(legal, from) {
  return targetsFrom(legal, from);
}

/** A step and a tumble to the same square: Shift tumbles at once, else the board asks. */
export function choose(moves, how) {
  const step = moves.find((m) => m.includes('-'));
  const tumble = moves.find((m) => m.includes('>'));
  if (!step || !tumble) return moves[0];
  if (how && how.shift) return tumble;
  const n = how && how.pos ? (how.pos.board[how.from] || '').length : 0;
  return {
    label: 'Step or tumble',
    options: [
      { move: step, text: `Step ${step}`, title: 'Move the top disk only', cls: 'choose-step' },
      { move: tumble, text: `Tumble ${tumble}`, title: `Topple the whole stack of ${n}`, cls: 'choose-tumble' },
    ],
  };
}

/** The endings about one's own King, said of the loser. */
export function endingText(end) {
  const { reason, winner, loser } = end;
  if (!winner || !loser) return '';
  if (reason === 'own king captured') return `${loser.name} covered ${loser.their} own King · ${winner.wins}`;
  if (reason === 'no king') return `${loser.name} ${loser.has} no King left · ${winner.wins}`;
  return '';
}
