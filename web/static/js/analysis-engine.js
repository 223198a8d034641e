// The analysis board's engine panel: the engine's evaluation of the
// position shown (POST /api/analyze), asked for after a pause when it is
// on or with the button, from the first side's point of view: the score
// and its bar, the best move (which can be played), three lines, and the
// proof searches' verdict; or the result of a position where the game is
// over.

import { h } from './dom.js';
import { api } from './api.js';
import { t, sideText } from './i18n.js';
import { scoreFor } from './analysis-record.js';
import { endingWords, provenText } from './words.js';

const ANALYSE_DELAY_MS = 450;

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
    this.running = null; // the node being analysed
    this.again = false; // another node asked for meanwhile
    this.auto = true;
    this.autoBox = h('input#an-auto', { type: 'checkbox', checked: true, onchange: () => { this.auto = this.autoBox.checked; if (this.auto) this.schedule(); } });
    this.time = h('select#an-time', [[300, '0.3 s'], [1000, '1 s'], [3000, '3 s'], [5000, '5 s']].map(([ms, label]) => h('option', { value: String(ms), selected: ms === 1000 }, label)));
    this.out = h('div.analysis-out', { role: 'status', 'aria-live': 'polite' });
    this.node = h('div.an-engine',
      h('div.field.inline', this.autoBox, h('label', { for: 'an-auto' }, t('an.engineOn')), h('label', { for: 'an-time' }, t('an.time')), this.time,
        h('button.btn.small#an-go', { type: 'button', onclick: () => this.analyse(true) }, t('an.analyse'))),
      this.out);
  }

  sides() {
    return (this.page.spec && this.page.spec.sides) || [];
  }

  /** Analyses the node shown after a pause (when automatic), so that stepping fast asks nothing. */
  schedule() {
    clearTimeout(this.timer);
    const n = this.page.cur;
    if (!this.auto || !n || n.eval || n.result) return;
    this.timer = setTimeout(() => this.analyse(false), ANALYSE_DELAY_MS);
  }

  async analyse(asked) {
    clearTimeout(this.timer);
    const page = this.page;
    const n = page.cur;
    if (!n || page.destroyed) return;
    if (n.result) {
      this.render();
      return;
    }
    if (this.running) {
      // One analysis at a time (the server's limit): this node's comes next.
      this.again = true;
      return;
    }
    if (n.eval && !asked) return;
    const ms = Number(this.time.value);
    this.running = n;
    n.evalError = '';
    this.render();
    try {
      await page.know(n);
      // Three lines (multi-PV), sharing twice the chosen time.
      n.eval = await api('POST', '/api/analyze', { game: page.spec.name, rules: page.rules, position: n.position, movetime_ms: Math.min(5000, 2 * ms), multipv: 3 });
    } catch (err) {
      n.evalError = err.status === 429 ? t('an.busy', { message: err.message }) : err.message;
    }
    this.running = null;
    if (page.destroyed) return;
    if (page.cur === n) {
      this.render();
      page.renderBoard(false);
    }
    if (this.again) {
      this.again = false;
      if (page.cur !== n) this.schedule();
    }
  }

  /** The squares of the best move of node n, to mark on the board. */
  bestSquares(n) {
    const best = n && n.eval && n.eval.best;
    const grid = this.page.grid;
    const mv = best ? this.page.game.parseMove(best, grid) : null;
    return mv ? [mv.from >= 0 ? grid.sqName(mv.from) : null, grid.sqName(mv.to)].filter(Boolean) : [];
  }

  render() {
    const n = this.page.cur;
    this.out.textContent = '';
    if (!n) return;
    if (n.result) {
      this.out.append(...this.result(n));
      return;
    }
    if (this.running === n) this.out.append(h('p.thinking', t('an.thinking')));
    if (n.evalError) this.out.append(h('p.error.an-eval-error', n.evalError));
    if (n.eval) {
      this.out.append(...this.evaluation(n, n.eval));
    } else if (!this.running && !n.evalError) {
      const turnName = n.turn != null && this.sides()[n.turn] ? sideText(this.sides()[n.turn].name) : '';
      this.out.append(h('p.muted', turnName ? t('an.toMove', { side: turnName }) : ''));
    }
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
      h('div.eval', h('span.score', { title: t('an.scoreTitle', { score: e.score }) }, s.text), h('span.depth', e.depth ? t('an.depth', { n: e.depth }) : '')),
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
    clearTimeout(this.timer);
  }
}
