import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  toNotation, parseNotation, layout, pointToPixel, pixelToPoint, starPoints, moveCursor, centre, colLetter, coordLabels, STONE_RADIUS,
} from '../static/js/geometry.js';

test('notation round trip on every point of every size', () => {
  for (let size = 15; size <= 20; size++) {
    for (let x = 0; x < size; x++) {
      for (let y = 0; y < size; y++) {
        assert.deepEqual(parseNotation(toNotation(x, y), size), { x, y });
      }
    }
  }
});

test('notation examples', () => {
  assert.equal(toNotation(7, 7), 'h8');
  assert.equal(toNotation(0, 0), 'a1');
  assert.equal(toNotation(19, 19), 't20');
  assert.equal(colLetter(8), 'i');
  assert.deepEqual(parseNotation('H8'), { x: 7, y: 7 });
  assert.deepEqual(parseNotation('o15', 15), { x: 14, y: 14 });
});

test('parseNotation rejects bad input', () => {
  for (const s of ['', 'h', '8', 'h0', 'p1', 'a16', 'hh8', 'h8x', null, 42, 'a-1']) {
    assert.equal(parseNotation(s, 15), null, String(s));
  }
});

test('point <-> pixel round trip; a1 is bottom left', () => {
  for (const size of [15, 19, 20]) {
    const geo = layout(size, 1000);
    for (let x = 0; x < size; x++) {
      for (let y = 0; y < size; y++) {
        const { px, py } = pointToPixel(x, y, geo);
        assert.deepEqual(pixelToPoint(px, py, geo), { x, y });
        assert.deepEqual(pixelToPoint(px + geo.cell * 0.4, py - geo.cell * 0.4, geo), { x, y });
      }
    }
    const a1 = pointToPixel(0, 0, geo);
    const top = pointToPixel(0, size - 1, geo);
    assert.ok(a1.py > top.py, 'row 1 is at the bottom');
    assert.equal(a1.px, geo.margin);
  }
});

test('pixelToPoint rejects far and off-board clicks', () => {
  const geo = layout(15, 1000);
  assert.equal(pixelToPoint(0, 0, geo), null);
  assert.equal(pixelToPoint(2000, 500, geo), null);
  const { px, py } = pointToPixel(3, 3, geo);
  assert.equal(pixelToPoint(px + geo.cell * 0.5, py, geo, 0.3), null);
});

test('star points', () => {
  const s15 = starPoints(15).map((p) => toNotation(p.x, p.y)).sort();
  assert.deepEqual(s15, ['d12', 'd4', 'h8', 'l12', 'l4'].sort());
  assert.equal(starPoints(20).length, 4);
  assert.deepEqual(centre(15), { x: 7, y: 7 });
});

test('moveCursor stays on the board; up raises the row', () => {
  assert.deepEqual(moveCursor({ x: 7, y: 7 }, 'ArrowUp', 15), { x: 7, y: 8 });
  assert.deepEqual(moveCursor({ x: 0, y: 0 }, 'ArrowLeft', 15), { x: 0, y: 0 });
  assert.deepEqual(moveCursor({ x: 14, y: 14 }, 'ArrowRight', 15), { x: 14, y: 14 });
  assert.deepEqual(moveCursor({ x: 3, y: 0 }, 'ArrowDown', 15), { x: 3, y: 0 });
  assert.deepEqual(moveCursor({ x: 3, y: 3 }, 'Enter', 15), { x: 3, y: 3 });
});

test('coordinate labels clear the stones on the edge lines (row 1 and column a)', () => {
  for (let size = 15; size <= 20; size++) {
    const geo = layout(size, 1000);
    const lab = coordLabels(geo);
    const r = geo.cell * STONE_RADIUS;
    const low = pointToPixel(0, 0, geo).py; // row 1
    const high = pointToPixel(0, size - 1, geo).py;
    const left = pointToPixel(0, 0, geo).px; // column a
    const right = pointToPixel(size - 1, 0, geo).px;
    const half = lab.fontSize / 2;
    assert.ok(lab.bottom - half >= low + r, `size ${size}: bottom labels below row-1 stones`);
    assert.ok(lab.bottom + half <= geo.px, `size ${size}: bottom labels on the board`);
    assert.ok(lab.top + half <= high - r, `size ${size}: top labels above the last row's stones`);
    assert.ok(lab.top - half >= 0);
    const wide = lab.fontSize * 0.62; // half the width of a two-digit row number
    assert.ok(lab.left + wide <= left - r, `size ${size}: row numbers left of column-a stones`);
    assert.ok(lab.right - wide >= right + r, `size ${size}: row numbers right of the last column's stones`);
    assert.ok(lab.left - wide >= 0 && lab.right + wide <= geo.px);
  }
});
