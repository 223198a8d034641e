// The analysis board's arrows: the engine's best move of each line drawn
// on the board, from the square a piece leaves to the square it reaches
// (a drop, which leaves none, is a ring on its square); the best line's
// the boldest. An SVG layer over the squares, in the board's own units
// (100 a square), so that it scales with the board and turns with it.

const NS = 'http://www.w3.org/2000/svg';

function svg(name, attrs) {
  const n = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

/**
 * Draws arrows on a Board for moves (best first): each parsed by the
 * board's game module (parseMove: {from, to} squares, from -1 for a drop).
 */
export function drawArrows(board, moves) {
  let layer = board.arrowsEl;
  if (!layer) {
    const { files, ranks } = board.grid;
    layer = board.arrowsEl = svg('svg', { class: 'arrows', viewBox: `0 0 ${files * 100} ${ranks * 100}`, 'aria-hidden': 'true', focusable: 'false' });
    const defs = svg('defs', {});
    for (const kind of ['best', 'alt']) {
      const marker = svg('marker', { id: `${board.root.id}-head-${kind}`, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto-start-reverse' });
      marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrow-head arrow-head-${kind}` }));
      defs.append(marker);
    }
    layer.append(defs);
    board.root.append(layer);
  }
  for (const old of [...layer.querySelectorAll('.arrow')]) old.remove();
  board.arrowMoves = moves;
  const centre = (sq) => {
    const { row, col } = board.cell(sq);
    return [col * 100 + 50, row * 100 + 50];
  };
  moves.forEach((text, i) => {
    const mv = board.game.parseMove ? board.game.parseMove(text, board.grid) : null;
    if (!mv || mv.to == null || mv.to < 0) return;
    const [x2, y2] = centre(mv.to);
    const kind = i === 0 ? 'best' : 'alt';
    const cls = `arrow arrow-${kind}`;
    if (mv.from == null || mv.from < 0 || mv.from === mv.to) {
      layer.append(svg('circle', { class: cls, cx: x2, cy: y2, r: 38, 'data-move': text }));
      return;
    }
    const [x1, y1] = centre(mv.from);
    // Stop short of the centre, so that the head sits on the square.
    const len = Math.hypot(x2 - x1, y2 - y1);
    const k = (len - 22) / len;
    layer.append(svg('line', {
      class: cls, x1, y1, x2: x1 + (x2 - x1) * k, y2: y1 + (y2 - y1) * k,
      'marker-end': `url(#${board.root.id}-head-${kind})`, 'data-move': text,
    }));
  });
}
