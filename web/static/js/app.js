// The front end's entry point: the header, the router and the views.
// /g/<id> is a game; the home page's other views are hash routes.

import { h } from './dom.js';
import { homeView } from './home.js';
import { gameView } from './game.js';
import { archiveView } from './archive.js';
import { analysisView } from './analysis.js';

const main = document.getElementById('app');
let current = null;

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  main.textContent = '';
  const path = location.pathname;
  const m = /^\/g\/([^/]+)\/?$/.exec(path);
  let view;
  let nav = 'play';
  if (m) {
    view = gameView(decodeURIComponent(m[1]));
    nav = '';
  } else {
    const hash = location.hash.replace(/^#\/?/, '');
    const [name, query] = hash.split('?');
    const params = new URLSearchParams(query || '');
    if (name === 'archive') {
      view = archiveView(params);
      nav = 'archive';
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

document.querySelector('.site-header').append(
  h('nav.site-nav', { 'aria-label': 'Main' },
    h('a', { href: '/', 'data-nav': 'play' }, 'Play'),
    h('a', { href: '/#/archive', 'data-nav': 'archive' }, 'Archive'),
    h('a', { href: '/#/analysis', 'data-nav': 'analysis' }, 'Analysis')),
);
route();
