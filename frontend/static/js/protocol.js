// @ts-check
// protocol.js: the WebSocket wire protocol of docs/protocol.md: JSDoc types of every message
// and object the server sends, encode/decode, hello, the room's URL. What a client keeps
// across reconnections (sequence, pending moves, backoff) is in resume.js.
// No DOM, no WebSocket: everything here is testable under `node --test`.

// ---- Objects (docs/protocol.md section 4) ----

/** @typedef {'black' | 'white'} Color */
/** @typedef {'freestyle' | 'standard' | 'renju'} Rule */
/** @typedef {'human' | 'ai' | 'engine'} SeatKind */
/** @typedef {'waiting' | 'playing' | 'over'} Phase */
/** @typedef {'open' | 'live' | 'finished'} RoomStatus */
/** @typedef {'black' | 'white' | 'draw' | 'aborted'} Result */
/** @typedef {'double_three' | 'double_four' | 'overline'} ForbiddenKind */
/** @typedef {'none' | 'swap' | 'swap2'} Opening the opening rule (section 4, "Opening rules") */
/** @typedef {'place3' | 'choose' | 'place2' | 'choose2'} OpeningStep */
/** @typedef {'black' | 'white' | 'place2'} OpeningChoice */

/** @typedef {{base_ms: number, increment_ms: number, per_move_ms: number}} TimeControl */
/** @typedef {{kind: SeatKind, level?: string, engine?: string}} SeatSpec */
/** @typedef {{id: string, name: string, account?: boolean, rating?: string}} Player rating: in the room's pool, as displayed ("1500?") */
/** @typedef {{before: number, after: number, provisional?: boolean}} RatingDelta */
/** @typedef {{pool: string, black: RatingDelta, white: RatingDelta}} RatingChange a rated game's change */

/**
 * @typedef {Object} Settings
 * @property {Rule} rule
 * @property {number} size 15..20
 * @property {TimeControl} time
 * @property {SeatSpec} black the seats of game 1; a rematch swaps them
 * @property {SeatSpec} white
 * @property {boolean} public
 * @property {boolean} takebacks
 * @property {boolean} chat
 * @property {boolean} hints
 * @property {Opening} [opening] absent in rooms stored before opening rules: none
 * @property {number} [first_move_ms] each side's time for its first move in a timed room (its clock starts with that move)
 * @property {number} [ai_pace_ms] AI vs AI: least time between two moves
 */

/** @typedef {{spec: SeatSpec, player?: Player, left?: boolean}} SeatInfo a human seat without player is open */

/**
 * @typedef {Object} ClockSnapshot remaining times as of `at`; while running, to_move loses now - at
 * @property {number} black_ms
 * @property {number} white_ms
 * @property {boolean} running
 * @property {Color} [to_move]
 * @property {number} at server time, Unix ms
 * @property {number} [deadline_ms] when the side to move flags, Unix ms
 * @property {number} [first_move_deadline_ms] before the side to move's first move (its clock not running): when the game is aborted, Unix ms
 */

/** @typedef {{black_ms: number, white_ms: number}} Clocks */

/** @typedef {{point: string, kind: ForbiddenKind}} ForbiddenPoint a renju forbidden point for black */

/** @typedef {{connected: boolean, since: number, grace_ms: number, claimable?: boolean}} SeatPresence */
/** @typedef {{black: SeatPresence, white: SeatPresence, spectators: number}} Presence */

/**
 * @typedef {Object} Snapshot the full state of a room (snapshot.room, GET /api/rooms/{id})
 * @property {string} id
 * @property {number} seq
 * @property {number} game
 * @property {Phase} phase
 * @property {RoomStatus} status
 * @property {Settings} settings
 * @property {SeatInfo} black
 * @property {SeatInfo} white
 * @property {string[]} moves moves[i] was played at ply i
 * @property {number} ply
 * @property {Color} [to_move]
 * @property {ClockSnapshot} [clock] only with a time control
 * @property {Color | ''} [draw_offer]
 * @property {Color | ''} [takeback_request]
 * @property {Color | ''} [rematch_offer]
 * @property {OpeningStep | ''} [opening] the opening step in progress; to_move is then the seat acting
 * @property {Color} [stone] the colour of the next stone
 * @property {number} [opening_plies] stones placed under the opening rule in this game
 * @property {Result | ''} [result]
 * @property {string} [reason]
 * @property {string[]} [line]
 * @property {ForbiddenPoint[]} [forbidden]
 * @property {Presence} [presence]
 * @property {ChatEntry[]} [chat] the latest chat lines, oldest first
 * @property {RatingChange} [rating] the current game's rating change (rated rooms, once recorded)
 * @property {number} created_at
 * @property {number} updated_at
 */

/** @typedef {'players' | 'spectators'} ChatChannel */

/**
 * @typedef {Object} ChatEntry a chat line of the snapshot (fields as in the chat event)
 * @property {number} seq
 * @property {number} at
 * @property {ChatChannel} channel
 * @property {Player} player the author (id empty for a spectator's line of an old log)
 * @property {Color} [color] the author's seat at the time (players)
 * @property {string} text
 */

/** @typedef {{kind: SeatKind, level?: string, engine?: string, player_id?: string, name?: string, rating?: string}} SeatSummary */

/**
 * @typedef {Object} Summary a lobby entry (GET /api/rooms)
 * @property {string} id
 * @property {RoomStatus} status
 * @property {boolean} public
 * @property {Rule} rule
 * @property {number} size
 * @property {TimeControl} time
 * @property {Opening} [opening] swap or swap2 (absent: none)
 * @property {SeatSummary} black
 * @property {SeatSummary} white
 * @property {number} game
 * @property {number} ply
 * @property {Result | ''} [result]
 * @property {string} [reason]
 * @property {number} seq
 */

/**
 * @typedef {'created' | 'seated' | 'left' | 'started' | 'move' | 'draw_offered' | 'draw_declined'
 *   | 'takeback_requested' | 'takeback_declined' | 'takeback' | 'chat' | 'game_over'
 *   | 'rematch_offered' | 'rematch' | 'opening_choice' | 'colors' | 'rating'} EventKind
 */

/**
 * @typedef {Object} RoomEvent a persisted event; the fields after `ply` depend on `kind`
 * @property {number} seq
 * @property {EventKind} kind
 * @property {number} at server time, Unix ms
 * @property {number} game
 * @property {number} ply stones on the board before the event (move: the ply it was played at)
 * @property {string} [room] created
 * @property {Settings} [settings] created
 * @property {Color} [color]
 * @property {Player} [player] seated, left; chat: the author
 * @property {string} [point] move
 * @property {number} [clock_ms] move: the mover's time left
 * @property {Clocks} [clock] started, move, takeback, game_over, rematch (timed games)
 * @property {number} [plies] takeback
 * @property {ChatChannel} [channel] chat
 * @property {string} [name] chat by a spectator in logs older than `player` and `channel`
 * @property {string[]} [opening_stones] started, rematch: the stones the game starts from (AI vs AI)
 * @property {string} [text] chat
 * @property {Result} [result] game_over
 * @property {string} [reason] game_over
 * @property {string[]} [line] game_over by five
 * @property {ForbiddenPoint[]} [forbidden] move, takeback
 * @property {OpeningStep} [opening] move, opening_choice: the opening step after the event
 * @property {OpeningChoice} [choice] opening_choice
 * @property {boolean} [swap] colors: the seats exchanged colours
 * @property {boolean} [keep_seats] rematch: the seats keep their colours
 * @property {RatingChange} [rating] rating: the change of game `game`
 */

// ---- Server -> client messages (section 5) ----

/** @typedef {Color | 'spectator'} Role */
/** @typedef {{type: 'welcome', room_id: string, you: {role: Role, player_id?: string, name?: string}}} WelcomeMessage */
/** @typedef {{type: 'snapshot', seq: number, room: Snapshot}} SnapshotMessage */
/** @typedef {{type: 'event', seq: number, event: RoomEvent}} EventMessage */
/** @typedef {{type: 'ack', id: string, seq: number, duplicate?: boolean}} AckMessage */
/** @typedef {{type: 'error', id: string, code: string, message: string, local?: boolean}} ErrorMessage local: made up by the page */
/** @typedef {{type: 'resync'}} ResyncMessage */
/**
 * @typedef {Object} AIMessage AI progress (ephemeral)
 * @property {'ai'} type
 * @property {Color} color
 * @property {'queued' | 'thinking'} status
 * @property {number} depth
 * @property {number} seldepth
 * @property {number} score centi-stones, the AI's view
 * @property {number} mate plies to a forced result, + the AI wins; 0 when none
 * @property {number} nodes
 * @property {number} nps
 * @property {string[] | null} pv
 * @property {number} elapsed_ms
 * @property {number} budget_ms 0 until known
 * @property {number} ply the ply the search is for
 */
/** @typedef {{type: 'presence'} & Presence} PresenceMessage */
/** @typedef {{type: 'hint', id: string, point: string, score: number}} HintMessage */
/** @typedef {{type: 'pong', id?: string}} PongMessage */
/**
 * @typedef {WelcomeMessage | SnapshotMessage | EventMessage | AckMessage | ErrorMessage
 *   | ResyncMessage | AIMessage | PresenceMessage | HintMessage | PongMessage} ServerMessage
 */

// ---- Client -> server commands ----

/**
 * @typedef {{type: 'hello', id?: string, token?: string, last_seq?: number}
 *   | {type: 'sit', id?: string, color: Color}
 *   | {type: 'move', id?: string, ply: number, point: string}
 *   | {type: 'chat', id?: string, text: string}
 *   | {type: 'choose', id?: string, choice: OpeningChoice}
 *   | {type: 'resign' | 'draw_offer' | 'draw_accept' | 'draw_decline' | 'takeback_request'
 *       | 'takeback_accept' | 'takeback_decline' | 'rematch' | 'abort' | 'claim_victory'
 *       | 'hint' | 'ping', id?: string}} ClientMessage
 */

/** Client → server message types that docs/protocol.md defines. */
export const CLIENT_TYPES = new Set([
  'hello', 'sit', 'move', 'resign',
  'draw_offer', 'draw_accept', 'draw_decline',
  'takeback_request', 'takeback_accept', 'takeback_decline',
  'rematch', 'abort', 'claim_victory', 'chat', 'hint', 'ping', 'choose',
]);

/** Server → client message types. */
export const SERVER_TYPES = new Set([
  'welcome', 'snapshot', 'event', 'ack', 'error', 'resync', 'ai', 'presence', 'hint', 'pong',
]);

/** Maximum size of a client frame in bytes (protocol: 4 KiB). */
export const MAX_FRAME = 4096;
/** Maximum chat length in characters. */
export const MAX_CHAT = 300;

/** ProtocolError is thrown by encode/decode for malformed messages; code is a protocol error code. */
export class ProtocolError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
  }
}

/**
 * encode turns a client command into a JSON text frame.
 * It refuses unknown types and frames over MAX_FRAME bytes.
 * @param {ClientMessage} msg
 * @returns {string}
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
  if (msg.type === 'choose' && !['black', 'white', 'place2'].includes(msg.choice)) {
    throw new ProtocolError('bad_request', 'choose needs a choice: black, white or place2');
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

/**
 * utf8Length returns the UTF-8 byte length of a string.
 * @param {string} s
 */
export function utf8Length(s) {
  let n = 0;
  for (const ch of s) {
    const c = /** @type {number} */ (ch.codePointAt(0));
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** @typedef {{type: string, unknown: true}} UnknownMessage a server message type this page does not know */

const isObject = (/** @type {unknown} */ v) => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Required fields of each server message type (docs/protocol.md section 5): a message
 * without them is malformed. Other fields are optional or may be omitted when empty.
 * @type {Record<string, (m: any) => boolean>}
 */
const WELL_FORMED = {
  welcome: (m) => isObject(m.you) && typeof m.you.role === 'string',
  snapshot: (m) => Number.isInteger(m.seq) && isObject(m.room) && isObject(m.room.settings) &&
    Array.isArray(m.room.moves) && isObject(m.room.black) && isObject(m.room.white),
  event: (m) => Number.isInteger(m.seq) && isObject(m.event) && typeof m.event.kind === 'string',
  ack: (m) => typeof m.id === 'string',
  error: (m) => typeof m.code === 'string',
  ai: (m) => typeof m.color === 'string',
  presence: (m) => isObject(m.black) && isObject(m.white),
  hint: (m) => typeof m.point === 'string',
  resync: () => true,
  pong: () => true,
};

/**
 * decode parses a server frame. It throws ProtocolError on bad JSON, a message without a
 * type, or a known type without its required fields; unknown types are returned as-is
 * (forward compatible) with `unknown: true`.
 * @param {string} text
 * @returns {ServerMessage | UnknownMessage}
 */
export function decode(text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch (e) {
    throw new ProtocolError('bad_json', 'server sent malformed JSON');
  }
  if (!isObject(msg) || typeof msg.type !== 'string') {
    throw new ProtocolError('bad_json', 'server message without a type');
  }
  if (!SERVER_TYPES.has(msg.type)) {
    return { ...msg, unknown: true };
  }
  if (!WELL_FORMED[msg.type](msg)) {
    throw new ProtocolError('bad_json', `malformed ${msg.type} message`);
  }
  return msg;
}

/**
 * hello builds the first message of a connection.
 * @param {string} token
 * @param {number} lastSeq
 * @returns {ClientMessage}
 */
export function hello(token, lastSeq) {
  /** @type {{type: 'hello', token?: string, last_seq?: number}} */
  const m = { type: 'hello' };
  if (token) m.token = token;
  if (lastSeq > 0) m.last_seq = lastSeq;
  return m;
}

/**
 * wsURL builds the WebSocket URL of a room from the page location.
 * @param {{protocol: string, host: string}} loc
 * @param {string} roomId
 */
export function wsURL(loc, roomId) {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/ws/rooms/${encodeURIComponent(roomId)}`;
}
