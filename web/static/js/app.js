// The front end's entry point: the header (the site's menu and the account
// box), the router and the views. /g/<id> is a game, /@/<name> a player's
// profile; the home page's other views are hash routes.

import { h } from './dom.js';
import { homeView } from './home.js';
import { gameView } from './game.js';
import { archiveView } from './archive.js';
import { analysisView } from './analysis.js';
import { profileView } from './profile.js';
import { leaderboardView } from './leaderboard.js';
import { initAccount, onAccountChange } from './account.js';

const main = document.getElementById('app');
let current = null;

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch (e) {
    return s;
  }
}

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  main.textContent = '';
  const path = location.pathname;
  const m = /^\/g\/([^/]+)\/?$/.exec(path);
  const who = /^\/@\/([^/]+)\/?$/.exec(path);
  let view;
  let nav = 'play';
  if (m) {
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
      view = analysisView(params);
      nav = 'analysis';
    } else {
      view = homeView(params);
    }
  }
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
header.append(
  h('nav.site-nav', { 'aria-label': 'Main' },
    h('a', { href: '/', 'data-nav': 'play' }, 'Play'),
    h('a', { href: '/#/leaderboard', 'data-nav': 'leaderboard' }, 'Leaderboard'),
    h('a', { href: '/#/archive', 'data-nav': 'archive' }, 'Archive'),
    h('a', { href: '/#/analysis', 'data-nav': 'analysis' }, 'Analysis')),
);
initAccount(header);
// After a sign-up, log-in or log-out the view shows what is new: the home
// page its form and lists, the game page the players' names, a profile its
// owner's buttons.
onAccountChange(() => {
  if (current && current.refresh) current.refresh();
});
route();
