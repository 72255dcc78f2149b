import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../static/js/i18n.js';
import { errorText, forbiddenText } from '../static/js/errors.js';

test('a forbidden-point refusal names its reason, and never shows an empty one', () => {
  for (const lang of ['en', 'zh']) {
    setLang(lang);
    for (const msg of ['', 'forbidden point', undefined]) {
      assert.doesNotMatch(errorText('forbidden', msg), /\(\s*\)|（\s*）/, `${lang} ${msg}`);
    }
    assert.doesNotMatch(forbiddenText(undefined), /\(\s*\)|（\s*）|forbidden\./, lang);
  }
  setLang('en');
  assert.equal(errorText('forbidden', 'double_three'), 'Forbidden point for black (double three).');
  assert.equal(errorText('forbidden', ''), 'Forbidden point for black.');
  assert.equal(forbiddenText('overline'), 'Forbidden point for black (overline).');
  assert.equal(errorText('not_your_turn', 'x'), 'It is not your turn.');
  assert.equal(errorText('weird_code', 'what happened'), 'Something went wrong: what happened');
});
