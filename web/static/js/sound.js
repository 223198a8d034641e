// The game page's sounds: a short tone when the opponent has moved (it is
// your turn) and a two-note one at the end of a game, made with the Web
// Audio API (no sound files). The player can turn them off; the choice is
// kept in the browser.

const KEY = 'sound';

let ctx = null;

/** Whether sounds are on (the default). */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch (e) {
    return true;
  }
}

/** Turns sounds on or off. */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch (e) {
    // private mode: the choice lasts for the page
  }
}

function tone(freq, start, length) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'sine';
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.15, ctx.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

/**
 * Plays a sound: 'turn' (the opponent moved) or 'end' (the game is over).
 * Browsers allow sound only after the page has been used; before that,
 * and when sounds are off, it does nothing. It counts what it played in
 * window.magnetonSounds, for the tests.
 */
export function play(kind) {
  if (!soundOn()) return;
  window.magnetonSounds = (window.magnetonSounds || 0) + 1;
  try {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    if (kind === 'end') {
      tone(660, 0, 0.18);
      tone(440, 0.2, 0.3);
    } else {
      tone(880, 0, 0.12);
    }
  } catch (e) {
    // no audio here: silence
  }
}
