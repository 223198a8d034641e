// The game page for a screen reader, after lichess's blind mode: a polite
// log that says every move in words (the game's module's moveWords: the
// opponent's and one's own) and the end of the game; commands, typed in
// the move box or, in screen-reader mode (prefs.js), in a command box of
// their own, that read the board, a square or stack, the clocks, the last
// move and whose turn it is (docs/accessibility.md lists them); and the
// clocks in words, for their labels.

import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { gameSpec } from './games.js';
import { resultText, abortText } from './words.js';
import { readBoard, squareLabel, boardLabel } from './board-speech.js';
import { screenReader } from './prefs.js';

/** The log keeps this many lines: the newest are said, the older are there to read again. */
const KEEP = 8;

/** A time on a clock in words: "4 minutes 32 seconds", "2 days 3 hours". */
export function clockWords(ms) {
  const s = Math.max(0, Math.floor((ms || 0) / 1000));
  const [d, hr, m, sec] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  const parts = d ? [['sr.days', d], ['sr.hours', hr]] : hr ? [['sr.hours', hr], ['sr.minutes', m]] : [['sr.minutes', m], ['sr.seconds', sec]];
  // "15 minutes", not "15 minutes 0 seconds"; but "0 seconds" at the end.
  const said = parts.filter(([, n]) => n);
  return (said.length ? said : parts.slice(-1)).map(([key, n]) => tn(key, n)).join(' ');
}

/** A clock's label: whose it is and its time in words. */
export function clockLabel(side, ms) {
  return t('sr.clock', { side, time: clockWords(ms) });
}

/** What the game page page says: page.state, page.game, page.board, page.players. */
export class Speech {
  constructor(page) {
    this.page = page;
    this.log = h('div.sr-log.visually-hidden', { role: 'log', 'aria-live': 'polite' });
    this.input = h('input#sr-command', { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: t('sr.commandHint') });
    this.answer = h('p.sr-answer');
    this.form = h('form.sr-commands', {
      onsubmit: (e) => {
        e.preventDefault();
        this.command(this.input.value);
        this.input.value = '';
      },
    }, h('label', { for: 'sr-command' }, t('sr.command')), this.input, this.answer, h('p.sr-help.muted', t('sr.help')));
    this.node = h('div.sr', this.log, this.form);
    this.show(screenReader());
  }

  /** Screen-reader mode on or off: the command box and its help line. */
  show(on) {
    this.form.hidden = !on;
  }

  /** Says a line in the log. */
  say(text) {
    if (!text) return;
    this.log.append(h('p', text));
    while (this.log.childElementCount > KEEP) this.log.firstElementChild.remove();
  }

  /** The move that led to ply in words. */
  moveSentence(ply) {
    const { state: s, game, grid } = this.page;
    const move = s.moves[ply - 1];
    const said = game.moveWords
      ? game.moveWords(game.parse(this.page.positionAt(ply - 1), grid), move, game.parse(this.page.positionAt(ply), grid))
      : '';
    return said || t('sr.played', { move });
  }

  /** What a new state s says since prev (null for the first): the game begun, the move made or moves taken back, the end. */
  state(prev, s, grew) {
    if (prev && prev.status === 'waiting' && s.status === 'playing') this.say(t('gm.begun'));
    if (grew) this.say(this.moveSentence(s.moves.length));
    if (prev && s.moves.length < prev.moves.length) this.say(tn('sr.takenBack', prev.moves.length - s.moves.length));
    if (prev && prev.status === 'playing' && (s.status === 'finished' || s.status === 'aborted')) {
      this.say(s.status === 'aborted' ? abortText(s) : resultText(s, gameSpec(this.page.meta, s.game), this.page.game));
    }
  }

  /** The clocks in words. */
  clocks() {
    const { state: s, players } = this.page;
    if (!s.clock) return t('sr.noClock');
    return s.sides.map((side, i) => clockLabel(side.name, players.clockMs(i))).join('. ');
  }

  /** Reads out what a command asks; reports whether text was one (it starts with /). */
  command(text) {
    const [cmd, arg] = String(text || '').trim().toLowerCase().split(/\s+/);
    if (!cmd || !cmd.startsWith('/')) return false;
    const page = this.page;
    const board = page.board.board;
    const s = page.state;
    let said;
    if (cmd === '/board' || cmd === '/b') said = readBoard(board);
    else if (cmd === '/square' || cmd === '/stack' || cmd === '/s') {
      const sq = page.grid.sqIndex(arg || '');
      said = sq >= 0 ? squareLabel(board, sq, false) : t('sr.badSquare', { sq: arg || '' });
    } else if (cmd === '/clock' || cmd === '/c') said = this.clocks();
    else if (cmd === '/last' || cmd === '/l') said = page.ply > 0 ? t('sr.last', { move: this.moveSentence(page.ply) }) : t('sr.noLast');
    else if (cmd === '/turn' || cmd === '/t') said = s.status === 'finished' ? resultText(s, gameSpec(page.meta, s.game), page.game) : boardLabel(board);
    else if (cmd === '/help' || cmd === '/h') said = t('sr.help');
    else said = t('sr.unknown', { cmd, help: t('sr.help') });
    this.answer.textContent = said;
    this.say(said);
    return true;
  }
}
