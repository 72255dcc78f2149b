import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  boardFrom, boardFromRows, forbiddenReason, forbiddenPoints, winningLine, winsWith, BLACK, WHITE, isFull, newBoard, set,
} from '../static/js/rules.js';

const B = (pts, color = 'black') => pts.map(([x, y]) => ({ x, y, color }));

test('winsWith follows each rule', () => {
  const cases = [
    [5, BLACK, 'freestyle', true], [6, BLACK, 'freestyle', true], [4, BLACK, 'freestyle', false],
    [5, BLACK, 'standard', true], [6, BLACK, 'standard', false], [6, WHITE, 'standard', false],
    [5, BLACK, 'renju', true], [6, BLACK, 'renju', false], [6, WHITE, 'renju', true],
  ];
  for (const [n, c, rule, want] of cases) assert.equal(winsWith(n, c, rule), want, `${n} ${c} ${rule}`);
});

test('winningLine finds five in every direction', () => {
  const lines = {
    horizontal: [[3, 7], [4, 7], [5, 7], [6, 7], [7, 7]],
    vertical: [[7, 3], [7, 4], [7, 5], [7, 6], [7, 7]],
    diagonal: [[3, 3], [4, 4], [5, 5], [6, 6], [7, 7]],
    anti: [[3, 11], [4, 10], [5, 9], [6, 8], [7, 7]],
  };
  for (const [name, pts] of Object.entries(lines)) {
    const b = boardFrom(15, B(pts));
    const line = winningLine(b, 7, 7, 'standard');
    assert.ok(line, name);
    assert.equal(line.length, 5, name);
  }
});

test('overline wins in freestyle only (and for white in renju)', () => {
  const six = [[2, 7], [3, 7], [4, 7], [5, 7], [6, 7], [7, 7]];
  assert.equal(winningLine(boardFrom(15, B(six)), 7, 7, 'freestyle').length, 6);
  assert.equal(winningLine(boardFrom(15, B(six)), 7, 7, 'standard'), null);
  assert.equal(winningLine(boardFrom(15, B(six)), 7, 7, 'renju'), null);
  assert.equal(winningLine(boardFrom(15, B(six, 'white')), 7, 7, 'renju').length, 6);
});

test('four is not a win, empty point is not a win', () => {
  const b = boardFrom(15, B([[3, 7], [4, 7], [5, 7], [6, 7]]));
  assert.equal(winningLine(b, 6, 7, 'freestyle'), null);
  assert.equal(winningLine(b, 0, 0, 'freestyle'), null);
});

test('renju forbidden points', () => {
  const cases = [
    { name: 'double three', stones: [[7, 5], [7, 6], [5, 7], [6, 7]], at: [7, 7], want: 'double_three' },
    { name: 'split double three', stones: [[7, 5], [7, 6], [4, 7], [6, 7]], at: [7, 7], want: 'double_three' },
    { name: 'double four', stones: [[7, 4], [7, 5], [7, 6], [4, 7], [5, 7], [6, 7]], at: [7, 7], want: 'double_four' },
    { name: 'double four on one line', stones: [[1, 7], [3, 7], [5, 7], [7, 7]], at: [4, 7], want: 'double_four' },
    { name: 'overline', stones: [[2, 7], [3, 7], [4, 7], [6, 7], [7, 7]], at: [5, 7], want: 'overline' },
    { name: 'five beats double four', stones: [[3, 7], [4, 7], [5, 7], [6, 7], [7, 3], [7, 4], [7, 5]], at: [7, 7], want: '' },
    { name: 'four-three is allowed', stones: [[7, 4], [7, 5], [7, 6], [5, 7], [6, 7]], at: [7, 7], want: '' },
    { name: 'single three is allowed', stones: [[7, 5], [7, 6]], at: [7, 7], want: '' },
    { name: 'occupied point', stones: [[7, 7]], at: [7, 7], want: '' },
  ];
  for (const c of cases) {
    const b = boardFrom(15, B(c.stones));
    assert.equal(forbiddenReason(b, c.at[0], c.at[1]), c.want, c.name);
  }
});

test('a three blocked by white is not a three', () => {
  const b = boardFrom(15, [...B([[7, 5], [7, 6], [5, 7], [6, 7]]), ...B([[7, 4]], 'white')]);
  assert.equal(forbiddenReason(b, 7, 7), '');
});

test('a three whose only straight-four point is forbidden is not a real three', () => {
  // p = h8 (7,7). Vertical three h6 h7 h8 is real. Horizontal f8 g8 h8: j8 is blocked by white
  // at j8+1, so its only straight-four point is e8 (4,7), which is itself a double three for black.
  const base = [[5, 7], [6, 7], [7, 5], [7, 6], [4, 5], [4, 6]];
  const white = B([[9, 7]], 'white');
  const withDiag = boardFrom(15, [...B([...base, [2, 5], [3, 6]]), ...white]);
  assert.equal(forbiddenReason(withDiag, 4, 7), 'double_three', 'e8 is forbidden');
  assert.equal(forbiddenReason(withDiag, 7, 7), '', 'so h8 has one real three only');
  const noDiag = boardFrom(15, [...B(base), ...white]);
  assert.equal(forbiddenReason(noDiag, 7, 7), 'double_three', 'control: e8 allowed, h8 is a double three');
});

test('forbiddenPoints scans the board and leaves it unchanged', () => {
  const b = boardFrom(15, B([[7, 5], [7, 6], [5, 7], [6, 7]]));
  const before = Array.from(b.cells);
  const pts = forbiddenPoints(b);
  assert.deepEqual(Array.from(b.cells), before);
  assert.ok(pts.some((p) => p.x === 7 && p.y === 7 && p.reason === 'double_three'));
  assert.deepEqual(forbiddenPoints(newBoard(15)), []);
});

test('boardFromRows puts the first row at the top', () => {
  const b = boardFromRows(['x..', '...', '..o']);
  assert.equal(b.cells[2 * 3 + 0], BLACK);
  assert.equal(b.cells[0 * 3 + 2], WHITE);
});

test('isFull', () => {
  const b = newBoard(2);
  assert.equal(isFull(b), false);
  for (let i = 0; i < 4; i++) set(b, i % 2, Math.floor(i / 2), BLACK);
  assert.equal(isFull(b), true);
});
