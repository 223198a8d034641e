// The "Challenge" form of a profile page (a bot's): the game, its variant,
// the clock, the colour and rated or casual, reusing the new-game form's
// clocks; it sends POST /api/challenges and opens the game, which waits
// for the challenged account to accept.

import { h, toast } from './dom.js';
import { api } from './api.js';
import { t, sideText } from './i18n.js';
import { CLOCKS, DAYS, goToNew } from './home-form.js';
import { variantName } from './words.js';

/** A labelled select of [value, text] pairs. */
function choice(id, label, pairs, value) {
  const sel = h('select', { id }, pairs.map(([v, text]) => h('option', { value: v, selected: v === value ? true : null }, text)));
  return [h('label', { for: id }, label), sel];
}

/** The form challenging the account name, for the meta's games, drawn in a box it returns. */
export function challengeForm(meta, name) {
  const games = (meta && meta.games) || [];
  const box = h('form.challenge-form#challenge-form', { hidden: true, 'aria-label': t('ch.title', { name }) });
  const [gameLabel, game] = choice('ch-game', t('home.game'), games.map((g) => [g.name, g.title]), games[0] && games[0].name);
  const variantBox = h('span.ch-variant');
  let variant = null;
  const fillVariants = () => {
    const gm = games.find((g) => g.name === game.value) || games[0];
    const [label, sel] = choice('ch-rules', t('ch.rules'), (gm ? gm.variants : []).map((v) => [v.name, variantName(v.name)]), '');
    variant = sel;
    variantBox.replaceChildren(label, sel);
  };
  game.onchange = fillVariants;
  fillVariants();
  const [clockLabel, clock] = choice('ch-clock', t('ch.clock'), [...CLOCKS(), ...DAYS()], '1+0');
  const firstSide = games[0] ? sideText(games[0].sides[0].name) : '';
  const secondSide = games[0] ? sideText(games[0].sides[1].name) : '';
  const [colorLabel, color] = choice('ch-color', t('ch.color'), [['random', t('ch.random')], ['first', firstSide], ['second', secondSide]], 'random');
  const rated = h('input#ch-rated', { type: 'checkbox', checked: true });
  const send = h('button.btn.primary#ch-send', { type: 'submit' }, t('ch.send'));
  box.append(
    h('p.muted', t('ch.intro', { name })),
    h('div.ch-fields', gameLabel, game, variantBox, clockLabel, clock, colorLabel, color,
      h('label.check', rated, ' ', t('ch.rated'))),
    h('div.form-buttons', send));
  box.onsubmit = async (e) => {
    e.preventDefault();
    send.disabled = true;
    try {
      const res = await api('POST', '/api/challenges', { to: name, game: game.value, rules: variant ? variant.value : '', clock: clock.value, color: color.value, rated: rated.checked });
      toast(t('ch.sent', { name }), 'info');
      goToNew(res);
    } catch (err) {
      toast(err.message, 'error');
      send.disabled = false;
    }
  };
  return box;
}
