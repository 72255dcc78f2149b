// fixtures.js: protocol-shaped messages for the tests (docs/protocol.md; no tests of its own).

/** settings returns room Settings (renju vs the AI unless changed). */
export function settings(over = {}) {
  return {
    rule: 'renju', size: 15, time: { base_ms: 300000, increment_ms: 5000, per_move_ms: 0 },
    black: { kind: 'human' }, white: { kind: 'ai', level: 'master' },
    public: true, takebacks: true, chat: true, hints: true, ...over,
  };
}

/** snapshot returns a room Snapshot as the server sends it: Alice (black) vs the AI, 3 moves. */
export function snapshot(over = {}) {
  return {
    id: 'r9', seq: 7, game: 1, phase: 'playing', status: 'live',
    settings: settings(),
    black: { spec: { kind: 'human' }, player: { id: 'p_1', name: 'Alice' } },
    white: { spec: { kind: 'ai', level: 'master' } },
    moves: ['h8', 'i9', 'h9'], ply: 3, to_move: 'white',
    clock: { black_ms: 290000, white_ms: 298000, running: true, to_move: 'white', at: 1700000000000 },
    draw_offer: 'black',
    presence: { black: { connected: true, since: 1, grace_ms: 60000 }, white: { connected: true, since: 1, grace_ms: 0 }, spectators: 4 },
    created_at: 1, updated_at: 2,
    ...over,
  };
}

/** event returns a persisted Event of kind with the common fields. */
export function event(seq, kind, fields = {}) {
  return { seq, kind, at: 1700000000000 + seq * 1000, game: 1, ply: 0, ...fields };
}
