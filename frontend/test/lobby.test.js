import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../static/js/i18n.js';
import { resultText, movesText, createBody, secondsText, seatEntry } from '../static/js/lobby.js';

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

const form = {
  mode: 'ai', rule: 'renju', size: 15, time: '3+2', takebacks: true, chat: false, opening: 'swap2',
  color: 'white', visibility: 'public', level: 'expert', level_black: 'novice', level_white: 'master',
  pace_ms: 3000, first_move_ms: 60000,
};

test('lobby: the create body carries the first-move limit for timed games and the pace for AI shows', () => {
  const ai = createBody(form);
  assert.equal(ai.first_move_ms, 60000);
  assert.equal(ai.ai_pace_ms, undefined);
  assert.deepEqual(ai.opponent, { kind: 'ai', level: 'expert' });
  assert.deepEqual(ai.time, { base_ms: 180000, increment_ms: 2000, per_move_ms: 0 });
  assert.equal(ai.opening, 'swap2');

  const untimed = createBody({ ...form, mode: 'human', time: 'none' });
  assert.equal(untimed.first_move_ms, undefined, 'no first-move limit without a clock');
  assert.deepEqual(untimed.opponent, { kind: 'human' });

  const show = createBody({ ...form, mode: 'aivai' });
  assert.equal(show.ai_pace_ms, 3000);
  assert.equal(show.first_move_ms, undefined);
  assert.equal(show.me, 'none');
  assert.deepEqual([show.black.level, show.white.level], ['novice', 'master']);
});

test('lobby: only a game between people can be asked rated', () => {
  assert.equal(createBody({ ...form, mode: 'human', rated: true }).rated, true);
  assert.equal(createBody({ ...form, mode: 'human', rated: false }).rated, undefined);
  assert.equal(createBody({ ...form, mode: 'ai', rated: true }).rated, undefined, 'games against the AI are casual');
});

test('lobby: a game against the AI asks the server to analyse it when it ends, unless unticked', () => {
  assert.equal(createBody({ ...form, mode: 'ai', auto_analysis: true }).auto_analysis, true);
  assert.equal(createBody({ ...form, mode: 'ai', auto_analysis: false }).auto_analysis, false);
  assert.equal(createBody({ ...form, mode: 'ai' }).auto_analysis, true, 'on by default, as the server');
  assert.equal(createBody({ ...form, mode: 'human', auto_analysis: true }).auto_analysis, undefined, 'games between people: on request only');
  assert.equal(createBody({ ...form, mode: 'aivai', auto_analysis: true }).auto_analysis, undefined, 'AI shows: on request only');
});

test('lobby: durations in seconds or minutes', () => {
  setLang('en');
  assert.equal(secondsText(15000), '15 s');
  assert.equal(secondsText(120000), '2 min');
  setLang('zh');
  assert.equal(secondsText(1000), '1 秒');
  setLang('en');
});

test('lobby: a seat shows its name and its rating in the pool', () => {
  setLang('en');
  const alice = { kind: 'human', name: 'Alice', level: '', engine: '', player_id: 'p_a b', left: false, rating: '1500?' };
  assert.deepEqual(seatEntry(alice), { name: 'Alice', rating: '1500?' });
  assert.deepEqual(seatEntry({ ...alice, rating: undefined }), { name: 'Alice', rating: '' });
  const ai = seatEntry({ kind: 'ai', name: 'expert', level: 'expert', engine: '', player_id: '', left: false });
  assert.equal(ai.rating, '');
  assert.match(ai.name, /^AI · /);
  const rated = seatEntry({ kind: 'ai', name: 'expert', level: 'expert', engine: '', player_id: '', left: false }, { expert: 1934 });
  assert.equal(rated.rating, '1934', "an AI seat shows its level's published rating");
});
