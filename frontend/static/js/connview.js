// @ts-check
// connview.js: what the page says about its room connection (pure): the banner under the
// top bar while the connection is down, with the attempt and the countdown to the next try.

/**
 * @typedef {Object} ConnView
 * @property {string} state RoomConnection state: connecting | open | reconnecting | closed
 * @property {number} attempt the reconnection attempt under way or next
 * @property {number} retryAt performance.now() of the next attempt (0: an attempt is under way)
 */

/**
 * @typedef {Object} BannerText
 * @property {string} key i18n key
 * @property {Record<string, number>} params
 * @property {'warn' | 'error'} tone
 * @property {boolean} retry offer "retry now"
 */

/**
 * connBanner returns the banner for a connection state at mono (null: no banner). The
 * first connection says nothing (the status line says "Connecting…"); a lost one says
 * which attempt is under way or in how many seconds the next one starts; a closed one
 * (the server refused the connection for good) says so.
 * @param {ConnView} c
 * @param {number} mono performance.now()
 * @returns {BannerText | null}
 */
export function connBanner(c, mono) {
  switch (c.state) {
    case 'reconnecting': {
      const n = Math.max(1, c.attempt);
      if (c.retryAt > mono) return { key: 'conn.retryIn', params: { n, s: Math.ceil((c.retryAt - mono) / 1000) }, tone: 'warn', retry: true };
      return { key: 'conn.retrying', params: { n }, tone: 'warn', retry: false };
    }
    case 'closed':
      return { key: 'conn.closed', params: {}, tone: 'error', retry: true };
    default:
      return null;
  }
}
