// The games' front ends: one module per game, js/games/<name>.js, named by
// the game's canonical name as GET /api/meta gives it (meta.games[i].name),
// with its style sheet, if any, in css/games/<name>.css. The board
// (board.js) and the game page (game.js) know no game: they ask the module
// of the game the server names. Adding a game's front end is adding those
// files; nothing else changes.
//
// Every game module exports these names (INTERFACE below; web_test.go
// checks each module against it, and loadGame refuses a module without
// one of them). Squares are indexes 0..63, file-major as notation.js and
// the Go side number them (a1 = 0, a2 = 1, b1 = 8); moves are the server's
// move texts.
//
//   name          the game's canonical name, the module's file name
//   stylesheet    true when css/games/<name>.css exists; the loader links it
//                 (a <link> in the page's head) before the module is used.
//                 Its rules should be scoped to .game-<name>, the class of
//                 the board, the drag ghost and the game page of the game
//   parse(text)   reads a position text into a position object: board, an
//                 array of the 64 squares (falsy for an empty square), and
//                 whatever else the module needs
//   parseMove(m)  the squares a move touches, {from, to} (from -1 when it
//                 has none, as a drop), or null: the board marks them as the
//                 last move, the analysis view as the engine's best move
//   draw(view, pos)
//                 draws a parsed position's pieces and badges (the King's
//                 crown, a stack's height) into the board through view (the
//                 board's drawing helpers, below); returns the pieces of
//                 each square, an array of 64 arrays of nodes, which a drag
//                 picks up
//   animate(view, before, after, move, pieces)
//                 animates a move from the parsed position before to the one
//                 just drawn (after, with its pieces as draw returned them);
//                 returns a promise that settles when the animation is over
//   sideInfo(pos, side, sides)
//                 what the player bar shows for side 0 or 1 (sides is the
//                 state's sides, with their letters) in a parsed position:
//                 {badge: {cls, text}, text, title}, such as the stones in
//                 hand or the King's height and squares
//   orientation(start, side, sides)
//                 how to turn the board so that side's pieces start at the
//                 bottom, given the parsed start position: 0 puts rank 1 at
//                 the bottom, 1 rank 8 (and file h on the left)
//   moveHint      the move box's placeholder: "d4 or d4-a1"
//   tapMove(legal, sq, pos)
//                 the move a click on square sq plays at once when no piece
//                 is selected (Magneton's drop on an empty square), or ''
//   targets(legal, from, pos)
//                 the moves of a piece on square from: a Map from each target
//                 square to the legal moves that go there; a click or drag
//                 from a square with targets selects or carries it
//   choose(moves, how)
//                 settles a click-click or drag whose two squares fit several
//                 moves (how: {from, to, pos, shift}, shift when the Shift
//                 key was down): returns a move text to play, or a question,
//                 {label, options: [{move, text, title, cls}]}, that the
//                 board asks in a small popup (Tumbling Down: step or tumble)
//   endingText(end)
//                 the result in the game's own words, or '' for the generic
//                 sentence ("X wins by <meta's text of the ending>"): end is
//                 {result, reason, text, winner, loser}: text is the meta's
//                 text of the ending, winner and loser are the two sides as
//                 words.js names them ({name, you, wins, has, their}), or
//                 null for a draw
//
// The view a module draws through (board.js):
//
//   view.piece(cls, sq, lift)   a new piece element of class cls (plus
//                               "piece", which sizes it to a square) on
//                               square sq, raised by lift square heights
//   view.place(node, sq, lift)  moves a piece element to square sq
//   view.offset(a, la, b, lb)   a CSS transform that shows a piece on square
//                               b (raised lb) at square a (raised la)
//
// A module may import from ../notation.js and export more names of its
// own (the tests use Magneton's slides and Tumbling Down's flights).

import { getMeta } from './api.js';

export const INTERFACE = [
  'name', 'stylesheet', 'parse', 'parseMove', 'draw', 'animate', 'sideInfo',
  'orientation', 'moveHint', 'tapMove', 'targets', 'choose', 'endingText',
];

/** The meta entry of a game, found by its name or one of its aliases; null if none. */
export function gameSpec(meta, name) {
  if (!meta || !name) return null;
  const games = meta.games || [];
  return games.find((g) => g.name === name) || games.find((g) => (g.aliases || []).includes(name)) || null;
}

/** Why a game cannot be shown: the server does not know it, or the front end has no module for it. */
export class GameUnavailable extends Error {}

const loaded = new Map();

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
  if (mod.stylesheet) await linkStyles(spec.name);
  return mod;
}

/**
 * The front-end module of a game named by its name or an alias, loaded
 * once (with its style sheet). Rejects with a GameUnavailable that says why
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
