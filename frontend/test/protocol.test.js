import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  encode, decode, hello, makeIdGen, SeqTracker, PendingMoves, backoffDelay, backoffSchedule,
  ProtocolError, utf8Length, isFatal, wsURL, MAX_FRAME,
} from '../static/js/protocol.js';
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

test('ids are unique and prefixed', () => {
  const next = makeIdGen('m');
  assert.equal(next(), 'm1');
  assert.equal(next(), 'm2');
});

test('SeqTracker: apply in order, ignore duplicates, detect gaps', () => {
  const s = new SeqTracker();
  assert.equal(s.offer(1), 'apply');
  assert.equal(s.offer(2), 'apply');
  assert.equal(s.offer(2), 'duplicate');
  assert.equal(s.offer(1), 'duplicate');
  assert.equal(s.offer(4), 'gap');
  assert.equal(s.lastSeq, 2, 'a gap does not move the position');
  assert.equal(s.offer(3), 'apply');
  assert.equal(s.offer(4), 'apply');
  s.reset(10);
  assert.equal(s.offer(11), 'apply');
  const resumed = new SeqTracker(7);
  assert.equal(resumed.offer(7), 'duplicate');
  assert.equal(resumed.offer(8), 'apply');
});

test('PendingMoves: ack, reject, settle by event, resend order', () => {
  const p = new PendingMoves();
  p.add('c2', 2, 'h9', 100);
  p.add('c1', 0, 'h8', 50);
  assert.equal(p.size, 2);
  assert.equal(p.has('h8'), true);
  assert.deepEqual(p.list().map((m) => m.id), ['c1', 'c2']);
  assert.equal(p.ack('c1').point, 'h8');
  assert.equal(p.ack('c1'), null, 'ack twice is harmless');
  assert.equal(p.reject('zz'), null);
  const settled = p.seen(2, 'h9');
  assert.deepEqual(settled.map((m) => [m.id, m.mine]), [['c2', true]]);
  assert.equal(p.size, 0);
  p.add('c3', 4, 'a1');
  assert.deepEqual(p.seen(4, 'b2').map((m) => m.mine), [false], 'someone else moved first');
  p.add('c4', 6, 'a1');
  assert.deepEqual(p.seen(5, 'b2'), [], 'earlier plies do not settle later moves');
  p.clear();
  assert.equal(p.size, 0);
});

test('backoff grows exponentially with jitter and is capped', () => {
  const opts = { base: 500, max: 15000, factor: 2 };
  const sched = backoffSchedule(8, opts);
  assert.deepEqual(sched[0], [250, 500]);
  assert.deepEqual(sched[1], [500, 1000]);
  assert.deepEqual(sched[2], [1000, 2000]);
  for (let i = 1; i < sched.length; i++) assert.ok(sched[i][0] >= sched[i - 1][0]);
  assert.deepEqual(sched[7], [7500, 15000], 'capped');
  assert.equal(backoffDelay(50, opts, () => 0.5), 11250);
  for (let i = 0; i < 200; i++) {
    const d = backoffDelay(i % 10, opts);
    assert.ok(d >= 250 && d <= 15000, String(d));
  }
});

test('isFatal and wsURL', () => {
  assert.equal(isFatal('no_such_room'), true);
  assert.equal(isFatal('not_your_turn'), false);
  assert.equal(wsURL({ protocol: 'https:', host: 'x.org' }, 'ab c'), 'wss://x.org/ws/rooms/ab%20c');
  assert.equal(wsURL({ protocol: 'http:', host: 'localhost:8080' }, 'r1'), 'ws://localhost:8080/ws/rooms/r1');
});
