// The analysis view: any position of any game, with the engine's
// evaluation and best line (POST /api/analyze). The board is drawn by the
// game's module (games.js).

import { h, toast } from './dom.js';
import { api, metaFor } from './api.js';
import { Board } from './board.js';
import { gameSpec, loadGame } from './games.js';
import { sqName } from './notation.js';

export function analysisView(params) {
  const node = h('div.analysis-page');
  let board = null;

  return {
    node,
    async mounted() {
      const meta = await metaFor(node);
      if (!meta) return;
      let game = (gameSpec(meta, params.get('game')) || meta.games[0]).name;
      const spec = () => gameSpec(meta, game) || meta.games[0];
      const boardBox = h('div.board-box');
      const out = h('div.analysis-out', { role: 'status', 'aria-live': 'polite' });
      const gameSel = h('select#an-game', meta.games.map((g) => h('option', { value: g.name, selected: g.name === game }, g.title)));
      const rules = h('input#an-rules', { type: 'text', value: params.get('rules') || '', placeholder: 'standard', spellcheck: 'false' });
      const pos = h('textarea#an-pos', { rows: 3, spellcheck: 'false' }, params.get('position') || spec().start);
      const time = h('select#an-time', [[300, '0.3 s'], [1000, '1 s'], [3000, '3 s'], [5000, '5 s']].map(([ms, t]) => h('option', { value: String(ms), selected: ms === 1000 }, t)));
      const go = h('button.btn.primary', { type: 'submit' }, 'Analyse');

      // Shows the position on the board of the chosen game, loading its
      // module first; a game without one gets a message instead.
      const show = async (marks) => {
        const name = spec().name;
        let mod;
        try {
          mod = await loadGame(name);
        } catch (err) {
          if (name !== spec().name) return;
          board = null;
          boardBox.textContent = '';
          boardBox.append(h('p.error.no-board', err.message));
          return;
        }
        if (name !== spec().name) return; // another game was chosen meanwhile
        if (!board || board.game !== mod) {
          boardBox.textContent = '';
          board = new Board(boardBox, { game: mod });
        }
        const text = pos.value.trim();
        board.set(text === 'start' ? spec().start : text, { marks });
      };
      gameSel.onchange = () => {
        game = gameSel.value;
        pos.value = spec().start;
        out.textContent = '';
        show([]);
      };
      pos.oninput = () => show([]);

      async function analyse(e) {
        if (e) e.preventDefault();
        go.disabled = true;
        out.textContent = '';
        out.append(h('p.thinking', 'Thinking…'));
        try {
          const r = await api('POST', '/api/analyze', { game: spec().name, rules: rules.value.trim(), position: pos.value.trim(), movetime_ms: Number(time.value) });
          out.textContent = '';
          out.append(
            h('div.eval', h('span.score', r.score), h('span.depth', r.depth ? `depth ${r.depth}` : '')),
            h('p', 'Best move: ', h('strong.best', r.best || '—')),
            (r.pv || []).length ? h('p.pv', 'Line: ', h('span', r.pv.join(' '))) : null);
          const mv = r.best ? (await loadGame(spec().name)).parseMove(r.best) : null;
          show(mv ? [mv.from >= 0 ? sqName(mv.from) : null, sqName(mv.to)].filter(Boolean) : []);
        } catch (err) {
          out.textContent = '';
          out.append(h('p.error', err.message));
          toast(err.message, 'error');
        }
        go.disabled = false;
      }

      node.append(
        h('div.an-board', boardBox),
        h('section.card.analysis', { 'aria-labelledby': 'an-title' },
          h('h1#an-title', 'Analysis'),
          h('form', { onsubmit: analyse },
            h('div.field', h('label', { for: 'an-game' }, 'Game'), gameSel),
            h('div.field', h('label', { for: 'an-rules' }, 'Rules (variant or name=value, …)'), rules),
            h('div.field', h('label', { for: 'an-pos' }, 'Position'), pos),
            h('div.field.inline', h('label', { for: 'an-time' }, 'Thinking time'), time, go)),
          out));
      show([]);
      if (params.get('position')) analyse();
    },
  };
}
