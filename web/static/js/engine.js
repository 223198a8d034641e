// The browser's engine: the rules, the computer players and the proof
// searches of every game, the server's own Go code compiled to
// WebAssembly and run in a Web Worker (engine/worker.js,
// docs/engine-worker.md), so that the analysis board, the lessons and
// games against the computer need no server and no queue. The page is
// usable before it has loaded: play() answers from the server meanwhile,
// and a page that cannot run it (no WebAssembly, no Worker, or the
// player's setting, prefs.enginePlace) keeps the server's.
//
// The engine's file has a content-hashed name that the server puts in the
// page (<meta name="engine">), so that the browser caches it for ever and
// a new build is a new name.

import { api, APIError } from './api.js';
import { serverText, t } from './i18n.js';
import { enginePlace } from './prefs.js';

let worker = null;
let state = 'idle'; // idle, loading, ready, failed
let loading = null;
let loadMS = 0;
let failure = '';
let nextID = 1;
const pending = new Map(); // id -> {resolve, reject, progress, abandoned, op, started}
const listeners = new Set();

/** The engine's URL that the server gave the page, '' for none. */
export function engineURL() {
  const m = document.querySelector('meta[name="engine"]');
  return (m && m.content) || '';
}

/** Whether this page can run the engine at all. */
export function supported() {
  return typeof Worker === 'function' && typeof WebAssembly === 'object' && !!engineURL();
}

/** Whether the player wants the computer in the browser and it can be. */
export function wanted() {
  return supported() && enginePlace() === 'browser';
}

/** The engine's state: 'idle', 'loading', 'ready' or 'failed'. */
export function status() {
  return state;
}

/** How long the engine took to load, in milliseconds (0 before). */
export function loadTime() {
  return loadMS;
}

/** Why the engine failed to load ('' when it did not). */
export function failed() {
  return failure;
}

/** Calls fn(state) at each change of the engine's state; returns the unsubscribe. */
export function onStatus(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function setState(s) {
  state = s;
  for (const fn of listeners) fn(s);
}

function workerURL() {
  const name = engineURL().split('/').pop().replace(/\.wasm$/, '');
  return `/engine/worker.js?v=${encodeURIComponent(name)}`;
}

/**
 * Loads the engine (once): a promise of true when it is ready, false
 * when it cannot be (the page then keeps the server's engine).
 */
export function load() {
  if (!supported()) return Promise.resolve(false);
  if (loading) return loading;
  setState('loading');
  loading = new Promise((resolve) => {
    try {
      worker = new Worker(workerURL());
    } catch (e) {
      failure = String(e && e.message || e);
      setState('failed');
      resolve(false);
      return;
    }
    worker.onmessage = (e) => {
      const m = e.data || {};
      if (m.type === 'ready') {
        loadMS = m.ms;
        setState('ready');
        resolve(true);
      } else if (m.type === 'failed') {
        failure = m.error;
        setState('failed');
        resolve(false);
      } else {
        answer(m);
      }
    };
    worker.onerror = (e) => {
      failure = (e && e.message) || 'the engine could not start';
      if (state !== 'ready') {
        setState('failed');
        resolve(false);
      }
      rejectAll('engine_failed', failure);
    };
    worker.postMessage({ type: 'load', url: engineURL() });
  });
  return loading;
}

function answer(m) {
  const p = pending.get(m.id);
  if (!p) return;
  if (m.type === 'progress') {
    if (p.progress && !p.abandoned) p.progress(m.kind, m.value);
    return;
  }
  pending.delete(m.id);
  if (m.type === 'result') p.resolve(m.value);
  else p.reject(toError(m.error));
}

function toError(e) {
  const err = e || {};
  return new APIError(serverText(err.error || t('engine.failed'), err.code || '', err.vars), 400, err.code || '');
}

function rejectAll(code, msg) {
  for (const [id, p] of pending) {
    pending.delete(id);
    p.reject(new APIError(msg, 0, code));
  }
}

/**
 * Stops the worker and starts another: what a request waiting behind an
 * abandoned search does, since the engine cannot stop a search from the
 * outside (it stops at its own time limit).
 */
export function restart() {
  if (!worker) return;
  worker.terminate();
  worker = null;
  loading = null;
  booksAsked.clear(); // the new worker has read none

  rejectAll('engine_restarted', t('engine.restarted'));
  load();
}

/**
 * Calls one of the engine's operations (play, analyze, move, bench,
 * games) with a request as the server's API takes it: a promise of the
 * answer, or an APIError worded as the server's refusals are. progress,
 * if given, hears (kind, value) reports before the answer.
 */
export async function call(op, req, progress) {
  if (!(await load())) throw new APIError(t('engine.unavailable'), 0, 'engine_unavailable');
  // A search nobody waits for any more holds the worker: start afresh.
  for (const p of pending.values()) {
    if (p.abandoned) {
      restart();
      await load();
      break;
    }
  }
  const id = nextID++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, progress, abandoned: false, op, started: performance.now() });
    worker.postMessage({ type: 'call', id, op, req });
  }).finally(() => pending.delete(id));
}

let bookList = null; // the server's list of certificate files (a promise)
const booksAsked = new Map(); // "game/rules" -> promise

/**
 * Reads into the engine the server's certificates of a game's rules (GET
 * /engine/book.json), once: level 8 then plays their proofs and the
 * analysis reports them, as the server's do. A promise that settles when
 * they are read; a failure (offline, no book) leaves the engine without.
 */
export function ensureBook(game, rules) {
  const key = `${game}/${rules || ''}`;
  if (!booksAsked.has(key)) {
    booksAsked.set(key, readBook(game, rules).catch(() => {}));
  }
  return booksAsked.get(key);
}

async function readBook(game, rules) {
  if (!bookList) {
    bookList = fetch('/engine/book.json', { credentials: 'same-origin' }).then((r) => (r.ok ? r.json() : []));
  }
  const files = await bookList;
  const wanted = await call('book_wanted', { game, rules: rules || '', files });
  for (const name of wanted) {
    const f = files.find((x) => x.name === name);
    const res = await fetch(f.url, { credentials: 'same-origin' });
    if (!res.ok) continue;
    const bytes = await res.arrayBuffer();
    const id = nextID++;
    await new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, progress: null, abandoned: false, op: 'book', started: performance.now() });
      worker.postMessage({ type: 'book', id, name, bytes }, [bytes]);
    }).finally(() => pending.delete(id));
  }
}

/** Marks the calls of op in flight as abandoned: their answers are not wanted. */
function abandon(id) {
  const p = pending.get(id);
  if (p) p.abandoned = true;
}

function offline() {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

let known = null; // a promise of the names of the games the browser's engine knows

/**
 * The names of the games the browser's engine knows (its catalogue, asked
 * once it has loaded); [] when it cannot run. A game the server has and
 * this build has not (the tests' toy game) is played by the server.
 */
export function engineGames() {
  if (!known) {
    known = call('games', {}).then((list) => (list || []).map((g) => g.name), () => {
      known = null;
      return [];
    });
  }
  return known;
}

/** Whether an error is the browser engine's not working (rather than its answer). */
function engineDown(err) {
  return err.code === 'engine_unavailable' || err.code === 'engine_failed' || err.code === 'engine_restarted';
}

/**
 * Plays moves from a position (the answer of POST /api/play): with the
 * browser's engine once it is ready, else the server's, and offline (or
 * when the server does not answer) the browser's once it has loaded.
 */
export async function play(req) {
  if (wanted() && (state === 'ready' || offline()) && (await engineGames()).includes(req.game)) {
    try {
      return await call('play', req);
    } catch (err) {
      if (!engineDown(err)) throw err;
    }
  }
  try {
    return await api('POST', '/api/play', req);
  } catch (err) {
    if (err.status !== 0 || !wanted() || state === 'failed' || !(await engineGames()).includes(req.game)) throw err;
    try {
      return await call('play', req);
    } catch (e) {
      throw engineDown(e) ? err : e;
    }
  }
}

let catalogue = null;

/** Whether the engine loaded here knows the game by its name (its catalogue, the "games" operation). */
export async function knows(game) {
  if (!catalogue) catalogue = call('games', {}).catch(() => { catalogue = null; return []; });
  return (await catalogue).some((g) => g.name === game);
}

/**
 * The computer's move at a level (engine.MoveRequest), from the browser's
 * engine; level 8 reads the book of its game's rules first.
 */
export async function computerMove(req) {
  if (req.level >= 8) await ensureBook(req.game, req.rules);
  return call('move', req);
}

/** The slices of an analysis that goes on: each asks again with more time. */
const slices = [300, 600, 1200, 2500, 5000];

/**
 * Analyses a position until stopped, deepening: onUpdate(analysis, final)
 * hears each slice's answer (the server's /api/analyze answer) with final
 * false, and the best line of each completed depth as a partial answer
 * ({lines: [line], partial: true}); onError(err) hears a refusal (a
 * position that is over), which ends it. maxMS, if given, ends it after
 * that much thinking (final true on the last answer). Returns {stop()}.
 */
export function analyzeForever(req, onUpdate, onError, maxMS = 0) {
  let stopped = false;
  let spent = 0;
  const run = async () => {
    await ensureBook(req.game, req.rules);
    for (let i = 0; !stopped; i = Math.min(i + 1, slices.length - 1)) {
      let ms = slices[i];
      if (maxMS > 0) ms = Math.min(ms, maxMS - spent);
      const last = maxMS > 0 && spent + ms >= maxMS;
      let out;
      try {
        out = await call('analyze', { ...req, movetime_ms: Math.max(100, ms) }, (kind, value) => {
          if (!stopped && kind === 'line') onUpdate({ lines: [value], partial: true }, false);
        });
      } catch (err) {
        if (!stopped && err.code !== 'engine_restarted') onError(err);
        return;
      }
      if (stopped) return;
      spent += ms;
      // A proof of the shortest win settles it: no slice can say more.
      const final = last || !!(out.proven && out.proven.exact);
      onUpdate(out, final);
      if (final) return;
    }
  };
  const started = run();
  return {
    stop() {
      stopped = true;
      for (const [id, p] of pending) if (p.op === 'analyze') abandon(id);
    },
    done: started,
  };
}
