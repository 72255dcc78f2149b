import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionsFor } from '../static/js/views/actions.js';
import { offersFor } from '../static/js/views/offers.js';
import { fromSnapshot, applyEvent } from '../static/js/state.js';
import { snapshot, event } from './fixtures.js';

const human = { spec: { kind: 'human' }, player: { id: 'p_2', name: 'Bob' } };
const ids = (actions) => actions.map((a) => a.id + (a.disabled ? '(off)' : ''));

test('actionsFor: the buttons of each situation', () => {
  const vsAI = fromSnapshot(snapshot({ draw_offer: '' })); // Alice (black) vs the AI, 3 moves, white to move
  assert.deepEqual(ids(actionsFor(vsAI, 'black')), ['btn-resign', 'btn-takeback', 'btn-hint(off)'], 'no draw offers to a machine; hint on my turn only');
  assert.deepEqual(actionsFor(vsAI, 'spectator'), []);
  const fresh = fromSnapshot(snapshot({ white: human, moves: ['h8'], ply: 1, draw_offer: 'black', settings: { ...snapshot().settings, white: { kind: 'human' }, takebacks: false } }));
  assert.deepEqual(ids(actionsFor(fresh, 'black')), ['btn-abort', 'btn-resign', 'btn-draw(off)'], 'abort before both moved; my own draw offer pending');
  assert.deepEqual(ids(actionsFor(fresh, 'white')), ['btn-abort', 'btn-resign', 'btn-draw']);
  const waiting = fromSnapshot(snapshot({ phase: 'waiting', white: { spec: { kind: 'human' } }, moves: [], ply: 0 }));
  assert.deepEqual(ids(actionsFor(waiting, 'black')), ['btn-abort']);
  const over = applyEvent(fromSnapshot(snapshot()), event(8, 'game_over', { result: 'white', reason: 'resign' }));
  assert.deepEqual(ids(actionsFor(over, 'black')), ['btn-rematch']);
  const offered = applyEvent(over, event(9, 'rematch_offered', { color: 'black' }));
  assert.deepEqual(ids(actionsFor(offered, 'black')), ['btn-rematch(off)']);
});

test('actionsFor: takeback stays disabled until the player has a move to take back', () => {
  const settings = { ...snapshot().settings, white: { kind: 'human' } };
  const at = (moves) => fromSnapshot(snapshot({ white: human, moves, ply: moves.length, draw_offer: '', settings }));
  const takeback = (g, role) => actionsFor(g, role).find((a) => a.id === 'btn-takeback');
  assert.equal(takeback(at([]), 'black').disabled, true, 'nothing played');
  assert.equal(takeback(at(['h8']), 'white').disabled, true, 'white has not moved yet');
  assert.equal(takeback(at(['h8']), 'black').disabled, false, 'black has a stone to take back');
  assert.equal(takeback(at(['h8', 'i9']), 'white').disabled, false);
});

test('offersFor: who may answer what, and when', () => {
  const g = fromSnapshot(snapshot({ draw_offer: 'black', takeback_request: 'white' }));
  assert.deepEqual(offersFor(g, 'white'), [{ kind: 'draw', by: 'black', answerable: true }, { kind: 'takeback', by: 'white', answerable: false }]);
  assert.deepEqual(offersFor(g, 'spectator').map((o) => o.answerable), [false, false]);
  const over = fromSnapshot(snapshot({ phase: 'over', result: 'black', reason: 'resign', draw_offer: '', rematch_offer: 'white' }));
  assert.deepEqual(offersFor(over, 'black'), [{ kind: 'rematch', by: 'white', answerable: true }]);
  assert.deepEqual(offersFor(fromSnapshot(snapshot({ draw_offer: '' })), 'black'), []);
});
