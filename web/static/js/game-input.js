// The game page's ways to move besides the board's gestures: the move box,
// where a move is typed (or, on the opponent's turn in a live game, typed
// ahead: the premove, played when the turn comes); and, with "Confirm
// moves" on, the move made on the board waiting for Confirm or Cancel.

import { h, toast } from './dom.js';
import { t, orList } from './i18n.js';
import { confirmMoves } from './prefs.js';

/**
 * The move box and the box of the move waiting (pending or premove) of
 * the game page page: page.canMove() says whether the player may move now,
 * page.sendMove(m) sends a move, page.redrawBoard() draws the board again
 * (with or without the pending move's marks).
 */
export class MoveInput {
  constructor(page) {
    this.page = page;
    this.form = h('form.move-form', { hidden: true });
    this.pendingBox = h('div.pending', { hidden: true, role: 'status' });
    this.pending = ''; // a move made on the board, waiting for Confirm
    this.premove = ''; // a move typed during the opponent's turn, played when the turn comes
  }

  /**
   * A move made on the board: sent at once, or, with "Confirm moves" on,
   * shown on the board (its squares marked) until the player confirms or
   * cancels it — a misclick costs nothing.
   */
  boardMove(move) {
    if (!confirmMoves()) {
      this.page.sendMove(move);
      return;
    }
    this.pending = move;
    this.renderPending();
    this.page.redrawBoard();
    const ok = this.pendingBox.querySelector('#confirm-move');
    if (ok) ok.focus();
  }

  cancelPending() {
    this.pending = '';
    this.renderPending();
    if (this.page.state) this.page.redrawBoard();
  }

  /** Escape: the move waiting for Confirm and the premove are taken back; reports whether there was one. */
  cancelAll() {
    if (!this.pending && !this.premove) return false;
    this.premove = '';
    this.cancelPending();
    this.renderForm();
    return true;
  }

  renderPending() {
    const s = this.page.state;
    const box = this.pendingBox;
    box.textContent = '';
    if (this.pending && !this.page.canMove()) this.pending = '';
    if (this.premove && !(s && s.status === 'playing')) this.premove = '';
    if (this.pending) {
      box.append(h('span', t('gm.play'), ' ', h('strong.pending-move', this.pending), '?'),
        h('button.btn.primary#confirm-move', { type: 'button', onclick: () => this.confirm() }, t('gm.confirm')),
        h('button.btn#cancel-move', { type: 'button', onclick: () => this.cancelPending() }, t('acc.cancel')));
    } else if (this.premove) {
      box.append(h('span', t('gm.premove'), ' ', h('strong.premove', this.premove), t('gm.premoveNote')),
        h('button.btn#cancel-premove', { type: 'button', onclick: () => { this.premove = ''; this.renderPending(); this.renderForm(); } }, t('acc.cancel')));
    }
    box.hidden = !this.pending && !this.premove;
  }

  confirm() {
    const m = this.pending;
    this.pending = '';
    this.renderPending();
    if (m && this.page.canMove()) this.page.sendMove(m);
  }

  /** The premove, played now if it is the player's turn and the move is legal; dropped (with a word) if not. */
  playPremove() {
    if (!this.premove || !this.page.canMove()) return false;
    const want = this.premove.toLowerCase();
    this.premove = '';
    this.renderPending();
    const m = this.page.state.legal.find((x) => x.toLowerCase() === want);
    if (!m) {
      toast(t('gm.premoveIllegal', { move: want }));
      return false;
    }
    this.page.sendMove(m);
    return true;
  }

  /**
   * Whether a move may be typed ahead now: a live game, the opponent to
   * move, and the board at the last move. (The board itself takes no
   * premoves: only the side to move gets its legal moves from the server,
   * and the board knows a game's moves only from those.)
   */
  canPremove() {
    const s = this.page.state;
    return s && s.status === 'playing' && s.seat != null && s.seat !== s.turn && this.page.ply === s.moves.length && this.page.live() && s.sides[1 - s.seat].player;
  }

  renderForm() {
    const now = this.page.canMove();
    const ahead = !now && this.canPremove();
    const form = this.form;
    form.hidden = !now && !ahead;
    if (form.hidden) return;
    if (!form.childElementCount) {
      const input = h('input', { type: 'text', id: 'move-input', autocomplete: 'off', spellcheck: 'false', placeholder: orList(this.page.game.moveHint || []) });
      form.append(h('label', { for: 'move-input' }), input, h('button.btn.small', { type: 'submit' }));
      form.onsubmit = (e) => {
        e.preventDefault();
        const m = input.value.trim();
        if (!m) return;
        input.value = '';
        // A command of screen-reader mode (/board, /clock...), not a move.
        if (this.page.speech.command(m)) return;
        if (this.page.canMove()) {
          this.page.sendMove(m);
        } else if (this.canPremove()) {
          this.premove = m;
          this.renderPending();
        }
      };
    }
    form.querySelector('label').textContent = now ? t('gm.typeMove') : t('gm.premove');
    form.querySelector('button').textContent = now ? t('gm.playButton') : t('gm.queue');
    form.querySelector('input').title = now ? '' : t('gm.premoveTitle');
  }
}
