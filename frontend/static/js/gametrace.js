// @ts-check
// gametrace.js: what the browser tests see of the game page: window.__gomoku (read-only
// views of its state, drop() to cut the socket) and a short trace of the server messages
// for their failure reports.
import { seatName } from './views/players.js';

/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */
/** @typedef {import('./game.js').GameController} GameController */

/** The browser tests' failure reports keep the last TRACE_LEN non-AI message summaries. */
const TRACE_LEN = 60;

/** MessageTrace keeps the summaries of the latest server messages and move times. */
export class MessageTrace {
  constructor() {
    /** @type {string[]} */
    this.lines = [];
    /** @type {number[]} server times (Unix ms) of the latest move events */
    this.moveTimes = [];
  }

  /** @param {ServerMessage} msg */
  record(msg) {
    if (msg.type === 'ai' || msg.type === 'pong') return;
    const m = /** @type {any} */ (msg);
    this.lines.push(`${msg.type}${m.event ? `:${m.event.kind}` : ''}${m.seq ? `#${m.seq}` : ''}${m.code ? `:${m.code}` : ''}`);
    if (this.lines.length > TRACE_LEN) this.lines.shift();
    if (m.event && m.event.kind === 'move') {
      this.moveTimes.push(m.event.at);
      if (this.moveTimes.length > TRACE_LEN) this.moveTimes.shift();
    }
  }
}

/**
 * exposeForTests installs the browser tests' hook on the game page: a read-only view of
 * the state, and drop() to cut the socket.
 * @param {GameController} page
 */
export function exposeForTests(page) {
  /** @type {any} */ (window).__gomoku = {
    get game() { return page.s.game; },
    get role() { return page.s.role; },
    get conn() { return page.conn; },
    get aiMessages() { return page.s.aiCount; },
    get moveTimes() { return page.trace.moveTimes.slice(); },
    get trace() { return page.trace.lines.slice(); },
    seatName,
    /** drop closes the socket as a network failure would (browser tests of reconnection). */
    drop() { if (page.client.ws) page.client.ws.close(); },
  };
}
