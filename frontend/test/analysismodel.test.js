import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphPoints, graphPaths, plyAt, marked, counts, overlay, percent, follow } from '../static/js/analysismodel.js';

const result = {
  status: 'done', total: 3, moves: ['h8', 'a1'],
  positions: [
    { ply: 0, to_move: 'black', score: 50, black: 0.6, best: 'h8', pv: ['h8', 'i9', 'j10'], played: 'h8' },
    { ply: 1, to_move: 'white', score: 20, black: 0.5, best: 'i9', pv: ['i9'], played: 'a1', mark: 'blunder', drop: 0.3 },
    { ply: 2, to_move: 'black', score: 900, black: 0.9, best: 'i8', pv: [] },
  ],
};

test('graphPoints spreads the plies and puts black winning at the top', () => {
  assert.deepEqual(graphPoints(result, 200, 100), [
    { x: 0, y: 40, ply: 0, mark: '' }, { x: 100, y: 50, ply: 1, mark: 'blunder' }, { x: 200, y: 10, ply: 2, mark: '' },
  ]);
  const partial = { ...result, positions: result.positions.slice(0, 1) };
  assert.equal(graphPoints(partial, 200, 100).length, 1, 'a running analysis draws what it has');
  assert.equal(graphPoints({ ...result, positions: [{ ...result.positions[0], black: 7 }] }, 200, 100)[0].y, 0);
});

test('graphPaths draws the line and the area under it', () => {
  const p = graphPaths([{ x: 0, y: 40 }, { x: 100, y: 50 }], 100);
  assert.equal(p.line, 'M0 40L100 50');
  assert.equal(p.area, 'M0 100L0 40L100 50L100 100Z');
  assert.deepEqual(graphPaths([], 100), { line: '', area: '' });
});

test('plyAt maps a click back to a ply', () => {
  assert.equal(plyAt(0, 200, 3), 0);
  assert.equal(plyAt(90, 200, 3), 1);
  assert.equal(plyAt(500, 200, 3), 2);
  assert.equal(plyAt(-5, 200, 3), 0);
});

test('marked and counts list the judged moves', () => {
  assert.deepEqual(marked(result), [{ ply: 1, n: 2, point: 'a1', mark: 'blunder', color: 'white' }]);
  assert.deepEqual(counts(result), { black: {}, white: { blunder: 1 } });
});

test('overlay hints the best move and numbers its line', () => {
  assert.deepEqual(overlay(result, 0, 15, false), { hint: { x: 7, y: 7 }, pv: [] });
  const o = overlay(result, 0, 15, true);
  assert.deepEqual(o.pv.map((p) => [p.color, p.n]), [['black', 1], ['white', 2], ['black', 3]]);
  assert.deepEqual(overlay(result, 5, 15, true), { hint: null, pv: [] });
  assert.deepEqual(overlay(null, 0, 15, true), { hint: null, pv: [] });
});

test('percent', () => {
  assert.equal(percent(0.456), '46%');
  assert.equal(percent(NaN), '50%');
});

test('follow streams a running analysis, polls without a stream and resumes a stopped one', () => {
  for (const [status, stream, want] of [
    ['done', 'open', 'done'], ['done', 'failed', 'done'],
    ['stopped', 'open', 'start'], ['stopped', 'closed', 'start'],
    ['running', 'closed', 'stream'], ['queued', 'closed', 'stream'],
    ['running', 'open', 'wait'], ['queued', 'open', 'wait'],
    ['running', 'failed', 'poll'], ['queued', 'failed', 'poll'],
  ]) {
    assert.equal(follow(status, /** @type {any} */ (stream)), want, `${status} ${stream}`);
  }
});
