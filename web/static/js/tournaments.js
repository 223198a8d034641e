// The tournaments: /tournaments, the lists (GET /api/tournaments) and the
// form that makes one (POST /api/tournaments); tournamentCard, the home
// page's list of the current and upcoming ones; and the tournaments a
// player won, for the profile. One tournament's page is tournament.js.

import { h, formatDate, toast } from './dom.js';
import { api, getMeta } from './api.js';
import { t } from './i18n.js';
import { loggedIn, openLogin, whenAccount } from './account.js';
import { rulesLabel, clockLabel, variantName } from './words.js';

/** A tournament's format in words. */
export function formatName(f) {
  return t(`tn.${f}`);
}

/** A summary's line: its link, format, game, clock, players, when, and whether the site scheduled it. */
export function tournamentRow(meta, s) {
  const game = meta && meta.games.find((g) => g.name === s.game);
  const when = s.status === 'created' ? t('tn.startsAt', { when: formatDate(s.starts) })
    : s.status === 'started' ? (s.ends ? t('tn.endsAt', { when: formatDate(s.ends) }) : t('tn.roundOf', { n: s.round, of: s.rounds }))
      : (s.winner ? t('tn.winner', { name: s.winner }) : t('tn.noWinner'));
  return h('li.tournament-row', { 'data-id': s.id },
    h('a.tournament-link', { href: `/tournaments/${s.id}` }, s.name),
    h('span.row-meta', [formatName(s.format), (game && game.title) || s.game, meta ? rulesLabel(meta, s.game, s.rules) : s.rules,
      clockLabel(s.clock), s.rated ? t('home.rated') : t('home.casual'), t('tn.playersCount', { n: s.players }), when,
      s.scheduled ? t('tn.bySite') : ''].filter(Boolean).join(' · ')));
}

/** A list of summaries, or a line saying there are none. */
function rows(meta, list) {
  if (!list.length) return h('p.empty', t('tn.none'));
  return h('ul.tournament-list', list.map((s) => tournamentRow(meta, s)));
}

/**
 * The home page's card: the current and upcoming tournaments. Returns the
 * card (node) and a promise settled once they are listed (ready).
 */
export function tournamentCard() {
  const body = h('div', h('p.loading', t('home.loading')));
  const node = h('section.card.tournaments-home', { 'aria-labelledby': 'tournaments-home-title' },
    h('h2#tournaments-home-title', t('tn.title')), body, h('p', h('a.btn.small', { href: '/tournaments' }, t('tn.all'))));
  const ready = Promise.all([getMeta(), api('GET', '/api/tournaments')]).then(([meta, list]) => {
    body.textContent = '';
    body.append(rows(meta, [...list.current, ...list.upcoming].slice(0, 8)));
  }).catch((err) => {
    body.textContent = '';
    body.append(h('p.error', err.message));
  });
  return { node, ready };
}

/** The tournaments a player won, for their profile (null when none). */
export async function wonList(name) {
  const [meta, list] = await Promise.all([getMeta(), api('GET', `/api/tournaments?winner=${encodeURIComponent(name)}`)]);
  if (!list.finished.length) return null;
  return h('section.card.tournaments-won', { 'aria-labelledby': 'tournaments-won-title' },
    h('h2#tournaments-won-title', t('tn.won')), rows(meta, list.finished));
}

/** A labelled field of the form. */
function field(label, input) {
  return h('label.field', h('span', label), input);
}

/** The form that makes a tournament. */
function createForm(meta) {
  const name = h('input#tn-name', { type: 'text', minlength: '3', maxlength: '40', required: true });
  const game = h('select#tn-game', meta.games.map((g) => h('option', { value: g.name }, g.title)));
  const rules = h('select#tn-rules');
  const fillRules = () => {
    const g = meta.games.find((x) => x.name === game.value);
    rules.textContent = '';
    rules.append(...((g && g.variants) || []).map((v) => h('option', { value: v.name }, variantName(v.name))));
  };
  game.addEventListener('change', fillRules);
  fillRules();
  const format = h('select#tn-format', ['arena', 'swiss', 'roundrobin'].map((f) => h('option', { value: f }, formatName(f))));
  const clock = h('input#tn-clock', { type: 'text', value: '3+2', required: true });
  const rated = h('input#tn-rated', { type: 'checkbox' });
  const bots = h('input#tn-bots', { type: 'checkbox' });
  const minutes = h('input#tn-minutes', { type: 'number', min: '10', max: '180', value: '30' });
  const rounds = h('input#tn-rounds', { type: 'number', min: '0', max: '11', value: '0' });
  const starts = h('input#tn-starts', { type: 'datetime-local' });
  const minutesField = field(t('tn.minutes'), minutes);
  const roundsField = field(t('tn.rounds'), rounds);
  const showFields = () => {
    minutesField.hidden = format.value !== 'arena';
    roundsField.hidden = format.value !== 'swiss';
  };
  format.addEventListener('change', showFields);
  showFields();
  const form = h('form.tournament-form', {
    onsubmit: async (e) => {
      e.preventDefault();
      if (!loggedIn()) {
        openLogin();
        return;
      }
      const body = { name: name.value, game: game.value, rules: rules.value, format: format.value, clock: clock.value,
        rated: rated.checked, bots: bots.checked, minutes: Number(minutes.value), rounds: Number(rounds.value),
        starts: starts.value ? new Date(starts.value).getTime() : 0 };
      try {
        const res = await api('POST', '/api/tournaments', body);
        history.pushState(null, '', res.url);
        dispatchEvent(new PopStateEvent('popstate'));
      } catch (err) {
        toast(err.message, 'error');
      }
    },
  },
  field(t('tn.name'), name), field(t('tn.game'), game), field(t('tn.rules'), rules), field(t('tn.format'), format),
  field(t('tn.clock'), clock), minutesField, roundsField, field(t('tn.starts'), starts),
  h('label.check', rated, ' ', t('tn.ratedGames')), h('label.check', bots, ' ', t('tn.bots')),
  h('p.form-buttons', h('button.btn.primary#tn-create', { type: 'submit' }, t('tn.submit'))));
  return form;
}

/** The /tournaments page. */
export function tournamentsView() {
  const lists = h('div.tournament-lists', h('p.loading', t('home.loading')));
  const formBox = h('section.card', { 'aria-labelledby': 'tn-create-title' }, h('h2#tn-create-title', t('tn.create')));
  const node = h('div.tournaments', h('section.card', { 'aria-labelledby': 'tn-title' }, h('h1#tn-title', t('tn.title')), lists), formBox);
  return {
    node,
    async mounted() {
      let meta;
      let list;
      try {
        [meta, list] = await Promise.all([getMeta(), api('GET', '/api/tournaments'), whenAccount()]);
      } catch (err) {
        lists.textContent = '';
        lists.append(h('p.error', err.message));
        return;
      }
      lists.textContent = '';
      lists.append(h('h2', t('tn.current')), rows(meta, list.current), h('h2', t('tn.upcoming')), rows(meta, list.upcoming),
        h('h2', t('tn.finished')), rows(meta, list.finished));
      formBox.append(loggedIn() ? createForm(meta) : h('p', t('tn.login')));
    },
  };
}
