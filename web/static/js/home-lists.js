// The home page's lists: the open games (the lobby: seeks to join, or
// one's own to cancel), the games being played (to watch), both read again
// every few seconds, and the games of this browser that are not over (its
// turn first).

import { h, toast, syncList } from './dom.js';
import { api, gameTitle } from './api.js';
import { shortResult, rulesLabel, clockLabel, rangeLabel, stateClock, playerName, moveCount } from './words.js';
import { myGames, forgetGame } from './mine.js';
import { gameSpec } from './games.js';
import { account, loggedIn, openLogin } from './account.js';
import { playerTag, playersLine } from './players.js';
import { t, tn, sideText } from './i18n.js';

/** A row's second line: parts joined by " · " (strings or nodes; empty ones left out). */
function metaLine(parts) {
  const out = [];
  for (const p of parts) {
    if (!p) continue;
    if (out.length) out.push(' · ');
    out.push(p);
  }
  return h('span.row-meta', out);
}

const ratedTag = (rated) => (rated ? h('span.tag.rated', t('home.rated')) : h('span.tag', t('home.casual')));

/** The seat a waiting game's joiner gets: the summary's free, else the empty one. */
export function freeSeat(g) {
  if (g.free === 0 || g.free === 1) return g.free;
  const i = (g.players || []).indexOf('');
  return i >= 0 ? i : 1;
}

/** Whether an open game is this browser's own: one it holds a seat of, or one its account made. */
export function isOwn(g) {
  if (myGames().includes(g.id)) return true;
  const a = account();
  const creator = (g.players || [])[1 - freeSeat(g)];
  return !!(a && !a.guest && creator && creator.toLowerCase() === a.name.toLowerCase());
}

/** The open games and the games being played; onRead() is called when a poll has read them. */
export class Lobby {
  constructor(onRead) {
    this.onRead = onRead;
    this.meta = null;
    this.open = []; // the open games, as last read
    this.polling = false;
    this.destroyed = false;
    this.openList = h('ul.game-list', { id: 'open-list' });
    this.openEmpty = h('p.empty', t('home.loading'));
    this.openBox = h('section.card.list', { 'aria-labelledby': 'open-title' }, h('h2#open-title', t('home.open')), this.openList, this.openEmpty);
    this.liveList = h('ul.game-list', { id: 'live-list' });
    this.liveEmpty = h('p.empty', t('home.loading'));
    this.liveBox = h('section.card.list', { 'aria-labelledby': 'live-title' }, h('h2#live-title', t('home.live')), this.liveList, this.liveEmpty);
  }

  seekRow(g) {
    const meta = this.meta;
    const free = freeSeat(g);
    const creator = 1 - free;
    const gs = gameSpec(meta, g.game);
    const side = gs && gs.sides[free] ? sideText(gs.sides[free].name) : t(free === 0 ? 'w.first' : 'w.second');
    const who = (g.players || [])[creator];
    const range = rangeLabel(g.min_rating || 0, g.max_rating || 0);
    const title = gameTitle(g.game, g.title);
    return h('li.game-row.seek',
      h('a.row-link', { href: `/g/${g.id}` },
        h('span.row-title', title),
        h('span.row-players', playerTag(who, (g.ratings || [])[creator], false, undefined, (g.bots || [])[creator])),
        metaLine([
          clockLabel(g.clock),
          ratedTag(g.rated),
          range ? t('home.ratingRange', { range }) : '',
          t('home.youPlaySide', { side }),
          rulesLabel(meta, g.game, g.rules),
        ])),
      isOwn(g)
        ? h('span.row-actions',
          h('a.btn.small.ghost', { href: `/g/${g.id}`, 'aria-label': t('home.yoursLabel', { game: title }) }, t('home.yours')),
          h('button.btn.small.ghost.cancel-seek', { type: 'button', 'aria-label': t('home.cancelLabel', { game: title }), onclick: () => this.cancelSeek(g) }, t('home.cancel')))
        : h('button.btn.small', { type: 'button', 'aria-label': t('home.joinLabel', { name: playerName(who), game: title }), onclick: () => this.join(g) }, t('home.join')));
  }

  liveRow(g) {
    return h('li.game-row',
      h('a.row-link', { href: `/g/${g.id}` },
        h('span.row-title', gameTitle(g.game, g.title)),
        h('span.row-players', playersLine(g.players, g.ratings, false, undefined, g.bots)),
        metaLine([clockLabel(g.clock), ratedTag(g.rated), rulesLabel(this.meta, g.game, g.rules), g.moves ? tn('home.moves', g.moves) : '',
          g.spectators ? t('home.watching', { n: g.spectators }) : '', shortResult(g.result)])),
      h('a.btn.small.ghost', { href: `/g/${g.id}`, 'aria-label': t('home.watchLabel', { players: (g.players || []).map(playerName).join(` ${t('home.vs')} `) }) }, t('home.watch')));
  }

  async cancelSeek(g) {
    try {
      await api('POST', `/api/games/${g.id}/cancel`, {});
      forgetGame(g.id);
    } catch (err) {
      toast(err.message, 'error');
    }
    this.poll();
  }

  async join(g) {
    try {
      await api('POST', `/api/games/${g.id}/join`, {});
      location.assign(`/g/${g.id}`);
    } catch (err) {
      toast(err.message, 'error');
      if (err.status === 403 && g.rated && !loggedIn()) openLogin('login');
      this.poll();
    }
  }

  renderOpen() {
    const a = account();
    syncList(this.openList, this.open, (g) => g.id, (g) => JSON.stringify([g, isOwn(g), a && a.name]), (g) => this.seekRow(g));
    this.openEmpty.hidden = this.open.length > 0;
    this.openEmpty.classList.remove('error');
    this.openEmpty.textContent = t('home.noOpen');
  }

  renderLive(live) {
    syncList(this.liveList, live, (g) => g.id, (g) => JSON.stringify(g), (g) => this.liveRow(g));
    this.liveEmpty.hidden = live.length > 0;
    this.liveEmpty.textContent = t('home.noLive');
  }

  /** Reads the open and live games and brings the lists up to date (one read at a time). */
  async poll() {
    if (this.polling) return this.polling;
    this.polling = this.read();
    try {
      await this.polling;
    } finally {
      this.polling = false;
    }
  }

  async read() {
    try {
      const [o, l] = await Promise.all([api('GET', '/api/games?status=open'), api('GET', '/api/games?status=live')]);
      if (this.destroyed) return;
      this.open = (o && o.games) || [];
      this.renderOpen();
      this.renderLive((l && l.games) || []);
      this.onRead();
    } catch (err) {
      if (this.destroyed) return;
      this.openEmpty.hidden = false;
      this.openEmpty.classList.add('error');
      this.openEmpty.textContent = err.message;
    }
  }
}

/** A deadline's distance in words: "2 days", "5 hours", "12 min". */
function timeLeft(ms) {
  if (ms <= 0) return '';
  const hours = ms / 3600000;
  if (hours >= 48) return t('home.nDays', { n: Math.floor(hours / 24) });
  if (hours >= 2) return t('home.nHours', { n: Math.floor(hours) });
  return t('home.nMin', { n: Math.max(1, Math.floor(ms / 60000)) });
}

/** The games this browser remembers, read one by one with the seat cookies, as my-games summaries. */
async function mineFromStates() {
  const ids = myGames();
  const states = await Promise.all(ids.map((id) => api('GET', `/api/games/${id}`).catch((err) => {
    if (err.status === 404) forgetGame(id);
    return null;
  })));
  return states.filter((st) => st && st.seat != null).map((st) => ({
    id: st.id, game: st.game, title: st.title, rules: st.rules, status: st.status, rated: st.rated,
    players: st.sides.map((x) => x.user || x.player || ''), ratings: st.sides.map((x) => x.rating || ''),
    clock: stateClock(st.clock),
    moves: st.moves.length, seat: st.seat, your_turn: st.status === 'playing' && st.turn === st.seat, deadline: null,
  }));
}

/**
 * The games this browser's account or guest plays in and that are not
 * over (GET /api/my-games), the ones where it is their turn first, each a
 * link to the game; a correspondence game says how long is left. lobby is
 * the page's lobby, whose own seeks these tell.
 */
export class MyGames {
  constructor(lobby) {
    this.lobby = lobby;
    this.list = h('ul.game-list', { id: 'mine-list' });
    this.node = h('section.card.list', { 'aria-labelledby': 'mine-title', hidden: true }, h('h2#mine-title', t('home.mine')), this.list);
  }

  async refresh() {
    const lobby = this.lobby;
    let games;
    try {
      const res = await api('GET', '/api/my-games');
      games = (res && res.games) || [];
    } catch (err) {
      if (lobby.destroyed) return;
      if (err.status !== 404) return; // kept as it was until the next poll
      games = await mineFromStates(); // a server from before /api/my-games
    }
    if (lobby.destroyed) return;
    // The server puts them in that order already; a stable sort keeps it.
    const mine = games.filter((g) => g.status !== 'finished' && g.status !== 'aborted')
      .map((g, i) => [g, i]).sort((a, b) => (b[0].your_turn ? 1 : 0) - (a[0].your_turn ? 1 : 0) || a[1] - b[1]).map((x) => x[0]);
    this.node.hidden = mine.length === 0;
    syncList(this.list, mine, (g) => g.id, (g) => JSON.stringify([g.status, g.your_turn, g.moves, g.players, g.ratings, g.deadline, g.challenge]), (g) => this.row(g));
    if (!lobby.open.length) return;
    lobby.renderOpen(); // the own seeks now known
  }

  /** A challenge to the account: who, what, and its Accept and Decline buttons. */
  challengeRow(g) {
    const seat = g.seat === 1 ? 1 : 0;
    const from = (g.players || [])[1 - seat];
    const title = g.title || g.game;
    const answer = async (what) => {
      try {
        await api('POST', `/api/challenges/${g.id}/${what}`, {});
        if (what === 'accept') location.assign(`/g/${g.id}`);
        else this.refresh();
      } catch (err) {
        toast(err.message, 'error');
      }
    };
    return h('li.game-row.challenge-row', { 'data-id': g.id },
      h('div.row-link',
        h('span.row-title', t('ch.from', { game: title })),
        h('span.row-players', playerTag(from, (g.ratings || [])[1 - seat], true, undefined, (g.bots || [])[1 - seat])),
        metaLine([clockLabel(g.clock), ratedTag(g.rated), rulesLabel(this.lobby.meta, g.game, g.rules)])),
      h('span.row-actions',
        h('button.btn.small.primary.ch-accept', { type: 'button', onclick: () => answer('accept') }, t('ch.accept')),
        h('button.btn.small.ghost.ch-decline', { type: 'button', onclick: () => answer('decline') }, t('ch.decline'))));
  }

  row(g) {
    if (g.challenge) return this.challengeRow(g);
    const seat = g.seat === 1 ? 1 : 0;
    const other = (g.players || [])[1 - seat];
    const who = other ? playerTag(other, (g.ratings || [])[1 - seat], false, undefined, (g.bots || [])[1 - seat]) : t('status.waiting');
    const left = g.your_turn && g.deadline ? timeLeft(g.deadline - Date.now()) : '';
    const label = g.your_turn ? t('home.yourTurn') : g.status === 'waiting' ? t('home.waiting') : t('home.openBtn');
    const title = g.title || g.game;
    return h('li.game-row' + (g.your_turn ? '.your-turn' : ''), { 'data-your-turn': g.your_turn ? 'true' : 'false' },
      h('a.row-link', { href: `/g/${g.id}` },
        h('span.row-title', title),
        // "vs" only before a name: a seat still free says so alone.
        h('span.row-players', other ? [t('home.vs'), ' ', who] : who),
        metaLine([clockLabel(g.clock), ratedTag(g.rated), rulesLabel(this.lobby.meta, g.game, g.rules), tn('home.moves', moveCount(g.moves)), left ? t('home.leftToMove', { left }) : ''])),
      h('a.btn.small' + (g.your_turn ? '.primary' : '.ghost'), { href: `/g/${g.id}`, 'aria-label': other ? t('home.mineLabelVs', { label, game: title, name: playerName(other) }) : t('home.mineLabel', { label, game: title }) }, label));
  }
}
