import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fromSnapshot, applyEvent, emptyGame, turn, status, canPlay, winLine, boardAt, openSeats,
  normalizeSummary, normalizePhase, aiSeat, stonesAt,
} from '../static/js/state.js';

const snap = {
  id: 'r1', rule: 'renju', size: 15, time: { base_ms: 300000, increment_ms: 5000, per_move_ms: 0 },
  phase: 'playing',
  seats: { black: { kind: 'human', name: 'Alice', player_id: 'p_a' }, white: { kind: 'ai', level: 'master', name: 'AI' } },
  moves: ['h8', 'h9'], clocks: { black: 290000, white: 295000 }, spectators: 3, seq: 6,
};

test('fromSnapshot reads the documented snapshot', () => {
  const g = fromSnapshot(snap, 6);
  assert.equal(g.id, 'r1');
  assert.equal(g.rule, 'renju');
  assert.equal(g.moves.length, 2);
  assert.deepEqual([g.moves[1].x, g.moves[1].y, g.moves[1].color], [7, 8, 'white']);
  assert.equal(g.clocks.black, 290000);
  assert.equal(g.seats.white.kind, 'ai');
  assert.equal(g.spectators, 3);
  assert.equal(g.seq, 6);
  assert.equal(turn(g), 'black');
  assert.equal(aiSeat(g), 'white');
});

test('fromSnapshot tolerates variants', () => {
  const g = fromSnapshot({
    room_id: 'r2', settings: { rule: 'standard', size: 19 }, status: 'finished',
    black: 'Bob', white: null, moves: [{ point: 'a1', color: 'black', ply: 0 }],
    result: { winner: 'black', reason: 'resign' },
  });
  assert.equal(g.id, 'r2');
  assert.equal(g.size, 19);
  assert.equal(g.phase, 'finished');
  assert.equal(g.seats.black.name, 'Bob');
  assert.equal(g.seats.white, null);
  assert.deepEqual(openSeats(g), ['white']);
  assert.equal(g.result.result, 'black');
  assert.equal(g.clocks.black, null, 'no time control');
});

test('events build a game from scratch', () => {
  let g = emptyGame('r3');
  const evs = [
    { kind: 'created', rule: 'freestyle', size: 15, time: { base_ms: 60000, increment_ms: 0 } },
    { kind: 'seated', color: 'black', name: 'A' },
    { kind: 'seated', color: 'white', name: 'B' },
    { kind: 'started' },
    ...['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4'].map((p, i) => ({ kind: 'move', color: i % 2 ? 'white' : 'black', point: p, ply: i, clock_ms: 50000 - i })),
    { kind: 'move', color: 'black', point: 'l8', ply: 8, clock_ms: 40000 },
    { kind: 'game_over', result: 'black', reason: 'five', line: ['h8', 'i8', 'j8', 'k8', 'l8'] },
  ];
  evs.forEach((e, i) => { g = applyEvent(g, e, i + 1); });
  assert.equal(g.seq, evs.length);
  assert.equal(g.phase, 'finished');
  assert.equal(g.moves.length, 9);
  assert.equal(g.clocks.black, 40000);
  assert.equal(g.clocks.white, 49993);
  assert.deepEqual(winLine(g).map((p) => p.x), [7, 8, 9, 10, 11]);
  assert.deepEqual(status(g, 'black'), { key: 'status.youWin', params: {}, tone: 'win', why: 'reason.five' });
  assert.equal(status(g, 'white').key, 'status.youLose');
  assert.equal(status(g, 'spectator').key, 'status.wins');
  const noLine = { ...g, result: { ...g.result, line: [] } };
  assert.equal(winLine(noLine).length, 5, 'computed from the board when the server sends no line');
});

test('offers, takeback, chat, rematch', () => {
  let g = fromSnapshot(snap, 6);
  g = applyEvent(g, { kind: 'draw_offered', color: 'white' });
  assert.equal(g.offers.draw, 'white');
  g = applyEvent(g, { kind: 'draw_declined' });
  assert.equal(g.offers.draw, null);
  g = applyEvent(g, { kind: 'takeback_requested', color: 'black' });
  assert.equal(g.offers.takeback, 'black');
  g = applyEvent(g, { kind: 'takeback', plies: 2 });
  assert.equal(g.moves.length, 0);
  assert.equal(g.offers.takeback, null);
  g = applyEvent(g, { kind: 'chat', color: 'black', text: 'gg' });
  assert.equal(g.messages.at(-1).text, 'gg');
  g = applyEvent(g, { kind: 'game_over', result: 'white', reason: 'resign' });
  g = applyEvent(g, { kind: 'rematch_offered', color: 'black' });
  assert.equal(g.offers.rematch, 'black');
  const seq = g.seq;
  g = applyEvent(g, { kind: 'rematch', game: 2 });
  assert.equal(g.seq, seq + 1);
  assert.equal(g.gameNo, 2);
  assert.equal(g.seats.black.kind, 'ai', 'colours swapped');
  assert.equal(g.seats.white.name, 'Alice');
  assert.equal(g.moves.length, 0);
  assert.equal(g.result, null);
  assert.equal(g.messages.length, 1, 'chat survives a rematch');
});

test('a move event at an unexpected ply trusts the server', () => {
  let g = fromSnapshot(snap, 6);
  g = applyEvent(g, { kind: 'move', color: 'white', point: 'a1', ply: 1 });
  assert.deepEqual(g.moves.map((m) => m.point), ['h8', 'a1']);
});

test('status lines', () => {
  const g = fromSnapshot(snap, 6);
  assert.equal(status(g, 'black').key, 'status.yourTurn');
  assert.equal(canPlay(g, 'black'), true);
  assert.equal(canPlay(g, 'white'), false);
  assert.equal(canPlay(g, 'spectator'), false);
  const g2 = applyEvent(g, { kind: 'move', color: 'black', point: 'j10', ply: 2 });
  assert.equal(status(g2, 'black').key, 'status.aiThinking');
  const human = { ...g2, seats: { ...g2.seats, white: { kind: 'human', name: 'Z' } } };
  assert.equal(status(human, 'black').key, 'status.waitingOpponent');
  assert.equal(status(g, 'spectator').key, 'status.toMove');
  assert.equal(status(g, 'black', { pending: true }).key, 'status.pending');
  assert.equal(status(g, 'black', { connection: 'reconnecting', attempt: 3 }).params.n, 3);
  const waiting = fromSnapshot({ ...snap, phase: 'waiting', seats: { black: snap.seats.black }, moves: [] });
  assert.equal(status(waiting, 'black').key, 'status.waitingSeat');
  const aborted = applyEvent(g, { kind: 'game_over', result: 'aborted', reason: 'aborted' });
  assert.equal(status(aborted, 'black').key, 'status.aborted');
  const draw = applyEvent(g, { kind: 'game_over', result: 'draw', reason: 'draw_agreed' });
  assert.equal(status(draw, 'white').key, 'status.draw');
});

test('boardAt and stonesAt replay a prefix', () => {
  const g = fromSnapshot(snap, 6);
  assert.equal(boardAt(g, 1).cells.filter(Boolean).length, 1);
  assert.equal(boardAt(g).cells.filter(Boolean).length, 2);
  assert.deepEqual(stonesAt(g).map((s) => s.n), [1, 2]);
});

test('lobby summaries', () => {
  const s = normalizeSummary({ id: 'x', rule: 'renju', status: 'live', seats: { black: { name: 'A' }, white: { kind: 'ai', level: 'strong' } }, moves: 12, spectators: 2 });
  assert.equal(s.phase, 'playing');
  assert.equal(s.white.kind, 'ai');
  assert.equal(s.white.level, 'strong');
  assert.equal(s.moves, 12);
  assert.equal(normalizeSummary({ id: 'y', status: 'open', black: { name: 'B' } }).white, null);
  assert.equal(normalizeSummary({ id: 'z', status: 'finished', result: { result: 'white', reason: 'five' } }).result, 'white');
  assert.equal(normalizePhase('open'), 'waiting');
  assert.equal(normalizePhase('game_over'), 'finished');
});

// The exact JSON shapes of room.Snapshot / room.Event / room.Summary (room/snapshot.go, room/events.go).
const goSnapshot = {
  id: 'r9', seq: 7, game: 1, phase: 'playing', status: 'live',
  settings: { rule: 'renju', size: 15, time: { base_ms: 300000, increment_ms: 5000, per_move_ms: 0 },
    black: { kind: 'human' }, white: { kind: 'ai', level: 'master' }, public: true, takebacks: true, chat: true, hints: true },
  black: { spec: { kind: 'human' }, player: { id: 'p_1', name: 'Alice' } },
  white: { spec: { kind: 'ai', level: 'master' } },
  moves: ['h8', 'i9', 'h9'], ply: 3, to_move: 'white',
  clock: { black_ms: 290000, white_ms: 298000, running: true, to_move: 'white', at: 1700000000000 },
  draw_offer: 'black', presence: { black: { connected: true, since: 1, grace_ms: 60000 }, white: { connected: true, since: 1, grace_ms: 0 }, spectators: 4 },
  created_at: 1, updated_at: 2,
};

test('fromSnapshot reads the Go room.Snapshot shape', () => {
  const g = fromSnapshot(goSnapshot, 7);
  assert.equal(g.rule, 'renju');
  assert.equal(g.hints, true);
  assert.deepEqual(g.seats.black, { kind: 'human', name: 'Alice', level: '', engine: '', player_id: 'p_1', left: false });
  assert.equal(g.seats.white.kind, 'ai');
  assert.equal(g.seats.white.level, 'master');
  assert.deepEqual(g.clocks, { black: 290000, white: 298000 });
  assert.equal(g.clockRunning, true);
  assert.equal(g.offers.draw, 'black');
  assert.equal(g.spectators, 4);
  assert.equal(turn(g), 'white');
  const open = fromSnapshot({ ...goSnapshot, phase: 'waiting', black: { spec: { kind: 'human' } }, moves: [] });
  assert.equal(open.seats.black, null, 'a human seat without a player is open');
  const over = fromSnapshot({ ...goSnapshot, phase: 'over', status: 'finished', result: 'white', reason: 'five', line: ['a1', 'a2', 'a3', 'a4', 'a5'] });
  assert.equal(over.phase, 'finished');
  assert.equal(over.result.result, 'white');
  assert.equal(winLine(over).length, 5);
});

test('Go event shapes: seated player, clock pairs, left', () => {
  let g = emptyGame('r9');
  g = applyEvent(g, { seq: 1, kind: 'created', at: 1, game: 1, room: 'r9', settings: goSnapshot.settings, ply: 0 }, 1);
  assert.equal(g.seats.white.kind, 'ai', 'machine seats come from the settings');
  assert.equal(g.seats.black, null);
  g = applyEvent(g, { seq: 2, kind: 'seated', color: 'black', player: { id: 'p_1', name: 'Alice' }, ply: 0 }, 2);
  assert.equal(g.seats.black.name, 'Alice');
  g = applyEvent(g, { seq: 3, kind: 'started', clock: { black_ms: 300000, white_ms: 300000 }, ply: 0 }, 3);
  g = applyEvent(g, { seq: 4, kind: 'move', color: 'black', point: 'h8', ply: 0, clock_ms: 301000, clock: { black_ms: 301000, white_ms: 300000 } }, 4);
  assert.deepEqual(g.clocks, { black: 301000, white: 300000 });
  g = applyEvent(g, { seq: 5, kind: 'left', color: 'black', player: { id: 'p_1', name: 'Alice' }, ply: 0 }, 5);
  assert.equal(g.seats.black, null);
  const s = normalizeSummary({ id: 'r9', status: 'live', public: true, rule: 'renju', size: 15, time: {}, black: { kind: 'human', player_id: 'p', name: 'A' }, white: { kind: 'ai', level: 'master' }, game: 1, ply: 12, seq: 30 });
  assert.equal(s.moves, 12);
  assert.equal(s.white.level, 'master');
  assert.equal(normalizeSummary({ id: 'q', status: 'open', black: { kind: 'human' }, white: { kind: 'human', name: 'B', player_id: 'p2' } }).black, null);
});

test('AI panel helpers: score text and evaluation bar share', async () => {
  const { formatScore, blackShare } = await import('../static/js/gameui.js');
  const { setLang } = await import('../static/js/i18n.js');
  setLang('en');
  assert.equal(formatScore(125, 0), '+1.25');
  assert.equal(formatScore(-40, 0), '-0.40');
  assert.equal(formatScore(0, 0), '0.00');
  assert.equal(formatScore(0, 5), 'Win in 5');
  assert.equal(formatScore(0, -3), 'Loss in 3');
  assert.equal(blackShare(0, 0, 'black'), 0.5);
  assert.ok(blackShare(400, 0, 'black') > 0.7);
  assert.ok(blackShare(400, 0, 'white') < 0.3, 'a good score for white is bad for black');
  assert.ok(blackShare(0, 7, 'black') > 0.99);
  assert.ok(blackShare(0, 7, 'white') < 0.01);
});

test('server errors become sentences', async () => {
  const { errorText } = await import('../static/js/game.js');
  const { setLang } = await import('../static/js/i18n.js');
  setLang('en');
  assert.equal(errorText('not_your_turn', 'x'), 'It is not your turn.');
  assert.equal(errorText('forbidden', 'renju: forbidden point (double_three)'), 'Forbidden point for black (double three).');
  assert.match(errorText('brand_new_code', 'details'), /details/);
  setLang('zh');
  assert.equal(errorText('occupied', ''), '该点已有棋子。');
  setLang('en');
});
