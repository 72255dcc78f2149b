import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visibleChat, unreadCount } from '../static/js/views/chat.js';

const line = (seq, channel, id, name) => ({ seq, channel, id, name, color: channel === 'players' ? 'black' : '', text: `m${seq}` });
const lines = [line(5, 'players', 'p_1', 'Alice'), line(6, 'spectators', 'p_9', 'Carol'), line(7, 'players', 'p_2', 'Bob'), line(8, 'spectators', '', 'Old')];
const seqs = (ls) => ls.map((l) => l.seq);

test('visibleChat: players see their channel, and the spectators\' only when they turn it on', () => {
  assert.deepEqual(seqs(visibleChat(lines, { player: true, showSpectators: false, muted: [] })), [5, 7]);
  assert.deepEqual(seqs(visibleChat(lines, { player: true, showSpectators: true, muted: [] })), [5, 6, 7, 8]);
  assert.deepEqual(seqs(visibleChat(lines, { player: false, showSpectators: false, muted: [] })), [5, 6, 7, 8], 'spectators see both');
});

test('visibleChat: a muted person\'s lines are hidden, in either channel', () => {
  assert.deepEqual(seqs(visibleChat(lines, { player: false, showSpectators: false, muted: ['p_9', 'p_2'] })), [5, 8]);
  assert.deepEqual(seqs(visibleChat(lines, { player: true, showSpectators: true, muted: ['p_1'] })), [6, 7, 8]);
});

test('unreadCount: lines after the last one seen, not counting one\'s own', () => {
  assert.equal(unreadCount(lines, 0, 'p_1'), 3);
  assert.equal(unreadCount(lines, 6, 'p_1'), 2);
  assert.equal(unreadCount(lines, 8, 'p_1'), 0);
  assert.equal(unreadCount(lines, 0, ''), 4, 'an anonymous viewer wrote none of them');
});
