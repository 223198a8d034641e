// The home page: start a game against the computer or a person (rated when
// logged in), quick pairing by clock, the open games (the lobby, kept live
// while the page is visible), the games of this browser and the games
// being played.

import { h, toast, segmented, syncList } from './dom.js';
import { api, getMeta } from './api.js';
import { shortResult, rulesLabel, clockLabel, rangeLabel, stateClock, playerName, clockDays } from './words.js';
import { myGames, forgetGame } from './mine.js';
import { gameSpec } from './games.js';
import { account, loggedIn, whenAccount, openLogin } from './account.js';
import { playerTag, playersLine } from './players.js';
import { t, tn, has, getLang, sideText } from './i18n.js';
import { dailyPuzzleCard } from './puzzles.js';
import { loadLearn } from './learn.js';

const CLOCKS = () => [
  ['', t('home.noClock')], ['1+0', `1+0 ${t('home.bullet')}`], ['3+2', `3+2 ${t('home.blitz')}`], ['5+3', `5+3 ${t('home.blitz')}`],
  ['10+5', `10+5 ${t('home.rapid')}`], ['15+10', `15+10 ${t('home.rapid')}`], ['30+20', `30+20 ${t('home.classical')}`],
];

/** Correspondence clocks: days a move, for games against a person. */
const DAYS = () => [1, 2, 3, 5, 7, 14].map((d) => [`${d}d`, tn('w.days', d)]);

/** The quick pairing's clocks, with their kind. */
const QUICK = [['3+2', 'blitz'], ['5+3', 'blitz'], ['10+5', 'rapid'], ['15+10', 'rapid']];

/** How often the lobby is asked again while the page is visible. */
const POLL_MS = 2000;
/** Every how many polls the games of this browser are read again. */
const MINE_EVERY = 5;

/** Remembers the last choices of the form between visits. */
function saved() {
  try {
    return JSON.parse(localStorage.getItem('newgame') || '{}');
  } catch (e) {
    return {};
  }
}

/** A rating bound as typed: 0 for none, null when it is not a whole number. */
function bound(text) {
  const t = String(text ?? '').trim();
  if (!t) return 0;
  return /^\d{1,4}$/.test(t) ? Number(t) : null;
}

/** A row's second line: parts joined by " · " (strings or nodes; empty ones left out). */
function metaLine(parts) {
  const out = [];
  for (const p of parts) {
    if (!p) continue;
    if (out.length) out.push(' · ');
    out.push(p);
  }
  return h('span.row-meta', out);
}

const ratedTag = (rated) => (rated ? h('span.tag.rated', t('home.rated')) : h('span.tag', t('home.casual')));

/** The seat a waiting game's joiner gets: the summary's free, else the empty one. */
function freeSeat(g) {
  if (g.free === 0 || g.free === 1) return g.free;
  const i = (g.players || []).indexOf('');
  return i >= 0 ? i : 1;
}

export function homeView() {
  const node = h('div.home');
  const formBox = h('section.card.create', { 'aria-labelledby': 'create-title' });
  const quickBox = h('section.card.quick', { 'aria-labelledby': 'quick-title' });
  const openList = h('ul.game-list', { id: 'open-list' });
  const openEmpty = h('p.empty', t('home.loading'));
  const openBox = h('section.card.list', { 'aria-labelledby': 'open-title' }, h('h2#open-title', t('home.open')), openList, openEmpty);
  const liveList = h('ul.game-list', { id: 'live-list' });
  const liveEmpty = h('p.empty', t('home.loading'));
  const liveBox = h('section.card.list', { 'aria-labelledby': 'live-title' }, h('h2#live-title', t('home.live')), liveList, liveEmpty);
  const mineList = h('ul.game-list', { id: 'mine-list' });
  const mineBox = h('section.card.list', { 'aria-labelledby': 'mine-title', hidden: true }, h('h2#mine-title', t('home.mine')), mineList);
  // Learning: the rules and lessons of each game, and the daily puzzle.
  const learnLinks = h('p.form-buttons');
  const learnBox = h('section.card.learn-home', { 'aria-labelledby': 'learn-home-title' },
    h('h2#learn-home-title', t('learn.homeTitle')), h('p', t('learn.homeText')), learnLinks);
  getMeta().then((m) => {
    learnLinks.append(...m.games.map((g) => h('a.btn.small', { href: `/learn/${g.name}` }, g.title)),
      h('a.btn.small', { href: '/puzzles' }, t('nav.puzzles')));
  }).catch(() => {
    learnLinks.append(h('a.btn.small', { href: '/learn' }, t('nav.learn')));
  });
  node.append(h('div.home-side', formBox, learnBox, dailyPuzzleCard()), h('div.lists', mineBox, quickBox, openBox, liveBox));
  let meta = null;
  const words = {}; // each game's learning module, for its rule options in words
  let open = []; // the open games, as last read
  let mine = []; // the states of this browser's games that are not over
  let timer = null;
  let polls = 0;
  let polling = false;
  let destroyed = false;
  let pairing = false;

  const s = Object.assign({ game: '', opponent: 'computer', level: 3, color: 'random', clock: '', variant: '', options: {}, public: true, rated: false, minRating: '', maxRating: '' }, saved());

  /** The chosen game's entry of the meta; the server's first game until one is chosen. */
  function spec() {
    return gameSpec(meta, s.game) || meta.games[0];
  }

  /** Whether the form makes a rated game: a person opponent, logged in, the switch on, and variants to rate. */
  function ratedNow(g) {
    return s.opponent === 'human' && loggedIn() && !!s.rated && (g.variants || []).length > 0;
  }

  // ---- the new-game form

  function ratedField(g) {
    if (s.opponent !== 'human') return null;
    const can = loggedIn() && (g.variants || []).length > 0;
    const on = can && !!s.rated;
    let note;
    if (!loggedIn()) {
      note = [h('button.link-btn', { type: 'button', id: 'rated-login', onclick: (e) => openLogin('login', e.currentTarget) }, t('home.logIn')), ' ', t('home.toPlayRated')];
    } else if (!can) {
      note = t('home.noVariants');
    } else {
      note = on ? t('home.ratedNote') : t('home.casualNote');
    }
    return [
      h('div.field.switch-field',
        h('input.switch', {
          type: 'checkbox', role: 'switch', id: 'rated', checked: on, disabled: !can, 'aria-describedby': 'rated-note',
          onchange: (e) => { s.rated = e.target.checked; renderForm(); formBox.querySelector('#rated').focus(); },
        }),
        h('label', { for: 'rated' }, t('home.ratedLabel')),
        h('small.switch-note', { id: 'rated-note' }, note)),
      on ? h('fieldset.field.range',
        h('legend', t('home.range')),
        h('div.range-row',
          h('label', { for: 'min-rating' }, t('home.from')),
          h('input', { type: 'number', id: 'min-rating', inputmode: 'numeric', min: 400, max: 4000, step: 50, placeholder: t('home.any'), value: s.minRating, oninput: (e) => { s.minRating = e.target.value; } }),
          h('label', { for: 'max-rating' }, t('home.to')),
          h('input', { type: 'number', id: 'max-rating', inputmode: 'numeric', min: 400, max: 4000, step: 50, placeholder: t('home.any'), value: s.maxRating, oninput: (e) => { s.maxRating = e.target.value; } }))) : null,
    ];
  }

  // A variant's summary: the server's English, or in another language the
  // game's learning module's words for it when it has them.
  function variantSummary(g, v) {
    const lm = words[g.name];
    if (getLang() !== 'en' && lm && lm.variants && lm.variants[v.name]) return t(lm.variants[v.name]);
    return v.summary;
  }

  function renderForm() {
    const g = spec();
    s.game = g.name;
    const rated = ratedNow(g);
    // Days a move only against a person: the computer answers at once.
    if (s.opponent !== 'human' && clockDays(s.clock)) s.clock = '';
    // The default rules come first unless a variant is the standard one (a
    // rated game is played by a variant's name).
    const listed = g.variants || [];
    const variants = rated || listed.some((v) => v.name === 'standard') ? listed : [{ name: 'standard', summary: t('home.defaultRules') }, ...listed];
    if (!variants.some((v) => v.name === s.variant)) s.variant = variants[0].name;
    const opts = (s.options[g.name] = s.options[g.name] || {});
    const levelNames = new Map((meta.levels || []).map((l) => [l.level, has('level.' + l.name) ? t('level.' + l.name) : l.name]));
    // The levels' approximate ratings, per game (docs/strength.md).
    const levelRating = (n) => (g.level_ratings || [])[n - 1] || 0;
    const levelTitle = (n) => [levelNames.get(n), levelRating(n) ? t('home.about', { rating: levelRating(n) }) : ''].filter(Boolean).join(', ');
    const form = h('form.create-form', { onsubmit: submit },
      segmented('game', t('home.game'), meta.games.map((x) => [x.name, x.title]), s.game, (v) => { s.game = v; renderForm(); }),
      segmented('opponent', t('home.opponent'), [['computer', t('home.computer')], ['human', t('home.person')]], s.opponent, (v) => { s.opponent = v; renderForm(); }),
      ratedField(g),
      h('div.field',
        h('label', { for: 'variant' }, rated ? t('home.rulesRated') : t('home.rules')),
        h('select#variant', { onchange: (e) => { s.variant = e.target.value; } },
          variants.map((v) => h('option', { value: v.name, selected: v.name === s.variant }, `${v.name}${variantSummary(g, v) ? ' — ' + variantSummary(g, v) : ''}`)))),
      (g.options || []).length && !rated ? h('details.field.options',
        h('summary', t('home.options')),
        g.options.map((o) => {
          // The option in the game's words when its learning module has them.
          const lm = words[g.name];
          const ow = lm && lm.optionWords && lm.optionWords[o.name];
          const about = lm && lm.options && lm.options[o.name] ? t(lm.options[o.name]) : o.summary;
          return h('div.option', { 'data-option': o.name },
            h('label', { for: 'opt-' + o.name, title: o.name }, ow ? t(ow.label) : o.name),
            h('select', { id: 'opt-' + o.name, onchange: (e) => { opts[o.name] = e.target.value; } },
              h('option', { value: '' }, t('home.asRules')),
              o.values.map((v) => h('option', { value: v, selected: opts[o.name] === v }, ow && ow.values[v] ? t(ow.values[v]) : v))),
            about ? h('small', about) : null);
        })) : null,
      s.opponent === 'computer'
        ? segmented('level', t('home.level'), [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n), levelTitle(n)]), String(s.level), (v) => { s.level = Number(v); renderForm(); })
        : null,
      s.opponent === 'computer' && levelRating(s.level)
        ? h('small.level-rating', t('home.levelRating', { level: `${s.level}${levelNames.get(s.level) ? ' (' + levelNames.get(s.level) + ')' : ''}`, rating: levelRating(s.level) }))
        : null,
      segmented('color', t('home.youPlay'), [['first', sideText(g.sides[0].name)], ['random', t('home.random')], ['second', sideText(g.sides[1].name)]], s.color, (v) => { s.color = v; }),
      h('div.field',
        h('label', { for: 'clock' }, s.opponent === 'human' ? t('home.clockDays') : t('home.clock')),
        h('select#clock', {
          onchange: (e) => {
            const was = clockDays(s.clock) > 0;
            s.clock = e.target.value;
            if (was !== clockDays(s.clock) > 0) {
              renderForm();
              formBox.querySelector('#clock').focus();
            }
          },
        },
          s.opponent === 'human'
            ? [h('optgroup', { label: t('home.liveClocks') }, CLOCKS().map(([v, label]) => h('option', { value: v, selected: v === s.clock }, label))),
              h('optgroup', { label: t('home.correspondence') }, DAYS().map(([v, label]) => h('option', { value: v, selected: v === s.clock }, label)))]
            : CLOCKS().map(([v, label]) => h('option', { value: v, selected: v === s.clock }, label)))),
      clockDays(s.clock) && s.opponent === 'human'
        ? h('small.level-rating', t('home.corrNote'))
        : null,
      s.opponent === 'human'
        ? h('div.field.check',
          h('input#public', { type: 'checkbox', checked: s.public, onchange: (e) => { s.public = e.target.checked; } }),
          h('label', { for: 'public' }, t('home.public')))
        : null,
      h('p.form-error', { id: 'create-error', role: 'alert' }),
      h('button.btn.primary.big', { type: 'submit', id: 'start' },
        s.opponent === 'computer' ? t('home.playComputer') : rated ? t('home.createRated') : t('home.createInvite')));
    formBox.textContent = '';
    formBox.append(h('h1#create-title', t('home.newGame')), form);
  }

  async function submit(e) {
    e.preventDefault();
    const g = spec();
    const rated = ratedNow(g);
    const error = formBox.querySelector('#create-error');
    error.textContent = '';
    const opts = s.options[g.name] || {};
    let rules;
    if (rated) {
      rules = s.variant;
    } else {
      const parts = [];
      if (s.variant && s.variant !== 'standard') parts.push(s.variant);
      for (const [k, v] of Object.entries(opts)) if (v) parts.push(`${k}=${v}`);
      rules = parts.join(',');
    }
    const body = {
      game: g.name, rules, opponent: s.opponent, level: s.level,
      color: s.color, clock: s.clock, public: s.opponent === 'human' ? !!s.public : true,
    };
    if (rated) {
      const lo = bound(s.minRating);
      const hi = bound(s.maxRating);
      if (lo === null || hi === null) {
        error.textContent = t('home.boundNumber');
        formBox.querySelector(lo === null ? '#min-rating' : '#max-rating').focus();
        return;
      }
      if (lo && hi && lo > hi) {
        error.textContent = t('home.boundOrder', { lo, hi });
        formBox.querySelector('#min-rating').focus();
        return;
      }
      body.rated = true;
      if (lo) body.min_rating = lo;
      if (hi) body.max_rating = hi;
    }
    try {
      localStorage.setItem('newgame', JSON.stringify(s));
    } catch (err) {
      // Private browsing may refuse storage.
    }
    const btn = formBox.querySelector('#start');
    btn.disabled = true;
    try {
      const res = await api('POST', '/api/games', body);
      goToNew(res);
    } catch (err) {
      error.textContent = err.message;
      btn.disabled = false;
    }
  }

  /** Opens a game just made (keeping its invitation for the waiting page). */
  function goToNew(res) {
    try {
      if (res.invite) localStorage.setItem('invite_' + res.id, res.invite);
    } catch (err) {
      // The page still works without the link.
    }
    location.assign(res.url || `/g/${res.id}`);
  }

  // ---- quick pairing

  function renderQuick() {
    quickBox.textContent = '';
    const rated = loggedIn();
    quickBox.append(
      h('h2#quick-title', t('home.quick')),
      h('p.note', rated
        ? t('home.quickRated')
        : t('home.quickCasual')),
      ...meta.games.map((g) => h('div.quick-row', { role: 'group', 'aria-labelledby': 'quick-' + g.name },
        h('span.quick-game', { id: 'quick-' + g.name }, g.title),
        h('div.quick-clocks', QUICK.map(([c, kind]) => h('button.btn.quick-btn', {
          type: 'button', 'data-game': g.name, 'data-clock': c, onclick: () => quick(g, c),
        }, h('span.quick-clock', c), h('small.quick-kind', { 'data-kind': kind }, t('home.' + kind))))))));
    updateQuick();
  }

  /** The rules a quick game is made with: standard, or the game's first variant. */
  function quickRules(g) {
    const vs = g.variants || [];
    return vs.some((v) => v.name === 'standard') || !vs.length ? 'standard' : vs[0].name;
  }

  /** Whether an open game is this browser's own: one it holds a seat of, or one its account made. */
  function isOwn(g) {
    if (myGames().includes(g.id)) return true;
    const a = account();
    const creator = (g.players || [])[1 - freeSeat(g)];
    return !!(a && !a.guest && creator && creator.toLowerCase() === a.name.toLowerCase());
  }

  /** The open games a quick pairing of game and clock could join, oldest first. */
  function candidates(game, clock) {
    const guest = !loggedIn();
    return open
      .filter((g) => g.game === game && g.clock === clock && !isOwn(g) && !(guest && g.rated))
      .sort((a, b) => (a.created || 0) - (b.created || 0));
  }

  /** Shows on each quick button how many are waiting for it. */
  function updateQuick() {
    for (const btn of quickBox.querySelectorAll('.quick-btn')) {
      const n = candidates(btn.dataset.game, btn.dataset.clock).length;
      const kind = btn.querySelector('.quick-kind');
      const text = n ? t('home.waitingN', { n }) : t('home.' + kind.dataset.kind);
      if (kind.textContent !== text) kind.textContent = text;
      btn.classList.toggle('waiting', n > 0);
      btn.disabled = pairing;
    }
  }

  async function quick(g, clock) {
    if (pairing) return;
    pairing = true;
    updateQuick();
    const done = () => {
      pairing = false;
      updateQuick();
    };
    try {
      await poll(); // the lobby as it is now
      // A seek of one's own with that clock: back to it rather than a second one.
      const own = open.find((x) => x.game === g.name && x.clock === clock && myGames().includes(x.id));
      if (own) {
        location.assign(`/g/${own.id}`);
        return;
      }
      for (const c of candidates(g.name, clock)) {
        try {
          await api('POST', `/api/games/${c.id}/join`, {});
          location.assign(`/g/${c.id}`);
          return;
        } catch (err) {
          // Taken meanwhile, or not for us (a rating range): the next one.
          if (err.status !== 409 && err.status !== 403) throw err;
        }
      }
      const body = { game: g.name, rules: quickRules(g), opponent: 'human', color: 'random', clock, public: true };
      if (loggedIn()) body.rated = true;
      goToNew(await api('POST', '/api/games', body));
    } catch (err) {
      toast(err.message, 'error');
      done();
    }
  }

  // ---- the lists

  function seekRow(g) {
    const free = freeSeat(g);
    const creator = 1 - free;
    const gs = gameSpec(meta, g.game);
    const side = gs && gs.sides[free] ? sideText(gs.sides[free].name) : t(free === 0 ? 'w.first' : 'w.second');
    const own = isOwn(g);
    const who = (g.players || [])[creator];
    const range = rangeLabel(g.min_rating || 0, g.max_rating || 0);
    return h('li.game-row.seek',
      h('a.row-link', { href: `/g/${g.id}` },
        h('span.row-title', g.title || g.game),
        h('span.row-players', playerTag(who, (g.ratings || [])[creator], false)),
        metaLine([
          clockLabel(g.clock),
          ratedTag(g.rated),
          range ? t('home.ratingRange', { range }) : '',
          t('home.youPlaySide', { side }),
          rulesLabel(meta, g.game, g.rules),
        ])),
      own
        ? h('span.row-actions',
          h('a.btn.small.ghost', { href: `/g/${g.id}`, 'aria-label': t('home.yoursLabel', { game: g.title || g.game }) }, t('home.yours')),
          h('button.btn.small.ghost.cancel-seek', { type: 'button', 'aria-label': t('home.cancelLabel', { game: g.title || g.game }), onclick: () => cancelSeek(g) }, t('home.cancel')))
        : h('button.btn.small', { type: 'button', 'aria-label': t('home.joinLabel', { name: playerName(who), game: g.title || g.game }), onclick: () => join(g) }, t('home.join')));
  }

  function liveRow(g) {
    return h('li.game-row',
      h('a.row-link', { href: `/g/${g.id}` },
        h('span.row-title', g.title || g.game),
        h('span.row-players', playersLine(g.players, g.ratings, false)),
        metaLine([clockLabel(g.clock), ratedTag(g.rated), rulesLabel(meta, g.game, g.rules), g.moves ? tn('home.moves', g.moves) : '',
          g.spectators ? t('home.watching', { n: g.spectators }) : '', shortResult(g.result)])),
      h('a.btn.small.ghost', { href: `/g/${g.id}`, 'aria-label': t('home.watchLabel', { players: (g.players || []).map(playerName).join(' vs ') }) }, t('home.watch')));
  }

  async function cancelSeek(g) {
    try {
      await api('POST', `/api/games/${g.id}/cancel`, {});
      forgetGame(g.id);
    } catch (err) {
      toast(err.message, 'error');
    }
    poll();
  }

  async function join(g) {
    try {
      await api('POST', `/api/games/${g.id}/join`, {});
      location.assign(`/g/${g.id}`);
    } catch (err) {
      if (err.status === 403 && g.rated && !loggedIn()) {
        toast(err.message, 'error');
        openLogin('login');
      } else {
        toast(err.message, 'error');
      }
      poll();
    }
  }

  /**
   * The games this browser's account or guest plays in and that are not
   * over (GET /api/my-games), the ones where it is their turn first, each
   * a link to the game; a correspondence game says how long is left.
   */
  async function refreshMine() {
    let games;
    try {
      const res = await api('GET', '/api/my-games');
      games = (res && res.games) || [];
    } catch (err) {
      if (destroyed) return;
      if (err.status !== 404) return; // kept as it was until the next poll
      games = await mineFromStates(); // a server from before /api/my-games
    }
    if (destroyed) return;
    // The server puts them in that order already; a stable sort keeps it.
    mine = games.filter((g) => g.status !== 'finished' && g.status !== 'aborted')
      .map((g, i) => [g, i]).sort((a, b) => (b[0].your_turn ? 1 : 0) - (a[0].your_turn ? 1 : 0) || a[1] - b[1]).map((x) => x[0]);
    mineBox.hidden = mine.length === 0;
    syncList(mineList, mine, (g) => g.id, (g) => JSON.stringify([g.status, g.your_turn, g.moves, g.players, g.ratings, g.deadline]), mineRow);
    if (!open.length) return;
    renderOpen(); // the own seeks now known
  }

  function mineRow(g) {
    const seat = g.seat === 1 ? 1 : 0;
    const other = (g.players || [])[1 - seat];
    const who = other ? playerTag(other, (g.ratings || [])[1 - seat], false) : t('status.waiting');
    const left = g.your_turn && g.deadline ? timeLeft(g.deadline - Date.now()) : '';
    const label = g.your_turn ? t('home.yourTurn') : g.status === 'waiting' ? t('home.waiting') : t('home.openBtn');
    return h('li.game-row' + (g.your_turn ? '.your-turn' : ''), { 'data-your-turn': g.your_turn ? 'true' : 'false' },
      h('a.row-link', { href: `/g/${g.id}` },
        h('span.row-title', g.title || g.game),
        h('span.row-players', t('home.vs'), ' ', who),
        metaLine([clockLabel(g.clock), ratedTag(g.rated), rulesLabel(meta, g.game, g.rules), tn('home.moves', g.moves || 0), left ? t('home.leftToMove', { left }) : ''])),
      h('a.btn.small' + (g.your_turn ? '.primary' : '.ghost'), { href: `/g/${g.id}`, 'aria-label': other ? t('home.mineLabelVs', { label, game: g.title || g.game, name: playerName(other) }) : t('home.mineLabel', { label, game: g.title || g.game }) }, label));
  }

  /** A deadline's distance in words: "2 days", "5 hours", "12 min". */
  function timeLeft(ms) {
    if (ms <= 0) return '';
    const hours = ms / 3600000;
    if (hours >= 48) return t('home.nDays', { n: Math.floor(hours / 24) });
    if (hours >= 2) return t('home.nHours', { n: Math.floor(hours) });
    return t('home.nMin', { n: Math.max(1, Math.floor(ms / 60000)) });
  }

  /** The games this browser remembers, read one by one with the seat cookies, as my-games summaries. */
  async function mineFromStates() {
    const ids = myGames();
    const states = await Promise.all(ids.map((id) => api('GET', `/api/games/${id}`).catch((err) => {
      if (err.status === 404) forgetGame(id);
      return null;
    })));
    return states.filter((st) => st && st.seat != null).map((st) => ({
      id: st.id, game: st.game, title: st.title, rules: st.rules, status: st.status, rated: st.rated,
      players: st.sides.map((x) => x.user || x.player || ''), ratings: st.sides.map((x) => x.rating || ''),
      clock: stateClock(st.clock),
      moves: st.moves.length, seat: st.seat, your_turn: st.status === 'playing' && st.turn === st.seat, deadline: null,
    }));
  }

  function renderOpen() {
    const a = account();
    syncList(openList, open, (g) => g.id, (g) => JSON.stringify([g, isOwn(g), a && a.name]), seekRow);
    openEmpty.hidden = open.length > 0;
    openEmpty.classList.remove('error');
    openEmpty.textContent = t('home.noOpen');
  }

  function renderLive(live) {
    syncList(liveList, live, (g) => g.id, (g) => JSON.stringify(g), liveRow);
    liveEmpty.hidden = live.length > 0;
    liveEmpty.textContent = t('home.noLive');
  }

  /** Reads the open and live games and brings the lists up to date. */
  async function poll() {
    if (polling) return polling;
    polling = (async () => {
      try {
        const [o, l] = await Promise.all([api('GET', '/api/games?status=open'), api('GET', '/api/games?status=live')]);
        if (destroyed) return;
        open = (o && o.games) || [];
        renderOpen();
        renderLive((l && l.games) || []);
        updateQuick();
      } catch (err) {
        if (destroyed) return;
        openEmpty.hidden = false;
        openEmpty.classList.add('error');
        openEmpty.textContent = err.message;
      }
    })();
    try {
      await polling;
    } finally {
      polling = false;
    }
  }

  function tick() {
    poll();
    if (++polls % MINE_EVERY === 0) refreshMine();
  }

  /** Polls while the page is visible; a hidden tab asks nothing. */
  function schedule() {
    clearInterval(timer);
    timer = null;
    if (destroyed || document.visibilityState !== 'visible') return;
    timer = setInterval(tick, POLL_MS);
  }

  function onVisibility() {
    if (document.visibilityState === 'visible') tick();
    schedule();
  }

  return {
    node,
    async mounted() {
      try {
        [meta] = await Promise.all([getMeta(), whenAccount()]);
      } catch (err) {
        formBox.append(h('p.error', t('home.metaError', { error: err.message })));
        return;
      }
      await Promise.all(meta.games.map((g) => loadLearn(g.name).then((m) => { words[g.name] = m; }, () => {})));
      if (destroyed) return;
      renderForm();
      renderQuick();
      refreshMine();
      poll();
      document.addEventListener('visibilitychange', onVisibility);
      schedule();
    },
    refresh() {
      if (!meta || destroyed) return;
      renderForm();
      renderQuick();
      refreshMine();
      poll();
    },
    destroy() {
      destroyed = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
