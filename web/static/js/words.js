// Words shown to the player: results, reasons, levels.

const REASONS = {
  'line': 'a line of four made by magnetism',
  'king captured': 'capturing the King',
  'own king captured': 'an own King covered',
  'no king': 'no King left',
  'no legal move': 'no legal move',
  'repetition': 'threefold repetition',
  'resignation': 'resignation',
  'agreement': 'agreement',
  'time forfeit': 'time',
};

/**
 * The result as a sentence: "White wins by resignation", "Draw by
 * agreement"; with the viewer's seat, their side is "You".
 */
export function resultText(result, reason, sides, seat) {
  const why = REASONS[reason] || reason || '';
  const you = (i) => seat != null && seat === i;
  const name = (i) => (you(i) ? 'You' : (sides && sides[i] && sides[i].name) || (i === 0 ? 'First player' : 'Second player'));
  const wins = (i) => `${name(i)} ${you(i) ? 'win' : 'wins'}`;
  if (result === '1-0' || result === '0-1') {
    const w = result === '1-0' ? 0 : 1;
    const l = 1 - w;
    if (reason === 'resignation') return `${name(l)} resigned · ${wins(w)}`;
    if (reason === 'time forfeit') return `${name(l)} ran out of time · ${wins(w)}`;
    if (reason === 'own king captured') return `${name(l)} covered ${you(l) ? 'your' : 'their'} own King · ${wins(w)}`;
    if (reason === 'no king') return `${name(l)} ${you(l) ? 'have' : 'has'} no King left · ${wins(w)}`;
    if (reason === 'no legal move') return `${name(l)} ${you(l) ? 'have' : 'has'} no legal move · ${wins(w)}`;
    return wins(w) + (why ? ` by ${why}` : '');
  }
  if (result === '1/2-1/2') return 'Draw' + (why ? ` by ${why}` : '');
  return '';
}

/** A short result for lists: "1-0", "½-½". */
export function shortResult(result) {
  if (result === '1/2-1/2') return '½-½';
  return result === '*' || !result ? '' : result;
}

export const STATUS = { waiting: 'waiting for an opponent', playing: 'playing', finished: 'finished' };

/** The rules in short: "standard rules", or only the options that differ. */
export function rulesLabel(meta, game, rules) {
  const spec = meta && meta.games.find((g) => g.name === game);
  if (!spec || !rules || !rules.includes('=')) return rules || 'standard rules';
  const diff = rules.split(',').filter((item) => {
    const [name, value] = item.split('=');
    const o = spec.options.find((x) => x.name === name);
    return !o || o.values[0] !== value;
  });
  return diff.length ? diff.join(', ') : 'standard rules';
}
