// The lessons solved: a guest's are kept in this browser's localStorage
// ("learn.<game>"); an account's on the server (GET /api/account/learn,
// POST /api/account/learn/<game>), where the lessons solved as a guest in
// this browser go too once logged in. When the server cannot be asked
// (offline), the browser keeps them, and sendProgress sends them when the
// network is back and at the next load (app.js): the server adds lessons
// to a set, so a save sent twice counts once.

import { api } from './api.js';
import { account, loggedIn, whenAccount, accountOffline } from './account.js';

let remote = null; // the account's solved lessons by game, as the server said
let remoteFor = '';

function localSolved(game) {
  try {
    const v = JSON.parse(localStorage.getItem('learn.' + game) || '[]');
    return Array.isArray(v) ? v : [];
  } catch (e) {
    return [];
  }
}

function setLocal(game, ids) {
  try {
    if (ids.length) localStorage.setItem('learn.' + game, JSON.stringify(ids));
    else localStorage.removeItem('learn.' + game);
  } catch (e) {
    // private browsing: kept for this page only
  }
}

/** Reads the account's progress from the server (once per account) and hands it a guest's progress of game. */
export async function syncProgress(game) {
  await whenAccount();
  if (!loggedIn() || accountOffline()) {
    remote = null;
    remoteFor = '';
    return;
  }
  const name = account().name;
  try {
    if (!remote || remoteFor !== name) {
      remote = (await api('GET', '/api/account/learn')) || {};
      remoteFor = name;
    }
    const mine = localSolved(game).filter((id) => !(remote[game] || []).includes(id));
    if (mine.length) {
      await api('POST', `/api/account/learn/${encodeURIComponent(game)}`, { solved: mine });
      remote[game] = [...(remote[game] || []), ...mine];
      setLocal(game, []);
    }
  } catch (err) {
    // No progress on the server (or not now): the browser keeps it.
    remote = null;
    remoteFor = '';
  }
}

/** The ids of a game's lessons solved: the account's, or this browser's for a guest. */
export function solvedLessons(game) {
  const local = localSolved(game);
  if (!remote) return local;
  return [...new Set([...(remote[game] || []), ...local])];
}

export function markSolved(game, id) {
  if (solvedLessons(game).includes(id)) return;
  if (!remote) {
    setLocal(game, [...localSolved(game), id]);
    return;
  }
  remote[game] = [...(remote[game] || []), id];
  // window.learnSaving counts the saves under way (the browser tests wait for none).
  window.learnSaving = (window.learnSaving || 0) + 1;
  api('POST', `/api/account/learn/${encodeURIComponent(game)}`, { solved: [id] }).catch(() => {
    // Kept in the browser meanwhile, and no longer counted as the
    // server's, so that the next sync sends it.
    if (remote) remote[game] = (remote[game] || []).filter((x) => x !== id);
    setLocal(game, [...localSolved(game), id]);
  }).finally(() => {
    window.learnSaving--;
  });
}

/** The games whose lessons solved this browser keeps. */
function keptGames() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith('learn.') && localSolved(k.slice(6)).length) out.push(k.slice(6));
    }
  } catch (e) {
    // no storage: nothing kept
  }
  return out;
}

/**
 * Sends the lessons solved that this browser kept (offline, or a save that
 * failed) to the account logged in: when the network is back and at each
 * load. A guest's stay in the browser.
 */
export async function sendProgress() {
  await whenAccount();
  if (!loggedIn() || accountOffline()) return;
  for (const game of keptGames()) await syncProgress(game);
}

