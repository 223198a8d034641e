// A player's profile, /@/<name> (GET /api/users/<name>): since when they
// play, their record, a card per rating with its history as a graph, and
// their finished games, filtered by game and result, a page at a time,
// each opening its replay; the tournaments they won (tournaments.js).

import { t, tn, formatNumber } from './i18n.js';
import { h, formatDate, formatDay, toast, segmented } from './dom.js';
import { api, getMeta } from './api.js';
import { gameSpec } from './games.js';
import { shortResult, rulesLabel, clockLabel, outcomeFor, endingWords, variantName, playerName, moveCount } from './words.js';
import { playerTag, botTag } from './players.js';
import { challengeForm } from './challenge.js';
import { ratingChart } from './chart.js';
import { account, whenAccount } from './account.js';
import { openReport } from './report.js';
import { wonList } from './tournaments.js';

const PAGE = 50;
const SITE = document.title.split(' · ')[0]; // the site's name, as index.html gives it
const OUTCOME = { get win() { return t('pr.win'); }, get loss() { return t('pr.loss'); }, get draw() { return t('pr.draw'); } };

/** The profile page of the player name. */
class ProfilePage {
  constructor(name) {
    this.name = name;
    this.enc = encodeURIComponent(name);
    this.node = h('div.profile', h('p.loading', t('home.loading')));
    this.meta = null;
    this.prof = null;
    this.games = []; // every game loaded, newest first
    this.last = ''; // the id of the oldest game loaded
    this.more = false; // whether the server may have older ones
    this.chosen = 0; // the rating whose history the graph shows
    this.observer = null;
    this.destroyed = false;
    this.filter = { game: '', result: '' };
    // The parts that change after the first drawing.
    this.cards = h('div.rating-cards');
    this.chartBox = h('div.chart-box');
    this.chartTitle = h('h3.chart-title#chart-title');
    this.body = h('tbody');
    this.count = h('p.count', { role: 'status' });
    this.empty = h('p.empty', { hidden: true });
    this.moreBtn = h('button.btn', { type: 'button', id: 'more-games', hidden: true, onclick: () => this.loadMore() }, t('pr.more'));
  }

  gameTitle(g) {
    const gs = gameSpec(this.meta, g);
    return (gs && gs.title) || g;
  }

  /** The player's side in a summary: the index of their name, or -1. */
  sideOf(g) {
    return (g.players || []).findIndex((p) => typeof p === 'string' && p.toLowerCase() === this.prof.name.toLowerCase());
  }

  async mounted() {
    try {
      // The account too: whether the page offers its challenge and
      // moderation buttons depends on who is looking, and an answer about
      // the player that came first would draw the page without them.
      [this.meta, this.prof] = await Promise.all([getMeta().catch(() => null), api('GET', `/api/users/${this.enc}`), whenAccount()]);
    } catch (err) {
      if (this.destroyed) return;
      this.node.textContent = '';
      this.node.append(h('div.card.not-found',
        h('h1', err.status === 404 ? t('pr.noPlayer') : t('pr.cannot')),
        h('p', err.status === 404 ? t('pr.nobody', { name: this.name }) : err.message),
        h('div.form-buttons', h('a.btn.primary', { href: '/' }, t('pr.back')), h('a.btn', { href: '/#/leaderboard' }, t('nav.leaderboard')))));
      return;
    }
    if (this.destroyed) return;
    const me = account();
    if (me && !me.guest) {
      const list = await api('GET', '/api/blocks').catch(() => ({ blocked: [] }));
      this.blocked = (list.blocked || []).some((n) => n.toLowerCase() === this.prof.name.toLowerCase());
    }
    const games = (this.games = this.prof.games || []);
    this.last = games.length ? games[games.length - 1].id : '';
    this.more = games.length >= PAGE;
    const ratings = this.prof.ratings || [];
    // The graph starts with the rating played most.
    this.chosen = ratings.reduce((best, r, i) => ((r.games || 0) > (ratings[best].games || 0) ? i : best), 0);
    this.render();
  }

  render() {
    const prof = this.prof;
    this.node.textContent = '';
    const me = account();
    const own = me && !me.guest && me.name.toLowerCase() === prof.name.toLowerCase();
    document.title = `${prof.name} · ${SITE}`;
    const rec = prof.record || {};
    const [w, d, l] = [rec.wins || 0, rec.draws || 0, rec.losses || 0];
    const stat = (label, n, cls) => h('div.stat', { class: cls || null }, h('dt', label), h('dd', String(n)));
    this.node.append(h('section.card.profile-head', { 'aria-labelledby': 'profile-name' },
      h('div.profile-title',
        h('h1#profile-name', prof.name),
        prof.bot ? botTag() : null,
        own ? h('span.tag', t('gm.you')) : null),
      h('p.muted', prof.created ? t('pr.since', { date: formatDay(prof.created) }) : ''),
      h('dl.record', stat(t('lb.games'), w + d + l), stat(t('pr.wins'), w, 'win'), stat(t('pr.draws'), d, 'draw'), stat(t('pr.losses'), l, 'loss')),
      h('div.profile-actions',
        h('a.btn.small#pgn-all', { href: `/api/users/${this.enc}/games.pgn`, download: `${prof.name}.pgn` }, t('pr.pgn')),
        me && !me.guest && !own ? this.moderationButtons() : null,
        me && !me.guest && !own && prof.bot ? this.challengeButton() : null),
      me && !me.guest && !own && prof.bot ? this.challenge : null));
    this.node.append(this.ratingsCard(own), this.gamesCard());
    // The tournaments won, under the ratings, once read (none: nothing).
    const won = h('div.won-box');
    this.node.insertBefore(won, this.node.lastChild);
    wonList(prof.name).then((card) => { if (card && !this.destroyed) won.append(card); }, () => {});
    this.renderRows();
    this.drawChart();
    if (!this.observer && 'ResizeObserver' in window) {
      let width = 0;
      this.observer = new ResizeObserver(() => {
        if (this.chartBox.clientWidth !== width) {
          width = this.chartBox.clientWidth;
          this.drawChart();
        }
      });
      this.observer.observe(this.chartBox);
    }
  }

  /** The button that opens the form challenging this bot. */
  challengeButton() {
    this.challenge = challengeForm(this.meta, this.prof.name);
    const btn = h('button.btn.small.primary#challenge', { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'challenge-form' }, t('ch.button'));
    btn.onclick = () => {
      this.challenge.hidden = !this.challenge.hidden;
      btn.setAttribute('aria-expanded', String(!this.challenge.hidden));
    };
    return btn;
  }

  /** The buttons that report the player to the moderators and block or unblock them. */
  moderationButtons() {
    const name = this.prof.name;
    const block = h('button.btn.small.ghost#block', { type: 'button', 'aria-pressed': String(!!this.blocked) }, this.blocked ? t('rp.unblock') : t('rp.block'));
    block.onclick = async () => {
      try {
        const res = await api('POST', `/api/blocks/${this.enc}`, { block: !this.blocked });
        this.blocked = res.blocked;
        block.textContent = this.blocked ? t('rp.unblock') : t('rp.block');
        block.setAttribute('aria-pressed', String(this.blocked));
        toast(this.blocked ? t('rp.blocked', { name }) : t('rp.unblocked', { name }), 'info');
      } catch (err) {
        toast(err.message, 'error');
      }
    };
    return [
      h('button.btn.small.ghost#report', { type: 'button', onclick: (e) => openReport({ user: name }, name, e.currentTarget) }, t('rp.report')),
      block,
    ];
  }

  /** A card per rating, and the graph of the one chosen. */
  ratingsCard(own) {
    const ratings = this.prof.ratings || [];
    const box = h('section.card.profile-ratings', { 'aria-labelledby': 'ratings-title' }, h('h2#ratings-title', t('pr.ratings')));
    if (!ratings.length) {
      box.append(h('p.empty', own ? t('pr.noRatedOwn') : t('pr.noRated')));
      return box;
    }
    this.cards.textContent = '';
    ratings.forEach((r, i) => this.cards.append(h('button.rating-card', {
      type: 'button', 'aria-pressed': String(i === this.chosen), 'aria-controls': 'chart-box', 'data-game': r.game, 'data-family': r.family,
      onclick: () => this.choose(i),
    },
    h('span.rc-title', `${this.gameTitle(r.game)} · ${variantName(r.family)}`),
    h('strong.rc-rating', { title: r.provisional ? t('pr.provisional') : t('pr.deviation', { rd: r.rd }) }, r.display || String(r.rating)),
    h('span.rc-games', tn('pr.games', r.games || 0)),
    h('span.rc-record', h('abbr', { title: t('pr.winsLower') }, t('pr.W')), ` ${r.wins || 0} · `, h('abbr', { title: t('pr.drawsLower') }, t('pr.D')), ` ${r.draws || 0} · `, h('abbr', { title: t('pr.lossesLower') }, t('pr.L')), ` ${r.losses || 0}`))));
    this.chartBox.id = 'chart-box';
    box.append(this.cards, h('figure.chart-figure', { 'aria-labelledby': 'chart-title' }, this.chartTitle, this.chartBox));
    return box;
  }

  /** The finished games, filtered by game and result. */
  gamesCard() {
    const filter = this.filter;
    const gameItems = [['', t('pr.all')], ...((this.meta && this.meta.games) || []).map((g) => [g.name, g.title])];
    const head = [[t('pr.result')], [t('pr.opponent')], [t('home.game')], [t('pr.moves'), 'col-moves'], [t('pr.date'), 'col-date'], ['', 'col-replay']];
    return h('section.card.profile-games', { 'aria-labelledby': 'games-title' },
      h('h2#games-title', t('lb.games')),
      h('div.filters',
        segmented('filter-game', t('home.game'), gameItems, filter.game, (v) => { filter.game = v; this.renderRows(); }),
        segmented('filter-result', t('pr.result'), [['', t('pr.all')], ['win', t('pr.wins')], ['loss', t('pr.losses')], ['draw', t('pr.draws')]], filter.result, (v) => { filter.result = v; this.renderRows(); })),
      this.count,
      h('div.table-wrap', h('table.games.profile-table',
        h('thead', h('tr', head.map(([text, cls]) => h('th', { scope: 'col', class: cls || null }, text)))),
        this.body)),
      this.empty, this.moreBtn);
  }

  choose(i) {
    this.chosen = i;
    this.cards.querySelectorAll('.rating-card').forEach((c, j) => c.setAttribute('aria-pressed', String(j === i)));
    this.drawChart();
  }

  drawChart() {
    const r = (this.prof.ratings || [])[this.chosen];
    if (!r) return;
    const label = `${this.gameTitle(r.game)} · ${r.family}`;
    this.chartTitle.textContent = t('pr.history', { label });
    this.chartBox.textContent = '';
    const hist = r.history || [];
    if (!hist.length) {
      this.chartBox.append(h('p.empty', t('pr.noHistory')));
      return;
    }
    this.chartBox.append(ratingChart(hist, this.chartBox.clientWidth || 600, t('pr.historyLabel', { label })));
  }

  matches(g) {
    const filter = this.filter;
    if (filter.game && g.game !== filter.game) return false;
    return !filter.result || outcomeFor(g.result, this.sideOf(g)) === filter.result;
  }

  row(g) {
    const i = this.sideOf(g);
    const out = outcomeFor(g.result, i);
    const opp = i >= 0 ? 1 - i : 1;
    const href = `/g/${encodeURIComponent(g.id)}`;
    return h('tr', { 'data-id': g.id },
      h('td', h('span.outcome', { class: out || null }, OUTCOME[out] || shortResult(g.result) || '—'),
        out ? h('small', ' ' + shortResult(g.result)) : null, g.reason ? h('small.reason', ' ' + endingWords(g.reason, gameSpec(this.meta, g.game))) : null),
      h('td', playerTag((g.players || [])[opp], (g.ratings || [])[opp], true, g.users ? g.users[opp] !== '' : undefined)),
      h('td', h('a', { href }, this.gameTitle(g.game)),
        h('small.rules', ' ' + [g.rated ? t('home.rated') : t('home.casual'), clockLabel(g.clock), rulesLabel(this.meta, g.game, g.rules)].filter(Boolean).join(' · '))),
      h('td.col-moves', g.moves == null ? '' : String(moveCount(g.moves))),
      h('td.col-date', { title: formatDate(g.updated || g.created) }, formatDay(g.updated || g.created)),
      h('td.col-replay', h('a.btn.small.ghost', { href, 'aria-label': t('pr.replayLabel', { name: (g.players || [])[opp] ? playerName(g.players[opp]) : t('pr.theOpponent') }) }, t('pr.replay'))));
  }

  renderRows() {
    const { games, more, filter } = this;
    const shown = games.filter((g) => this.matches(g));
    this.body.textContent = '';
    for (const g of shown) this.body.append(this.row(g));
    const filtered = filter.game || filter.result;
    this.count.textContent = games.length
      ? filtered ? tn('pr.shownOf', games.length, { shown: formatNumber(shown.length) }) : tn(more ? 'pr.gamesSoFar' : 'pr.games', games.length)
      : '';
    this.empty.hidden = shown.length > 0;
    this.empty.textContent = games.length ? t('pr.noMatch') + (more ? ' ' + t('pr.olderMay') : '') : t('pr.noFinished');
    this.moreBtn.hidden = !more;
  }

  async loadMore() {
    this.moreBtn.disabled = true;
    try {
      const q = new URLSearchParams({ before: this.last, limit: String(PAGE) });
      const res = await api('GET', `/api/users/${this.enc}/games?${q}`);
      if (this.destroyed) return;
      const page = (res && res.games) || [];
      const seen = new Set(this.games.map((g) => g.id));
      this.games = this.games.concat(page.filter((g) => !seen.has(g.id)));
      if (page.length) this.last = page[page.length - 1].id;
      this.more = page.length >= PAGE;
      this.renderRows();
      if (!this.more) {
        // The button is gone: the focus goes to the last game's link.
        const links = this.body.querySelectorAll('a.btn');
        if (links.length) links[links.length - 1].focus();
      }
    } catch (err) {
      toast(err.message, 'error');
    }
    this.moreBtn.disabled = false;
  }

  /** Logged in or out: whether this is "you" changes. */
  refresh() {
    if (this.prof && !this.destroyed) this.render();
  }

  destroy() {
    this.destroyed = true;
    if (this.observer) this.observer.disconnect();
  }
}

export function profileView(name) {
  return new ProfilePage(name);
}
