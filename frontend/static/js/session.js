// @ts-check
// session.js: what the game page knows about its room (pure): the game model plus the
// viewer's role, presence, AI progress, hint, local clocks and replay position, updated by
// `receive` for every server message, and the board model and player cards drawn from it.
// The controller (game.js) owns one Session and renders it; everything here is testable
// under `node --test`.

import { fromSnapshot, applyEvent, turn, isPlayer, other, COLORS, canPlay, stonesAt, winLine, emptyGame, aiSeat, stoneColor } from './state.js';
import { makeClock, remaining } from './clock.js';
import { parseNotation } from './geometry.js';

/** @typedef {import('./protocol.js').Color} Color */
/** @typedef {import('./protocol.js').Role} Role */
/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */
/** @typedef {import('./protocol.js').Presence} Presence */
/** @typedef {import('./protocol.js').AIMessage} AIMessage */
/** @typedef {import('./protocol.js').HintMessage} HintMessage */
/** @typedef {import('./protocol.js').ClockSnapshot} ClockSnapshot */
/** @typedef {import('./state.js').Game} Game */
/** @typedef {import('./clock.js').Clock} Clock */

/**
 * @typedef {Object} Now the two clocks of the page
 * @property {number} wall Date.now(): compared with server instants
 * @property {number} mono performance.now(): local ticking
 */

/**
 * @typedef {Object} Session
 * @property {Game} game
 * @property {Role} role the viewer's seat (from welcome, then from the seat holding myId)
 * @property {string} myId the viewer's player id ('' when anonymous)
 * @property {boolean} loaded a snapshot or event has arrived
 * @property {boolean} notFound the room does not exist (or no longer)
 * @property {Presence | null} presence
 * @property {number} spectators
 * @property {number} serverOffset local wall time minus server time (ms)
 * @property {AIMessage | null} ai the latest AI progress
 * @property {number} aiAt Now.mono when it arrived
 * @property {number} aiCount AI messages received
 * @property {HintMessage | null} hint
 * @property {{black: Clock, white: Clock}} clocks local clocks, restarted on every position change
 * @property {number | null} viewPly replay position; null: the live position
 * @property {number | null} firstMoveAt server time (Unix ms) the game is aborted at if the side
 *   to move has not made its first move; null when that does not apply
 */

/**
 * newSession returns the session of a page that has heard nothing yet.
 * @param {string} roomId
 * @param {string} myId
 * @returns {Session}
 */
export function newSession(roomId, myId) {
  return {
    game: emptyGame(roomId), role: 'spectator', myId, loaded: false, notFound: false,
    presence: null, spectators: 0, serverOffset: 0,
    ai: null, aiAt: 0, aiCount: 0, hint: null,
    clocks: { black: makeClock(null), white: makeClock(null) }, viewPly: null, firstMoveAt: null,
  };
}

/**
 * firstMovePending tells whether the side to move has not made its first move in a game in
 * play: its clock does not run yet (the server's rule: the first two plies are free; under
 * an opening rule the first player's placement step and the second player's first choice).
 * @param {Game} g
 */
export function firstMovePending(g) {
  if (g.phase !== 'playing') return false;
  if (g.opening === 'swap' || g.opening === 'swap2') return g.step === 'place3' || g.step === 'choose';
  return g.moves.length < 2;
}

/**
 * firstMoveLeft returns the ms colour c has left for its first move at wall time `wall`, or
 * null when no first-move time runs for c.
 * @param {Session} s
 * @param {Color} c
 * @param {number} wall Date.now()
 */
export function firstMoveLeft(s, c, wall) {
  if (s.firstMoveAt == null || !firstMovePending(s.game) || turn(s.game) !== c) return null;
  return Math.max(0, s.firstMoveAt - (wall - s.serverOffset));
}

/**
 * localClocks starts the local clocks for the model: the side to move runs while the game
 * is in play; per-move-only controls show the per-move limit (or what is left of it per
 * the snapshot's deadline).
 * @param {Game} g
 * @param {ClockSnapshot | undefined} snap the snapshot's clock, when restarting from one
 * @param {number} mono
 * @returns {{black: Clock, white: Clock}}
 */
export function localClocks(g, snap, mono) {
  const running = g.phase === 'playing' && !firstMovePending(g) && (!snap || snap.running) ? turn(g) : null;
  const perMoveOnly = !g.time.base_ms && g.time.per_move_ms > 0;
  /** @param {Color} c */
  const clock = (c) => {
    let ms = g.clocks[c];
    if (perMoveOnly) {
      ms = g.time.per_move_ms;
      if (snap && snap.deadline_ms && c === running) ms = snap.deadline_ms - snap.at;
    }
    return makeClock(ms, c === running, mono);
  };
  return { black: clock('black'), white: clock('white') };
}

/**
 * roleFor returns the viewer's role: the seat holding myId (a sit, a rematch swap, a
 * reload), else the role so far unless that seat now holds someone else.
 * @param {Game} g
 * @param {string} myId
 * @param {Role} role
 * @returns {Role}
 */
export function roleFor(g, myId, role) {
  if (!myId) return role;
  const mine = COLORS.find((c) => g.seats[c] && g.seats[c].player_id === myId);
  if (mine) return mine;
  if (isPlayer(role)) {
    const seat = g.seats[role];
    if (!seat || (seat.player_id && seat.player_id !== myId)) return 'spectator';
  }
  return role;
}

/** Event kinds after which the position (and so the clocks) restart. */
const POSITION_EVENTS = new Set(['started', 'move', 'takeback', 'game_over', 'rematch', 'opening_choice', 'colors']);

/**
 * receive returns the session after one server message.
 * @param {Session} s
 * @param {ServerMessage} msg
 * @param {Now} now
 * @returns {Session}
 */
export function receive(s, msg, now) {
  let n = s;
  switch (msg.type) {
    case 'welcome':
      n = { ...s, role: msg.you.role, myId: msg.you.player_id || s.myId };
      break;
    case 'snapshot': {
      const room = msg.room;
      const game = fromSnapshot(room);
      n = {
        ...s, game, loaded: true, viewPly: null,
        serverOffset: room.clock ? now.wall - room.clock.at : s.serverOffset,
        presence: room.presence || s.presence,
        spectators: room.presence ? room.presence.spectators : s.spectators,
        clocks: localClocks(game, room.clock, now.mono),
        firstMoveAt: room.clock && room.clock.first_move_deadline_ms ? room.clock.first_move_deadline_ms : null,
      };
      break;
    }
    case 'event': {
      const ev = msg.event;
      const game = applyEvent(s.game, ev);
      n = { ...s, game, loaded: true, serverOffset: now.wall - ev.at };
      if (ev.kind === 'move' || ev.kind === 'takeback' || ev.kind === 'game_over') n.ai = null;
      if (ev.kind === 'move' || ev.kind === 'takeback') n.hint = null;
      // Following the live game in replay at its last move: stay live.
      if (ev.kind === 'move' && s.viewPly === s.game.moves.length) n.viewPly = null;
      if (ev.kind === 'rematch') n.viewPly = null;
      if (POSITION_EVENTS.has(ev.kind)) n.clocks = localClocks(game, undefined, now.mono);
      // The first-move time runs from the start of the turn (an opening's placement step
      // is one turn of several stones).
      const timed = game.time.base_ms > 0 || game.time.per_move_ms > 0;
      if (!timed || !firstMovePending(game)) n.firstMoveAt = null;
      else if (s.firstMoveAt == null || turn(game) !== turn(s.game) || !firstMovePending(s.game) || ev.kind === 'takeback') {
        n.firstMoveAt = ev.at + game.firstMoveMs;
      }
      break;
    }
    case 'error':
      // Also after the page had loaded the room: it is gone (a restart of a server
      // without a durable store); reconnecting cannot bring it back.
      if (msg.code === 'no_such_room') n = { ...s, notFound: true };
      break;
    case 'ai':
      n = { ...s, ai: msg, aiAt: now.mono, aiCount: s.aiCount + 1 };
      break;
    case 'presence':
      n = { ...s, presence: msg, spectators: msg.spectators };
      break;
    case 'hint':
      n = { ...s, hint: msg };
      break;
    default:
      return s;
  }
  const role = roleFor(n.game, n.myId, n.role);
  return role === n.role ? n : { ...n, role };
}

/**
 * withPlayer records the viewer's player id (after registering to take a seat).
 * @param {Session} s
 * @param {string} myId
 * @returns {Session}
 */
export function withPlayer(s, myId) {
  const n = { ...s, myId };
  return { ...n, role: roleFor(n.game, myId, n.role) };
}

/**
 * seek shows the position after n moves (clamped); the end of a game in play is live.
 * @param {Session} s
 * @param {number} n
 * @returns {Session}
 */
export function seek(s, n) {
  const total = s.game.moves.length;
  const v = Math.max(0, Math.min(total, n));
  return { ...s, viewPly: v === total && s.game.phase !== 'over' ? null : v };
}

/**
 * shownPly returns the number of moves on the board as shown.
 * @param {Session} s
 */
export function shownPly(s) {
  return s.viewPly === null ? s.game.moves.length : s.viewPly;
}

/**
 * @typedef {Object} SeatPresenceView
 * @property {boolean} connected
 * @property {number} remainingMs what is left of the abandonment grace (0: over or connected)
 * @property {boolean} claimable
 */

/**
 * seatPresence returns a seat's connection state with the abandonment countdown at `wall`.
 * @param {Session} s
 * @param {Color} c
 * @param {number} wall Date.now()
 * @returns {SeatPresenceView | null}
 */
export function seatPresence(s, c, wall) {
  if (!s.presence) return null;
  const p = s.presence[c];
  let remainingMs = 0;
  if (!p.connected && p.grace_ms) {
    const serverNow = wall - s.serverOffset;
    remainingMs = Math.max(0, p.grace_ms - (serverNow - p.since));
  }
  return { connected: p.connected, remainingMs, claimable: !!p.claimable };
}

/**
 * currentAI returns the AI progress for the current position of a game in play, or null.
 * @param {Session} s
 */
export function currentAI(s) {
  const ai = s.ai;
  return ai && ai.ply === s.game.moves.length && s.game.phase === 'playing' ? ai : null;
}

/**
 * aiElapsed returns the AI's thinking time so far, extrapolated locally while it thinks.
 * @param {AIMessage} ai
 * @param {number} aiAt Now.mono when it arrived
 * @param {number} mono
 */
export function aiElapsed(ai, aiAt, mono) {
  return (ai.elapsed_ms || 0) + (ai.status === 'thinking' ? mono - aiAt : 0);
}

/**
 * clockLeft returns the ms left on colour c's local clock at mono (null: no clock).
 * @param {Session} s
 * @param {Color} c
 * @param {number} mono
 */
export function clockLeft(s, c, mono) {
  return remaining(s.clocks[c], mono);
}

/**
 * playerCards returns the two player cards, the viewer's own seat second.
 * @param {Session} s
 * @param {{conn: string, watchOnly: boolean, frozen: {black: number | null, white: number | null} | null, levelRatings: Record<string, number>}} page
 *   conn: the page's connection state; watchOnly: opened to watch (no "take seat");
 *   frozen: the clocks when the connection was lost (null while connected)
 * @param {Now} now
 * @returns {import('./views/players.js').PlayerCard[]}
 */
export function playerCards(s, { conn, watchOnly, frozen, levelRatings }, now) {
  const { game: g, role } = s;
  const order = /** @type {Color[]} */ (role === 'black' ? ['white', 'black'] : ['black', 'white']);
  const running = g.phase === 'playing' ? turn(g) : null;
  return order.map((c) => {
    const seat = g.seats[c];
    return {
      color: c, seat, you: role === c, toMove: running === c,
      clockMs: frozen ? frozen[c] : clockLeft(s, c, now.mono), baseMs: g.time.base_ms, firstMoveMs: frozen ? null : firstMoveLeft(s, c, now.wall),
      presence: seat && seat.kind === 'human' ? seatPresence(s, c, now.wall) : null,
      offline: !!frozen,
      showAbandon: g.phase === 'playing' && !frozen,
      canClaim: isPlayer(role) && role !== c && g.phase === 'playing',
      canSit: !watchOnly && !isPlayer(role) && !seat && g.phase === 'waiting' && conn === 'open',
      openingRole: g.phase === 'playing' && g.step ? (c === 'black' ? 'first' : 'second') : '',
      ratingChange: g.rating ? g.rating[c] : null,
      levelRatings,
    };
  });
}

/**
 * @typedef {Object} BoardPrefs
 * @property {boolean} numbers move numbers on the stones
 * @property {boolean} forbidden show renju forbidden points
 * @property {boolean} showAI show the AI panel
 * @property {boolean} pvVsAI a player facing the AI draws its principal variation (off by
 *   default: the engine's expected reply is a free hint)
 */

/**
 * pvSwitch tells whether the viewer chooses to see the AI's variation: a player facing
 * the AI does (BoardPrefs.pvVsAI); spectators and AI-vs-AI viewers always see it.
 * @param {Session} s
 */
export function pvSwitch(s) {
  return isPlayer(s.role) && !!aiSeat(s.game);
}

/**
 * pvShown tells whether the AI's principal variation is shown (on the board and in the
 * AI panel) with prefs.
 * @param {Session} s
 * @param {BoardPrefs} prefs
 */
export function pvShown(s, prefs) {
  return prefs.showAI && (!pvSwitch(s) || prefs.pvVsAI);
}

/**
 * @typedef {Object} BoardModel what the board draws
 * @property {{x: number, y: number, color: Color, n: number}[]} stones
 * @property {{x: number, y: number} | null} last the last move shown
 * @property {{x: number, y: number}[]} win the winning five
 * @property {boolean} numbers move numbers on the stones
 * @property {import('./state.js').Forbidden[]} forbidden
 * @property {{x: number, y: number, color: Color, unsent?: boolean}[]} pending moves sent and not yet acknowledged; unsent: the connection is down (they are resent when it is back)
 * @property {{x: number, y: number, color: Color, n: number}[]} pv the AI's principal variation
 * @property {{x: number, y: number} | null} hint
 * @property {Color | null} preview the colour of the hover stone; null when not playable
 */

/**
 * boardModel returns what the board draws (see BoardView.render).
 * @param {Session} s
 * @param {BoardPrefs} prefs
 * @param {{x: number, y: number, color: Color, unsent?: boolean}[]} pending moves sent and not yet settled
 * @returns {BoardModel}
 */
export function boardModel(s, prefs, pending) {
  const g = s.game;
  const live = s.viewPly === null;
  const n = shownPly(s);
  const ai = s.ai && s.ai.ply === g.moves.length ? s.ai : null;
  const pv = [];
  if (live && pvShown(s, prefs) && ai && ai.pv) {
    for (const [i, p] of ai.pv.entries()) {
      const xy = parseNotation(p, g.size);
      if (xy && pv.length < 10) pv.push({ ...xy, color: i % 2 === 0 ? ai.color : other(ai.color), n: i + 1 });
    }
  }
  const last = n > 0 ? g.moves[n - 1] : null;
  const showForbidden = live && prefs.forbidden && (s.role === 'black' || !isPlayer(s.role));
  return {
    stones: stonesAt(g, n),
    last: last && last.x >= 0 ? { x: last.x, y: last.y } : null,
    win: live || n === g.moves.length ? winLine(g) : [],
    numbers: prefs.numbers,
    forbidden: showForbidden ? g.forbidden : [],
    pending: live ? pending : [],
    pv,
    hint: live && s.hint ? parseNotation(s.hint.point, g.size) : null,
    preview: live && isPlayer(s.role) && canPlay(g, s.role) && pending.length === 0 ? stoneColor(g) : null,
  };
}
