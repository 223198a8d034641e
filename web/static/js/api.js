// HTTP helpers for the play server's JSON API (docs/protocol.md).

import { t, serverText, getLang } from './i18n.js';

/**
 * An error answered by the server, with its HTTP status and the code the
 * server named it by ('' for none); the message is in the page's language
 * when the catalogue knows the code.
 */
export class APIError extends Error {
  constructor(message, status, code = '') {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Calls the API and returns the decoded JSON answer; throws APIError. */
export async function api(method, path, body) {
  const opts = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    // Offline, said so (and coded 'offline'): the pages that need the
    // network say what works without it (offline.js).
    if (navigator.onLine === false) throw new APIError(t('api.offline'), 0, 'offline');
    throw new APIError(t('api.unreachable'), 0);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const msg = (data && data.error) || text.trim() || res.statusText;
    const code = (data && data.code) || '';
    throw new APIError(serverText(msg, code, data && data.vars), res.status, code);
  }
  return data;
}

let metaPromise = null;

/**
 * The meta for a view being mounted: on a failure, node shows the error
 * and the answer is null.
 */
export async function metaFor(node) {
  try {
    return await getMeta();
  } catch (err) {
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = err.message;
    node.append(p);
    return null;
  }
}

/**
 * The meta with each game's title in the language in use (its titles,
 * where the game has a name of its own there), read at each use so that a
 * change of language renames it.
 */
function localTitles(meta) {
  loaded = meta;
  for (const g of meta.games || []) {
    const own = g.title;
    Object.defineProperty(g, 'title', { get: () => (g.titles && g.titles[getLang()]) || own, enumerable: true });
  }
  return meta;
}

let loaded = null;

/**
 * A game's title (a summary's game name) in the language in use, once the
 * meta is in; else the summary's own title (fallback).
 */
export function gameTitle(name, fallback) {
  const g = loaded && loaded.games.find((x) => x.name === name);
  return (g && g.title) || fallback || name;
}

/** The server's description of the games and levels, fetched once. */
export function getMeta() {
  if (!metaPromise) {
    metaPromise = api('GET', '/api/meta').then(localTitles).catch((e) => {
      metaPromise = null;
      throw e;
    });
  }
  return metaPromise;
}
