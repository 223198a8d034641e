// The analysis board's position editor, for a game whose module has one
// (editTools, edit, format): clicks on the board change a square with the
// tool chosen, and the position's text is written into the setup form,
// where "Set up" has the server check it.

import { h } from './dom.js';
import { t } from './i18n.js';

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
      h('button.btn.small#an-edit-side', { type: 'button', onclick: () => { this.pos = g.edit(this.pos, -1, 'side'); this.show(); } }, t('an.otherSide')),
      h('button.btn.small#an-edit-stop', { type: 'button', onclick: () => this.stop() }, t('an.editStop'))),
    h('p.muted.an-edit-hint', t('an.editHint')));
  }

  /** Edits the position of the text box (or the one shown when it holds none). */
  start() {
    const page = this.page;
    let text = this.text.value.trim();
    if (!text || text === 'start' || /^\s*\[/.test(text)) text = page.cur ? page.cur.position : '';
    this.pos = page.game.parse(text, page.grid);
    this.tool = page.game.editTools[0].id;
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
  }

  stop() {
    if (!this.pos) return;
    this.pos = null;
    if (this.page.board) this.page.board.setEditor(null);
    this.render();
    if (this.page.cur) this.page.renderBoard(false);
  }
}
