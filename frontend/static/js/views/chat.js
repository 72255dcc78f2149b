// @ts-check
// views/chat.js: the chat log and its input.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../state.js').ChatLine} ChatLine */

/** ChatView draws the chat panel; `send(text)` returns true when the text went out. */
export class ChatView {
  /** @param {(text: string) => boolean} send */
  constructor(send) {
    this.input = /** @type {HTMLInputElement} */ (h('input.text-input', { type: 'text', id: 'chat-input', maxlength: '300', 'data-i18n-placeholder': 'chat.placeholder', placeholder: t('chat.placeholder'), 'aria-label': t('panel.chat') }));
    this.log = h('div');
    this.form = h('form.chat-form', {
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = this.input.value.trim();
        if (text && send(text)) this.input.value = '';
      },
    }, this.input, h('button.btn.btn-sm', { type: 'submit', 'data-i18n': 'chat.send' }, t('chat.send')));
    this.el = h('div.tabpanel', { id: 'panel-chat', role: 'tabpanel', hidden: true }, this.log, this.form);
  }

  /**
   * @param {ChatLine[]} messages
   * @param {boolean} allowed chat is on in this room
   */
  render(messages, allowed) {
    if (!allowed) {
      this.log.replaceChildren(h('p.muted', t('chat.disabled')));
    } else {
      const list = h('ul.chat-log', { id: 'chat-log', 'aria-live': 'polite' }, messages.map((m) => h('li', null,
        h('span.who', null, m.color ? h('i.dot', { class: `dot-${m.color}` }) : null, ' ', m.name || (m.color ? t(`color.${m.color}`) : t('chat.spectator')), ':'),
        h('span', m.text))));
      this.log.replaceChildren(list);
      list.scrollTop = list.scrollHeight;
    }
    this.form.hidden = !allowed;
  }
}
