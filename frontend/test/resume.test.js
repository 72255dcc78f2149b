import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeIdGen, SeqTracker, PendingMoves, backoffDelay, backoffSchedule, isFatal } from '../static/js/resume.js';

test('ids are unique and prefixed', () => {
  const next = makeIdGen('m');
  assert.equal(next(), 'm1');
  assert.equal(next(), 'm2');
});

test('SeqTracker: apply in order, ignore duplicates, detect gaps', () => {
  const s = new SeqTracker();
  assert.equal(s.offer(1), 'apply');
  assert.equal(s.offer(2), 'apply');
  assert.equal(s.offer(2), 'duplicate');
  assert.equal(s.offer(1), 'duplicate');
  assert.equal(s.offer(4), 'gap');
  assert.equal(s.lastSeq, 2, 'a gap does not move the position');
  assert.equal(s.offer(3), 'apply');
  assert.equal(s.offer(4), 'apply');
  s.reset(10);
  assert.equal(s.offer(11), 'apply');
  const resumed = new SeqTracker(7);
  assert.equal(resumed.offer(7), 'duplicate');
  assert.equal(resumed.offer(8), 'apply');
});

test('PendingMoves: ack, reject, settle by event, resend order', () => {
  const p = new PendingMoves();
  p.add('c2', 2, 'h9', 100);
  p.add('c1', 0, 'h8', 50);
  assert.equal(p.size, 2);
  assert.equal(p.has('h8'), true);
  assert.deepEqual(p.list().map((m) => m.id), ['c1', 'c2']);
  assert.equal(p.ack('c1').point, 'h8');
  assert.equal(p.ack('c1'), null, 'ack twice is harmless');
  assert.equal(p.reject('zz'), null);
  const settled = p.seen(2, 'h9');
  assert.deepEqual(settled.map((m) => [m.id, m.mine]), [['c2', true]]);
  assert.equal(p.size, 0);
  p.add('c3', 4, 'a1');
  assert.deepEqual(p.seen(4, 'b2').map((m) => m.mine), [false], 'someone else moved first');
  p.add('c4', 6, 'a1');
  assert.deepEqual(p.seen(5, 'b2'), [], 'earlier plies do not settle later moves');
  p.clear();
  assert.equal(p.size, 0);
});

test('backoff grows exponentially with jitter and is capped', () => {
  const opts = { base: 500, max: 15000, factor: 2 };
  const sched = backoffSchedule(8, opts);
  assert.deepEqual(sched[0], [250, 500]);
  assert.deepEqual(sched[1], [500, 1000]);
  assert.deepEqual(sched[2], [1000, 2000]);
  for (let i = 1; i < sched.length; i++) assert.ok(sched[i][0] >= sched[i - 1][0]);
  assert.deepEqual(sched[7], [7500, 15000], 'capped');
  assert.equal(backoffDelay(50, opts, () => 0.5), 11250);
  for (let i = 0; i < 200; i++) {
    const d = backoffDelay(i % 10, opts);
    assert.ok(d >= 250 && d <= 15000, String(d));
  }
});

test('isFatal', () => {
  assert.equal(isFatal('no_such_room'), true);
  assert.equal(isFatal('not_your_turn'), false);
});
