// The game page's choices that a player makes once and keeps: chat on or
// off, the players whose chat lines are hidden, whether a move waits for a
// confirming click, screen-reader mode, and the analysis board's opening
// explorer (open or closed, its filters). All kept in this browser's localStorage; private
// browsing may refuse it, and then a choice lasts for the page.

const memory = new Map();

function get(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    return memory.has(key) ? memory.get(key) : null;
  }
}

function put(key, value) {
  memory.set(key, value);
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    // kept in memory only
  }
}

/** Whether the chat is shown (the default). */
export function chatOn() {
  return get('chat') !== 'off';
}

export function setChatOn(on) {
  put('chat', on ? 'on' : 'off');
}

/** The names whose chat lines this browser hides, in lower case. */
export function mutedNames() {
  try {
    const list = JSON.parse(get('chatMuted') || '[]');
    return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
  } catch (e) {
    return [];
  }
}

export function isMuted(name) {
  return !!name && mutedNames().includes(String(name).toLowerCase());
}

/** Hides (or shows again) a player's chat lines in this browser. */
export function setMuted(name, muted) {
  if (!name) return;
  const n = String(name).toLowerCase();
  const list = mutedNames().filter((x) => x !== n);
  if (muted) list.push(n);
  put('chatMuted', JSON.stringify(list.slice(-200)));
}

/** Whether a move on the board waits for a click on Confirm (off by default). */
export function confirmMoves() {
  return get('confirmMove') === 'on';
}

export function setConfirmMoves(on) {
  put('confirmMove', on ? 'on' : 'off');
}

/** Whether screen-reader mode is on (off by default): the game page's command box that reads the board, the clocks and the last move (game-speech.js). */
export function screenReader() {
  return get('screenReader') === 'on';
}

export function setScreenReader(on) {
  put('screenReader', on ? 'on' : 'off');
}

/**
 * Where the computer thinks: 'browser' (the default, the engine in this
 * page, js/engine.js) or 'server' (the play server's, for a browser whose
 * engine is slow or cannot load).
 */
export function enginePlace() {
  return get('engine') === 'server' ? 'server' : 'browser';
}

export function setEnginePlace(where) {
  put('engine', where === 'server' ? 'server' : 'browser');
}

/** Whether the analysis board's opening explorer is open (closed by default). */
export function explorerOpen() {
  return get('explorer') === 'on';
}

export function setExplorerOpen(on) {
  put('explorer', on ? 'on' : 'off');
}

/** The opening explorer's filters as last chosen: {sources, rated, speed, minBand, maxBand, mine}. */
export function explorerFilters() {
  try {
    const f = JSON.parse(get('explorerFilters') || '{}');
    return f && typeof f === 'object' && !Array.isArray(f) ? f : {};
  } catch (e) {
    return {};
  }
}

export function setExplorerFilters(f) {
  put('explorerFilters', JSON.stringify(f));
}
