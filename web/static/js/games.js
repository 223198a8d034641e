// The games' front ends: one module per game, js/games/<name>.js, named by
// the game's canonical name (meta.games[i].name), with its style sheet, if
// any, in css/games/<name>.css and its rules and lessons in
// js/games/<name>-learn.js. The rest of the front end knows no game: it asks
// the module of the game the server names. What a module exports, and what
// it is given (the board's Grid, from the meta), is documented once, in
// docs/adding-a-game.md, "The front end"; web/web_test.go checks every
// game's module against INTERFACE and OPTIONAL below.

import { getMeta } from './api.js';
import { gridOf } from './notation.js';
import { addTexts } from './i18n.js';

/** The names every game module exports (loadGame refuses a module without one). */
export const INTERFACE = [
  'name', 'stylesheet', 'parse', 'parseMove', 'draw', 'animate', 'sideInfo',
  'orientation', 'moveHint', 'tapMove', 'targets', 'choose', 'endingText',
];

/** The names a module may export for more of the front end (the editor's three go together, and the screen reader's three). */
export const OPTIONAL = ['endMarks', 'preview', 'describe', 'svgSquare', 'editTools', 'edit', 'format', 'texts', 'squareWords', 'turnWords', 'moveWords'];

/** The meta entry of a game, found by its name or one of its aliases; null if none. */
export function gameSpec(meta, name) {
  if (!meta || !name) return null;
  const games = meta.games || [];
  return games.find((g) => g.name === name) || games.find((g) => (g.aliases || []).includes(name)) || null;
}

/** Why a game cannot be shown: the server does not know it, or the front end has no module for it. */
export class GameUnavailable extends Error {}

const loaded = new Map();
const grids = new WeakMap(); // each loaded module's board
const titles = new WeakMap(); // and its game's title, as the meta gives it

/**
 * The board (a notation.js Grid) of the game of a module loadGame gave: the
 * size the meta gives, which the board and the module draw and number by.
 */
export function gridFor(mod) {
  const grid = mod && grids.get(mod);
  if (!grid) throw new Error(`no board is known for the module of ${(mod && mod.name) || '?'}: load it with loadGame`);
  return grid;
}

/** The title of the game of a module loadGame gave ("" for another module). */
export function gameTitle(mod) {
  return (mod && titles.get(mod)) || '';
}

/** Links a game's style sheet once; resolves when it has loaded (or failed). */
function linkStyles(name) {
  const href = new URL(`../css/games/${name}.css`, import.meta.url).href;
  let link = document.querySelector(`link[data-game-styles="${name}"]`);
  if (link && link.dataset.loaded) return Promise.resolve();
  if (!link) {
    link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.dataset.gameStyles = name;
    document.head.append(link);
  }
  return new Promise((resolve) => {
    link.addEventListener('load', () => {
      link.dataset.loaded = 'true';
      resolve();
    }, { once: true });
    link.addEventListener('error', () => {
      console.warn(`the style sheet of ${name} did not load: ${href}`);
      resolve();
    }, { once: true });
  });
}

async function load(spec) {
  let mod;
  try {
    mod = await import(`./games/${spec.name}.js`);
  } catch (err) {
    throw new GameUnavailable(`This site cannot show ${spec.title || spec.name} yet: its board (js/games/${spec.name}.js) is missing or does not load (${err.message}).`);
  }
  const missing = INTERFACE.filter((k) => !(k in mod));
  if (missing.length) throw new GameUnavailable(`The board of ${spec.title || spec.name} is incomplete: js/games/${spec.name}.js does not export ${missing.join(', ')}.`);
  if (mod.name !== spec.name) throw new GameUnavailable(`js/games/${spec.name}.js calls its game "${mod.name}", not "${spec.name}".`);
  try {
    grids.set(mod, gridOf(spec.board));
    titles.set(mod, spec.title || spec.name);
  } catch (err) {
    throw new GameUnavailable(`The server gives no board for ${spec.title || spec.name} (${err.message}).`);
  }
  if (mod.texts) addTexts(mod.texts);
  if (mod.stylesheet) await linkStyles(spec.name);
  return mod;
}

/**
 * The front-end module of a game named by its name or an alias, loaded
 * once (with its style sheet; gridFor gives its board). Rejects with a GameUnavailable that says why
 * when the server knows no such game or the game has no working module.
 */
export async function loadGame(name) {
  const meta = await getMeta();
  const spec = gameSpec(meta, name);
  if (!spec) throw new GameUnavailable(`The server knows no game "${name}".`);
  if (!loaded.has(spec.name)) {
    const p = load(spec);
    loaded.set(spec.name, p);
    p.catch(() => loaded.delete(spec.name));
  }
  return loaded.get(spec.name);
}
