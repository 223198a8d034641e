// The home page's quick pairing: a button per game and clock that joins the
// oldest player waiting for that game and clock in the lobby, or seeks one
// (rated when logged in); each button says how many are waiting.

import { h, toast } from './dom.js';
import { api } from './api.js';
import { myGames } from './mine.js';
import { loggedIn } from './account.js';
import { t } from './i18n.js';
import { goToNew } from './home-form.js';
import { isOwn } from './home-lists.js';

/** The quick pairing's clocks, with their kind. */
const QUICK = [['3+2', 'blitz'], ['5+3', 'blitz'], ['10+5', 'rapid'], ['15+10', 'rapid']];

/** The rules a quick game is made with: standard, or the game's first variant. */
function quickRules(g) {
  const vs = g.variants || [];
  return vs.some((v) => v.name === 'standard') || !vs.length ? 'standard' : vs[0].name;
}

/** The quick pairing, drawn in node; lobby is the home page's lists (lobby.open, the open games; lobby.poll()). */
export class QuickPairing {
  constructor(node, lobby) {
    this.node = node;
    this.lobby = lobby;
    this.meta = null;
    this.pairing = false;
  }

  render() {
    this.node.textContent = '';
    this.node.append(
      h('h2#quick-title', t('home.quick')),
      h('p.note', loggedIn() ? t('home.quickRated') : t('home.quickCasual')),
      ...this.meta.games.map((g) => h('div.quick-row', { role: 'group', 'aria-labelledby': 'quick-' + g.name },
        h('span.quick-game', { id: 'quick-' + g.name }, g.title),
        h('div.quick-clocks', QUICK.map(([c, kind]) => h('button.btn.quick-btn', {
          type: 'button', 'data-game': g.name, 'data-clock': c, onclick: () => this.quick(g, c),
        }, h('span.quick-clock', c), h('small.quick-kind', { 'data-kind': kind }, t('home.' + kind))))))));
    this.update();
  }

  /** The open games a quick pairing of game and clock could join, oldest first. */
  candidates(game, clock) {
    const guest = !loggedIn();
    return this.lobby.open
      .filter((g) => g.game === game && g.clock === clock && !isOwn(g) && !(guest && g.rated))
      .sort((a, b) => (a.created || 0) - (b.created || 0));
  }

  /** Shows on each quick button how many are waiting for it. */
  update() {
    for (const btn of this.node.querySelectorAll('.quick-btn')) {
      const n = this.candidates(btn.dataset.game, btn.dataset.clock).length;
      const kind = btn.querySelector('.quick-kind');
      const text = n ? t('home.waitingN', { n }) : t('home.' + kind.dataset.kind);
      if (kind.textContent !== text) kind.textContent = text;
      btn.classList.toggle('waiting', n > 0);
      btn.disabled = this.pairing;
    }
  }

  async quick(g, clock) {
    if (this.pairing) return;
    this.pairing = true;
    this.update();
    try {
      await this.lobby.poll(); // the lobby as it is now
      // A seek of one's own with that clock: back to it rather than a second one.
      const own = this.lobby.open.find((x) => x.game === g.name && x.clock === clock && myGames().includes(x.id));
      if (own) {
        location.assign(`/g/${own.id}`);
        return;
      }
      if (await this.join(g, clock)) return;
      const body = { game: g.name, rules: quickRules(g), opponent: 'human', color: 'random', clock, public: true };
      if (loggedIn()) body.rated = true;
      // A seek, not an invitation: its page says an opponent is looked
      // for, with no link to send (the invitation is not kept).
      const res = await api('POST', '/api/games', body);
      goToNew({ ...res, invite: '' });
    } catch (err) {
      toast(err.message, 'error');
      this.pairing = false;
      this.update();
    }
  }

  /** Joins the oldest game waiting for game and clock that takes us; reports whether one did. */
  async join(g, clock) {
    for (const c of this.candidates(g.name, clock)) {
      try {
        await api('POST', `/api/games/${c.id}/join`, {});
        location.assign(`/g/${c.id}`);
        return true;
      } catch (err) {
        // Taken meanwhile, or not for us (a rating range): the next one.
        if (err.status !== 409 && err.status !== 403) throw err;
      }
    }
    return false;
  }
}
