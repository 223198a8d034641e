// The puzzles kept for offline, and the results waiting for the network
// (docs/offline.md). While online the browser keeps, for each game, the
// next few puzzles the server would give (GET /api/puzzles/next, then the
// untried puzzles rated nearest it): each whole, with its line, its
// accepted moves and its positions, which is all the puzzle page needs to
// check moves by itself. Offline the page serves them, the untried first;
// an account's results wait here and go to POST /api/puzzles/<id>/result
// when the network is back (and at the next load), for the account that
// solved them. The server rates an account's first attempt at a puzzle
// whenever it arrives (Glicko-2, one result at a time, no rating
// period), so a late result is rated as it would have been; one sent
// twice is rated once (the server keeps the first attempt).
//
// localStorage: "puzzles.kept" {account, at, games: {<game>: [puzzle, with
// tried]}}, "puzzles.queue" [{id, game, solved, account, at}].

import { api } from './api.js';
import { account, loggedIn, accountOffline, whenAccount } from './account.js';

/** How many puzzles of each game are kept. */
export const KEEP = 6;
/** How old a kept set may grow before it is asked for again. */
const FRESH_MS = 12 * 3600 * 1000;
/** The most results kept waiting. */
const MAX_QUEUE = 200;

function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null') || fallback;
  } catch (e) {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    // no storage (private browsing, full): nothing kept
  }
}

const kept = () => read('puzzles.kept', { account: '', at: 0, games: {} });
const queue = () => read('puzzles.queue', []);

/** The name the results are kept for: the account's, '' for a guest. */
function who() {
  const a = account();
  return a && !a.guest ? a.name : '';
}

/** The kept puzzles of a game. */
export function keptPuzzles(game) {
  return kept().games[game] || [];
}

/**
 * A kept puzzle to solve: the one of id, else the game's first untried
 * but the one shown (not), else the next one after it (practice); null if
 * none.
 */
export function keptPuzzle(game, id, not = '') {
  const all = Object.values(kept().games).flat();
  const byID = id && all.find((p) => p.id === id);
  if (byID) return byID;
  const list = keptPuzzles(game);
  const after = list.findIndex((p) => p.id === not) + 1;
  const others = [...list.slice(after), ...list.slice(0, after)].filter((p) => p.id !== not);
  return others.find((p) => !p.tried) || others[0] || list[0] || null;
}

/** Marks a kept puzzle tried, so that offline the next one comes first; true if it was untried. */
export function markTried(id) {
  const k = kept();
  let fresh = false;
  for (const list of Object.values(k.games)) {
    for (const p of list) {
      if (p.id === id && !p.tried) {
        p.tried = true;
        fresh = true;
      }
    }
  }
  if (fresh) write('puzzles.kept', k);
  return fresh;
}

/** Keeps an account's result to send when the network is back; false for a guest (whose results count nowhere). */
export function queueResult(id, game, solved) {
  if (!loggedIn()) return false;
  const q = queue().filter((r) => !(r.id === id && r.account === who()));
  q.push({ id, game, solved: !!solved, account: who(), at: Date.now() });
  write('puzzles.queue', q.slice(-MAX_QUEUE));
  return true;
}

/** The results waiting for the network. */
export function queuedResults() {
  return queue();
}

let sending = null;

/**
 * Sends the results kept for the account logged in, oldest first; a
 * result the server refuses (a puzzle it no longer has) is dropped, one
 * it cannot be reached for waits. Resolves to the number sent.
 */
export function sendResults() {
  if (!sending) {
    sending = send().finally(() => {
      sending = null;
    });
  }
  return sending;
}

async function send() {
  await whenAccount();
  if (!loggedIn() || accountOffline()) return 0;
  const me = who();
  let sent = 0;
  for (const r of queue().filter((x) => x.account === me)) {
    try {
      await api('POST', `/api/puzzles/${encodeURIComponent(r.id)}/result`, { solved: r.solved });
      sent++;
    } catch (err) {
      if (err.status === 0) break; // still no network: the rest wait too
    }
    write('puzzles.queue', queue().filter((x) => !(x.id === r.id && x.account === me)));
  }
  return sent;
}

/** Whether the kept puzzles of a game should be asked for again: another account's, old, none yet, or nearly all tried. */
function stale(k, game) {
  if (k.account !== who() || Date.now() - k.at > FRESH_MS || !(game in k.games)) return true;
  const list = k.games[game];
  return list.some((p) => p.tried) && list.filter((p) => !p.tried).length < KEEP / 2;
}

/** The next puzzles of a game as the server would give them: its next, then the untried rated nearest it. */
async function nextPuzzles(game) {
  const waiting = new Set(queue().map((r) => r.id));
  const first = await api('GET', `/api/puzzles/next?game=${encodeURIComponent(game)}`);
  const { puzzles } = await api('GET', `/api/puzzles?game=${encodeURIComponent(game)}`);
  const near = puzzles.filter((p) => !p.tried && p.id !== first.id && !waiting.has(p.id))
    .sort((a, b) => Math.abs(a.rating - first.rating) - Math.abs(b.rating - first.rating))
    .slice(0, KEEP - 1);
  const out = waiting.has(first.id) ? [] : [first];
  for (const p of near) out.push(await api('GET', `/api/puzzles/${encodeURIComponent(p.id)}`));
  return out;
}

/**
 * Keeps puzzles of each of the meta's games for offline, asking again
 * for a game whose set is old, nearly used up, or another account's.
 */
export async function keepPuzzles(meta) {
  await whenAccount();
  if (accountOffline()) return;
  const k = kept();
  const games = (meta.games || []).map((g) => g.name).filter((g) => stale(k, g));
  if (!games.length) return;
  const next = { account: who(), at: Date.now(), games: k.account === who() ? { ...k.games } : {} };
  for (const g of games) {
    try {
      next.games[g] = await nextPuzzles(g);
    } catch (err) {
      if (err.status === 0) return; // the network went: keep what was kept
      next.games[g] = []; // a game without puzzles
    }
  }
  write('puzzles.kept', next);
}
