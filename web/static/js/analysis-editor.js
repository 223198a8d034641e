// The analysis board's position editor, for a game whose module has one
// (editTools, edit, format): clicks on the board change a square with the
// tool chosen, and the position's text is written into the setup form,
// where "Set up" has the server check it.

import { h } from './dom.js';
import { t, sideText } from './i18n.js';

/**
 * The editor of the analysis board page (its game module and grid, its
 * board, the node shown); text is the setup form's position text box.
 */
export class Editor {
  constructor(page, text) {
    this.page = page;
    this.text = text;
    this.node = h('div.an-editor');
    this.pos = null; // the position edited, parsed; null when not editing
    this.tool = '';
  }

  can() {
    const g = this.page.game;
    return !!(g && g.edit && g.format && g.editTools);
  }

  render() {
    const g = this.page.game;
    this.node.textContent = '';
    if (!this.can()) return;
    if (!this.pos) {
      this.node.append(h('button.btn.small#an-edit', { type: 'button', onclick: () => this.start() }, t('an.editBoard')));
      return;
    }
    this.node.append(h('div.an-tools', { role: 'group', 'aria-label': t('an.tools') },
      g.editTools.map((tl) => h('button.btn.small.an-tool', {
        type: 'button', 'data-tool': tl.id, 'aria-pressed': String(tl.id === this.tool),
        onclick: () => { this.tool = tl.id; this.render(); },
      }, tl.cls ? h('span', { class: tl.cls }) : null, t(tl.key))),
      h('button.btn.small#an-edit-clear', { type: 'button', title: t('an.clearTitle'), onclick: () => this.clear() }, t('an.clearBoard')),
      h('button.btn.small#an-edit-side', { type: 'button', onclick: () => { this.pos = g.edit(this.pos, -1, 'side'); this.show(); } }, t('an.otherSide')),
      h('button.btn.small#an-edit-stop', { type: 'button', onclick: () => this.stop() }, t('an.editStop'))),
    h('p.muted.an-edit-hint', t('an.editHint')),
    this.missing = h('p.an-edit-missing', { role: 'status', 'aria-live': 'polite' }));
    this.showMissing();
  }

  /**
   * Clears the board: every piece taken off with the module's erasing
   * tool (where pieces come from hands, back to them; the side to move
   * kept). In a game whose empty board is no game (a side
   * without a King loses) the pieces are then placed by hand, and the
   * editor says which side still has no King.
   */
  clear() {
    if (!this.pos) this.start();
    const g = this.page.game;
    const erase = (g.editTools.find((tl) => tl.id === 'x') || {}).id;
    if (!erase) return;
    let p = this.pos;
    for (let sq = 0; sq < p.board.length; sq++) {
      for (let guard = 0; p.board[sq] && guard < 64; guard++) p = g.edit(p, sq, erase);
    }
    this.pos = p;
    this.show();
  }

  /** What the position edited lacks to be a game (the module's missing(pos): the sides without a King), said under the tools. */
  showMissing() {
    if (!this.missing) return;
    const g = this.page.game;
    const sides = (this.page.spec && this.page.spec.sides) || [];
    const lack = this.pos && g.missing ? g.missing(this.pos) : [];
    this.missing.textContent = lack.map((i) => t('an.noKing', { side: sides[i] ? sideText(sides[i].name) : '' })).join(' ');
  }

  /** Edits the position of the text box (or the one shown when it holds none). */
  start() {
    const page = this.page;
    let text = this.text.value.trim();
    if (!text || text === 'start' || /^\s*\[/.test(text)) text = page.cur ? page.cur.position : '';
    this.pos = page.game.parse(text, page.grid);
    this.tool = page.game.editTools[0].id;
    // The board is not the node shown any more: its evaluation goes.
    page.engine.editing(true);
    page.board.setEditor((sq) => {
      this.pos = page.game.edit(this.pos, sq, this.tool);
      this.show();
    });
    this.show();
    this.render();
  }

  /** The position edited, in the text box and on the board. */
  show() {
    const text = this.page.game.format(this.pos);
    this.text.value = text;
    this.page.board.set(text, {});
    this.page.board.setArrows([]);
    this.showMissing();
  }

  stop() {
    if (!this.pos) return;
    this.pos = null;
    this.missing = null;
    if (this.page.board) this.page.board.setEditor(null);
    this.page.engine.editing(false);
    this.render();
    if (this.page.cur) this.page.renderBoard(false);
  }
}
