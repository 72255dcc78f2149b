import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newTree, nodeAt, movesAt, play, forward, end, interleave, shareURL, parseEvents, scoreText } from '../static/js/analyzemodel.js';

const P = (x, y) => ({ x, y });

test('the tree keeps variations and steps through them', () => {
  const root = newTree([P(7, 7), P(8, 8)]);
  assert.deepEqual(end(root, []), [0, 0]);
  assert.deepEqual(movesAt(root, [0, 0]), [P(7, 7), P(8, 8)]);
  // Another answer to h8 is a new variation; the same move again follows the line.
  const v = play(root, [0], P(6, 6));
  assert.deepEqual(v, [0, 1]);
  assert.deepEqual(play(root, [0], P(8, 8)), [0, 0]);
  assert.equal(nodeAt(root, [0]).children.length, 2);
  assert.deepEqual(movesAt(root, v), [P(7, 7), P(6, 6)]);
  assert.deepEqual(forward(root, [0]), [0, 0], 'forward follows the main line');
  assert.deepEqual(forward(root, [0, 0]), [0, 0], 'at the end it stays');
});

test('interleave orders free-placed stones as moves', () => {
  assert.deepEqual(interleave([P(0, 0), P(1, 1)], [P(2, 2)]), [P(0, 0), P(2, 2), P(1, 1)]);
  assert.deepEqual(interleave([P(0, 0)], [P(2, 2)]), [P(0, 0), P(2, 2)]);
  assert.equal(interleave([P(0, 0), P(1, 1)], []), null);
  assert.equal(interleave([], [P(1, 1)]), null);
});

test('shareURL encodes the position', () => {
  assert.equal(shareURL('h8i9', 'freestyle', 15), '/analysis?moves=h8i9');
  assert.equal(shareURL('h8', 'renju', 20), '/analysis?moves=h8&rule=renju&size=20');
});

test('parseEvents reads complete events and keeps the rest', () => {
  const r = parseEvents('event: position\ndata: {"ply":2}\n\nevent: info\ndata: {"depth":3}\n\nevent: in');
  assert.deepEqual(r.events, [{ name: 'position', data: { ply: 2 } }, { name: 'info', data: { depth: 3 } }]);
  assert.equal(r.rest, 'event: in');
  const r2 = parseEvents(r.rest + 'fo\r\ndata: {"depth":4}\r\n\r\n');
  assert.deepEqual(r2.events, [{ name: 'info', data: { depth: 4 } }]);
  assert.deepEqual(parseEvents('data: not json\n\n').events, []);
});

test('scoreText writes scores and mates for the side to move', () => {
  assert.equal(scoreText({ move: 'h8', score: 125, depth: 3, pv: [] }), '+1.25');
  assert.equal(scoreText({ move: 'h8', score: -40, depth: 3, pv: [] }), '−0.40');
  assert.equal(scoreText({ move: 'h8', score: 999995, mate: 5, depth: 3, pv: [] }), '#5');
  assert.equal(scoreText({ move: 'h8', score: -999996, mate: -4, depth: 3, pv: [] }), '−#4');
});
