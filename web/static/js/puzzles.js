// The puzzles: /puzzles?game=<name> (or ?id=<id>, or ?daily=1) shows a
// position where the side to move has a proven forced win. The solver
// plays on the board: a move listed in the puzzle's accept for that turn
// is right, and the reply is played from the puzzle's line; any other move
// fails, and the solution is shown. The result goes to
// POST /api/puzzles/<id>/result, which moves an account's puzzle rating
// (Glicko-2, family "puzzles"); the home page shows the daily puzzle
// (dailyPuzzleCard).

import { h } from './dom.js';
import { api, metaFor } from './api.js';
import { Board } from './board.js';
import { gameSpec, loadGame, gridFor } from './games.js';
import { account, loggedIn, whenAccount } from './account.js';
import { t } from './i18n.js';
import { loadLearn } from './learn.js';

/** The puzzle rating of an account in a game ("1523?"), or '' when it has none. */
async function puzzleRating(game) {
  await whenAccount();
  if (!loggedIn()) return '';
  try {
    const u = await api('GET', `/api/users/${encodeURIComponent(account().name)}`);
    const r = (u.ratings || []).find((x) => x.game === game && x.family === 'puzzles');
    return r ? r.display || String(r.rating) : '';
  } catch (e) {
    return '';
  }
}

/** The side to move as a word of the game ("White"), from its learning module when it has one. */
async function sideWord(spec, side) {
  try {
    const lm = await loadLearn(spec.name);
    return t(lm.sides[side]);
  } catch (e) {
    return (spec.sides[side] || {}).name || '';
  }
}

export function puzzlesView(params) {
  const node = h('div.puzzles-page');
  let alive = true;
  return {
    node,
    destroy() {
      alive = false;
    },
    async mounted() {
      const meta = await metaFor(node);
      if (!meta) return;
      let game = (gameSpec(meta, params.get('game')) || meta.games[0]).name;
      const boardBox = h('div.board-box');
      const title = h('h1#pz-title', t('pz.title'));
      const info = h('p.pz-info');
      const task = h('p.pz-task');
      const msg = h('div.pz-msg', { role: 'status', 'aria-live': 'polite' });
      const ratingLine = h('p.pz-rating');
      const gameSel = h('select#pz-game', meta.games.map((g) => h('option', { value: g.name, selected: g.name === game }, g.title)));
      const solutionBtn = h('button.btn.small.pz-solution', { type: 'button', hidden: true }, t('pz.showSolution'));
      const nextBtn = h('button.btn.primary.pz-next', { type: 'button' }, t('pz.next'));
      node.append(
        h('div.pz-board', boardBox),
        h('section.card.puzzle', { 'aria-labelledby': 'pz-title' },
          title,
          h('div.field.inline', h('label', { for: 'pz-game' }, t('pz.game')), gameSel),
          info, task, msg,
          h('p.form-buttons', solutionBtn, nextBtn),
          ratingLine,
          h('p.muted.pz-about', t('pz.about'))));

      let board = null;
      let mod = null;
      let pz = null;
      let ply = 0;
      let done = false;

      const showRating = async () => {
        const r = await puzzleRating(game);
        if (!alive) return;
        ratingLine.textContent = loggedIn() ? (r ? t('pz.yourRating', { rating: r }) : t('pz.noRatingYet')) : t('pz.guest');
      };
      const positionAt = (k) => (k === 0 ? pz.position : pz.positions[k - 1]);
      const say = (cls, ...parts) => {
        msg.textContent = '';
        msg.className = 'pz-msg ' + cls;
        for (const p of parts) if (p) msg.append(h('p', p));
      };

      async function report(solved) {
        try {
          const r = await api('POST', `/api/puzzles/${encodeURIComponent(pz.id)}/result`, { solved });
          if (r.rated) {
            const d = r.diff > 0 ? `+${r.diff}` : String(r.diff);
            ratingLine.textContent = t('pz.newRating', { rating: r.rating, diff: d });
            ratingLine.dataset.rated = 'true';
          } else if (loggedIn()) {
            showRating();
          }
        } catch (err) {
          msg.append(h('p.error', err.message));
        }
      }

      async function load(url) {
        done = false;
        ply = 0;
        solutionBtn.hidden = true;
        msg.textContent = '';
        msg.className = 'pz-msg';
        try {
          pz = await api('GET', url);
          mod = await loadGame(pz.game);
        } catch (err) {
          say('error', err.message);
          return;
        }
        if (!alive) return;
        game = pz.game;
        gameSel.value = game;
        node.dataset.puzzle = pz.id;
        const spec = gameSpec(meta, game);
        if (!board || board.game !== mod) {
          boardBox.textContent = '';
          board = new Board(boardBox, { game: mod, onMove: (m) => move(m), orientation: mod.orientation(mod.parse(pz.position, gridFor(mod)), pz.side, spec.sides) });
        }
        const side = await sideWord(spec, pz.side);
        info.textContent = t('pz.info', { id: pz.id, rating: Math.round(pz.rating), plays: pz.plays });
        task.textContent = t(pz.win_in === 1 ? 'pz.task.one' : 'pz.task.other', { side, n: pz.win_in });
        board.set(pz.position, { legal: pz.legal[0] });
        showRating();
      }

      async function move(m) {
        if (done || !pz) return;
        const turn = ply / 2;
        const from = positionAt(ply);
        if (!pz.accept[turn].includes(m)) {
          done = true;
          board.set(from, {});
          try {
            const r = await api('POST', '/api/play', { game, rules: pz.rules, position: from, moves: [m] });
            await board.set(r.position, { last: m, from });
          } catch (err) {
            // the board shows the position before the move
          }
          say('wrong', t('pz.wrong', { move: m }), t('pz.solutionWas', { move: pz.line[ply] }));
          solutionBtn.hidden = false;
          solutionBtn.onclick = () => showSolution(ply);
          report(false);
          return;
        }
        const main = pz.line[ply];
        const alsoWins = m !== main;
        ply++;
        await board.set(positionAt(ply), { last: main, from });
        if (ply >= pz.line.length) {
          done = true;
          say('right', alsoWins ? t('pz.solvedOther', { move: m, main }) : t('pz.solved'));
          report(true);
          return;
        }
        say('right', alsoWins ? t('pz.goodOther', { move: m, main }) : t('pz.good'));
        // The reply from the line, then the solver's next turn.
        const reply = pz.line[ply];
        const before = positionAt(ply);
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (!alive) return;
        ply++;
        await board.set(positionAt(ply), { last: reply, from: before, legal: pz.legal[ply / 2] });
        msg.append(h('p', t('pz.reply', { move: reply })));
      }

      async function showSolution(k) {
        solutionBtn.hidden = true;
        for (let i = k; i < pz.line.length && alive; i++) {
          await board.set(positionAt(i + 1), { last: pz.line[i], from: positionAt(i) });
          await new Promise((resolve) => setTimeout(resolve, 400));
        }
        msg.append(h('p.pz-line', t('pz.line', { line: pz.line.slice(k).join(' ') })));
      }

      gameSel.onchange = () => {
        game = gameSel.value;
        history.replaceState(null, '', `/puzzles?game=${encodeURIComponent(game)}`);
        load(`/api/puzzles/next?game=${encodeURIComponent(game)}`);
      };
      nextBtn.onclick = () => load(`/api/puzzles/next?game=${encodeURIComponent(game)}`);
      const id = params.get('id');
      if (id) load(`/api/puzzles/${encodeURIComponent(id)}`);
      else if (params.get('daily')) load('/api/puzzles/daily');
      else load(`/api/puzzles/next?game=${encodeURIComponent(game)}`);
    },
  };
}

/** The home page's card of the daily puzzle: its board and a link to solve it. */
export function dailyPuzzleCard() {
  const box = h('div.board-box');
  const text = h('p.muted');
  const card = h('section.card.daily-puzzle', { 'aria-labelledby': 'daily-title' },
    h('h2#daily-title', t('pz.daily')),
    h('a.daily-link', { href: '/puzzles?daily=1', 'aria-label': t('pz.solveDaily') }, box),
    text,
    h('p', h('a.btn.small', { href: '/puzzles?daily=1' }, t('pz.solveDaily'))));
  (async () => {
    try {
      const pz = await api('GET', '/api/puzzles/daily');
      const mod = await loadGame(pz.game);
      const board = new Board(box, { game: mod });
      board.set(pz.position, {});
      card.dataset.puzzle = pz.id;
      text.textContent = t('pz.dailyText', { game: pz.title, n: pz.win_in });
    } catch (err) {
      text.textContent = err.message;
      text.className = 'error';
    }
  })();
  return card;
}
