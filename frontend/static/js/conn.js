// @ts-check
// conn.js: one room's WebSocket connection with automatic reconnection, resume from the last
// sequence number, gap detection and pending-move bookkeeping. No DOM: the WebSocket class,
// timers and clock are injected, so tests run it against a fake socket under Node.
import { encode, decode, hello, ProtocolError } from './protocol.js';
import { makeIdGen, SeqTracker, PendingMoves, backoffDelay, isFatal } from './resume.js';

/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */
/** @typedef {import('./protocol.js').ClientMessage} ClientMessage */

const PING_EVERY = 20000;
const SILENCE_LIMIT = 45000;

/**
 * RoomConnection keeps a room connection alive.
 * Callbacks: onMessage(msg) for every server message to apply (duplicates and out-of-order
 * events are filtered), onState({state, attempt, delay}) on connection changes,
 * onMoveSettled({id, ok, error}) when a pending move is acked or refused.
 * state: "connecting" | "open" | "reconnecting" | "closed".
 */
export class RoomConnection {
  /**
   * @param {Object} opts
   * @param {string} opts.url
   * @param {string} [opts.token]
   * @param {(msg: ServerMessage) => void} [opts.onMessage]
   * @param {(st: {state: string, attempt: number, delay?: number}) => void} [opts.onState]
   * @param {(res: {id: string, ok: boolean, point: string, error?: string | null}) => void} [opts.onMoveSettled]
   * @param {any} [opts.WebSocketImpl] the WebSocket class (a fake one in tests)
   * @param {{setTimeout: Function, clearTimeout: Function, setInterval: Function, clearInterval: Function}} [opts.timers]
   * @param {() => number} [opts.now]
   * @param {() => number} [opts.rand]
   */
  constructor({
    url, token = '', onMessage = () => {}, onState = () => {}, onMoveSettled = () => {},
    WebSocketImpl = globalThis.WebSocket, timers = globalThis, now = () => Date.now(), rand = Math.random,
  }) {
    this.url = url;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onMoveSettled = onMoveSettled;
    this.WebSocketImpl = WebSocketImpl;
    this.timers = timers;
    this.now = now;
    this.rand = rand;
    this.seq = new SeqTracker(0);
    this.pending = new PendingMoves();
    this.nextId = makeIdGen('c');
    this.state = 'closed';
    this.attempt = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.stopped = false;
    this.lastHeard = 0;
    /** @type {any} */
    this.timer = null;
    /** @type {any} */
    this.pinger = null;
    this.welcomed = false;
  }

  /** start opens the connection. */
  start() {
    this.stopped = false;
    this.open();
  }

  /**
   * @param {string} state
   * @param {{delay?: number}} [extra]
   */
  setState(state, extra = {}) {
    this.state = state;
    this.onState({ state, attempt: this.attempt, ...extra });
  }

  open() {
    this.clearTimers();
    this.welcomed = false;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws;
    try {
      ws = new this.WebSocketImpl(this.url);
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.lastHeard = this.now();
      ws.send(encode(hello(this.token, this.seq.lastSeq)));
      this.pinger = this.timers.setInterval(() => this.heartbeat(), PING_EVERY / 2);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.lastHeard = this.now();
      this.receive(e.data);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.stopped) this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows
    };
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== 1) return;
    if (this.now() - this.lastHeard > SILENCE_LIMIT) {
      this.reconnectNow();
      return;
    }
    try { this.ws.send(encode({ type: 'ping' })); } catch { /* closed */ }
  }

  /** @param {string} text */
  receive(text) {
    let decoded;
    try {
      decoded = decode(text);
    } catch (e) {
      this.onMessage({ type: 'error', id: '', code: e.code || 'bad_json', message: e.message, local: true });
      return;
    }
    if ('unknown' in decoded) return; // a newer server's message: nothing to do with it
    const msg = decoded;
    switch (msg.type) {
      case 'welcome':
        this.welcomed = true;
        this.attempt = 0;
        this.setState('open');
        this.onMessage(msg);
        this.resendPending();
        return;
      case 'snapshot':
        this.seq.reset(msg.seq);
        this.onMessage(msg);
        return;
      case 'event': {
        const verdict = this.seq.offer(msg.seq);
        if (verdict === 'duplicate') return;
        if (verdict === 'gap') {
          // Missed events: reconnect and resume from the last seq we applied (README invariant 2).
          this.reconnectNow();
          return;
        }
        if (msg.event.kind === 'move' && Number.isInteger(msg.event.ply)) {
          for (const m of this.pending.seen(msg.event.ply, msg.event.point)) {
            this.onMoveSettled({ id: m.id, ok: m.mine, point: m.point, error: m.mine ? null : 'stale_ply' });
          }
        }
        this.onMessage(msg);
        return;
      }
      case 'ack': {
        const m = this.pending.ack(msg.id);
        if (m) this.onMoveSettled({ id: m.id, ok: true, point: m.point });
        this.onMessage(msg);
        return;
      }
      case 'error': {
        const m = msg.id ? this.pending.reject(msg.id) : null;
        if (m) this.onMoveSettled({ id: m.id, ok: false, point: m.point, error: msg.code });
        if (isFatal(msg.code) && !this.welcomed) this.stop();
        this.onMessage(msg);
        return;
      }
      default:
        this.onMessage(msg);
    }
  }

  resendPending() {
    for (const m of this.pending.list()) this.rawSend({ type: 'move', id: m.id, ply: m.ply, point: m.point });
  }

  /** @param {ClientMessage} msg */
  rawSend(msg) {
    if (!this.ws || this.ws.readyState !== 1 || !this.welcomed) return false;
    this.ws.send(encode(msg));
    return true;
  }

  /**
   * send sends a command and returns its id. It throws ProtocolError for an invalid command
   * and an Error with code "offline" when not connected (moves excepted: see move()).
   * @param {ClientMessage} cmd
   * @returns {string}
   */
  send(cmd) {
    const msg = /** @type {ClientMessage & {id: string}} */ ({ id: this.nextId(), ...cmd });
    encode(msg);
    if (!this.rawSend(msg)) {
      const err = new ProtocolError('offline', 'not connected');
      throw err;
    }
    return msg.id;
  }

  /**
   * move sends a move; it stays pending until acked and is resent after a reconnect.
   * @param {number} ply
   * @param {string} point
   * @returns {string} the move's id
   */
  move(ply, point) {
    const id = this.nextId();
    encode({ type: 'move', id, ply, point });
    this.pending.add(id, ply, point, this.now());
    this.rawSend({ type: 'move', id, ply, point });
    return id;
  }

  scheduleReconnect() {
    this.clearTimers();
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt, undefined, this.rand);
    this.attempt++;
    this.setState('reconnecting', { delay });
    this.timer = this.timers.setTimeout(() => this.open(), delay);
  }

  /** reconnectNow drops the socket and reconnects at once (gap, silence, network back). */
  reconnectNow() {
    const ws = this.ws;
    this.ws = null;
    if (ws) { try { ws.close(); } catch { /* ignore */ } }
    this.clearTimers();
    if (this.stopped) return;
    this.attempt = Math.max(this.attempt, 1);
    this.open();
  }

  /**
   * rejoin starts a new session at once, as a new page would ("connecting", not a
   * reconnection attempt): the server binds the player's name to a session at hello, so
   * a renamed player rejoins to sit or chat under the new name. Pending moves are resent.
   */
  rejoin() {
    const ws = this.ws;
    this.ws = null;
    if (ws) { try { ws.close(); } catch { /* ignore */ } }
    this.clearTimers();
    if (this.stopped) return;
    this.attempt = 0;
    this.open();
  }

  clearTimers() {
    if (this.timer) this.timers.clearTimeout(this.timer);
    if (this.pinger) this.timers.clearInterval(this.pinger);
    this.timer = null;
    this.pinger = null;
  }

  /** stop closes for good. */
  stop() {
    this.stopped = true;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) { try { ws.close(); } catch { /* ignore */ } }
    this.setState('closed');
  }
}
