// The lessons solved and the stars won at their stages: a guest's are kept
// in this browser's localStorage ("learn.<game>", "learnstars.<game>"); an
// account's on the server (GET /api/account/learn, GET
// /api/account/learn-stars, POST /api/account/learn/<game>), where those
// won as a guest in this browser go too once logged in. When the server cannot be asked
// (offline), the browser keeps them, and sendProgress sends them when the
// network is back and at the next load (app.js): the server adds lessons
// to a set, so a save sent twice counts once.

import { api } from './api.js';
import { account, loggedIn, whenAccount, accountOffline } from './account.js';

let remote = null; // the account's solved lessons by game, as the server said
let remoteStars = {}; // the account's stars by game and stage, as the server said
let remoteFor = '';

function localStars(game) {
  try {
    const v = JSON.parse(localStorage.getItem('learnstars.' + game) || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch (e) {
    return {};
  }
}

function setLocalStars(game, stars) {
  try {
    if (Object.keys(stars).length) localStorage.setItem('learnstars.' + game, JSON.stringify(stars));
    else localStorage.removeItem('learnstars.' + game);
  } catch (e) {
    // private browsing: kept for this page only
  }
}

/** The better of two sets of stars, stage by stage. */
function bestOf(a, b) {
  const out = { ...a };
  for (const [k, n] of Object.entries(b || {})) out[k] = Math.max(out[k] || 0, n);
  return out;
}

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
    remoteStars = {};
    remoteFor = '';
    return;
  }
  const name = account().name;
  try {
    if (!remote || remoteFor !== name) {
      remote = (await api('GET', '/api/account/learn')) || {};
      remoteStars = (await api('GET', '/api/account/learn-stars')) || {};
      remoteFor = name;
    }
    const mine = localSolved(game).filter((id) => !(remote[game] || []).includes(id));
    const stars = localStars(game);
    if (mine.length || Object.keys(stars).length) {
      await api('POST', `/api/account/learn/${encodeURIComponent(game)}`, { solved: mine, stars });
      remote[game] = [...(remote[game] || []), ...mine];
      remoteStars[game] = bestOf(remoteStars[game], stars);
      setLocal(game, []);
      setLocalStars(game, {});
    }
  } catch (err) {
    // No progress on the server (or not now): the browser keeps it.
    remote = null;
    remoteStars = {};
    remoteFor = '';
  }
}

/** The ids of a game's lessons solved: the account's, or this browser's for a guest. */
export function solvedLessons(game) {
  const local = localSolved(game);
  if (!remote) return local;
  return [...new Set([...(remote[game] || []), ...local])];
}

/** The stars won at a game's stages, by "<lesson id>:<stage>": the account's and this browser's. */
export function lessonStars(game) {
  return bestOf(remote ? remoteStars[game] : {}, localStars(game));
}

/**
 * Keeps the stars won at stage `stage` of lesson id (the better of these
 * and those kept), on the account when logged in, else (and when the save
 * fails) in this browser, sent later as the lessons solved are.
 */
export function markStars(game, id, stage, n) {
  const key = `${id}:${stage}`;
  if ((lessonStars(game)[key] || 0) >= n) return;
  if (!remote) {
    setLocalStars(game, bestOf(localStars(game), { [key]: n }));
    return;
  }
  remoteStars[game] = bestOf(remoteStars[game], { [key]: n });
  window.learnSaving = (window.learnSaving || 0) + 1;
  api('POST', `/api/account/learn/${encodeURIComponent(game)}`, { solved: [], stars: { [key]: n } }).catch(() => {
    setLocalStars(game, bestOf(localStars(game), { [key]: n }));
  }).finally(() => {
    window.learnSaving--;
  });
}

/** Marks lesson id of game solved (on the account, or in this browser). */
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
      else if (k && k.startsWith('learnstars.') && Object.keys(localStars(k.slice(11))).length) out.push(k.slice(11));
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

