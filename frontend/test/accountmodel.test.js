import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usernameProblem, passwordProblem, deviceLabel, sessionRows } from '../static/js/accountmodel.js';
import { TABLES } from '../static/js/i18n.js';

test('usernameProblem follows the server pattern', () => {
  for (const [u, want] of [['abc', ''], ['A-b_9', ''], ['x'.repeat(20), ''], ['ab', 'bad_username'],
    ['x'.repeat(21), 'bad_username'], ['a b', 'bad_username'], ['李雷李雷', 'bad_username'], ['', 'bad_username']]) {
    assert.equal(usernameProblem(u), want, u);
  }
});

test('passwordProblem: length in characters, not containing the username', () => {
  for (const [pw, user, want] of [['tulip-sky-42', 'ann', ''], ['八个汉字的密码呀', 'ann', ''], ['seven77', '', 'weak_password'],
    ['ab'.repeat(64), '', ''], ['ab'.repeat(64) + 'c', '', 'weak_password'], ['xxAnnxxxx', 'ann', 'weak_password']]) {
    assert.equal(passwordProblem(pw, user), want, pw);
  }
});

test('deviceLabel', () => {
  assert.equal(deviceLabel('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'), 'Chrome · Linux');
  assert.equal(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1'), 'Safari · iOS');
  assert.equal(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0'), 'Firefox · Windows');
  assert.equal(deviceLabel('curl/8.5.0'), 'curl');
  assert.equal(deviceLabel(''), '');
  assert.equal(deviceLabel('something else'), '');
});

test('sessionRows puts this device first, then the most recently used', () => {
  const rows = sessionRows([
    { id: 's_a', created_ms: 1, last_used_ms: 10, user_agent: '', current: false },
    { id: 's_b', created_ms: 2, last_used_ms: 5, user_agent: 'curl/8', current: true },
    { id: 's_c', created_ms: 3, last_used_ms: 30, user_agent: '', current: false },
  ]);
  assert.deepEqual(rows.map((r) => r.id), ['s_b', 's_c', 's_a']);
  assert.equal(rows[0].device, 'curl');
});

test('every account error code has a message in both languages', () => {
  for (const c of ['bad_username', 'weak_password', 'username_taken', 'bad_credentials', 'rate_limited']) {
    for (const lang of ['en', 'zh']) assert.ok(TABLES[lang][`error.${c}`], `${lang} ${c}`);
  }
});
