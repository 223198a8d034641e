// The analysis board (/analysis): any position of any game, played on
// freely for both sides (each move checked by the rules engine: the
// browser's, js/engine.js, once it has loaded, else the server's, POST
// /api/play), kept in a tree of variations as on lichess (branches,
// promote, delete), stepped through with the arrow keys, with the engine's
// evaluation, lines and arrows of the position shown (analysis-engine.js:
// in the browser until stopped, or the server's), from a fixed point of
// view: the first side's. Positions are set up with the editor (checked
// by the rules) and exported as text, as a record with its variations and
// as an SVG image.
//
// Opened as /analysis (a game's start), /analysis?game=<name>&rules=<rules>
// &position=<text>&moves=<m1 m2 ...>, or /analysis?id=<game id>&ply=<n>
// for a game that is over: never for a game still being played, which the
// engine must not advise.
//
// AnalysisPage holds the tree and the board and draws through its
// components: the tree and its navigation (analysis-tree.js), the engine
// panel (analysis-engine.js), the setup form and its editor
// (analysis-setup.js, analysis-editor.js) and the exports
// (analysis-export.js) and the opening explorer (explorer.js: the moves
// played from the position in the archive's games, with &explorer=1 in
// the URL opened); analysis-record.js is the tree's nodes, its record and
// its scores.

import { h, toast } from './dom.js';
import { api, metaFor } from './api.js';
import { Board } from './board.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { t, sideText } from './i18n.js';
import { makeNode, settle, pathOf, mainLine, grow, lineTree } from './analysis-record.js';
import { EnginePanel } from './analysis-engine.js';
import * as engine from './engine.js';
import { TreeView } from './analysis-tree.js';
import { SetupForm } from './analysis-setup.js';
import { ExportPanel } from './analysis-export.js';
import { ExplorerPanel } from './explorer.js';

/** The analysis board of the URL's params; the browser tests read it as window.analysisBoard. */
class AnalysisPage {
  constructor(params) {
    this.params = params;
    this.node = h('div.analysis-page.analysis-board');
    this.meta = null;
    this.spec = null; // the game's meta entry
    this.game = null; // its module
    this.grid = null; // its board
    this.rules = '';
    this.root = null; // the tree
    this.cur = null; // the node shown
    this.board = null;
    this.orientation = 0;
    this.destroyed = false;
    this.boardBox = h('div.board-box');
    this.notice = h('p.an-notice');
    this.engine = new EnginePanel(this);
    this.tree = new TreeView(this);
    this.setup = new SetupForm(this, !!params.get('setup'));
    this.exports = new ExportPanel(this);
    this.explorer = new ExplorerPanel(this);
    if (params.get('explorer') === '1') this.explorer.open();
    this.onKey = (e) => this.tree.key(e);
  }

  sides() {
    return (this.spec && this.spec.sides) || [];
  }

  /** Plays the moves from the root: the position, legal moves and result after them. */
  play(moves) {
    return engine.play({ game: this.spec.name, rules: this.rules, position: this.root.position, moves });
  }

  /** Fills in a node's legal moves, side to move and result, once. */
  async know(n) {
    if (n.legal) return n;
    const r = await this.play(pathOf(n));
    settle(n, r);
    n.position = r.position;
    return n;
  }

  /** A move made on the board (or a best move played): the child there, made if new. */
  async playMove(move) {
    const from = this.cur;
    const have = from.children.find((c) => c.move === move);
    if (have) {
      this.select(have);
      return;
    }
    try {
      const r = await this.play([...pathOf(from), move]);
      const child = settle(makeNode(from, move, r.position), r);
      from.children.push(child);
      if (this.cur === from) this.select(child, true);
      else this.tree.render();
    } catch (err) {
      toast(err.message, 'error');
      this.renderBoard(false);
    }
  }

  /** Shows a node (animating the move when it follows the one shown), then what the engines say of it. */
  async select(n, animate) {
    const prev = this.cur;
    this.cur = n;
    this.renderBoard(animate && prev && n.parent === prev);
    this.tree.render();
    this.tree.renderActions();
    this.engine.render();
    this.explorer.render();
    this.renderExport();
    try {
      await this.know(n);
    } catch (err) {
      this.notice.textContent = err.message;
      return;
    }
    if (this.cur !== n) return;
    this.renderBoard(false);
    this.engine.render();
    this.engine.schedule();
  }

  renderExport() {
    this.exports.render();
  }

  flip() {
    this.orientation = 1 - this.orientation;
    if (this.board) this.board.setOrientation(this.orientation);
  }

  renderBoard(animate) {
    const n = this.cur;
    if (!this.board) {
      this.boardBox.textContent = '';
      this.board = new Board(this.boardBox, { game: this.game, grid: this.grid, onMove: (m) => this.playMove(m), orientation: this.orientation, rules: this.rules });
    }
    const opts = { last: n.move || '', legal: n.legal || [], marks: this.engine.bestSquares(n) };
    if (n.result && n.parent) opts.end = { result: n.result, reason: n.reason, before: n.parent.position };
    if (animate && n.parent) opts.from = n.parent.position;
    this.board.set(n.position, opts);
    this.board.setArrows(n.result ? [] : this.engine.bestMoves(n));
    this.node.dataset.position = n.position;
  }

  /** The board turned for the first side, as the game's module has it for a start position. */
  orient(position) {
    this.orientation = this.game.orientation(this.game.parse(position, this.grid), 0, this.sides()) ? 1 : 0;
  }

  /** Starts again from a position (checked by the server), with a record's moves if given, showing the line goPath. */
  async start(position, tree, goPath) {
    const setup = this.setup;
    setup.error.textContent = '';
    let r;
    try {
      r = await engine.play({ game: this.spec.name, rules: this.rules, position: position || 'start', moves: [] });
    } catch (err) {
      setup.error.textContent = err.message;
      return false;
    }
    const root = settle(makeNode(null, '', r.position), r);
    this.root = root;
    this.board = null;
    this.orient(r.position);
    if (tree) {
      // The moves of a record: checked line by line by the server.
      try {
        await grow((moves) => this.play(moves), tree, root);
      } catch (err) {
        setup.error.textContent = err.message;
      }
    }
    let target = root;
    for (const m of goPath || []) {
      const c = target.children.find((x) => x.move === m);
      if (!c) break;
      target = c;
    }
    setup.text.value = r.position;
    this.tree.renderNav();
    await this.select(target);
    return true;
  }

  /** Loads a game's module (the meta's first game when it has no such game). */
  async chooseGame(name) {
    this.spec = gameSpec(this.meta, name) || this.meta.games[0];
    this.setup.gameSel.value = this.spec.name;
    try {
      this.game = await loadGame(this.spec.name);
      this.grid = gridFor(this.game);
    } catch (err) {
      this.boardBox.textContent = '';
      this.boardBox.append(h('p.error.no-board', err.message));
      return false;
    }
    this.node.className = 'analysis-page analysis-board game-' + this.spec.name;
    this.setup.editor.render();
    return true;
  }

  /** A finished game, its moves the main line, shown at ply. */
  async fromGame(id, ply) {
    let s;
    try {
      s = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    } catch (err) {
      this.notice.textContent = err.message;
      return false;
    }
    if (s.status === 'playing' || s.status === 'waiting') {
      this.notice.textContent = t('an.live');
      this.notice.classList.add('error');
      return false;
    }
    if (!(await this.chooseGame(s.game))) return false;
    this.rules = s.rules || '';
    this.setup.rules.value = this.rules;
    this.notice.textContent = '';
    this.notice.append(t('an.fromGame'), ' ', h('a', { href: `/g/${encodeURIComponent(s.id)}` }, `${sideText(s.sides[0].name)} vs ${sideText(s.sides[1].name)}`), ` (${s.result === '1/2-1/2' ? '½-½' : s.result})`);
    this.setup.error.textContent = '';
    const r = await engine.play({ game: this.spec.name, rules: this.rules, position: s.start, moves: [] });
    const root = makeNode(null, '', r.position);
    root.legal = r.legal || [];
    root.turn = r.turn;
    this.root = root;
    this.orient(r.position);
    const moves = s.moves || [];
    mainLine(root, moves, s.positions || []);
    let target = root;
    const want = Math.max(0, Math.min(moves.length, Number.isFinite(ply) ? ply : moves.length));
    for (let i = 0; i < want; i++) target = target.children[0];
    this.setup.text.value = r.position;
    this.tree.renderNav();
    await this.select(target);
    return true;
  }

  async mounted() {
    document.addEventListener('keydown', this.onKey);
    const meta = await metaFor(this.node);
    if (!meta) return;
    this.meta = meta;
    this.setup.games(meta);
    this.node.append(
      h('div.an-board', this.boardBox, this.tree.nav),
      h('section.card.analysis', { 'aria-labelledby': 'an-title' },
        h('h1#an-title', t('an.title')),
        this.notice,
        this.engine.node,
        this.explorer.node,
        this.tree.node,
        this.tree.actions,
        h('div.field', this.tree.comment),
        this.exports.node,
        this.setup.node,
        h('p.an-fair.muted', t('an.fairPlay'))));
    await this.open(meta);
  }

  /** What the URL asks for: a finished game at a ply, or a game's position and moves. */
  async open(meta) {
    const params = this.params;
    const id = params.get('id');
    if (id) {
      const ok = await this.fromGame(id, params.has('ply') ? Number(params.get('ply')) : NaN);
      if (!ok && !this.game) {
        if (!(await this.chooseGame(params.get('game') || meta.games[0].name))) return;
        await this.start('start');
      }
      return;
    }
    if (!(await this.chooseGame(params.get('game') || meta.games[0].name))) return;
    this.rules = params.get('rules') || '';
    this.setup.rules.value = this.rules;
    const moves = (params.get('moves') || '').split(/[\s,]+/).filter(Boolean);
    const ok = await this.start(params.get('position') || 'start', lineTree(moves), moves);
    if (!ok) {
      // The position given is refused: say why, and show the start.
      const why = this.setup.error.textContent;
      this.setup.text.value = params.get('position') || '';
      await this.start('start');
      this.setup.error.textContent = why;
      this.setup.node.open = true;
    }
  }

  destroy() {
    this.destroyed = true;
    this.engine.destroy();
    this.explorer.destroy();
    document.removeEventListener('keydown', this.onKey);
  }
}

export function analysisView(params) {
  const page = new AnalysisPage(params);
  window.analysisBoard = page; // for the tests
  return page;
}
