import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../static/js/i18n.js';
import { resultText, movesText } from '../static/js/lobby.js';

test('lobby: a finished entry names its result in words, an aborted game included', () => {
  setLang('en');
  assert.equal(resultText('black', 'five'), 'Black wins · five in a row');
  assert.equal(resultText('draw', 'draw_agreed'), 'Draw');
  assert.equal(resultText('aborted', 'aborted'), 'Game aborted');
  setLang('zh');
  assert.equal(resultText('aborted', 'aborted'), '对局已取消');
  for (const lang of ['en', 'zh']) {
    setLang(lang);
    for (const r of ['black', 'white', 'draw', 'aborted']) assert.doesNotMatch(resultText(r, ''), /color\.|status\.|reason\./, `${lang} ${r}`);
  }
  setLang('en');
});

test('lobby: move counts in singular and plural', () => {
  setLang('en');
  assert.equal(movesText(0), '0 moves');
  assert.equal(movesText(1), '1 move');
  assert.equal(movesText(2), '2 moves');
  setLang('zh');
  assert.equal(movesText(1), '1 手');
  assert.equal(movesText(12), '12 手');
  setLang('en');
});
