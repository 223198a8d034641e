// The game page's ways to move besides the board's gestures: the move box,
// where a move is typed; the premove, typed or made on the board on the
// opponent's turn in a live game, played when the turn comes if it is
// legal then; and, with "Confirm moves" on, the move made on the board
// waiting for Confirm or Cancel.

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
    this.premove = ''; // a move made ahead during the opponent's turn, played when the turn comes
  }

  /**
   * A move made on the board: sent at once, or, with "Confirm moves" on,
   * shown on the board (its squares marked) until the player confirms or
   * cancels it — a misclick costs nothing.
   */
  boardMove(move) {
    if (!this.page.canMove() && this.canPremove()) {
      // Made on the opponent's turn: queued, marked, played when the turn comes.
      this.premove = move;
      this.renderPending();
      this.renderForm();
      this.page.redrawBoard();
      return;
    }
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
        h('button.btn#cancel-premove', { type: 'button', onclick: () => this.cancelAll() }, t('acc.cancel')));
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
   * Whether a move may be made ahead now, typed or on the board (of the
   * premoves the server lists): a live game, the opponent to move, and
   * the board at the last move.
   */
  canPremove() {
    const s = this.page.state;
    return s && s.status === 'playing' && s.seat != null && s.seat !== s.turn && this.page.ply === s.moves.length && this.page.live() && s.sides[1 - s.seat].player;
  }

  renderForm() {
    const now = this.page.canMove();
    const ahead = !now && this.canPremove();
    const form = this.form;
    const s = this.page.state;
    // A player's box keeps its room while the game is played, shown or
    // not, so that the side column does not change size with the turn.
    const seated = s && s.status === 'playing' && s.seat != null;
    form.hidden = !now && !ahead && !seated;
    form.classList.toggle('idle', !now && !ahead);
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
          this.page.redrawBoard();
        }
      };
    }
    form.querySelector('label').textContent = now ? t('gm.typeMove') : t('gm.premove');
    form.querySelector('button').textContent = now ? t('gm.playButton') : t('gm.queue');
    form.querySelector('input').title = now ? '' : t('gm.premoveTitle');
  }
}
