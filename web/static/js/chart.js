// A rating's history as a small inline SVG graph: a line over time, the
// lowest and highest rating on the left, the first and last day below.
// Drawn at the width it is given, so that its text stays legible on a
// phone.

import { t, locale, dated } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

const day = (ms) => dated(new Date(ms).toLocaleDateString(locale(), { dateStyle: 'medium' }));
const moment = (ms) => dated(new Date(ms).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' }));

/**
 * The graph of points [{at: ms, rating}] (any order), width pixels wide;
 * label says what it is to a screen reader and in its tooltip.
 */
export function ratingChart(points, width, label) {
  const pts = (points || [])
    .filter((p) => p && Number.isFinite(Number(p.at)) && Number.isFinite(Number(p.rating)))
    .map((p) => ({ at: Number(p.at), rating: Number(p.rating) }))
    .sort((a, b) => a.at - b.at);
  const W = Math.max(240, Math.round(width || 600));
  const H = 200;
  const pad = { left: 46, right: 14, top: 14, bottom: 28 };
  const first = pts[0];
  const last = pts[pts.length - 1];
  const lo = Math.min(...pts.map((p) => p.rating));
  const hi = Math.max(...pts.map((p) => p.rating));
  const summary = pts.length
    ? t(pts.length === 1 ? 'ch.summaryOne' : 'ch.summary', { label, first: first.rating, last: last.rating, lo, hi, from: day(first.at), to: day(last.at) })
    : t('ch.summaryNone', { label });
  const root = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': summary });
  root.append(svg('title', {}, summary));
  if (!pts.length) return root;

  // A flat line still gets some height; the axes are the data's bounds.
  const span = Math.max(hi - lo, 20);
  const yLo = hi - lo < 20 ? lo - (span - (hi - lo)) / 2 : lo;
  const yHi = yLo + span;
  const t0 = first.at;
  const t1 = last.at;
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const x = (t) => pad.left + (t1 > t0 ? ((t - t0) / (t1 - t0)) * plotW : plotW / 2);
  const y = (r) => pad.top + (1 - (r - yLo) / (yHi - yLo)) * plotH;

  for (const r of [lo, hi]) {
    root.append(svg('line', { class: 'chart-grid', x1: pad.left, x2: W - pad.right, y1: y(r), y2: y(r) }));
  }
  root.append(svg('line', { class: 'chart-axis', x1: pad.left, x2: pad.left, y1: pad.top, y2: H - pad.bottom }));
  root.append(svg('line', { class: 'chart-axis', x1: pad.left, x2: W - pad.right, y1: H - pad.bottom, y2: H - pad.bottom }));

  const line = pts.map((p) => `${x(p.at).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  if (pts.length > 1) {
    // The area under the line, then the line itself.
    root.append(svg('polygon', { class: 'chart-area', points: `${x(t0).toFixed(1)},${H - pad.bottom} ${line} ${x(t1).toFixed(1)},${H - pad.bottom}` }));
    root.append(svg('polyline', { class: 'chart-line', points: line }));
  }
  // Where the line starts (the rating one starts with) and where it is now.
  if (pts.length > 1) root.append(svg('circle', { class: 'chart-dot chart-start', cx: x(t0), cy: y(first.rating), r: 3 }));
  root.append(svg('circle', { class: 'chart-dot', cx: x(last.at), cy: y(last.rating), r: 3.5 }));

  const labelY = (r) => Math.min(H - pad.bottom, Math.max(pad.top + 4, y(r) + 4));
  // The highest rating's label on its line and the lowest's on its own;
  // when the two lines are close, one label above and one below them.
  const close = y(lo) - y(hi) < 14;
  root.append(svg('text', { class: 'chart-label', x: pad.left - 6, y: Math.max(10, close ? y(hi) - 2 : labelY(hi)), 'text-anchor': 'end' }, String(hi)));
  if (hi !== lo) root.append(svg('text', { class: 'chart-label', x: pad.left - 6, y: close ? y(lo) + 12 : labelY(lo), 'text-anchor': 'end' }, String(lo)));
  // The first and last day; within one day, the times.
  const when = day(t0) === day(t1) ? moment : day;
  root.append(svg('text', { class: 'chart-label', x: pad.left, y: H - 8, 'text-anchor': 'start' }, when(t0)));
  if (t1 > t0) root.append(svg('text', { class: 'chart-label', x: W - pad.right, y: H - 8, 'text-anchor': 'end' }, when(t1)));
  return root;
}

/**
 * A number from -1 to 1 for an evaluation from the first side's point of
 * view ({cp, mate, result}): the first side's winning chance, as the
 * server's review reckons it (lichess's logistic curve), taken to -1..1.
 */
export function evalShare(e) {
  if (!e) return 0;
  if (e.result === '1-0') return 1;
  if (e.result === '0-1') return -1;
  if (e.result === '1/2-1/2') return 0;
  if (e.mate) return e.mate > 0 ? 1 : -1;
  return 2 / (1 + Math.exp(-0.00368208 * (Number(e.cp) || 0))) - 1;
}

/**
 * The evaluation graph of a game: one point per position (evals [{ply,
 * cp, mate, result}]), the first side's advantage upwards, width pixels
 * wide. opts: {total: plies, marks: [{ply, cls}] (the marked moves, at the
 * position they led to), current: the ply shown, label, onPick(ply)}.
 */
export function evalChart(evals, width, opts = {}) {
  const W = Math.max(200, Math.round(width || 320));
  const H = 110;
  const pad = { left: 4, right: 4, top: 6, bottom: 6 };
  const pts = (evals || []).filter((e) => e && Number.isFinite(Number(e.ply))).sort((a, b) => a.ply - b.ply);
  const total = Math.max(1, opts.total || (pts.length ? pts[pts.length - 1].ply : 1));
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const x = (ply) => pad.left + (ply / total) * plotW;
  const y = (v) => pad.top + ((1 - v) / 2) * plotH;
  const label = opts.label || t('ch.evalGraph');
  const root = svg('svg', { class: 'chart eval-chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': label });
  root.append(svg('title', {}, label));
  root.append(svg('rect', { class: 'eval-bg', x: pad.left, y: pad.top, width: plotW, height: plotH }));
  if (pts.length) {
    const line = pts.map((e) => `${x(e.ply).toFixed(1)},${y(evalShare(e)).toFixed(1)}`).join(' ');
    // The first side's share above the middle line, filled.
    root.append(svg('polygon', { class: 'eval-area', points: `${x(pts[0].ply).toFixed(1)},${y(-1)} ${line} ${x(pts[pts.length - 1].ply).toFixed(1)},${y(-1)}` }));
    root.append(svg('polyline', { class: 'eval-line', points: line }));
  }
  root.append(svg('line', { class: 'eval-mid', x1: pad.left, x2: W - pad.right, y1: y(0), y2: y(0) }));
  const at = new Map(pts.map((e) => [e.ply, e]));
  for (const m of opts.marks || []) {
    const e = at.get(m.ply);
    if (!e) continue;
    root.append(svg('circle', { class: 'eval-mark ' + m.cls, cx: x(m.ply), cy: y(evalShare(e)), r: 3.5, 'data-ply': m.ply }));
  }
  if (opts.current != null) {
    root.append(svg('line', { class: 'eval-cursor', x1: x(opts.current), x2: x(opts.current), y1: pad.top, y2: H - pad.bottom }));
  }
  if (opts.onPick) {
    root.style.cursor = 'pointer';
    root.addEventListener('click', (ev) => {
      const r = root.getBoundingClientRect();
      const px = ((ev.clientX - r.left) / r.width) * W;
      opts.onPick(Math.max(0, Math.min(total, Math.round(((px - pad.left) / plotW) * total))));
    });
  }
  return root;
}
