// An account's history of puzzles, /puzzles?history=1 (&game=<name>), as
// lichess's puzzle dashboard: every attempt, newest first (GET
// /api/puzzles/history), solved or failed, when, whether it was rated
// (only an account's first attempt at a puzzle is) and how the puzzle
// rating moved, with the graph of that rating (js/chart.js). A guest is
// told to log in.

import { h } from './dom.js';
import { api, metaFor } from './api.js';
import { ratingChart } from './chart.js';
import { gameSpec } from './games.js';
import { loggedIn, whenAccount } from './account.js';
import { t, dated, locale } from './i18n.js';

/** A date and time in the reader's language. */
const when = (ms) => dated(new Date(ms).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' }));

class HistoryPage {
  constructor(params) {
    this.params = params;
    this.node = h('div.puzzles-history');
    this.alive = true;
  }

  destroy() {
    this.alive = false;
  }

  async mounted() {
    const meta = await metaFor(this.node);
    if (!meta) return;
    const chosen = gameSpec(meta, this.params.get('game'));
    this.game = chosen ? chosen.name : '';
    this.gameSel = h('select#pzh-game',
      h('option', { value: '' }, t('pz.history.all')),
      meta.games.map((g) => h('option', { value: g.name, selected: g.name === this.game }, g.title)));
    this.body = h('div.pzh-body', { 'aria-live': 'polite' });
    this.node.append(h('section.card.pz-history', { 'aria-labelledby': 'pzh-title' },
      h('h1#pzh-title', t('pz.history.title')),
      h('div.field.inline', h('label', { for: 'pzh-game' }, t('pz.game')), this.gameSel),
      this.body,
      h('p', h('a.btn.small', { href: `/puzzles${this.game ? '?game=' + encodeURIComponent(this.game) : ''}` }, t('pz.history.back')))));
    this.gameSel.onchange = () => {
      this.game = this.gameSel.value;
      history.replaceState(null, '', `/puzzles?history=1${this.game ? '&game=' + encodeURIComponent(this.game) : ''}`);
      this.show(meta);
    };
    this.show(meta);
  }

  async show(meta) {
    const game = this.game;
    await whenAccount();
    if (!this.alive) return;
    this.body.textContent = '';
    if (!loggedIn()) {
      this.body.append(h('p.pzh-login', t('pz.history.login')));
      return;
    }
    let r;
    try {
      r = await api('GET', `/api/puzzles/history${game ? '?game=' + encodeURIComponent(game) : ''}`);
    } catch (err) {
      this.body.append(h('p.error', err.message));
      return;
    }
    if (!this.alive || game !== this.game) return;
    this.body.textContent = '';
    const plays = r.plays || [];
    if (!plays.length) {
      this.body.append(h('p.pzh-none', t('pz.history.none')));
      return;
    }
    this.body.append(h('p.pzh-summary', t('pz.history.summary', { attempts: r.attempts, solved: r.solved })));
    this.charts(meta, plays);
    this.body.append(this.table(meta, plays));
  }

  /** One rating graph a game: the rating after each rated attempt. */
  charts(meta, plays) {
    for (const g of meta.games) {
      const points = plays.filter((p) => p.rated && p.game === g.name).map((p) => ({ at: p.at, rating: p.rating }));
      if (!points.length) continue;
      const box = h('div.pzh-chart', { 'data-game': g.name }, h('h2', t('pz.history.chart', { game: g.title })));
      this.body.append(box);
      box.append(ratingChart(points, this.body.clientWidth || 600, t('pz.history.chart', { game: g.title })));
    }
  }

  table(meta, plays) {
    const title = (name) => (gameSpec(meta, name) || { title: name }).title;
    const rows = plays.map((p) => {
      const change = p.rated ? (p.diff > 0 ? `+${p.diff}` : String(p.diff)) : t('pz.history.unrated');
      const themes = (p.themes || []).map((th) => t('pz.theme.' + th)).join(', ');
      return h('tr.pzh-play', { 'data-puzzle': p.puzzle, 'data-solved': String(p.solved), 'data-rated': String(p.rated) },
        h('td', when(p.at)),
        h('td', h('a', { href: `/puzzles?id=${encodeURIComponent(p.puzzle)}` }, p.puzzle)),
        h('td.pzh-game', title(p.game)),
        h('td.pzh-themes', themes),
        h('td', { class: p.solved ? 'pzh-solved' : 'pzh-failed' }, t(p.solved ? 'pz.history.solved' : 'pz.history.failed')),
        // The rating after the attempt and its change in one column, as
        // lichess's dashboard shows them: a phone has no room for two.
        h('td.pzh-rating', p.rated ? [String(p.rating), ' ', h('span.pzh-change', change)] : h('span.pzh-change', change)));
    });
    return h('table.pzh-table',
      h('thead', h('tr', ['date', 'puzzle', 'game', 'themes', 'result', 'rating'].map((k) => h('th', { scope: 'col', class: 'pzh-col-' + k }, t('pz.history.col.' + k))))),
      h('tbody', rows));
  }
}

/** The history page of the URL's params. */
export function historyView(params) {
  return new HistoryPage(params);
}
