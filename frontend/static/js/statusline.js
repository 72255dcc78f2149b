// @ts-check
// statusline.js: the game page's status line ("Your turn", "Black wins", the opening's
// prompts) as an i18n key with params and a tone, from the game model (pure).
import { isPlayer, turn, stepActor, stoneColor } from './state.js';

/** @typedef {import('./protocol.js').Role} Role */
/** @typedef {import('./protocol.js').OpeningStep} OpeningStep */
/** @typedef {import('./state.js').Game} Game */

/**
 * @typedef {Object} StatusLine the status line as an i18n key with params and a tone
 * @property {string} key
 * @property {Record<string, string | number>} params
 * @property {'turn' | 'wait' | 'win' | 'lose' | 'neutral' | 'warn'} tone
 * @property {string} [why] i18n key of the reason
 * @property {string} [colorParam] the param holding a colour name to translate
 */

/**
 * status returns the status line for the viewer's role.
 * @param {Game} g
 * @param {Role} role
 * @param {{pending?: boolean, connection?: string, attempt?: number}} [opts]
 * @returns {StatusLine}
 */
export function status(g, role, { pending = false, connection = 'open', attempt = 0 } = {}) {
  if (connection === 'connecting') return { key: 'status.connecting', params: {}, tone: 'neutral' };
  if (connection === 'reconnecting') return { key: 'status.reconnecting', params: { n: attempt }, tone: 'warn' };
  if (g.phase === 'over' && g.result) {
    const r = g.result.result;
    const why = g.result.reason ? `reason.${g.result.reason}` : '';
    if (r === 'aborted' || g.result.reason === 'aborted') {
      return { key: 'status.aborted', params: {}, tone: 'neutral', why: g.result.reason === 'first_move_timeout' ? why : '' };
    }
    if (r === 'draw') return { key: 'status.draw', params: {}, tone: 'neutral', why };
    if (isPlayer(role)) return { key: r === role ? 'status.youWin' : 'status.youLose', params: {}, tone: r === role ? 'win' : 'lose', why };
    return { key: 'status.wins', params: { color: r }, tone: 'neutral', why, colorParam: 'color' };
  }
  if (g.phase === 'waiting') {
    if (!g.seats.black || !g.seats.white) return { key: 'status.waitingSeat', params: {}, tone: 'wait' };
    return { key: 'status.notStarted', params: {}, tone: 'wait' };
  }
  if (pending) return { key: 'status.pending', params: {}, tone: 'wait' };
  if (g.step) return openingStatus(g, role);
  const tm = turn(g);
  if (isPlayer(role)) {
    if (tm === role) return { key: 'status.yourTurn', params: {}, tone: 'turn' };
    const s = g.seats[tm];
    if (s && s.kind !== 'human') return { key: 'status.aiThinking', params: {}, tone: 'wait' };
    return { key: 'status.waitingOpponent', params: {}, tone: 'wait' };
  }
  return { key: 'status.toMove', params: { color: tm }, tone: 'neutral', colorParam: 'color' };
}

/**
 * openingStatus is the status line during an opening: the prompt of the viewer's step
 * ("Place 3 stones: black, white, black", with how many are left), or what the other
 * side is doing.
 * @param {Game} g
 * @param {Role} role
 * @returns {StatusLine}
 */
function openingStatus(g, role) {
  const step = /** @type {OpeningStep} */ (g.step);
  const actor = stepActor(step);
  const left = step === 'place3' ? 3 - g.moves.length : step === 'place2' ? 5 - g.moves.length : 0;
  if (isPlayer(role) && actor === role) {
    const key = step === 'choose' && g.opening === 'swap2' ? 'opening.you.choose.swap2' : `opening.you.${step}`;
    return { key, params: { n: left, color: stoneColor(g) }, tone: 'turn', colorParam: 'color' };
  }
  const seat = g.seats[actor];
  const who = seat && seat.kind !== 'human' ? 'ai' : isPlayer(role) ? 'opponent' : actor === 'black' ? 'first' : 'second';
  return { key: `opening.${who}.${step}`, params: { n: left }, tone: isPlayer(role) ? 'wait' : 'neutral' };
}
