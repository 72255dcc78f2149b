// protocol.js: pure helpers for the WebSocket wire protocol (docs/protocol.md).
// No DOM, no WebSocket: everything here is testable under `node --test`.

/** Client → server message types that docs/protocol.md defines. */
export const CLIENT_TYPES = new Set([
  'hello', 'sit', 'move', 'resign',
  'draw_offer', 'draw_accept', 'draw_decline',
  'takeback_request', 'takeback_accept', 'takeback_decline',
  'rematch', 'abort', 'claim_victory', 'chat', 'hint', 'ping',
]);

/** Server → client message types. */
export const SERVER_TYPES = new Set([
  'welcome', 'snapshot', 'event', 'ack', 'error', 'resync', 'ai', 'presence', 'hint', 'pong',
]);

/** Maximum size of a client frame in bytes (protocol: 4 KiB). */
export const MAX_FRAME = 4096;
/** Maximum chat length in characters. */
export const MAX_CHAT = 300;

/** ProtocolError is thrown by encode/decode for malformed messages. */
export class ProtocolError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
  }
}

/**
 * encode turns a client command into a JSON text frame.
 * It refuses unknown types and frames over MAX_FRAME bytes.
 */
export function encode(msg) {
  if (!msg || typeof msg !== 'object' || !CLIENT_TYPES.has(msg.type)) {
    throw new ProtocolError('unknown_type', `unknown client message type: ${msg && msg.type}`);
  }
  if (msg.type === 'chat') {
    if (typeof msg.text !== 'string' || msg.text.trim() === '') {
      throw new ProtocolError('bad_request', 'empty chat message');
    }
    if ([...msg.text].length > MAX_CHAT) {
      throw new ProtocolError('too_large', `chat message longer than ${MAX_CHAT} characters`);
    }
  }
  if (msg.type === 'move' && (!Number.isInteger(msg.ply) || msg.ply < 0 || typeof msg.point !== 'string')) {
    throw new ProtocolError('bad_request', 'move needs an integer ply and a point');
  }
  const text = JSON.stringify(msg);
  if (utf8Length(text) > MAX_FRAME) {
    throw new ProtocolError('too_large', 'message too large');
  }
  return text;
}

/** utf8Length returns the UTF-8 byte length of a string. */
export function utf8Length(s) {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * decode parses a server frame. It throws ProtocolError on bad JSON or a message without a
 * type; unknown types are returned as-is (forward compatible) with `unknown: true`.
 */
export function decode(text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch (e) {
    throw new ProtocolError('bad_json', 'server sent malformed JSON');
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg) || typeof msg.type !== 'string') {
    throw new ProtocolError('bad_json', 'server message without a type');
  }
  if (!SERVER_TYPES.has(msg.type)) {
    return { ...msg, unknown: true };
  }
  if (msg.type === 'event' && (!Number.isInteger(msg.seq) || !msg.event || typeof msg.event !== 'object')) {
    throw new ProtocolError('bad_json', 'event without seq or body');
  }
  if (msg.type === 'snapshot' && (!msg.room || typeof msg.room !== 'object')) {
    throw new ProtocolError('bad_json', 'snapshot without room');
  }
  return msg;
}

/** hello builds the first message of a connection. */
export function hello(token, lastSeq) {
  const m = { type: 'hello' };
  if (token) m.token = token;
  if (lastSeq > 0) m.last_seq = lastSeq;
  return m;
}

/** makeIdGen returns a function producing client message ids: prefix + counter. */
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

  offer(seq) {
    if (seq <= this.lastSeq) return 'duplicate';
    if (seq === this.lastSeq + 1) {
      this.lastSeq = seq;
      return 'apply';
    }
    return 'gap';
  }

  /** reset sets the position after a snapshot. */
  reset(seq) {
    this.lastSeq = seq || 0;
  }
}

/**
 * PendingMoves keeps moves sent but not yet acknowledged, keyed by client id.
 * A move stays pending until its ack, its own move event, or an error.
 */
export class PendingMoves {
  constructor() {
    this.byId = new Map();
  }

  add(id, ply, point, now = 0) {
    this.byId.set(id, { id, ply, point, sentAt: now });
  }

  /** ack removes and returns the pending move with that id, if any. */
  ack(id) {
    const m = this.byId.get(id);
    if (m) this.byId.delete(id);
    return m || null;
  }

  /** reject is ack under another name: the move changed nothing. */
  reject(id) {
    return this.ack(id);
  }

  /** seen drops pending moves settled by a move event at `ply` (ours or, if stale, not). */
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

/**
 * backoffDelay returns the wait in ms before reconnect attempt `attempt` (0-based):
 * exponential from base to max, with "equal jitter" (half fixed, half random).
 * rand is injectable for tests and must return [0, 1).
 */
export function backoffDelay(attempt, { base = 500, max = 15000, factor = 2 } = {}, rand = Math.random) {
  const exp = Math.min(max, base * Math.pow(factor, Math.max(0, attempt)));
  const half = exp / 2;
  return Math.round(half + rand() * half);
}

/** backoffSchedule lists the delay bounds [min, max] of the first n attempts. */
export function backoffSchedule(n, opts) {
  const out = [];
  for (let i = 0; i < n; i++) out.push([backoffDelay(i, opts, () => 0), backoffDelay(i, opts, () => 0.999999)]);
  return out;
}

/** Error codes after which reconnecting is pointless. */
const FATAL_CODES = new Set(['no_such_room', 'unauthorized']);

/** isFatal tells whether an error message should stop automatic reconnection. */
export function isFatal(code) {
  return FATAL_CODES.has(code);
}

/** wsURL builds the WebSocket URL of a room from the page location. */
export function wsURL(loc, roomId) {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/ws/rooms/${encodeURIComponent(roomId)}`;
}
