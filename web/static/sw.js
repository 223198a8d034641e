// The site's service worker (docs/offline.md), served as /sw.js by the
// server (package server/offline), which fills in the OFFLINE line below:
// the version, the files to precache (the page as "/", every front-end
// file, the engine under its hashed name), the API answers kept for
// offline use, and the pattern of the paths that are pages.
//
//   static files     from the cache, else the network (a file the list
//                    lacks: a game module the server does not have)
//   pages            the network first, and its answer kept as the page;
//                    the kept page when the network does not answer
//   OFFLINE.data     (the meta) the network first, else the kept answer
//   the rest of /api/, the sockets, other methods: the network's, never
//                    cached
//
// A new version installs beside the old one, precaches everything, then
// takes over at once (skipWaiting, clients.claim) and deletes the old
// caches; the pages it takes over offer a reload (js/offline.js).

/* eslint-env serviceworker */
const OFFLINE = { version: 'dev', files: [], data: [], pages: '^/$' };

const STATIC = 'static-' + OFFLINE.version;
const DATA = 'kept-data';
const PAGES = new RegExp(OFFLINE.pages);
const HASHED = /^\/engine\/[0-9a-f]+\.wasm$/;
// Kept answers are found whatever they vary by: the page varies by the
// language asked (Accept-Language, the lang cookie), and the kept one is
// the last the visitor was sent.
const ANY = { ignoreVary: true };

/** A precache request: past the browser's HTTP cache, but for the engine, whose hashed name never changes content. */
function fresh(url) {
  return new Request(url, { cache: HASHED.test(url) ? 'default' : 'no-cache', credentials: 'same-origin' });
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(STATIC);
    await cache.addAll(OFFLINE.files.map(fresh));
    const data = await caches.open(DATA);
    await Promise.all(OFFLINE.data.map((url) => fetch(fresh(url)).then((res) => (res.ok ? data.put(url, res) : null), () => null)));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('static-') && name !== STATIC) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/**
 * Keeps an answer in a cache that exists: a worker that a newer one has
 * replaced must not make its deleted cache again.
 */
async function put(name, url, res) {
  if (await caches.has(name)) await (await caches.open(name)).put(url, res);
}

/** The page: the network's (kept for offline), else the kept one. */
async function page(request) {
  try {
    const res = await fetch(request);
    if (res.ok && (res.headers.get('Content-Type') || '').startsWith('text/html')) await put(STATIC, '/', res.clone());
    return res;
  } catch (err) {
    const kept = await caches.match('/', { ...ANY, cacheName: STATIC });
    if (kept) return kept;
    throw err;
  }
}

/** An API answer kept for offline use: the network's, else the kept one. */
async function data(request, url) {
  try {
    const res = await fetch(request);
    if (res.ok) await (await caches.open(DATA)).put(url, res.clone());
    return res;
  } catch (err) {
    const kept = await caches.match(url, { ...ANY, cacheName: DATA });
    if (kept) return kept;
    throw err;
  }
}

/** A front-end file: the cache's, else the network's. */
async function file(request) {
  const kept = await caches.match(request, { ...ANY, ignoreSearch: true, cacheName: STATIC });
  return kept || fetch(request);
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname === '/sw.js') return;
  if (OFFLINE.data.includes(url.pathname + url.search)) {
    event.respondWith(data(req, url.pathname + url.search));
    return;
  }
  if (url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') {
    if (PAGES.test(url.pathname)) event.respondWith(page(req));
    return;
  }
  event.respondWith(file(req));
});

// A page asks which version runs (the browser tests wait for it).
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'version' && event.ports[0]) event.ports[0].postMessage({ version: OFFLINE.version });
});
