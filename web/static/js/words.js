// Words shown to the player: results, reasons, levels. The endings of a
// game and their texts are the server's (meta.games[i].endings); a game's
// module may say some of them in its own words (endingText, games.js).

import { gameSpec } from './games.js';

/**
 * How a side is named in a sentence about the result: {name, you, wins,
 * has, their}, with "You", "You win", "have", "your" for the viewer's own
 * side.
 */
function party(sides, seat, i) {
  const you = seat != null && seat === i;
  const name = you ? 'You' : (sides && sides[i] && sides[i].name) || (i === 0 ? 'First player' : 'Second player');
  return { name, you, wins: `${name} ${you ? 'win' : 'wins'}`, has: you ? 'have' : 'has', their: you ? 'your' : 'their' };
}

/**
 * The result of a game state ({result, reason, sides, seat}) as a sentence:
 * "White wins by resignation", "Draw by agreement"; with the viewer's seat,
 * their side is "You". spec is the game's entry of the server's meta, game
 * its front-end module (either may be missing).
 */
export function resultText(state, spec, game) {
  const { result, reason, sides, seat } = state;
  const ending = ((spec && spec.endings) || []).find((e) => e.word === reason);
  const why = ending ? ending.text : reason || '';
  if (result === '1-0' || result === '0-1') {
    const w = result === '1-0' ? 0 : 1;
    const winner = party(sides, seat, w);
    const loser = party(sides, seat, 1 - w);
    const own = game && game.endingText ? game.endingText({ result, reason, text: why, winner, loser }) : '';
    if (own) return own;
    // The endings every game shares (the core's), said of the loser.
    if (reason === 'resignation') return `${loser.name} resigned · ${winner.wins}`;
    if (reason === 'time forfeit') return `${loser.name} ran out of time · ${winner.wins}`;
    if (reason === 'no legal move') return `${loser.name} ${loser.has} no legal move · ${winner.wins}`;
    return winner.wins + (why ? ` by ${why}` : '');
  }
  if (result === '1/2-1/2') {
    const own = game && game.endingText ? game.endingText({ result, reason, text: why, winner: null, loser: null }) : '';
    return own || 'Draw' + (why ? ` by ${why}` : '');
  }
  return '';
}

/** A short result for lists: "1-0", "½-½". */
export function shortResult(result) {
  if (result === '1/2-1/2') return '½-½';
  return result === '*' || !result ? '' : result;
}

export const STATUS = { waiting: 'waiting for an opponent', playing: 'playing', finished: 'finished', aborted: 'aborted' };

/** The rules in short: "standard rules", or only the options that differ. */
export function rulesLabel(meta, game, rules) {
  const spec = gameSpec(meta, game);
  if (!spec || !rules || !rules.includes('=')) return rules || 'standard rules';
  const diff = rules.split(',').filter((item) => {
    const [name, value] = item.split('=');
    const o = spec.options.find((x) => x.name === name);
    return !o || o.values[0] !== value;
  });
  return diff.length ? diff.join(', ') : 'standard rules';
}
