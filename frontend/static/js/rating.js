// @ts-check
// rating.js: ratings as the game page shows them (pure: node-tested). Seated players
// carry their rating in the room's pool as the server displays it ("1512", "1500?"
// while provisional); a rated game's change arrives after game_over as a `rating`
// event (docs/protocol.md).

import { t, levelName } from './i18n.js';

/** @typedef {import('./protocol.js').RatingDelta} RatingDelta */
/** @typedef {import('./protocol.js').RatingChange} RatingChange */

/**
 * signed returns a rating difference with its sign ("+12", "−7", "±0").
 * @param {number} n
 */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '±0';
}

/**
 * deltaParams returns the parameters of the rating.change message for one side.
 * @param {RatingDelta} d
 * @returns {{before: string, after: string, delta: string}}
 */
export function deltaParams(d) {
  return { before: String(d.before), after: `${d.after}${d.provisional ? '?' : ''}`, delta: signed(d.after - d.before) };
}

/**
 * seatRating returns the rating to show beside a seat: a person's in the room's pool
 * ("1500?" while provisional), an AI level's published rating (GET /api/engines), or ''.
 * @param {{kind: string, level?: string, rating?: string} | null} seat
 * @param {Record<string, number>} [levelRatings] published rating by level name
 */
export function seatRating(seat, levelRatings = {}) {
  if (!seat) return '';
  if (seat.kind === 'human') return seat.rating || '';
  const r = seat.kind === 'ai' && seat.level ? levelRatings[seat.level] : 0;
  return r ? String(r) : '';
}

/**
 * changeOf returns a rating event's change when it is for the game on the page
 * (the event may name an earlier game, reported after a rematch started), else null.
 * @param {{game: number, rating?: RatingChange}} ev
 * @param {number} gameNo
 * @returns {RatingChange | null}
 */
export function changeOf(ev, gameNo) {
  return ev.rating && ev.game === gameNo ? ev.rating : null;
}

/**
 * levelLabel names an AI level with its published rating ("Expert, rating 1934"), so a
 * player sees which level matches them; just the name while the ratings are unknown.
 * @param {string} level
 * @param {Record<string, number>} [levelRatings] published rating by level name (GET /api/engines)
 */
export function levelLabel(level, levelRatings = {}) {
  const r = levelRatings[level];
  return r ? t('level.rated', { level: levelName(level), rating: r }) : levelName(level);
}
