// The game page's board: the position at the ply shown, the last move
// marked and animated, the legal moves when the player may move (or, on
// the opponent's turn, the premoves), the move waiting for Confirm or the
// premove marked, the end of the game explained; and the flag
// over it when the board shows an earlier move of a game still played.

import { h } from './dom.js';
import { t } from './i18n.js';
import { Board } from './board.js';

/** Which way to turn the board so that side i's pieces start at the bottom. */
export function orientationFor(game, grid, state, i) {
  return game.orientation(game.parse(state.start, grid), i, state.sides) ? 1 : 0;
}

/**
 * The board of the game page page (its state, ply, game module and grid,
 * the side at the bottom, canMove(), positionAt(ply), input.pending);
 * onMove(move) takes a move made on it.
 */
export class LiveBoard {
  constructor(page, onMove) {
    this.page = page;
    this.onMove = onMove;
    this.box = h('div.board-box');
    this.flag = h('button.replay-flag', { type: 'button', hidden: true, onclick: () => page.goto(page.state.moves.length, false) });
    this.board = null;
  }

  /** The board, made on the first state (the player's side at the bottom). */
  ensure() {
    const page = this.page;
    if (this.board) return this.board;
    if (page.state.seat != null) page.bottom = page.state.seat;
    this.board = new Board(this.box, {
      game: page.game, grid: page.grid, onMove: this.onMove, rules: page.state.rules,
      orientation: orientationFor(page.game, page.grid, page.state, page.bottom),
    });
    return this.board;
  }

  /** Shows the ply shown; animate the move that led to it. Returns the animation's promise. */
  render(animate) {
    const board = this.ensure();
    const { state: s, ply, grid } = this.page;
    const behind = s.status === 'playing' && ply < s.moves.length;
    this.flag.hidden = !behind;
    if (behind) this.flag.textContent = t('gm.replayFlag', { n: ply, total: s.moves.length });
    const { pending, premove } = this.page.input;
    // On the opponent's turn the board takes a premove, of the moves the
    // server says may be legal then; one at a time.
    const ahead = !this.page.canMove() && this.page.input.canPremove() && !premove ? s.premoves || [] : [];
    const opts = { last: ply > 0 ? s.moves[ply - 1] : '', legal: this.page.canMove() && !pending ? s.legal : ahead };
    const marked = pending || premove;
    if (marked) {
      const mv = this.page.game.parseMove(marked, grid);
      opts.marks = mv ? [mv.from >= 0 ? grid.sqName(mv.from) : null, grid.sqName(mv.to)].filter(Boolean) : [];
    }
    if (animate && ply > 0) opts.from = this.page.positionAt(ply - 1);
    if (s.status === 'finished' && ply === s.moves.length && ply > 0) opts.end = { result: s.result, reason: s.reason, before: this.page.positionAt(ply - 1) };
    return board.set(this.page.positionAt(ply), opts);
  }

  /** Turns the board so that the side at the bottom is the page's. */
  turn() {
    const page = this.page;
    this.ensure().setOrientation(orientationFor(page.game, page.grid, page.state, page.bottom));
  }
}
