// A tiny helper to build DOM trees, and the page's message area.

/**
 * h('div.class#id', {attr: value, onclick: fn}, children...) builds an
 * element; children are nodes, strings, arrays or null.
 */
export function h(spec, attrs, ...children) {
  const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const e = document.createElement((m && m[1]) || 'div');
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') e.classList.add(part.slice(1));
      else e.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className += ' ' + v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'value') e.value = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.append(c instanceof Node ? c : String(c));
  }
}

/** Shows a short message at the bottom of the page; kind "error" is announced at once. */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const t = h('div.toast.' + kind, { role: kind === 'error' ? 'alert' : 'status' }, message);
  const close = h('button.toast-close', { type: 'button', 'aria-label': 'Dismiss', onclick: () => t.remove() }, '×');
  t.append(close);
  box.append(t);
  setTimeout(() => t.remove(), kind === 'error' ? 8000 : 4000);
}

/** Formats milliseconds as a clock: 4:59, or 0:09.3 under ten seconds. */
export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  const hh = Math.floor(m / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(m % 60).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A date as a short local text. */
export function formatDate(v) {
  if (!v) return '';
  const d = new Date(typeof v === 'number' ? v : String(v));
  if (isNaN(d)) return String(v);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
