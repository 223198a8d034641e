// The analysis board's exports: the position shown as text (to copy), the
// record of the whole tree with its variations and comments, and the board
// as an SVG image of the game's size, its pieces as the game's module draws
// them (svgSquare).

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { recordText } from './analysis-record.js';

/** Offers a text as a file to download. */
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The export panel of the analysis board page (its tree, node shown, game, board). */
export class ExportPanel {
  constructor(page) {
    this.page = page;
    this.pos = h('input#an-export-pos', { type: 'text', readonly: true, 'aria-label': t('an.positionText'), onfocus: (e) => e.target.select() });
    this.record = h('textarea#an-record', { rows: 5, spellcheck: 'false', 'aria-label': t('an.record') });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(this.pos.value);
        toast(t('an.copied'));
      } catch (e) {
        this.pos.select();
      }
    };
    const name = () => page.spec.name;
    this.node = h('details.an-export',
      h('summary', t('an.export')),
      h('div.field', h('label', { for: 'an-export-pos' }, t('an.position')), h('div.copy-row', this.pos,
        h('button.btn.small', { type: 'button', onclick: copy }, t('an.copy')))),
      h('div.field', h('label', { for: 'an-record' }, t('an.record')), this.record),
      h('div.form-buttons',
        h('button.btn.small#an-download-record', { type: 'button', onclick: () => download(`analysis-${name()}.pgn`, 'text/plain', this.record.value) }, t('an.downloadRecord')),
        h('button.btn.small#an-download-svg', { type: 'button', onclick: () => download(`position-${name()}.svg`, 'image/svg+xml', this.svg()) }, t('an.downloadImage'))));
  }

  render() {
    const page = this.page;
    if (!page.cur) return;
    this.pos.value = page.cur.position;
    this.record.value = recordText(page.root, { game: page.spec.name, rules: page.rules });
  }

  /** The board shown as an SVG image: the squares, and the pieces as the module draws them (svgSquare), if it does. */
  svg() {
    const S = 60;
    const { game, grid, board, spec, cur } = this.page;
    const pos = game.parse(cur.position, grid);
    const cs = getComputedStyle(board.root);
    const light = cs.getPropertyValue('--light-sq').trim() || '#f0d9b5';
    const dark = cs.getPropertyValue('--dark-sq').trim() || '#b58863';
    const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const w = grid.files * S;
    const ht = grid.ranks * S;
    let out = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${ht}" width="${w}" height="${ht}">`;
    out += `<title>${esc(spec.title)}: ${esc(cur.position)}</title>`;
    for (let i = 0; i < grid.squares; i++) {
      const { row, col } = board.cell(i);
      out += `<rect x="${col * S}" y="${row * S}" width="${S}" height="${S}" fill="${grid.isDark(i) ? dark : light}"/>`;
      const shapes = game.svgSquare ? game.svgSquare(pos, i) : [];
      for (const sh of shapes || []) {
        const attrs = Object.entries(sh.attrs || {}).map(([k, v]) => {
          const n = typeof v === 'number' ? (['x', 'cx', 'x1', 'x2'].includes(k) ? col * S + v * S : ['y', 'cy', 'y1', 'y2'].includes(k) ? row * S + v * S : v * S) : v;
          return `${k}="${esc(typeof n === 'number' ? n.toFixed(1) : n)}"`;
        }).join(' ');
        out += sh.text != null ? `<${sh.tag} ${attrs}>${esc(sh.text)}</${sh.tag}>` : `<${sh.tag} ${attrs}/>`;
      }
    }
    return out + '</svg>\n';
  }
}
