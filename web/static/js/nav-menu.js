// The header's navigation on a narrow screen (css/phone.css): one row with
// a Menu button, a disclosure whose panel holds the site's links and the
// language switch, instead of a second row of links cut at the edge. On a
// wide screen the button is not shown and the panel is laid out in the row
// as before (display: contents), so nothing here changes the desktop.

import { t, onLangChange } from './i18n.js';

/**
 * Makes header's Menu button (index.html's #nav-toggle, there from the
 * page's first drawing, so that nothing moves when this script runs) open
 * and close panel. Escape, a link followed, a click or the focus elsewhere
 * close it; Escape gives the focus back to the button.
 */
export function navMenu(header, panel) {
  const button = header.querySelector('#nav-toggle');
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  function setOpen(open, refocus) {
    button.setAttribute('aria-expanded', String(open));
    panel.classList.toggle('open', open);
    if (open) {
      const first = panel.querySelector('a[aria-current="page"]') || panel.querySelector('a');
      if (first) first.focus();
    } else if (refocus) {
      button.focus();
    }
  }
  button.addEventListener('click', () => setOpen(!isOpen(), false));
  panel.addEventListener('click', (e) => {
    if (e.target.closest('a')) setOpen(false, false);
  });
  panel.addEventListener('focusout', (e) => {
    if (isOpen() && e.relatedTarget && !panel.contains(e.relatedTarget) && e.relatedTarget !== button) setOpen(false, false);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      e.preventDefault();
      setOpen(false, true);
    }
  });
  document.addEventListener('click', (e) => {
    if (isOpen() && !panel.contains(e.target) && !button.contains(e.target)) setOpen(false, false);
  });
  onLangChange(() => button.setAttribute('aria-label', t('phone.menu')));
  return button;
}
