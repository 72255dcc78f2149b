import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RoomConnection } from '../static/js/conn.js';
import { snapshot } from './fixtures.js';

// FakeSocket records what the client sends; the test plays the server.
function harness() {
  const sockets = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.sent = []; this.readyState = 0; sockets.push(this); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.readyState = 3; }
    // server side helpers
    accept() { this.readyState = 1; this.onopen(); }
    push(msg) { this.onmessage({ data: JSON.stringify(msg) }); }
    drop() { this.readyState = 3; this.onclose({}); }
  }
  const timeouts = [];
  const timers = {
    setTimeout: (fn, ms) => { timeouts.push({ fn, ms }); return timeouts.length; },
    clearTimeout: () => {},
    setInterval: () => 1,
    clearInterval: () => {},
  };
  const got = [];
  const states = [];
  const settled = [];
  const conn = new RoomConnection({
    url: 'ws://x/ws/rooms/r1', token: 'tok', WebSocketImpl: FakeSocket, timers, rand: () => 0.5,
    onMessage: (m) => got.push(m), onState: (s) => states.push(s), onMoveSettled: (s) => settled.push(s),
  });
  return { conn, sockets, timeouts, got, states, settled, last: () => sockets[sockets.length - 1] };
}

const ev = (seq, event) => ({ type: 'event', seq, event });

test('hello, snapshot, ordered events; duplicates dropped', () => {
  const hs = harness();
  hs.conn.start();
  hs.last().accept();
  assert.deepEqual(hs.last().sent[0], { type: 'hello', token: 'tok' });
  hs.last().push({ type: 'welcome', you: { role: 'black', player_id: 'p1' } });
  assert.equal(hs.conn.state, 'open');
  hs.last().push({ type: 'snapshot', seq: 3, room: snapshot({ seq: 3 }) });
  hs.last().push(ev(3, { kind: 'chat', text: 'old' }));
  hs.last().push(ev(4, { kind: 'chat', text: 'new' }));
  assert.deepEqual(hs.got.map((m) => m.type), ['welcome', 'snapshot', 'event']);
  assert.equal(hs.conn.seq.lastSeq, 4);
});

test('drop → backoff reconnect → resume with last_seq → pending move resent', () => {
  const hs = harness();
  hs.conn.start();
  hs.last().accept();
  hs.last().push({ type: 'welcome', you: { role: 'black' } });
  hs.last().push({ type: 'snapshot', seq: 5, room: snapshot({ seq: 5 }) });
  const id = hs.conn.move(0, 'h8');
  assert.deepEqual(hs.last().sent.at(-1), { type: 'move', id, ply: 0, point: 'h8' });
  hs.last().drop();
  assert.equal(hs.conn.state, 'reconnecting');
  assert.equal(hs.timeouts.length, 1);
  assert.ok(hs.timeouts[0].ms >= 250 && hs.timeouts[0].ms <= 500);
  hs.timeouts[0].fn();
  assert.equal(hs.sockets.length, 2);
  hs.last().drop(); // still down
  assert.ok(hs.timeouts[1].ms > hs.timeouts[0].ms, 'backoff grows');
  hs.timeouts[1].fn();
  hs.last().accept();
  assert.deepEqual(hs.last().sent[0], { type: 'hello', token: 'tok', last_seq: 5 });
  hs.last().push({ type: 'welcome', you: { role: 'black' } });
  assert.deepEqual(hs.last().sent[1], { type: 'move', id, ply: 0, point: 'h8' }, 'pending move resent with same id');
  assert.equal(hs.conn.attempt, 0, 'attempts reset after welcome');
  hs.last().push(ev(6, { kind: 'move', color: 'black', point: 'h8', ply: 0 }));
  hs.last().push({ type: 'ack', id, seq: 6 });
  assert.deepEqual(hs.settled.map((s) => [s.id, s.ok]), [[id, true]], 'settled once');
  assert.equal(hs.conn.pending.size, 0);
});

test('a gap in seq forces a reconnect that resumes from the last applied event', () => {
  const hs = harness();
  hs.conn.start();
  hs.last().accept();
  hs.last().push({ type: 'welcome', you: { role: 'spectator' } });
  hs.last().push({ type: 'snapshot', seq: 2, room: snapshot({ seq: 2 }) });
  hs.last().push(ev(3, { kind: 'chat' }));
  hs.last().push(ev(5, { kind: 'chat' }));
  assert.equal(hs.sockets.length, 2, 'reconnected at once');
  assert.equal(hs.got.filter((m) => m.type === 'event').length, 1, 'event 5 not applied');
  hs.last().accept();
  assert.equal(hs.last().sent[0].last_seq, 3);
  hs.last().push({ type: 'welcome', you: { role: 'spectator' } });
  hs.last().push({ type: 'resync' });
  hs.last().push({ type: 'snapshot', seq: 9, room: snapshot({ seq: 9 }) });
  hs.last().push(ev(10, { kind: 'chat' }));
  assert.equal(hs.conn.seq.lastSeq, 10);
});

test('a refused move is settled with its error code; others are passed on', () => {
  const hs = harness();
  hs.conn.start();
  hs.last().accept();
  hs.last().push({ type: 'welcome', you: { role: 'black' } });
  const id = hs.conn.move(0, 'h8');
  hs.last().push({ type: 'error', id, code: 'forbidden', message: 'double_three' });
  assert.deepEqual(hs.settled, [{ id, ok: false, point: 'h8', error: 'forbidden' }]);
  assert.equal(hs.got.at(-1).code, 'forbidden');
  hs.last().push('not json at all'.length ? { type: 'pong' } : {});
  hs.last().onmessage({ data: '{oops' });
  assert.equal(hs.got.at(-1).code, 'bad_json');
});

test('someone else playing our ply settles our move as stale', () => {
  const hs = harness();
  hs.conn.start();
  hs.last().accept();
  hs.last().push({ type: 'welcome', you: { role: 'black' } });
  hs.last().push({ type: 'snapshot', seq: 1, room: snapshot({ seq: 1 }) });
  const id = hs.conn.move(3, 'a1');
  hs.last().push(ev(2, { kind: 'move', color: 'black', point: 'b2', ply: 3 }));
  assert.deepEqual(hs.settled.map((s) => [s.id, s.ok, s.error]), [[id, false, 'stale_ply']]);
});

test('send throws when offline; stop ends reconnection; fatal error before welcome stops', () => {
  const hs = harness();
  hs.conn.start();
  assert.throws(() => hs.conn.send({ type: 'resign' }), /not connected/);
  hs.last().accept();
  hs.last().push({ type: 'error', id: '', code: 'no_such_room', message: 'no' });
  assert.equal(hs.conn.state, 'closed');
  hs.last().drop();
  assert.equal(hs.timeouts.length, 0, 'no reconnect after a fatal error');

  const hs2 = harness();
  hs2.conn.start();
  hs2.last().accept();
  hs2.last().push({ type: 'welcome', you: { role: 'white' } });
  const id = hs2.conn.send({ type: 'chat', text: 'hi' });
  assert.deepEqual(hs2.last().sent.at(-1), { id, type: 'chat', text: 'hi' });
  hs2.conn.stop();
  assert.equal(hs2.conn.state, 'closed');
});

test('rejoin: a new session at once, resuming from the last seq, without a reconnection attempt', () => {
  const hs = harness();
  hs.conn.start();
  hs.last().accept();
  hs.last().push({ type: 'welcome', room_id: 'r1', you: { role: 'black' } });
  hs.last().push({ type: 'snapshot', seq: 4, room: snapshot() });
  const first = hs.last();
  hs.conn.move(3, 'h9');
  hs.conn.token = 'tok2';
  hs.conn.rejoin();
  assert.equal(first.readyState, 3, 'the old socket is closed');
  assert.equal(hs.sockets.length, 2);
  assert.deepEqual(hs.states.slice(-1), [{ state: 'connecting', attempt: 0 }], 'no "reconnecting"');
  first.drop(); // its late close event changes nothing
  assert.equal(hs.timeouts.length, 0, 'no reconnection scheduled');
  hs.last().accept();
  assert.deepEqual(hs.last().sent[0], { type: 'hello', token: 'tok2', last_seq: 4 });
  hs.last().push({ type: 'welcome', room_id: 'r1', you: { role: 'black' } });
  assert.equal(hs.last().sent[1].type, 'move', 'the pending move is resent');
  assert.equal(hs.conn.state, 'open');
});
