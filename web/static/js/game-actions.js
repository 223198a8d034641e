// The game page's actions: what a player can do besides moving, and the
// questions the opponent asks. Before the game: the invitation link (or,
// for a seek in the lobby, that one is looked for), Cancel, or Join.
// During it: claim a game the opponent left, answer a draw offer or a
// takeback, abort before one's first move, or ask for a takeback, offer a
// draw, resign (pressed twice). After it, or after an abort: a rematch
// (accepted or declined when offered), a new game. The questions stand in
// a box of their own (prompt), whose room the page keeps, so that they
// push nothing aside. And the links under them: the record's downloads and
// the analysis board.

import { h, toast } from './dom.js';
import { t, has } from './i18n.js';
import { api } from './api.js';
import { gameSpec } from './games.js';
import { countdownText } from './game-status.js';

/** What the player may claim of an opponent who left: null, or {at: when, ready: now}. */
export function claimInfo(page) {
  const s = page.state;
  if (!s || s.status !== 'playing' || s.seat == null) return null;
  const o = s.sides[1 - s.seat];
  if (o.claimable) return { at: 0, ready: true };
  if (!o.away_since || o.connected || !s.claim_after_ms || !page.live()) return null;
  const at = o.away_since + s.claim_after_ms;
  return { at, ready: page.serverNow() >= at };
}

/** The actions box of the game page page; page.send(msg) sends over the game's socket. */
export class Actions {
  constructor(page) {
    this.page = page;
    this.node = h('div.actions');
    this.prompt = h('div.prompts', { role: 'group', 'aria-label': t('gp.prompts') });
    this.confirmResign = false;
    this.claimReady = false; // the claim's countdown had run out when the actions were drawn
  }

  /** Draws the actions again when the claim's countdown has just run out. */
  tick() {
    const c = claimInfo(this.page);
    if (c && c.ready !== this.claimReady) this.render();
  }

  render() {
    const s = this.page.state;
    this.node.textContent = '';
    this.prompt.textContent = '';
    if (s.status === 'waiting') this.waiting(s);
    else if (s.status === 'playing' && s.seat != null) this.playing(s);
    else if (s.status === 'finished' || s.status === 'aborted') this.finished(s);
  }

  /** A question of the opponent's (or the claim), in the prompts' box: its text and buttons. */
  ask(cls, text, ...buttons) {
    this.prompt.append(h('div.offer' + cls, h('span', text), ...buttons));
  }

  /** A waiting game's Cancel: the seek or invitation taken back (the game is aborted). */
  cancelButton(s) {
    return h('button.btn#cancel-game', {
      type: 'button',
      onclick: async () => {
        try {
          await api('POST', `/api/games/${encodeURIComponent(s.id)}/cancel`, {});
        } catch (err) {
          toast(err.message, 'error');
        }
      },
    }, t('gp.cancelGame'));
  }

  /** A game waiting for its second player: the invitation to send, or Join. */
  waiting(s) {
    const seated = s.seat != null;
    const link = localStorage.getItem('invite_' + s.id);
    if (seated && s.public && !link) {
      // A seek in the lobby (quick pairing): nobody to send a link to; the
      // lobby brings the opponent.
      this.node.append(h('div.invite.seeking', h('p', t('gp.seeking')), this.cancelButton(s)));
    } else if (seated && link) {
      const url = new URL(link, location.origin).href;
      const input = h('input.invite-url', { type: 'text', readonly: true, value: url, 'aria-label': t('gm.inviteLink'), onfocus: (e) => e.target.select() });
      this.node.append(h('div.invite',
        h('p', t('gm.sendLink')),
        h('div.copy-row', input, h('button.btn.primary', {
          type: 'button',
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              toast(t('gm.copied'));
            } catch (e) {
              input.select();
            }
          },
        }, t('gm.copy'))), this.cancelButton(s)));
    } else if (seated) {
      this.node.append(h('p.note', t('gm.waitInvite')), this.cancelButton(s));
    } else {
      this.node.append(h('button.btn.primary.big', { type: 'button', id: 'join', onclick: () => this.page.joinOpen() }, t('gm.joinGame')));
    }
  }

  /** A player's game under way: the opponent's questions, then the player's buttons. */
  playing(s) {
    const other = 1 - s.seat;
    const send = (msg) => () => this.page.send(msg);
    const claim = claimInfo(this.page);
    this.claimReady = !!(claim && claim.ready);
    if (claim && claim.ready) {
      this.ask('.claim', t('gm.claimNow'),
        h('button.btn.primary#claim-win', { type: 'button', onclick: send({ type: 'claim', action: 'win' }) }, t('gm.claimWin')),
        h('button.btn#claim-draw', { type: 'button', onclick: send({ type: 'claim', action: 'draw' }) }, t('gm.claimDraw')));
    } else if (claim) {
      const text = t('gm.claimSoon');
      this.prompt.append(h('div.offer.claim.waiting', h('span', { 'data-deadline': String(claim.at), 'data-text': text }, countdownText(text, claim.at, this.page.serverNow()))));
    }
    if (s.draw_offer === other) {
      this.ask('.draw-offer', t('gm.drawOffered'),
        h('button.btn.primary#draw-accept', { type: 'button', onclick: send({ type: 'draw', action: 'accept' }) }, t('gm.acceptDraw')),
        h('button.btn#draw-decline', { type: 'button', onclick: send({ type: 'draw', action: 'decline' }) }, t('gm.decline')));
    }
    const tb = s.takeback;
    if (tb && tb.offered_by === other) {
      this.ask('.takeback-offer', t('gm.takebackAsked'),
        h('button.btn.primary#takeback-accept', { type: 'button', onclick: send({ type: 'takeback', action: 'accept' }) }, t('gm.acceptTakeback')),
        h('button.btn#takeback-decline', { type: 'button', onclick: send({ type: 'takeback', action: 'decline' }) }, t('gm.decline')));
    }
    if (s.abortable) {
      // Before one's first move there is nothing to resign: the game
      // can be called off, with no result and no rating change.
      this.node.append(h('button.btn.danger', { type: 'button', id: 'abort', onclick: send({ type: 'abort' }) }, '✕ ' + t('gm.abort')));
      return;
    }
    this.buttons(s);
  }

  /** Ask for a takeback, offer a draw, resign. */
  buttons(s) {
    const other = 1 - s.seat;
    const tb = s.takeback;
    if (s.takeback_allowed || (tb && tb.offered_by === s.seat)) {
      const asked = tb && tb.offered_by === s.seat;
      this.node.append(h('button.btn', {
        type: 'button', id: 'takeback', disabled: asked || (tb && tb.offered_by === other),
        title: t('gm.takebackTitle'),
        onclick: () => this.page.send({ type: 'takeback', action: 'offer' }),
      }, asked ? t('gm.takebackPending') : t('gm.takeback')));
    }
    const offered = s.draw_offer === s.seat;
    this.node.append(
      h('button.btn', { type: 'button', id: 'offer-draw', disabled: offered || s.draw_offer === other, onclick: () => this.page.send({ type: 'draw', action: 'offer' }) }, offered ? t('gm.drawPending') : t('gm.offerDraw')),
      h('button.btn.danger', { type: 'button', id: 'resign', onclick: () => this.resign() }, this.confirmResign ? t('gm.reallyResign') : t('gm.resign')));
  }

  /** The first press asks again (for four seconds); the second resigns. */
  resign() {
    if (!this.confirmResign) {
      this.confirmResign = true;
      this.render();
      setTimeout(() => {
        this.confirmResign = false;
        if (this.page.state) this.render();
      }, 4000);
      return;
    }
    this.confirmResign = false;
    this.page.send({ type: 'resign' });
  }

  /**
   * A game over, or aborted: the rematch (asked, offered, made), a new
   * game. An aborted game has its rematch only when it had two players.
   */
  finished(s) {
    const r = s.rematch;
    const paired = s.status === 'finished' || s.sides.every((sd) => sd.player);
    if (s.seat != null && paired) {
      const other = 1 - s.seat;
      if (r && r.game) {
        this.node.append(h('button.btn.primary#rematch-link', { type: 'button', onclick: () => this.page.joinRematch(r.game) }, t('gm.goRematch')));
      } else if (r && r.offered_by === other) {
        // As visible as a draw offer: a banner, not only a button's text.
        this.ask('.rematch-offer', t('gm.rematchAsked'),
          h('button.btn.primary', { type: 'button', id: 'rematch', onclick: () => this.page.send({ type: 'rematch', action: 'accept' }) }, t('gm.acceptRematch')),
          h('button.btn#rematch-decline', { type: 'button', onclick: () => this.page.send({ type: 'rematch', action: 'decline' }) }, t('gm.decline')));
      } else if (r && r.offered_by === s.seat) {
        this.node.append(h('button.btn', { type: 'button', disabled: true }, t('gm.rematchPending')));
      } else {
        this.node.append(h('button.btn.primary', { type: 'button', id: 'rematch', onclick: () => this.page.send({ type: 'rematch', action: 'offer' }) }, t('gm.rematch')));
      }
    } else if (r && r.game) {
      this.node.append(h('a.btn#rematch-link', { href: `/g/${r.game}` }, t('gm.watchRematch')));
    }
    this.node.append(h('a.btn#new-game', { href: '/' }, t('home.newGame')));
  }
}

/** The links under the actions: the record in each of the game's formats, and the analysis board and the opening explorer of a game that is over. */
export class Links {
  constructor(page) {
    this.page = page;
    this.node = h('div.extra');
  }

  render() {
    const s = this.page.state;
    // Rebuilt only when what it shows changes: a link replaced under the
    // pointer between press and release loses the click.
    const key = [s.id, s.game, s.rules, s.status, s.seat, s.moves.length > 0].join('|');
    if (this.node.dataset.key === key) return;
    this.node.dataset.key = key;
    this.node.textContent = '';
    const links = [];
    if (s.moves.length > 0 || s.status === 'finished') {
      const spec = gameSpec(this.page.meta, s.game);
      for (const f of (spec && spec.formats) || []) {
        const q = new URLSearchParams({ format: f.name });
        links.push(h('a.link', { href: `/api/games/${encodeURIComponent(s.id)}/record?${q}`, download: `${s.id}.${f.name}`, title: has('fmt.' + f.name) ? t('fmt.' + f.name) : f.title || null, 'data-format': f.name }, t('gm.download', { format: f.name.toUpperCase() })));
      }
    }
    // Never for a game still being played: the engine would advise a player.
    const analyse = h('a.link#analyse-link', {
      href: `/analysis?id=${encodeURIComponent(s.id)}`,
      onclick: (e) => {
        e.preventDefault();
        location.assign(`/analysis?id=${encodeURIComponent(s.id)}&ply=${this.page.ply}`);
      },
    }, t('gm.analysis'));
    if (s.status === 'finished') links.push(analyse);
    // The opening explorer: the analysis board with its explorer open, at
    // the position shown.
    const explore = h('a.link#explore-link', {
      href: `/analysis?id=${encodeURIComponent(s.id)}&explorer=1`,
      onclick: (e) => {
        e.preventDefault();
        location.assign(`/analysis?id=${encodeURIComponent(s.id)}&ply=${this.page.ply}&explorer=1`);
      },
    }, t('ex.title'));
    if (s.status === 'finished') links.push(explore);
    this.node.append(h('div.links', links));
  }
}
