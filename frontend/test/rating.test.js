import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signed, deltaParams, changeOf, seatRating, levelLabel } from '../static/js/rating.js';
import { setLang } from '../static/js/i18n.js';
import { fromSnapshot, applyEvent } from '../static/js/state.js';
import { fromSummary } from '../static/js/lobbymodel.js';
import { snapshot, event } from './fixtures.js';

const change = { pool: 'freestyle-blitz', black: { before: 1500, after: 1662, provisional: true }, white: { before: 1500, after: 1338, provisional: true } };

test('signed and deltaParams format a change', () => {
  for (const [n, want] of [[12, '+12'], [-7, '−7'], [0, '±0']]) assert.equal(signed(n), want);
  assert.deepEqual(deltaParams(change.black), { before: '1500', after: '1662?', delta: '+162' });
  assert.deepEqual(deltaParams({ before: 1720, after: 1711 }), { before: '1720', after: '1711', delta: '−9' });
});

test('changeOf keeps only the change of the game on the page', () => {
  assert.equal(changeOf({ game: 2, rating: change }, 2), change);
  assert.equal(changeOf({ game: 1, rating: change }, 2), null);
  assert.equal(changeOf({ game: 2 }, 2), null);
});

test('seats carry ratings; the rating event and snapshot set the change; a rematch clears it', () => {
  const snap = snapshot({ black: { spec: { kind: 'human' }, player: { id: 'p_1', name: 'Alice', account: true, rating: '1500?' } } });
  let g = fromSnapshot(snap);
  assert.equal(g.seats.black.rating, '1500?');
  assert.equal(g.seats.white.rating, undefined, 'machines have no rating field');
  g = applyEvent(g, event(8, 'seated', { color: 'white', player: { id: 'p_2', name: 'Bob', rating: '1712' } }));
  assert.equal(g.seats.white.rating, '1712');
  g = applyEvent(g, event(9, 'game_over', { result: 'black', reason: 'resign' }));
  assert.equal(g.rating, null);
  g = applyEvent(g, event(10, 'rating', { rating: change }));
  assert.deepEqual(g.rating, change);
  g = applyEvent(g, event(11, 'rematch', { game: 2 }));
  assert.equal(g.rating, null);
  assert.deepEqual(fromSnapshot(snapshot({ phase: 'over', result: 'black', rating: change })).rating, change);
});

test("seatRating: a person's pool rating, an AI level's published rating", () => {
  const levels = { beginner: 800, expert: 1900 };
  const cases = [
    [null, ''],
    [{ kind: 'human', rating: '1500?' }, '1500?'],
    [{ kind: 'human' }, ''],
    [{ kind: 'ai', level: 'expert' }, '1900'],
    [{ kind: 'ai', level: 'unknown' }, ''],
    [{ kind: 'engine', level: '' }, ''],
  ];
  for (const [seat, want] of cases) assert.equal(seatRating(seat, levels), want, JSON.stringify(seat));
  assert.equal(seatRating({ kind: 'ai', level: 'expert' }), '', 'no published ratings known yet');
});

test("fromSummary keeps a seated player's rating for the lobby", () => {
  const sum = { id: 'r1', status: 'open', public: true, rule: 'freestyle', size: 15, time: { base_ms: 300000, increment_ms: 3000 },
    black: { kind: 'human', player_id: 'p_a', name: 'Alice', rating: '1612' }, white: { kind: 'human' }, game: 1, ply: 0, seq: 2, created_at: 0, updated_at: 0 };
  const r = fromSummary(/** @type {any} */ (sum));
  assert.equal(r.black?.rating, '1612');
  assert.equal(r.white, null);
  assert.equal(fromSummary(/** @type {any} */ ({ ...sum, black: { kind: 'human', player_id: 'p_a', name: 'Alice' } })).black?.rating, undefined);
});

test('levelLabel names a level with its published rating, in both languages', () => {
  setLang('en');
  assert.equal(levelLabel('expert', { expert: 1934 }), 'Expert, rating 1934');
  assert.equal(levelLabel('expert', {}), 'Expert', 'just the name while the ratings are unknown');
  setLang('zh');
  assert.match(levelLabel('expert', { expert: 1934 }), /，等级分 1934$/);
  setLang('en');
});
