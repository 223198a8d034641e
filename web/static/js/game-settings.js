// The game page's settings: the sounds and their volume, screen-reader
// mode, and, for a player, "Confirm moves" and the notifications of one's
// turn.

import { h } from './dom.js';
import { t } from './i18n.js';
import { play, soundOn, setSound, volume, setVolume } from './sound.js';
import { confirmMoves, setConfirmMoves, screenReader, setScreenReader } from './prefs.js';
import { canNotify, notifyPermission, askNotify } from './notify.js';

/**
 * The settings box; onConfirmOff() is called when "Confirm moves" is
 * turned off (a move waiting for Confirm is dropped), onScreenReader(on)
 * when screen-reader mode is turned on or off. seated(bool) shows or
 * hides a player's settings.
 */
export function settingsPanel(onConfirmOff, onScreenReader = () => {}) {
  const soundBtn = h('button.btn.small.ghost.sound-toggle', { type: 'button', onclick: () => { setSound(!soundOn()); showSound(); } });
  const volumeInput = h('input.volume#volume', {
    type: 'range', min: '0', max: '100', step: '5', value: String(Math.round(volume() * 100)), 'aria-label': t('gm.volume'),
    onchange: () => { setVolume(Number(volumeInput.value) / 100); play('move'); },
  });
  function showSound() {
    soundBtn.textContent = soundOn() ? t('gm.soundOn') : t('gm.soundOff');
    soundBtn.setAttribute('aria-pressed', String(soundOn()));
    soundBtn.title = soundOn() ? t('gm.soundOnTitle') : t('gm.soundOffTitle');
    volumeInput.disabled = !soundOn();
  }
  showSound();
  const confirmBox = h('input.switch#confirm-moves', {
    type: 'checkbox', role: 'switch', checked: confirmMoves(),
    onchange: () => { setConfirmMoves(confirmBox.checked); if (!confirmBox.checked) onConfirmOff(); },
  });
  const readerBox = h('input.switch#screen-reader', {
    type: 'checkbox', role: 'switch', checked: screenReader(),
    onchange: () => { setScreenReader(readerBox.checked); onScreenReader(readerBox.checked); },
  });
  const notifyBox = h('span.notify-setting.player-only');
  function showNotify() {
    notifyBox.textContent = '';
    const p = notifyPermission();
    if (p === 'default') {
      notifyBox.append(h('button.link-btn#notify-ask', {
        type: 'button', title: t('gm.notifyTitle'),
        onclick: async () => { await askNotify(); showNotify(); },
      }, t('gm.notify')));
    } else if (p === 'granted') {
      notifyBox.append(h('small.muted', t('gm.notifyOn')));
    } else if (p === 'denied') {
      notifyBox.append(h('small.muted', { title: t('gm.notifyBlockedTitle') }, t('gm.notifyBlocked')));
    }
  }
  if (canNotify()) showNotify();
  const node = h('div.settings',
    h('span.sound-setting', soundBtn, volumeInput),
    h('span.switch-setting.player-only', { title: t('gm.confirmTitle') }, confirmBox, h('label', { for: 'confirm-moves' }, t('gm.confirmMoves'))),
    h('span.switch-setting', { title: t('sr.modeTitle') }, readerBox, h('label', { for: 'screen-reader' }, t('sr.mode'))),
    notifyBox);
  return {
    node,
    /** Moves to confirm and turns to be told of are a player's. */
    seated(yes) {
      for (const e of node.querySelectorAll('.player-only')) e.hidden = !yes;
    },
  };
}
