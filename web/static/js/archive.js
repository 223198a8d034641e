// The archive: finished games, newest first, a page at a time.

import { h, formatDate, toast } from './dom.js';
import { api, getMeta, gameTitle } from './api.js';
import { shortResult, rulesLabel, clockLabel, endingWords, moveCount } from './words.js';
import { gameSpec } from './games.js';
import { playersLine } from './players.js';
import { t as tr } from './i18n.js';

const PAGE = 50;

export function archiveView() {
  const body = h('tbody');
  const more = h('button.btn', { type: 'button', hidden: true }, tr('ar.older'));
  const empty = h('p.empty', { hidden: true }, tr('pr.noFinished'));
  const node = h('section.card.archive', { 'aria-labelledby': 'archive-title' },
    h('h1#archive-title', tr('ar.title')),
    h('div.table-wrap', h('table.games',
      h('thead', h('tr', [tr('home.game'), tr('ar.players'), tr('pr.result'), tr('pr.moves'), tr('ar.ended'), ''].map((t) => h('th', { scope: 'col' }, t)))),
      body)),
    empty, more);
  let last = '';

  let meta = null;

  async function load() {
    more.disabled = true;
    if (!meta) meta = await getMeta().catch(() => null);
    try {
      const q = new URLSearchParams({ status: 'finished', limit: String(PAGE) });
      if (last) q.set('before', last);
      const res = await api('GET', '/api/games?' + q);
      const games = (res && res.games) || [];
      for (const g of games) {
        const href = `/g/${g.id}`;
        body.append(h('tr',
          h('td', h('a', { href }, gameTitle(g.game, g.title)),
            h('small.rules', ' ' + [rulesLabel(meta, g.game, g.rules), clockLabel(g.clock), g.rated ? tr('home.rated') : tr('home.casual')].filter(Boolean).join(' · '))),
          h('td.players', playersLine(g.players, g.ratings, true, g.users, g.bots)),
          h('td', h('strong', shortResult(g.result)), g.reason ? h('small', ' ' + endingWords(g.reason, gameSpec(meta, g.game))) : null),
          h('td', g.moves == null ? '' : String(moveCount(g.moves))),
          h('td', formatDate(g.updated || g.created)),
          h('td', h('a.btn.small.ghost', { href }, tr('pr.replay')))));
        last = g.id;
      }
      empty.hidden = body.childElementCount > 0;
      more.hidden = games.length < PAGE;
    } catch (err) {
      toast(err.message, 'error');
    }
    more.disabled = false;
  }
  more.onclick = load;
  return { node, mounted: load };
}
