import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode, decode, hello, ProtocolError, utf8Length, wsURL, MAX_FRAME } from '../static/js/protocol.js';
import { snapshot, event } from './fixtures.js';

test('encode produces the documented shapes', () => {
  assert.deepEqual(JSON.parse(encode({ type: 'move', id: 'c1', ply: 0, point: 'h8' })),
    { type: 'move', id: 'c1', ply: 0, point: 'h8' });
  assert.deepEqual(JSON.parse(encode(hello('tok', 12))), { type: 'hello', token: 'tok', last_seq: 12 });
  assert.deepEqual(JSON.parse(encode(hello('', 0))), { type: 'hello' });
  for (const type of ['resign', 'draw_offer', 'draw_accept', 'draw_decline', 'takeback_request',
    'takeback_accept', 'takeback_decline', 'rematch', 'abort', 'claim_victory', 'hint', 'ping']) {
    assert.equal(JSON.parse(encode({ type })).type, type);
  }
  assert.equal(JSON.parse(encode({ type: 'sit', color: 'white' })).color, 'white');
});

test('encode refuses bad commands', () => {
  const bad = [
    [{ type: 'nope' }, 'unknown_type'],
    [null, 'unknown_type'],
    [{ type: 'move', ply: -1, point: 'h8' }, 'bad_request'],
    [{ type: 'move', ply: 1.5, point: 'h8' }, 'bad_request'],
    [{ type: 'move', ply: 0 }, 'bad_request'],
    [{ type: 'chat', text: '   ' }, 'bad_request'],
    [{ type: 'chat', text: 'x'.repeat(301) }, 'too_large'],
    [{ type: 'ping', pad: 'x'.repeat(MAX_FRAME) }, 'too_large'],
  ];
  for (const [msg, code] of bad) {
    assert.throws(() => encode(msg), (e) => e instanceof ProtocolError && e.code === code, JSON.stringify(msg)?.slice(0, 40));
  }
  assert.doesNotThrow(() => encode({ type: 'chat', text: '你'.repeat(300) }));
});

test('utf8Length', () => {
  assert.equal(utf8Length('abc'), 3);
  assert.equal(utf8Length('五子棋'), 9);
  assert.equal(utf8Length('é'), 2);
  assert.equal(utf8Length('😀'), 4);
});

test('decode accepts every documented server message', () => {
  const good = [
    { type: 'welcome', room_id: 'r9', you: { role: 'black', player_id: 'p_1', name: 'Alice' } },
    { type: 'snapshot', seq: 7, room: snapshot() },
    { type: 'event', seq: 8, event: event(8, 'move', { color: 'white', point: 'a1', ply: 3, forbidden: [{ point: 'i8', kind: 'double_three' }] }) },
    { type: 'ack', id: 'c1', seq: 8 },
    { type: 'ack', id: 'c1', seq: 8, duplicate: true },
    { type: 'error', id: '', code: 'no_such_room', message: 'no such room' },
    { type: 'resync' },
    { type: 'ai', ephemeral: true, color: 'white', status: 'thinking', depth: 3, seldepth: 5, score: 12, mate: 0, nodes: 100, nps: 1000, pv: null, elapsed_ms: 10, budget_ms: 0, ply: 3 },
    { type: 'presence', ephemeral: true, black: { connected: true, since: 1, grace_ms: 60000 }, white: { connected: false, since: 2, grace_ms: 60000, claimable: true }, spectators: 2 },
    { type: 'hint', ephemeral: true, id: 'c2', point: 'h8', score: 40 },
    { type: 'pong', id: 'c3' },
  ];
  for (const m of good) assert.deepEqual(decode(JSON.stringify(m)), m, m.type);
  assert.equal(decode('{"type":"future_thing","x":1}').unknown, true, 'unknown types pass for newer servers');
});

test('decode refuses garbage and known types without their required fields', () => {
  const bad = ['', 'nope', '[]', '{}', '{"type":5}', 'null',
    '{"type":"event","event":{}}', '{"type":"event","seq":"1","event":{"kind":"move"}}', '{"type":"event","seq":1,"event":{}}',
    '{"type":"snapshot","seq":1}', '{"type":"snapshot","seq":1,"room":{"id":"r"}}',
    '{"type":"welcome"}', '{"type":"welcome","you":{}}', '{"type":"ack","seq":1}', '{"type":"error","id":"c1"}',
    '{"type":"presence","spectators":1}', '{"type":"hint","id":"c1"}', '{"type":"ai","ply":1}'];
  for (const s of bad) assert.throws(() => decode(s), ProtocolError, s);
});

test('decode never throws anything but ProtocolError (fuzz)', () => {
  let seed = 42;
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
  const alphabet = '{}[]":,0123456789abcdefghijklmnopqrstuvwxyz typeseqevent\\';
  for (let i = 0; i < 3000; i++) {
    let s = '';
    const n = Math.floor(rnd() * 40);
    for (let j = 0; j < n; j++) s += alphabet[Math.floor(rnd() * alphabet.length)];
    try { decode(s); } catch (e) { assert.ok(e instanceof ProtocolError, s); }
  }
});

test('wsURL', () => {
  assert.equal(wsURL({ protocol: 'https:', host: 'x.org' }, 'ab c'), 'wss://x.org/ws/rooms/ab%20c');
  assert.equal(wsURL({ protocol: 'http:', host: 'localhost:8080' }, 'r1'), 'ws://localhost:8080/ws/rooms/r1');
});
