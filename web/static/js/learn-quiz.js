// A game's rules quiz on its learning page: a position on the real board,
// a move marked on it, and a question — is the move legal, does it win,
// lose or draw at once — answered Yes or No; the rules engine (engine.js,
// as the lessons use it) gives the answer, and the explanation is the
// quiz's own (js/games/<name>-lessons.js), checked against the rules
// engine by the tests (e2e/learn_test.go, TestLessonsByTheEngine).

import { h } from './dom.js';
import { Board } from './board.js';
import { t } from './i18n.js';
import { play, outcomeOf } from './learn-drill.js';

/** The rules engine's answer to a question: true or false. */
export async function engineAnswer(game, q) {
  let r;
  try {
    r = await play(game, q.position, [...(q.history || []), q.move], q.rules || '');
  } catch (err) {
    if (err.code === 'illegal_move') return false;
    throw err;
  }
  if (q.ask === 'legal') return true;
  const start = await play(game, q.position, q.history || [], q.rules || '');
  const outcome = outcomeOf(r.result, start.turn);
  return { wins: 'win', loses: 'loss', draws: 'draw' }[q.ask] === outcome;
}

/** The question of each kind. */
const ASK = { legal: 'learn.q.legal', wins: 'learn.q.wins', loses: 'learn.q.loses', draws: 'learn.q.draws' };

/** The squares a move names ("d4-c4", "c3>b2", "d4"), to mark them on the board. */
function squaresOf(move) {
  return move.match(/[a-z][0-9]+/g) || [];
}

/** The quiz of a game (its module mod and lesson module lm). */
export class Quiz {
  constructor(game, mod, lm) {
    this.game = game;
    this.mod = mod;
    this.qs = lm.quiz;
    this.right = 0;
    this.body = h('div.quiz-body');
    this.node = h('section.card.quiz', { 'aria-labelledby': 'quiz-title' },
      h('h2#quiz-title', t('learn.quiz')), h('p.muted', t('learn.quizIntro')), this.body);
    this.show(0);
  }

  /** Shows question i (after the last, the score). */
  show(i) {
    this.body.textContent = '';
    if (i >= this.qs.length) {
      this.body.append(h('p.quiz-score', { 'data-right': this.right }, t('learn.quizScore', { n: this.right, total: this.qs.length })),
        h('button.btn.small.quiz-again', { type: 'button', onclick: () => { this.right = 0; this.show(0); } }, t('learn.again')));
      return;
    }
    const q = this.qs[i];
    const box = h('div.board-box');
    const out = h('div.quiz-out', { role: 'status', 'aria-live': 'polite' });
    const next = h('button.btn.small.primary.quiz-next', { type: 'button', hidden: true, onclick: () => this.show(i + 1) }, t('learn.quizNext'));
    const answer = (yes) => this.answer(q, yes, out, buttons, next);
    const buttons = [
      h('button.btn.small.quiz-yes', { type: 'button', onclick: () => answer(true) }, t('learn.yes')),
      h('button.btn.small.quiz-no', { type: 'button', onclick: () => answer(false) }, t('learn.no')),
    ];
    this.body.dataset.q = String(i);
    this.body.append(h('div.lesson-body',
      h('div.lesson-board', box),
      h('div.lesson-side',
        h('p.muted', t('learn.quizN', { n: i + 1, total: this.qs.length })),
        q.rules ? h('p.muted.stage-rules', t('learn.stageRules', { rules: q.rules })) : null,
        h('p.quiz-question', t(ASK[q.ask], { move: q.move })),
        h('p.form-buttons', buttons, next), out)));
    const board = new Board(box, { game: this.mod });
    play(this.game, q.position, q.history || [], q.rules || '').then((r) => board.set(r.position, { marks: squaresOf(q.move) }))
      .catch((err) => out.append(h('p.error', err.message)));
  }

  async answer(q, yes, out, buttons, next) {
    for (const b of buttons) b.disabled = true;
    let truth;
    try {
      truth = await engineAnswer(this.game, q);
    } catch (err) {
      out.append(h('p.error', err.message));
      for (const b of buttons) b.disabled = false;
      return;
    }
    const ok = yes === truth;
    if (ok) this.right++;
    out.className = 'quiz-out ' + (ok ? 'right' : 'wrong');
    out.append(h('p', t(ok ? 'learn.quizRight' : 'learn.quizWrong'), ' ', t(truth ? 'learn.yes' : 'learn.no'), ': ', t(q.why)));
    next.hidden = false;
  }
}
