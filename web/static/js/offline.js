// The site without the network (docs/offline.md): the service worker's
// registration (sw.js, which keeps the whole front end), whether the
// browser is offline, the banner that says so with what works offline and
// what needs the network, the views that stand in for pages that need it
// (the home page's offline choices, and a notice), and the work done when
// the network is back (onOnline: the queued lesson progress and puzzle
// results sent).

import { h } from './dom.js';
import { t } from './i18n.js';

const backListeners = new Set();
const goneListeners = new Set();

/** Whether the browser says it has no network. */
export function isOffline() {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Calls fn when the network comes back (the window's online event); returns the unsubscribe. */
export function onOnline(fn) {
  backListeners.add(fn);
  return () => backListeners.delete(fn);
}

/** Calls fn when the network goes (the window's offline event); returns the unsubscribe. */
export function onOffline(fn) {
  goneListeners.add(fn);
  return () => goneListeners.delete(fn);
}

function tell(listeners) {
  for (const fn of listeners) {
    try {
      fn();
    } catch (e) {
      console.warn(e);
    }
  }
}

/**
 * What the browser tests read: whether a service worker controls the page
 * and its version (the caches are complete once it does: it takes over
 * only after precaching everything).
 */
const status = { controlled: false, version: '', updated: false };
window.magnetonOffline = status;

function askVersion(worker) {
  if (!worker) return;
  const ch = new MessageChannel();
  ch.port1.onmessage = (e) => {
    status.version = (e.data && e.data.version) || '';
    status.controlled = !!navigator.serviceWorker.controller;
  };
  worker.postMessage({ type: 'version' }, [ch.port2]);
}

/** A note that stays until closed: a new version of the site has taken over, with a button that reloads. */
function updatedNote() {
  const box = document.getElementById('toasts');
  if (!box || box.querySelector('.toast.site-updated')) return;
  const note = h('div.toast.site-updated', { role: 'status' },
    h('span', t('off.updated')),
    h('button.btn.small', { type: 'button', onclick: () => location.reload() }, t('off.reload')));
  note.append(h('button.toast-close', { type: 'button', 'aria-label': t('dom.dismiss'), onclick: () => note.remove() }, '×'));
  box.append(note);
}

/**
 * Registers the service worker once the page has loaded (so that its
 * precaching does not compete with the page's own files). A new version
 * that takes over a page a worker already controlled offers a reload; the
 * page goes on as it is meanwhile.
 */
export function registerWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const sw = navigator.serviceWorker;
  // A worker that takes over a page no worker controlled is the first
  // one (the page is what it loaded); one that takes over from another is
  // a new version.
  let had = !!sw.controller;
  sw.addEventListener('controllerchange', () => {
    if (had) {
      status.updated = true;
      updatedNote();
    }
    had = true;
    askVersion(sw.controller);
  });
  const register = () => {
    sw.register('/sw.js', { scope: '/' }).catch((err) => console.warn('the service worker did not register:', err));
    sw.ready.then(() => askVersion(sw.controller));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

let banner = null;

/** The banner under the header while offline: what works and what needs the network. */
function renderBanner() {
  if (!isOffline()) {
    if (banner) banner.hidden = true;
    return;
  }
  if (!banner) {
    banner = h('div.offline-banner', { role: 'status' });
    const main = document.getElementById('app');
    main.parentNode.insertBefore(banner, main);
  }
  banner.textContent = '';
  banner.hidden = false;
  banner.append(
    h('strong', t('off.title')), ' ',
    h('span', t('off.works')), ' ',
    h('span', t('off.needs')), ' ',
    h('a', { href: '/computer' }, t('off.playComputer')));
}

/** Starts watching the network: the banner, and onOnline's listeners when it is back. */
export function watchNetwork() {
  renderBanner();
  window.addEventListener('offline', () => {
    renderBanner();
    tell(goneListeners);
  });
  window.addEventListener('online', () => {
    renderBanner();
    tell(backListeners);
  });
}

/** Draws the banner again in the language in use. */
export function rewordBanner() {
  renderBanner();
}

/** The links to what works offline, each with a line about it. */
function offlineChoices(meta) {
  const games = (meta && meta.games) || [];
  return h('div.offline-choices',
    h('section.card', h('h2', t('cg.title')), h('p', t('off.computerText')),
      h('p', h('a.btn.primary', { href: '/computer' }, t('off.playComputer')))),
    h('section.card', h('h2', t('nav.learn')), h('p', t('off.learnText')),
      h('p.form-buttons', games.length ? games.map((g) => h('a.btn.small', { href: `/learn/${g.name}` }, g.title)) : h('a.btn.small', { href: '/learn' }, t('nav.learn')))),
    h('section.card', h('h2', t('nav.puzzles')), h('p', t('off.puzzlesText')),
      h('p', h('a.btn.small', { href: '/puzzles' }, t('nav.puzzles')))),
    h('section.card', h('h2', t('nav.analysis')), h('p', t('off.analysisText')),
      h('p', h('a.btn.small', { href: '/analysis' }, t('nav.analysis')))));
}

/**
 * The view shown offline instead of a page that needs the network: the
 * home page's offline choices (home true), or a notice that this page
 * needs the network, with the same choices. getMeta gives the meta (the
 * service worker keeps it).
 */
export function offlineView(home, getMeta) {
  const node = h('div.offline-page');
  return {
    node,
    offline: true, // app.js draws the page again when the network is back
    async mounted() {
      let meta = null;
      try {
        meta = await getMeta();
      } catch (err) {
        meta = null;
      }
      node.append(
        h('h1', home ? t('off.homeTitle') : t('off.pageTitle')),
        h('p.lead', home ? t('off.homeText') : t('off.pageText')),
        offlineChoices(meta));
    },
  };
}
