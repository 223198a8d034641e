// The home page: start a game against the computer or a person (rated when
// logged in; home-form.js), quick pairing by clock (home-quick.js), the
// open games (the lobby, kept live while the page is visible), the games
// of this browser and the games being played (home-lists.js), the links to
// each game's rules and lessons, the daily puzzle, and the current and
// upcoming tournaments (tournaments.js).

import { h } from './dom.js';
import { getMeta } from './api.js';
import { whenAccount } from './account.js';
import { t } from './i18n.js';
import { dailyPuzzleCard } from './puzzles.js';
import { loadLearn } from './learn.js';
import { NewGameForm } from './home-form.js';
import { QuickPairing } from './home-quick.js';
import { Lobby, MyGames } from './home-lists.js';
import { tournamentCard } from './tournaments.js';

/** How often the lobby is asked again while the page is visible. */
const POLL_MS = 2000;
/** Every how many polls the games of this browser are read again. */
const MINE_EVERY = 5;

/**
 * How long the page waits at most for its first reads before it shows
 * itself (a slow read then fills its card later).
 */
const REVEAL_MS = 2000;

/**
 * Learning: the rules and lessons of each game, and the puzzles. Returns
 * the card (node) and a promise settled once its links are in (ready).
 */
function learnCard() {
  const links = h('p.form-buttons');
  const ready = getMeta().then((m) => {
    links.append(...m.games.map((g) => h('a.btn.small', { href: `/learn/${g.name}` }, g.title)),
      h('a.btn.small', { href: '/puzzles' }, t('nav.puzzles')));
  }).catch(() => {
    links.append(h('a.btn.small', { href: '/learn' }, t('nav.learn')));
  });
  return {
    node: h('section.card.learn-home', { 'aria-labelledby': 'learn-home-title' },
      h('h2#learn-home-title', t('learn.homeTitle')), h('p', t('learn.homeText')), links),
    ready,
  };
}

export function homeView() {
  const formBox = h('section.card.create', { 'aria-labelledby': 'create-title' });
  const quickBox = h('section.card.quick', { 'aria-labelledby': 'quick-title' });
  const words = {}; // each game's learning module, for its rule options in words
  const form = new NewGameForm(formBox, words);
  const lobby = new Lobby(() => quick.update());
  const quick = new QuickPairing(quickBox, lobby);
  const mine = new MyGames(lobby);
  const cards = [learnCard(), dailyPuzzleCard(), tournamentCard()];
  // The page is drawn hidden (its space kept) and shown once its first
  // reads are in, so that nothing moves under the reader as the form, the
  // lists and the cards fill in (a layout shift of 0.5 to 0.9 before).
  const node = h('div.home.is-loading', { 'aria-busy': 'true' },
    h('div.home-side', formBox, cards[0].node, cards[1].node),
    h('div.lists', mine.node, quickBox, lobby.openBox, lobby.liveBox, cards[2].node));
  let meta = null;
  let timer = null;
  let polls = 0;

  function tick() {
    lobby.poll();
    if (++polls % MINE_EVERY === 0) mine.refresh();
  }

  /** Polls while the page is visible; a hidden tab asks nothing. */
  function schedule() {
    clearInterval(timer);
    timer = null;
    if (lobby.destroyed || document.visibilityState !== 'visible') return;
    timer = setInterval(tick, POLL_MS);
  }

  function onVisibility() {
    if (document.visibilityState === 'visible') tick();
    schedule();
  }

  /**
   * Everything drawn again and read again (after a log-in or log-out too);
   * settled once the lists are read.
   */
  function renderAll() {
    form.render();
    quick.render();
    return Promise.allSettled([mine.refresh(), lobby.poll()]);
  }

  /**
   * Shows the page: at once when given no reads, else once they are all
   * settled or REVEAL_MS is up, whichever comes first.
   */
  async function reveal(...reads) {
    if (reads.length) {
      await Promise.race([Promise.allSettled(reads), new Promise((resolve) => setTimeout(resolve, REVEAL_MS))]);
    }
    node.classList.remove('is-loading');
    node.removeAttribute('aria-busy');
  }

  return {
    node,
    async mounted() {
      try {
        [meta] = await Promise.all([getMeta(), whenAccount()]);
      } catch (err) {
        formBox.append(h('p.error', t('home.metaError', { error: err.message })));
        reveal();
        return;
      }
      await Promise.all(meta.games.map((g) => loadLearn(g.name).then((m) => { words[g.name] = m; }, () => {})));
      if (lobby.destroyed) return;
      form.meta = quick.meta = lobby.meta = meta;
      const lists = renderAll();
      document.addEventListener('visibilitychange', onVisibility);
      schedule();
      await reveal(lists, ...cards.map((c) => c.ready));
    },
    refresh() {
      if (!meta || lobby.destroyed) return;
      renderAll();
    },
    destroy() {
      lobby.destroyed = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
