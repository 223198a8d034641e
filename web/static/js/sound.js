// The game page's sounds, made with the Web Audio API (no sound files to
// fetch or license): a tone for each kind of event, distinct enough to
// tell apart without looking. The player can turn them off and set their
// volume; both choices are kept in the browser.

const KEY = 'sound';
const VOLUME = 'volume';

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

/** The volume, 0 to 1 (0.7 until the player sets it). */
export function volume() {
  try {
    const v = Number(localStorage.getItem(VOLUME));
    return localStorage.getItem(VOLUME) != null && v >= 0 && v <= 1 ? v : 0.7;
  } catch (e) {
    return 0.7;
  }
}

/** Sets the volume, 0 to 1. */
export function setVolume(v) {
  try {
    localStorage.setItem(VOLUME, String(Math.max(0, Math.min(1, Number(v) || 0))));
  } catch (e) {
    // private mode: the choice lasts for the page
  }
}

function tone(freq, start, length, type = 'sine', peak = 0.2) {
  const level = Math.max(0.0002, peak * volume());
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(level, ctx.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

// Each kind's notes: [frequency, start, length, wave, peak]. A move is a
// short click-like tone, a capture a lower double knock, the end two
// falling notes, low time three quick beeps, a chat line a soft high
// blip, an offer (draw, takeback, rematch) a rising pair that asks.
const SOUNDS = {
  move: [[880, 0, 0.12]],
  capture: [[330, 0, 0.09, 'triangle', 0.3], [260, 0.1, 0.14, 'triangle', 0.3]],
  end: [[660, 0, 0.18], [440, 0.2, 0.3]],
  low: [[990, 0, 0.07, 'square', 0.08], [990, 0.12, 0.07, 'square', 0.08], [990, 0.24, 0.07, 'square', 0.08]],
  chat: [[1320, 0, 0.08, 'sine', 0.1]],
  offer: [[523, 0, 0.14], [784, 0.16, 0.22]],
};

/**
 * Plays a sound: 'move' (the opponent moved), 'capture', 'end' (the game
 * is over), 'low' (little time left), 'chat' (a new chat line) or
 * 'offer' (the opponent asks something). Browsers allow sound only after
 * the page has been used; before that, and when sounds are off, it does
 * nothing. It counts what it played in window.magnetonSounds and lists
 * the kinds in window.magnetonSoundKinds, for the tests.
 */
export function play(kind) {
  if (!soundOn()) return;
  const notes = SOUNDS[kind] || SOUNDS.move;
  window.magnetonSounds = (window.magnetonSounds || 0) + 1;
  (window.magnetonSoundKinds = window.magnetonSoundKinds || []).push(kind);
  try {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    for (const n of notes) tone(...n);
  } catch (e) {
    // no audio here: silence
  }
}
