// HTTP helpers for the play server's JSON API (docs/protocol.md).

import { t, serverText } from './i18n.js';

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

/** The server's description of the games and levels, fetched once. */
export function getMeta() {
  if (!metaPromise) {
    metaPromise = api('GET', '/api/meta').catch((e) => {
      metaPromise = null;
      throw e;
    });
  }
  return metaPromise;
}
