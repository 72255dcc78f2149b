import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  initial, seekMessage, sent, receive, lost, offerAI, waitText, clockTime, aiGameBody, AI_OFFER_MS, ratingPool, poolRating,
} from '../static/js/pairingmodel.js';

test('seekMessage keeps rated for accounts only and falls back on unknown pools', () => {
  const cases = [
    [{ rule: 'renju', clock: '10+5', rated: true }, true, { type: 'seek', id: 's1', rule: 'renju', clock: '10+5', rated: true }],
    [{ rule: 'renju', clock: '10+5', rated: true }, false, { type: 'seek', id: 's1', rule: 'renju', clock: '10+5', rated: false }],
    [{ rule: 'gomoku', clock: '99+0', rated: false }, true, { type: 'seek', id: 's1', rule: 'freestyle', clock: '5+3', rated: false }],
  ];
  for (const [pool, acct, want] of cases) assert.deepEqual(seekMessage('s1', pool, acct), want);
});

test('a seek waits from its sending, offers the AI after a while, and is paired', () => {
  let st = sent(initial(), 's1', 1000);
  st = receive(st, { type: 'seeking', id: 's1', pool: 'freestyle-5+3-casual', since_ms: 99, ai_level: 'novice' }, 1500);
  assert.equal(st.phase, 'seeking');
  assert.equal(st.since, 1000, 'the local send time, not the server clock');
  assert.equal(offerAI(st, 1000 + AI_OFFER_MS - 1), false);
  assert.equal(offerAI(st, 1000 + AI_OFFER_MS), true);
  st = receive(st, { type: 'paired', room_id: 'r9', color: 'white' }, 2000);
  assert.equal(st.phase, 'paired');
  assert.equal(st.room, 'r9');
});

test('a seek ends: cancelled quietly, replaced, expired or its match failed with a message, refused with its code', () => {
  const seeking = sent(initial(), 's1', 0);
  const cases = [
    [{ type: 'seek_ended', id: 's1', reason: 'cancelled' }, ''],
    [{ type: 'seek_ended', reason: 'replaced' }, 'seek.ended.replaced'],
    [{ type: 'seek_ended', reason: 'expired' }, 'seek.ended.expired'],
    [{ type: 'seek_ended', reason: 'match_failed' }, 'seek.ended.match_failed'],
    [{ type: 'error', id: 's1', code: 'account_required' }, 'error.account_required'],
  ];
  for (const [msg, err] of cases) {
    const st = receive(seeking, msg, 5);
    assert.equal(st.phase, 'idle', msg.type);
    assert.equal(st.error, err, JSON.stringify(msg));
  }
  assert.deepEqual(receive(seeking, { type: 'error', id: 'other', code: 'rate_limited' }, 5), seeking, 'another frame\'s error');
  assert.deepEqual(receive(initial(), { type: 'seek_ended', reason: 'expired' }, 5), initial(), 'nothing to end');
  assert.equal(lost(seeking).error, 'seek.ended.expired');
  assert.deepEqual(lost(initial()), initial());
});

test('waitText and the AI game body', () => {
  for (const [ms, want] of [[0, '0:00'], [9999, '0:09'], [65000, '1:05'], [-5, '0:00'], [3600000, '60:00']]) assert.equal(waitText(ms), want);
  assert.deepEqual(clockTime('15+10'), { base_ms: 900000, increment_ms: 10000, per_move_ms: 0 });
  const body = aiGameBody({ rule: 'standard', clock: '3+2' }, 'advanced');
  assert.deepEqual(body.opponent, { kind: 'ai', level: 'advanced' });
  assert.equal(body.rule, 'standard');
  assert.deepEqual(body.time, { base_ms: 180000, increment_ms: 2000, per_move_ms: 0 });
  assert.equal(body.auto_analysis, true, 'analysed when it ends, as by default');
  assert.equal(aiGameBody({ rule: 'standard', clock: '3+2' }, 'advanced', false).auto_analysis, false, 'unless the player unticked it');
});

test('ratingPool reads the rating pool of a rule and clock from the server\'s table', () => {
  // As GET /api/pairing/pools answers (server/ratings.go, TestPairingPools).
  const pools = [
    { rule: 'freestyle', clock: '1+0', rating_pool: 'freestyle-bullet' },
    { rule: 'freestyle', clock: '3+2', rating_pool: 'freestyle-blitz' },
    { rule: 'renju', clock: '5+3', rating_pool: 'renju-blitz' },
    { rule: 'standard', clock: '10+5', rating_pool: 'standard-rapid' },
  ];
  const cases = [
    ['freestyle', '1+0', 'freestyle-bullet'],
    ['freestyle', '3+2', 'freestyle-blitz'],
    ['renju', '5+3', 'renju-blitz'],
    ['standard', '10+5', 'standard-rapid'],
    ['renju', '10+5', ''], // not in the table
  ];
  for (const [rule, clock, want] of cases) assert.equal(ratingPool(pools, rule, clock), want, `${rule} ${clock}`);
  assert.equal(ratingPool([], 'freestyle', '3+2'), '', 'nothing before the table is known');
});

test('poolRating reads the pool rating, 1500? without rated games there', () => {
  const ratings = [{ pool: 'freestyle-blitz', display: '1612' }, { pool: 'renju-rapid', display: '1480?' }];
  assert.equal(poolRating(ratings, 'freestyle-blitz'), '1612');
  assert.equal(poolRating(ratings, 'renju-rapid'), '1480?');
  assert.equal(poolRating(ratings, 'standard-blitz'), '1500?');
  assert.equal(poolRating([], 'freestyle-blitz'), '1500?');
});
