// A game's lessons on its learning page: a list, and the lesson being
// solved: a position and a task on the real board, each move judged by the
// rules engine (engine.js: the browser's once loaded, and offline; the
// server's POST /api/play meanwhile, the same answer) and checked against
// the lesson's goal, with a hint, an explanation, and the opponent's
// answer to a wrong move (docs/adding-a-game.md, "The lesson module").

import { h } from './dom.js';
import { play as enginePlay, load as loadEngine, wanted as engineWanted } from './engine.js';
import { Board } from './board.js';
import { gridFor } from './games.js';
import { t } from './i18n.js';
import { solvedLessons, markSolved } from './learn-progress.js';

/** The rules engine plays moves from a position (the answer of POST /api/play). */
export function play(game, position, moves, rules = '') {
  return enginePlay({ game, rules, position, moves });
}

/** Starts loading the browser's engine, which the lessons use once it is ready (the server's until then). */
export function preloadEngine() {
  if (engineWanted()) loadEngine();
}

/** The outcome of a result for the side that moved: 'win', 'loss' or ''. */
function outcomeOf(result, mover) {
  if (result === '1-0') return mover === 0 ? 'win' : 'loss';
  if (result === '0-1') return mover === 1 ? 'win' : 'loss';
  return '';
}

/**
 * The lessons of a game (its module mod and lesson module lm): a list, and
 * the one being solved on a board, each move judged by the rules engine and
 * the lesson's goal.
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

  renderList(current) {
    const done = solvedLessons(this.game);
    this.list.textContent = '';
    this.lm.lessons.forEach((l, i) => {
      this.list.append(h('li' + (done.includes(l.id) ? '.done' : ''), { 'data-lesson': l.id },
        h('button.link-btn', { type: 'button', 'aria-current': i === current ? 'step' : null, onclick: () => this.open(i) },
          t(l.title)),
        done.includes(l.id) ? h('span.done-mark', { title: t('learn.solved') }, ' ✓') : null));
    });
  }

  /** The first lesson not solved yet (the first when all are). */
  openFirst() {
    const done = solvedLessons(this.game);
    const first = this.lm.lessons.findIndex((l) => !done.includes(l.id));
    this.open(first < 0 ? 0 : first);
  }

  /** Shows lesson i on a board of its own. */
  async open(i) {
    const lessons = this.lm.lessons;
    const lesson = lessons[i];
    this.renderList(i);
    this.panel.textContent = '';
    this.panel.dataset.lesson = lesson.id;
    const boardBox = h('div.board-box');
    const c = { lesson, i, start: null };
    c.msg = h('div.lesson-msg', { role: 'status', 'aria-live': 'polite' });
    const hintBox = h('p.lesson-hint', { hidden: true }, t(lesson.hint));
    const hintBtn = h('button.btn.small', { type: 'button', onclick: () => { hintBox.hidden = false; } }, t('learn.hint'));
    c.retry = h('button.btn.small.retry', { type: 'button', hidden: true }, t('learn.tryAgain'));
    c.next = h('button.btn.primary.small.next', { type: 'button', hidden: true }, t('learn.next'));
    this.panel.append(
      h('h3#lesson-title', t('learn.lessonN', { n: i + 1, total: lessons.length }), ' · ', t(lesson.title)),
      h('div.lesson-body',
        h('div.lesson-board', boardBox),
        h('div.lesson-side', h('p.lesson-task', t(lesson.task)), hintBox, c.msg, h('p.form-buttons', hintBtn, c.retry, c.next))));
    this.board = new Board(boardBox, { game: this.mod, onMove: (m) => this.tryMove(c, m) });
    c.reset = () => {
      c.retry.hidden = true;
      c.msg.textContent = '';
      c.msg.className = 'lesson-msg';
      this.board.set(lesson.position, { legal: c.start.legal });
    };
    c.retry.onclick = c.reset;
    c.next.onclick = () => this.open(i + 1 < lessons.length ? i + 1 : 0);
    c.next.textContent = i + 1 < lessons.length ? t('learn.next') : t('learn.again');
    try {
      c.start = await play(this.game, lesson.position, []);
    } catch (err) {
      this.say(c, 'error', err.message);
      return;
    }
    c.reset();
  }

  say(c, cls, text) {
    c.msg.textContent = '';
    c.msg.className = 'lesson-msg ' + cls;
    c.msg.append(h('p', text));
  }

  /** A move made on the lesson c's board: judged, and a wrong one explained (and refuted). */
  async tryMove(c, move) {
    const { lesson } = c;
    const board = this.board;
    board.set(lesson.position, { last: '' });
    let r;
    try {
      r = await play(this.game, lesson.position, [move]);
    } catch (err) {
      this.say(c, 'error', err.message);
      c.reset();
      return;
    }
    const after = this.mod.parse(r.position, gridFor(this.mod));
    const outcome = outcomeOf(r.result, c.start.turn);
    await board.set(r.position, { last: move, from: lesson.position });
    if (lesson.goal(move, after, outcome)) {
      markSolved(this.game, lesson.id);
      this.renderList(c.i);
      this.say(c, 'right', t(lesson.right));
      c.next.hidden = false;
      c.retry.hidden = true;
      return;
    }
    const why = (lesson.wrongs && lesson.wrongs[move]) || lesson.wrong;
    this.say(c, 'wrong', t(why));
    c.retry.hidden = false;
    const reply = lesson.refute && lesson.refute[move];
    if (reply) await this.refute(c, move, reply, r.position);
  }

  /** The opponent's answer to a wrong move, played on the board. */
  async refute(c, move, reply, from) {
    try {
      const r2 = await play(this.game, c.lesson.position, [move, reply]);
      await this.board.set(r2.position, { last: reply, from });
      const side = t(this.lm.sides[1 - c.start.turn]);
      c.msg.append(h('p', outcomeOf(r2.result, 1 - c.start.turn) === 'win'
        ? t('learn.refuted', { side, move: reply }) : t('learn.answered', { side, move: reply })));
    } catch (err) {
      c.msg.append(h('p.error', err.message));
    }
  }
}

