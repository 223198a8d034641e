// The game review on the game page of a finished game: a button that asks
// the server for the engine's review (POST /api/games/<id>/review), a
// progress bar while it runs (GET, polled), then the evaluation graph, the
// count of each side's inaccuracies, mistakes and blunders, and the marks
// in the move list (?!, ?, ??) with the engine's better move. Anyone who
// replays the game sees a review once it is done.

import { h } from './dom.js';
import { api } from './api.js';
import { evalChart } from './chart.js';
import { t, sideText } from './i18n.js';
import { provenText } from './words.js';
import { sideName, signedScore, scoreView } from './analysis-record.js';

/** The mark of each kind of move, as chess annotators write it. */
export const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const WORDS = { inaccuracy: 'rv.inaccuracy', mistake: 'rv.mistake', blunder: 'rv.blunder' };
const WORD = (kind) => t(WORDS[kind]);
const PLURAL = { inaccuracy: 'rv.inaccuracies', mistake: 'rv.mistakes', blunder: 'rv.blunders' };
const POLL_MS = 800;

/**
 * Scrolls a move list so that the current move shows whole; at the newest
 * move (live play), to the very end, so that nothing below it hides.
 */
export function keepInView(box, cur, newest) {
  if (newest) {
    box.scrollTop = box.scrollHeight;
    return;
  }
  if (!cur) return;
  const b = box.getBoundingClientRect();
  const r = cur.getBoundingClientRect();
  if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - (b.height - r.height) / 2;
}

/** The marks of a review's moves for its chart: [{ply, cls}]. */
function chartMarks(d) {
  return (d.moves || []).filter((m) => m.class).map((m) => ({ ply: m.ply + 1, cls: m.class }));
}

/** The review panel; opts.goto(ply) shows a position of the game. */
class ReviewPanel {
  constructor(opts) {
    this.opts = opts;
    this.node = h('section.review', { 'aria-label': t('rv.title'), hidden: true });
    this.id = '';
    this.game = null; // the game's state
    this.data = null; // the review, as the server gives it
    this.timer = null;
    this.error = '';
    this.asking = false;
    this.moves = null; // the move list decorated
    this.ply = 0;
  }

  /** Reads the review (post: asks for it), and again while it runs. */
  async load(post) {
    const id = this.id;
    try {
      const data = await api(post ? 'POST' : 'GET', `/api/games/${encodeURIComponent(id)}/review`, post ? {} : undefined);
      if (id !== this.id) return;
      this.data = data;
      this.error = '';
    } catch (err) {
      if (id !== this.id) return;
      if (post && err.status === 409) {
        // Someone else asked first: follow their review.
        this.load(false);
        return;
      }
      this.error = err.message;
    }
    this.asking = false;
    clearTimeout(this.timer);
    if (this.data && this.data.status === 'running') this.timer = setTimeout(() => this.load(false), POLL_MS);
    this.render();
    if (this.moves) this.decorate(this.moves, this.ply);
  }

  render() {
    const node = this.node;
    node.textContent = '';
    const d = this.data;
    if (!this.game) return;
    node.setAttribute('aria-label', t('rv.title'));
    node.append(h('h2.review-title', t('rv.title')));
    if (this.error) node.append(h('p.error.review-error', { role: 'alert' }, this.error));
    if (!d || d.status === 'none') {
      node.append(h('button.btn.small#request-review', {
        type: 'button', disabled: this.asking,
        title: t('rv.requestTitle'),
        onclick: () => {
          this.asking = true;
          this.error = '';
          this.render();
          this.load(true);
        },
      }, this.asking ? t('rv.asking') : t('rv.request')));
      return;
    }
    if (d.status === 'running') {
      const pct = d.total ? Math.round((100 * d.done) / d.total) : 0;
      node.append(h('div.review-progress',
        h('label', { for: 'review-bar' }, t('rv.progress', { done: d.done, total: d.total })),
        h('progress#review-bar', { max: String(d.total || 1), value: String(d.done || 0), 'aria-valuetext': `${pct}%` })));
      return;
    }
    this.renderDone(d);
  }

  /** Done: the graph, the counts, and the note of the move shown. */
  renderDone(d) {
    const s = this.game;
    this.node.append(h('div.review-chart', this.chart(d, this.ply)));
    const counts = h('table.review-counts', h('thead', h('tr', h('th', { scope: 'col' }, ''),
      ...['inaccuracy', 'mistake', 'blunder'].map((k) => h('th', { scope: 'col' }, h('span.glyph.' + k, { 'aria-hidden': 'true' }, GLYPHS[k]), ' ', t(PLURAL[k]))))));
    const body = h('tbody');
    (d.sides || []).forEach((c, i) => {
      body.append(h('tr', { 'data-side': String(i) }, h('th', { scope: 'row' }, s.sides[i] ? sideText(s.sides[i].name) : t('rv.side', { n: i + 1 })),
        h('td.inaccuracies', String(c.inaccuracies)), h('td.mistakes', String(c.mistakes)), h('td.blunders', String(c.blunders))));
    });
    counts.append(body);
    this.node.append(counts, h('p.review-note', { 'aria-live': 'polite' }));
  }

  /** The evaluation graph of review d, its cursor on ply. */
  chart(d, ply) {
    const s = this.game;
    return evalChart(d.evals, 600, {
      total: s.moves.length, marks: chartMarks(d), current: ply, label: t('rv.chartLabel', { side: sideText(s.sides[0].name) }),
      onPick: (p) => this.opts.goto(p),
    });
  }

  /** Marks the move list's moves (ply j+1 is move j) and says what the review thinks of the move shown. */
  decorate(movesBox, ply) {
    this.moves = movesBox;
    const changed = ply !== this.ply;
    this.ply = ply;
    const d = this.data;
    if (!d || d.status !== 'done') return;
    const byPly = new Map((d.moves || []).map((m) => [m.ply + 1, m]));
    for (const b of movesBox.querySelectorAll('.mv[data-ply]')) {
      const m = byPly.get(Number(b.dataset.ply));
      b.querySelectorAll('.glyph').forEach((g) => g.remove());
      if (!m || !m.class) {
        delete b.dataset.class;
        continue;
      }
      b.dataset.class = m.class;
      const why = m.lets ? `${WORD(m.class)}: ${letsText(m.lets, this.game.sides)}` : t('rv.lost', { kind: WORD(m.class), loss: m.loss });
      b.append(h('span.glyph.' + m.class, { title: why + (m.best ? `; ${t('rv.better')} ${m.best}` : '') }, GLYPHS[m.class]));
      b.setAttribute('aria-label', `${m.move}, ${WORD(m.class)}` + (m.best ? `, ${t('rv.better')} ${m.best}` : ''));
    }
    if (changed && this.node.querySelector('.eval-cursor')) {
      // The chart again, with its cursor on the move shown.
      const old = this.node.querySelector('.review-chart');
      old.textContent = '';
      old.append(this.chart(d, ply));
    }
    this.note(d, byPly, ply);
  }

  /** What the review says of the move shown: its mark and the better move, the score, the proof. */
  note(d, byPly, ply) {
    const note = this.node.querySelector('.review-note');
    if (!note) return;
    const sides = this.game.sides;
    note.textContent = '';
    const m = byPly.get(ply);
    const e = (d.evals || []).find((x) => x.ply === ply);
    if (m && m.class) {
      note.append(h('strong.glyph.' + m.class, `${m.move}${GLYPHS[m.class]}`), ` ${WORD(m.class)}`,
        m.best ? h('span', ` · ${t('rv.better')} `, h('strong.better', m.best)) : null);
      // What the proofs say of it: the win it lets the opponent, with the
      // refutation, or the proven win it threw away.
      if (m.lets) note.append(h('span.review-lets', ' · ', letsText(m.lets, sides)),
        (m.lets.line || []).length ? h('span.review-refutation', ` · ${t('rv.refutation')} `, h('span.pv-moves', m.lets.line.join(' '))) : null);
      if (m.threw && !m.lets) note.append(h('span.review-threw', ' · ', t(m.threw.exact ? 'rv.threw' : 'rv.threwAtMost', { n: m.threw.moves })));
    } else if (m) {
      note.append(h('span', t('rv.good', { move: m.move })));
    }
    if (e && !e.result) note.append(h('span.muted.review-score', { title: scoreView(sides) }, ` · ${scoreWords(e, sides)}`));
    // The proof search's verdict on the position, the only one called proven.
    if (e && e.proven && sides[e.proven.winner]) {
      note.append(h('span.proven', ' · ', provenText(e.proven, sides)));
    }
  }

  /** The game's state: the panel shows for a finished game with moves. */
  state(s) {
    const show = s.status === 'finished' && s.moves.length > 0;
    this.node.hidden = !show;
    if (!show) return;
    const fresh = s.id !== this.id;
    this.game = s;
    if (fresh) {
      this.id = s.id;
      this.data = null;
      this.error = '';
      clearTimeout(this.timer);
      this.render();
      this.load(false);
    }
  }

  destroy() {
    clearTimeout(this.timer);
  }
}

/** The review panel of a game page (ReviewPanel); opts.goto(ply) shows a position of the game. */
export function reviewPanel(opts) {
  return new ReviewPanel(opts);
}

/** The proven win a move let the opponent: "lets Black win in 3" (at most 3 when the proof is not the shortest). */
export function letsText(p, sides) {
  const side = sides && sides[p.winner] ? sideText(sides[p.winner].name) : t(p.winner === 0 ? 'an.firstPlayer' : 'an.secondPlayer');
  return t(p.exact ? 'rv.lets' : 'rv.letsAtMost', { side, n: p.moves });
}

/** A review's evaluation from the first side's view, as the analysis board gives it (scoreFor): "+0.85", "−0.85", "White wins in 5". */
export function scoreWords(e, sides) {
  if (e.mate) return e.mate > 0 ? t('an.winsIn', { side: sideName(0, sides), n: e.mate }) : t('an.winsIn', { side: sideName(1, sides), n: -e.mate });
  return signedScore((Number(e.cp) || 0) / 100);
}
