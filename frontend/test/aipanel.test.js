import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../static/js/i18n.js';
import { evalText, blackShare } from '../static/js/views/aipanel.js';

test('evalText: the evaluation from a fixed point of view, whichever side the AI plays', () => {
  setLang('en');
  assert.equal(evalText(50, 0, 'black'), 'Black +0.50');
  assert.equal(evalText(50, 0, 'white'), 'White +0.50');
  assert.equal(evalText(-120, 0, 'white'), 'Black +1.20', 'the AI (white) is worse: black is better');
  assert.equal(evalText(-120, 0, 'black'), 'White +1.20');
  assert.equal(evalText(0, 0, 'white'), 'Even');
  assert.equal(evalText(0, 5, 'white'), 'White wins in 5');
  assert.equal(evalText(0, -4, 'white'), 'Black wins in 4');
  setLang('zh');
  assert.equal(evalText(-120, 0, 'white'), '黑方 +1.20');
  setLang('en');
  assert.ok(blackShare(-120, 0, 'white') > 0.5, 'the bar agrees');
});
