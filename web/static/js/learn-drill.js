// A lesson's stages as drills: each stage a position, a goal and a par
// (docs/adding-a-game.md, "The lesson module"): a win, a draw or a
// defence reached in a few moves against the computer's replies, scored in
// stars by the moves used (or the tries, for a one-move task). The
// computer's replies are the stage's script where it has one (checked by
// the rules engine when played, and by the tests), else the best move of
// the browser's engine once it is ready (engine.js computerMove), else of
// the server's analysis (POST /api/analyze).

import { api } from './api.js';
import { play as enginePlay, computerMove, status as engineStatus, wanted as engineWanted } from './engine.js';

/** The rules engine plays moves from a position (the answer of POST /api/play). */
export function play(game, position, moves, rules = '') {
  return enginePlay({ game, rules, position, moves });
}

/** A lesson's stages: its own, or the lesson itself as its one stage (a one-move task). */
export function stagesOf(lesson) {
  return lesson.stages || [lesson];
}

/** The outcome of a result for a side: 'win', 'loss', 'draw' or '' while it goes on. */
export function outcomeOf(result, side) {
  if (result === '1-0') return side === 0 ? 'win' : 'loss';
  if (result === '0-1') return side === 1 ? 'win' : 'loss';
  if (result === '1/2-1/2') return 'draw';
  return '';
}

/** The most moves of the learner a stage allows: its limit, else two more than its par. */
export function limitOf(stage) {
  return stage.limit || (stage.par || 1) + 2;
}

/**
 * The stars of a stage done: for a goal reached in moves, 3 at par, 2 one
 * move over, 1 beyond; for a one-move task or a defence, 3 at the first
 * try, 2 at the second, 1 after.
 */
export function starsFor(stage, used, tries) {
  const over = typeof stage.goal === 'string' && stage.goal !== 'survive' ? used - (stage.par || 1) : tries - 1;
  return Math.max(1, Math.min(3, 3 - over));
}

/** The computer's reply after the learner's moves: the script's, else the engine's best. */
export async function replyTo(game, stage, moves, position) {
  const scripted = stage.replies && stage.replies[moves.join(' ')];
  if (scripted) return scripted;
  const rules = stage.rules || '';
  const start = stage.position;
  if (engineWanted() && engineStatus() === 'ready') {
    try {
      const m = await computerMove({ game, rules, start, moves: [...(stage.history || []), ...moves], level: 7, movetime_ms: 400 });
      if (m && m.move) return m.move;
    } catch (err) {
      // the server's analysis below
    }
  }
  const a = await api('POST', '/api/analyze', { game, rules, position, movetime_ms: 400 });
  return a.best;
}

/**
 * Whether a stage is done after the position r (the rules engine's answer)
 * reached by the learner's `used` moves, the last by the learner (mine)
 * or the computer: 'done', 'failed', or '' to go on. side is the
 * learner's; move and after (the position parsed) are the last move's.
 */
export function judge(stage, r, side, used, mine, move, after) {
  const outcome = outcomeOf(r.result, side);
  if (typeof stage.goal === 'function') return stage.goal(move, after, outcome === 'draw' ? '' : outcome, r) ? 'done' : 'failed';
  const reasonOK = !stage.reason || stage.reason === r.reason;
  if (outcome === 'win') return stage.goal !== 'win' || reasonOK ? 'done' : 'failed';
  // A draw holds out as well as a game going on.
  if (outcome === 'draw') return (stage.goal === 'draw' && reasonOK) || stage.goal === 'survive' ? 'done' : 'failed';
  if (outcome === 'loss') return 'failed';
  if (stage.goal === 'survive') return !mine && used >= (stage.par || 1) ? 'done' : '';
  return mine && used >= limitOf(stage) ? 'failed' : '';
}
