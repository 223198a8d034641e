// The analysis board's tree of variations as the player sees it: the main
// line with its variations nested (each move a tree item, numbered from the
// start), the buttons to promote a variation and delete a move, the
// shown move's comment, and the ways to move through it: the replay
// buttons under the board and the keys (arrows, Home, End; f flips).

import { h, ICONS, iconSvg } from './dom.js';
import { t } from './i18n.js';
import { pathOf } from './analysis-record.js';

/**
 * The tree of the analysis board page: page.root and page.cur are the
 * tree and the node shown; page.select(n, animate) shows a node,
 * page.renderExport() writes the record again, page.flip() turns the board.
 */
export class TreeView {
  constructor(page) {
    this.page = page;
    this.node = h('div.an-tree', { role: 'tree', 'aria-label': t('an.tree') });
    this.actions = h('div.an-node-actions');
    this.comment = h('input#an-comment', {
      type: 'text', placeholder: t('an.commentPlaceholder'), 'aria-label': t('an.commentLabel'),
      oninput: () => {
        const n = this.page.cur;
        if (n && n.parent) {
          n.comment = this.comment.value;
          this.page.renderExport();
        }
      },
    });
    this.nav = h('div.an-nav');
  }

  moveNumber(d, force) {
    const off = this.page.root.turn === 1 ? 1 : 0;
    const num = Math.floor((d + off) / 2) + 1;
    if ((d + off) % 2 === 0) return `${num}.`;
    return force ? `${num}…` : '';
  }

  moveEl(n, d, force) {
    const label = this.moveNumber(d, force);
    const cur = n === this.page.cur;
    return h('span.an-move-wrap', label ? h('span.an-num', label) : null,
      h('button.an-move', {
        type: 'button', role: 'treeitem', 'data-path': pathOf(n).join(' '),
        'aria-current': cur ? 'true' : null, 'aria-selected': cur ? 'true' : 'false',
        onclick: () => this.page.select(n),
      }, n.move),
      n.comment ? h('span.an-comment', n.comment) : null);
  }

  lineEls(start, d, force) {
    const out = [];
    let n = start;
    let f = force;
    while (n.children.length) {
      const [main, ...alts] = n.children;
      out.push(this.moveEl(main, d, f));
      f = false;
      for (const alt of alts) {
        out.push(h('div.an-variation', { role: 'group' }, this.moveEl(alt, d, true), this.lineEls(alt, d + 1, false)));
        f = true;
      }
      n = main;
      d++;
    }
    return out;
  }

  render() {
    const box = this.node;
    box.textContent = '';
    const els = this.lineEls(this.page.root, 0, true);
    if (!els.length) box.append(h('p.empty', t('an.empty')));
    // A tree must hold items: until the first move it is a plain group.
    box.setAttribute('role', els.length ? 'tree' : 'group');
    box.append(h('div.an-main', els));
    const cur = box.querySelector('[aria-current="true"]');
    if (cur) {
      const b = box.getBoundingClientRect();
      const r = cur.getBoundingClientRect();
      if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 2;
    }
  }

  /** The buttons and the comment of the node shown. */
  renderActions() {
    const n = this.page.cur;
    this.actions.textContent = '';
    let inVariation = false;
    for (let x = n; x && x.parent; x = x.parent) if (x.parent.children[0] !== x) inVariation = true;
    this.actions.append(
      h('button.btn.small#an-promote', { type: 'button', disabled: !inVariation, onclick: () => this.promote(), title: t('an.promoteTitle') }, t('an.promote')),
      h('button.btn.small.danger#an-delete', { type: 'button', disabled: !n.parent, onclick: () => this.remove(), title: t('an.deleteTitle') }, t('an.delete')));
    this.comment.value = n.comment || '';
    this.comment.disabled = !n.parent;
  }

  /** Makes the branch that holds the node shown the main one, one level up. */
  promote() {
    for (let n = this.page.cur; n && n.parent; n = n.parent) {
      const kids = n.parent.children;
      const i = kids.indexOf(n);
      if (i > 0) {
        kids.splice(i, 1);
        kids.unshift(n);
        this.render();
        this.renderActions();
        this.page.renderExport();
        return;
      }
    }
  }

  /** Deletes the move shown and what follows it. */
  remove() {
    const n = this.page.cur;
    if (!n || !n.parent) return;
    const p = n.parent;
    p.children.splice(p.children.indexOf(n), 1);
    this.page.select(p);
  }

  /** The last node of the main line from n. */
  static end(n) {
    let x = n;
    while (x.children.length) x = x.children[0];
    return x;
  }

  /** The replay buttons under the board. */
  renderNav() {
    const page = this.page;
    this.nav.textContent = '';
    const b = (label, path, fn) => {
      const btn = h('button.btn.icon', { type: 'button', 'aria-label': label, title: label, onclick: fn });
      btn.innerHTML = iconSvg(path);
      return btn;
    };
    this.nav.append(
      b(t('an.first'), ICONS.first, () => page.select(page.root)),
      b(t('an.prev'), ICONS.prev, () => page.cur.parent && page.select(page.cur.parent)),
      b(t('an.next'), ICONS.next, () => page.cur.children[0] && page.select(page.cur.children[0], true)),
      b(t('an.end'), ICONS.last, () => page.select(TreeView.end(page.cur))),
      b(t('an.flip'), ICONS.flip, () => page.flip()));
  }

  /** The keys: left and right along the line, up and down through the variations, Home and End, f flips the board. */
  key(e) {
    const page = this.page;
    if (!page.cur || e.target.closest('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    const n = page.cur;
    let to = null;
    if (e.key === 'ArrowLeft') to = n.parent;
    else if (e.key === 'ArrowRight') to = n.children[0];
    else if (e.key === 'Home') to = page.root;
    else if (e.key === 'End') to = TreeView.end(n);
    else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && n.parent) {
      const kids = n.parent.children;
      to = kids[(kids.indexOf(n) + (e.key === 'ArrowUp' ? kids.length - 1 : 1)) % kids.length];
    } else if (e.key === 'f') {
      page.flip();
      return;
    } else {
      return;
    }
    e.preventDefault();
    if (to && to !== n) page.select(to, e.key === 'ArrowRight');
  }
}
