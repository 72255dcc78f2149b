// @ts-check
// views/players.js: the two player cards (name, colour, connection, clock, abandonment
// countdown with the claim button, "take seat"), and their once-per-tick refresh.
import { h, s } from '../dom.js';
import { t, levelName } from '../i18n.js';
import { formatClock, isLow } from '../clock.js';
import { deltaParams, seatRating } from '../rating.js';

/** @typedef {import('../protocol.js').Color} Color */
/** @typedef {import('../state.js').Seat} Seat */
/** @typedef {import('../session.js').SeatPresenceView} SeatPresenceView */

/**
 * stoneIcon draws a small stone.
 * @param {Color} color
 */
export function stoneIcon(color) {
  return s('svg.stone-icon', { viewBox: '0 0 30 30', 'aria-hidden': 'true' },
    s('circle', { cx: 15, cy: 15, r: 13, fill: color === 'black' ? '#151515' : '#f4f1ea', stroke: color === 'black' ? '#000' : '#999', 'stroke-width': 1 }));
}

/**
 * seatName returns the display name of a seat.
 * @param {Seat | null} seat
 */
export function seatName(seat) {
  if (!seat) return t('seat.open');
  if (seat.kind !== 'human') return seat.level ? t('seat.ai', { level: levelName(seat.level) }) : seat.name;
  return seat.name;
}

/**
 * nameLink is a seat's name; a person's links to the player's page (/@/id/{id}, which
 * the player page resolves for guests and accounts alike).
 * @param {Seat | null} seat
 */
function nameLink(seat) {
  const name = seatName(seat);
  if (!seat || seat.kind !== 'human' || !seat.player_id) return h('span', { title: name }, name);
  return h('a.pname-link', { href: `/@/id/${encodeURIComponent(seat.player_id)}`, title: name, target: '_blank', rel: 'noopener' }, name);
}

/**
 * @typedef {Object} PlayerCard
 * @property {Color} color
 * @property {Seat | null} seat
 * @property {boolean} you
 * @property {boolean} toMove
 * @property {number | null} clockMs
 * @property {number} baseMs
 * @property {number | null} firstMoveMs time left for this side's first move (its clock does not run yet), or null
 * @property {SeatPresenceView | null} presence human seats only
 * @property {boolean} [offline] the page's connection is down: the clock shows its last known
 *   time, paused, and the other player's connection is unknown
 * @property {boolean} showAbandon the game is in play: show the countdown of a gone player
 * @property {boolean} canClaim
 * @property {boolean} canSit
 * @property {'first' | 'second' | ''} [openingRole] while an opening runs: the seat's role (colours come after)
 * @property {import('../protocol.js').RatingDelta | null} [ratingChange] the seat's change in a rated game just ended
 * @property {Record<string, number>} [levelRatings] the AI levels' published ratings (GET /api/engines)
 */

/**
 * card builds one player card.
 * @param {PlayerCard} p
 * @param {{claim: () => void, sit: (c: Color) => void}} on
 */
function card(p, on) {
  const low = p.toMove && isLow(p.clockMs, p.baseMs);
  const sub = [h('span', p.openingRole ? t(`opening.role.${p.openingRole}`) : t(`color.${p.color}`))];
  if (p.presence && p.offline) {
    // The page itself is cut off: its own player is offline, the other one unknown.
    sub.push(h('span', { dataset: { presence: p.color } }, h('i.conn-dot', { class: p.you ? 'off' : 'unknown', 'aria-hidden': 'true' }), ' ',
      t(p.you ? 'conn.offline' : 'conn.unknown')));
  } else if (p.presence) {
    sub.push(h('span', { dataset: { presence: p.color } }, h('i.conn-dot', { class: p.presence.connected ? '' : 'off', 'aria-hidden': 'true' }), ' ',
      t(p.presence.connected ? 'conn.online' : 'conn.offline')));
  }
  const clockLabel = `${t(`color.${p.color}`)} ${formatClock(p.clockMs)}${p.offline ? ` (${t('clock.paused')})` : ''}`;
  const el = h('section.card.pcard', { class: p.toMove ? 'to-move' : '', 'aria-label': `${t(`color.${p.color}`)}: ${seatName(p.seat)}`, dataset: { color: p.color } },
    stoneIcon(p.color),
    h('div.pname', null, nameLink(p.seat), p.you ? h('span.badge', t('seat.you')) : null,
      p.seat && p.seat.kind !== 'human' ? h('span.badge.badge-ai', 'AI') : null,
      ratingBadge(p)),
    h('div.psub', sub),
    h('div.clock', { class: [low ? 'low' : '', p.offline ? 'paused' : ''].filter(Boolean).join(' '), role: 'timer', 'aria-label': clockLabel, title: p.offline ? t('clock.paused') : null, dataset: { clock: p.color } }, formatClock(p.clockMs)));
  if (p.firstMoveMs != null) {
    el.append(h('div.first-move', { dataset: { firstMove: p.color } }, t('clock.firstMove', { time: formatClock(p.firstMoveMs) })));
  }
  if (p.presence && !p.presence.connected && p.showAbandon) {
    const left = p.presence.remainingMs;
    el.append(h('div.claim', null,
      h('span', { dataset: { countdown: p.color } }, left > 0 ? t('conn.abandon', { time: formatClock(left) }) : ''),
      p.canClaim ? h('button.btn.btn-sm.btn-primary', { type: 'button', id: 'claim-btn', onclick: on.claim, disabled: left > 0 && !p.presence.claimable }, t('conn.claim')) : null));
  }
  if (p.canSit) {
    el.append(h('div.claim', null, h('button.btn.btn-sm.btn-green', { type: 'button', dataset: { sit: p.color }, onclick: () => on.sit(p.color) }, t('seat.take', { color: t(`color.${p.color}`) }))));
  }
  return el;
}

/**
 * ratingBadge shows a seated player's rating ("1500?" while provisional) or an AI
 * level's published one and, once a rated game is recorded, its change.
 * @param {PlayerCard} p
 */
function ratingBadge(p) {
  if (p.ratingChange) {
    const d = deltaParams(p.ratingChange);
    return h('span.badge.badge-rating', { title: t('rating.change', d), dataset: { rating: p.color } }, `${d.after} (${d.delta})`);
  }
  const r = seatRating(p.seat, p.levelRatings);
  if (!r) return null;
  return h('span.badge.badge-rating', { title: t(p.seat && p.seat.kind === 'human' ? 'rating.title' : 'rating.level'), dataset: { rating: p.color } }, r);
}

/** PlayersView shows the player cards, the viewer's own seat at the bottom. */
export class PlayersView {
  /** @param {{claim: () => void, sit: (c: Color) => void}} on */
  constructor(on) {
    this.on = on;
    this.el = h('div.players');
  }

  /** @param {PlayerCard[]} cards in display order */
  render(cards) {
    this.el.replaceChildren(...cards.map((c) => card(c, this.on)));
  }

  /**
   * tick refreshes the clocks and countdowns between renders.
   * @param {Color} c
   * @param {number | null} clockMs
   * @param {SeatPresenceView | null} presence
   * @param {number | null} [firstMoveMs]
   */
  tick(c, clockMs, presence, firstMoveMs = null) {
    const clock = this.el.querySelector(`[data-clock="${c}"]`);
    if (clock) clock.textContent = formatClock(clockMs);
    const fm = this.el.querySelector(`[data-first-move="${c}"]`);
    if (fm && firstMoveMs != null) fm.textContent = t('clock.firstMove', { time: formatClock(firstMoveMs) });
    const cd = this.el.querySelector(`[data-countdown="${c}"]`);
    if (cd && presence) {
      cd.textContent = presence.remainingMs > 0 ? t('conn.abandon', { time: formatClock(presence.remainingMs) }) : '';
      const btn = /** @type {HTMLButtonElement | null} */ (this.el.querySelector('#claim-btn'));
      if (btn) btn.disabled = presence.remainingMs > 0 && !presence.claimable;
    }
  }
}
