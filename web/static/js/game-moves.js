// The game page's move list and replay buttons: the moves in pairs, each a
// button that shows the position after it (with the review's marks), and
// first, back, forward, last and flip.

import { h, ICONS, iconSvg } from './dom.js';
import { t } from './i18n.js';
import { keepInView } from './review.js';

/** The move list (node) and the replay buttons (nav) of the game page page: page.goto(ply, animate), page.flip(). */
export class MoveList {
  constructor(page) {
    this.page = page;
    this.node = h('div.moves', { role: 'list', 'aria-label': t('gm.moves') });
    this.nav = h('div.replay-nav');
  }

  render() {
    this.renderMoves();
    this.renderNav();
  }

  renderMoves() {
    const s = this.page.state;
    const ply = this.page.ply;
    const box = this.node;
    box.textContent = '';
    const per = 2;
    for (let k = 0; k < s.moves.length; k += per) {
      const row = h('div.move-row', { role: 'listitem' }, h('span.num', `${k / per + 1}.`));
      for (let j = k; j < k + per && j < s.moves.length; j++) {
        row.append(h('button.mv', { type: 'button', 'data-ply': String(j + 1), 'aria-current': j + 1 === ply ? 'true' : null, onclick: () => this.page.goto(j + 1, false) }, s.moves[j]));
      }
      box.append(row);
    }
    if (s.moves.length === 0) box.append(h('p.empty', s.status === 'waiting' ? t('gm.startsWhen') : t('gm.noMoves')));
    this.page.review.decorate(box, ply);
    keepInView(box, box.querySelector('[aria-current="true"]'), ply === s.moves.length);
  }

  renderNav() {
    const n = this.page.state.moves.length;
    const ply = this.page.ply;
    this.nav.textContent = '';
    const b = (label, path, to, disabled) => {
      const btn = h('button.btn.icon', { type: 'button', 'aria-label': label, title: label, disabled, onclick: () => this.page.goto(to, true) });
      btn.innerHTML = iconSvg(path);
      return btn;
    };
    const flipBtn = h('button.btn.icon', { type: 'button', 'aria-label': t('gm.flip'), title: t('gm.flipTitle'), onclick: () => this.page.flip() });
    flipBtn.innerHTML = iconSvg(ICONS.flip);
    this.nav.append(
      b(t('gm.first'), ICONS.first, 0, ply === 0),
      b(t('gm.prev'), ICONS.prev, ply - 1, ply === 0),
      b(t('gm.next'), ICONS.next, ply + 1, ply === n),
      b(t('gm.last'), ICONS.last, n, ply === n),
      flipBtn);
  }
}
