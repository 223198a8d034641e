// A game's lessons on its learning page: a list, and the lesson being
// solved, stage by stage (learn-drill.js): a position and a goal on the
// real board, each move judged by the rules engine (engine.js: the
// browser's once loaded, and offline; the server's POST /api/play
// meanwhile, the same answer), the computer answering in a drill of
// several moves, with a hint that points the way, an explanation, the
// stars won, and a practice game against the computer from the position
// the learner reached (docs/adding-a-game.md, "The lesson module").

import { h } from './dom.js';
import { load as loadEngine, wanted as engineWanted } from './engine.js';
import { Board } from './board.js';
import { gridFor } from './games.js';
import { t } from './i18n.js';
import { solvedLessons, markSolved, lessonStars, markStars } from './learn-progress.js';
import { play, stagesOf, outcomeOf, starsFor, replyTo, judge, limitOf } from './learn-drill.js';

export { play };

/** Starts loading the browser's engine, which the lessons use once it is ready (the server's until then). */
export function preloadEngine() {
  if (engineWanted()) loadEngine();
}

/** Stars in signs: ★ for each won, ☆ for each missed, of three. */
export function starSigns(n) {
  return '★'.repeat(n) + '☆'.repeat(3 - n);
}

/** The reasons of the rules engine (a result's) in words: why the game ended. */
const WHY = {
  'line': 'learn.why.line', 'no legal move': 'learn.why.no-legal-move', 'repetition': 'learn.why.repetition',
  'king captured': 'learn.why.king-captured', 'own king captured': 'learn.why.own-king-captured', 'no king': 'learn.why.no-king',
};

function reasonWords(reason) {
  return WHY[reason] ? t(WHY[reason]) : reason || '';
}

/**
 * The lessons of a game (its module mod and lesson module lm): a list, and
 * the one being solved on a board, stage by stage, each move judged by the
 * rules engine and the stage's goal.
 */
export class Lessons {
  constructor(game, mod, lm) {
    preloadEngine();
    this.game = game;
    this.mod = mod;
    this.lm = lm;
    this.board = null;
    this.list = h('ol.lesson-list');
    this.panel = h('section.card.lesson', { 'aria-labelledby': 'lesson-title' });
    this.node = h('section.lessons', { 'aria-labelledby': 'lessons-title' },
      h('h2#lessons-title', t('learn.lessons')), this.list, this.panel);
  }

  /** The stars of each stage of a lesson (0 for a stage not done). */
  starsOf(lesson) {
    const all = lessonStars(this.game);
    return stagesOf(lesson).map((_, s) => all[`${lesson.id}:${s}`] || 0);
  }

  renderList(current) {
    const done = solvedLessons(this.game);
    this.list.textContent = '';
    this.lm.lessons.forEach((l, i) => {
      const stars = this.starsOf(l);
      const got = stars.every((n) => n > 0) ? Math.min(...stars) : 0;
      this.list.append(h('li' + (done.includes(l.id) ? '.done' : ''), { 'data-lesson': l.id },
        h('button.link-btn', { type: 'button', 'aria-current': i === current ? 'step' : null, onclick: () => this.open(i) },
          t(l.title)),
        done.includes(l.id) ? h('span.done-mark', { title: t('learn.solved') }, ' ✓') : null,
        got ? h('span.lesson-stars', { title: t('learn.starsOf', { n: got }), 'data-stars': got }, ' ' + starSigns(got)) : null));
    });
  }

  /** The first lesson not solved yet (the first when all are). */
  openFirst() {
    const done = solvedLessons(this.game);
    const first = this.lm.lessons.findIndex((l) => !done.includes(l.id));
    this.open(first < 0 ? 0 : first);
  }

  /** Shows lesson i at stage s (by default the first without stars) on a board of its own. */
  async open(i, s) {
    const lesson = this.lm.lessons[i];
    const stages = stagesOf(lesson);
    if (s === undefined) {
      s = this.starsOf(lesson).findIndex((n) => n === 0);
      if (s < 0) s = 0;
    }
    this.renderList(i);
    this.panel.textContent = '';
    this.panel.dataset.lesson = lesson.id;
    this.panel.dataset.stage = String(s);
    this.panel.classList.toggle('hide-kings', !!lesson.hideKings);
    const c = { lesson, i, s, stage: stages[s], stages, moves: [], tries: 0, start: null, busy: false };
    this.layout(c);
    c.reset = () => {
      c.moves = [];
      c.busy = false;
      c.retry.hidden = true;
      c.msg.textContent = '';
      c.msg.className = 'lesson-msg';
      c.legal = c.start.legal;
      c.reach(c.start);
      this.board.set(c.start.position, { legal: c.legal });
    };
    c.retry.onclick = c.reset;
    try {
      c.start = await play(this.game, c.stage.position, c.stage.history || [], c.stage.rules || '');
    } catch (err) {
      this.say(c, 'error', err.message);
      return;
    }
    this.practiceLink(c);
    c.reset();
  }

  /** The panel of stage c: its title, stages and stars, board, task, hint, messages and buttons. */
  layout(c) {
    const { lesson, stage, stages, s, i } = c;
    const boardBox = h('div.board-box');
    c.msg = h('div.lesson-msg', { role: 'status', 'aria-live': 'polite' });
    const hintBox = h('p.lesson-hint', { hidden: true }, t(stage.hint));
    const hintBtn = h('button.btn.small', { type: 'button', onclick: () => { hintBox.hidden = false; } }, t('learn.hint'));
    c.retry = h('button.btn.small.retry', { type: 'button', hidden: true }, t('learn.tryAgain'));
    c.next = h('button.btn.primary.small.next', { type: 'button', hidden: true });
    const last = s + 1 >= stages.length;
    const lastLesson = i + 1 >= this.lm.lessons.length;
    c.next.textContent = !last ? t('learn.nextStage') : lastLesson ? t('learn.again') : t('learn.next');
    c.next.onclick = () => (!last ? this.open(i, s + 1) : this.open(lastLesson ? 0 : i + 1));
    const stars = this.starsOf(lesson);
    const stageList = stages.length > 1 || stage.goal !== lesson.goal ? h('ol.stage-list', { 'aria-label': t('learn.stages') }, stages.map((_, k) =>
      h('li', { 'data-stage': k, 'aria-current': k === s ? 'step' : null, 'data-stars': stars[k] },
        h('button.link-btn', { type: 'button', onclick: () => this.open(i, k) }, t('learn.stageN', { n: k + 1 })),
        ' ', h('span.stage-stars', { title: t('learn.starsOf', { n: stars[k] }) }, starSigns(stars[k]))))) : null;
    c.practice = h('p.lesson-practice');
    const notes = this.optionNotes(lesson, stage);
    const par = typeof stage.goal === 'string' ? h('p.muted.lesson-par', t(stage.goal === 'survive' ? 'learn.parSurvive' : 'learn.par', { n: stage.par || 1 })) : null;
    this.panel.append(
      h('h3#lesson-title', t('learn.lessonN', { n: i + 1, total: this.lm.lessons.length }), ' · ', t(lesson.title)),
      stageList || '',
      h('div.lesson-body',
        h('div.lesson-board', boardBox),
        h('div.lesson-side', h('p.lesson-task', t(stage.task)), notes, par, hintBox, c.msg, h('p.form-buttons', hintBtn, c.retry, c.next), c.practice)));
    this.board = new Board(boardBox, { game: this.mod, onMove: (m) => this.tryMove(c, m) });
  }

  /** The rule options a lesson teaches, each said to be an option with its default, and the stage's rules. */
  optionNotes(lesson, stage) {
    const ow = this.lm.optionWords || {};
    const out = (lesson.teaches || []).filter((name) => ow[name]).map((name) => {
      const def = Object.keys(ow[name].values)[0];
      return h('p.muted.option-note', { 'data-option': name },
        t('learn.optionNote', { option: `${t(ow[name].label)} (${name})`, value: t(ow[name].values[def]) }));
    });
    if (stage.rules) out.push(h('p.muted.stage-rules', t('learn.stageRules', { rules: stage.rules })));
    return out;
  }

  /**
   * The practice game against the computer at a level of the learner's
   * choice (/computer), from the position the learner reached in the
   * stage (c.reach keeps it up to date), or from the stage's start where
   * that game is over; the learner keeps its side.
   */
  practiceLink(c) {
    const level = h('select.practice-level', { 'aria-label': t('home.level') },
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: String(n), selected: n === 3 ? true : null }, String(n))));
    const link = h('a.btn.small.practice', {}, t('learn.practice'));
    let at = c.start.position;
    const update = () => {
      link.dataset.position = at;
      const q = new URLSearchParams({ game: this.game, position: at, level: level.value, color: c.start.turn === 0 ? 'first' : 'second' });
      if (c.stage.rules) q.set('rules', c.stage.rules);
      link.href = '/computer?' + q;
    };
    c.reach = (r) => {
      // A game over (a win, or a loss) has nothing to practise: the stage's start then.
      at = r.result === '*' ? r.position : c.start.position;
      update();
    };
    level.onchange = update;
    update();
    c.practice.append(h('label', t('learn.practiceLevel'), ' ', level), ' ', link);
  }

  say(c, cls, text) {
    c.msg.textContent = '';
    c.msg.className = 'lesson-msg ' + cls;
    c.msg.append(h('p', text));
  }

  /** Plays moves from the stage's start (its history first) with its rules. */
  playFrom(c, moves) {
    return play(this.game, c.stage.position, [...(c.stage.history || []), ...moves], c.stage.rules || '');
  }

  /** A move made on the board: a one-move task judged at once, a drill's move answered by the computer. */
  async tryMove(c, move) {
    if (c.busy) return;
    c.busy = true;
    const from = this.board.position;
    let r;
    try {
      r = await this.playFrom(c, [...c.moves, move]);
    } catch (err) {
      this.say(c, 'error', err.message);
      c.busy = false;
      this.board.set(from, { legal: c.legal });
      return;
    }
    c.moves.push(move);
    c.reach(r);
    const after = this.mod.parse(r.position, gridFor(this.mod));
    await this.board.set(r.position, { last: move, from });
    const used = Math.ceil(c.moves.length / 2);
    const verdict = judge(c.stage, r, c.start.turn, used, true, move, after);
    if (verdict) return this.settle(c, verdict, move, r);
    await this.answer(c, r);
  }

  /** The computer's reply in a drill, and the learner's turn again (or the stage's end). */
  async answer(c, r) {
    let reply;
    let r2;
    try {
      reply = await replyTo(this.game, c.stage, c.moves, r.position);
      r2 = await this.playFrom(c, [...c.moves, reply]);
    } catch (err) {
      this.say(c, 'error', err.message);
      c.retry.hidden = false;
      return;
    }
    c.moves.push(reply);
    c.reach(r2);
    await this.board.set(r2.position, { last: reply, from: r.position });
    const side = t(this.lm.sides[1 - c.start.turn]);
    const used = Math.ceil(c.moves.length / 2);
    const verdict = judge(c.stage, r2, c.start.turn, used, false, reply, null);
    if (verdict) return this.settle(c, verdict, reply, r2);
    this.say(c, 'answered', t('learn.answered', { side, move: reply }));
    c.msg.append(h('p', t('learn.yourMove', { left: limitOf(c.stage) - used })));
    c.busy = false;
    c.legal = r2.legal;
    this.board.set(r2.position, { last: reply, legal: c.legal });
  }

  /** The end of a stage: its stars won, or what went wrong (and the opponent's answer to a wrong one-move answer). */
  async settle(c, verdict, move, r) {
    const { lesson, stage } = c;
    if (verdict === 'done') {
      const n = starsFor(stage, Math.ceil(c.moves.length / 2), c.tries + 1);
      markStars(this.game, lesson.id, c.s, n);
      if (this.starsOf(lesson).every((k) => k > 0)) markSolved(this.game, lesson.id);
      this.renderList(c.i);
      this.say(c, 'right', t(stage.right));
      c.msg.append(h('p.stars-won', { 'data-stars': n }, h('span.stage-stars', starSigns(n)), ' ', t('learn.starsWon', { n })));
      const li = this.panel.querySelector(`.stage-list li[data-stage="${c.s}"]`);
      if (li) {
        const best = this.starsOf(lesson)[c.s];
        li.dataset.stars = best;
        li.querySelector('.stage-stars').textContent = starSigns(best);
      }
      c.next.hidden = false;
      c.retry.hidden = true;
      return;
    }
    c.tries++;
    const why = (stage.wrongs && stage.wrongs[move]) || stage.wrong || 'learn.drillFailed';
    this.say(c, 'wrong', t(why));
    const outcome = outcomeOf(r.result, c.start.turn);
    if (outcome && typeof stage.goal === 'string') c.msg.append(h('p', t('learn.ended', { why: reasonWords(r.reason) })));
    c.retry.hidden = false;
    const reply = stage.refute && stage.refute[move];
    if (reply) await this.refute(c, move, reply, r.position);
  }

  /** The opponent's answer to a wrong move, played on the board, with why it wins. */
  async refute(c, move, reply, from) {
    try {
      const r2 = await this.playFrom(c, [move, reply]);
      await this.board.set(r2.position, { last: reply, from });
      const side = t(this.lm.sides[1 - c.start.turn]);
      const won = outcomeOf(r2.result, 1 - c.start.turn) === 'win';
      c.msg.append(h('p', won ? t('learn.refuted', { side, move: reply }) : t('learn.answered', { side, move: reply })));
      if (won) c.msg.append(h('p.lesson-why', reasonWords(r2.reason)));
    } catch (err) {
      c.msg.append(h('p.error', err.message));
    }
  }
}
