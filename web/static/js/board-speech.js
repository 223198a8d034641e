// The board in words, for a screen reader: the board's accessible name
// (the game's title and "White to move"), each square's ("d4, white
// stone, last move"), the whole board read rank by rank, through the game's
// module (squareWords, turnWords: docs/adding-a-game.md); and a polite
// status line of the board's own, for what the keyboard did.

import { t } from './i18n.js';
import { gameTitle } from './games.js';

/** What is on square i in words ("white stone"), or '' for an empty square. */
export function pieceWords(board, i) {
  if (!board.parsed || !board.occupied(i)) return '';
  const g = board.game;
  return (g.squareWords && g.squareWords(board.parsed, i)) || t('sr.occupied');
}

/** Square i's name in words: its name, what is on it, and what the board marks on it. */
export function squareLabel(board, i, marks) {
  const s = board.squares[i];
  const words = [t('sr.square', { sq: board.grid.sqName(i), what: pieceWords(board, i) || t('sr.empty') })];
  if (marks) {
    if (s.classList.contains('selected')) words.push(t('sr.pickedMark'));
    if (s.classList.contains('dest')) words.push(t('sr.target'));
    if (s.classList.contains('last')) words.push(t('sr.lastMark'));
  }
  return words.join(', ');
}

/** The board's accessible name: the game and whose move it is. */
export function boardLabel(board) {
  const g = board.game;
  const turn = board.parsed && g.turnWords ? g.turnWords(board.parsed) : '';
  const game = gameTitle(g);
  return turn ? t('sr.board', { game, turn }) : t('sr.boardOf', { game });
}

/** Names the board and every square in words (after each decorate). */
export function labelBoard(board) {
  board.root.setAttribute('aria-label', boardLabel(board));
  for (let i = 0; i < board.grid.squares; i++) board.squares[i].setAttribute('aria-label', squareLabel(board, i, true));
}

/** The whole board in words, rank by rank from the top of the screen: only the squares with pieces. */
export function readBoard(board) {
  const { files, ranks } = board.grid;
  const out = [];
  for (let row = 0; row < ranks; row++) {
    const rank = board.grid.sqName(board.squareOfCell(row, 0)).slice(1);
    const taken = [];
    for (let col = 0; col < files; col++) {
      const i = board.squareOfCell(row, col);
      if (board.occupied(i)) taken.push(squareLabel(board, i, false));
    }
    out.push(taken.length ? t('sr.rank', { rank, squares: taken.join('; ') }) : t('sr.rankEmpty', { rank }));
  }
  return out.join('. ');
}

/** Says text in the board's status line (again, if it is said twice running). */
export function say(board, text) {
  const el = board.sayEl;
  el.textContent = el.textContent === text ? text + '\u00a0' : text;
}
