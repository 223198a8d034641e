// The home page: start a game against the computer or a person, join an
// open game, or watch a live one.

import { h, toast } from './dom.js';
import { api, getMeta } from './api.js';
import { shortResult, rulesLabel } from './words.js';
import { myGames, forgetGame } from './mine.js';
import { gameSpec } from './games.js';

const CLOCKS = [
  ['', 'No clock'], ['1+0', '1+0 bullet'], ['3+2', '3+2 blitz'], ['5+3', '5+3 blitz'],
  ['10+5', '10+5 rapid'], ['15+10', '15+10 rapid'], ['30+20', '30+20 classical'],
];

let uid = 0;

/** A row of radio buttons that look like one segmented control. */
function segmented(name, legend, items, value, onchange) {
  const id = 'seg' + ++uid;
  return h('fieldset.field.segmented', { 'data-name': name },
    h('legend', legend),
    h('div.seg-row', items.map(([v, label, title]) => {
      const rid = `${id}-${v}`;
      return [
        h('input', { type: 'radio', name: id, id: rid, value: v, checked: v === value, onchange: () => onchange(v) }),
        h('label', { for: rid, title: title || null }, label),
      ];
    })));
}

/** Remembers the last choices of the form between visits. */
function saved() {
  try {
    return JSON.parse(localStorage.getItem('newgame') || '{}');
  } catch (e) {
    return {};
  }
}

export function homeView() {
  const node = h('div.home');
  const formBox = h('section.card.create', { 'aria-labelledby': 'create-title' });
  const openBox = h('section.card.list', { 'aria-labelledby': 'open-title' });
  const liveBox = h('section.card.list', { 'aria-labelledby': 'live-title' });
  const mineBox = h('section.card.list', { 'aria-labelledby': 'mine-title', hidden: true });
  node.append(formBox, h('div.lists', mineBox, openBox, liveBox));
  let timer = null;
  let meta = null;

  const s = Object.assign({ game: '', opponent: 'computer', level: 3, color: 'random', clock: '', variant: '', options: {}, public: true }, saved());

  /** The chosen game's entry of the meta; the server's first game until one is chosen. */
  function spec() {
    return gameSpec(meta, s.game) || meta.games[0];
  }

  function renderForm() {
    const g = spec();
    s.game = g.name;
    const variants = (g.variants || []).length ? g.variants : [{ name: 'standard', summary: 'the default rules' }];
    if (!variants.some((v) => v.name === s.variant)) s.variant = variants[0].name;
    const opts = (s.options[g.name] = s.options[g.name] || {});
    const levelNames = new Map((meta.levels || []).map((l) => [l.level, l.name]));
    const form = h('form.create-form', { onsubmit: submit },
      segmented('game', 'Game', meta.games.map((x) => [x.name, x.title]), s.game, (v) => { s.game = v; renderForm(); }),
      segmented('opponent', 'Opponent', [['computer', 'Computer'], ['human', 'A friend']], s.opponent, (v) => { s.opponent = v; renderForm(); }),
      h('div.field',
        h('label', { for: 'variant' }, 'Rules'),
        h('select#variant', { onchange: (e) => { s.variant = e.target.value; } },
          variants.map((v) => h('option', { value: v.name, selected: v.name === s.variant }, `${v.name}${v.summary ? ' — ' + v.summary : ''}`)))),
      (g.options || []).length ? h('details.field.options',
        h('summary', 'Rule options'),
        g.options.map((o) => h('div.option',
          h('label', { for: 'opt-' + o.name, title: o.summary || '' }, o.name),
          h('select', { id: 'opt-' + o.name, onchange: (e) => { opts[o.name] = e.target.value; } },
            h('option', { value: '' }, 'as the rules say'),
            o.values.map((v) => h('option', { value: v, selected: opts[o.name] === v }, v))),
          o.summary ? h('small', o.summary) : null))) : null,
      s.opponent === 'computer'
        ? segmented('level', 'Level', [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n), levelNames.get(n) || '']), String(s.level), (v) => { s.level = Number(v); })
        : null,
      segmented('color', 'You play', [['first', g.sides[0].name], ['random', 'Random'], ['second', g.sides[1].name]], s.color, (v) => { s.color = v; }),
      h('div.field',
        h('label', { for: 'clock' }, 'Clock (minutes + seconds a move)'),
        h('select#clock', { onchange: (e) => { s.clock = e.target.value; } },
          CLOCKS.map(([v, label]) => h('option', { value: v, selected: v === s.clock }, label)))),
      s.opponent === 'human'
        ? h('div.field.check',
          h('input#public', { type: 'checkbox', checked: s.public, onchange: (e) => { s.public = e.target.checked; } }),
          h('label', { for: 'public' }, 'Public: listed in the open games (anyone can join), then live and in the archive'))
        : null,
      h('button.btn.primary.big', { type: 'submit', id: 'start' }, s.opponent === 'computer' ? 'Play against the computer' : 'Create an invitation'));
    formBox.textContent = '';
    formBox.append(h('h1#create-title', 'New game'), form);
  }

  async function submit(e) {
    e.preventDefault();
    const g = spec();
    const opts = s.options[g.name] || {};
    const parts = [];
    if (s.variant && s.variant !== 'standard') parts.push(s.variant);
    for (const [k, v] of Object.entries(opts)) if (v) parts.push(`${k}=${v}`);
    const body = {
      game: g.name, rules: parts.join(','), opponent: s.opponent, level: s.level,
      color: s.color, clock: s.clock, public: s.opponent === 'human' ? !!s.public : true,
    };
    localStorage.setItem('newgame', JSON.stringify(s));
    const btn = formBox.querySelector('#start');
    btn.disabled = true;
    try {
      const res = await api('POST', '/api/games', body);
      if (res.invite) localStorage.setItem('invite_' + res.id, res.invite);
      location.assign(res.url || `/g/${res.id}`);
    } catch (err) {
      toast(err.message, 'error');
      btn.disabled = false;
    }
  }

  function gameRow(g, action) {
    return h('li.game-row',
      h('a.row-link', { href: `/g/${g.id}` },
        h('span.row-title', g.title || g.game),
        h('span.row-players', (g.players || []).map((p) => (p === 'human' ? 'Anonymous' : p || '…')).join(' vs ')),
        h('span.row-meta', [rulesLabel(meta, g.game, g.rules), g.moves ? `${g.moves} moves` : null, shortResult(g.result)].filter(Boolean).join(' · '))),
      action);
  }

  async function join(g) {
    try {
      await api('POST', `/api/games/${g.id}/join`, {});
      location.assign(`/g/${g.id}`);
    } catch (err) {
      toast(err.message, 'error');
      refresh();
    }
  }

  /** The games this browser plays in and that are not over: their states, read with the seat cookies. */
  async function refreshMine() {
    const ids = myGames();
    const states = await Promise.all(ids.map((id) => api('GET', `/api/games/${id}`).catch((err) => {
      if (err.status === 404) forgetGame(id);
      return null;
    })));
    const going = states.filter((st) => st && st.seat != null && st.status !== 'finished');
    mineBox.hidden = going.length === 0;
    mineBox.textContent = '';
    mineBox.append(h('h2#mine-title', 'Your games'), h('ul.game-list', going.map((st) => {
      const turn = st.status === 'playing' && st.turn === st.seat;
      const other = st.sides[1 - st.seat];
      const who = other.player === 'human' ? 'Anonymous' : other.player || 'waiting for an opponent';
      return h('li.game-row',
        h('a.row-link', { href: `/g/${st.id}` },
          h('span.row-title', st.title),
          h('span.row-players', `${st.sides[st.seat].name} vs ${who}`),
          h('span.row-meta', [rulesLabel(meta, st.game, st.rules), `${st.moves.length} moves`].join(' · '))),
        h('a.btn.small' + (turn ? '.primary' : '.ghost'), { href: `/g/${st.id}` }, turn ? 'Your turn' : st.status === 'waiting' ? 'Waiting' : 'Open'));
    })));
  }

  async function refresh() {
    try {
      const [open, live] = await Promise.all([api('GET', '/api/games?status=open'), api('GET', '/api/games?status=live')]);
      openBox.textContent = '';
      openBox.append(h('h2#open-title', 'Open games'));
      const og = (open && open.games) || [];
      openBox.append(og.length
        ? h('ul.game-list', og.map((g) => gameRow(g, h('button.btn.small', { type: 'button', onclick: () => join(g) }, 'Join'))))
        : h('p.empty', 'No one is waiting. Create an invitation and it shows up here.'));
      liveBox.textContent = '';
      liveBox.append(h('h2#live-title', 'Live now'));
      const lg = (live && live.games) || [];
      liveBox.append(lg.length
        ? h('ul.game-list', lg.map((g) => gameRow(g, h('a.btn.small.ghost', { href: `/g/${g.id}` }, 'Watch'))))
        : h('p.empty', 'No games are being played right now.'));
    } catch (err) {
      openBox.textContent = '';
      openBox.append(h('h2#open-title', 'Open games'), h('p.empty.error', err.message));
    }
  }

  return {
    node,
    async mounted() {
      try {
        meta = await getMeta();
      } catch (err) {
        formBox.append(h('p.error', `The server's game list could not be loaded: ${err.message}`));
        return;
      }
      renderForm();
      refreshMine();
      refresh();
      timer = setInterval(refresh, 5000);
    },
    destroy() {
      clearInterval(timer);
    },
  };
}
