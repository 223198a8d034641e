// The archive (/#/archive): the finished games played here and imported,
// the newest first, found by a search (GET /api/archive/games): a player,
// an opponent, the result, a date range, the game and its rules, the
// source, and a position (every game that reached it, up to the board's
// symmetries: the opening explorer links here with it). The search is the
// page's URL (/#/archive?player=ann&result=win&page=2), so a search is a
// link; its results come a page of 50 at a time, sorted by the day they
// ended, each a link to the game.

import { h, formatDate, toast } from './dom.js';
import { api, getMeta, gameTitle } from './api.js';
import { shortResult, rulesLabel, moveCount, variantName } from './words.js';
import { gameSpec } from './games.js';
import { playersLine } from './players.js';
import { t as tr, formatNumber } from './i18n.js';

/** The search's fields, as the URL and the API name them. */
const FIELDS = ['player', 'opponent', 'result', 'from', 'to', 'game', 'rules', 'source', 'position', 'moves', 'sort', 'page'];
const RESULTS = ['', 'win', 'draw', 'loss', '1-0', '0-1'];
const SOURCES = ['', 'site', 'boardspace', 'import'];

/**
 * The address of a search just submitted: the view of that address (the
 * router makes one for the new URL, sometimes twice: a new hash is a
 * hashchange and a popstate) puts the focus on its results.
 */
let focusResults = '';

/** The search of a URL's query: only the fields the API takes, without empty ones. */
export function searchOf(params) {
  const q = new URLSearchParams();
  for (const f of FIELDS) {
    const v = (params.get(f) || '').trim();
    if (v) q.set(f, v);
  }
  return q;
}

/** The archive's address for a search. */
function hrefOf(q) {
  const s = q.toString();
  return '/#/archive' + (s ? '?' + s : '');
}

export function archiveView(params) {
  const search = searchOf(params || new URLSearchParams());
  const page = Math.max(1, Number(search.get('page')) || 1);
  // A search by more than a position opens its form.
  const searching = [...search.keys()].some((k) => !['page', 'position', 'moves'].includes(k));
  const body = h('tbody');
  const empty = h('p.empty', { hidden: true }, searching || search.has('position') ? tr('se.none') : tr('pr.noFinished'));
  const summary = h('h2#archive-results.se-summary', { tabindex: '-1' }, tr('ex.loading'));
  const pager = h('nav.se-pager', { 'aria-label': tr('se.pages'), hidden: true });
  const form = h('form.se-form', { role: 'search', 'aria-labelledby': 'archive-search-title' });
  const node = h('section.card.archive', { 'aria-labelledby': 'archive-title' },
    h('h1#archive-title', tr('ar.title')),
    h('details.se-box', { open: searching || null },
      h('summary#archive-search-title', tr('se.title')), form),
    h('div.se-position', { hidden: !search.has('position') && !search.has('moves') }),
    summary,
    h('div.table-wrap', h('table.games',
      h('thead', h('tr', [tr('home.game'), tr('ar.players'), tr('pr.result'), tr('pr.moves'), tr('ar.ended'), ''].map((t) => h('th', { scope: 'col' }, t)))),
      body)),
    empty, pager);
  let meta = null;

  /** The form, filled from the search. */
  function renderForm() {
    const text = (name, label, attrs) => h('div.field',
      h('label', { for: 'se-' + name }, label),
      h('input#se-' + name, { name, value: search.get(name) || '', autocomplete: 'off', ...attrs }));
    const select = (name, label, options, attrs) => h('div.field',
      h('label', { for: 'se-' + name }, label),
      h('select#se-' + name, { name, ...attrs }, options.map(([v, words]) => h('option', { value: v, selected: (search.get(name) || '') === v }, words))));
    const gameName = search.get('game') || '';
    const spec = gameName ? gameSpec(meta, gameName) : null;
    const rulesSel = select('rules', tr('se.rules'), [['', tr('ex.any')], ...((spec && spec.variants) || []).map((v) => [v.name, variantName(v.name)])],
      { disabled: !spec });
    const gameSel = select('game', tr('home.game'), [['', tr('ex.any')], ...((meta && meta.games) || []).map((g) => [g.name, g.title])], {
      onchange: () => {
        // The rules are the game's: another game's choices in their place.
        search.set('game', gameSel.querySelector('select').value);
        search.delete('rules');
        const saved = new FormData(form);
        renderForm();
        for (const [k, v] of saved) if (k !== 'rules' && k !== 'game' && form.elements[k]) form.elements[k].value = v;
        form.elements.game.focus();
      },
    });
    form.textContent = '';
    form.append(...[
      h('div.se-grid',
        text('player', tr('se.player'), { type: 'text', maxlength: 64, spellcheck: 'false' }),
        text('opponent', tr('se.opponent'), { type: 'text', maxlength: 64, spellcheck: 'false' }),
        select('result', tr('pr.result'), RESULTS.map((r) => [r, tr('se.result.' + (r || 'any'))])),
        text('from', tr('se.from'), { type: 'date' }),
        text('to', tr('se.to'), { type: 'date' }),
        gameSel,
        rulesSel,
        select('source', tr('se.source'), SOURCES.map((s) => [s, tr('se.source.' + (s || 'any'))])),
        select('sort', tr('se.sort'), [['newest', tr('se.newest')], ['oldest', tr('se.oldest')]])),
      search.has('position') ? h('input', { type: 'hidden', name: 'position', value: search.get('position') }) : null,
      search.has('moves') ? h('input', { type: 'hidden', name: 'moves', value: search.get('moves') }) : null,
      h('div.se-actions',
        h('button.btn.primary#se-go', { type: 'submit' }, tr('se.search')),
        h('a.btn.ghost#se-clear', { href: '/#/archive' }, tr('se.clear'))),
    ].filter(Boolean));
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = searchOf(new FormData(form));
    q.delete('page');
    if (q.get('sort') === 'newest') q.delete('sort');
    focusResults = hrefOf(q).slice(1);
    location.hash = focusResults;
  });

  /** The position searched for, and the search without it. */
  function renderPosition() {
    const box = node.querySelector('.se-position');
    if (box.hidden) return;
    const without = new URLSearchParams(search);
    without.delete('position');
    without.delete('moves');
    without.delete('page');
    box.append(h('p', tr('se.position')), h('code.se-pos', search.get('position') || ''),
      h('p', h('a.link#se-position-clear', { href: hrefOf(without) }, tr('se.positionClear'))));
  }

  /** A page's link in the pager. */
  function pageLink(n, text, id) {
    const q = new URLSearchParams(search);
    if (n > 1) q.set('page', String(n));
    else q.delete('page');
    return h('a.btn.small#' + id, { href: hrefOf(q) }, text);
  }

  async function load() {
    try {
      const res = await api('GET', '/api/archive/games?' + search.toString());
      const games = (res && res.games) || [];
      for (const g of games) body.append(row(g));
      empty.hidden = games.length > 0;
      const first = (page - 1) * 50 + 1;
      summary.textContent = games.length ? tr('se.showing', { from: formatNumber(first), to: formatNumber(first + games.length - 1) }) : tr('se.results');
      pager.textContent = '';
      pager.hidden = page === 1 && !res.more;
      if (page > 1) pager.append(pageLink(page - 1, tr('se.prev'), 'se-prev'));
      pager.append(h('span.se-page', tr('se.page', { n: formatNumber(page) })));
      if (res.more) pager.append(pageLink(page + 1, tr('se.next'), 'se-next'));
    } catch (err) {
      summary.textContent = tr('se.results');
      empty.hidden = false;
      empty.textContent = err.message;
      empty.classList.add('error');
      toast(err.message, 'error');
    }
    if (focusResults && focusResults === location.hash) summary.focus();
    else focusResults = '';
  }

  /** One game's row: the game, its players, result, moves, the day it ended, and its links. */
  function row(g) {
    const href = `/g/${encodeURIComponent(g.id)}`;
    const tags = [rulesLabel(meta, g.game, g.rules), g.speed ? tr('ex.speed.' + g.speed) : '', g.rated ? tr('home.rated') : tr('home.casual')];
    if (g.source !== 'site') tags.push(tr('se.source.' + g.source));
    return h('tr', { 'data-id': g.id },
      h('td', h('a', { href }, gameTitle(g.game, g.game)), h('small.rules', ' ' + tags.filter(Boolean).join(' · ')),
        g.ply != null ? h('a.link.se-at', { href: `/analysis?id=${encodeURIComponent(g.id)}&ply=${g.ply}` }, tr('se.atMove', { n: formatNumber(moveCount(g.ply)) })) : null),
      h('td.players', playersLine(g.players, null, true, g.users)),
      h('td', h('strong', shortResult(g.result))),
      h('td', String(moveCount(g.plies))),
      h('td', formatDate(g.ended)),
      h('td', h('a.btn.small.ghost', { href }, tr('pr.replay'))));
  }

  async function mounted() {
    meta = await getMeta().catch(() => null);
    renderForm();
    renderPosition();
    await load();
  }
  return { node, mounted };
}
