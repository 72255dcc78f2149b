// @ts-check
// pairingmodel.js: the quick-pairing panel's state (docs/protocol.md, lobby WebSocket) as
// pure functions of the server's messages, so Node tests run it without a page.

/** RULES are the pools' rules. */
export const RULES = ['freestyle', 'standard', 'renju'];
/** CLOCKS are the time controls the panel offers (a subset of the server's pools). */
export const CLOCKS = ['3+2', '5+3', '10+5', '15+10'];
/** AI_OFFER_MS is how long a seek waits before the panel offers a game against the AI. */
export const AI_OFFER_MS = 20000;

/**
 * @typedef {{phase: 'idle' | 'seeking' | 'paired', id: string, since: number, aiLevel: string,
 *   room: string, error: string}} PairingState
 */

/** @returns {PairingState} */
export function initial() {
  return { phase: 'idle', id: '', since: 0, aiLevel: '', room: '', error: '' };
}

/**
 * seekMessage builds the `seek` frame of a pool; rated only counts for an account.
 * @param {string} id
 * @param {{rule: string, clock: string, rated: boolean}} pool
 * @param {boolean} hasAccount
 */
export function seekMessage(id, pool, hasAccount) {
  const rule = RULES.includes(pool.rule) ? pool.rule : RULES[0];
  const clock = CLOCKS.includes(pool.clock) ? pool.clock : CLOCKS[1];
  return { type: 'seek', id, rule, clock, rated: !!pool.rated && hasAccount };
}

/**
 * sent records a seek just sent: the panel waits from now.
 * @param {PairingState} st
 * @param {string} id
 * @param {number} now local ms
 * @returns {PairingState}
 */
export function sent(st, id, now) {
  return { ...st, phase: 'seeking', id, since: now, aiLevel: '', error: '' };
}

/**
 * receive applies one lobby message to the pairing state. The wait is timed by the
 * page's clock from the seek's sending, so a skewed server clock does not show.
 * @param {PairingState} st
 * @param {any} msg
 * @param {number} now local ms
 * @returns {PairingState}
 */
export function receive(st, msg, now) {
  switch (msg && msg.type) {
    case 'seeking':
      return { ...st, phase: 'seeking', id: msg.id || st.id, since: st.phase === 'seeking' ? st.since : now, aiLevel: msg.ai_level || '', error: '' };
    case 'paired':
      return { ...st, phase: 'paired', room: msg.room_id || '', error: '' };
    case 'seek_ended':
      if (st.phase !== 'seeking') return st;
      return { ...initial(), error: msg.reason && msg.reason !== 'cancelled' ? `seek.ended.${msg.reason}` : '' };
    case 'error':
      if (st.phase !== 'seeking' || (msg.id && msg.id !== st.id)) return st;
      return { ...initial(), error: `error.${msg.code || 'generic'}` };
    default:
      return st;
  }
}

/**
 * lost is the state after the socket closed: the server cancels a closed connection's seek.
 * @param {PairingState} st
 * @returns {PairingState}
 */
export function lost(st) {
  return st.phase === 'seeking' ? { ...initial(), error: 'seek.ended.expired' } : st;
}

/**
 * offerAI says whether the "play the AI instead" button shows.
 * @param {PairingState} st
 * @param {number} now
 */
export function offerAI(st, now) {
  return st.phase === 'seeking' && !!st.aiLevel && now - st.since >= AI_OFFER_MS;
}

/**
 * waitText formats a wait as m:ss.
 * @param {number} ms
 */
export function waitText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * clockTime is the POST /api/rooms time of a pool's clock ("5+3": 5 min + 3 s).
 * @param {string} clock
 */
export function clockTime(clock) {
  const [m, s] = clock.split('+').map(Number);
  return { base_ms: (m || 0) * 60000, increment_ms: (s || 0) * 1000, per_move_ms: 0 };
}

/**
 * aiGameBody is the POST /api/rooms body of "play the AI instead": the pool's rule and
 * clock against the offered level, as the New game dialog builds an AI game (with the
 * player's choice of its analysis when it ends, the dialog's box).
 * @param {{rule: string, clock: string}} pool
 * @param {string} level
 * @param {boolean} [autoAnalysis]
 */
export function aiGameBody(pool, level, autoAnalysis = true) {
  return {
    rule: pool.rule, size: 15, time: clockTime(pool.clock), takebacks: true, chat: true, opening: 'none',
    first_move_ms: 30000, me: 'random', opponent: { kind: 'ai', level }, public: true, hints: true,
    auto_analysis: autoAnalysis,
  };
}

/**
 * ratingPool is the id of the rating pool a seek's rule and clock play in (e.g.
 * "freestyle-blitz"), from the server's table (GET /api/pairing/pools: rule × speed
 * class, which the server defines); '' when the table does not list them.
 * @param {{rule: string, clock: string, rating_pool: string}[]} pools
 * @param {string} rule
 * @param {string} clock
 */
export function ratingPool(pools, rule, clock) {
  const p = pools.find((x) => x.rule === rule && x.clock === clock);
  return p ? p.rating_pool : '';
}

/**
 * poolRating is a player's displayed rating in a pool from GET /api/players/{id}'s
 * ratings; a pool without a rated game counts as 1500, provisional, as pairing does.
 * @param {{pool: string, display: string}[]} ratings
 * @param {string} pool
 */
export function poolRating(ratings, pool) {
  const r = ratings.find((x) => x.pool === pool);
  return r ? r.display : '1500?';
}
