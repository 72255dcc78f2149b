// @ts-check
// gamechat.js: the chat panel of the game page: which lines the viewer sees (channels,
// people muted in this browser), the unread count on the Chat tab, and what the panel
// hands back to the page controller (game.js): a line to send, a name to chat with.
import * as store from './store.js';
import { isPlayer } from './state.js';
import { ChatView, visibleChat, unreadCount } from './views/chat.js';

/** @typedef {import('./session.js').Session} Session */
/** @typedef {import('./state.js').ChatLine} ChatLine */
/** @typedef {import('./views/tabs.js').TabsView} TabsView */

/** GameChat runs the chat panel of one room's page. */
export class GameChat {
  /**
   * @param {string} roomId
   * @param {{send: (text: string) => boolean, setName: (name: string) => void, changed: () => void}} cb
   *   changed: a setting of the panel changed (the page draws again)
   */
  constructor(roomId, cb) {
    this.roomId = roomId;
    this.changed = cb.changed;
    /** the seq of the latest chat line the viewer has had in front of them */
    this.seen = 0;
    /** @type {Record<string, {id: string, name: string}[]>} muted people per room (this browser's) */
    this.mutes = store.get('chatMutes', {});
    this.showSpectators = store.get('spectatorChat', false);
    this.view = new ChatView({
      send: cb.send,
      showSpectators: (on) => { this.showSpectators = on; store.put('spectatorChat', on); this.changed(); },
      mute: (id, name, on) => this.mute(id, name, on),
      setName: cb.setName,
    });
  }

  /**
   * historySeen counts the chat history that came with the page as read: it is not news.
   * @param {ChatLine[]} lines
   */
  historySeen(lines) {
    this.seen = Math.max(0, ...lines.map((m) => m.seq));
  }

  /**
   * mute hides (on) or shows again a person's chat lines in this room, in this browser.
   * @param {string} id
   * @param {string} name
   * @param {boolean} on
   */
  mute(id, name, on) {
    const list = (this.mutes[this.roomId] || []).filter((p) => p.id !== id);
    if (on) list.push({ id, name });
    this.mutes = { ...this.mutes, [this.roomId]: list };
    if (!list.length) delete this.mutes[this.roomId];
    store.put('chatMutes', this.mutes);
    this.changed();
  }

  /**
   * render draws the chat panel and the unread count of the Chat tab.
   * @param {Session} s
   * @param {TabsView} tabs
   */
  render(s, tabs) {
    const g = s.game;
    const player = isPlayer(s.role);
    const muted = this.mutes[this.roomId] || [];
    const lines = visibleChat(g.messages, { player, showSpectators: this.showSpectators, muted: muted.map((p) => p.id) });
    const field = /** @type {HTMLInputElement | null} */ (document.getElementById('player-name'));
    this.view.render({
      allowed: g.chatAllowed, lines, canWrite: !!s.myId, player, showSpectators: this.showSpectators,
      muted, myId: s.myId, suggestedName: field ? field.value : '',
    });
    if (tabs.current === 'chat' && lines.length) this.seen = Math.max(this.seen, lines[lines.length - 1].seq);
    tabs.badge('chat', tabs.current === 'chat' ? 0 : unreadCount(lines, this.seen, s.myId));
  }
}
