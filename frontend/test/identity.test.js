import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as store from '../static/js/store.js';
import { checkPlayer, renamePlayer, createRoom, onRenewed } from '../static/js/api.js';

/**
 * fakeServer answers fetch like gomokud's identity API: known tokens map to players;
 * every request is logged.
 */
function fakeServer(known) {
  const log = [];
  let n = 0;
  globalThis.fetch = async (path, init) => {
    const method = init.method;
    const auth = (init.headers.Authorization || '').replace('Bearer ', '');
    const body = init.body ? JSON.parse(init.body) : undefined;
    log.push(`${method} ${path}`);
    const json = (status, v) => ({ ok: status < 300, status, statusText: '', text: async () => JSON.stringify(v) });
    const unauthorized = json(401, { error: { code: 'unauthorized', message: 'unknown token' } });
    if (path === '/api/players' && method === 'POST') {
      n++;
      const p = { id: `p_new${n}`, name: body.name, token: `tok_new${n}` };
      known[p.token] = { id: p.id, name: p.name };
      return json(201, p);
    }
    if (path === '/api/players/me') {
      if (!known[auth]) return unauthorized;
      if (method === 'GET') return json(200, known[auth]);
      if (!body.name || body.name.length > 24) return json(400, { error: { code: 'bad_request', message: 'bad name' } });
      known[auth].name = body.name.trim();
      return json(200, known[auth]);
    }
    if (path === '/api/rooms' && method === 'POST') {
      if (!known[auth]) return unauthorized;
      return json(201, { room: { id: 'r1' }, by: known[auth].id });
    }
    return json(404, { error: { code: 'not_found', message: '' } });
  };
  return log;
}

let renewals;
let loggedOuts;
beforeEach(() => {
  store.put('player', null);
  store.put('name', null);
  renewals = [];
  loggedOuts = [];
  onRenewed((p, loggedOut) => { renewals.push(p); loggedOuts.push(loggedOut); });
});

test('checkPlayer: a known token is kept (and a name changed elsewhere followed)', async () => {
  store.setPlayer({ id: 'p_1', name: 'Alice', token: 'tok1' });
  const log = fakeServer({ tok1: { id: 'p_1', name: 'Alice B' } });
  const res = await checkPlayer();
  assert.deepEqual(res, { player: { id: 'p_1', name: 'Alice B', token: 'tok1' }, renewed: false });
  assert.deepEqual(log, ['GET /api/players/me']);
  assert.equal(renewals.length, 0);
});

test('checkPlayer: an unknown token (the server forgot it) is replaced under the same name', async () => {
  store.setPlayer({ id: 'p_1', name: 'Alice', token: 'tok1' });
  const log = fakeServer({});
  const res = await checkPlayer();
  assert.equal(res.renewed, true);
  assert.deepEqual(res.player, { id: 'p_new1', name: 'Alice', token: 'tok_new1' });
  assert.deepEqual(store.player(), res.player, 'stored');
  assert.deepEqual(log, ['GET /api/players/me', 'POST /api/players']);
  assert.deepEqual(renewals, [res.player], 'the page is told');
  assert.deepEqual(loggedOuts, [false], 'a guest was not logged out');
});

test('checkPlayer: an account whose session ended elsewhere becomes a guest and is told it was logged out', async () => {
  store.setPlayer({ id: 'p_1', name: 'Alice', token: 'tok1', username: 'alice' });
  fakeServer({});
  const res = await checkPlayer();
  assert.equal(res.renewed, true);
  assert.deepEqual(res.player, { id: 'p_new1', name: 'Alice', token: 'tok_new1' }, 'a guest now: no username');
  assert.deepEqual(loggedOuts, [true]);
});

test('checkPlayer: a network failure keeps the identity; no identity, no request', async () => {
  store.setPlayer({ id: 'p_1', name: 'Alice', token: 'tok1' });
  globalThis.fetch = async () => { throw new Error('offline'); };
  assert.deepEqual(await checkPlayer(), { player: { id: 'p_1', name: 'Alice', token: 'tok1' }, renewed: false });
  store.put('player', null);
  const log = fakeServer({});
  assert.deepEqual(await checkPlayer(), { player: null, renewed: false });
  assert.deepEqual(log, []);
});

test('an authenticated call refused as unauthorized renews the identity and is retried once', async () => {
  store.setPlayer({ id: 'p_1', name: 'Alice', token: 'tok1' });
  const log = fakeServer({});
  const res = await createRoom({});
  assert.equal(res.by, 'p_new1');
  assert.deepEqual(log, ['POST /api/rooms', 'GET /api/players/me', 'POST /api/players', 'POST /api/rooms']);
  assert.equal(renewals.length, 1);
});

test('renamePlayer: stores the name the server kept; a refused name changes nothing', async () => {
  store.setPlayer({ id: 'p_1', name: 'Alice', token: 'tok1' });
  fakeServer({ tok1: { id: 'p_1', name: 'Alice' } });
  assert.deepEqual(await renamePlayer(' Alice B '), { id: 'p_1', name: 'Alice B' });
  assert.equal(store.player().name, 'Alice B');
  assert.equal(store.get('name'), 'Alice B');
  await assert.rejects(renamePlayer(''), (e) => e.code === 'bad_request');
  assert.equal(store.player().name, 'Alice B');
});
