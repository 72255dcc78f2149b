import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playerKey, playerPath, chartPath, changeText } from '../static/js/views/player.js';

test('playerKey: account pages by username, anyone by id', () => {
  assert.equal(playerKey('/@/alice'), '@alice');
  assert.equal(playerKey('/@/Alice_1/'), '@Alice_1');
  assert.equal(playerKey('/@/id/p_Vb1x'), 'p_Vb1x');
  assert.equal(playerKey('/@/'), null);
  assert.equal(playerKey('/@/a b'), null);
  assert.equal(playerKey('/@/' + 'x'.repeat(21)), null, 'usernames are at most 20 characters');
  assert.equal(playerKey('/r/abc'), null);
  assert.equal(playerPath({ id: 'p_1', username: 'alice' }), '/@/alice');
  assert.equal(playerPath({ id: 'p_1' }), '/@/id/p_1');
});

test('chartPath: oldest point on the left, highest rating at the top', () => {
  const c = chartPath([{ r: 1500 }, { r: 1600 }, { r: 1550 }], 100, 50);
  assert.equal(c.points, '0.0,50.0 50.0,0.0 100.0,25.0');
  assert.deepEqual([c.min, c.max], [1500, 1600]);
  assert.equal(chartPath([{ r: 1500 }], 100, 50).points, '50.0,25.0', 'one point: centred, flat range widened');
  assert.equal(chartPath([], 100, 50).points, '');
});

test('changeText: the rating after a rated game with ? while provisional, and the difference', () => {
  assert.equal(changeText({ before: 1500, after: 1662, provisional: true }), '1662? (+162)');
  assert.equal(changeText({ before: 1720, after: 1711, provisional: false }), '1711 (−9)');
});
