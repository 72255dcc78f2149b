import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  makeClock, remaining, stop, start, correct, formatClock, formatTimeControl, isLow, countdown,
} from '../static/js/clock.js';

test('a running clock counts down from its server value', () => {
  const c = makeClock(60000, true, 1000);
  assert.equal(remaining(c, 1000), 60000);
  assert.equal(remaining(c, 11000), 50000);
  assert.equal(remaining(c, 999999), 0);
  assert.equal(remaining(c, 500), 60000, 'never runs backwards');
});

test('stop/start/correct', () => {
  let c = makeClock(60000, true, 0);
  c = stop(c, 5000);
  assert.equal(remaining(c, 50000), 55000);
  c = start(c, 50000);
  assert.equal(remaining(c, 51000), 54000);
  c = correct(c, 53000, 51500);
  assert.equal(remaining(c, 51500), 53000);
  assert.equal(c.running, true);
  assert.equal(remaining(makeClock(null), 5), null);
});

test('formatClock', () => {
  const cases = [[null, '∞'], [0, '0:00.0'], [9950, '0:09.9'], [10000, '0:10'], [65000, '1:05'],
    [300000, '5:00'], [3600000, '1:00:00'], [3725000, '1:02:05'], [-5, '0:00.0']];
  for (const [ms, want] of cases) assert.equal(formatClock(ms), want, String(ms));
});

test('formatTimeControl', () => {
  assert.equal(formatTimeControl({ base_ms: 300000, increment_ms: 5000 }), '5+5');
  assert.equal(formatTimeControl({ base_ms: 90000, increment_ms: 0 }), '1.5+0');
  assert.equal(formatTimeControl({ base_ms: 0, per_move_ms: 30000 }), '30s/move');
  assert.equal(formatTimeControl({}), '∞');
  assert.equal(formatTimeControl(null), '∞');
});

test('isLow and countdown', () => {
  assert.equal(isLow(15000, 600000), true);
  assert.equal(isLow(50000, 600000), true);
  assert.equal(isLow(120000, 600000), false);
  assert.equal(isLow(null, 0), false);
  assert.equal(countdown(60000, 15000), 45000);
  assert.equal(countdown(60000, 90000), 0);
});
