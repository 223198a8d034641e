// A tiny helper to build DOM trees, lists that refresh in place, and the
// page's message area.

import { t as tr, locale, dated } from './i18n.js';

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
    else if (k === 'style') e.style.cssText = v; // through the CSSOM, which the site's security policy allows
    else e.setAttribute(k, v === true ? '' : v);
  }
  append(e, children);
  return e;
}

/** A plain element of a tag, with a class name and attributes (the board's squares and pieces). */
export function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) for (const [k, v] of Object.entries(attrs)) {
    if (k === 'style') e.style.cssText = v;
    else e.setAttribute(k, v);
  }
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.append(c instanceof Node ? c : String(c));
  }
}

/**
 * Makes node a look like node b, keeping a's own nodes wherever the two
 * have the same shape (the same tags in the same places): text and
 * attributes are copied, and only what differs is replaced. A refreshed
 * row therefore keeps the focus, the hover and the listeners of its
 * buttons and links.
 */
export function morph(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) {
    a.replaceWith(b);
    return;
  }
  if (a.nodeType === Node.TEXT_NODE) {
    if (a.data !== b.data) a.data = b.data;
    return;
  }
  if (a.nodeType !== Node.ELEMENT_NODE) return;
  for (const at of [...a.attributes]) if (!b.hasAttribute(at.name)) a.removeAttribute(at.name);
  for (const at of b.attributes) {
    if (a.getAttribute(at.name) === at.value) continue;
    // A style goes through the CSSOM: the security policy refuses style
    // attributes set as text.
    if (at.name === 'style') a.style.cssText = b.style.cssText;
    else a.setAttribute(at.name, at.value);
  }
  morphChildren(a, [...b.childNodes]);
}

/** Makes parent's children look like the nodes given (see morph). */
export function morphChildren(parent, nodes) {
  const old = [...parent.childNodes];
  nodes.forEach((n, i) => {
    if (i < old.length) morph(old[i], n);
    else parent.append(n);
  });
  for (let i = nodes.length; i < old.length; i++) old[i].remove();
}

/**
 * Brings a list's children in line with items, in their order, without
 * rebuilding it: key(item) names an item's node, sig(item) what it shows;
 * render(item) builds it. A node whose item is gone is removed, a new one
 * inserted, a changed one morphed; the others stay where they are, so a
 * list refreshed every few seconds neither flickers nor loses the focus.
 */
export function syncList(list, items, key, sig, render) {
  const want = new Map(items.map((it) => [String(key(it)), it]));
  const have = new Map();
  for (const el of [...list.children]) {
    if (want.has(el.dataset.key)) have.set(el.dataset.key, el);
    else el.remove();
  }
  let i = 0;
  for (const [k, it] of want) {
    const s = sig(it);
    let el = have.get(k);
    if (!el) {
      el = render(it);
      el.dataset.key = k;
      el.dataset.sig = s;
    } else if (el.dataset.sig !== s) {
      const fresh = render(it);
      fresh.dataset.key = k;
      fresh.dataset.sig = s;
      morph(el, fresh);
      if (!el.isConnected) el = fresh; // another tag: replaced
    }
    const at = list.children[i];
    if (at !== el) list.insertBefore(el, at || null);
    i++;
  }
}

let uid = 0;

/** A row of radio buttons that look like one segmented control; items are [value, label, title]. */
export function segmented(name, legend, items, value, onchange) {
  const id = 'seg' + ++uid;
  return h('fieldset.field.segmented', { 'data-name': name },
    h('legend', legend),
    h('div.seg-row', items.map(([v, label, title]) => {
      const rid = `${id}-${v}`;
      return [
        h('input', { type: 'radio', name: id, id: rid, value: v, checked: v === value, onchange: () => onchange(v) }),
        h('label', { for: rid, title: title || null }, label),
      ];
    })));
}

/**
 * Shows the dialog d, made but not yet in the page, as a modal: a click on
 * its backdrop (outside its body) closes it, and once closed it leaves the
 * page and the focus goes back to opener, when that is still there.
 */
export function showDialog(d, opener) {
  d.addEventListener('click', (e) => {
    if (e.target === d) d.close();
  });
  d.addEventListener('close', () => {
    d.remove();
    if (opener && opener.isConnected) opener.focus();
  });
  document.body.append(d);
  d.showModal();
}

/** Shows a short message at the bottom of the page; kind "error" is announced at once. */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const t = h('div.toast.' + kind, { role: kind === 'error' ? 'alert' : 'status' }, message);
  const close = h('button.toast-close', { type: 'button', 'aria-label': tr('dom.dismiss'), onclick: () => t.remove() }, '×');
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

/**
 * Formats a correspondence clock's milliseconds: "2d 5h" over a day,
 * "5h 12m" over an hour, then as formatClock does.
 */
export function formatDays(ms) {
  ms = Math.max(0, ms);
  const hours = Math.floor(ms / 3600000);
  if (hours >= 24) return `${Math.floor(hours / 24)}d ${hours % 24}h`;
  if (hours >= 1) return `${hours}h ${Math.floor((ms % 3600000) / 60000)}m`;
  return formatClock(ms);
}

/** Seconds left until a moment, rounded up, never below 0. */
export function secondsLeft(ms) {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** A date as a short local text. */
export function formatDate(v) {
  if (!v) return '';
  const d = new Date(typeof v === 'number' ? v : String(v));
  if (isNaN(d)) return String(v);
  return dated(d.toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' }));
}

/** A day as a short local text: "3 Mar 2025". */
export function formatDay(v) {
  if (!v) return '';
  const d = new Date(typeof v === 'number' ? v : String(v));
  if (isNaN(d)) return String(v);
  return dated(d.toLocaleDateString(locale(), { dateStyle: 'medium' }));
}

/** The paths of the replay buttons' icons (24 by 24), shared by the game page and the analysis board. */
export const ICONS = {
  first: 'M6 5h2v14H6zM18 5v14l-9-7z',
  prev: 'M16 5v14l-9-7z',
  next: 'M8 5v14l9-7z',
  last: 'M16 5h2v14h-2zM6 5v14l9-7z',
  flip: 'M7 4l-4 4h3v8h2V8h3zM17 20l4-4h-3V8h-2v8h-3z',
};

/** An icon of ICONS as the SVG markup a button shows (its innerHTML). */
export function iconSvg(path) {
  return `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="currentColor" d="${path}"/></svg>`;
}
