// The game page's seat: taken from an invitation in the URL, by Join on an
// open game, or in the rematch a player follows; each then opens the game
// with the seat cookie the server set.

import { toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';

/** Join pressed on an open game: the seat taken, the socket opened again as the player. */
export async function joinOpen(page) {
  try {
    await api('POST', `/api/games/${page.id}/join`, {});
    page.reconnect();
  } catch (err) {
    toast(err.message, 'error');
  }
}

/** The rematch newId of the page's game: its seat taken (a socket cannot set the cookie), then opened. */
export async function joinRematch(page, newId) {
  if (page.joiningRematch) return;
  page.joiningRematch = true;
  try {
    await api('POST', `/api/games/${newId}/join`, { rematch_of: page.id });
  } catch (err) {
    if (err.status !== 409) console.warn('rematch join:', err.message);
  }
  location.assign(`/g/${newId}`);
}

/** An invitation in the URL: the seat taken, the URL without it. */
export async function acceptInvite(page) {
  try {
    await api('POST', `/api/games/${page.id}/join`, { invite: page.invite });
  } catch (err) {
    if (err.status === 409) toast(t('gm.inviteUsed'), 'info');
    else toast(err.message, 'error');
  }
  history.replaceState(null, '', `/g/${page.id}`);
}
