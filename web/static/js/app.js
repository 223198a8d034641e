// The front end's entry point: the header (the site's menu and the account
// box), the router and the views. /g/<id> is a game, /@/<name> a player's
// profile, /reset#<token> sets a password with a link, /computer a game
// against the computer in the browser; the home page's other views are
// hash routes. Offline (offline.js) a page that needs the network is a
// notice instead, the home page the choices that work offline, and when
// the network is back the progress kept meanwhile is sent.

import { h } from './dom.js';
import { homeView } from './home.js';
import { gameView } from './game.js';
import { archiveView } from './archive.js';
import { analysisView } from './analysis.js';
import { profileView } from './profile.js';
import { leaderboardView } from './leaderboard.js';
import { initAccount, onAccountChange, reloadAccount } from './account.js';
import { learnIndexView, learnGameView } from './learn.js';
import { puzzlesView } from './puzzles.js';
import { modView } from './mod.js';
import { resetView } from './reset.js';
import { tournamentsView } from './tournaments.js';
import { tournamentView } from './tournament.js';
import { getMeta } from './api.js';
import { t, andList, LANGS, getLang, setLang, onLangChange } from './i18n.js';
import { navMenu } from './nav-menu.js';
import { computerView } from './computer.js';
import { registerWorker, watchNetwork, isOffline, onOnline, onOffline, offlineView, rewordBanner } from './offline.js';
import { sendProgress } from './learn-progress.js';
import { sendResults, keepPuzzles } from './puzzles-kept.js';

const main = document.getElementById('app');
let current = null;
let currentKind = ''; // offlineKind of the page shown

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch (e) {
    return s;
  }
}

/** What a path is offline: '' for a page that works offline, 'home' for the home page, 'page' for one that needs the network. */
function offlineKind(path, hash) {
  if (/^\/(learn|puzzles|analysis|computer)(\/|$)/.test(path)) return '';
  if (path !== '/' && path !== '') return 'page';
  const name = hash.replace(/^#\/?/, '').split('?')[0];
  if (name === 'analysis') return '';
  return name === 'archive' || name === 'leaderboard' ? 'page' : 'home';
}

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  main.textContent = '';
  if (site.games) document.title = siteTitle(); // a view may name itself (a game, a player)
  const path = location.pathname;
  const kind = offlineKind(path, location.hash);
  currentKind = kind;
  if (kind && isOffline()) {
    show(offlineView(kind === 'home', getMeta), '');
    return;
  }
  const m = /^\/g\/([^/]+)\/?$/.exec(path);
  const who = /^\/@\/([^/]+)\/?$/.exec(path);
  const learn = /^\/learn(?:\/([^/]+))?\/?$/.exec(path);
  const tourney = /^\/tournaments(?:\/([^/]+))?\/?$/.exec(path);
  let view;
  let nav = 'play';
  if (learn) {
    view = learn[1] ? learnGameView(decode(learn[1])) : learnIndexView();
    nav = 'learn';
  } else if (tourney) {
    view = tourney[1] ? tournamentView(decode(tourney[1])) : tournamentsView();
    nav = 'tournaments';
  } else if (/^\/mod\/?$/.test(path)) {
    view = modView();
    nav = '';
  } else if (/^\/reset\/?$/.test(path)) {
    view = resetView();
    nav = '';
  } else if (/^\/computer\/?$/.test(path)) {
    view = computerView(new URLSearchParams(location.search));
    nav = '';
  } else if (/^\/puzzles\/?$/.test(path)) {
    view = puzzlesView(new URLSearchParams(location.search));
    nav = 'puzzles';
  } else if (/^\/analysis(\/.*)?$/.test(path)) {
    view = analysisView(new URLSearchParams(location.search));
    nav = 'analysis';
  } else if (m) {
    view = gameView(decode(m[1]));
    nav = '';
  } else if (who) {
    view = profileView(decode(who[1]));
    nav = '';
  } else {
    const hash = location.hash.replace(/^#\/?/, '');
    const [name, query] = hash.split('?');
    const params = new URLSearchParams(query || '');
    if (name === 'archive') {
      view = archiveView(params);
      nav = 'archive';
    } else if (name === 'leaderboard') {
      view = leaderboardView(params);
      nav = 'leaderboard';
    } else if (name === 'analysis') {
      // The analysis board's old address: /analysis now.
      history.replaceState(null, '', '/analysis' + (query ? '?' + query : ''));
      view = analysisView(params);
      nav = 'analysis';
    } else {
      view = homeView(params);
    }
  }
  show(view, nav);
}

/** Puts a view in the page, its link in the menu marked. */
function show(view, nav) {
  document.querySelectorAll('.site-nav a').forEach((a) => {
    if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  current = view;
  main.append(view.node);
  if (view.mounted) view.mounted();
}

window.addEventListener('hashchange', () => {
  if (location.pathname === '/' || location.pathname === '') route();
});
window.addEventListener('popstate', route);

const header = document.querySelector('.site-header');
const NAV = [
  ['play', '/', 'nav.play'], ['learn', '/learn', 'nav.learn'], ['puzzles', '/puzzles', 'nav.puzzles'],
  ['tournaments', '/tournaments', 'nav.tournaments'],
  ['leaderboard', '/#/leaderboard', 'nav.leaderboard'], ['archive', '/#/archive', 'nav.archive'],
  ['analysis', '/analysis', 'nav.analysis'],
];
const siteNav = h('nav.site-nav', { 'aria-label': t('nav.main') },
  NAV.map(([key, href, text]) => h('a', { href, 'data-nav': key }, t(text))));
const langSel = h('select#lang', { 'aria-label': t('lang.label'), onchange: () => setLang(langSel.value) },
  LANGS.map(([code, name]) => h('option', { value: code, lang: code, selected: code === getLang() }, name)));
// On a phone the links and the language switch fold into the Menu's panel.
const navPanel = h('div#nav-panel.nav-panel', siteNav, h('div.lang-switch', langSel));
header.append(navPanel);
navMenu(header, navPanel);
// The page's own words (index.html's data-t and data-t-label), which the
// server sent in the language it guessed; {site} is the page's
// application-name, {games} the games' titles (once the meta is in).
const site = { site: (document.querySelector('meta[name="application-name"]') || {}).content || '', games: '' };
function siteTitle() {
  return t('doc.title', site);
}
function wordPage() {
  document.querySelectorAll('[data-t]').forEach((e) => {
    if (e.dataset.t !== 'doc.title') e.textContent = t(e.dataset.t, site);
  });
  document.querySelectorAll('[data-t-label]').forEach((e) => e.setAttribute('aria-label', t(e.dataset.tLabel, site)));
}
function nameGames() {
  return getMeta().then((m) => {
    site.games = andList(m.games.map((g) => g.title));
    if (document.title === served) document.title = siteTitle(); // no view has named itself yet
  }).catch(() => {});
}
wordPage();
const served = document.title;
// A new language: the header's words, then the view drawn again.
onLangChange(() => {
  siteNav.setAttribute('aria-label', t('nav.main'));
  siteNav.querySelectorAll('a').forEach((a, i) => {
    a.textContent = t(NAV[i][2]);
  });
  langSel.setAttribute('aria-label', t('lang.label'));
  langSel.value = getLang();
  wordPage();
  rewordBanner();
  nameGames().then(route);
});
/** Sends what was kept while offline (lesson progress, puzzle results) and keeps puzzles for the next time. */
function catchUp() {
  if (isOffline()) return;
  sendProgress();
  sendResults().then(() => getMeta()).then((meta) => keepPuzzles(meta)).catch((err) => console.warn(err));
}
watchNetwork();
initAccount(header).then(catchUp);
nameGames();
// Back online: a view that stood in for a page is the page again, the
// account is asked for again, and what was kept is sent.
onOnline(() => {
  if (current && current.offline) route();
  reloadAccount().then(catchUp);
});
// Gone offline on the home page: its lists cannot be read, so its offline
// choices instead (another page that needs the network says so itself).
onOffline(() => {
  if (currentKind === 'home') route();
});
registerWorker();
// After a sign-up, log-in or log-out the view shows what is new: the home
// page its form and lists, the game page the players' names, a profile its
// owner's buttons.
onAccountChange(() => {
  if (current && current.refresh) current.refresh();
  catchUp(); // the new account's kept progress sent, and puzzles kept for it
});
route();
