// Learning to play: /learn lists the games, /learn/<game> shows a game's
// rules in plain words with live diagrams (the real board, positions played
// by the rules engine) and its variants, then its lessons: a position and a
// task solved on the board, each move judged by the server's rules engine
// (POST /api/play) and checked against the lesson's goal, with a hint and
// an explanation. The texts, positions and goals are the game's own, in
// js/games/<name>-learn.js. Progress is kept in the browser for a guest
// and on the server for an account.

import { h } from './dom.js';
import { api, metaFor } from './api.js';
import { Board } from './board.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { t, addTexts } from './i18n.js';
import { account, loggedIn, whenAccount } from './account.js';

/** The names every lesson module exports (docs/adding-a-game.md, "The lesson module"); optionWords is optional. */
export const LEARN_INTERFACE = ['sides', 'pitch', 'rules', 'variants', 'options', 'lessons', 'texts'];

const learnModules = new Map();

/** A game's learning module (rules, lessons, texts), loaded once; its texts join the catalogues. */
export function loadLearn(name) {
  if (!learnModules.has(name)) {
    const p = import(`./games/${name}-learn.js`).then((m) => {
      const missing = LEARN_INTERFACE.filter((k) => !(k in m));
      if (missing.length) throw new Error(`js/games/${name}-learn.js does not export ${missing.join(', ')}`);
      addTexts(m.texts);
      return m;
    });
    learnModules.set(name, p);
    p.catch(() => learnModules.delete(name));
  }
  return learnModules.get(name);
}

// Progress: a guest's solved lessons are kept in this browser's
// localStorage ("learn.<game>"); an account's on the server
// (GET /api/account/learn, POST /api/account/learn/<game>), where the
// lessons solved as a guest in this browser go too once logged in. When the
// server cannot be asked, the browser keeps them.
let remote = null; // the account's solved lessons by game, as the server said
let remoteFor = '';

function localSolved(game) {
  try {
    const v = JSON.parse(localStorage.getItem('learn.' + game) || '[]');
    return Array.isArray(v) ? v : [];
  } catch (e) {
    return [];
  }
}

function setLocal(game, ids) {
  try {
    if (ids.length) localStorage.setItem('learn.' + game, JSON.stringify(ids));
    else localStorage.removeItem('learn.' + game);
  } catch (e) {
    // private browsing: kept for this page only
  }
}

/** Reads the account's progress from the server (once per account) and hands it a guest's progress of game. */
async function syncProgress(game) {
  await whenAccount();
  if (!loggedIn()) {
    remote = null;
    remoteFor = '';
    return;
  }
  const name = account().name;
  try {
    if (!remote || remoteFor !== name) {
      remote = (await api('GET', '/api/account/learn')) || {};
      remoteFor = name;
    }
    const mine = localSolved(game).filter((id) => !(remote[game] || []).includes(id));
    if (mine.length) {
      await api('POST', `/api/account/learn/${encodeURIComponent(game)}`, { solved: mine });
      remote[game] = [...(remote[game] || []), ...mine];
      setLocal(game, []);
    }
  } catch (err) {
    // No progress on the server (or not now): the browser keeps it.
    remote = null;
    remoteFor = '';
  }
}

/** The ids of a game's lessons solved: the account's, or this browser's for a guest. */
export function solvedLessons(game) {
  const local = localSolved(game);
  if (!remote) return local;
  return [...new Set([...(remote[game] || []), ...local])];
}

function markSolved(game, id) {
  if (solvedLessons(game).includes(id)) return;
  if (!remote) {
    setLocal(game, [...localSolved(game), id]);
    return;
  }
  remote[game] = [...(remote[game] || []), id];
  // window.learnSaving counts the saves under way (the browser tests wait for none).
  window.learnSaving = (window.learnSaving || 0) + 1;
  api('POST', `/api/account/learn/${encodeURIComponent(game)}`, { solved: [id] }).catch(() => {
    setLocal(game, [...localSolved(game), id]); // kept in the browser meanwhile
  }).finally(() => {
    window.learnSaving--;
  });
}

/** POST /api/play: the engine plays moves from a position. */
function play(game, position, moves, rules = '') {
  return api('POST', '/api/play', { game, rules, position, moves });
}

/** The outcome of a result for the side that moved: 'win', 'loss' or ''. */
function outcomeOf(result, mover) {
  if (result === '1-0') return mover === 0 ? 'win' : 'loss';
  if (result === '0-1') return mover === 1 ? 'win' : 'loss';
  return '';
}

/** A live diagram: a position on the real board, with a button that plays its move when it has one. */
function diagram(game, mod, d) {
  const box = h('div.board-box');
  const fig = h('figure.diagram', box, h('figcaption', t(d.caption)));
  const board = new Board(box, { game: mod });
  board.root.setAttribute('aria-label', t('learn.diagram', { caption: t(d.caption) }));
  board.set(d.position, { marks: d.marks || [] });
  if (d.move) {
    let played = false;
    const btn = h('button.btn.small', { type: 'button' }, t('learn.playMove', { move: d.move }));
    const out = h('p.diagram-out', { 'aria-live': 'polite' });
    btn.onclick = async () => {
      if (played) {
        played = false;
        btn.textContent = t('learn.playMove', { move: d.move });
        out.textContent = '';
        board.set(d.position, { marks: d.marks || [] });
        return;
      }
      btn.disabled = true;
      try {
        const r = await play(game, d.position, [d.move]);
        played = true;
        btn.textContent = t('learn.reset');
        out.textContent = r.result && r.result !== '*' ? t('learn.moveWins', { move: d.move }) : t('learn.movePlayed', { move: d.move });
        await board.set(r.position, { last: d.move, from: d.position });
      } catch (err) {
        out.textContent = err.message;
        out.className = 'diagram-out error';
      }
      btn.disabled = false;
    };
    fig.append(h('div.diagram-actions', btn, out));
  }
  return fig;
}

/** /learn: the games, each with its rules and lessons and the lessons solved. */
export function learnIndexView() {
  const node = h('div.learn-page');
  return {
    node,
    async mounted() {
      const meta = await metaFor(node);
      if (!meta) return;
      const cards = [];
      for (const g of meta.games) {
        let lm = null;
        try {
          lm = await loadLearn(g.name);
        } catch (err) {
          lm = null;
        }
        await syncProgress(g.name);
        const done = solvedLessons(g.name).length;
        const total = lm ? lm.lessons.length : 0;
        cards.push(h('section.card.learn-card', { 'data-game': g.name },
          h('h2', g.title),
          lm ? h('p', t(lm.pitch)) : h('p.muted', t('learn.none')),
          lm ? h('p.muted.learn-progress', t('learn.progress', { done, total })) : null,
          h('p.form-buttons',
            h('a.btn.primary', { href: `/learn/${g.name}` }, t('learn.open')),
            h('a.btn', { href: `/puzzles?game=${g.name}` }, t('nav.puzzles')))));
      }
      node.append(h('h1', t('learn.title')), h('p.lead', t('learn.intro')), h('div.learn-cards', cards));
    },
  };
}

/** /learn/<game>: the rules, the variants and the lessons of one game. */
export function learnGameView(name) {
  const node = h('div.learn-page');
  let lessonBoard = null;
  return {
    node,
    async mounted() {
      const meta = await metaFor(node);
      if (!meta) return;
      const spec = gameSpec(meta, name);
      if (!spec) {
        node.append(h('p.error', t('learn.noGame', { name })));
        return;
      }
      let mod;
      let lm;
      try {
        mod = await loadGame(spec.name);
        lm = await loadLearn(spec.name);
      } catch (err) {
        node.append(h('h1', spec.title), h('p.error', t('learn.noLessons', { game: spec.title })));
        return;
      }
      const game = spec.name;
      await syncProgress(game);

      // The rules, section by section, with their diagrams.
      const rules = h('section.card.rules', { 'aria-labelledby': 'rules-title' },
        h('h2#rules-title', t('learn.rules')),
        lm.rules.map((s) => h('section.rules-section' + (s.surprise ? '.surprise' : ''),
          h('h3', t(s.title)),
          s.body.map((k) => h('p', t(k))),
          s.diagrams ? h('div.diagrams', s.diagrams.map((d) => diagram(game, mod, d))) : null)));

      // The variants (the server's list) and the options in words.
      const variants = h('section.card.variants', { 'aria-labelledby': 'variants-title' },
        h('h2#variants-title', t('learn.variants')),
        h('ul.variant-list', (spec.variants || []).map((v) => h('li', { 'data-variant': v.name },
          h('strong', v.name), ' — ', lm.variants[v.name] ? t(lm.variants[v.name]) : v.summary))),
        h('h3', t('learn.options')),
        h('dl.option-list', (spec.options || []).map((o) => {
          // In words, with the rules text's name and values beside them
          // for those who write rules strings (the engine protocol, the API).
          const ow = lm.optionWords && lm.optionWords[o.name];
          const value = (v) => (ow && ow.values[v] ? t(ow.values[v]) : v);
          return [
            h('dt', { 'data-option': o.name }, h('strong', ow ? t(ow.label) : o.name), ' ', h('span.muted', o.values.map(value).join(' / ')),
              ' ', h('code.muted', `${o.name}=${o.values.join('|')}`)),
            h('dd', lm.options[o.name] ? t(lm.options[o.name]) : o.summary),
          ];
        })));

      // The lessons: a list, and the one being solved.
      const list = h('ol.lesson-list');
      const panel = h('section.card.lesson', { 'aria-labelledby': 'lesson-title' });
      const lessons = h('section.lessons', { 'aria-labelledby': 'lessons-title' },
        h('h2#lessons-title', t('learn.lessons')), list, panel);

      const renderList = (current) => {
        const done = solvedLessons(game);
        list.textContent = '';
        lm.lessons.forEach((l, i) => {
          list.append(h('li' + (done.includes(l.id) ? '.done' : ''), { 'data-lesson': l.id },
            h('button.link-btn', { type: 'button', 'aria-current': i === current ? 'step' : null, onclick: () => open(i) },
              t(l.title)),
            done.includes(l.id) ? h('span.done-mark', { title: t('learn.solved') }, ' ✓') : null));
        });
      };

      async function open(i) {
        const lesson = lm.lessons[i];
        renderList(i);
        panel.textContent = '';
        panel.dataset.lesson = lesson.id;
        const boardBox = h('div.board-box');
        const msg = h('div.lesson-msg', { role: 'status', 'aria-live': 'polite' });
        const hintBox = h('p.lesson-hint', { hidden: true }, t(lesson.hint));
        const hintBtn = h('button.btn.small', { type: 'button', onclick: () => { hintBox.hidden = false; } }, t('learn.hint'));
        const retry = h('button.btn.small.retry', { type: 'button', hidden: true }, t('learn.tryAgain'));
        const next = h('button.btn.primary.small.next', { type: 'button', hidden: true }, t('learn.next'));
        panel.append(
          h('h3#lesson-title', t('learn.lessonN', { n: i + 1, total: lm.lessons.length }), ' · ', t(lesson.title)),
          h('div.lesson-body',
            h('div.lesson-board', boardBox),
            h('div.lesson-side',
              h('p.lesson-task', t(lesson.task)),
              hintBox,
              msg,
              h('p.form-buttons', hintBtn, retry, next))));
        lessonBoard = new Board(boardBox, { game: mod, onMove: (m) => tryMove(m) });
        let start;
        const say = (cls, text) => {
          msg.textContent = '';
          msg.className = 'lesson-msg ' + cls;
          msg.append(h('p', text));
        };
        const reset = () => {
          retry.hidden = true;
          msg.textContent = '';
          msg.className = 'lesson-msg';
          lessonBoard.set(lesson.position, { legal: start.legal });
        };
        retry.onclick = reset;
        next.onclick = () => open(i + 1 < lm.lessons.length ? i + 1 : 0);
        next.textContent = i + 1 < lm.lessons.length ? t('learn.next') : t('learn.again');
        try {
          start = await play(game, lesson.position, []);
        } catch (err) {
          say('error', err.message);
          return;
        }
        reset();

        async function tryMove(move) {
          lessonBoard.set(lesson.position, { last: '' });
          let r;
          try {
            r = await play(game, lesson.position, [move]);
          } catch (err) {
            say('error', err.message);
            reset();
            return;
          }
          const after = mod.parse(r.position, gridFor(mod));
          const outcome = outcomeOf(r.result, start.turn);
          await lessonBoard.set(r.position, { last: move, from: lesson.position });
          if (lesson.goal(move, after, outcome)) {
            markSolved(game, lesson.id);
            renderList(i);
            say('right', t(lesson.right));
            next.hidden = false;
            retry.hidden = true;
            return;
          }
          const why = (lesson.wrongs && lesson.wrongs[move]) || lesson.wrong;
          say('wrong', t(why));
          retry.hidden = false;
          const reply = lesson.refute && lesson.refute[move];
          if (reply) {
            try {
              const r2 = await play(game, lesson.position, [move, reply]);
              await lessonBoard.set(r2.position, { last: reply, from: r.position });
              const side = t(lm.sides[1 - start.turn]);
              msg.append(h('p', outcomeOf(r2.result, 1 - start.turn) === 'win'
                ? t('learn.refuted', { side, move: reply }) : t('learn.answered', { side, move: reply })));
            } catch (err) {
              msg.append(h('p.error', err.message));
            }
          }
        }
      }

      const nav = h('nav.learn-toc', { 'aria-label': t('learn.contents') },
        h('a', { href: '#rules-title' }, t('learn.rules')), ' · ',
        h('a', { href: '#variants-title' }, t('learn.variants')), ' · ',
        h('a', { href: '#lessons-title' }, t('learn.lessons')), ' · ',
        h('a', { href: `/puzzles?game=${game}` }, t('nav.puzzles')));
      node.append(
        h('p.crumbs', h('a', { href: '/learn' }, t('learn.title'))),
        h('h1', t('learn.howTo', { game: spec.title })),
        h('p.lead', t(lm.pitch)),
        nav, lessons, rules, variants);
      const done = solvedLessons(game);
      const first = lm.lessons.findIndex((l) => !done.includes(l.id));
      open(first < 0 ? 0 : first);
    },
    destroy() {
      lessonBoard = null;
    },
  };
}
