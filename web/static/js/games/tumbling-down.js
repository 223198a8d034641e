// Tumbling Down's front end (what a game module exports:
// docs/adding-a-game.md, "The front end"): stacks of disks seen a little
// from the side, with the height of a stack and the Kings' crowns; steps
// "e5-f6" and tumbles "e5>f6", with a popup when both fit; the falling disks
// animated one after the other. Positions carry the board's grid (pos.grid).

import { t, tn } from '../i18n.js';

export const name = 'tumbling-down';
export const stylesheet = true;

export const moveHint = ['e5-f6', 'e5>f6'];

const DISK_MS = 240;
const DISK_GAP_MS = 110;
const COLOURS = ['b', 'r'];

/**
 * Reads a position text of the board grid: board[i] is the stack on square
 * i, bottom to top in "b" and "r" ("" when empty); side is the letter to
 * move.
 */
export function parse(text, grid) {
  const [rows, side] = String(text || '').trim().split(/\s+/);
  const board = grid.readRanks(rows, (row) => row.split(','), (item) => item);
  return { grid, board, side: side || 'b' };
}

/**
 * Reads a move: a step "e5-f6" (the top disk) or a tumble "e5>f6" (the
 * whole stack). Returns {from, to, kind} with square indexes, kind "step"
 * or "tumble", or null.
 */
export function parseMove(move, grid) {
  const m = /^([a-z][1-9])([->])([a-z][1-9])$/.exec(String(move || '').trim());
  if (!m) return null;
  const from = grid.sqIndex(m[1]);
  const to = grid.sqIndex(m[3]);
  if (from < 0 || to < 0) return null;
  return { from, to, kind: m[2] === '>' ? 'tumble' : 'step' };
}

/** The squares from a square's neighbour towards another neighbour, on to the edge: where a tumble's disks land. Null when to is no neighbour. */
function lineFrom(grid, from, to) {
  const df = grid.fileOf(to) - grid.fileOf(from);
  const dr = grid.rankOf(to) - grid.rankOf(from);
  if (Math.abs(df) > 1 || Math.abs(dr) > 1 || (df === 0 && dr === 0)) return null;
  const line = [];
  for (let f = grid.fileOf(from) + df, r = grid.rankOf(from) + dr; grid.squareAt(f, r) >= 0; f += df, r += dr) {
    line.push(grid.squareAt(f, r));
  }
  return line;
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
  const mv = parseMove(move, before.grid);
  if (!mv) return null;
  const stack = before.board[mv.from];
  if (!stack) return null;
  // The squares along the line, up to the edge.
  const line = lineFrom(before.grid, mv.from, mv.to);
  if (!line) return null;
  if (mv.kind === 'step' || stack.length === 1) {
    const top = after.board[mv.to];
    if (!top) return null;
    return [{ from: mv.from, fromLevel: stack.length - 1, to: mv.to, toLevel: top.length - 1, color: stack[stack.length - 1] }];
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

/** Above this height a stack is drawn as flat bands, one per disk, that never overlap. */
const BANDS_FROM = 7;

/** Vertical spacing of the disks of a stack of n, in square heights. */
function diskStep(n) {
  if (n >= BANDS_FROM) return 0.7 / n;
  return n <= 1 ? 0 : Math.min(0.12, 0.6 / (n - 1));
}

const COLOUR_NAME = { b: 'mk.black', r: 'mk.red' };
const SIDE_NAME = { b: 'mk.Black', r: 'mk.Red' };

/**
 * Where each disk of a move would land, square by square: [{sq, pieces:
 * ['disk b', ...] bottom to top, text}], the order they fall in ("1", "2–4"
 * for the pile at the edge). Null when the move is not one of the stack's.
 */
export function preview(pos, move) {
  const mv = parseMove(move, pos.grid);
  if (!mv) return null;
  const stack = pos.board[mv.from];
  if (!stack) return null;
  const line = lineFrom(pos.grid, mv.from, mv.to);
  if (!line) return null;
  const disks = mv.kind === 'tumble' ? [...stack] : [stack[stack.length - 1]];
  const out = [];
  disks.forEach((c, k) => {
    const sq = line[Math.min(k, line.length - 1)];
    let l = out.find((x) => x.sq === sq);
    if (!l) {
      l = { sq, pieces: [], first: k + 1, last: k + 1 };
      out.push(l);
    }
    l.pieces.push('disk-chip ' + c);
    l.last = k + 1;
  });
  for (const l of out) {
    l.text = disks.length === 1 ? '' : l.first === l.last ? String(l.first) : `${l.first}–${l.last}`;
  }
  return out;
}

/** The stack inspector: a square's disks, bottom to top, and whose the stack is. */
export function describe(pos, sq) {
  const stack = pos.board[sq];
  if (!stack) return null;
  const top = stack[stack.length - 1];
  const king = kings(pos.board)[top].has(sq);
  const n = stack.length;
  return {
    title: t(`${king ? 'mk.stackKing' : 'mk.stack'}.${n === 1 ? 'one' : 'other'}`, { sq: pos.grid.sqName(sq), n, owner: t(SIDE_NAME[top]) }),
    items: [...stack].map((c, i) => ({ cls: 'disk-chip ' + c, text: t(i === n - 1 ? 'mk.top' : 'mk.disk', { n: i + 1, colour: t(COLOUR_NAME[c]) }) })),
  };
}

const DISK_WORDS = { b: 'sr.td.blackDisk', r: 'sr.td.redDisk' };
const KING_WORDS = { b: 'sr.td.blackKing', r: 'sr.td.redKing' };

/** A square's stack in words, for a screen reader: "red disk", "stack of 3, bottom to top: red, red, black, Black's King"; '' when empty. */
export function squareWords(pos, sq) {
  const stack = pos.board[sq];
  if (!stack) return '';
  const top = stack[stack.length - 1];
  const words = [stack.length === 1 ? t(DISK_WORDS[top]) : t('sr.td.stack', { n: stack.length, disks: [...stack].map((c) => t(COLOUR_NAME[c])).join(', ') })];
  if (kings(pos.board)[top].has(sq)) words.push(t(KING_WORDS[top]));
  return words.join(', ');
}

/** Whose move it is, in words. */
export function turnWords(pos) {
  return t(pos.side === 'r' ? 'sr.td.redToMove' : 'sr.td.blackToMove');
}

/** A move in words, said of the side to move in the position before ("Red steps d4 to e5"); '' for a text that is no move. */
export function moveWords(before, move) {
  const mv = parseMove(move, before.grid);
  const stack = mv ? before.board[mv.from] : '';
  if (!stack) return '';
  const red = before.side === 'r';
  const vars = { from: before.grid.sqName(mv.from), to: before.grid.sqName(mv.to), n: stack.length };
  if (mv.kind === 'step' || stack.length === 1) return t(red ? 'sr.td.redSteps' : 'sr.td.blackSteps', vars);
  return t(red ? 'sr.td.redTopples' : 'sr.td.blackTopples', vars);
}

/**
 * Why the game ended, on the board: the King a capture landed on, the
 * mover's own King an enemy disk covered, or the last King of a side left
 * with none. before is the position before the last move (may be null).
 */
export function endMarks(before, after, move, end) {
  const reason = end && end.reason;
  if (!['king captured', 'own king captured', 'no king'].includes(reason)) return null;
  const marks = [];
  const notes = [];
  let label = '';
  const landed = before ? flights(before, after, move) || [] : [];
  const mover = before ? before.side : '';
  const other = mover === 'b' ? 'r' : 'b';
  const name = (c) => t(SIDE_NAME[c]);
  const sqName = (q) => after.grid.sqName(q);
  const hit = (kingsOf, by) => {
    const squares = [...new Set(landed.filter((f) => kingsOf.has(f.to) && f.color === by).map((f) => f.to))];
    return squares;
  };
  if (reason === 'king captured' && before) {
    const sq = hit(kings(before.board)[other], mover);
    sq.forEach((i) => {
      marks.push({ sq: i, cls: 'end-king' });
      notes.push({ sq: i, text: t('mk.kingCaptured') });
    });
    label = t('mk.captured', { side: name(mover), victim: name(other), squares: sq.map(sqName).join(', ') });
  } else if (reason === 'own king captured' && before) {
    const sq = hit(kings(before.board)[mover], other);
    sq.forEach((i) => {
      marks.push({ sq: i, cls: 'end-king' });
      notes.push({ sq: i, text: t('mk.ownKing') });
    });
    label = t('mk.coveredOwn', { side: name(mover), squares: sq.map(sqName).join(', ') });
  } else if (reason === 'no king') {
    const now = kings(after.board);
    const loser = now.b.size === 0 ? 'b' : now.r.size === 0 ? 'r' : '';
    if (!loser) return null;
    const was = before ? [...kings(before.board)[loser]] : [];
    was.forEach((i) => {
      marks.push({ sq: i, cls: 'end-king' });
      notes.push({ sq: i, text: t('mk.lastKing') });
    });
    label = was.length ? t('mk.noKingWas', { side: name(loser), squares: was.map(sqName).join(', ') }) : t('mk.noKing', { side: name(loser) });
  }
  if (landed.length) for (const f of landed) if (!marks.some((m) => m.sq === f.to)) marks.push({ sq: f.to, cls: 'end-moved' });
  return { marks, notes, label };
}

/** Draws the disks of every stack, and over a stack its height and, on a King, a crown. */
export function draw(view, pos) {
  const k = kings(pos.board);
  const pieces = pos.board.map(() => []);
  pos.board.forEach((stack, i) => {
    if (!stack) return;
    const step = diskStep(stack.length);
    const bands = stack.length >= BANDS_FROM;
    [...stack].forEach((c, level) => {
      const d = view.piece('disk ' + c + (bands ? ' band' : ''), i, level * step);
      if (bands) d.style.setProperty('--band', (step * 100).toFixed(2) + '%');
      pieces[i].push(d);
    });
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
  const where = squares.map((q) => pos.grid.sqName(q)).join(', ');
  return {
    badge: { cls: 'crown-chip', text: '♛' },
    text: height ? `${height} · ${where}` : t('mk.noKingShort'),
    title: height ? tn('mk.kingHigh', height, { where }) : t('mk.noKingShort'),
  };
}

/** A side whose disks start in the upper half sees the board the other way round. */
export function orientation(start, side, sides) {
  const { grid } = start;
  const letter = sides[side].letter;
  let sum = 0;
  let n = 0;
  start.board.forEach((s, sq) => {
    for (const d of s) {
      if (d === letter) {
        sum += grid.rankOf(sq);
        n++;
      }
    }
  });
  if (n === 0) return side === 1 ? 1 : 0;
  return sum / n > (grid.ranks - 1) / 2 ? 1 : 0;
}

/** Every move starts from a stack: a click alone plays nothing. */
export function tapMove() {
  return '';
}

/** Where the stack on a square may step or tumble. */
export function targets(legal, from, pos) {
  return pos.grid.targetsFrom(legal, from);
}

/** A step and a tumble to the same square: Shift tumbles at once, else the board asks. */
export function choose(moves, how) {
  const step = moves.find((m) => m.includes('-'));
  const tumble = moves.find((m) => m.includes('>'));
  if (!step || !tumble) return moves[0];
  if (how && how.shift) return tumble;
  const n = how && how.pos ? (how.pos.board[how.from] || '').length : 0;
  return {
    label: t('mk.chooseLabel'),
    options: [
      { move: step, text: t('mk.chooseStep', { move: step }), title: t('mk.chooseStepTitle'), cls: 'choose-step' },
      { move: tumble, text: t('mk.chooseTumble', { move: tumble }), title: tn('mk.chooseTumbleTitle', n), cls: 'choose-tumble' },
    ],
  };
}

/** The endings about one's own King, said of the loser. */
export function endingText(end) {
  const { reason, winner, loser } = end;
  if (!winner || !loser) return '';
  const k = loser.you ? 'you' : 'they';
  if (reason === 'own king captured') return t(`mk.res.ownKing.${k}`, { loser: loser.name, wins: winner.wins });
  if (reason === 'no king') return t(`mk.res.noKing.${k}`, { loser: loser.name, wins: winner.wins });
  return '';
}

/** A square's stack for the analysis board's SVG image: its disks bottom to top and its height, in square units. */
export function svgSquare(pos, sq) {
  const stack = pos.board[sq];
  if (!stack) return [];
  const n = stack.length;
  const step = Math.min(0.1, 0.62 / n);
  const out = [];
  [...stack].forEach((c, k) => {
    out.push({ tag: 'rect', attrs: { x: 0.15, y: 0.82 - (k + 1) * step, width: 0.7, height: step, rx: 0.02, fill: c === 'r' ? '#c9341f' : '#222', stroke: '#000', 'stroke-width': 0.01 } });
  });
  if (n > 1) out.push({ tag: 'text', text: String(n), attrs: { x: 0.92, y: 0.95, 'font-size': 0.22, 'text-anchor': 'end', fill: '#fff', stroke: '#000', 'stroke-width': 0.01, 'font-family': 'sans-serif', 'font-weight': 'bold' } });
  return out;
}

/** The analysis board's position editor: a disk of either colour put on top of a square, or its top disk taken off. */
export const editTools = [
  { id: 'b', key: 'mk.toolBlackDisk', cls: 'disk-chip b' },
  { id: 'r', key: 'mk.toolRedDisk', cls: 'disk-chip r' },
  { id: 'x', key: 'mk.toolTakeTop', cls: '' },
];

/** A position with a square edited by a tool ('side' with sq -1 turns the side to move); a new position object. */
export function edit(pos, sq, tool) {
  const p = { grid: pos.grid, board: [...pos.board], side: pos.side };
  if (tool === 'side') {
    p.side = p.side === 'b' ? 'r' : 'b';
    return p;
  }
  if (tool === 'b' || tool === 'r') p.board[sq] = (p.board[sq] || '') + tool;
  else p.board[sq] = (p.board[sq] || '').slice(0, -1);
  return p;
}

/** The sides (0 Black, 1 Red) without a King, a stack of their own disks only, in an edited position: it is no game until each has one. */
export function missing(pos) {
  return ['b', 'r'].map((c, i) => (pos.board.some((s) => s && [...s].every((d) => d === c)) ? -1 : i)).filter((i) => i >= 0);
}

/** A position object as its text. */
export function format(pos) {
  return `${pos.grid.writeRanks(pos.board, (s) => s, ',')} ${pos.side}`;
}
