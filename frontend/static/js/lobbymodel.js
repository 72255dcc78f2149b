// @ts-check
// lobbymodel.js: a lobby entry as the lobby draws it, from a room summary (pure).
import { machineSeat } from './state.js';

/** @typedef {import('./protocol.js').Summary} Summary */
/** @typedef {import('./protocol.js').TimeControl} TimeControl */
/** @typedef {import('./protocol.js').Opening} Opening */
/** @typedef {import('./state.js').Seat} Seat */

/**
 * @typedef {Object} LobbyRoom a lobby entry as the lobby draws it
 * @property {string} id
 * @property {string} rule
 * @property {number} size
 * @property {TimeControl} time
 * @property {import('./protocol.js').RoomStatus} status
 * @property {Seat | null} black
 * @property {Seat | null} white
 * @property {number} moves
 * @property {string} result
 * @property {string} reason
 * @property {Opening} opening the room's opening rule
 */

/**
 * fromSummary turns a lobby summary (GET /api/rooms) into a LobbyRoom.
 * @param {Summary} s
 * @returns {LobbyRoom}
 */
export function fromSummary(s) {
  /** @param {import('./protocol.js').SeatSummary} seat */
  const seat = (seat) => {
    if (seat.kind !== 'human') return machineSeat(seat);
    if (!seat.player_id) return null;
    return { kind: seat.kind, name: seat.name || '', level: '', engine: '', player_id: seat.player_id, left: false, ...(seat.rating ? { rating: seat.rating } : {}) };
  };
  return {
    id: s.id, rule: s.rule, size: s.size, time: s.time, status: s.status, opening: s.opening || 'none',
    black: seat(s.black), white: seat(s.white), moves: s.ply, result: s.result || '', reason: s.reason || '',
  };
}
