// Telling a player it is their move when they are looking elsewhere: the
// tab's icon gets a green dot, and, if they allowed it (asked by a button,
// never on load, as browsers want), a system notification when the tab is
// hidden.

const plain = '/favicon.svg';
// The site's icon with a green dot in its corner, made here so that the
// two never drift apart in style.
const marked = 'data:image/svg+xml,' + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#262421"/>' +
  '<circle cx="11" cy="16" r="7" fill="#f4f1ea"/><circle cx="22" cy="16" r="7" fill="#1f1d1a" stroke="#9a9387" stroke-width="1.5"/>' +
  '<circle cx="25" cy="7" r="6.5" fill="#6fd14a" stroke="#161512" stroke-width="1.5"/></svg>');

/** Shows on the tab's icon whether it is the player's turn. */
export function markFavicon(on) {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  const want = on ? marked : plain;
  if (link.getAttribute('href') !== want) link.setAttribute('href', want);
  link.dataset.turn = on ? 'true' : 'false';
}

/** Whether this browser can show notifications at all. */
export function canNotify() {
  return typeof window.Notification === 'function';
}

/** 'granted', 'denied' or 'default' (not asked yet); 'unsupported' without the API. */
export function notifyPermission() {
  return canNotify() ? Notification.permission : 'unsupported';
}

/** Asks the browser's permission (call it from a click); resolves to the answer. */
export async function askNotify() {
  if (!canNotify()) return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch (e) {
    return Notification.permission;
  }
}

let last = null;

/**
 * Shows a notification when the tab is hidden and the player allowed
 * them; a click on it brings the tab back. tag keeps one per game, so a
 * second move replaces the first's.
 */
export function notify(title, body, tag) {
  if (!canNotify() || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
  try {
    if (last) last.close();
    const n = new Notification(title, { body, tag, icon: plain });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    last = n;
  } catch (e) {
    // Some browsers allow notifications only from a service worker: the
    // title and the icon still say it.
  }
}

/** Closes the last notification (the player is back). */
export function clearNotification() {
  if (last) last.close();
  last = null;
}
