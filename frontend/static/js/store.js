// @ts-check
// store.js: localStorage-backed preferences and identity (survives reloads and restarts).

const KEY = 'gomoku.v1';

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}

let data = load();

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // private mode or quota: keep the in-memory copy
  }
}

/** get reads a stored value. */
export function get(key, fallback = null) {
  return key in data ? data[key] : fallback;
}

/** put stores a value. */
export function put(key, value) {
  data[key] = value;
  save();
}

/** player returns the stored identity {id, name, token, username?} or null (no username: a guest). */
export function player() {
  const p = get('player');
  return p && p.token ? p : null;
}

/** setPlayer stores the identity returned by POST /api/players, /api/accounts or /api/sessions. */
export function setPlayer(p) {
  put('player', p.username ? { id: p.id, name: p.name, token: p.token, username: p.username } : { id: p.id, name: p.name, token: p.token });
}

/** lastSeq returns the last event seq seen in a room (for resume after reload). */
export function lastSeq(roomId) {
  return (get('seq') || {})[roomId] || 0;
}

/** reload re-reads storage (another tab may have written). */
export function reload() {
  data = load();
}
