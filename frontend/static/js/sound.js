// @ts-check
// sound.js: a short wooden "clack" made with WebAudio (no audio files), mutable.
import * as store from './store.js';

let ctx = null;

/** muted tells whether sound is off. */
export function muted() {
  return store.get('muted', false);
}

/** setMuted switches sound off or on. */
export function setMuted(m) {
  store.put('muted', !!m);
}

/** play makes the move sound; kind: "stone" | "win" | "alert". */
export function play(kind = 'stone') {
  if (muted()) return;
  try {
    ctx = ctx || new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
    const now = ctx.currentTime;
    const notes = kind === 'win' ? [660, 880, 1320] : kind === 'alert' ? [520, 520] : [880];
    notes.forEach((f, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = kind === 'stone' ? 'triangle' : 'sine';
      osc.frequency.setValueAtTime(f, now + i * 0.12);
      if (kind === 'stone') osc.frequency.exponentialRampToValueAtTime(220, now + 0.08);
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.25, now + i * 0.12 + 0.005);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + (kind === 'stone' ? 0.09 : 0.25));
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.3);
    });
  } catch {
    // no audio available
  }
}
