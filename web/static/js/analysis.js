// The analysis board (/analysis): any position of any game, played on
// freely for both sides (each move checked by the server's rules engine,
// POST /api/play), kept in a tree of variations as on lichess (branches,
// promote, delete), stepped through with the arrow keys, with the engine's
// evaluation and best line of the position shown (POST /api/analyze),
// from a fixed point of view: the first side's. Positions are set up with
// the editor (checked by the server) and exported as text, as a record
// with its variations (below) and as an SVG image.
//
// Opened as /analysis (a game's start), /analysis?game=<name>&rules=<rules>
// &position=<text>&moves=<m1 m2 ...>, or /analysis?id=<game id>&ply=<n>
// for a game that is over: never for a game still being played, which the
// engine must not advise.
//
// The record format: PGN's layout, with the game's own move texts:
//   [Game "<name>"] [Rules "<rules>"] [Position "<start text>"]
//   1. d4 e5 (1... c3 2. c4) 2. e6 {a comment} *
// a variation in parentheses follows the move it replaces, and the move
// numbers count the first side's moves from the start position.

import { h, toast, ICONS } from './dom.js';
import { api, metaFor } from './api.js';
import { Board } from './board.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { t, sideText } from './i18n.js';

const ANALYSE_DELAY_MS = 450;


/** A node of the variation tree: the position after a move. */
function makeNode(parent, move, position) {
  return { parent, move, position, children: [], legal: null, turn: null, result: '', reason: '', eval: null, comment: '' };
}

/** The moves from the root to a node. */
function pathOf(node) {
  const out = [];
  for (let n = node; n && n.parent; n = n.parent) out.unshift(n.move);
  return out;
}

function depthOf(node) {
  let d = 0;
  for (let n = node; n && n.parent; n = n.parent) d++;
  return d;
}

/**
 * A score the server gives from the side to move's view ("+0.35", "mate
 * 3", "mate -2") in words from a fixed view, with the side named:
 * {text: "+0.35 for White" / "White wins in 3" / "equal", first: the
 * first side's value in pawns (mates as ±100) for a bar}.
 */
export function scoreFor(score, turn, sides) {
  const name = (i) => (sides && sides[i] ? sideText(sides[i].name) : t(i === 0 ? 'an.firstPlayer' : 'an.secondPlayer'));
  const m = /^mate\s+(-?\d+)$/.exec(String(score || '').trim());
  if (m) {
    const n = Number(m[1]);
    const winner = n >= 0 ? turn : 1 - turn;
    return { text: t('an.winsIn', { side: name(winner), n: Math.abs(n) }), first: winner === 0 ? 100 : -100, mate: true };
  }
  const v = Number(score);
  if (!Number.isFinite(v)) return { text: String(score || ''), first: 0 };
  const first = turn === 0 ? v : -v;
  if (Math.abs(first) < 0.005) return { text: t('an.equal'), first: 0 };
  return { text: t('an.scoreFor', { score: Math.abs(first).toFixed(2), side: name(first > 0 ? 0 : 1) }), first };
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
    let t = '';
    if (first(d)) t = `${num(d)}. `;
    else if (forceNum) t = `${num(d)}... `;
    t += n.move;
    if (n.comment) t += ` {${n.comment.replace(/[{}]/g, '')}}`;
    return t;
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
 * game's moves): {tags, moves: a tree of {move, comment, children}}.
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
  for (const t of tokens) {
    if (t === '(') {
      if (!last) throw new Error(t('an.recErrVariation'));
      stack.push({ parent, last });
      parent = last.up;
      last = null;
    } else if (t === ')') {
      const top = stack.pop();
      if (!top) throw new Error(t('an.recErrClose'));
      parent = top.parent;
      last = top.last;
    } else if (t[0] === '{') {
      if (last) last.comment = t.slice(1, -1).trim();
    } else if (/^\d+\.+$/.test(t) || /^\d+\.\.\.$/.test(t) || ['*', '1-0', '0-1', '1/2-1/2'].includes(t) || /^\$\d+$/.test(t)) {
      continue;
    } else {
      const m = /^\d+\.+(.+)$/.exec(t);
      const n = { move: m ? m[1] : t, comment: '', children: [], up: parent };
      parent.children.push(n);
      last = n;
      parent = n;
    }
  }
  if (stack.length) throw new Error(t('an.recErrOpen'));
  return { tags, root };
}

export function analysisView(params) {
  const node = h('div.analysis-page.analysis-board');
  const a = {
    meta: null, spec: null, game: null, rules: '', root: null, cur: null, board: null, orientation: 0,
    timer: null, running: null, auto: true, destroyed: false, busy: false,
  };
  window.analysisBoard = a; // for the tests

  const boardBox = h('div.board-box');
  const evalBox = h('div.analysis-out', { role: 'status', 'aria-live': 'polite' });
  const treeBox = h('div.an-tree', { role: 'tree', 'aria-label': t('an.tree') });
  const nodeActions = h('div.an-node-actions');
  const navBox = h('div.an-nav');
  const notice = h('p.an-notice');
  const fairPlay = h('p.an-fair.muted', t('an.fairPlay'));
  const autoBox = h('input#an-auto', { type: 'checkbox', checked: true, onchange: () => { a.auto = autoBox.checked; if (a.auto) schedule(); } });
  const time = h('select#an-time', [[300, '0.3 s'], [1000, '1 s'], [3000, '3 s'], [5000, '5 s']].map(([ms, t]) => h('option', { value: String(ms), selected: ms === 1000 }, t)));
  const go = h('button.btn.small#an-go', { type: 'button', onclick: () => analyse(true) }, t('an.analyse'));
  const gameSel = h('select#an-game');
  const rulesInput = h('input#an-rules', { type: 'text', placeholder: 'standard', spellcheck: 'false' });
  const posInput = h('textarea#an-pos', { rows: 3, spellcheck: 'false', 'aria-describedby': 'an-setup-error' });
  const setupError = h('p.error#an-setup-error', { role: 'alert' });
  const exportPos = h('input#an-export-pos', { type: 'text', readonly: true, 'aria-label': t('an.positionText'), onfocus: (e) => e.target.select() });
  const recordArea = h('textarea#an-record', { rows: 5, spellcheck: 'false', 'aria-label': t('an.record') });
  const commentInput = h('input#an-comment', { type: 'text', placeholder: t('an.commentPlaceholder'), 'aria-label': t('an.commentLabel'), oninput: () => { if (a.cur && a.cur.parent) { a.cur.comment = commentInput.value; renderExport(); } } });

  const sides = () => (a.spec && a.spec.sides) || [];

  // ---- the position editor: clicks on the board change the position text

  const editBox = h('div.an-editor');
  const edit = { pos: null, tool: '' };
  function canEdit() {
    return !!(a.game && a.game.edit && a.game.format && a.game.editTools);
  }
  function renderEditor() {
    editBox.textContent = '';
    if (!canEdit()) return;
    if (!edit.pos) {
      editBox.append(h('button.btn.small#an-edit', { type: 'button', onclick: startEdit }, t('an.editBoard')));
      return;
    }
    editBox.append(h('div.an-tools', { role: 'group', 'aria-label': t('an.tools') },
      a.game.editTools.map((tl) => h('button.btn.small.an-tool', {
        type: 'button', 'data-tool': tl.id, 'aria-pressed': String(tl.id === edit.tool),
        onclick: () => { edit.tool = tl.id; renderEditor(); },
      }, tl.cls ? h('span', { class: tl.cls }) : null, t(tl.key))),
      h('button.btn.small#an-edit-side', { type: 'button', onclick: () => { edit.pos = a.game.edit(edit.pos, -1, 'side'); showEdit(); } }, t('an.otherSide')),
      h('button.btn.small#an-edit-stop', { type: 'button', onclick: stopEdit }, t('an.editStop'))),
    h('p.muted.an-edit-hint', t('an.editHint')));
  }
  function startEdit() {
    let text = posInput.value.trim();
    if (!text || text === 'start' || /^\s*\[/.test(text)) text = a.cur ? a.cur.position : '';
    edit.pos = a.game.parse(text, gridFor(a.game));
    edit.tool = a.game.editTools[0].id;
    a.board.setEditor((sq) => {
      edit.pos = a.game.edit(edit.pos, sq, edit.tool);
      showEdit();
    });
    showEdit();
    renderEditor();
  }
  function showEdit() {
    const text = a.game.format(edit.pos);
    posInput.value = text;
    a.board.set(text, {});
  }
  function stopEdit() {
    if (!edit.pos) return;
    edit.pos = null;
    if (a.board) a.board.setEditor(null);
    renderEditor();
    if (a.cur) renderBoard(false);
  }

  // ---- the server's rules engine

  /** Plays the moves from the root: the position, legal moves and result after them. */
  async function play(moves) {
    return api('POST', '/api/play', { game: a.spec.name, rules: a.rules, position: a.root.position, moves });
  }

  /** Fills in a node's legal moves, side to move and result, once. */
  async function know(n) {
    if (n.legal) return n;
    const r = await play(pathOf(n));
    n.legal = r.legal || [];
    n.turn = r.turn;
    n.result = r.result && r.result !== '*' ? r.result : '';
    n.reason = r.reason || '';
    n.position = r.position;
    return n;
  }

  /** A move made on the board (or a best move played): the child there, made if new. */
  async function playMove(move) {
    const from = a.cur;
    const have = from.children.find((c) => c.move === move);
    if (have) {
      select(have);
      return;
    }
    try {
      const r = await play([...pathOf(from), move]);
      const child = makeNode(from, move, r.position);
      child.legal = r.legal || [];
      child.turn = r.turn;
      child.result = r.result && r.result !== '*' ? r.result : '';
      child.reason = r.reason || '';
      from.children.push(child);
      if (a.cur === from) select(child, true);
      else renderTree();
    } catch (err) {
      toast(err.message, 'error');
      renderBoard(false);
    }
  }

  // ---- moving through the tree

  async function select(n, animate) {
    const prev = a.cur;
    a.cur = n;
    renderBoard(animate && prev && n.parent === prev);
    renderTree();
    renderNodeActions();
    renderEval();
    renderExport();
    try {
      await know(n);
    } catch (err) {
      notice.textContent = err.message;
      return;
    }
    if (a.cur !== n) return;
    renderBoard(false);
    renderEval();
    schedule();
  }

  /** Makes the branch that holds the node shown the main one, one level up. */
  function promote() {
    for (let n = a.cur; n && n.parent; n = n.parent) {
      const kids = n.parent.children;
      const i = kids.indexOf(n);
      if (i > 0) {
        kids.splice(i, 1);
        kids.unshift(n);
        renderTree();
        renderNodeActions();
        renderExport();
        return;
      }
    }
  }

  /** Deletes the move shown and what follows it. */
  function remove() {
    const n = a.cur;
    if (!n || !n.parent) return;
    const p = n.parent;
    p.children.splice(p.children.indexOf(n), 1);
    select(p);
  }

  function onKey(e) {
    if (!a.cur || e.target.closest('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    const n = a.cur;
    let to = null;
    if (e.key === 'ArrowLeft') to = n.parent;
    else if (e.key === 'ArrowRight') to = n.children[0];
    else if (e.key === 'Home') to = a.root;
    else if (e.key === 'End') {
      to = n;
      while (to.children.length) to = to.children[0];
    } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && n.parent) {
      const kids = n.parent.children;
      to = kids[(kids.indexOf(n) + (e.key === 'ArrowUp' ? kids.length - 1 : 1)) % kids.length];
    } else if (e.key === 'f') {
      flip();
      return;
    } else {
      return;
    }
    e.preventDefault();
    if (to && to !== n) select(to, e.key === 'ArrowRight');
  }

  function flip() {
    a.orientation = 1 - a.orientation;
    if (a.board) a.board.setOrientation(a.orientation);
  }

  // ---- the engine

  /** Analyses the node shown after a pause (when automatic), so that stepping fast asks nothing. */
  function schedule() {
    clearTimeout(a.timer);
    if (!a.auto || !a.cur || a.cur.eval || a.cur.result) return;
    a.timer = setTimeout(() => analyse(false), ANALYSE_DELAY_MS);
  }

  async function analyse(asked) {
    clearTimeout(a.timer);
    const n = a.cur;
    if (!n || a.destroyed) return;
    if (n.result) {
      renderEval();
      return;
    }
    if (a.running) {
      // One analysis at a time (the server's limit): this node's comes next.
      a.again = true;
      return;
    }
    if (n.eval && !asked) return;
    const ms = Number(time.value);
    a.running = n;
    n.evalError = '';
    renderEval();
    try {
      await know(n);
      // Three lines (multi-PV), sharing twice the chosen time.
      const r = await api('POST', '/api/analyze', { game: a.spec.name, rules: a.rules, position: n.position, movetime_ms: Math.min(5000, 2 * ms), multipv: 3 });
      n.eval = r;
    } catch (err) {
      n.evalError = err.status === 429 ? t('an.busy', { message: err.message }) : err.message;
    }
    a.running = null;
    if (a.destroyed) return;
    if (a.cur === n) {
      renderEval();
      renderBoard(false);
    }
    if (a.again) {
      a.again = false;
      if (a.cur !== n) schedule();
    }
  }

  // ---- drawing

  function bestSquares(n) {
    const best = n && n.eval && n.eval.best;
    const grid = gridFor(a.game);
    const mv = best ? a.game.parseMove(best, grid) : null;
    return mv ? [mv.from >= 0 ? grid.sqName(mv.from) : null, grid.sqName(mv.to)].filter(Boolean) : [];
  }

  function renderBoard(animate) {
    const n = a.cur;
    if (!a.board) {
      boardBox.textContent = '';
      a.board = new Board(boardBox, { game: a.game, onMove: playMove, orientation: a.orientation, rules: a.rules });
    }
    const opts = { last: n.move || '', legal: n.legal || [], marks: bestSquares(n) };
    if (n.result && n.parent) opts.end = { result: n.result, reason: n.reason, before: n.parent.position };
    if (animate && n.parent) opts.from = n.parent.position;
    a.board.set(n.position, opts);
    node.dataset.position = n.position;
  }

  function renderEval() {
    const n = a.cur;
    evalBox.textContent = '';
    if (!n) return;
    const turnName = n.turn != null && sides()[n.turn] ? sides()[n.turn].name : '';
    if (n.result) {
      const w = n.result === '1-0' ? 0 : n.result === '0-1' ? 1 : -1;
      const ending = ((a.spec && a.spec.endings) || []).find((e) => e.word === n.reason);
      const why = ending ? ending.text : n.reason;
      evalBox.append(h('div.eval', h('span.score.over', n.result === '1/2-1/2' ? '½-½' : n.result)),
        h('p.an-result', w >= 0 ? t(why ? 'an.winsBy' : 'an.wins', { side: sides()[w] ? sides()[w].name : '', why }) : t(why ? 'an.drawBy' : 'an.draw', { why })));
      return;
    }
    if (a.running === n) {
      evalBox.append(h('p.thinking', t('an.thinking')));
    }
    if (n.evalError) evalBox.append(h('p.error.an-eval-error', n.evalError));
    const e = n.eval;
    if (e) {
      const turn = typeof e.turn === 'number' ? e.turn : n.turn;
      const s = scoreFor(e.score, turn, sides());
      const pct = Math.max(2, Math.min(98, 50 + (s.mate ? Math.sign(s.first) * 50 : 50 * (2 / (1 + Math.exp(-0.368 * s.first)) - 1))));
      evalBox.append(...[
        h('div.eval', h('span.score', { title: t('an.scoreTitle', { score: e.score }) }, s.text), h('span.depth', e.depth ? t('an.depth', { n: e.depth }) : '')),
        h('div.eval-bar', { role: 'img', 'aria-label': s.text }, h('span', { style: `width: ${pct.toFixed(1)}%` })),
        h('p', t('an.bestMove'), h('strong.best', e.best || '—'),
          e.best ? h('button.link-btn#an-play-best', { type: 'button', onclick: () => playMove(e.best) }, t('an.playIt')) : null),
        (e.pv || []).length ? h('p.pv', t('an.line'), h('span.pv-moves', e.pv.join(' '))) : null,
        // The other lines, each scored from the first side's view too.
        ...(e.lines || []).slice(1).map((l) => h('p.pv.alt-line',
          h('span.score', scoreFor(l.score, turn, sides()).text), ' ', h('span.pv-moves', (l.pv || []).join(' ')))),
        // The proof search's verdict: the only result called proven.
        e.proven ? h('p.proven', { title: t('an.provenTitle') },
          t(e.proven.exact ? 'an.proven' : 'an.provenAtMost', { side: sides()[e.proven.winner] ? sideText(sides()[e.proven.winner].name) : '', n: e.proven.moves })) : null].filter(Boolean));
    } else if (!a.running && !n.evalError) {
      evalBox.append(h('p.muted', turnName ? t('an.toMove', { side: turnName }) : ''));
    }
  }

  function moveNumber(d, force) {
    const off = a.root.turn === 1 ? 1 : 0;
    const num = Math.floor((d + off) / 2) + 1;
    if ((d + off) % 2 === 0) return `${num}.`;
    return force ? `${num}…` : '';
  }

  function moveEl(n, d, force) {
    const label = moveNumber(d, force);
    return h('span.an-move-wrap', label ? h('span.an-num', label) : null,
      h('button.an-move', {
        type: 'button', role: 'treeitem', 'data-path': pathOf(n).join(' '),
        'aria-current': n === a.cur ? 'true' : null, 'aria-selected': n === a.cur ? 'true' : 'false',
        onclick: () => select(n),
      }, n.move),
      n.comment ? h('span.an-comment', n.comment) : null);
  }

  function lineEls(start, d, force) {
    const out = [];
    let n = start;
    let f = force;
    while (n.children.length) {
      const [main, ...alts] = n.children;
      out.push(moveEl(main, d, f));
      f = false;
      for (const alt of alts) {
        out.push(h('div.an-variation', { role: 'group' }, moveEl(alt, d, true), lineEls(alt, d + 1, false)));
        f = true;
      }
      n = main;
      d++;
    }
    return out;
  }

  function renderTree() {
    treeBox.textContent = '';
    const els = lineEls(a.root, 0, true);
    if (!els.length) treeBox.append(h('p.empty', t('an.empty')));
    treeBox.append(h('div.an-main', els));
    const cur = treeBox.querySelector('[aria-current="true"]');
    if (cur) {
      const b = treeBox.getBoundingClientRect();
      const r = cur.getBoundingClientRect();
      if (r.top < b.top || r.bottom > b.bottom) treeBox.scrollTop += r.top - b.top - b.height / 2;
    }
  }

  function renderNodeActions() {
    const n = a.cur;
    nodeActions.textContent = '';
    const inVariation = (() => {
      for (let x = n; x && x.parent; x = x.parent) if (x.parent.children[0] !== x) return true;
      return false;
    })();
    nodeActions.append(
      h('button.btn.small#an-promote', { type: 'button', disabled: !inVariation, onclick: promote, title: t('an.promoteTitle') }, t('an.promote')),
      h('button.btn.small.danger#an-delete', { type: 'button', disabled: !n.parent, onclick: remove, title: t('an.deleteTitle') }, t('an.delete')));
    commentInput.value = n.comment || '';
    commentInput.disabled = !n.parent;
  }

  function renderNav() {
    navBox.textContent = '';
    const b = (label, path, fn) => {
      const btn = h('button.btn.icon', { type: 'button', 'aria-label': label, title: label, onclick: fn });
      btn.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="currentColor" d="${path}"/></svg>`;
      return btn;
    };
    navBox.append(
      b(t('an.first'), ICONS.first, () => select(a.root)),
      b(t('an.prev'), ICONS.prev, () => a.cur.parent && select(a.cur.parent)),
      b(t('an.next'), ICONS.next, () => a.cur.children[0] && select(a.cur.children[0], true)),
      b(t('an.end'), ICONS.last, () => { let x = a.cur; while (x.children.length) x = x.children[0]; select(x); }),
      b(t('an.flip'), ICONS.flip, flip));
  }

  function renderExport() {
    if (!a.cur) return;
    exportPos.value = a.cur.position;
    recordArea.value = recordText(a.root, { game: a.spec.name, rules: a.rules });
  }

  function download(name, type, text) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = h('a', { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // ---- setting up

  /** Starts again from a position (checked by the server), with a record's moves if given. */
  async function start(position, tree, goPath) {
    setupError.textContent = '';
    let r;
    try {
      r = await api('POST', '/api/play', { game: a.spec.name, rules: a.rules, position: position || 'start', moves: [] });
    } catch (err) {
      setupError.textContent = err.message;
      return false;
    }
    const root = makeNode(null, '', r.position);
    root.legal = r.legal || [];
    root.turn = r.turn;
    root.result = r.result && r.result !== '*' ? r.result : '';
    root.reason = r.reason || '';
    a.root = root;
    a.board = null;
    a.orientation = a.game.orientation(a.game.parse(r.position, gridFor(a.game)), 0, sides()) ? 1 : 0;
    if (tree) {
      // The moves of a record: checked line by line by the server.
      const build = async (src, dst) => {
        for (const c of src.children) {
          const moves = [...pathOf(dst), c.move];
          let res;
          try {
            res = await play(moves);
          } catch (err) {
            throw new Error(`${moves.join(' ')}: ${err.message}`);
          }
          const n = makeNode(dst, c.move, res.position);
          n.comment = c.comment || '';
          n.legal = res.legal || [];
          n.turn = res.turn;
          n.result = res.result && res.result !== '*' ? res.result : '';
          n.reason = res.reason || '';
          dst.children.push(n);
          await build(c, n);
        }
      };
      try {
        await build(tree, root);
      } catch (err) {
        setupError.textContent = err.message;
      }
    }
    let target = root;
    for (const m of goPath || []) {
      const c = target.children.find((x) => x.move === m);
      if (!c) break;
      target = c;
    }
    posInput.value = r.position;
    renderNav();
    await select(target);
    return true;
  }

  /** A main line of moves with the positions the server gave already (a finished game). */
  function mainLine(root, moves, positions) {
    let n = root;
    moves.forEach((m, i) => {
      const c = makeNode(n, m, positions[i]);
      n.children.push(c);
      n = c;
    });
  }

  async function chooseGame(name) {
    a.spec = gameSpec(a.meta, name) || a.meta.games[0];
    gameSel.value = a.spec.name;
    try {
      a.game = await loadGame(a.spec.name);
    } catch (err) {
      boardBox.textContent = '';
      boardBox.append(h('p.error.no-board', err.message));
      return false;
    }
    node.className = 'analysis-page analysis-board game-' + a.spec.name;
    renderEditor();
    return true;
  }

  async function fromGame(id, ply) {
    let s;
    try {
      s = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    } catch (err) {
      notice.textContent = err.message;
      return false;
    }
    if (s.status === 'playing' || s.status === 'waiting') {
      notice.textContent = t('an.live');
      notice.classList.add('error');
      return false;
    }
    if (!(await chooseGame(s.game))) return false;
    a.rules = s.rules || '';
    rulesInput.value = a.rules;
    notice.textContent = '';
    notice.append(t('an.fromGame'), ' ', h('a', { href: `/g/${encodeURIComponent(s.id)}` }, `${sideText(s.sides[0].name)} vs ${sideText(s.sides[1].name)}`), ` (${s.result === '1/2-1/2' ? '½-½' : s.result})`);
    setupError.textContent = '';
    const r = await api('POST', '/api/play', { game: a.spec.name, rules: a.rules, position: s.start, moves: [] });
    const root = makeNode(null, '', r.position);
    root.legal = r.legal || [];
    root.turn = r.turn;
    a.root = root;
    a.orientation = a.game.orientation(a.game.parse(r.position, gridFor(a.game)), 0, sides()) ? 1 : 0;
    mainLine(root, s.moves || [], s.positions || []);
    let target = root;
    const want = Math.max(0, Math.min((s.moves || []).length, Number.isFinite(ply) ? ply : (s.moves || []).length));
    for (let i = 0; i < want; i++) target = target.children[0];
    posInput.value = r.position;
    renderNav();
    await select(target);
    return true;
  }

  return {
    node,
    async mounted() {
      document.addEventListener('keydown', onKey);
      const meta = await metaFor(node);
      if (!meta) return;
      a.meta = meta;
      for (const g of meta.games) gameSel.append(h('option', { value: g.name }, g.title));
      gameSel.onchange = async () => {
        stopEdit();
        if (!(await chooseGame(gameSel.value))) return;
        a.rules = rulesInput.value.trim();
        a.board = null;
        await start('start');
      };

      const setupForm = h('form.an-setup', {
        onsubmit: async (e) => {
          e.preventDefault();
          stopEdit();
          a.rules = rulesInput.value.trim();
          const text = posInput.value.trim();
          if (/^\s*\[/.test(text) || /\d\.\s/.test(text)) {
            // A record: its tags and moves.
            let rec;
            try {
              rec = parseRecord(text);
            } catch (err) {
              setupError.textContent = t('an.recordUnreadable', { message: err.message });
              return;
            }
            if (rec.tags.Game && rec.tags.Game !== a.spec.name && !(await chooseGame(rec.tags.Game))) return;
            if (rec.tags.Rules != null) {
              a.rules = rec.tags.Rules === 'standard' ? '' : rec.tags.Rules;
              rulesInput.value = a.rules;
            }
            await start(rec.tags.Position || 'start', rec.root);
            return;
          }
          await start(text || 'start');
        },
      },
      h('div.field', h('label', { for: 'an-game' }, t('an.game')), gameSel),
      h('div.field', h('label', { for: 'an-rules' }, t('an.rules')), rulesInput),
      h('div.field', h('label', { for: 'an-pos' }, t('an.positionOrRecord')), posInput),
      editBox,
      setupError,
      h('div.form-buttons', h('button.btn.small.primary#an-setup-go', { type: 'submit' }, t('an.setUp')),
        h('button.btn.small', { type: 'button', onclick: () => { posInput.value = a.cur ? a.cur.position : ''; posInput.focus(); } }, t('an.editShown'))));

      node.append(
        h('div.an-board', boardBox, navBox),
        h('section.card.analysis', { 'aria-labelledby': 'an-title' },
          h('h1#an-title', t('an.title')),
          notice,
          h('div.an-engine',
            h('div.field.inline', autoBox, h('label', { for: 'an-auto' }, t('an.engineOn')), h('label', { for: 'an-time' }, t('an.time')), time, go),
            evalBox),
          treeBox,
          nodeActions,
          h('div.field', commentInput),
          h('details.an-export',
            h('summary', t('an.export')),
            h('div.field', h('label', { for: 'an-export-pos' }, t('an.position')), h('div.copy-row', exportPos,
              h('button.btn.small', { type: 'button', onclick: async () => { try { await navigator.clipboard.writeText(exportPos.value); toast(t('an.copied')); } catch (e) { exportPos.select(); } } }, t('an.copy')))),
            h('div.field', h('label', { for: 'an-record' }, t('an.record')), recordArea),
            h('div.form-buttons',
              h('button.btn.small#an-download-record', { type: 'button', onclick: () => download(`analysis-${a.spec.name}.pgn`, 'text/plain', recordArea.value) }, t('an.downloadRecord')),
              h('button.btn.small#an-download-svg', { type: 'button', onclick: () => download(`position-${a.spec.name}.svg`, 'image/svg+xml', boardSVG()) }, t('an.downloadImage')))),
          h('details.an-setup-box', { open: !!params.get('setup') }, h('summary', t('an.setupTitle')), setupForm),
          fairPlay));

      const id = params.get('id');
      if (id) {
        const ok = await fromGame(id, params.has('ply') ? Number(params.get('ply')) : NaN);
        if (!ok && !a.game) {
          if (!(await chooseGame(params.get('game') || meta.games[0].name))) return;
          await start('start');
        }
        return;
      }
      if (!(await chooseGame(params.get('game') || meta.games[0].name))) return;
      a.rules = params.get('rules') || '';
      rulesInput.value = a.rules;
      const moves = (params.get('moves') || '').split(/[\s,]+/).filter(Boolean);
      let tree = null;
      if (moves.length) {
        tree = { children: [] };
        let t = tree;
        for (const m of moves) {
          const c = { move: m, comment: '', children: [] };
          t.children.push(c);
          t = c;
        }
      }
      const ok = await start(params.get('position') || 'start', tree, moves);
      if (!ok) {
        // The position given is refused: say why, and show the start.
        const why = setupError.textContent;
        posInput.value = params.get('position') || '';
        await start('start');
        setupError.textContent = why;
        node.querySelector('.an-setup-box').open = true;
      }
    },
    destroy() {
      a.destroyed = true;
      clearTimeout(a.timer);
      document.removeEventListener('keydown', onKey);
    },
  };

  /** The board shown as an SVG image: the squares, and the pieces as the module draws them (svg), or their names. */
  function boardSVG() {
    const S = 60;
    const grid = gridFor(a.game);
    const pos = a.game.parse(a.cur.position, grid);
    const cs = getComputedStyle(a.board.root);
    const light = cs.getPropertyValue('--light-sq').trim() || '#f0d9b5';
    const dark = cs.getPropertyValue('--dark-sq').trim() || '#b58863';
    const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const w = grid.files * S;
    const ht = grid.ranks * S;
    let out = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${ht}" width="${w}" height="${ht}">`;
    out += `<title>${esc(a.spec.title)}: ${esc(a.cur.position)}</title>`;
    for (let i = 0; i < grid.squares; i++) {
      const { row, col } = a.board.cell(i);
      out += `<rect x="${col * S}" y="${row * S}" width="${S}" height="${S}" fill="${grid.isDark(i) ? dark : light}"/>`;
      const shapes = a.game.svgSquare ? a.game.svgSquare(pos, i) : [];
      for (const sh of shapes || []) {
        const attrs = Object.entries(sh.attrs || {}).map(([k, v]) => {
          const n = typeof v === 'number' ? (['x', 'cx', 'x1', 'x2'].includes(k) ? col * S + v * S : ['y', 'cy', 'y1', 'y2'].includes(k) ? row * S + v * S : v * S) : v;
          return `${k}="${esc(typeof n === 'number' ? n.toFixed(1) : n)}"`;
        }).join(' ');
        out += sh.text != null ? `<${sh.tag} ${attrs}>${esc(sh.text)}</${sh.tag}>` : `<${sh.tag} ${attrs}/>`;
      }
    }
    return out + '</svg>\n';
  }
}
