import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fromSnapshot, applyEvent, emptyGame, turn, canPlay, winLine, openSeats, aiSeat, stonesAt,
} from '../static/js/state.js';
import { status } from '../static/js/statusline.js';
import { fromSummary } from '../static/js/lobbymodel.js';
import { snapshot, settings, event } from './fixtures.js';

test('fromSnapshot reads the documented snapshot', () => {
  const g = fromSnapshot(snapshot());
  assert.equal(g.id, 'r9');
  assert.equal(g.rule, 'renju');
  assert.equal(g.hints, true);
  assert.equal(g.seq, 7);
  assert.deepEqual(g.seats.black, { kind: 'human', name: 'Alice', level: '', engine: '', player_id: 'p_1', left: false });
  assert.equal(g.seats.white.kind, 'ai');
  assert.equal(g.seats.white.level, 'master');
  assert.deepEqual(g.moves.map((m) => [m.point, m.x, m.y, m.color, m.ply]), [['h8', 7, 7, 'black', 0], ['i9', 8, 8, 'white', 1], ['h9', 7, 8, 'black', 2]]);
  assert.deepEqual(g.clocks, { black: 290000, white: 298000 });
  assert.deepEqual(g.offers, { draw: 'black', takeback: null, rematch: null });
  assert.deepEqual(g.forbidden, []);
  assert.equal(turn(g), 'white');
  assert.equal(aiSeat(g), 'white');
});

test('fromSnapshot: open seats, no clock, a finished game, forbidden points', () => {
  const open = fromSnapshot(snapshot({ phase: 'waiting', status: 'open', black: { spec: { kind: 'human' } }, moves: [], ply: 0, clock: undefined, draw_offer: '' }));
  assert.equal(open.seats.black, null, 'a human seat without a player is open');
  assert.deepEqual(openSeats(open), ['black']);
  assert.deepEqual(open.clocks, { black: null, white: null }, 'no clock without a time control');
  assert.equal(open.offers.draw, null, 'an empty colour is no offer');
  const over = fromSnapshot(snapshot({ phase: 'over', status: 'finished', result: 'white', reason: 'five', line: ['a1', 'a2', 'a3', 'a4', 'a5'] }));
  assert.equal(over.phase, 'over');
  assert.deepEqual(over.result, { result: 'white', reason: 'five', line: ['a1', 'a2', 'a3', 'a4', 'a5'] });
  assert.deepEqual(winLine(over).map((p) => p.y), [0, 1, 2, 3, 4]);
  const renju = fromSnapshot(snapshot({ moves: ['h8', 'i9', 'h9', 'a1'], ply: 4, forbidden: [{ point: 'h10', kind: 'double_three' }, { point: 'zz', kind: 'overline' }] }));
  assert.deepEqual(renju.forbidden, [{ x: 7, y: 9, point: 'h10', kind: 'double_three' }], 'points off the board are dropped');
});

test('events build a game from scratch', () => {
  let g = emptyGame('r3');
  const evs = [
    event(1, 'created', { room: 'r3', settings: settings({ rule: 'freestyle', white: { kind: 'human' }, time: { base_ms: 60000, increment_ms: 0, per_move_ms: 0 } }) }),
    event(2, 'seated', { color: 'black', player: { id: 'p_a', name: 'A' } }),
    event(3, 'seated', { color: 'white', player: { id: 'p_b', name: 'B' } }),
    event(4, 'started', { clock: { black_ms: 60000, white_ms: 60000 } }),
    ...['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4'].map((p, i) => event(5 + i, 'move', { color: i % 2 ? 'white' : 'black', point: p, ply: i, clock_ms: 50000 - i, clock: { black_ms: 50000 - i, white_ms: 49000 - i } })),
    event(13, 'move', { color: 'black', point: 'l8', ply: 8, clock_ms: 40000, clock: { black_ms: 40000, white_ms: 48993 } }),
    event(14, 'game_over', { result: 'black', reason: 'five', line: ['h8', 'i8', 'j8', 'k8', 'l8'], clock: { black_ms: 40000, white_ms: 48993 }, ply: 9 }),
  ];
  for (const e of evs) g = applyEvent(g, e);
  assert.equal(g.seq, 14);
  assert.equal(g.phase, 'over');
  assert.equal(g.rule, 'freestyle');
  assert.equal(g.seats.white.name, 'B');
  assert.equal(g.moves.length, 9);
  assert.deepEqual(g.clocks, { black: 40000, white: 48993 });
  assert.deepEqual(winLine(g).map((p) => p.x), [7, 8, 9, 10, 11]);
  assert.deepEqual(status(g, 'black'), { key: 'status.youWin', params: {}, tone: 'win', why: 'reason.five' });
  assert.equal(status(g, 'white').key, 'status.youLose');
  assert.equal(status(g, 'spectator').key, 'status.wins');
  assert.deepEqual(winLine({ ...g, result: { ...g.result, reason: 'resign' } }), [], 'only a five has a line');
});

test('created: machine seats come from the settings', () => {
  const g = applyEvent(emptyGame('r9'), event(1, 'created', { room: 'r9', settings: settings() }));
  assert.equal(g.seats.white.kind, 'ai');
  assert.equal(g.seats.black, null);
  assert.equal(g.chatAllowed, true);
});

test('offers, takeback, chat, rematch', () => {
  let g = fromSnapshot(snapshot({ draw_offer: '' }));
  g = applyEvent(g, event(8, 'draw_offered', { color: 'white' }));
  assert.equal(g.offers.draw, 'white');
  g = applyEvent(g, event(9, 'draw_declined', { color: 'black' }));
  assert.equal(g.offers.draw, null);
  g = applyEvent(g, event(10, 'takeback_requested', { color: 'black' }));
  assert.equal(g.offers.takeback, 'black');
  g = applyEvent(g, event(11, 'takeback', { color: 'black', plies: 2, forbidden: [{ point: 'j10', kind: 'overline' }] }));
  assert.deepEqual(g.moves.map((m) => m.point), ['h8']);
  assert.equal(g.offers.takeback, null);
  assert.deepEqual(g.forbidden.map((f) => f.point), ['j10'], 'the takeback brings the server\'s forbidden points');
  // chat events of an older log: a player by colour (the seat holder then), a spectator by name
  g = applyEvent(g, event(12, 'chat', { color: 'black', text: 'gg' }));
  g = applyEvent(g, event(13, 'chat', { name: 'Carol', text: 'hi' }));
  assert.deepEqual(g.messages, [
    { seq: 12, channel: 'players', id: 'p_1', name: 'Alice', color: 'black', text: 'gg' },
    { seq: 13, channel: 'spectators', id: '', name: 'Carol', text: 'hi', color: '' }]);
  g = applyEvent(g, event(14, 'game_over', { result: 'white', reason: 'resign' }));
  assert.deepEqual(g.forbidden, [], 'nothing is forbidden once the game is over');
  g = applyEvent(g, event(15, 'rematch_offered', { color: 'black' }));
  assert.equal(g.offers.rematch, 'black');
  g = applyEvent(g, event(16, 'rematch', { game: 2, clock: { black_ms: 300000, white_ms: 300000 } }));
  assert.equal(g.seq, 16);
  assert.equal(g.gameNo, 2);
  assert.equal(g.phase, 'playing');
  assert.equal(g.seats.black.kind, 'ai', 'colours swapped');
  assert.equal(g.seats.white.name, 'Alice');
  assert.equal(g.moves.length, 0);
  assert.equal(g.result, null);
  assert.equal(g.offers.rematch, null);
  assert.deepEqual(g.clocks, { black: 300000, white: 300000 });
  assert.equal(g.messages.length, 2, 'chat survives a rematch');
  g = applyEvent(g, event(17, 'chat', { channel: 'players', player: { id: 'p_1', name: 'Alice' }, color: 'white', text: 'again' }));
  assert.deepEqual(g.messages[2], { seq: 17, channel: 'players', id: 'p_1', name: 'Alice', color: 'white', text: 'again' },
    'the author is named by the event, whatever the colours now');
});

test('the snapshot brings the latest chat lines', () => {
  const g = fromSnapshot(snapshot({
    chat: [
      { seq: 5, at: 1, channel: 'players', player: { id: 'p_1', name: 'Alice' }, color: 'black', text: 'hi' },
      { seq: 6, at: 2, channel: 'spectators', player: { id: 'p_9', name: 'Carol' }, text: 'play i9!' },
    ],
  }));
  assert.deepEqual(g.messages, [
    { seq: 5, channel: 'players', id: 'p_1', name: 'Alice', color: 'black', text: 'hi' },
    { seq: 6, channel: 'spectators', id: 'p_9', name: 'Carol', color: '', text: 'play i9!' }]);
  assert.deepEqual(fromSnapshot(snapshot()).messages, [], 'no chat field: no lines');
});

test('move events: the server\'s ply wins, offers end, forbidden points replaced', () => {
  let g = fromSnapshot(snapshot());
  g = applyEvent(g, event(8, 'move', { color: 'white', point: 'a1', ply: 1 }));
  assert.deepEqual(g.moves.map((m) => m.point), ['h8', 'a1']);
  assert.equal(g.offers.draw, null, 'a move ends a draw offer (as the server does)');
  g = applyEvent(g, event(9, 'move', { color: 'black', point: 'a2', ply: 2 }));
  g = applyEvent(g, event(10, 'move', { color: 'white', point: 'a3', ply: 3, forbidden: [{ point: 'h10', kind: 'double_four' }] }));
  assert.deepEqual(g.forbidden, [{ x: 7, y: 9, point: 'h10', kind: 'double_four' }]);
  g = applyEvent(g, event(11, 'move', { color: 'black', point: 'a4', ply: 4 }));
  assert.deepEqual(g.forbidden, [], 'absent means none');
});

test('left: an open seat while waiting, a gone player after the game', () => {
  const waiting = fromSnapshot(snapshot({ phase: 'waiting', moves: [], ply: 0, white: { spec: { kind: 'human' }, player: { id: 'p_2', name: 'Bob' } } }));
  const g = applyEvent(waiting, event(8, 'left', { color: 'black', player: { id: 'p_1', name: 'Alice' } }));
  assert.equal(g.seats.black, null);
  const over = fromSnapshot(snapshot({ phase: 'over', result: 'black', reason: 'resign', rematch_offer: 'white' }));
  const after = applyEvent(over, event(8, 'left', { color: 'black', player: { id: 'p_1', name: 'Alice' } }));
  assert.equal(after.seats.black.left, true);
  assert.equal(after.seats.black.name, 'Alice');
  assert.equal(after.offers.rematch, null);
});

test('status lines', () => {
  const g = fromSnapshot(snapshot({ moves: ['h8', 'i9'], ply: 2 }));
  assert.equal(status(g, 'black').key, 'status.yourTurn');
  assert.equal(canPlay(g, 'black'), true);
  assert.equal(canPlay(g, 'white'), false);
  assert.equal(canPlay(g, 'spectator'), false);
  const g2 = applyEvent(g, event(8, 'move', { color: 'black', point: 'j10', ply: 2 }));
  assert.equal(status(g2, 'black').key, 'status.aiThinking');
  const human = { ...g2, seats: { ...g2.seats, white: { kind: 'human', name: 'Z', level: '', engine: '', player_id: 'p_z', left: false } } };
  assert.equal(status(human, 'black').key, 'status.waitingOpponent');
  assert.equal(status(g, 'spectator').key, 'status.toMove');
  assert.equal(status(g, 'black', { pending: true }).key, 'status.pending');
  assert.equal(status(g, 'black', { connection: 'reconnecting', attempt: 3 }).params.n, 3);
  const waiting = fromSnapshot(snapshot({ phase: 'waiting', white: { spec: { kind: 'human' } }, moves: [], ply: 0 }));
  assert.equal(status(waiting, 'black').key, 'status.waitingSeat');
  const aborted = applyEvent(g, event(8, 'game_over', { result: 'aborted', reason: 'aborted' }));
  assert.equal(status(aborted, 'black').key, 'status.aborted');
  const draw = applyEvent(g, event(8, 'game_over', { result: 'draw', reason: 'draw_agreed' }));
  assert.equal(status(draw, 'white').key, 'status.draw');
});

test('stonesAt replays a prefix', () => {
  const g = fromSnapshot(snapshot());
  assert.deepEqual(stonesAt(g, 1).map((s) => s.point), ['h8']);
  assert.deepEqual(stonesAt(g).map((s) => s.n), [1, 2, 3]);
});

test('lobby summaries', () => {
  const s = fromSummary({ id: 'r9', status: 'live', public: true, rule: 'renju', size: 15, time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 },
    black: { kind: 'human', player_id: 'p', name: 'A' }, white: { kind: 'ai', level: 'master' }, game: 1, ply: 12, seq: 30 });
  assert.equal(s.status, 'live');
  assert.equal(s.moves, 12);
  assert.equal(s.black.name, 'A');
  assert.equal(s.white.kind, 'ai');
  assert.equal(s.white.level, 'master');
  assert.equal(s.result, '');
  const open = fromSummary({ id: 'q', status: 'open', public: true, rule: 'freestyle', size: 15, time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 },
    black: { kind: 'human' }, white: { kind: 'human', name: 'B', player_id: 'p2' }, game: 1, ply: 0, seq: 2, result: '', reason: '' });
  assert.equal(open.black, null, 'a human seat without a player is open');
  assert.equal(open.white.name, 'B');
});

test('AI panel helpers: score text and evaluation bar share', async () => {
  const { formatScore, blackShare } = await import('../static/js/views/aipanel.js');
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
  const { errorText } = await import('../static/js/errors.js');
  const { setLang } = await import('../static/js/i18n.js');
  setLang('en');
  assert.equal(errorText('not_your_turn', 'x'), 'It is not your turn.');
  assert.equal(errorText('forbidden', 'renju: forbidden point (double_three)'), 'Forbidden point for black (double three).');
  assert.match(errorText('brand_new_code', 'details'), /details/);
  setLang('zh');
  assert.equal(errorText('occupied', ''), '该点已有棋子。');
  setLang('en');
});

test('the waiting room shows the configured time; an AI show starts from its opening', () => {
  const g = applyEvent(emptyGame('r9'), event(1, 'created', { room: 'r9', settings: settings({ first_move_ms: 20000 }) }));
  assert.deepEqual(g.clocks, { black: 300000, white: 300000 }, 'not 0:00.0');
  assert.equal(g.firstMoveMs, 20000);
  const untimed = applyEvent(emptyGame('r9'), event(1, 'created', { room: 'r9', settings: settings({ time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 } }) }));
  assert.deepEqual(untimed.clocks, { black: null, white: null });
  const show = applyEvent(g, event(2, 'started', { opening_stones: ['h8', 'g7', 'g10', 'e7', 'j10'], clock: { black_ms: 300000, white_ms: 300000 } }));
  assert.deepEqual(show.moves.map((m) => m.point), ['h8', 'g7', 'g10', 'e7', 'j10']);
  assert.equal(turn(show), 'white');
  const again = applyEvent({ ...show, phase: 'over' }, event(3, 'rematch', { game: 2, opening_stones: ['h8', 'h6', 'f11', 'e9', 'k6'] }));
  assert.deepEqual(again.moves.map((m) => m.point), ['h8', 'h6', 'f11', 'e9', 'k6']);
});

test('a game aborted for want of a first move says so', () => {
  const g = { ...emptyGame('r9'), phase: /** @type {const} */ ('over'), result: { result: 'aborted', reason: 'first_move_timeout', line: [] } };
  assert.deepEqual(status(g, 'black'), { key: 'status.aborted', params: {}, tone: 'neutral', why: 'reason.first_move_timeout' });
  const plain = { ...g, result: { result: 'aborted', reason: 'aborted', line: [] } };
  assert.equal(status(plain, 'black').why, '');
});
