// @ts-check
// views/tabs.js: the side card switching between the move list and the chat.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/** TabsView shows one of its panels at a time. */
export class TabsView {
  /** @param {{id: string, label: string, panel: HTMLElement}[]} tabs label: i18n key */
  constructor(tabs) {
    this.tabs = tabs;
    this.current = tabs[0].id;
    this.buttons = tabs.map((tab) => h('button', { type: 'button', role: 'tab', id: `tab-${tab.id}`, 'aria-controls': `panel-${tab.id}`, onclick: () => this.show(tab.id) }, t(tab.label)));
    this.el = h('section.card', null, h('div.tabs', { role: 'tablist' }, this.buttons), tabs.map((tab) => tab.panel));
    this.show(this.current);
  }

  /** @param {string} id */
  show(id) {
    this.current = id;
    this.tabs.forEach((tab, i) => {
      tab.panel.hidden = tab.id !== id;
      this.buttons[i].setAttribute('aria-selected', String(tab.id === id));
    });
  }

  /** relabel redraws the tab names after a language change. */
  relabel() {
    this.tabs.forEach((tab, i) => { this.buttons[i].textContent = t(tab.label); });
  }
}
