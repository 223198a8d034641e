// The game page's player bars: each side's name (an account's linked to its
// profile), its rating and the change the game made to it, whether it is
// connected, what the game's module says of its pieces (sideInfo), and its
// clock, which runs between the server's messages and warns once when
// one's own time runs low.

import { h, formatClock, formatDays, morphChildren } from './dom.js';
import { t, sideText, locale, dated } from './i18n.js';
import { playerName } from './words.js';
import { profileHref, ratingDiff, botTag } from './players.js';
import { play } from './sound.js';
import { clockLabel } from './game-speech.js';

/** Below this much time on a live clock, it turns red and a tone warns once. */
const LOW_MS = 20000;
/** The same for a correspondence clock: an hour. */
const LOW_DAYS_MS = 3600000;

/** How a seat's player is shown: you, Anonymous, the computer, or a free seat. */
function playerLabel(player, you, status) {
  if (you) return t('gm.you');
  if (!player) return status === 'waiting' ? t('gm.waitingSeat') : '';
  return playerName(player);
}

/**
 * The two bars, top and bottom; page is the game page (its state, the ply
 * shown, the side at the bottom, the game's module and the clock's base).
 */
export class PlayerBars {
  constructor(page) {
    this.page = page;
    this.top = h('div.player.top');
    this.bottom = h('div.player.bottom');
    this.timer = null;
    this.lowWarned = false;
  }

  /** Side i's time left now, or null without a clock. */
  clockMs(i) {
    const s = this.page.state;
    const c = s.clock;
    if (!c) return null;
    let ms = c.remaining_ms[i];
    if (s.status === 'playing' && c.running === i) ms -= Date.now() - this.page.clockBase;
    return ms;
  }

  /** The running clock of state s by the page's reckoning now, in a live game: {side, ms}, or null. */
  running(s) {
    if (!s || s.status !== 'playing' || !s.clock || s.clock.running == null || !this.page.live()) return null;
    return { side: s.clock.running, ms: this.clockMs(s.clock.running) };
  }

  /** A clock's text: minutes and seconds, or days and hours by correspondence. */
  clockText(ms) {
    return this.page.live() ? formatClock(ms) : formatDays(ms);
  }

  lowAt() {
    return this.page.live() ? LOW_MS : LOW_DAYS_MS;
  }

  /** Draws both bars and runs the clocks while the game is played. */
  render() {
    const s = this.page.state;
    this.bar(this.bottom, this.page.bottom);
    this.bar(this.top, 1 - this.page.bottom);
    clearInterval(this.timer);
    if (s.clock && s.status === 'playing') this.timer = setInterval(() => this.tick(s), this.page.live() ? 100 : 1000);
  }

  /** The clocks' texts now, and the tone when one's own runs low. */
  tick(s) {
    for (const bar of [this.top, this.bottom]) {
      const c = bar.querySelector('.clock');
      if (!c) continue;
      const i = Number(c.dataset.clock);
      const ms = this.clockMs(i);
      c.textContent = this.clockText(ms);
      c.setAttribute('aria-label', clockLabel(s.sides[i].name, ms));
      const low = ms < this.lowAt();
      c.classList.toggle('low', low);
      // One warning a game when one's own running clock runs low;
      // again only after it has come well back (an increment).
      if (i === s.seat && s.clock.running === i && this.page.live()) {
        if (low && !this.lowWarned) {
          this.lowWarned = true;
          play('low');
        } else if (ms > LOW_MS * 1.5) {
          this.lowWarned = false;
        }
      }
    }
  }

  /** Draws side i's bar. */
  bar(bar, i) {
    const s = this.page.state;
    const you = s.seat === i;
    const turn = s.status === 'playing' && s.turn === i;
    bar.classList.toggle('turn', turn);
    bar.setAttribute('data-side', String(i));
    // A clock that has not started (before both first moves) is not
    // shown as running, though it is the side's turn.
    const running = turn && s.clock && s.clock.running === i;
    const ms = this.clockMs(i);
    const live = this.page.live();
    const clock = s.clock ? h('div.clock', { 'data-clock': String(i), role: 'timer', 'aria-label': clockLabel(s.sides[i].name, ms), class: [running ? 'running' : '', running && ms < this.lowAt() ? 'low' : '', live ? '' : 'days'].filter(Boolean).join(' ') || null }, this.clockText(ms)) : null;
    const who = this.who(i, you);
    // Made again on every move, but kept node for node where nothing
    // changed, so that a click on the name's link is not lost.
    morphChildren(bar, clock ? [who, clock] : [who]);
  }

  /** Side i's name, rating, connection and pieces. */
  who(i, you) {
    const s = this.page.state;
    const side = s.sides[i];
    const game = this.page.game;
    const info = game.sideInfo(game.parse(this.page.positionAt(this.page.ply), this.page.grid), i, s.sides);
    const hand = info && h('span.hand', { title: info.title || null },
      info.badge ? h('span', { class: info.badge.cls || null }, info.badge.text || '') : null, info.text || '');
    const away = s.status === 'playing' && side.away_since && !side.connected;
    // An account's name links to its profile; a rated game shows the
    // rating it began with and, once over, the change it made.
    const name = side.user
      ? h('a.player-name.user-link', { href: profileHref(side.user), title: t('gm.profileOf', { name: side.user }) }, side.user)
      : h('span.player-name', playerLabel(side.player, you, s.status));
    const over = s.status === 'finished' && side.rating && typeof side.rating_diff === 'number';
    return h('div.who',
      h('span.dot', { class: side.connected ? 'on' : 'off', title: side.connected ? t('gm.connected') : t('gm.notConnectedDot') }),
      h('span.side-name', h('span.chip.' + side.letter), sideText(side.name)),
      h('span.player-id', name,
        side.bot ? botTag() : null,
        side.user && you ? h('small.you', ' ' + t('gm.youTag')) : null,
        side.rating ? h('span.rating', { title: t('gm.ratingAtStart') }, side.rating) : null,
        over ? ratingDiff(side.rating_diff) : null),
      away ? h('span.away', { title: t('gm.awaySince', { time: dated(new Date(side.away_since).toLocaleTimeString(locale())) }) }, t('gm.leftGame')) : null,
      hand);
  }

  destroy() {
    clearInterval(this.timer);
  }
}
