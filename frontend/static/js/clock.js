// @ts-check
// clock.js: clock arithmetic for display (pure). The server owns the real clocks; the page
// ticks locally between server values and snaps to each server value when it arrives.

/**
 * Clock is {ms, running, at}: ms left at local time `at` (ms, e.g. performance.now()),
 * counting down while running. ms === null means no time limit.
 * @typedef {{ms: number | null, running: boolean, at: number}} Clock
 */

/**
 * makeClock returns a clock.
 * @param {number | null} ms
 * @returns {Clock}
 */
export function makeClock(ms, running = false, at = 0) {
  return { ms: ms == null ? null : Math.max(0, ms), running, at };
}

/** remaining returns the ms left at local time `now`. */
export function remaining(clock, now) {
  if (!clock || clock.ms == null) return null;
  if (!clock.running) return clock.ms;
  return Math.max(0, clock.ms - Math.max(0, now - clock.at));
}

/** stop freezes the clock at its value at `now`. */
export function stop(clock, now) {
  return makeClock(remaining(clock, now), false, now);
}

/** start makes the clock run from `now`. */
export function start(clock, now) {
  return makeClock(remaining(clock, now), true, now);
}

/** correct replaces the local value by a server value received at `now` (keeps running state). */
export function correct(clock, serverMs, now, running = clock ? clock.running : false) {
  return makeClock(serverMs, running, now);
}

/**
 * formatClock renders ms as "m:ss", "h:mm:ss", or "s.t" (tenths) below 10 s.
 * null renders as "∞".
 */
export function formatClock(ms) {
  if (ms == null) return '∞';
  const v = Math.max(0, ms);
  if (v < 10000) {
    const tenths = Math.floor(v / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(v / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${ss}`;
  return `${m}:${ss}`;
}

/** isLow tells whether a clock should be shown as running low (under 20 s or 10 %). */
export function isLow(ms, baseMs) {
  if (ms == null) return false;
  return ms < 20000 || (baseMs > 0 && ms < baseMs * 0.1);
}

/** formatTimeControl renders {base_ms, increment_ms, per_move_ms} as "5+5", "30s/move" or "∞". */
export function formatTimeControl(tc) {
  if (!tc) return '∞';
  const base = tc.base_ms || 0;
  const inc = tc.increment_ms || 0;
  const per = tc.per_move_ms || 0;
  const parts = [];
  if (base > 0) {
    const min = base / 60000;
    parts.push(`${Number.isInteger(min) ? min : min.toFixed(1)}+${Math.round(inc / 1000)}`);
  }
  if (per > 0) parts.push(`${Math.round(per / 1000)}s/move`);
  return parts.length ? parts.join(' · ') : '∞';
}

/** countdown returns the ms left of a grace period that began `elapsed` ms ago. */
export function countdown(graceMs, elapsed) {
  return Math.max(0, graceMs - Math.max(0, elapsed));
}
