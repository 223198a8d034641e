// Players as the pages show them: a name (a link to the profile when it is
// an account's), the rating, and the change a rated game made.

import { t } from './i18n.js';
import { h } from './dom.js';
import { playerName, isAccountName } from './words.js';

/** The profile page of an account. */
export function profileHref(name) {
  return '/@/' + encodeURIComponent(name);
}

/** The BOT tag by a bot account's name. */
export function botTag() {
  return h('span.tag.bot-tag', { title: t('bot.title') }, t('bot.tag'));
}

/**
 * A player with their rating, if any: link true makes an account's name a
 * link to its profile (not inside another link, such as a list's row);
 * bot marks a bot account's.
 */
export function playerTag(name, rating, link, account, bot) {
  const label = playerName(name);
  // account says whether the name is an account's (a summary's users);
  // without it, the name's form decides.
  const isAccount = account === undefined ? isAccountName(name) : !!account;
  return h('span.player-tag',
    link && isAccount ? h('a.pname', { href: profileHref(name) }, label) : h('span.pname', label),
    bot ? botTag() : null,
    rating ? h('span.rating', { title: t('w.rating') }, rating) : null);
}

/** Two players, "A 1500 vs B 1623", from a summary's players, ratings, users and bots. */
export function playersLine(players, ratings, link, users, bots) {
  const p = players || [];
  const r = ratings || [];
  const b = bots || [];
  const acc = (i) => (users ? users[i] !== '' : undefined);
  return [playerTag(p[0], r[0], link, acc(0), b[0]), h('span.vs', ` ${t('home.vs')} `), playerTag(p[1], r[1], link, acc(1), b[1])];
}

/** The change a rated game made to a rating: +12 in green, −8 in red, ±0. */
export function ratingDiff(d) {
  const n = Math.round(Number(d) || 0);
  const text = n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '±0';
  const what = n > 0 ? t('pl.up', { n }) : n < 0 ? t('pl.down', { n: -n }) : t('pl.same');
  return h('span.rating-diff', { class: n > 0 ? 'up' : n < 0 ? 'down' : 'even', title: what }, text);
}
