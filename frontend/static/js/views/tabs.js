// @ts-check
// views/tabs.js: the side card switching between the move list and the chat, with an
// unread count on a tab.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/** TabsView shows one of its panels at a time. */
export class TabsView {
  /**
   * @param {{id: string, label: string, panel: HTMLElement}[]} tabs label: i18n key
   * @param {(id: string) => void} [onShow] told when a tab is shown
   */
  constructor(tabs, onShow = () => {}) {
    this.tabs = tabs;
    this.onShow = onShow;
    this.current = tabs[0].id;
    this.labels = tabs.map((tab) => h('span', t(tab.label)));
    this.badges = tabs.map((tab) => h('span.tab-badge', { id: `badge-${tab.id}`, hidden: true }));
    this.counts = tabs.map(() => 0);
    this.buttons = tabs.map((tab, i) => h('button', { type: 'button', role: 'tab', id: `tab-${tab.id}`, 'aria-controls': `panel-${tab.id}`, onclick: () => this.show(tab.id) }, this.labels[i], this.badges[i]));
    this.el = h('section.card', null, h('div.tabs', { role: 'tablist' }, this.buttons), tabs.map((tab) => tab.panel));
    this.select(this.current);
  }

  /** @param {string} id */
  show(id) {
    this.select(id);
    this.onShow(id);
  }

  /** @param {string} id */
  select(id) {
    this.current = id;
    this.tabs.forEach((tab, i) => {
      tab.panel.hidden = tab.id !== id;
      this.buttons[i].setAttribute('aria-selected', String(tab.id === id));
    });
  }

  /**
   * badge shows an unread count on tab id (0 hides it).
   * @param {string} id
   * @param {number} n
   */
  badge(id, n) {
    const i = this.tabs.findIndex((tab) => tab.id === id);
    if (i < 0) return;
    this.counts[i] = n;
    const b = this.badges[i];
    b.hidden = n === 0;
    b.textContent = n > 99 ? '99+' : String(n);
    b.setAttribute('aria-label', t('chat.unread', { n }));
  }

  /** relabel redraws the tab names after a language change. */
  relabel() {
    this.tabs.forEach((tab, i) => {
      this.labels[i].textContent = t(tab.label);
      this.badge(tab.id, this.counts[i]);
    });
  }
}
