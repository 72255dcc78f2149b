// @ts-check
// state.js: the game model the page renders, built from a snapshot and updated by events
// (pure). It reads exactly the fields of docs/protocol.md (types in protocol.js). The
// status line drawn from it is in statusline.js, the lobby's entries in lobbymodel.js.

import { parseNotation } from './geometry.js';
import { changeOf } from './rating.js';

/** @typedef {import('./protocol.js').Color} Color */
/** @typedef {import('./protocol.js').Role} Role */
/** @typedef {import('./protocol.js').Phase} Phase */
/** @typedef {import('./protocol.js').SeatKind} SeatKind */
/** @typedef {import('./protocol.js').Settings} Settings */
/** @typedef {import('./protocol.js').Snapshot} Snapshot */
/** @typedef {import('./protocol.js').RoomEvent} RoomEvent */
/** @typedef {import('./protocol.js').SeatSpec} SeatSpec */
/** @typedef {import('./protocol.js').TimeControl} TimeControl */
/** @typedef {import('./protocol.js').ForbiddenKind} ForbiddenKind */

/**
 * @typedef {Object} Seat an occupied seat (open seats are null)
 * @property {SeatKind} kind
 * @property {string} name the player's name, or the engine/level for machines
 * @property {string} level
 * @property {string} engine
 * @property {string} player_id
 * @property {boolean} left the player left after the game ended
 * @property {string} [rating] the player's rating in the room's pool ("1500?"), when it has one
 */
/** @typedef {{ply: number, color: Color, point: string, x: number, y: number}} Move */
/** @typedef {{x: number, y: number, point: string, kind: ForbiddenKind}} Forbidden */
/**
 * @typedef {Object} ChatLine a chat message as the page shows it
 * @property {number} seq
 * @property {import('./protocol.js').ChatChannel} channel
 * @property {string} id the author's player id ('' when an old log did not record it)
 * @property {string} name the author's name (never a colour: a rematch swaps colours)
 * @property {Color | ''} color the author's seat when written (players)
 * @property {string} text
 */
/** @typedef {{result: string, reason: string, line: string[]}} GameResult */
/** @typedef {{black: number | null, white: number | null}} ClockValues remaining ms; null: no clock */
/** @typedef {{draw: Color | null, takeback: Color | null, rematch: Color | null}} Offers */

/**
 * @typedef {Object} Game
 * @property {string} id
 * @property {string} rule
 * @property {number} size
 * @property {TimeControl} time
 * @property {boolean} takebacks
 * @property {boolean} chatAllowed
 * @property {boolean} hints
 * @property {number} firstMoveMs each side's time for its first move in a timed room
 * @property {Phase} phase
 * @property {number} gameNo
 * @property {{black: Seat | null, white: Seat | null}} seats
 * @property {Move[]} moves
 * @property {ClockValues} clocks
 * @property {GameResult | null} result
 * @property {Offers} offers
 * @property {ChatLine[]} messages
 * @property {Forbidden[]} forbidden black's renju forbidden points, from the server
 * @property {Opening} opening the room's opening rule
 * @property {OpeningStep | ''} step the opening step in progress ('' when none runs)
 * @property {number} openingPlies stones placed under the opening rule (takebacks never remove them)
 * @property {import('./protocol.js').RatingChange | null} [rating] the current game's rating change
 * @property {number} seq
 */

/** @typedef {import('./protocol.js').Opening} Opening */
/** @typedef {import('./protocol.js').OpeningStep} OpeningStep */

/** @type {Color[]} */
export const COLORS = ['black', 'white'];

/**
 * other returns the opposite colour.
 * @param {Color} c
 * @returns {Color}
 */
export function other(c) {
  return c === 'black' ? 'white' : 'black';
}

/**
 * colorOrNull reads an optional colour field ("" or absent = none).
 * @param {string | undefined} c
 * @returns {Color | null}
 */
function colorOrNull(c) {
  return c === 'black' || c === 'white' ? c : null;
}

/**
 * machineSeat returns the seat of a machine spec.
 * @param {SeatSpec} spec
 * @returns {Seat}
 */
export function machineSeat(spec) {
  const level = spec.level || '';
  const engine = spec.engine || '';
  return { kind: spec.kind, name: engine || level || 'AI', level, engine, player_id: '', left: false };
}

/**
 * ratingOf returns a player's displayed rating as seat fields (none when it has none).
 * @param {import('./protocol.js').Player} p
 * @returns {{rating?: string}}
 */
function ratingOf(p) {
  return p.rating ? { rating: p.rating } : {};
}

/**
 * seatFromInfo turns a snapshot seat into a Seat, or null when it is an open human seat.
 * @param {import('./protocol.js').SeatInfo} info
 * @returns {Seat | null}
 */
export function seatFromInfo(info) {
  if (info.spec.kind !== 'human') return machineSeat(info.spec);
  if (!info.player) return null;
  return { kind: 'human', name: info.player.name, level: '', engine: '', player_id: info.player.id, left: !!info.left, ...ratingOf(info.player) };
}

/**
 * toMove turns a point played at ply into a Move.
 * @param {string} point
 * @param {number} ply
 * @param {number} size
 * @returns {Move}
 */
function toMove(point, ply, size) {
  const xy = parseNotation(point, size) || { x: -1, y: -1 };
  return { ply, color: ply % 2 === 0 ? 'black' : 'white', point, x: xy.x, y: xy.y };
}

/**
 * forbiddenFrom reads the server's forbidden points (absent = none).
 * @param {import('./protocol.js').ForbiddenPoint[] | undefined} list
 * @param {number} size
 * @returns {Forbidden[]}
 */
export function forbiddenFrom(list, size) {
  const out = [];
  for (const f of list || []) {
    const xy = parseNotation(f.point, size);
    if (xy) out.push({ ...xy, point: f.point, kind: f.kind });
  }
  return out;
}

/**
 * clockValues reads a {black_ms, white_ms} pair; no pair means no clock.
 * @param {import('./protocol.js').Clocks | undefined} c
 * @returns {ClockValues}
 */
export function clockValues(c) {
  return c ? { black: c.black_ms, white: c.white_ms } : { black: null, white: null };
}

/**
 * emptyGame returns a model with no moves.
 * @returns {Game}
 */
export function emptyGame(id = '', size = 15) {
  return {
    id, rule: 'freestyle', size, time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 },
    takebacks: true, chatAllowed: true, hints: false, firstMoveMs: 30000,
    phase: 'waiting', gameNo: 1,
    seats: { black: null, white: null },
    moves: [],
    clocks: { black: null, white: null },
    result: null,
    offers: { draw: null, takeback: null, rematch: null },
    messages: [],
    forbidden: [],
    opening: 'none', step: '', openingPlies: 0,
    seq: 0,
  };
}

/**
 * firstStep returns the step a new game starts with under opening rule o.
 * @param {Opening} o
 * @returns {OpeningStep | ''}
 */
function firstStep(o) {
  return o === 'swap' || o === 'swap2' ? 'place3' : '';
}

/**
 * stepActor returns the seat that acts in an opening step: the first player (black while
 * the opening runs) places three stones and makes the last choice, the second (white)
 * chooses and places two more.
 * @param {OpeningStep} step
 * @returns {Color}
 */
export function stepActor(step) {
  return step === 'place3' || step === 'choose2' ? 'black' : 'white';
}

/**
 * choicesFor lists the choices of the viewer in the current opening step ([] when it
 * has none to make).
 * @param {Game} g
 * @param {Role} role
 * @returns {('black' | 'white' | 'place2')[]}
 */
export function choicesFor(g, role) {
  if (g.phase !== 'playing' || (g.step !== 'choose' && g.step !== 'choose2') || stepActor(g.step) !== role) return [];
  return g.step === 'choose' && g.opening === 'swap2' ? ['black', 'white', 'place2'] : ['black', 'white'];
}

/**
 * withSettings copies the room settings into the model.
 * @param {Game} g
 * @param {Settings} st
 * @returns {Game}
 */
function withSettings(g, st) {
  return {
    ...g, rule: st.rule, size: st.size, time: st.time, takebacks: st.takebacks, chatAllowed: st.chat, hints: st.hints,
    opening: st.opening || 'none', firstMoveMs: st.first_move_ms || 30000,
  };
}

/**
 * baseClocks returns both clocks at the room's base time (the waiting room), or no clock.
 * @param {TimeControl} tc
 * @returns {ClockValues}
 */
export function baseClocks(tc) {
  return tc && tc.base_ms > 0 ? { black: tc.base_ms, white: tc.base_ms } : { black: null, white: null };
}

/**
 * openingMoves returns the moves of a started/rematch event's opening stones.
 * @param {string[] | undefined} opening
 * @param {number} size
 * @returns {Move[]}
 */
function openingMoves(opening, size) {
  return (opening || []).map((p, i) => toMove(p, i, size));
}

/**
 * fromSnapshot builds the model from a room snapshot.
 * The snapshot carries the latest chat lines; later ones come from events.
 * @param {Snapshot} room
 * @returns {Game}
 */
export function fromSnapshot(room) {
  const g = withSettings(emptyGame(room.id, room.settings.size), room.settings);
  g.gameNo = room.game;
  g.phase = room.phase;
  g.seats = { black: seatFromInfo(room.black), white: seatFromInfo(room.white) };
  g.moves = room.moves.map((p, i) => toMove(p, i, g.size));
  g.clocks = clockValues(room.clock);
  if (room.result) g.result = { result: room.result, reason: room.reason || '', line: room.line || [] };
  g.rating = room.rating || null;
  g.offers = {
    draw: colorOrNull(room.draw_offer), takeback: colorOrNull(room.takeback_request), rematch: colorOrNull(room.rematch_offer),
  };
  g.forbidden = forbiddenFrom(room.forbidden, g.size);
  g.messages = (room.chat || []).map((c) => ({
    seq: c.seq, channel: c.channel === 'players' ? 'players' : 'spectators', id: c.player ? c.player.id : '',
    name: c.player ? c.player.name : '', color: colorOrNull(c.color) || '', text: c.text,
  }));
  g.step = room.phase === 'playing' ? room.opening || '' : '';
  g.openingPlies = room.opening_plies || 0;
  g.seq = room.seq;
  return g;
}

/**
 * turn returns the seat to act: the colour to move, or during an opening the seat whose
 * step it is (whatever colour of stone that step places: stoneColor).
 * @param {Game} g
 * @returns {Color}
 */
export function turn(g) {
  return g.step ? stepActor(g.step) : stoneColor(g);
}

/**
 * stoneColor returns the colour of the next stone on the board.
 * @param {Game} g
 * @returns {Color}
 */
export function stoneColor(g) {
  return g.moves.length % 2 === 0 ? 'black' : 'white';
}

/** The page keeps the latest MAX_CHAT_LINES chat lines. */
export const MAX_CHAT_LINES = 200;

/**
 * chatLine reads a chat event in the model before it. An event of a log older than
 * `player`/`channel` names a player by colour only (the author is whoever held that seat
 * then) and a spectator by name only.
 * @param {Game} g
 * @param {RoomEvent} ev
 * @returns {ChatLine}
 */
export function chatLine(g, ev) {
  const color = colorOrNull(ev.color);
  const seat = color ? g.seats[color] : null;
  const author = ev.player || (seat ? { id: seat.player_id, name: seat.name } : { id: '', name: ev.name || '' });
  const channel = ev.channel === 'players' || (!ev.channel && color) ? 'players' : 'spectators';
  return { seq: ev.seq, channel, id: author.id, name: author.name, color: color || '', text: ev.text || '' };
}

/**
 * applyEvent returns the model after one persisted event (docs/protocol.md "Event").
 * Unknown kinds leave the model unchanged except for seq.
 * @param {Game} g0
 * @param {RoomEvent} ev
 * @returns {Game}
 */
export function applyEvent(g0, ev) {
  const g = { ...g0, seq: ev.seq, offers: { ...g0.offers }, seats: { ...g0.seats } };
  const color = colorOrNull(ev.color);
  switch (ev.kind) {
    case 'created': {
      if (!ev.settings) return g;
      const s = withSettings(g, ev.settings);
      s.clocks = baseClocks(s.time); // the waiting room shows the configured time
      for (const c of COLORS) s.seats[c] = ev.settings[c].kind === 'human' ? null : machineSeat(ev.settings[c]);
      return s;
    }
    case 'seated':
      if (color && ev.player) g.seats[color] = { kind: 'human', name: ev.player.name, level: '', engine: '', player_id: ev.player.id, left: false, ...ratingOf(ev.player) };
      return g;
    case 'left': {
      // Leaving while waiting opens the seat; after a game the player is shown as gone.
      const seat = color && g.seats[color];
      if (seat) g.seats[color] = g.phase === 'waiting' ? null : { ...seat, left: true };
      if (g.phase !== 'waiting') g.offers.rematch = null;
      return g;
    }
    case 'started':
      g.phase = 'playing';
      g.step = firstStep(g.opening);
      g.openingPlies = 0;
      if (ev.clock) g.clocks = clockValues(ev.clock);
      if (ev.opening_stones) g.moves = openingMoves(ev.opening_stones, g.size);
      return g;
    case 'move': {
      // The server's ply is the truth; a model out of step keeps what the server says.
      g.moves = [...g.moves.slice(0, ev.ply), toMove(ev.point || '', ev.ply, g.size)];
      if (ev.clock) g.clocks = clockValues(ev.clock);
      g.offers.draw = null;
      g.offers.takeback = null;
      g.forbidden = forbiddenFrom(ev.forbidden, g.size);
      if (g.step) g.openingPlies = ev.ply + 1;
      g.step = g.step ? ev.opening || g.step : '';
      return g;
    }
    case 'opening_choice':
      if (ev.opening) g.step = ev.opening;
      if (ev.clock) g.clocks = clockValues(ev.clock);
      return g;
    case 'colors':
      if (ev.swap) g.seats = { black: g.seats.white, white: g.seats.black };
      if (ev.clock) g.clocks = clockValues(ev.clock);
      g.step = '';
      return g;
    case 'draw_offered':
      g.offers.draw = color;
      return g;
    case 'draw_declined':
      g.offers.draw = null;
      return g;
    case 'takeback_requested':
      g.offers.takeback = color;
      return g;
    case 'takeback_declined':
      g.offers.takeback = null;
      return g;
    case 'takeback':
      g.moves = g.moves.slice(0, Math.max(0, g.moves.length - (ev.plies || 0)));
      if (ev.clock) g.clocks = clockValues(ev.clock);
      g.offers.draw = null;
      g.offers.takeback = null;
      g.forbidden = forbiddenFrom(ev.forbidden, g.size);
      return g;
    case 'chat':
      if (!ev.text) return g;
      g.messages = [...g.messages.slice(-(MAX_CHAT_LINES - 1)), chatLine(g0, ev)];
      return g;
    case 'game_over':
      g.phase = 'over';
      g.result = { result: ev.result || 'draw', reason: ev.reason || '', line: ev.line || [] };
      g.offers = { draw: null, takeback: null, rematch: null };
      if (ev.clock) g.clocks = clockValues(ev.clock);
      g.forbidden = [];
      return g;
    case 'rematch_offered':
      g.offers.rematch = color;
      return g;
    case 'rating':
      g.rating = changeOf(ev, g.gameNo) || g.rating || null;
      return g;
    case 'rematch':
      // The seats swap colours unless the last game's opening swapped them (keep_seats).
      return {
        ...g, phase: 'playing', gameNo: ev.game, moves: openingMoves(ev.opening_stones, g.size), result: null, rating: null,
        seats: ev.keep_seats ? g.seats : { black: g.seats.white, white: g.seats.black },
        offers: { draw: null, takeback: null, rematch: null },
        clocks: clockValues(ev.clock), forbidden: [], step: firstStep(g.opening), openingPlies: 0,
      };
    default:
      return g;
  }
}

/**
 * winLine returns the winning stones as {x, y} (from the result's line).
 * @param {Game} g
 * @returns {{x: number, y: number}[]}
 */
export function winLine(g) {
  if (!g.result || g.result.reason !== 'five') return [];
  const out = [];
  for (const p of g.result.line) {
    const xy = parseNotation(p, g.size);
    if (xy) out.push(xy);
  }
  return out;
}

/**
 * isPlayer tells whether role is a seat colour.
 * @param {string} role
 * @returns {role is Color}
 */
export function isPlayer(role) {
  return role === 'black' || role === 'white';
}

/**
 * aiSeat returns the colour of the first machine seat, or null.
 * @param {Game} g
 * @returns {Color | null}
 */
export function aiSeat(g) {
  for (const c of COLORS) {
    const s = g.seats[c];
    if (s && s.kind !== 'human') return c;
  }
  return null;
}

/**
 * canPlay tells whether the viewer may place a stone now (not while an opening waits
 * for a choice).
 * @param {Game} g
 * @param {Role} role
 */
export function canPlay(g, role) {
  return g.phase === 'playing' && isPlayer(role) && turn(g) === role && g.step !== 'choose' && g.step !== 'choose2';
}

/**
 * openSeats lists the colours without a player.
 * @param {Game} g
 * @returns {Color[]}
 */
export function openSeats(g) {
  return COLORS.filter((c) => !g.seats[c]);
}

/**
 * stonesAt lists the stones of the first n moves for the board: [{x, y, color, n, point}].
 * @param {Game} g
 * @returns {{x: number, y: number, color: Color, n: number, point: string}[]}
 */
export function stonesAt(g, n = g.moves.length) {
  return g.moves.slice(0, n).filter((m) => m.x >= 0).map((m, i) => ({ x: m.x, y: m.y, color: m.color, n: i + 1, point: m.point }));
}
