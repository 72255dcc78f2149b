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

/** call makes one API call (auth: with the stored token) and returns its JSON answer. */
export async function call(method, path, body, auth = false) {
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

/** me returns the stored identity as the server knows it: {id, name}. */
export function me() {
  return call('GET', '/api/players/me', undefined, true);
}

/** @type {(p: {id: string, name: string, token: string}, loggedOut: boolean) => void} */
let renewedListener = () => {};

/**
 * onRenewed sets what happens when the identity had to be registered again (the page
 * tells the user). loggedOut is true when the lost identity was an account's session
 * (ended on another device, or by a password change): the page is a guest now.
 * @param {(p: {id: string, name: string, token: string}, loggedOut: boolean) => void} fn
 */
export function onRenewed(fn) {
  renewedListener = fn;
}

/**
 * checkPlayer checks the stored identity with the server. A token the server does not know
 * (its store was reset: a restart without a durable Redis) is replaced by a new
 * registration under the same name, and onRenewed's listener is told. Other failures
 * (network, server busy) keep the stored identity: the next call tries again.
 * @returns {Promise<{player: {id: string, name: string, token: string} | null, renewed: boolean}>}
 */
export async function checkPlayer() {
  const p = store.player();
  if (!p) return { player: null, renewed: false };
  try {
    const known = await me();
    // Renamed, or made an account, in another tab.
    if (known.name !== p.name || (known.username || '') !== (p.username || '')) store.setPlayer({ ...p, name: known.name, username: known.username });
    return { player: store.player(), renewed: false };
  } catch (e) {
    if (e.code !== 'unauthorized') return { player: p, renewed: false };
  }
  store.reload();
  const now = store.player();
  if (now && now.token !== p.token) return { player: now, renewed: false }; // another tab renewed it
  const created = await createPlayer(p.name);
  store.setPlayer(created);
  const player = /** @type {{id: string, name: string, token: string}} */ (store.player());
  renewedListener(player, Boolean(p.username));
  return { player, renewed: true };
}

/**
 * authed makes an authenticated call; when the token is unknown it renews the identity
 * (checkPlayer) and retries once.
 */
async function authed(method, path, body) {
  try {
    return await call(method, path, body, true);
  } catch (e) {
    if (e.code !== 'unauthorized' || !store.player()) throw e;
    const { player } = await checkPlayer();
    if (!player) throw e;
    return call(method, path, body, true);
  }
}

/**
 * renamePlayer changes the player's name on the server and in storage; it returns the
 * name as the server cleaned it. Seats already taken keep their name.
 * @param {string} name
 * @returns {Promise<{id: string, name: string}>}
 */
export async function renamePlayer(name) {
  const res = await authed('PATCH', '/api/players/me', { name });
  const p = store.player();
  if (p) store.setPlayer({ ...p, name: res.name });
  store.put('name', res.name);
  return res;
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
  return authed('POST', '/api/rooms', body);
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

/** @type {Promise<Record<string, number>> | null} */
let levelRatingsAsked = null;

/**
 * levelRatings returns the AI levels' published ratings by level name (GET /api/engines,
 * asked once per page; a failed answer is asked again next time).
 * @returns {Promise<Record<string, number>>}
 */
export function levelRatings() {
  if (!levelRatingsAsked) {
    levelRatingsAsked = engines().then((res) => {
      /** @type {Record<string, number>} */
      const out = {};
      for (const l of res.levels || []) if (l.rating) out[l.name] = l.rating;
      return out;
    });
    levelRatingsAsked.catch(() => { levelRatingsAsked = null; });
  }
  return levelRatingsAsked;
}

/** @type {Promise<{rule: string, clock: string, rating_pool: string}[]> | null} */
let poolsAsked = null;

/**
 * pairingPools returns quick pairing's pools with the rating pool of each (GET
 * /api/pairing/pools, asked once per page; a failed answer is asked again next time).
 * @returns {Promise<{rule: string, clock: string, rating_pool: string}[]>}
 */
export function pairingPools() {
  if (!poolsAsked) {
    poolsAsked = call('GET', '/api/pairing/pools').then((res) => res.pools || []);
    poolsAsked.catch(() => { poolsAsked = null; });
  }
  return poolsAsked;
}

/**
 * recordURL is the download link of a game record: game n of the room (0: the current
 * or last game).
 * @param {string} id
 * @param {string} format
 * @param {number} [n]
 */
export function recordURL(id, format, n = 0) {
  return `/api/rooms/${encodeURIComponent(id)}/record?${n > 0 ? `game=${n}&` : ''}format=${format}`;
}

/** gameRecord returns game n of a room (docs/protocol.md, the record's JSON format). */
export function gameRecord(id, n) {
  return call('GET', recordURL(id, 'json', n));
}

/** learnCompare runs the classroom's four searches on a position (docs/protocol.md, "Classroom"). */
export function learnCompare(body) {
  return call('POST', '/api/learn/compare', body);
}

/** learnTree records a shallow alpha-beta search tree of a position. */
export function learnTree(body) {
  return call('POST', '/api/learn/tree', body);
}

/** learnEval explains the classroom evaluation of a position pattern by pattern. */
export function learnEval(body) {
  return call('POST', '/api/learn/eval', body);
}

/**
 * startAnalysis starts (or finds) the engine's analysis of a finished game (docs/protocol.md,
 * "Analysis"); with the stored token, so that the server counts it against this player's
 * limit and not against everybody at the address.
 */
export function startAnalysis(id, game) {
  return call('POST', `/api/rooms/${encodeURIComponent(id)}/analysis?game=${game}`, undefined, true);
}

/**
 * withAuth adds the stored token to a request's headers (for requests made without call,
 * like the analysis board's stream: its limits are the player's).
 * @param {Record<string, string>} headers
 * @returns {Record<string, string>}
 */
export function withAuth(headers) {
  const p = store.player();
  return p ? { ...headers, Authorization: `Bearer ${p.token}` } : headers;
}

/** getAnalysis reads a game's analysis (404 not_found: never started). */
export function getAnalysis(id, game) {
  return call('GET', `/api/rooms/${encodeURIComponent(id)}/analysis?game=${game}`);
}

/**
 * analysisStreamURL follows a game's analysis as server-sent events ("analysis" while it
 * runs, "end" last; docs/protocol.md, "Analysis").
 */
export function analysisStreamURL(id, game) {
  return `/api/rooms/${encodeURIComponent(id)}/analysis/stream?game=${game}`;
}

/** analysisSGFURL is the download link of an analysed game as SGF with comments. */
export function analysisSGFURL(id, game) {
  return `/api/rooms/${encodeURIComponent(id)}/analysis?game=${game}&format=sgf`;
}

/** analysisPosition plays a position out for the analysis board (turn, end, forbidden points). */
export function analysisPosition(query) {
  return call('GET', `/api/analysis/position?${query}`);
}

/** analysisImport reads a pasted move string, PSQ or SGF record. */
export function analysisImport(body) {
  return call('POST', '/api/analysis/import', body);
}

/** puzzleNext returns the next puzzle for the caller in a rule: {puzzle, player} (docs/protocol.md, "Puzzles"). */
export function puzzleNext(rule) {
  return authed('GET', `/api/puzzles/next?rule=${encodeURIComponent(rule)}`);
}

/** puzzleGet returns one puzzle and the caller's puzzle rating: {puzzle, player}. */
export function puzzleGet(id) {
  return authed('GET', `/api/puzzles/${encodeURIComponent(id)}`);
}

/** puzzleAttempt starts an attempt at a puzzle: {attempt, puzzle, player}. */
export function puzzleAttempt(id) {
  return authed('POST', `/api/puzzles/${encodeURIComponent(id)}/attempts`);
}

/** puzzleMove plays a move of an attempt: {result, reply?, line, solution?, rating?}. */
export function puzzleMove(attempt, move) {
  return authed('POST', `/api/puzzles/attempts/${encodeURIComponent(attempt)}/moves`, { move });
}

/** puzzleHint asks for a winning move of an attempt's position: {hint} (the attempt is then unrated). */
export function puzzleHint(attempt) {
  return authed('POST', `/api/puzzles/attempts/${encodeURIComponent(attempt)}/hint`);
}

/** puzzleSolution ends an attempt and returns the winning line from its position: {solution}. */
export function puzzleSolution(attempt) {
  return authed('POST', `/api/puzzles/attempts/${encodeURIComponent(attempt)}/solution`);
}
