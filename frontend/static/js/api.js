// @ts-check
// api.js: the HTTP API of docs/protocol.md.
import * as store from './store.js';

/** ApiError carries the stable error code of an HTTP error response. */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message || code);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

async function call(method, path, body, auth = false) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const p = store.player();
  if (auth && p) headers.Authorization = `Bearer ${p.token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError('network', e.message, 0);
  }
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) {
    const err = (json && json.error) || {};
    throw new ApiError(err.code || `http_${res.status}`, err.message || text || res.statusText, res.status);
  }
  return json;
}

/** createPlayer registers a name and returns {id, name, token}. */
export function createPlayer(name) {
  return call('POST', '/api/players', { name });
}

/** ensurePlayer returns the stored identity, creating one with `name` if there is none. */
export async function ensurePlayer(name) {
  const p = store.player();
  if (p) return p;
  const created = await createPlayer(name);
  store.setPlayer(created);
  return created;
}

/** createRoom creates a room; body as in docs/protocol.md. */
export function createRoom(body) {
  return call('POST', '/api/rooms', body, true);
}

/** listRooms lists rooms by status: live | open | finished. */
export function listRooms(status, limit = 20, cursor = '') {
  const q = new URLSearchParams({ status, limit: String(limit) });
  if (cursor) q.set('cursor', cursor);
  return call('GET', `/api/rooms?${q}`, undefined, true);
}

/** getRoom returns a room snapshot. */
export function getRoom(id) {
  return call('GET', `/api/rooms/${encodeURIComponent(id)}`, undefined, true);
}

/** engines returns the AI levels and external engines. */
export function engines() {
  return call('GET', '/api/engines');
}

/** recordURL is the download link of a game record. */
export function recordURL(id, format) {
  return `/api/rooms/${encodeURIComponent(id)}/record?format=${format}`;
}
