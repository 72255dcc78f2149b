// @ts-check
// resume.js: what a room connection keeps across reconnections (docs/protocol.md section 5):
// the event sequence (resume from the last seq, detect gaps), the moves sent but not yet
// settled (resent after a reconnect), message ids, the reconnect backoff and the errors
// that stop it. Pure, like protocol.js: testable under `node --test`.

/**
 * makeIdGen returns a function producing client message ids: prefix + counter.
 * @returns {() => string}
 */
export function makeIdGen(prefix = 'c') {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/**
 * SeqTracker follows the per-room event sequence (README invariant 2).
 * offer(seq) tells what to do with an incoming persisted event:
 * 'apply' (next in order), 'duplicate' (already seen: ignore) or 'gap' (events missed: resync).
 */
export class SeqTracker {
  constructor(lastSeq = 0) {
    this.lastSeq = lastSeq;
  }

  /**
   * @param {number} seq
   * @returns {'apply' | 'duplicate' | 'gap'}
   */
  offer(seq) {
    if (seq <= this.lastSeq) return 'duplicate';
    if (seq === this.lastSeq + 1) {
      this.lastSeq = seq;
      return 'apply';
    }
    return 'gap';
  }

  /**
   * reset sets the position after a snapshot.
   * @param {number} seq
   */
  reset(seq) {
    this.lastSeq = seq || 0;
  }
}

/**
 * PendingMoves keeps moves sent but not yet acknowledged, keyed by client id.
 * A move stays pending until its ack, its own move event, or an error.
 */
/** @typedef {{id: string, ply: number, point: string, sentAt: number}} PendingMove */

export class PendingMoves {
  constructor() {
    /** @type {Map<string, PendingMove>} */
    this.byId = new Map();
  }

  /**
   * @param {string} id
   * @param {number} ply
   * @param {string} point
   */
  add(id, ply, point, now = 0) {
    this.byId.set(id, { id, ply, point, sentAt: now });
  }

  /**
   * ack removes and returns the pending move with that id, if any.
   * @param {string} id
   */
  ack(id) {
    const m = this.byId.get(id);
    if (m) this.byId.delete(id);
    return m || null;
  }

  /**
   * reject is ack under another name: the move changed nothing.
   * @param {string} id
   */
  reject(id) {
    return this.ack(id);
  }

  /**
   * seen drops pending moves settled by a move event at `ply` (ours or, if stale, not).
   * @param {number} ply
   * @param {string | undefined} point
   */
  seen(ply, point) {
    const settled = [];
    for (const [id, m] of this.byId) {
      if (m.ply <= ply) {
        settled.push({ ...m, mine: m.ply === ply && m.point === point });
        this.byId.delete(id);
      }
    }
    return settled;
  }

  /** list returns the pending moves in ply order (to resend after a reconnect). */
  list() {
    return [...this.byId.values()].sort((a, b) => a.ply - b.ply);
  }

  /** @param {string} point */
  has(point) {
    for (const m of this.byId.values()) if (m.point === point) return true;
    return false;
  }

  get size() {
    return this.byId.size;
  }

  clear() {
    this.byId.clear();
  }
}

/** @typedef {{base?: number, max?: number, factor?: number}} BackoffOptions */

/**
 * backoffDelay returns the wait in ms before reconnect attempt `attempt` (0-based):
 * exponential from base to max, with "equal jitter" (half fixed, half random).
 * rand is injectable for tests and must return [0, 1).
 */
export function backoffDelay(/** @type {number} */ attempt, /** @type {BackoffOptions} */ { base = 500, max = 15000, factor = 2 } = {}, rand = Math.random) {
  const exp = Math.min(max, base * Math.pow(factor, Math.max(0, attempt)));
  const half = exp / 2;
  return Math.round(half + rand() * half);
}

/**
 * backoffSchedule lists the delay bounds [min, max] of the first n attempts.
 * @param {number} n
 * @param {BackoffOptions} [opts]
 */
export function backoffSchedule(n, opts) {
  const out = [];
  for (let i = 0; i < n; i++) out.push([backoffDelay(i, opts, () => 0), backoffDelay(i, opts, () => 0.999999)]);
  return out;
}

/** Error codes after which reconnecting is pointless. */
const FATAL_CODES = new Set(['no_such_room', 'unauthorized']);

/**
 * isFatal tells whether an error message should stop automatic reconnection.
 * @param {string} code
 */
export function isFatal(code) {
  return FATAL_CODES.has(code);
}
