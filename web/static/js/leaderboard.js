// The leaderboard, /#/leaderboard?game=<name>&family=<variant>: a tab per
// game and rating family (the meta's games and their variants), each the
// best established ratings (GET /api/leaderboard).

import { t as tr } from './i18n.js';
import { h } from './dom.js';
import { api, metaFor } from './api.js';
import { gameSpec } from './games.js';
import { profileHref } from './players.js';
import { loadLearn } from './learn.js';
import { variantName, variantSummary } from './words.js';

/** The leaderboard page of the URL's params (the tab to show first). */
class LeaderboardPage {
  constructor(params) {
    this.params = params;
    this.node = h('section.card.leaderboard', { 'aria-labelledby': 'leaderboard-title' }, h('h1#leaderboard-title', tr('nav.leaderboard')));
    this.tabs = h('div.tabs', { role: 'tablist', 'aria-label': tr('lb.tabs') });
    this.panel = h('div.tab-panel', { role: 'tabpanel', id: 'leaderboard-panel', tabindex: '0' });
    this.list = [];
    this.at = 0;
    this.asked = 0; // which request is the latest, so that a slow answer does not overwrite a newer one
    this.destroyed = false;
  }

  select(i, focus) {
    this.at = i;
    const buttons = [...this.tabs.children];
    buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(j === i));
      b.tabIndex = j === i ? 0 : -1;
    });
    this.panel.setAttribute('aria-labelledby', buttons[i].id);
    if (focus) buttons[i].focus();
    const t = this.list[i];
    // The tab is in the address, for a link or a reload (no hashchange, so no new view).
    history.replaceState(null, '', `/#/leaderboard?${new URLSearchParams({ game: t.game, family: t.family })}`);
    this.load(t);
  }

  /** The best ratings of tab t. */
  async load(t) {
    const n = ++this.asked;
    const panel = this.panel;
    panel.setAttribute('aria-busy', 'true');
    let res;
    try {
      res = await api('GET', `/api/leaderboard?${new URLSearchParams({ game: t.game, family: t.family })}`);
    } catch (err) {
      if (n !== this.asked || this.destroyed) return;
      panel.removeAttribute('aria-busy');
      panel.textContent = '';
      panel.append(h('p.empty.error', err.message));
      return;
    }
    if (n !== this.asked || this.destroyed) return;
    panel.removeAttribute('aria-busy');
    panel.textContent = '';
    const players = (res && res.players) || [];
    if (!players.length) {
      panel.append(h('p.empty', tr('lb.empty')));
      return;
    }
    panel.append(h('div.table-wrap', h('table.games.ranking',
      h('caption.visually-hidden', `${t.label}: the best ratings`),
      h('thead', h('tr', ['#', tr('lb.player'), tr('lb.rating'), tr('lb.games')].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', players.map((p, i) => h('tr',
        h('td.rank', String(i + 1)),
        h('td', h('a', { href: profileHref(p.name) }, p.name)),
        h('td.num', { title: p.rd != null ? `± ${p.rd}` : null }, String(p.rating)),
        h('td.num', String(p.games ?? ''))))))));
  }

  /** The arrow keys, Home and End move between the tabs. */
  key(e) {
    const n = this.list.length;
    const keys = { ArrowRight: (this.at + 1) % n, ArrowLeft: (this.at + n - 1) % n, Home: 0, End: n - 1 };
    if (e.key in keys) {
      e.preventDefault();
      this.select(keys[e.key], true);
    }
  }

  async mounted() {
    const meta = await metaFor(this.node);
    if (!meta) return;
    // Each game's lesson module words its variants.
    const words = {};
    await Promise.all(meta.games.map((g) => loadLearn(g.name).then((m) => { words[g.name] = m; }, () => {})));
    if (this.destroyed) return;
    const list = this.list;
    for (const g of meta.games) {
      for (const v of g.variants || []) {
        list.push({ game: g.name, family: v.name, title: g.title, label: `${g.title} · ${variantName(v.name)}`, summary: variantSummary(words[g.name], v) });
      }
    }
    if (!list.length) {
      this.node.append(h('p.empty', tr('lb.noVariants')));
      return;
    }
    list.forEach((t, i) => this.tabs.append(h('button.tab', {
      type: 'button', role: 'tab', id: `lb-tab-${i}`, 'aria-controls': 'leaderboard-panel', 'aria-selected': 'false', tabindex: '-1',
      'data-game': t.game, 'data-family': t.family, title: t.summary || null, onclick: () => this.select(i, false),
    }, h('span.tab-game', t.title), ' ', h('span.tab-family', variantName(t.family)))));
    this.tabs.addEventListener('keydown', (e) => this.key(e));
    this.node.append(this.tabs, this.panel);
    const want = gameSpec(meta, this.params.get('game'));
    const i = list.findIndex((t) => want && t.game === want.name && t.family === (this.params.get('family') || 'standard'));
    this.select(i >= 0 ? i : 0, false);
  }

  destroy() {
    this.destroyed = true;
  }
}

export function leaderboardView(params) {
  return new LeaderboardPage(params);
}
