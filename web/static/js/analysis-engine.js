// The analysis board's engine panel: the engine's evaluation of the
// position shown, from the first side's point of view: the score and its
// bar, the depth, the best move (which can be played), three lines with
// arrows on the board (analysis-arrows.js), and the proof searches'
// verdict; or the result of a position where the game is over.
//
// The engine runs in the browser when it can (js/engine.js): it analyses
// the position shown until it is stopped or another is shown, deepening,
// the best line updated at each depth ("∞", the default), or for the time
// chosen. While it loads, and in a browser that cannot run it (or whose
// player chose the server's), the server's engine answers (POST
// /api/analyze, the time chosen, one analysis at a time).

import { h } from './dom.js';
import { api } from './api.js';
import { t, sideText } from './i18n.js';
import { scoreFor, scoreView } from './analysis-record.js';
import { endingWords, provenText } from './words.js';
import * as engine from './engine.js';

const ANALYSE_DELAY_MS = 450;
const LINES = 3;

/**
 * The engine panel of the analysis board page: page.cur is the node shown,
 * page.know(n) asks the rules engine about a node, page.playMove(m) plays
 * a move, page.renderBoard() draws the board again (with the best move's
 * marks).
 */
export class EnginePanel {
  constructor(page) {
    this.page = page;
    this.timer = null;
    this.running = null; // the node the server analyses
    this.again = false; // another node asked for meanwhile
    this.local = null; // {node, handle}: the browser's analysis going on
    this.auto = true;
    this.autoBox = h('input#an-auto', { type: 'checkbox', checked: true, onchange: () => this.setAuto(this.autoBox.checked) });
    const inBrowser = engine.wanted();
    this.time = h('select#an-time', { onchange: () => this.analyse(true) },
      [[0, t('an.infinite')], [300, '0.3 s'], [1000, '1 s'], [3000, '3 s'], [5000, '5 s']].map(([ms, label]) =>
        h('option', { value: String(ms), selected: ms === (inBrowser ? 0 : 1000) }, label)));
    this.stopBtn = h('button.btn.small#an-stop', { type: 'button', onclick: () => this.stop(true), hidden: true }, t('an.stop'));
    this.where = h('p.an-where.muted', { 'aria-live': 'polite' });
    this.out = h('div.analysis-out', { role: 'status', 'aria-live': 'polite' });
    this.node = h('div.an-engine',
      h('div.field.inline', this.autoBox, h('label', { for: 'an-auto' }, t('an.engineOn')), h('label', { for: 'an-time' }, t('an.time')), this.time,
        h('button.btn.small#an-go', { type: 'button', onclick: () => this.analyse(true) }, t('an.analyse')), this.stopBtn),
      this.where,
      this.out);
    this.unwatch = engine.onStatus(() => {
      this.showWhere();
      // The engine has come: the position shown deepens in the browser.
      if (engine.status() === 'ready' && this.auto && !this.local) this.schedule(true);
    });
    if (inBrowser) engine.load();
    this.showWhere();
  }

  sides() {
    return (this.page.spec && this.page.spec.sides) || [];
  }

  /**
   * The position editor is on (or off again): the board shows another
   * position than the node's, so the node's evaluation goes at once, and
   * no analysis runs until the edited position is set up.
   */
  editing(on) {
    this.isEditing = on;
    if (on) this.stop();
    this.render();
    if (!on) this.schedule();
  }

  /** Whether this analysis runs in the browser now. */
  inBrowser() {
    return engine.wanted() && engine.status() === 'ready';
  }

  showWhere() {
    let text;
    if (this.inBrowser()) text = t('an.whereBrowser');
    else if (engine.wanted() && engine.status() === 'loading') text = t('an.whereLoading');
    else text = t('an.whereServer');
    this.where.textContent = text;
    this.where.dataset.where = this.inBrowser() ? 'browser' : 'server';
  }

  setAuto(on) {
    this.auto = on;
    if (on) this.schedule();
    else this.stop();
  }

  /** Analyses the node shown after a pause (when automatic), so that stepping fast asks nothing. */
  schedule(again = false) {
    clearTimeout(this.timer);
    const n = this.page.cur;
    if (this.local && this.local.node !== n) this.stop();
    if (!this.auto || !n || n.result || this.isEditing) return;
    // The server's answer is final; the browser's deepens on, unless it
    // was stopped by the player or ran its time.
    if (this.inBrowser() ? n.evalStopped || (n.eval && n.eval.done && !again) : n.eval) return;
    this.timer = setTimeout(() => this.analyse(false), ANALYSE_DELAY_MS);
  }

  /**
   * Stops the browser's analysis going on, keeping what it found; byPlayer:
   * the Stop button, after which the position is not analysed again
   * until asked.
   */
  stop(byPlayer = false) {
    clearTimeout(this.timer);
    if (this.local) {
      this.local.handle.stop();
      const n = this.local.node;
      this.local = null;
      if (byPlayer) n.evalStopped = true;
      if (this.page.cur === n) this.render();
    }
    this.stopBtn.hidden = true;
  }

  async analyse(asked) {
    clearTimeout(this.timer);
    const page = this.page;
    const n = page.cur;
    if (!n || page.destroyed || this.isEditing) return;
    if (n.result) {
      this.stop();
      this.render();
      return;
    }
    if (this.inBrowser()) {
      if (asked) n.evalStopped = false;
      if (!asked && (n.evalStopped || (n.eval && n.eval.done && this.local === null && Number(this.time.value) > 0))) return;
      await this.analyseHere(n);
      return;
    }
    await this.analyseOnServer(n, asked);
  }

  /** The browser's analysis of n: until stopped, or for the time chosen. */
  async analyseHere(n) {
    const page = this.page;
    if (this.local) this.stop();
    await page.know(n);
    if (this.isEditing) return;
    if (page.destroyed || page.cur !== n || n.result) {
      this.render();
      return;
    }
    const ms = Number(this.time.value);
    n.evalError = '';
    const req = { game: page.spec.name, rules: page.rules, position: n.position, multipv: LINES };
    const run = { node: n, handle: null };
    run.handle = engine.analyzeForever(req, (out, final) => {
      if (this.local !== run) return;
      if (out.partial) {
        n.evalLive = out.lines[0];
      } else {
        n.eval = out;
        n.evalLive = null;
      }
      if (final) {
        n.eval.done = true;
        this.local = null;
        this.stopBtn.hidden = true;
      }
      if (page.cur === n) {
        this.render();
        page.renderBoard(false);
      }
    }, (err) => {
      if (this.local !== run) return;
      this.local = null;
      this.stopBtn.hidden = true;
      n.evalError = err.message;
      if (page.cur === n) this.render();
    }, ms);
    this.local = run;
    this.stopBtn.hidden = false;
    this.render();
  }

  /** The server's analysis of n, one at a time. */
  async analyseOnServer(n, asked) {
    const page = this.page;
    if (this.running) {
      // One analysis at a time (the server's limit): this node's comes next.
      this.again = true;
      return;
    }
    if (n.eval && !asked) return;
    const ms = Number(this.time.value) || 1000;
    this.running = n;
    n.evalError = '';
    this.render();
    try {
      await page.know(n);
      n.eval = await this.askServer(n, ms);
      n.eval.done = true;
    } catch (err) {
      n.evalError = err.status === 429 ? t('an.busy', { message: err.message }) : err.message;
    }
    this.running = null;
    if (page.destroyed) return;
    if (page.cur === n && !this.isEditing) {
      this.render();
      page.renderBoard(false);
    }
    if (this.again) {
      this.again = false;
      if (page.cur !== n) this.schedule();
    }
  }

  /**
   * The server's analysis of n: three lines (multi-PV) sharing twice the
   * time ms. A busy server (429: one analysis at a time per visitor, a
   * few at once in all) is asked again after a pause, three times, while
   * n is still the node shown.
   */
  async askServer(n, ms) {
    const page = this.page;
    const req = { game: page.spec.name, rules: page.rules, position: n.position, movetime_ms: Math.min(5000, 2 * ms), multipv: LINES };
    for (let attempt = 0; ; attempt++) {
      try {
        return await api('POST', '/api/analyze', req);
      } catch (err) {
        if (err.status !== 429 || attempt >= 3 || page.cur !== n || page.destroyed) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 600 * (attempt + 1)));
    }
  }

  /** The best moves of node n's lines, best first, for the board's arrows. */
  bestMoves(n) {
    const e = n && (n.eval || n.evalLive) ? this.shown(n) : null;
    if (!e) return [];
    const lines = (e.lines && e.lines.length ? e.lines : [{ pv: e.pv || [e.best] }]);
    return lines.map((l) => (l.pv || [])[0]).filter(Boolean);
  }

  /** The squares of the best move of node n, to mark on the board. */
  bestSquares(n) {
    const best = n && (n.eval || n.evalLive) ? this.shown(n).best : '';
    const grid = this.page.grid;
    const mv = best ? this.page.game.parseMove(best, grid) : null;
    return mv ? [mv.from >= 0 ? grid.sqName(mv.from) : null, grid.sqName(mv.to)].filter(Boolean) : [];
  }

  render() {
    const n = this.page.cur;
    this.out.textContent = '';
    this.showWhere();
    if (!n) return;
    if (this.isEditing) {
      this.out.append(h('p.muted.an-editing', t('an.editingNoEval')));
      return;
    }
    if (n.result) {
      this.out.append(...this.result(n));
      return;
    }
    const thinking = this.running === n || (this.local && this.local.node === n);
    if (thinking && !n.eval && !n.evalLive) this.out.append(h('p.thinking', t('an.thinking')));
    if (n.evalError) this.out.append(h('p.error.an-eval-error', n.evalError));
    if (n.eval || n.evalLive) {
      this.out.append(...this.evaluation(n, this.shown(n)));
    } else if (!thinking && !n.evalError) {
      const turnName = n.turn != null && this.sides()[n.turn] ? sideText(this.sides()[n.turn].name) : '';
      this.out.append(h('p.muted', turnName ? t('an.toMove', { side: turnName }) : ''));
    }
  }

  /**
   * What the panel shows of n: its last analysis, with the best line of
   * a deeper depth completed since in its place.
   */
  shown(n) {
    const live = n.evalLive;
    const e = n.eval || { lines: [], turn: n.turn };
    if (!live || (e.depth && live.depth <= e.depth)) return e;
    // The other lines of the last answer, the one the new best replaced
    // among them.
    const lines = [live, ...(e.lines || []).filter((l) => l.pv && l.pv[0] !== live.pv[0])].slice(0, LINES);
    return { ...e, score: live.score, best: live.pv[0], pv: live.pv, depth: live.depth, lines };
  }

  /** The result of a node where the game is over. */
  result(n) {
    const sides = this.sides();
    const w = n.result === '1-0' ? 0 : n.result === '0-1' ? 1 : -1;
    const why = endingWords(n.reason, this.page.spec);
    return [h('div.eval', h('span.score.over', n.result === '1/2-1/2' ? '½-½' : n.result)),
      h('p.an-result', w >= 0 ? t(why ? 'an.winsBy' : 'an.wins', { side: sides[w] ? sideText(sides[w].name) : '', why }) : t(why ? 'an.drawBy' : 'an.draw', { why }))];
  }

  /** The engine's evaluation e of node n. */
  evaluation(n, e) {
    const sides = this.sides();
    const turn = typeof e.turn === 'number' ? e.turn : n.turn;
    const s = scoreFor(e.score, turn, sides);
    const pct = Math.max(2, Math.min(98, 50 + (s.mate ? Math.sign(s.first) * 50 : 50 * (2 / (1 + Math.exp(-0.368 * s.first)) - 1))));
    return [
      h('div.eval', h('span.score', s.text), h('span.depth', e.depth ? t('an.depth', { n: e.depth }) : '')),
      h('p.muted.an-view', scoreView(sides)),
      h('div.eval-bar', { role: 'img', 'aria-label': s.text }, h('span', { style: `width: ${pct.toFixed(1)}%` })),
      h('p', t('an.bestMove'), h('strong.best', e.best || '—'),
        e.best ? h('button.link-btn#an-play-best', { type: 'button', onclick: () => this.page.playMove(e.best) }, t('an.playIt')) : null),
      (e.pv || []).length ? h('p.pv', t('an.line'), h('span.pv-moves', e.pv.join(' '))) : null,
      // The other lines, each scored from the first side's view too.
      ...(e.lines || []).slice(1).map((l) => h('p.pv.alt-line',
        h('span.score', scoreFor(l.score, turn, sides).text), ' ', h('span.pv-moves', (l.pv || []).join(' ')))),
      // The proof search's verdict: the only result called proven.
      e.proven ? h('p.proven', { title: t('an.provenTitle') },
        provenText(e.proven, sides)) : null].filter(Boolean);
  }

  destroy() {
    this.stop();
    if (this.unwatch) this.unwatch();
  }
}
