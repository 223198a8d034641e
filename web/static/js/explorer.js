// The opening explorer on the analysis board (GET /api/explorer, as
// lichess's): for the position shown, each move played from it in the
// archive's games (a game and its mirror image count as one, the server
// turns them into this board's frame), how often, how those games ended
// (a bar of White's wins, draws and Black's wins, its numbers written out
// for screen readers), their average rating, and where the book of proven
// positions knows the position after the move, its proven value. Filters:
// the site's games or imported ones, rated only, a time control, a rating
// band, and "my games" (an account's own repertoire). A move's button
// plays it on the board; a link finds every game that reached the
// position (the archive's search, archive.js).
//
// The panel is a <details> whose state, and the filters, the browser
// keeps (prefs.js); closed, it asks the server nothing and the page is as
// it was without it.

import { h } from './dom.js';
import { api } from './api.js';
import { t, tn, formatNumber } from './i18n.js';
import { loggedIn, onAccountChange } from './account.js';
import { pathOf, sideName } from './analysis-record.js';
import { provenText } from './words.js';
import * as prefs from './prefs.js';

/** How long the position shown must stay before it is asked for: stepping through a game asks for none of the positions passed. */
const ASK_DELAY_MS = 180;
/** How many answers the panel keeps, for stepping back and forth. */
const KEEP = 120;
/** The time controls a filter offers (the server's speeds). */
const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'untimed'];
/** The rating bands a filter offers: 200 wide (the server's BandWidth). */
const BANDS = [800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400];

/** A percentage of a total, rounded: 0 for none. */
function pct(n, total) {
  return total > 0 ? Math.round((100 * n) / total) : 0;
}

/** The query of a filter's choices, as the API takes them. */
export function filterQuery(f) {
  const q = new URLSearchParams();
  if (f.mine) {
    q.set('mine', '1');
    return q;
  }
  if (f.sources === 'site') q.set('sources', 'site');
  if (f.sources === 'imported') q.set('sources', 'boardspace,import');
  if (f.rated) q.set('rated', '1');
  if (f.speed && SPEEDS.includes(f.speed)) q.set('speeds', f.speed);
  if (f.minBand) q.set('minBand', String(f.minBand));
  if (f.maxBand) q.set('maxBand', String(f.maxBand));
  return q;
}

/**
 * A score bar: White's wins, the draws and Black's wins as shares of a
 * line's games, drawn (hidden from screen readers) and written out.
 */
export function scoreBar(white, draws, black, sides) {
  const total = white + draws + black;
  const parts = [['w', white], ['d', draws], ['b', black]];
  const bar = h('div.ex-bar', { 'aria-hidden': 'true' }, parts.map(([cls, n]) => {
    const p = pct(n, total);
    return p > 0 ? h('span.ex-' + cls, { style: `width:${(100 * n) / total}%` }, p >= 12 ? `${p}%` : '') : null;
  }));
  const words = h('span.visually-hidden', t('ex.scoreWords', {
    white: sideName(0, sides), black: sideName(1, sides),
    w: pct(white, total), d: pct(draws, total), b: pct(black, total),
  }));
  return [bar, words];
}

/** The explorer panel of an analysis board page (analysis.js): page.cur is the node shown, page.playMove(m) plays a move. */
export class ExplorerPanel {
  constructor(page) {
    this.page = page;
    this.answers = new Map(); // key -> answer
    this.timer = null;
    this.shown = ''; // the key of the answer shown
    this.filters = { sources: '', rated: false, speed: '', minBand: 0, maxBand: 0, mine: false, ...prefs.explorerFilters() };
    this.status = h('p.ex-status', { role: 'status', 'aria-live': 'polite' });
    this.out = h('div.ex-out');
    this.link = h('a.link.ex-search', { href: '/#/archive' }, t('ex.everyGame'));
    this.filterBox = h('fieldset.ex-filters');
    this.node = h('details.an-explorer#explorer', { open: prefs.explorerOpen() },
      h('summary', t('ex.title')),
      h('div.ex-body', this.filterBox, this.status, this.out, this.link));
    this.node.addEventListener('toggle', () => {
      prefs.setExplorerOpen(this.node.open);
      if (this.node.open) this.render();
      else clearTimeout(this.timer);
    });
    this.renderFilters();
    this.unwatch = onAccountChange(() => {
      if (!loggedIn() && this.filters.mine) this.setFilter('mine', false);
      this.renderFilters();
      this.answers.clear();
      this.render();
    });
  }

  /** Opens the panel (the game page's link to the explorer). */
  open() {
    this.node.open = true;
    prefs.setExplorerOpen(true);
  }

  setFilter(name, value) {
    this.filters[name] = value;
    prefs.setExplorerFilters(this.filters);
  }

  /** The filters: the source, rated only, the time control, the rating band, and an account's own games. */
  renderFilters() {
    const f = this.filters;
    const mine = f.mine && loggedIn();
    const changed = (name, read) => (e) => {
      this.setFilter(name, read(e.target));
      if (name === 'mine') this.renderFilters();
      this.render();
    };
    const select = (id, name, label, options, value) => h('span.ex-filter',
      h('label', { for: id }, label),
      h('select#' + id, { onchange: changed(name, (e) => (typeof value === 'number' ? Number(e.value) : e.value)), disabled: mine },
        options.map(([v, text]) => h('option', { value: String(v), selected: String(v) === String(value) }, text))));
    const any = t('ex.any');
    this.filterBox.textContent = '';
    this.filterBox.append(...[
      h('legend.visually-hidden', t('ex.filters')),
      select('ex-sources', 'sources', t('ex.sources'), [['', t('ex.allGames')], ['site', t('ex.siteGames')], ['imported', t('ex.importedGames')]], f.sources || ''),
      select('ex-speed', 'speed', t('ex.speed'), [['', any], ...SPEEDS.map((s) => [s, t('ex.speed.' + s)])], f.speed || ''),
      select('ex-min', 'minBand', t('ex.ratingFrom'), [[0, any], ...BANDS.map((b) => [b, String(b)])], f.minBand || 0),
      select('ex-max', 'maxBand', t('ex.ratingTo'), [[0, any], ...BANDS.map((b) => [b, String(b + 199)])], f.maxBand || 0),
      h('span.ex-filter.ex-check',
        h('input#ex-rated', { type: 'checkbox', checked: !!f.rated, disabled: mine, onchange: changed('rated', (e) => e.checked) }),
        h('label', { for: 'ex-rated' }, t('ex.ratedOnly'))),
      loggedIn() ? h('span.ex-filter.ex-check',
        h('input#ex-mine', { type: 'checkbox', checked: mine, onchange: changed('mine', (e) => e.checked) }),
        h('label', { for: 'ex-mine' }, t('ex.mine'))) : null,
    ].filter(Boolean));
  }

  /** The question of the node shown: its key and query, or null before the board has a game. */
  question() {
    const page = this.page;
    const n = page.cur;
    if (!n || !page.spec || !page.root) return null;
    const q = filterQuery({ ...this.filters, mine: this.filters.mine && loggedIn() });
    q.set('game', page.spec.name);
    if (page.rules) q.set('rules', page.rules);
    q.set('position', page.root.position);
    const moves = pathOf(n);
    if (moves.length) q.set('moves', moves.join(' '));
    return { key: q.toString(), query: q, node: n };
  }

  /** Shows the node's answer: at once when it is known, else asked for after a pause. */
  render() {
    clearTimeout(this.timer);
    if (!this.node.open) return;
    const page = this.page;
    const q = this.question();
    if (!q) return;
    const n = q.node;
    const search = new URLSearchParams({ game: page.spec.name, position: n.position || page.root.position });
    if (page.rules) search.set('rules', page.rules);
    this.link.href = '/#/archive?' + search.toString();
    if (this.answers.has(q.key)) {
      this.show(q.key, this.answers.get(q.key));
      return;
    }
    this.node.setAttribute('aria-busy', 'true');
    this.status.textContent = t('ex.loading');
    this.timer = setTimeout(() => this.ask(q), ASK_DELAY_MS);
  }

  async ask(q) {
    let a;
    try {
      a = await api('GET', '/api/explorer?' + q.query.toString());
    } catch (err) {
      if (this.question() && this.question().key === q.key) {
        this.node.removeAttribute('aria-busy');
        this.out.textContent = '';
        this.shown = '';
        this.status.textContent = err.message;
        this.status.classList.add('error');
      }
      return;
    }
    if (this.answers.size >= KEEP) this.answers.delete(this.answers.keys().next().value);
    this.answers.set(q.key, a);
    const now = this.question();
    if (now && now.key === q.key && this.node.open) this.show(q.key, a);
  }

  /** Draws an answer: the table of moves, or why there is none. */
  show(key, a) {
    this.node.removeAttribute('aria-busy');
    this.status.classList.remove('error');
    const refocus = this.out.contains(document.activeElement);
    this.shown = key;
    this.out.textContent = '';
    this.node.dataset.games = String(a.games);
    const sides = this.page.sides();
    if (a.result) {
      this.status.textContent = t('ex.over');
      return;
    }
    if (!a.moves.length) {
      this.status.textContent = a.mine ? t('ex.noneMine') : t('ex.none');
      return;
    }
    this.status.textContent = tn('ex.games', a.games);
    const body = h('tbody', a.moves.map((m) => this.row(m, a, sides)));
    const foot = h('tfoot', h('tr',
      h('th', { scope: 'row' }, h('span', { 'aria-hidden': 'true' }, 'Σ'), h('span.visually-hidden', t('ex.total'))),
      h('td.ex-games', formatNumber(a.games)),
      h('td.ex-score', scoreBar(a.white, a.draws, a.black, sides)),
      h('td.ex-rating', '')));
    this.out.append(h('div.ex-wrap', h('table.ex-table',
      h('caption.visually-hidden', t('ex.caption')),
      h('thead', h('tr', [t('ex.move'), t('ex.gamesCol'), t('ex.scoreCol'), t('ex.ratingCol')].map((c) => h('th', { scope: 'col' }, c)))),
      body, foot)));
    if (refocus) {
      const first = this.out.querySelector('.ex-move');
      if (first) first.focus();
    }
  }

  /** One move's row: its button, games, score bar with the proven value, and average rating. */
  row(m, a, sides) {
    const share = pct(m.games, a.games);
    let verdict = null;
    if (m.proven) {
      const side = sideName(m.proven.winner, sides);
      const text = m.proven.exact ? t('an.winsIn', { side, n: m.proven.moves }) : t('ex.winsAtMost', { side, n: m.proven.moves });
      verdict = h('span.ex-proven', { title: provenText(m.proven, sides) }, text);
    } else if (m.result) {
      const text = m.result === '1/2-1/2' ? t('ex.endsDraw') : t('ex.endsWin', { side: sideName(m.result === '1-0' ? 0 : 1, sides) });
      verdict = h('span.ex-proven.ex-ends', text);
    }
    let whose = null;
    let yours = null;
    if (a.mine && m.yours) {
      whose = h('span.ex-whose', m.mine ? t('ex.yourMove') : t('ex.theirMove'));
      yours = h('span.ex-yours', t('ex.yours', { w: formatNumber(m.yours.wins), d: formatNumber(m.yours.draws), l: formatNumber(m.yours.losses) }));
    }
    return h('tr', { 'data-move': m.move },
      h('th', { scope: 'row' },
        h('button.ex-move', { type: 'button', 'data-move': m.move, title: t('ex.play', { move: m.move }), onclick: () => this.page.playMove(m.move) }, m.move),
        whose),
      h('td.ex-games', formatNumber(m.games), h('small', ` ${share}%`)),
      h('td.ex-score', scoreBar(m.white, m.draws, m.black, sides), verdict, yours),
      h('td.ex-rating', m.rating == null ? [h('span', { 'aria-hidden': 'true' }, '–'), h('span.visually-hidden', t('ex.noRating'))] : String(m.rating)));
  }

  destroy() {
    clearTimeout(this.timer);
    this.unwatch();
  }
}
