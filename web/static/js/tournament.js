// One tournament's page, /tournaments/<id> (GET /api/tournaments/<id>,
// read again every few seconds while visible): its settings, the buttons
// to join, withdraw, pause or start it, the standings with their
// tie-breaks and each player's results, the games in progress to watch,
// the rounds' pairings, and a chat (the game page's panel, its lines read
// with the page).

import { h, formatDate, toast } from './dom.js';
import { api, getMeta } from './api.js';
import { t } from './i18n.js';
import { loggedIn, openLogin, whenAccount } from './account.js';
import { rulesLabel, clockLabel } from './words.js';
import { profileHref } from './players.js';
import { formatName } from './tournaments.js';
import { chatPanel } from './chat.js';

const POLL_MS = 2000;

/** A number as the standings show it: 1.5, 2. */
const num = (x) => String(Math.round(x * 100) / 100);

/** A player's results in short: "+Ann =Bob −Cid", a bye as "+bye". */
function resultsLine(p) {
  const sign = { win: '+', draw: '=', loss: '−', bye: '+', pending: '…' };
  return p.results.map((r) => `${sign[r.result] || ''}${r.opponent || t('tn.bye')}`).join(' ');
}

class TournamentPage {
  constructor(id) {
    this.id = id;
    this.meta = null;
    this.timer = null;
    this.destroyed = false;
    this.title = h('h1#tournament-title');
    this.settings = h('p.tournament-settings');
    this.me = h('p.tournament-me', { role: 'status' });
    this.buttons = h('p.form-buttons.tournament-buttons');
    this.standings = h('div.table-wrap.tournament-standings');
    this.playing = h('div.tournament-playing');
    this.pairings = h('div.tournament-pairings');
    this.chatLines = [];
    this.chat = chatPanel((msg) => {
      if (!loggedIn()) {
        openLogin();
        return false;
      }
      api('POST', `/api/tournaments/${encodeURIComponent(this.id)}/chat`, { text: msg.text })
        .then(() => this.loadChat(), (err) => toast(err.message, 'error'));
      return true;
    });
    // The panel's state: everyone writes to everyone, as a game's players do.
    this.chat.state({ status: 'playing', chat_room: 'players', seat: null, sides: [{}, {}], id: '' });
    this.node = h('div.tournament',
      h('section.card', { 'aria-labelledby': 'tournament-title' }, this.title, this.settings, this.me, this.buttons),
      h('section.card', { 'aria-labelledby': 'tn-standings-title' }, h('h2#tn-standings-title', t('tn.standings')), this.standings),
      h('section.card', { 'aria-labelledby': 'tn-playing-title' }, h('h2#tn-playing-title', t('tn.playing')), this.playing),
      h('section.card', { 'aria-labelledby': 'tn-pairings-title' }, h('h2#tn-pairings-title', t('tn.pairings')), this.pairings),
      h('div.card.tournament-chat', this.chat.node));
  }

  /** The chat's new lines, shown as one room's. */
  async loadChat() {
    let res;
    try {
      res = await api('GET', `/api/tournaments/${encodeURIComponent(this.id)}/chat?from=${this.chatLines.length}`);
    } catch (err) {
      return;
    }
    if (this.destroyed) return;
    for (const l of res.lines) {
      if (l.seq !== this.chatLines.length) continue; // read twice at once
      const line = { ...l, room: 'players' };
      this.chatLines.push(line);
      this.chat.add(line);
    }
  }

  async mounted() {
    try {
      [this.meta] = await Promise.all([getMeta(), whenAccount()]);
    } catch (err) {
      this.node.prepend(h('p.error', err.message));
      return;
    }
    await this.load();
    this.timer = setInterval(() => {
      if (document.visibilityState === 'visible') this.load();
    }, POLL_MS);
  }

  async load() {
    let d;
    try {
      d = await api('GET', `/api/tournaments/${encodeURIComponent(this.id)}`);
    } catch (err) {
      if (!this.destroyed && !this.d) this.title.textContent = err.message;
      return;
    }
    if (this.destroyed) return;
    this.d = d;
    this.render(d);
    this.loadChat();
  }

  render(d) {
    document.title = d.name;
    this.title.textContent = d.name;
    const game = this.meta.games.find((g) => g.name === d.game);
    const status = d.status === 'created' ? t('tn.startsAt', { when: formatDate(d.starts) })
      : d.status === 'started' ? (d.ends ? t('tn.endsAt', { when: formatDate(d.ends) }) : t('tn.roundOf', { n: d.round, of: d.rounds }))
        : (d.winner ? t('tn.winner', { name: d.winner }) : t('tn.noWinner'));
    this.settings.textContent = [formatName(d.format), (game && game.title) || d.game, rulesLabel(this.meta, d.game, d.rules),
      clockLabel(d.clock), d.rated ? t('home.rated') : t('home.casual'), d.bots ? t('tn.bots') : '', t('tn.playersCount', { n: d.players }),
      status, d.scheduled ? t('tn.bySite') : ''].filter(Boolean).join(' · ');
    this.me.textContent = d.me ? t(`tn.you.${d.me}`) : '';
    this.renderButtons(d);
    this.renderStandings(d);
    this.renderPlaying(d);
    this.renderPairings(d);
  }

  button(id, text, path, body) {
    return h(`button.btn#${id}`, {
      type: 'button',
      onclick: async () => {
        if (!loggedIn()) {
          openLogin();
          return;
        }
        try {
          await api('POST', `/api/tournaments/${encodeURIComponent(this.id)}/${path}`, body);
        } catch (err) {
          toast(err.message, 'error');
        }
        this.load();
      },
    }, text);
  }

  renderButtons(d) {
    const b = [];
    if (d.status !== 'finished') {
      if (d.me === '' || d.me === 'withdrawn') b.push(this.button('tn-join', t('tn.join'), 'join'));
      if (d.me === 'entered' || d.me === 'paused') b.push(this.button('tn-withdraw', t('tn.withdraw'), 'withdraw'));
      if (d.format === 'arena' && d.me === 'entered') b.push(this.button('tn-pause', t('tn.pause'), 'pause', { paused: true }));
      if (d.format === 'arena' && d.me === 'paused') b.push(this.button('tn-unpause', t('tn.unpause'), 'pause', { paused: false }));
      if (d.mine && d.status === 'created' && d.format !== 'arena') b.push(this.button('tn-start', t('tn.start'), 'start'));
    }
    this.buttons.textContent = '';
    this.buttons.append(...b);
  }

  renderStandings(d) {
    const swiss = d.format !== 'arena';
    const cols = [t('tn.rank'), t('tn.player'), t('tn.points'), t('tn.games'), t('tn.wdl')];
    if (swiss) cols.push(t('tn.buchholz'), t('tn.sb'));
    cols.push(t('tn.results'));
    this.standings.textContent = '';
    if (!d.standings.length) {
      this.standings.append(h('p.empty', t('tn.noPlayers')));
      return;
    }
    this.standings.append(h('table.games.ranking#tn-standings',
      h('thead', h('tr', cols.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', d.standings.map((p) => h('tr', { 'data-player': p.name, class: p.withdrawn ? 'withdrawn' : null },
        h('td.rank', String(p.rank)),
        h('td', h('a', { href: profileHref(p.name) }, p.name), p.fire ? h('span.tag.fire', { title: t('tn.fire') }, ' 🔥') : null,
          p.paused ? h('span.tag', ` ${t('tn.pausedTag')}`) : null, p.withdrawn ? h('span.tag', ` ${t('tn.withdrawnTag')}`) : null),
        h('td.num.points', num(p.points)),
        h('td.num', String(p.games)),
        h('td.num', `${p.wins}-${p.draws}-${p.losses}`),
        swiss ? h('td.num', num(p.buchholz)) : null,
        swiss ? h('td.num', num(p.sonneborn_berger)) : null,
        h('td.results', resultsLine(p)))))));
  }

  renderPlaying(d) {
    this.playing.textContent = '';
    if (!d.playing.length) {
      this.playing.append(h('p.empty', t('tn.nonePlaying')));
      return;
    }
    this.playing.append(h('ul.tournament-list', d.playing.map((p) => h('li',
      h('a', { href: `/g/${p.game}` }, `${p.first} – ${p.second}`), ' ', h('a.btn.small', { href: `/g/${p.game}` }, t('tn.watch'))))));
  }

  renderPairings(d) {
    this.pairings.textContent = '';
    if (!d.pairings.length) {
      this.pairings.append(h('p.empty', t('tn.noPairings')));
      return;
    }
    const byRound = new Map();
    for (const p of d.pairings) {
      if (!byRound.has(p.round)) byRound.set(p.round, []);
      byRound.get(p.round).push(p);
    }
    for (const [round, ps] of byRound) {
      if (d.format !== 'arena') this.pairings.append(h('h3', t('tn.roundN', { n: round })));
      this.pairings.append(h('ul.tournament-list', ps.map((p) => h('li',
        p.second ? h('a', { href: `/g/${p.game}` }, `${p.first} – ${p.second}`) : `${p.first}: ${t('tn.bye')}`,
        p.second ? ` ${p.result}` : null))));
    }
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.timer);
  }
}

export function tournamentView(id) {
  return new TournamentPage(id);
}
