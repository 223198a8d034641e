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

/** Learning: the rules and lessons of each game, and the puzzles. */
function learnCard() {
  const links = h('p.form-buttons');
  getMeta().then((m) => {
    links.append(...m.games.map((g) => h('a.btn.small', { href: `/learn/${g.name}` }, g.title)),
      h('a.btn.small', { href: '/puzzles' }, t('nav.puzzles')));
  }).catch(() => {
    links.append(h('a.btn.small', { href: '/learn' }, t('nav.learn')));
  });
  return h('section.card.learn-home', { 'aria-labelledby': 'learn-home-title' },
    h('h2#learn-home-title', t('learn.homeTitle')), h('p', t('learn.homeText')), links);
}

export function homeView() {
  const formBox = h('section.card.create', { 'aria-labelledby': 'create-title' });
  const quickBox = h('section.card.quick', { 'aria-labelledby': 'quick-title' });
  const words = {}; // each game's learning module, for its rule options in words
  const form = new NewGameForm(formBox, words);
  const lobby = new Lobby(() => quick.update());
  const quick = new QuickPairing(quickBox, lobby);
  const mine = new MyGames(lobby);
  const node = h('div.home',
    h('div.home-side', formBox, learnCard(), dailyPuzzleCard()),
    h('div.lists', mine.node, quickBox, lobby.openBox, lobby.liveBox, tournamentCard()));
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

  /** Everything drawn again and read again (after a log-in or log-out too). */
  function renderAll() {
    form.render();
    quick.render();
    mine.refresh();
    lobby.poll();
  }

  return {
    node,
    async mounted() {
      try {
        [meta] = await Promise.all([getMeta(), whenAccount()]);
      } catch (err) {
        formBox.append(h('p.error', t('home.metaError', { error: err.message })));
        return;
      }
      await Promise.all(meta.games.map((g) => loadLearn(g.name).then((m) => { words[g.name] = m; }, () => {})));
      if (lobby.destroyed) return;
      form.meta = quick.meta = lobby.meta = meta;
      renderAll();
      document.addEventListener('visibilitychange', onVisibility);
      schedule();
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
