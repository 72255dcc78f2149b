import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromRecord, gamesOf } from '../static/js/views/archive.js';
import { stonesAt, winLine } from '../static/js/state.js';
import { status } from '../static/js/statusline.js';
import { snapshot } from './fixtures.js';

const record = (over = {}) => ({
  room: 'r1', game: 1, games: 2, settings: snapshot().settings,
  black: { spec: { kind: 'human' }, player: { id: 'p_1', name: 'Alice' } },
  white: { spec: { kind: 'human' }, player: { id: 'p_2', name: 'Bob' } },
  moves: ['h8', 'a1', 'h9', 'a2', 'h10', 'a3', 'h11', 'a4', 'h12'],
  result: 'black', reason: 'five', line: ['h8', 'h9', 'h10', 'h11', 'h12'], started_at: 1, ended_at: 2, ...over,
});

test('fromRecord: a finished game of a room as the replay page draws it', () => {
  const g = fromRecord(record());
  assert.equal(g.phase, 'over');
  assert.equal(g.gameNo, 1);
  assert.equal(g.seats.black.name, 'Alice');
  assert.equal(g.seats.white.player_id, 'p_2');
  assert.equal(g.moves.length, 9);
  assert.deepEqual(g.moves[1], { ply: 1, color: 'white', point: 'a1', x: 0, y: 0 });
  assert.equal(stonesAt(g, 3).length, 3);
  assert.equal(winLine(g).length, 5);
  assert.deepEqual(status(g, 'spectator'), { key: 'status.wins', params: { color: 'black' }, tone: 'neutral', why: 'reason.five', colorParam: 'color' });
  const resigned = fromRecord(record({ moves: ['j10', 'k11'], result: 'white', reason: 'resign', line: [] }));
  assert.equal(resigned.moves.length, 2);
  assert.deepEqual(winLine(resigned), []);
  assert.equal(status(resigned, 'spectator').why, 'reason.resign');
});

test('gamesOf: every game of a room, the last one being the room itself', () => {
  assert.deepEqual(gamesOf('r1', 3, 1), [
    { n: 1, href: '/r/r1?game=1', current: true },
    { n: 2, href: '/r/r1?game=2', current: false },
    { n: 3, href: '/r/r1', current: false },
  ]);
  assert.deepEqual(gamesOf('r1', 1, 1), [{ n: 1, href: '/r/r1', current: true }]);
  assert.deepEqual(gamesOf('a b', 2, 0).map((g) => g.href), ['/r/a%20b?game=1', '/r/a%20b']);
});
