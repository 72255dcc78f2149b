// @ts-check
// views/links.js: invite / spectate links, record downloads and the room's info row.
import { h, fill, toast, copyText } from '../dom.js';
import { t } from '../i18n.js';
import { recordURL } from '../api.js';
import { formatTimeControl } from '../clock.js';
import { icon } from '../icons.js';
import { gamesNav } from './archive.js';

/**
 * @typedef {Object} RoomInfo
 * @property {boolean} inviting a seat is open while waiting: offer the invite link
 * @property {boolean} hasMoves offer the record downloads
 * @property {string} rule
 * @property {number} size
 * @property {import('../protocol.js').TimeControl} time
 * @property {number} gameNo
 * @property {number} spectators
 */

/** LinksView draws the links (links) and the info row (info) of room `roomId`. */
export class LinksView {
  /** @param {string} roomId */
  constructor(roomId) {
    this.roomId = roomId;
    this.links = h('div.links');
    this.info = h('div.info-row', { id: 'info' });
  }

  /** @param {RoomInfo} m */
  render(m) {
    const id = this.roomId;
    const base = `${location.origin}/r/${encodeURIComponent(id)}`;
    /**
     * @param {string} key
     * @param {string} url
     * @param {string} elId
     */
    const copy = (key, url, elId) => h('button.btn.btn-sm', { type: 'button', id: elId, onclick: async () => toast(await copyText(url) ? t('action.copied') : url, 'success') }, t(key));
    const links = [];
    if (m.inviting) links.push(copy('action.copyInvite', base, 'copy-invite'));
    links.push(copy('action.copySpectate', `${base}?watch=1`, 'copy-spectate'));
    if (m.hasMoves) {
      links.push(h('a.btn.btn-sm', { href: recordURL(id, 'sgf'), download: `gomoku-${id}.sgf`, id: 'dl-sgf' }, `${t('replay.download')} SGF`));
      links.push(h('a.btn.btn-sm', { href: recordURL(id, 'psq'), download: `gomoku-${id}.psq`, id: 'dl-psq' }, 'PSQ'));
    }
    // After a rematch the earlier games stay replayable (and downloadable) on their own page.
    const games = gamesNav(id, m.gameNo, m.gameNo);
    if (games) links.push(games);
    this.links.replaceChildren(...links);
    fill(this.info,
      h('span', `${t('game.rule')}: ${t(`rule.${m.rule}`)}`),
      h('span', `${t('game.size')}: ${m.size}×${m.size}`),
      h('span', `${t('game.time')}: ${formatTimeControl(m.time)}`),
      m.gameNo > 1 ? h('span', t('game.number', { n: m.gameNo })) : null,
      h('span', { id: 'spectators' }, icon('eye', 14), ' ', t('spectators', { n: m.spectators })));
  }
}
