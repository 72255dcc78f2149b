// @ts-check
// views/chat.js: the chat panel (log, channel switch, muted people, input or the "set a
// name" prompt) and the pure rules of what a viewer sees in it and what is unread.
//
// Both channels reach every connection (docs/protocol.md): the separation is the page's.
// A player sees the players' chat, and the spectators' chat only after turning it on
// (a remembered switch); spectators see both. Muting is the page's own list of player
// ids per room, kept in the browser: the server sends muted people's lines as any other.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { icon } from '../icons.js';

/** @typedef {import('../state.js').ChatLine} ChatLine */

/**
 * @typedef {Object} ChatFilter
 * @property {boolean} player the viewer plays in this game
 * @property {boolean} showSpectators a player's switch: the spectators' chat too
 * @property {string[]} muted player ids whose lines are hidden
 */

/**
 * visibleChat returns the lines a viewer sees.
 * @param {ChatLine[]} lines
 * @param {ChatFilter} f
 * @returns {ChatLine[]}
 */
export function visibleChat(lines, f) {
  return lines.filter((l) => (!f.player || f.showSpectators || l.channel === 'players') && !(l.id && f.muted.includes(l.id)));
}

/**
 * unreadCount counts the visible lines after seq `seen` written by someone else.
 * @param {ChatLine[]} visible
 * @param {number} seen
 * @param {string} myId
 */
export function unreadCount(visible, seen, myId) {
  return visible.filter((l) => l.seq > seen && (!myId || l.id !== myId)).length;
}

/**
 * @typedef {Object} ChatModel
 * @property {boolean} allowed chat is on in this room
 * @property {ChatLine[]} lines the visible lines
 * @property {boolean} canWrite the viewer has a name (anonymous spectators read only)
 * @property {boolean} player the viewer plays: offer the spectators' chat switch
 * @property {boolean} showSpectators
 * @property {{id: string, name: string}[]} muted
 * @property {string} myId
 * @property {string} suggestedName the name in the top bar
 */

/**
 * @typedef {Object} ChatActions
 * @property {(text: string) => boolean} send returns true when the text went out
 * @property {(on: boolean) => void} showSpectators
 * @property {(id: string, name: string, on: boolean) => void} mute
 * @property {(name: string) => void} setName an anonymous spectator chooses a name
 */

/** ChatView draws the chat panel. */
export class ChatView {
  /** @param {ChatActions} on */
  constructor(on) {
    this.on = on;
    this.input = /** @type {HTMLInputElement} */ (h('input.text-input', { type: 'text', id: 'chat-input', maxlength: '300', 'data-i18n-placeholder': 'chat.placeholder', placeholder: t('chat.placeholder'), 'aria-label': t('panel.chat') }));
    this.form = h('form.chat-form', {
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = this.input.value.trim();
        if (text && on.send(text)) this.input.value = '';
      },
    }, this.input, h('button.btn.btn-sm', { type: 'submit', 'data-i18n': 'chat.send' }, t('chat.send')));
    this.nameInput = /** @type {HTMLInputElement} */ (h('input.text-input', { type: 'text', id: 'chat-name', maxlength: '24', autocomplete: 'nickname', 'aria-label': t('nav.name'), placeholder: t('nav.name'), 'data-i18n-placeholder': 'nav.name' }));
    this.namePrompt = h('form.chat-form.chat-name', {
      id: 'chat-name-form',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        on.setName(this.nameInput.value.trim());
      },
    }, h('label', { for: 'chat-name', id: 'chat-prompt', 'data-i18n': 'chat.setName' }, t('chat.setName')), this.nameInput,
    h('button.btn.btn-sm.btn-primary', { type: 'submit', id: 'chat-name-btn', 'data-i18n': 'chat.nameButton' }, t('chat.nameButton')));
    this.switch = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'chat-spectators', onchange: () => on.showSpectators(this.switch.checked) }));
    this.switchLabel = h('span', t('chat.spectatorsToggle'));
    this.toggle = h('label.check.small.chat-switch', null, this.switch, this.switchLabel);
    this.log = h('div');
    this.mutedRow = h('p.chat-muted.small');
    this.el = h('div.tabpanel', { id: 'panel-chat', role: 'tabpanel', hidden: true }, this.toggle, this.log, this.mutedRow, this.form, this.namePrompt);
    this.drawn = '';
  }

  /** @param {ChatModel} m */
  render(m) {
    this.toggle.hidden = !m.allowed || !m.player;
    this.switch.checked = m.showSpectators;
    this.switchLabel.textContent = t('chat.spectatorsToggle');
    this.form.hidden = !m.allowed || !m.canWrite;
    this.namePrompt.hidden = !m.allowed || m.canWrite;
    if (this.namePrompt.hidden === false && !this.nameInput.value && document.activeElement !== this.nameInput) this.nameInput.value = m.suggestedName;
    // The log is rebuilt only when what it shows changed (renders come with every server
    // message; a rebuild would scroll a reader back to the bottom).
    const sig = JSON.stringify([m.allowed, m.lines.map((l) => l.seq), m.muted, m.myId, t('chat.send')]);
    if (sig === this.drawn) return;
    this.drawn = sig;
    if (!m.allowed) {
      this.log.replaceChildren(h('p.muted', t('chat.disabled')));
      this.mutedRow.replaceChildren();
      return;
    }
    const list = h('ul.chat-log', { id: 'chat-log', 'aria-live': 'polite' }, m.lines.map((l) => this.line(l, m.myId)));
    this.log.replaceChildren(list);
    list.scrollTop = list.scrollHeight;
    this.mutedRow.replaceChildren(...(m.muted.length ? [t('chat.muted'), ' ', ...m.muted.map((p) => h('button.btn.btn-sm.btn-ghost', {
      type: 'button', dataset: { unmute: p.id }, 'aria-label': t('chat.unmute', { name: p.name }), title: t('chat.unmute', { name: p.name }),
      onclick: () => this.on.mute(p.id, p.name, false),
    }, p.name, ' ×'))] : []));
  }

  /**
   * line draws one chat line: the author's name (a stone for a player's line, a badge for
   * a spectator's), the text, and a mute button on other people's lines.
   * @param {ChatLine} l
   * @param {string} myId
   */
  line(l, myId) {
    const mark = l.channel === 'players'
      ? (l.color ? h('i.dot', { class: `dot-${l.color}` }) : null)
      : h('span.badge', t('chat.spectator'));
    const mute = l.id && l.id !== myId
      ? h('button.icon-btn.chat-mute', { type: 'button', dataset: { mute: l.id }, 'aria-label': t('chat.mute', { name: l.name }), title: t('chat.mute', { name: l.name }), onclick: () => this.on.mute(l.id, l.name, true) }, icon('mute', 14))
      : null;
    return h('li', { dataset: { channel: l.channel, seq: String(l.seq) } },
      h('span.who', null, mark, ' ', l.name || t('chat.spectator'), ':'), ' ', h('span.text', l.text), mute);
  }
}
