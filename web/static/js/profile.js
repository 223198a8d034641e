// A player's profile, /@/<name> (GET /api/users/<name>): since when they
// play, their record, a card per rating with its history as a graph, and
// their finished games, filtered by game and result, a page at a time,
// each opening its replay.

import { t } from './i18n.js';
import { h, formatDate, formatDay, toast, segmented } from './dom.js';
import { api, getMeta } from './api.js';
import { gameSpec } from './games.js';
import { shortResult, rulesLabel, clockLabel, outcomeFor } from './words.js';
import { playerTag } from './players.js';
import { ratingChart } from './chart.js';
import { account } from './account.js';

const PAGE = 50;
const SITE = document.title.split(' · ')[0]; // the site's name, as index.html gives it
const OUTCOME = { get win() { return t('pr.win'); }, get loss() { return t('pr.loss'); }, get draw() { return t('pr.draw'); } };

export function profileView(name) {
  const node = h('div.profile', h('p.loading', t('home.loading')));
  const enc = encodeURIComponent(name);
  let meta = null;
  let prof = null;
  let games = []; // every game loaded, newest first
  let last = ''; // the id of the oldest game loaded
  let more = false; // whether the server may have older ones
  let chosen = 0; // the rating whose history the graph shows
  let observer = null;
  let destroyed = false;
  const filter = { game: '', result: '' };

  // The parts that change after the first drawing.
  const cards = h('div.rating-cards');
  const chartBox = h('div.chart-box');
  const chartTitle = h('h3.chart-title#chart-title');
  const body = h('tbody');
  const count = h('p.count', { role: 'status' });
  const empty = h('p.empty', { hidden: true });
  const moreBtn = h('button.btn', { type: 'button', id: 'more-games', hidden: true }, t('pr.more'));

  const gameTitle = (g) => {
    const gs = gameSpec(meta, g);
    return (gs && gs.title) || g;
  };

  /** The player's side in a summary: the index of their name, or -1. */
  const sideOf = (g) => (g.players || []).findIndex((p) => typeof p === 'string' && p.toLowerCase() === prof.name.toLowerCase());

  async function load() {
    try {
      [meta, prof] = await Promise.all([getMeta().catch(() => null), api('GET', `/api/users/${enc}`)]);
    } catch (err) {
      if (destroyed) return;
      node.textContent = '';
      node.append(h('div.card.not-found',
        h('h1', err.status === 404 ? t('pr.noPlayer') : t('pr.cannot')),
        h('p', err.status === 404 ? t('pr.nobody', { name }) : err.message),
        h('div.form-buttons', h('a.btn.primary', { href: '/' }, t('pr.back')), h('a.btn', { href: '/#/leaderboard' }, t('nav.leaderboard')))));
      return;
    }
    if (destroyed) return;
    games = prof.games || [];
    last = games.length ? games[games.length - 1].id : '';
    more = games.length >= PAGE;
    const ratings = prof.ratings || [];
    // The graph starts with the rating played most.
    chosen = ratings.reduce((best, r, i) => ((r.games || 0) > (ratings[best].games || 0) ? i : best), 0);
    render();
  }

  function render() {
    node.textContent = '';
    const me = account();
    const own = me && !me.guest && me.name.toLowerCase() === prof.name.toLowerCase();
    document.title = `${prof.name} · ${SITE}`;
    const rec = prof.record || {};
    const [w, d, l] = [rec.wins || 0, rec.draws || 0, rec.losses || 0];
    const stat = (label, n, cls) => h('div.stat', { class: cls || null }, h('dt', label), h('dd', String(n)));
    node.append(h('section.card.profile-head', { 'aria-labelledby': 'profile-name' },
      h('div.profile-title',
        h('h1#profile-name', prof.name),
        own ? h('span.tag', 'you') : null),
      h('p.muted', prof.created ? t('pr.since', { date: formatDay(prof.created) }) : ''),
      h('dl.record', stat(t('lb.games'), w + d + l), stat(t('pr.wins'), w, 'win'), stat(t('pr.draws'), d, 'draw'), stat(t('pr.losses'), l, 'loss')),
      h('a.btn.small#pgn-all', { href: `/api/users/${enc}/games.pgn`, download: `${prof.name}.pgn` }, t('pr.pgn'))));

    const ratings = prof.ratings || [];
    const ratingsBox = h('section.card.profile-ratings', { 'aria-labelledby': 'ratings-title' }, h('h2#ratings-title', t('pr.ratings')));
    if (ratings.length) {
      cards.textContent = '';
      ratings.forEach((r, i) => cards.append(h('button.rating-card', {
        type: 'button', 'aria-pressed': String(i === chosen), 'aria-controls': 'chart-box', 'data-game': r.game, 'data-family': r.family,
        onclick: () => choose(i),
      },
      h('span.rc-title', `${gameTitle(r.game)} · ${r.family}`),
      h('strong.rc-rating', { title: r.provisional ? 'provisional: the rating is not yet sure' : `rating ± ${r.rd}` }, r.display || String(r.rating)),
      h('span.rc-games', `${r.games || 0} ${r.games === 1 ? 'game' : 'games'}`),
      h('span.rc-record', h('abbr', { title: t('pr.winsLower') }, t('pr.W')), ` ${r.wins || 0} · `, h('abbr', { title: t('pr.drawsLower') }, t('pr.D')), ` ${r.draws || 0} · `, h('abbr', { title: t('pr.lossesLower') }, t('pr.L')), ` ${r.losses || 0}`))));
      chartBox.id = 'chart-box';
      ratingsBox.append(cards, h('figure.chart-figure', { 'aria-labelledby': 'chart-title' }, chartTitle, chartBox));
    } else {
      ratingsBox.append(h('p.empty', own ? t('pr.noRatedOwn') : t('pr.noRated')));
    }
    node.append(ratingsBox);

    const gameItems = [['', t('pr.all')], ...((meta && meta.games) || []).map((g) => [g.name, g.title])];
    node.append(h('section.card.profile-games', { 'aria-labelledby': 'games-title' },
      h('h2#games-title', t('lb.games')),
      h('div.filters',
        segmented('filter-game', t('home.game'), gameItems, filter.game, (v) => { filter.game = v; renderRows(); }),
        segmented('filter-result', t('pr.result'), [['', t('pr.all')], ['win', t('pr.wins')], ['loss', t('pr.losses')], ['draw', t('pr.draws')]], filter.result, (v) => { filter.result = v; renderRows(); })),
      count,
      h('div.table-wrap', h('table.games.profile-table',
        h('thead', h('tr', [[t('pr.result')], [t('pr.opponent')], [t('home.game')], [t('pr.moves'), 'col-moves'], [t('pr.date'), 'col-date'], ['', 'col-replay']].map(([t, cls]) => h('th', { scope: 'col', class: cls || null }, t)))),
        body)),
      empty, moreBtn));
    renderRows();
    drawChart();
    if (!observer && 'ResizeObserver' in window) {
      let width = 0;
      observer = new ResizeObserver(() => {
        if (chartBox.clientWidth !== width) {
          width = chartBox.clientWidth;
          drawChart();
        }
      });
      observer.observe(chartBox);
    }
  }

  function choose(i) {
    chosen = i;
    cards.querySelectorAll('.rating-card').forEach((c, j) => c.setAttribute('aria-pressed', String(j === i)));
    drawChart();
  }

  function drawChart() {
    const r = (prof.ratings || [])[chosen];
    if (!r) return;
    const label = `${gameTitle(r.game)} · ${r.family}`;
    chartTitle.textContent = t('pr.history', { label });
    chartBox.textContent = '';
    const hist = r.history || [];
    if (!hist.length) {
      chartBox.append(h('p.empty', t('pr.noHistory')));
      return;
    }
    chartBox.append(ratingChart(hist, chartBox.clientWidth || 600, t('pr.historyLabel', { label })));
  }

  function matches(g) {
    if (filter.game && g.game !== filter.game) return false;
    return !filter.result || outcomeFor(g.result, sideOf(g)) === filter.result;
  }

  function row(g) {
    const i = sideOf(g);
    const out = outcomeFor(g.result, i);
    const opp = i >= 0 ? 1 - i : 1;
    const href = `/g/${encodeURIComponent(g.id)}`;
    return h('tr', { 'data-id': g.id },
      h('td', h('span.outcome', { class: out || null }, OUTCOME[out] || shortResult(g.result) || '—'),
        out ? h('small', ' ' + shortResult(g.result)) : null, g.reason ? h('small.reason', ' ' + g.reason) : null),
      h('td', playerTag((g.players || [])[opp], (g.ratings || [])[opp], true, g.users ? g.users[opp] !== '' : undefined)),
      h('td', h('a', { href }, g.title || gameTitle(g.game)),
        h('small.rules', ' ' + [g.rated ? 'rated' : 'casual', clockLabel(g.clock), rulesLabel(meta, g.game, g.rules)].filter(Boolean).join(' · '))),
      h('td.col-moves', String(g.moves ?? '')),
      h('td.col-date', { title: formatDate(g.updated || g.created) }, formatDay(g.updated || g.created)),
      h('td.col-replay', h('a.btn.small.ghost', { href, 'aria-label': t('pr.replayLabel', { name: (g.players || [])[opp] || t('pr.theOpponent') }) }, t('pr.replay'))));
  }

  function renderRows() {
    const shown = games.filter(matches);
    body.textContent = '';
    for (const g of shown) body.append(row(g));
    const filtered = filter.game || filter.result;
    count.textContent = games.length
      ? filtered ? `${shown.length} of the ${games.length} games loaded` : `${games.length} ${games.length === 1 ? 'game' : 'games'}${more ? ' so far' : ''}`
      : '';
    empty.hidden = shown.length > 0;
    empty.textContent = games.length ? t('pr.noMatch') + (more ? ' ' + t('pr.olderMay') : '') : t('pr.noFinished');
    moreBtn.hidden = !more;
  }

  async function loadMore() {
    moreBtn.disabled = true;
    try {
      const q = new URLSearchParams({ before: last, limit: String(PAGE) });
      const res = await api('GET', `/api/users/${enc}/games?${q}`);
      if (destroyed) return;
      const page = (res && res.games) || [];
      const seen = new Set(games.map((g) => g.id));
      games = games.concat(page.filter((g) => !seen.has(g.id)));
      if (page.length) last = page[page.length - 1].id;
      more = page.length >= PAGE;
      renderRows();
      if (!more) {
        // The button is gone: the focus goes to the last game's link.
        const links = body.querySelectorAll('a.btn');
        if (links.length) links[links.length - 1].focus();
      }
    } catch (err) {
      toast(err.message, 'error');
    }
    moreBtn.disabled = false;
  }
  moreBtn.onclick = loadMore;

  return {
    node,
    mounted: load,
    refresh() {
      // Logged in or out: whether this is "you" changes.
      if (prof && !destroyed) render();
    },
    destroy() {
      destroyed = true;
      if (observer) observer.disconnect();
    },
  };
}
