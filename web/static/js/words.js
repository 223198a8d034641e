// Words shown to the player: results, reasons, levels. The endings of a
// game and their texts are the server's (meta.games[i].endings); a game's
// module may say some of them in its own words (endingText, games.js).

import { gameSpec } from './games.js';
import { t, tn, has, sideText } from './i18n.js';

/**
 * How a side is named in a sentence about the result: {name, you, wins},
 * with "You" and "You win" for the viewer's own side.
 */
function party(sides, seat, i) {
  const you = seat != null && seat === i;
  const name = you ? t('w.you') : (sides && sides[i] && sideText(sides[i].name)) || (i === 0 ? t('w.first') : t('w.second'));
  return { name, you, wins: you ? t('w.youWin') : t('w.wins', { name }) };
}

/**
 * The result of a game state ({result, reason, sides, seat}) as a sentence:
 * "White wins by resignation", "Draw by agreement"; with the viewer's seat,
 * their side is "You". spec is the game's entry of the server's meta, game
 * its front-end module (either may be missing).
 */
export function resultText(state, spec, game) {
  const { result, reason, sides, seat } = state;
  const why = endingWords(reason, spec);
  if (result === '1-0' || result === '0-1') {
    const w = result === '1-0' ? 0 : 1;
    const winner = party(sides, seat, w);
    const loser = party(sides, seat, 1 - w);
    const own = game && game.endingText ? game.endingText({ result, reason, text: why, winner, loser }) : '';
    if (own) return own;
    // The endings every game shares (the core's), said of the loser.
    const k = loser.you ? 'you' : 'they';
    const vars = { loser: loser.name, wins: winner.wins, why };
    if (reason === 'resignation') return t(`res.resigned.${k}`, vars);
    if (reason === 'time forfeit') return t(`res.time.${k}`, vars);
    if (reason === 'no legal move') return t(`res.noMove.${k}`, vars);
    if (reason === 'abandonment') return t(`res.left.${k}`, vars);
    return why ? t('res.winsBy', vars) : winner.wins;
  }
  if (result === '1/2-1/2') {
    const own = game && game.endingText ? game.endingText({ result, reason, text: why, winner: null, loser: null }) : '';
    if (own) return own;
    if (reason === 'abandonment draw') return t('res.drawLeft');
    return why ? t('res.drawBy', { why }) : t('res.draw');
  }
  return '';
}

/**
 * How a game ended (the ending's word, "time forfeit") in the language in
 * use: the catalogue's end.<word>, else the server's English text of the
 * game's ending (spec: the game's entry of the meta), else the word.
 */
export function endingWords(reason, spec) {
  if (!reason) return '';
  if (has('end.' + reason)) return t('end.' + reason);
  const ending = ((spec && spec.endings) || []).find((e) => e.word === reason);
  return ending ? ending.text : reason;
}

/** A variant's name (a rating family: "standard") in the language in use, where the catalogue has it. */
export function variantName(name) {
  // The bots' own pool of a family ("bot-standard", store.BotFamilyPrefix).
  if (typeof name === 'string' && name.startsWith('bot-')) return `${variantName(name.slice(4))} (${t('bot.pool')})`;
  return has('var.' + name) ? t('var.' + name) : name;
}

/** A variant's summary in the game's words (lm: its lesson module), else the server's English. */
export function variantSummary(lm, v) {
  return lm && lm.variants && lm.variants[v.name] ? t(lm.variants[v.name]) : v.summary;
}

/** The proof search's verdict ({winner, moves, exact}): "Proven: Black wins in 3 (moves or fewer)". */
export function provenText(proven, sides) {
  const side = sides[proven.winner] ? sideText(sides[proven.winner].name) : '';
  return proven.exact ? t('an.proven', { side, n: proven.moves }) : tn('an.provenAtMost', proven.moves, { side });
}

/** A short result for lists: "1-0", "½-½". */
export function shortResult(result) {
  if (result === '1/2-1/2') return '½-½';
  return result === '*' || !result ? '' : result;
}

export const STATUS = {
  get waiting() { return t('status.waiting'); },
  get playing() { return t('status.playing'); },
  get finished() { return t('status.finished'); },
  get aborted() { return t('status.aborted'); },
};

/** The rules in short: "standard rules", or only the options that differ. */
export function rulesLabel(meta, game, rules) {
  const spec = gameSpec(meta, game);
  if (!spec || !rules || !rules.includes('=')) return rules || t('w.standardRules');
  const diff = rules.split(',').filter((item) => {
    const [name, value] = item.split('=');
    const o = spec.options.find((x) => x.name === name);
    return !o || o.values[0] !== value;
  });
  return diff.length ? diff.join(', ') : t('w.standardRules');
}

/**
 * A game's moves counted as the game page numbers them, a move of each
 * side to a number: from the plies (half-moves) the server counts.
 */
export function moveCount(plies) {
  return Math.ceil((plies || 0) / 2);
}

/**
 * How a player's name is shown: "Anonymous" for a person in a game from
 * before accounts, the deleted player in the page's language for an
 * account that was deleted (the server's "deleted player"), "…" for a free
 * seat.
 */
export function playerName(p) {
  if (p === 'human') return t('w.anonymous');
  if (p === 'deleted player') return t('w.deletedPlayer');
  // The server names the computer in English, "computer (level 5)".
  const level = /^computer \(level (\d+)\)$/.exec(p || '');
  if (level) return t('gm.computerLevel', { level: level[1] });
  return p || '…';
}

/**
 * Whether a name a summary gives is an account's, which has a profile: a
 * guest's ("Guest-4821"), the computer's ("computer (level 3)") and an old
 * game's "human" are not (account names are 2 to 20 letters, digits, - and
 * _, and never start with "guest").
 */
export function isAccountName(p) {
  return typeof p === 'string' && /^[A-Za-z0-9_-]{2,20}$/.test(p) && !/^guest/i.test(p) && p.toLowerCase() !== 'human';
}

/** The days a move of a correspondence clock ("3d"), or 0 for another clock. */
export function clockDays(clock) {
  const m = /^(\d+)d$/.exec(String(clock || ''));
  return m ? Number(m[1]) : 0;
}

/** A summary's clock for lists: "5+3", "3 days a move", "no clock"; '' when the summary does not say. */
export function clockLabel(clock) {
  if (clock == null) return '';
  const days = clockDays(clock);
  if (days) return tn('w.days', days);
  return clock === '' ? t('w.noClock') : clock;
}

/** A clock as "5+3" (or "3d", days a move) from a state's clock object, '' for none. */
export function stateClock(c) {
  if (!c) return '';
  if (c.per_move) return `${Math.round(c.initial_ms / 86400000)}d`;
  return `${Math.round(c.initial_ms / 60000)}+${Math.round(c.increment_ms / 1000)}`;
}

/**
 * Why a game was aborted, as a sentence: by a player before the first
 * moves, for want of a first move in time, or (older games) by the server
 * after a day without a move.
 */
export function abortText(state) {
  const { reason, sides, seat, turn } = state;
  if (reason === 'aborted') return t('abort.before');
  if (reason === 'no first move') {
    const who = party(sides, seat, turn);
    return who.you ? t('abort.noFirst.you') : t('abort.noFirst.they', { name: who.name });
  }
  return t('abort.idle');
}

/** The rating bounds of a seek: "1400–1800", "1400 or more", "up to 1800", or ''. */
export function rangeLabel(min, max) {
  if (min > 0 && max > 0) return `${min}–${max}`;
  if (min > 0) return t('w.orMore', { min });
  if (max > 0) return t('w.upTo', { max });
  return '';
}

/** A result from one player's view: 'win', 'loss', 'draw', or '' (i is their side; -1 when not known). */
export function outcomeFor(result, i) {
  if (result === '1/2-1/2') return 'draw';
  if (i !== 0 && i !== 1) return '';
  if (result === '1-0') return i === 0 ? 'win' : 'loss';
  if (result === '0-1') return i === 1 ? 'win' : 'loss';
  return '';
}
