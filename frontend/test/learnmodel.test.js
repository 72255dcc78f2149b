import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMoves, formatMoves, stonesOf, valueOf, summary, cutReason, countTree, pathMoves, evalRows, KINDS } from '../static/js/learnmodel.js';

test('parseMoves reads packed and separated lists', () => {
  const a = parseMoves('h8i9j7', 15);
  assert.deepEqual(a, { moves: [{ x: 7, y: 7 }, { x: 8, y: 8 }, { x: 9, y: 6 }] });
  assert.deepEqual(parseMoves(' H8, i9; j7 ', 15), a);
  assert.deepEqual(parseMoves('a15o1', 15), { moves: [{ x: 0, y: 14 }, { x: 14, y: 0 }] });
  // "h1" then "5" is not a point: h15 is read when the board has row 15.
  assert.deepEqual(parseMoves('h15h8', 15), { moves: [{ x: 7, y: 14 }, { x: 7, y: 7 }] });
  assert.deepEqual(parseMoves('h16', 15), { error: 'syntax', at: '6' });
  assert.deepEqual(parseMoves('', 15), { moves: [] });
  assert.deepEqual(parseMoves('h8 zz', 15), { error: 'syntax', at: 'zz' });
  assert.deepEqual(parseMoves('p8', 15), { error: 'syntax', at: 'p8' });
  assert.deepEqual(parseMoves('p8', 16), { moves: [{ x: 15, y: 7 }] });
  assert.deepEqual(parseMoves('h8i9h8', 15), { error: 'occupied', at: 'h8' });
  assert.equal(formatMoves(a.moves), 'h8i9j7');
});

test('stonesOf colours black first and names the side to move', () => {
  const m = stonesOf([{ x: 7, y: 7 }, { x: 8, y: 8 }, { x: 9, y: 6 }]);
  assert.deepEqual(m.stones.map((s) => s.color), ['black', 'white', 'black']);
  assert.deepEqual(m.last, { x: 9, y: 6 });
  assert.equal(m.toMove, 'white');
  assert.equal(stonesOf([]).toMove, 'black');
});

test('valueOf reads wins, losses, bounds and numbers', () => {
  const win = 2 ** 40;
  assert.deepEqual(valueOf(win - 1, win), { kind: 'win', plies: 1 });
  assert.deepEqual(valueOf(-win + 3, win), { kind: 'loss', plies: 3 });
  assert.deepEqual(valueOf(win + 1, win), { kind: 'inf', n: 1 });
  assert.deepEqual(valueOf(-win - 1, win), { kind: 'inf', n: -1 });
  assert.deepEqual(valueOf(3400, win), { kind: 'num', n: 3400 });
});

test('summary compares with minimax', () => {
  const modes = [
    { mode: 'minimax', nodes: 1000, time_ms: 10, complete: true, move: 'g9', value: 30 },
    { mode: 'alpha-beta', nodes: 250, time_ms: 3, complete: true, move: 'g9', value: 30 },
  ];
  const s = summary({ depth: 3, to_move: 'black', win: 1, node_cap: 1, time_cap_ms: 1, modes });
  assert.equal(s.agree, true);
  assert.deepEqual(s.ratios, [1, 0.25]);
  assert.equal(s.allComplete, true);
  const stopped = summary({ depth: 4, to_move: 'black', win: 1, node_cap: 1, time_cap_ms: 1,
    modes: [{ mode: 'minimax', nodes: 5, time_ms: 1, complete: false, stopped: 'nodes' }, { ...modes[1], value: 31 }] });
  assert.deepEqual(stopped.ratios, [null, null]);
  assert.equal(stopped.agree, true);
  assert.equal(stopped.allComplete, false);
  assert.equal(summary({ depth: 3, to_move: 'black', win: 1, node_cap: 1, time_cap_ms: 1, modes: [modes[0], { ...modes[1], value: 31 }] }).agree, false);
});

const tree = {
  max: true, alpha: -10, beta: 10, value: 5, best: 0,
  children: [
    { move: 'g9', max: false, alpha: -10, beta: 10, value: 5, best: 0, children: [{ move: 'a1', max: true, alpha: -10, beta: 10, value: 5, best: -1, leaf: true }] },
    { move: 'h9', max: false, alpha: 5, beta: 10, value: 2, best: 0, cut: true, cut_by: 'alpha', pruned: ['b1', 'c1'],
      children: [{ move: 'a2', max: true, alpha: 5, beta: 10, value: 2, best: -1, leaf: true }] },
  ],
};

test('cutReason names the crossed bound', () => {
  assert.equal(cutReason(tree), null);
  assert.deepEqual(cutReason(tree.children[1]), { key: 'learn.cut.alpha', bound: 5, value: 2, pruned: ['b1', 'c1'] });
  assert.deepEqual(cutReason({ ...tree, cut: true, pruned: ['x1'] }), { key: 'learn.cut.beta', bound: 10, value: 5, pruned: ['x1'] });
});

test('countTree and pathMoves', () => {
  assert.deepEqual(countTree(tree), { nodes: 5, cuts: 1, pruned: 2 });
  assert.deepEqual(pathMoves(tree, [1, 0]), ['h9', 'a2']);
  assert.deepEqual(pathMoves(tree, []), []);
});

test('evalRows puts the side to move first and checks the formula', () => {
  const ev = {
    to_move: 'white', black: 2000, white: 50, value: 10 * 50 - 12 * 2000, weights: {},
    patterns: [
      { color: 'black', stones: ['h8', 'i8', 'j8'], open: 2, kind: 'open_three', score: 2000 },
      { color: 'white', stones: ['a1', 'a2'], open: 1, kind: 'closed_two', score: 50 },
    ],
  };
  const r = evalRows(ev);
  assert.deepEqual(r.rows.map((p) => p.color), ['white', 'black']);
  assert.equal(r.ownTotal, 50);
  assert.equal(r.oppTotal, 2000);
  assert.equal(r.check, true);
  assert.equal(evalRows({ ...ev, value: 1 }).check, false);
  assert.deepEqual(KINDS.slice(0, 2), ['five', 'open_four']);
});
