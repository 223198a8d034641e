// The game page's status box: the game's title, kind and rules (with a
// link to its rules and lessons), then the result of a game that is over,
// or whose turn it is (the computer's: that it is thinking), and the
// countdown of a side's first move. The
// page's countdowns (this one, the claim's) run between the server's
// messages: tickCountdowns.

import { h, secondsLeft } from './dom.js';
import { t, sideText } from './i18n.js';
import { api, gameTitle } from './api.js';
import { gameSpec } from './games.js';
import { resultText, rulesLabel, stateClock, clockLabel, abortText, variantName } from './words.js';

/** A countdown's sentence: {s} becomes the seconds (or minutes) left until the server's moment at; now is the server's time. */
export function countdownText(text, at, now) {
  const secs = secondsLeft(at - now);
  let left = `${secs} s`;
  if (secs >= 2 * 86400) left = `${Math.floor(secs / 86400)} days`;
  else if (secs >= 2 * 3600) left = `${Math.floor(secs / 3600)} hours`;
  else if (secs >= 120) left = `${Math.ceil(secs / 60)} min`;
  return text.replace('{s}', left);
}

/** Brings the countdowns under root ([data-deadline], [data-text]) up to the server's time now. */
export function tickCountdowns(root, now) {
  for (const e of root.querySelectorAll('[data-deadline]')) {
    const text = countdownText(e.dataset.text, Number(e.dataset.deadline), now);
    if (e.textContent !== text) e.textContent = text;
  }
}

/** The names of the tournaments whose games this page showed, by id. */
const tournamentNames = new Map();

/** The status box of the game page page (its state, meta and game module). */
export class StatusBox {
  constructor(page) {
    this.page = page;
    this.node = h('div.status', { role: 'status', 'aria-live': 'polite' });
  }

  render() {
    const s = this.page.state;
    const box = this.node;
    box.textContent = '';
    box.className = 'status';
    const kind = [s.rated ? t('home.ratedLabel') : t('gm.casual'), clockLabel(stateClock(s.clock)) || t('w.noClock')].join(' · ');
    const rules = h('div.rules', { title: s.rules || variantName('standard') }, `${kind} · ${rulesLabel(this.page.meta, s.game, s.rules)}`);
    // The game's rules and lessons, for whoever opened a game they do not know.
    const rulesLink = h('a.rules-link', { href: `/learn/${encodeURIComponent(s.game)}`, target: '_blank', rel: 'noopener' }, t('gm.rulesLink'));
    box.append(h('div.title', gameTitle(s.game, s.title), ' ', rulesLink, rules, this.tournamentLine(s)));
    box.append(this.line(s));
    if (s.status === 'finished' || s.status === 'aborted') box.classList.add('over');
    if (s.status === 'playing' && s.first_move_by) {
      // Before each side's first move the clocks stand still; the side
      // to move has this long, or the game is aborted.
      const text = s.seat === s.turn ? t('gm.firstMoveYou') : t('gm.firstMove', { side: sideText(s.sides[s.turn].name) });
      box.append(h('div.line.first-move', {
        'data-deadline': String(s.first_move_by),
        'data-text': text,
      }, countdownText(text, s.first_move_by, this.page.serverNow())));
    }
  }

  /** A tournament's game: a link to the tournament, named once read. */
  tournamentLine(s) {
    if (!s.tournament) return null;
    const name = tournamentNames.get(s.tournament);
    if (name === undefined) {
      tournamentNames.set(s.tournament, '');
      api('GET', `/api/tournaments/${encodeURIComponent(s.tournament)}`).then((d) => {
        tournamentNames.set(s.tournament, d.name);
        this.render();
      }, () => {});
    }
    return h('div.tournament-of', h('a#game-tournament', { href: `/tournaments/${encodeURIComponent(s.tournament)}` },
      t('tn.ofGame', { name: name || '…' })));
  }

  /** The result, or whose turn it is. */
  line(s) {
    if (s.status === 'finished') {
      return h('div.result', { 'data-result': s.result },
        h('strong.score', s.result === '1/2-1/2' ? '½-½' : s.result), h('span.reason', resultText(s, gameSpec(this.page.meta, s.game), this.page.game)));
    }
    if (s.status === 'aborted') {
      return h('div.result', { 'data-result': 'aborted' }, h('strong.score', t('gm.aborted')), h('span.reason', abortText(s)));
    }
    if (s.status === 'waiting') return h('div.line', t('gm.waitingJoin'));
    if (s.status === 'playing' && s.computer && s.turn === s.computer.seat) {
      // The same words wherever the computer thinks, the server or this browser.
      if (this.page.computer && this.page.computer.stuck) return h('div.line.computer-stuck', t('gm.computerStuck'));
      return h('div.line.computer-thinking', t('gm.computerThinking'));
    }
    if (s.seat == null) return h('div.line', t('gm.watchingToMove', { side: sideText(s.sides[s.turn].name) }));
    if (s.seat === s.turn) return h('div.line.your-turn', t('home.yourTurn'));
    return h('div.line', t('gm.toMove', { side: sideText(s.sides[s.turn].name) }));
  }
}
