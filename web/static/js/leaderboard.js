// The leaderboard, /#/leaderboard?game=<name>&family=<variant>: a tab per
// game and rating family (the meta's games and their variants), each the
// best established ratings (GET /api/leaderboard).

import { t as tr } from './i18n.js';
import { h } from './dom.js';
import { api, metaFor } from './api.js';
import { gameSpec } from './games.js';
import { profileHref } from './players.js';

export function leaderboardView(params) {
  const node = h('section.card.leaderboard', { 'aria-labelledby': 'leaderboard-title' }, h('h1#leaderboard-title', tr('nav.leaderboard')));
  const tabs = h('div.tabs', { role: 'tablist', 'aria-label': tr('lb.tabs') });
  const panel = h('div.tab-panel', { role: 'tabpanel', id: 'leaderboard-panel', tabindex: '0' });
  let list = [];
  let at = 0;
  let asked = 0; // which request is the latest, so that a slow answer does not overwrite a newer one
  let destroyed = false;

  function select(i, focus) {
    at = i;
    const buttons = [...tabs.children];
    buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(j === i));
      b.tabIndex = j === i ? 0 : -1;
    });
    panel.setAttribute('aria-labelledby', buttons[i].id);
    if (focus) buttons[i].focus();
    const t = list[i];
    // The tab is in the address, for a link or a reload (no hashchange, so no new view).
    history.replaceState(null, '', `/#/leaderboard?${new URLSearchParams({ game: t.game, family: t.family })}`);
    load(t);
  }

  async function load(t) {
    const n = ++asked;
    panel.setAttribute('aria-busy', 'true');
    let res;
    try {
      res = await api('GET', `/api/leaderboard?${new URLSearchParams({ game: t.game, family: t.family })}`);
    } catch (err) {
      if (n !== asked || destroyed) return;
      panel.removeAttribute('aria-busy');
      panel.textContent = '';
      panel.append(h('p.empty.error', err.message));
      return;
    }
    if (n !== asked || destroyed) return;
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

  function onKey(e) {
    const n = list.length;
    const keys = { ArrowRight: (at + 1) % n, ArrowLeft: (at + n - 1) % n, Home: 0, End: n - 1 };
    if (e.key in keys) {
      e.preventDefault();
      select(keys[e.key], true);
    }
  }

  return {
    node,
    async mounted() {
      const meta = await metaFor(node);
      if (!meta) return;
      if (destroyed) return;
      for (const g of meta.games) {
        for (const v of g.variants || []) list.push({ game: g.name, family: v.name, title: g.title, label: `${g.title} · ${v.name}`, summary: v.summary });
      }
      if (!list.length) {
        node.append(h('p.empty', tr('lb.noVariants')));
        return;
      }
      list.forEach((t, i) => tabs.append(h('button.tab', {
        type: 'button', role: 'tab', id: `lb-tab-${i}`, 'aria-controls': 'leaderboard-panel', 'aria-selected': 'false', tabindex: '-1',
        'data-game': t.game, 'data-family': t.family, title: t.summary || null, onclick: () => select(i, false),
      }, h('span.tab-game', t.title), ' ', h('span.tab-family', t.family))));
      tabs.addEventListener('keydown', onKey);
      node.append(tabs, panel);
      const want = gameSpec(meta, params.get('game'));
      const i = list.findIndex((t) => want && t.game === want.name && t.family === (params.get('family') || 'standard'));
      select(i >= 0 ? i : 0, false);
    },
    destroy() {
      destroyed = true;
    },
  };
}
