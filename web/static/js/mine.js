// The games this browser holds a seat in, remembered in localStorage so the
// home page can lead back to them (the seat cookies themselves are HttpOnly).

const KEY = 'mygames';
const MAX = 20;

/** The remembered game ids, newest first. */
export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
  } catch (e) {
    return [];
  }
}

/** Remembers a game id (moves it to the front). */
export function rememberGame(id) {
  const list = [id, ...myGames().filter((x) => x !== id)].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch (e) {
    // Private browsing may refuse storage; the game still works.
  }
}

/** Forgets a game id. */
export function forgetGame(id) {
  try {
    localStorage.setItem(KEY, JSON.stringify(myGames().filter((x) => x !== id)));
  } catch (e) {
    // ignore
  }
}
