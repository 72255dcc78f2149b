// state.js: the game model the page renders, built from a snapshot and updated by events (pure).
// Field names follow docs/protocol.md.

import { parseNotation } from './geometry.js';
import { boardFrom, winningLine, newBoard, set, colorCode } from './rules.js';

export const COLORS = ['black', 'white'];

/** other returns the opposite colour. */
export function other(c) {
  return c === 'black' ? 'white' : c === 'white' ? 'black' : c;
}

function num(v) {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** normalizePhase maps server phase/status words onto waiting | playing | finished. */
export function normalizePhase(p) {
  switch (String(p || '').toLowerCase()) {
    case 'playing': case 'live': case 'started': case 'running': case 'active':
      return 'playing';
    case 'finished': case 'over': case 'game_over': case 'ended': case 'aborted': case 'done':
      return 'finished';
    default:
      return 'waiting';
  }
}

/**
 * normalizeSeat turns a seat into {kind, name, level, engine, player_id, left} or null when open.
 * Accepts the snapshot's SeatInfo {spec:{kind,level,engine}, player:{id,name}, left}, the lobby's
 * SeatSummary {kind, level, engine, player_id, name}, or a plain name.
 */
export function normalizeSeat(s, specFallback) {
  if (!s && !specFallback) return null;
  if (typeof s === 'string') return s ? { kind: 'human', name: s, level: '', engine: '', player_id: '', left: false } : null;
  const o = s || {};
  const sp = o.spec || specFallback || {};
  const kind = sp.kind || o.kind || (o.level ? 'ai' : 'human');
  const level = sp.level || o.level || '';
  const engine = sp.engine || o.engine || '';
  if (kind === 'human') {
    const p = o.player && typeof o.player === 'object' ? o.player : {};
    const name = p.name || o.name || o.player_name || (typeof o.player === 'string' ? o.player : '');
    const id = p.id || o.player_id || '';
    if (!name && !id) return null;
    return { kind, name: name || '?', level: '', engine: '', player_id: id, left: !!o.left };
  }
  return { kind, name: engine || level || 'AI', level, engine, player_id: '', left: false };
}

/** normalizeMove turns "h8" or {point, color, ply, clock_ms} into a full move. */
export function normalizeMove(m, i, size) {
  const point = typeof m === 'string' ? m : (m.point || m.p || m.move);
  const xy = parseNotation(point, size) || { x: -1, y: -1 };
  return {
    ply: typeof m === 'object' && Number.isInteger(m.ply) ? m.ply : i,
    color: (typeof m === 'object' && m.color) || (i % 2 === 0 ? 'black' : 'white'),
    point, x: xy.x, y: xy.y,
    clock_ms: typeof m === 'object' ? num(m.clock_ms) : null,
  };
}

function clockValue(v) {
  if (v == null) return null;
  if (typeof v === 'number') return v;
  return num(v.ms ?? v.remaining_ms ?? v.left_ms ?? v.clock_ms);
}

/** clockPair reads {black_ms, white_ms} (or {black, white}) into {black, white}; null if absent. */
export function clockPair(c) {
  if (!c || typeof c !== 'object') return null;
  const b = clockValue(c.black_ms ?? c.black);
  const w = clockValue(c.white_ms ?? c.white);
  if (b == null && w == null) return null;
  return { black: b, white: w };
}

function normalizeResult(r, room) {
  if (!r && !room.winner && !room.reason) return null;
  const o = typeof r === 'string' ? { result: r } : (r || {});
  return {
    result: o.result || o.winner || room.winner || 'draw',
    reason: o.reason || room.reason || '',
    line: o.line || room.line || [],
  };
}

/** emptyGame returns a model with no moves. */
export function emptyGame(id = '', size = 15) {
  return {
    id, rule: 'freestyle', size, time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 },
    public: true, takebacks: true, chatAllowed: true, hints: null,
    phase: 'waiting', gameNo: 1,
    seats: { black: null, white: null },
    moves: [],
    clocks: { black: null, white: null },
    result: null,
    offers: { draw: null, takeback: null, rematch: null },
    messages: [],
    spectators: 0,
    presence: null,
    clockRunning: false,
    seq: 0,
  };
}

/** fromSnapshot builds the model from a room snapshot (docs/protocol.md, "Snapshot") and its seq. */
export function fromSnapshot(room, seq = 0) {
  const st = room.settings || room.config || room;
  const size = num(st.size) || num(room.size) || 15;
  const g = emptyGame(room.id || room.room_id || '', size);
  g.rule = st.rule || room.rule || 'freestyle';
  g.time = { ...g.time, ...(st.time || room.time || {}) };
  g.public = st.public ?? room.public ?? true;
  g.takebacks = st.takebacks ?? room.takebacks ?? true;
  g.chatAllowed = st.chat ?? room.chat_enabled ?? true;
  g.hints = st.hints ?? room.hints ?? null;
  g.gameNo = num(room.game) || num(room.game_no) || 1;
  const seats = room.seats || {};
  g.seats = {
    black: normalizeSeat(seats.black ?? room.black, st.black),
    white: normalizeSeat(seats.white ?? room.white, st.white),
  };
  g.moves = (room.moves || []).map((m, i) => normalizeMove(m, i, size));
  const clocks = room.clocks || room.clock || {};
  for (const c of COLORS) {
    let v = clockValue(clocks[c] ?? clocks[`${c}_ms`] ?? room[`${c}_ms`]);
    if (v == null && (g.time.base_ms || g.time.per_move_ms)) v = g.time.base_ms || g.time.per_move_ms;
    g.clocks[c] = v;
  }
  g.result = normalizeResult(room.result, room);
  g.phase = normalizePhase(room.phase || room.status || (g.result ? 'finished' : ''));
  if (g.result) g.phase = 'finished';
  const offers = room.offers || room.pending || {};
  g.offers = {
    draw: offers.draw ?? room.draw_offer ?? null,
    takeback: offers.takeback ?? room.takeback_request ?? null,
    rematch: offers.rematch ?? room.rematch_offer ?? null,
  };
  g.messages = (room.chat_log || room.messages || (Array.isArray(room.chat) ? room.chat : [])).map(chatEntry);
  g.presence = room.presence || null;
  g.spectators = num(room.spectators) ?? num(room.presence && room.presence.spectators) ?? 0;
  g.clockRunning = !!(room.clock && room.clock.running);
  g.seq = seq || num(room.seq) || 0;
  return g;
}

function chatEntry(e) {
  return { color: e.color || '', name: e.name || e.from || '', text: String(e.text || '') };
}

/** turn returns the colour to move. */
export function turn(g) {
  return g.moves.length % 2 === 0 ? 'black' : 'white';
}

/** lastMove returns the last move or null. */
export function lastMove(g) {
  return g.moves.length ? g.moves[g.moves.length - 1] : null;
}

/**
 * applyEvent returns the model after one persisted event (docs/protocol.md "Event kinds").
 * Unknown kinds leave the model unchanged except for seq.
 */
export function applyEvent(g0, ev, seq = g0.seq + 1) {
  const g = { ...g0, seq, offers: { ...g0.offers }, seats: { ...g0.seats }, clocks: { ...g0.clocks } };
  switch (ev.kind) {
    case 'created': {
      const s = ev.settings || ev.config || ev;
      for (const c of COLORS) if (s[c] && s[c].kind && s[c].kind !== 'human') g.seats[c] = normalizeSeat(null, s[c]);
      if (s.rule) g.rule = s.rule;
      if (s.size) g.size = s.size;
      if (s.time) g.time = { ...g.time, ...s.time };
      if ('public' in s) g.public = s.public;
      if ('takebacks' in s) g.takebacks = s.takebacks;
      if ('chat' in s) g.chatAllowed = s.chat;
      if ('hints' in s) g.hints = s.hints;
      for (const c of COLORS) if (g.clocks[c] == null) g.clocks[c] = g.time.base_ms || g.time.per_move_ms || null;
      break;
    }
    case 'seated':
      if (COLORS.includes(ev.color)) {
        g.seats[ev.color] = normalizeSeat({ player: ev.player, name: ev.name, player_id: ev.player_id, kind: 'human' });
      }
      break;
    case 'left':
      if (COLORS.includes(ev.color) && (!g.seats[ev.color] || g.seats[ev.color].kind === 'human')) {
        if (g.phase === 'finished') g.seats[ev.color] = { ...(g.seats[ev.color] || { kind: 'human', name: '?' }), left: true };
        else g.seats[ev.color] = null;
      }
      break;
    case 'started':
      g.phase = 'playing';
      setClocks(g, ev.clock);
      break;
    case 'move': {
      const m = normalizeMove(ev, g.moves.length, g.size);
      if (Number.isInteger(ev.ply) && ev.ply !== g.moves.length) {
        // The model is out of step; keep what the server says.
        g.moves = g.moves.slice(0, ev.ply);
      }
      g.moves = [...g.moves, m];
      g.phase = 'playing';
      if (m.clock_ms != null) g.clocks[m.color] = m.clock_ms;
      if (g.time.per_move_ms && !g.time.base_ms) g.clocks[other(m.color)] = g.time.per_move_ms;
      setClocks(g, ev.clock);
      g.offers.takeback = null;
      g.offers.draw = g.offers.draw === m.color ? g.offers.draw : null;
      break;
    }
    case 'draw_offered':
      g.offers.draw = ev.color || ev.by || 'unknown';
      break;
    case 'draw_declined':
      g.offers.draw = null;
      break;
    case 'takeback_requested':
      g.offers.takeback = ev.color || ev.by || 'unknown';
      break;
    case 'takeback_declined':
      g.offers.takeback = null;
      break;
    case 'takeback': {
      const n = num(ev.plies) ?? num(ev.count) ?? 1;
      g.moves = g.moves.slice(0, Math.max(0, g.moves.length - n));
      g.offers.takeback = null;
      setClocks(g, ev.clock || ev.clocks);
      break;
    }
    case 'chat':
      g.messages = [...g.messages, chatEntry(ev)];
      break;
    case 'game_over':
      g.phase = 'finished';
      g.result = { result: ev.result || 'draw', reason: ev.reason || '', line: ev.line || [] };
      g.offers = { draw: null, takeback: null, rematch: null };
      setClocks(g, ev.clock);
      break;
    case 'rematch_offered':
      g.offers.rematch = ev.color || ev.by || 'unknown';
      break;
    case 'rematch': {
      const swapped = { black: g.seats.white, white: g.seats.black };
      const fresh = emptyGame(g.id, g.size);
      return {
        ...fresh, rule: g.rule, time: g.time, public: g.public, takebacks: g.takebacks,
        chatAllowed: g.chatAllowed, hints: g.hints, seq, spectators: g.spectators,
        messages: g.messages, seats: swapped, phase: 'playing',
        gameNo: num(ev.game) || g.gameNo + 1,
        clocks: clockPair(ev.clock) || { black: g.time.base_ms || g.time.per_move_ms || null, white: g.time.base_ms || g.time.per_move_ms || null },
      };
    }
    default:
      break;
  }
  return g;
}

function setClocks(g, c) {
  const p = clockPair(c);
  if (!p) return;
  for (const col of COLORS) if (p[col] != null) g.clocks[col] = p[col];
}

/** boardAt returns a rules board with the first n moves (all moves if n is omitted). */
export function boardAt(g, n = g.moves.length) {
  return boardFrom(g.size, g.moves.slice(0, n).filter((m) => m.x >= 0).map((m) => ({ x: m.x, y: m.y, color: m.color })));
}

/** winLine returns the winning points as {x, y} (from the result or computed from the board). */
export function winLine(g) {
  if (!g.result || g.result.reason !== 'five') return [];
  if (g.result.line && g.result.line.length) {
    return g.result.line.map((p) => (typeof p === 'string' ? parseNotation(p, g.size) : p)).filter(Boolean);
  }
  const m = lastMove(g);
  if (!m) return [];
  return winningLine(boardAt(g), m.x, m.y, g.rule) || [];
}

/** isPlayer tells whether role is a seat colour. */
export function isPlayer(role) {
  return role === 'black' || role === 'white';
}

/** isAIGame tells whether exactly one seat is an AI and the other is you. */
export function aiSeat(g) {
  for (const c of COLORS) if (g.seats[c] && g.seats[c].kind !== 'human') return c;
  return null;
}

/**
 * status returns the status line as {key, params, tone} for the viewer's role.
 * tone: "turn" (act now), "wait", "win", "lose", "neutral".
 */
export function status(g, role, { pending = false, connection = 'open', attempt = 0 } = {}) {
  if (connection === 'connecting') return { key: 'status.connecting', params: {}, tone: 'neutral' };
  if (connection === 'reconnecting') return { key: 'status.reconnecting', params: { n: attempt }, tone: 'warn' };
  if (g.phase === 'finished' && g.result) {
    const r = g.result.result;
    const why = g.result.reason ? `reason.${g.result.reason}` : '';
    if (r === 'aborted' || g.result.reason === 'aborted') return { key: 'status.aborted', params: {}, tone: 'neutral', why: '' };
    if (r === 'draw') return { key: 'status.draw', params: {}, tone: 'neutral', why };
    if (isPlayer(role)) return { key: r === role ? 'status.youWin' : 'status.youLose', params: {}, tone: r === role ? 'win' : 'lose', why };
    return { key: 'status.wins', params: { color: r }, tone: 'neutral', why, colorParam: 'color' };
  }
  if (g.phase === 'waiting') {
    if (!g.seats.black || !g.seats.white) return { key: 'status.waitingSeat', params: {}, tone: 'wait' };
    return { key: 'status.notStarted', params: {}, tone: 'wait' };
  }
  if (pending) return { key: 'status.pending', params: {}, tone: 'wait' };
  const tm = turn(g);
  if (isPlayer(role)) {
    if (tm === role) return { key: 'status.yourTurn', params: {}, tone: 'turn' };
    const s = g.seats[tm];
    if (s && s.kind !== 'human') return { key: 'status.aiThinking', params: {}, tone: 'wait' };
    return { key: 'status.waitingOpponent', params: {}, tone: 'wait' };
  }
  return { key: 'status.toMove', params: { color: tm }, tone: 'neutral', colorParam: 'color' };
}

/** canPlay tells whether the viewer may place a stone now. */
export function canPlay(g, role) {
  return g.phase === 'playing' && isPlayer(role) && turn(g) === role;
}

/** openSeats lists the colours without a player. */
export function openSeats(g) {
  return COLORS.filter((c) => !g.seats[c]);
}

/** boardCells is a helper for renderers: [{x, y, color, n}] of the first n moves. */
export function stonesAt(g, n = g.moves.length) {
  return g.moves.slice(0, n).filter((m) => m.x >= 0).map((m, i) => ({ x: m.x, y: m.y, color: m.color, n: i + 1, point: m.point }));
}

/** normalizeSummary turns a lobby room summary into {id, rule, size, phase, black, white, moves, spectators, result, reason}. */
export function normalizeSummary(s) {
  const seats = s.seats || {};
  return {
    id: s.id || s.room_id,
    rule: s.rule || (s.settings && s.settings.rule) || 'freestyle',
    size: s.size || (s.settings && s.settings.size) || 15,
    time: s.time || (s.settings && s.settings.time) || null,
    phase: normalizePhase(s.status || s.phase),
    black: normalizeSeat(seats.black ?? s.black),
    white: normalizeSeat(seats.white ?? s.white),
    moves: num(s.ply) ?? num(s.moves) ?? num(s.move_count) ?? (Array.isArray(s.moves) ? s.moves.length : 0),
    spectators: num(s.spectators) ?? 0,
    result: (s.result && typeof s.result === 'object' ? (s.result.result || s.result.winner) : s.result) || s.winner || null,
    reason: (s.result && s.result.reason) || s.reason || '',
  };
}

// Re-exported for the renderer.
export { newBoard, set, colorCode };
