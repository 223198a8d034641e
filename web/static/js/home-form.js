// The home page's new-game form: the game, the opponent (the computer at a
// level, thinking in this browser or on the server, or a person, rated
// when logged in, with a rating range), the rules (a variant and the rule
// options, in the game's words when its lesson module has them), the
// colour and the clock; the choices are kept for the next visit. Where
// the computer thinks is the player's setting (prefs.enginePlace), the
// one the analysis board follows too: a game against the computer is
// made for this browser's engine when the setting says so and the
// browser runs it, else for the server's computer (js/engine.js), and a
// server whose computer is off (the meta's server_computer) makes only
// the former.

import { h, segmented } from './dom.js';
import { api } from './api.js';
import { clockDays, variantSummary, variantName } from './words.js';
import { gameSpec } from './games.js';
import { loggedIn, openLogin } from './account.js';
import { t, tn, has, getLang, sideText } from './i18n.js';
import { enginePlace, setEnginePlace } from './prefs.js';
import { supported, load, knows } from './engine.js';

/** How long a new game waits for the engine to load before it is the server's computer's. */
const ENGINE_WAIT_MS = 15000;

export const CLOCKS = () => [
  ['', t('home.noClock')], ['1+0', `1+0 ${t('home.bullet')}`], ['3+2', `3+2 ${t('home.blitz')}`], ['5+3', `5+3 ${t('home.blitz')}`],
  ['10+5', `10+5 ${t('home.rapid')}`], ['15+10', `15+10 ${t('home.rapid')}`], ['30+20', `30+20 ${t('home.classical')}`],
];

/** Correspondence clocks: days a move, for games against a person. */
export const DAYS = () => [1, 2, 3, 5, 7, 14].map((d) => [`${d}d`, tn('w.days', d)]);

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
  const s = String(text ?? '').trim();
  if (!s) return 0;
  return /^\d{1,4}$/.test(s) ? Number(s) : null;
}

/** Opens a game just made (keeping its invitation for the waiting page). */
export function goToNew(res) {
  try {
    if (res.invite) localStorage.setItem('invite_' + res.id, res.invite);
  } catch (err) {
    // The page still works without the link.
  }
  location.assign(res.url || `/g/${res.id}`);
}

/** The form, drawn in node (a section of the page) for the meta's games; words are the games' lesson modules by name. */
export class NewGameForm {
  constructor(node, words) {
    this.node = node;
    this.words = words;
    this.meta = null;
    this.s = Object.assign({ game: '', opponent: 'computer', level: 3, color: 'random', clock: '', variant: '', options: {}, public: true, rated: false, minRating: '', maxRating: '' }, saved());
  }

  /** The chosen game's entry of the meta; the server's first game until one is chosen. */
  spec() {
    return gameSpec(this.meta, this.s.game) || this.meta.games[0];
  }

  /** Whether the form makes a rated game: a person opponent, logged in, the switch on, and variants to rate. */
  ratedNow(g) {
    const s = this.s;
    return s.opponent === 'human' && loggedIn() && !!s.rated && (g.variants || []).length > 0;
  }

  render() {
    const s = this.s;
    const g = this.spec();
    s.game = g.name;
    const rated = this.ratedNow(g);
    // Days a move only against a person: the computer answers at once.
    if (s.opponent !== 'human' && clockDays(s.clock)) s.clock = '';
    const variant = this.variantField(g, rated);
    const opts = (s.options[g.name] = s.options[g.name] || {});
    const form = h('form.create-form', { onsubmit: (e) => this.submit(e) },
      segmented('game', t('home.game'), this.meta.games.map((x) => [x.name, x.title]), s.game, (v) => { s.game = v; this.render(); }),
      segmented('opponent', t('home.opponent'), [['computer', t('home.computer')], ['human', t('home.person')]], s.opponent, (v) => { s.opponent = v; this.render(); }),
      this.ratedField(g),
      variant,
      (g.options || []).length && !rated ? this.optionsField(g, opts) : null,
      this.levelFields(g),
      this.placeField(),
      segmented('color', t('home.youPlay'), [['first', sideText(g.sides[0].name)], ['random', t('home.random')], ['second', sideText(g.sides[1].name)]], s.color, (v) => { s.color = v; }),
      this.clockField(),
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
    this.node.textContent = '';
    this.node.append(h('h1#create-title', t('home.newGame')), form);
  }

  /** Against a person: the rated switch (or why not) and, when on, the rating range. */
  ratedField(g) {
    const s = this.s;
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
    const ratingInput = (id, key) => h('input', { type: 'number', id, inputmode: 'numeric', min: 400, max: 4000, step: 50, placeholder: t('home.any'), value: s[key], oninput: (e) => { s[key] = e.target.value; } });
    return [
      h('div.field.switch-field',
        h('input.switch', {
          type: 'checkbox', role: 'switch', id: 'rated', checked: on, disabled: !can, 'aria-describedby': 'rated-note',
          onchange: (e) => { s.rated = e.target.checked; this.render(); this.node.querySelector('#rated').focus(); },
        }),
        h('label', { for: 'rated' }, t('home.ratedLabel')),
        h('small.switch-note', { id: 'rated-note' }, note)),
      on ? h('fieldset.field.range',
        h('legend', t('home.range')),
        h('div.range-row',
          h('label', { for: 'min-rating' }, t('home.from')),
          ratingInput('min-rating', 'minRating'),
          h('label', { for: 'max-rating' }, t('home.to')),
          ratingInput('max-rating', 'maxRating'))) : null,
    ];
  }

  // A variant's summary: the server's English, or in another language the
  // game's learning module's words for it when it has them.
  variantSummary(g, v) {
    return getLang() !== 'en' ? variantSummary(this.words[g.name], v) : v.summary;
  }

  /** The rules: the game's variants. */
  variantField(g, rated) {
    const s = this.s;
    // The default rules come first unless a variant is the standard one (a
    // rated game is played by a variant's name).
    const listed = g.variants || [];
    const variants = rated || listed.some((v) => v.name === 'standard') ? listed : [{ name: 'standard', summary: t('home.defaultRules') }, ...listed];
    if (!variants.some((v) => v.name === s.variant)) s.variant = variants[0].name;
    return h('div.field',
      h('label', { for: 'variant' }, rated ? t('home.rulesRated') : t('home.rules')),
      h('select#variant', { onchange: (e) => { s.variant = e.target.value; } },
        variants.map((v) => h('option', { value: v.name, selected: v.name === s.variant }, `${variantName(v.name)}${this.variantSummary(g, v) ? ' — ' + this.variantSummary(g, v) : ''}`))));
  }

  /** The rule options, each "as the rules say" or one of its values (opts: the values chosen). */
  optionsField(g, opts) {
    return h('details.field.options',
      h('summary', t('home.options')),
      g.options.map((o) => {
        // The option in the game's words when its learning module has them.
        const lm = this.words[g.name];
        const ow = lm && lm.optionWords && lm.optionWords[o.name];
        const about = lm && lm.options && lm.options[o.name] ? t(lm.options[o.name]) : o.summary;
        return h('div.option', { 'data-option': o.name },
          h('label', { for: 'opt-' + o.name }, ow ? t(ow.label) : o.name),
          h('select', { id: 'opt-' + o.name, onchange: (e) => { opts[o.name] = e.target.value; } },
            h('option', { value: '' }, t('home.asRules')),
            o.values.map((v) => h('option', { value: v, selected: opts[o.name] === v }, ow && ow.values[v] ? t(ow.values[v]) : v))),
          about ? h('small', about) : null);
      }));
  }

  /** Against the computer: the level, with its name and approximate rating in the game (docs/strength.md). */
  levelFields(g) {
    const s = this.s;
    if (s.opponent !== 'computer') return null;
    const levelNames = new Map((this.meta.levels || []).map((l) => [l.level, has('level.' + l.name) ? t('level.' + l.name) : l.name]));
    const levelRating = (n) => (g.level_ratings || [])[n - 1] || 0;
    const levelTitle = (n) => [levelNames.get(n), levelRating(n) ? t('home.about', { rating: levelRating(n) }) : ''].filter(Boolean).join(', ');
    return [
      segmented('level', t('home.level'), [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n), levelTitle(n)]), String(s.level), (v) => { s.level = Number(v); this.render(); }),
      levelRating(s.level)
        ? h('small.level-rating', t('home.levelRating', { level: `${s.level}${levelNames.get(s.level) ? ' (' + levelNames.get(s.level) + ')' : ''}`, rating: levelRating(s.level) }))
        : null,
    ];
  }

  /** Whether this server's computer plays (the meta says so; on until it has said). */
  serverComputer() {
    return !this.meta || this.meta.server_computer !== false;
  }

  /** Against the computer: where it thinks, this browser or the server (the player's setting), or why only one can. */
  placeField() {
    if (this.s.opponent !== 'computer') return null;
    if (!supported()) return h('small.place-note', this.serverComputer() ? t('home.noEngine') : t('home.noEngineHere'));
    if (!this.serverComputer()) {
      load(); // the only place: ready by the time the game starts
      return null;
    }
    const place = enginePlace();
    if (place === 'browser') load();
    return [
      segmented('computer-place', t('home.computerPlace'), [['browser', t('home.placeBrowser')], ['server', t('home.placeServer')]], place, (v) => { setEnginePlace(v); this.render(); }),
      place === 'browser' ? h('small.place-note', t('home.placeNote')) : null,
    ];
  }

  /**
   * Where a new game of game's computer is to think: 'browser' when the
   * setting says so (or the server's computer is off) and the engine
   * loads and knows the game, 'server' otherwise; null when neither can
   * play it.
   */
  async computerPlace(game) {
    const server = this.serverComputer();
    if (!supported() || (enginePlace() === 'server' && server)) return server ? 'server' : null;
    const ok = await Promise.race([load(), new Promise((resolve) => setTimeout(() => resolve(false), ENGINE_WAIT_MS))]);
    if (ok && (await knows(game))) return 'browser';
    return server ? 'server' : null;
  }

  /** The clock: live clocks, and days a move against a person. */
  clockField() {
    const s = this.s;
    const options = (list) => list.map(([v, label]) => h('option', { value: v, selected: v === s.clock }, label));
    return h('div.field',
      h('label', { for: 'clock' }, s.opponent === 'human' ? t('home.clockDays') : t('home.clock')),
      h('select#clock', {
        onchange: (e) => {
          const was = clockDays(s.clock) > 0;
          s.clock = e.target.value;
          if (was !== clockDays(s.clock) > 0) {
            this.render();
            this.node.querySelector('#clock').focus();
          }
        },
      },
        s.opponent === 'human'
          ? [h('optgroup', { label: t('home.liveClocks') }, options(CLOCKS())), h('optgroup', { label: t('home.correspondence') }, options(DAYS()))]
          : options(CLOCKS())));
  }

  /** The rules as the server takes them: a rated game's variant, or the variant and the options chosen. */
  rules(g, rated) {
    const s = this.s;
    if (rated) return s.variant;
    const parts = [];
    if (s.variant && s.variant !== 'standard') parts.push(s.variant);
    for (const [k, v] of Object.entries(s.options[g.name] || {})) if (v) parts.push(`${k}=${v}`);
    return parts.join(',');
  }

  async submit(e) {
    e.preventDefault();
    const s = this.s;
    const g = this.spec();
    const rated = this.ratedNow(g);
    const error = this.node.querySelector('#create-error');
    error.textContent = '';
    const body = {
      game: g.name, rules: this.rules(g, rated), opponent: s.opponent, level: s.level,
      color: s.color, clock: s.clock, public: s.opponent === 'human' ? !!s.public : true,
    };
    if (rated && !this.range(body, error)) return;
    try {
      localStorage.setItem('newgame', JSON.stringify(s));
    } catch (err) {
      // Private browsing may refuse storage.
    }
    const btn = this.node.querySelector('#start');
    btn.disabled = true;
    try {
      if (s.opponent === 'computer') {
        body.computer = await this.computerPlace(g.name);
        if (!body.computer) {
          error.textContent = t('home.noEngineHere');
          btn.disabled = false;
          return;
        }
      }
      goToNew(await api('POST', '/api/games', body));
    } catch (err) {
      error.textContent = err.message;
      btn.disabled = false;
    }
  }

  /** A rated game's rating range into body; false (and why, in error) when it is not one. */
  range(body, error) {
    const lo = bound(this.s.minRating);
    const hi = bound(this.s.maxRating);
    if (lo === null || hi === null) {
      error.textContent = t('home.boundNumber');
      this.node.querySelector(lo === null ? '#min-rating' : '#max-rating').focus();
      return false;
    }
    if (lo && hi && lo > hi) {
      error.textContent = t('home.boundOrder', { lo, hi });
      this.node.querySelector('#min-rating').focus();
      return false;
    }
    body.rated = true;
    if (lo) body.min_rating = lo;
    if (hi) body.max_rating = hi;
    return true;
  }
}
