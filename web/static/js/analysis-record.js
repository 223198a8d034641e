// The analysis board's tree of variations, its record and its scores.
//
// A node of the tree is the position after a move, with what the server's
// rules engine said of it (its legal moves, the side to move, the result)
// and, once analysed, the engine's evaluation.
//
// The record format: PGN's layout, with the game's own move texts:
//   [Game "<name>"] [Rules "<rules>"] [Position "<start text>"]
//   1. d4 e5 (1... c3 2. c4) 2. e6 {a comment} *
// a variation in parentheses follows the move it replaces, and the move
// numbers count the first side's moves from the start position.

import { t, sideText } from './i18n.js';

/** A node of the variation tree: the position after a move. */
export function makeNode(parent, move, position) {
  return { parent, move, position, children: [], legal: null, turn: null, result: '', reason: '', eval: null, comment: '' };
}

/** Fills in a node from the rules engine's answer (POST /api/play): its legal moves, side to move and result. */
export function settle(n, r) {
  n.legal = r.legal || [];
  n.turn = r.turn;
  n.result = r.result && r.result !== '*' ? r.result : '';
  n.reason = r.reason || '';
  return n;
}

/** The moves from the root to a node. */
export function pathOf(node) {
  const out = [];
  for (let n = node; n && n.parent; n = n.parent) out.unshift(n.move);
  return out;
}

/** A main line of moves with the positions the server gave already (a finished game). */
export function mainLine(root, moves, positions) {
  let n = root;
  moves.forEach((m, i) => {
    const c = makeNode(n, m, positions[i]);
    n.children.push(c);
    n = c;
  });
}

/**
 * A score the server gives from the side to move's view ("+0.35", "mate
 * 3", "mate -2") from the one view every score of the site takes, the
 * first side's (scoreView says so): {text: "+0.35" (the first side
 * better) / "−0.35" (the second) / "White wins in 3" / "equal (0.00)",
 * first: the first side's value in pawns (mates as ±100) for a bar}. The
 * best line and the alternatives alike: each line naming the side it
 * favoured read "+0.22 for White" above "+0.22 for Black".
 */
export function scoreFor(score, turn, sides) {
  const m = /^mate\s+(-?\d+)$/.exec(String(score || '').trim());
  if (m) {
    const n = Number(m[1]);
    const winner = n >= 0 ? turn : 1 - turn;
    return { text: t('an.winsIn', { side: sideName(winner, sides), n: Math.abs(n) }), first: winner === 0 ? 100 : -100, mate: true };
  }
  const v = Number(score);
  if (!Number.isFinite(v)) return { text: String(score || ''), first: 0 };
  const first = turn === 0 ? v : -v;
  return { text: signedScore(first), first };
}

/** A side's name, or "the first player" / "the second player". */
export function sideName(i, sides) {
  return sides && sides[i] ? sideText(sides[i].name) : t(i === 0 ? 'an.firstPlayer' : 'an.secondPlayer');
}

/** A score of the first side in pawns, signed: "+0.35", "−0.35", or "equal (0.00)". */
export function signedScore(first) {
  if (Math.abs(first) < 0.005) return t('an.equal');
  return (first > 0 ? '+' : '\u2212') + Math.abs(first).toFixed(2);
}

/** The view every score takes, stated: "Scores from White's view: + White is better, − Black is". */
export function scoreView(sides) {
  return t('an.scoreView', { side: sideName(0, sides), other: sideName(1, sides) });
}

/** The record of a tree with its variations and comments (see the top of this file). */
export function recordText(root, info) {
  const tags = [['Game', info.game], ['Rules', info.rules || 'standard'], ['Position', root.position]];
  const head = tags.map(([k, v]) => `[${k} "${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`).join('\n');
  const offset = root.turn === 1 ? 1 : 0;
  const num = (d) => Math.floor((d + offset) / 2) + 1;
  const first = (d) => (d + offset) % 2 === 0;
  const parts = [];
  const moveText = (n, d, forceNum) => {
    let s = '';
    if (first(d)) s = `${num(d)}. `;
    else if (forceNum) s = `${num(d)}... `;
    s += n.move;
    if (n.comment) s += ` {${n.comment.replace(/[{}]/g, '')}}`;
    return s;
  };
  const line = (node, d, out, forceFirst) => {
    let n = node;
    let force = forceFirst;
    while (n.children.length) {
      const [main, ...alts] = n.children;
      out.push(moveText(main, d, force));
      force = false;
      for (const alt of alts) {
        const sub = [moveText(alt, d, true)];
        line(alt, d + 1, sub, false);
        out.push('(' + sub.join(' ') + ')');
        force = true;
      }
      n = main;
      d++;
    }
  };
  line(root, 0, parts, true);
  parts.push('*');
  return head + '\n\n' + parts.join(' ') + '\n';
}

/**
 * Reads a record written by recordText (or any PGN-like text with the
 * game's moves): {tags, root: a tree of {move, comment, children}}.
 * Move numbers, results and NAGs are skipped.
 */
export function parseRecord(text) {
  const tags = {};
  const body = String(text || '').replace(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/gm, (_, k, v) => {
    tags[k] = v.replace(/\\(.)/g, '$1');
    return '';
  });
  const tokens = body.match(/\{[^}]*\}|\(|\)|[^\s(){}]+/g) || [];
  const root = { move: '', comment: '', children: [] };
  const stack = [];
  let parent = root; // where the next move goes
  let last = null; // the last move read at this level
  for (const tok of tokens) {
    if (tok === '(') {
      if (!last) throw new Error(t('an.recErrVariation'));
      stack.push({ parent, last });
      parent = last.up;
      last = null;
    } else if (tok === ')') {
      const top = stack.pop();
      if (!top) throw new Error(t('an.recErrClose'));
      parent = top.parent;
      last = top.last;
    } else if (tok[0] === '{') {
      if (last) last.comment = tok.slice(1, -1).trim();
    } else if (/^\d+\.+$/.test(tok) || /^\d+\.\.\.$/.test(tok) || ['*', '1-0', '0-1', '1/2-1/2'].includes(tok) || /^\$\d+$/.test(tok)) {
      continue;
    } else {
      const m = /^\d+\.+(.+)$/.exec(tok);
      const n = { move: m ? m[1] : tok, comment: '', children: [], up: parent };
      parent.children.push(n);
      last = n;
      parent = n;
    }
  }
  if (stack.length) throw new Error(t('an.recErrOpen'));
  return { tags, root };
}

/**
 * Adds under node dst the moves of a record's tree src ({move, comment,
 * children}), each checked by the rules engine: play(moves) plays moves
 * from the root. Throws, naming the line, at the first move refused.
 */
export async function grow(play, src, dst) {
  for (const c of src.children) {
    const moves = [...pathOf(dst), c.move];
    let res;
    try {
      res = await play(moves);
    } catch (err) {
      throw new Error(`${moves.join(' ')}: ${err.message}`);
    }
    const n = settle(makeNode(dst, c.move, res.position), res);
    n.comment = c.comment || '';
    dst.children.push(n);
    await grow(play, c, n);
  }
}

/** A record's tree of one line of moves ({children: [{move, comment, children}]}), or null for none. */
export function lineTree(moves) {
  if (!moves.length) return null;
  const tree = { children: [] };
  let n = tree;
  for (const m of moves) {
    const c = { move: m, comment: '', children: [] };
    n.children.push(c);
    n = c;
  }
  return tree;
}
