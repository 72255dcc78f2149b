import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connBanner } from '../static/js/connview.js';

test('connBanner: nothing while connecting the first time or connected', () => {
  assert.equal(connBanner({ state: 'connecting', attempt: 0, retryAt: 0 }, 0), null);
  assert.equal(connBanner({ state: 'open', attempt: 0, retryAt: 0 }, 0), null);
});

test('connBanner: a lost connection counts down to the next attempt, then says it is trying', () => {
  const c = { state: 'reconnecting', attempt: 3, retryAt: 5000 };
  assert.deepEqual(connBanner(c, 1000), { key: 'conn.retryIn', params: { n: 3, s: 4 }, tone: 'warn', retry: true });
  assert.deepEqual(connBanner(c, 4001).params, { n: 3, s: 1 }, 'rounded up: never "in 0 s" before the attempt');
  assert.deepEqual(connBanner(c, 5000), { key: 'conn.retrying', params: { n: 3 }, tone: 'warn', retry: false });
  assert.deepEqual(connBanner({ state: 'reconnecting', attempt: 0, retryAt: 0 }, 0).params, { n: 1 }, 'attempts count from 1');
});

test('connBanner: a connection closed for good says so and offers a retry', () => {
  assert.deepEqual(connBanner({ state: 'closed', attempt: 2, retryAt: 0 }, 0), { key: 'conn.closed', params: {}, tone: 'error', retry: true });
});
