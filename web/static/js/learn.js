// Learning to play: /learn lists the games, /learn/<game> shows a game's
// rules in plain words with live diagrams (the real board, positions played
// by the rules engine) and its variants, then its lessons: a position and a
// task solved on the board, each move judged by the rules engine (the
// browser's, engine.js, or the server's POST /api/play while it loads) and
// checked against the lesson's goal, with a hint and an explanation
// (learn-lessons.js). The texts, positions and goals are the game's own,
// in js/games/<name>-learn.js. Progress is kept in the browser for a guest
// and on the server for an account (learn-progress.js), kept in the
// browser while offline and sent when the network is back.

import { h } from './dom.js';
import { metaFor } from './api.js';
import { Board } from './board.js';
import { gameSpec, loadGame } from './games.js';
import { t, addTexts } from './i18n.js';
import { syncProgress, solvedLessons, lessonStars } from './learn-progress.js';
import { stagesOf } from './learn-drill.js';
import { Lessons, play } from './learn-lessons.js';
import { Quiz } from './learn-quiz.js';
import { variantName, variantSummary } from './words.js';

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
      // The texts of a lesson module's own modules (its drills, its quiz).
      for (const more of m.moreTexts || []) addTexts(more);
      return m;
    });
    learnModules.set(name, p);
    p.catch(() => learnModules.delete(name));
  }
  return learnModules.get(name);
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
        // The stars won of all there are (three a stage), as a drill site counts them.
        const stars = Object.values(lessonStars(g.name)).reduce((a, b) => a + b, 0);
        const most = lm ? lm.lessons.reduce((a, l) => a + 3 * stagesOf(l).length, 0) : 0;
        cards.push(h('section.card.learn-card', { 'data-game': g.name },
          h('h2', g.title),
          lm ? h('p', t(lm.pitch)) : h('p.muted', t('learn.none')),
          lm ? h('p.muted.learn-progress', t('learn.progress', { done, total }), ' · ', h('span.learn-stars', { 'data-stars': stars }, t('learn.starsTotal', { n: stars, total: most }))) : null,
          h('p.form-buttons',
            h('a.btn.primary', { href: `/learn/${g.name}` }, t('learn.open')),
            h('a.btn', { href: `/puzzles?game=${g.name}` }, t('nav.puzzles')))));
      }
      node.append(h('h1', t('learn.title')), h('p.lead', t('learn.intro')), h('div.learn-cards', cards));
    },
  };
}

/** The rules, section by section, with their diagrams. */
function rulesCard(game, mod, lm) {
  return h('section.card.rules', { 'aria-labelledby': 'rules-title' },
    h('h2#rules-title', t('learn.rules')),
    lm.rules.map((s) => h('section.rules-section' + (s.surprise ? '.surprise' : ''),
      h('h3', t(s.title)),
      s.body.map((k) => h('p', t(k))),
      s.diagrams ? h('div.diagrams', s.diagrams.map((d) => diagram(game, mod, d))) : null)));
}

/** The variants (the server's list) and the options in words. */
function variantsCard(spec, lm) {
  return h('section.card.variants', { 'aria-labelledby': 'variants-title' },
    h('h2#variants-title', t('learn.variants')),
    h('ul.variant-list', (spec.variants || []).map((v) => h('li', { 'data-variant': v.name },
      h('strong', variantName(v.name)), ' — ', variantSummary(lm, v)))),
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
}

/** /learn/<game>: the rules, the variants and the lessons of one game. */
export function learnGameView(name) {
  const node = h('div.learn-page');
  let lessons = null;
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
      lessons = new Lessons(game, mod, lm);
      const nav = h('nav.learn-toc', { 'aria-label': t('learn.contents') },
        h('a', { href: '#rules-title' }, t('learn.rules')), ' · ',
        h('a', { href: '#variants-title' }, t('learn.variants')), ' · ',
        h('a', { href: '#lessons-title' }, t('learn.lessons')), ' · ',
        lm.quiz ? [h('a', { href: '#quiz-title' }, t('learn.quiz')), ' · '] : null,
        h('a', { href: `/puzzles?game=${game}` }, t('nav.puzzles')));
      node.append(
        h('p.crumbs', h('a', { href: '/learn' }, t('learn.title'))),
        h('h1', t('learn.howTo', { game: spec.title })),
        h('p.lead', t(lm.pitch)),
        nav, lessons.node, lm.quiz ? new Quiz(game, mod, lm).node : '', rulesCard(game, mod, lm), variantsCard(spec, lm));
      lessons.openFirst();
    },
    destroy() {
      if (lessons) lessons.board = null;
    },
  };
}
