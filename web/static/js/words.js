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

/** The result as a sentence: "White wins by resignation", "Draw by agreement". */
export function resultText(result, reason, sides) {
  const why = REASONS[reason] || reason || '';
  const name = (i) => (sides && sides[i] && sides[i].name) || (i === 0 ? 'First player' : 'Second player');
  if (result === '1-0' || result === '0-1') {
    const w = result === '1-0' ? 0 : 1;
    if (reason === 'resignation') return `${name(1 - w)} resigned · ${name(w)} wins`;
    if (reason === 'time forfeit') return `${name(1 - w)} ran out of time · ${name(w)} wins`;
    if (reason === 'own king captured') return `${name(1 - w)} covered their own King · ${name(w)} wins`;
    if (reason === 'no king') return `${name(1 - w)} has no King left · ${name(w)} wins`;
    if (reason === 'no legal move') return `${name(1 - w)} has no legal move · ${name(w)} wins`;
    return `${name(w)} wins` + (why ? ` by ${why}` : '');
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
