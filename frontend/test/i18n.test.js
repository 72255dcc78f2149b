import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TABLES, LANGS, detectLang, translate, translatePlural, format, setLang, t, getLang } from '../static/js/i18n.js';

test('both languages have exactly the same keys', () => {
  const en = Object.keys(TABLES.en).sort();
  for (const lang of LANGS) {
    assert.deepEqual(Object.keys(TABLES[lang]).sort(), en, lang);
  }
});

test('placeholders match between languages', () => {
  const ph = (s) => [...new Set(s.match(/\{\w+\}/g) || [])].sort();
  for (const key of Object.keys(TABLES.en)) {
    for (const lang of LANGS) {
      assert.deepEqual(ph(TABLES[lang][key]), ph(TABLES.en[key]), `${lang} ${key}`);
    }
  }
});

test('no empty strings', () => {
  for (const lang of LANGS) for (const [k, v] of Object.entries(TABLES[lang])) assert.ok(v.trim(), `${lang} ${k}`);
});

test('every protocol error code has a message', async () => {
  const codes = ['bad_request', 'bad_json', 'unknown_type', 'too_large', 'rate_limited', 'unauthorized',
    'not_a_player', 'not_your_turn', 'off_board', 'occupied', 'forbidden', 'stale_ply', 'game_over',
    'game_not_started', 'seat_taken', 'no_such_room', 'not_allowed', 'no_pending_offer', 'ai_busy',
    'unavailable', 'conflict', 'internal'];
  for (const c of codes) assert.ok(TABLES.en[`error.${c}`], c);
  for (const r of ['five', 'resign', 'timeout', 'draw_agreed', 'board_full', 'no_legal_move', 'abandoned', 'aborted', 'forfeit', 'first_move_timeout']) {
    assert.ok(TABLES.en[`reason.${r}`], r);
    assert.ok(TABLES.zh[`reason.${r}`], r);
  }
});

test('detectLang', () => {
  assert.equal(detectLang('zh-CN'), 'zh');
  assert.equal(detectLang('zh'), 'zh');
  assert.equal(detectLang('ZH-tw'), 'zh');
  assert.equal(detectLang('en-US'), 'en');
  assert.equal(detectLang('fr'), 'en');
  assert.equal(detectLang(undefined), 'en');
});

test('format and translate', () => {
  assert.equal(format('{a} and {b}', { a: 1, b: 'x' }), '1 and x');
  assert.equal(format('{missing}', {}), '{missing}');
  assert.equal(translatePlural('zh', 'lobby.moves', 12), '12 手');
  assert.equal(translatePlural('en', 'lobby.moves', 1), '1 move');
  assert.equal(translatePlural('en', 'lobby.moves', 3), '3 moves');
  assert.equal(translate('xx', 'nav.lobby'), 'Lobby');
  assert.equal(translate('en', 'no.such.key'), 'no.such.key');
  setLang('zh');
  assert.equal(getLang(), 'zh');
  assert.equal(t('nav.lobby'), '大厅');
  setLang('klingon');
  assert.equal(getLang(), 'en');
});
