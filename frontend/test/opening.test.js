import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromSnapshot, applyEvent, emptyGame, turn, stoneColor, canPlay, choicesFor } from '../static/js/state.js';
import { status } from '../static/js/statusline.js';
import { fromSummary } from '../static/js/lobbymodel.js';
import { actionsFor } from '../static/js/views/actions.js';
import { encode } from '../static/js/protocol.js';
import { snapshot, settings, event } from './fixtures.js';

const alice = { id: 'p_a', name: 'Alice' };
const bob = { id: 'p_b', name: 'Bob' };

/** swap2Game returns a started swap2 game: Alice first player (black), Bob second. */
function swap2Game(opening = 'swap2') {
  let g = emptyGame('r1');
  g = applyEvent(g, event(1, 'created', { settings: settings({ black: { kind: 'human' }, white: { kind: 'human' }, opening }) }));
  g = applyEvent(g, event(2, 'seated', { color: 'black', player: alice }));
  g = applyEvent(g, event(3, 'seated', { color: 'white', player: bob }));
  return applyEvent(g, event(4, 'started', { clock: { black_ms: 300000, white_ms: 300000 } }));
}

/** place applies move events during the opening (the server's `opening` after each). */
function place(g, seq, points, steps) {
  points.forEach((p, i) => { g = applyEvent(g, event(seq + i, 'move', { color: stoneColor(g), point: p, ply: g.moves.length, opening: steps[i] })); });
  return g;
}

test('swap2: every step, whose turn, what may be done', () => {
  let g = swap2Game();
  assert.equal(g.step, 'place3');
  assert.equal(turn(g), 'black', 'the first player acts');
  assert.ok(canPlay(g, 'black'));
  assert.ok(!canPlay(g, 'white'));
  assert.equal(status(g, 'black').key, 'opening.you.place3');
  assert.deepEqual(status(g, 'black').params, { n: 3, color: 'black' });
  assert.equal(status(g, 'white').key, 'opening.opponent.place3');
  assert.equal(status(g, 'spectator').key, 'opening.first.place3');

  g = place(g, 5, ['h8', 'i9'], ['place3', 'place3']);
  assert.equal(turn(g), 'black');
  assert.equal(stoneColor(g), 'black');
  assert.deepEqual(status(g, 'black').params, { n: 1, color: 'black' });
  assert.equal(g.moves[1].color, 'white', 'the first player placed a white stone');
  assert.deepEqual(actionsFor(g, 'white').map((a) => a.id), ['btn-abort', 'btn-resign', 'btn-draw', 'btn-takeback']);
  assert.ok(actionsFor(g, 'black').find((a) => a.id === 'btn-takeback').disabled, 'no takeback in the opening');

  g = place(g, 7, ['j8'], ['choose']);
  assert.equal(g.step, 'choose');
  assert.equal(turn(g), 'white');
  assert.ok(!canPlay(g, 'white'), 'a choice is due, not a stone');
  assert.deepEqual(choicesFor(g, 'white'), ['black', 'white', 'place2']);
  assert.deepEqual(choicesFor(g, 'black'), []);
  assert.equal(status(g, 'white').key, 'opening.you.choose.swap2');

  const swapped = applyEvent(applyEvent(g, event(8, 'opening_choice', { color: 'white', choice: 'black' })), event(9, 'colors', { swap: true, clock: { black_ms: 299000, white_ms: 298000 } }));
  assert.equal(swapped.step, '');
  assert.equal(swapped.seats.black.player_id, 'p_b', 'Bob took black');
  assert.equal(swapped.seats.white.player_id, 'p_a');
  assert.deepEqual(swapped.clocks, { black: 299000, white: 298000 });
  assert.equal(turn(swapped), 'white');
  assert.ok(canPlay(swapped, 'white'));
  assert.equal(status(swapped, 'white').key, 'status.yourTurn');
  assert.ok(!actionsFor(swapped, 'white').some((a) => a.id === 'btn-abort'), 'both have acted');

  g = applyEvent(g, event(8, 'opening_choice', { color: 'white', choice: 'place2', opening: 'place2' }));
  assert.equal(g.step, 'place2');
  assert.equal(turn(g), 'white');
  assert.ok(canPlay(g, 'white'));
  assert.deepEqual(status(g, 'white').params, { n: 2, color: 'white' });
  g = place(g, 9, ['h9', 'h10'], ['place2', 'choose2']);
  assert.equal(g.step, 'choose2');
  assert.equal(g.openingPlies, 5);
  assert.deepEqual(choicesFor(g, 'black'), ['black', 'white']);
  assert.equal(status(g, 'black').key, 'opening.you.choose2');
  g = applyEvent(applyEvent(g, event(11, 'opening_choice', { color: 'black', choice: 'black' })), event(12, 'colors', {}));
  assert.equal(g.seats.black.player_id, 'p_a', 'Alice kept black');
  g = applyEvent(g, event(13, 'move', { color: 'white', point: 'k8', ply: 5 }));
  assert.equal(g.step, '');
  assert.ok(actionsFor(g, 'white').find((a) => a.id === 'btn-takeback').disabled === false, 'the first stone after the opening');
  assert.ok(actionsFor(g, 'black').find((a) => a.id === 'btn-takeback').disabled, 'opening stones are never taken back');

  // A rematch after a swapped opening keeps the seats; the other person proposes.
  const over = applyEvent(swapped, event(10, 'game_over', { result: 'black', reason: 'resign' }));
  const next = applyEvent(over, event(11, 'rematch', { game: 2, keep_seats: true }));
  assert.equal(next.seats.black.player_id, 'p_b');
  assert.equal(next.step, 'place3');
  const plain = applyEvent(over, event(11, 'rematch', { game: 2 }));
  assert.equal(plain.seats.black.player_id, 'p_a');
});

test('swap: no place2; a snapshot resumes mid-opening', () => {
  const g = place(swap2Game('swap'), 5, ['h8', 'i9', 'j8'], ['place3', 'place3', 'choose']);
  assert.deepEqual(choicesFor(g, 'white'), ['black', 'white']);
  assert.equal(status(g, 'white').key, 'opening.you.choose');
  const snap = fromSnapshot(snapshot({ settings: settings({ opening: 'swap2' }), moves: ['h8', 'i9', 'j8', 'h9'], ply: 4, opening: 'place2', to_move: 'white', stone: 'black', opening_plies: 4 }));
  assert.equal(snap.opening, 'swap2');
  assert.equal(snap.step, 'place2');
  assert.equal(turn(snap), 'white', 'the AI (white, second player) places');
  assert.equal(stoneColor(snap), 'black');
  assert.equal(status(snap, 'black').key, 'opening.ai.place2');
  assert.equal(fromSnapshot(snapshot()).step, '', 'no opening');
  assert.equal(fromSummary({ id: 'x', status: 'open', public: true, rule: 'freestyle', size: 15, time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 }, black: { kind: 'human' }, white: { kind: 'human' }, game: 1, ply: 0, seq: 1, opening: 'swap2' }).opening, 'swap2');
});

test('choose is encoded with a valid choice only', () => {
  assert.equal(encode({ type: 'choose', choice: 'place2' }), '{"type":"choose","choice":"place2"}');
  assert.throws(() => encode({ type: 'choose', choice: 'red' }), /choice/);
});
