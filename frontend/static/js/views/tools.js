// @ts-check
// views/tools.js: the board's display toggles (move numbers; forbidden points in renju).
import { h, fill } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../session.js').BoardPrefs} BoardPrefs */

/** ToolsView draws the toggles; `set(pref, value)` changes one. */
export class ToolsView {
  /** @param {(pref: keyof BoardPrefs, value: boolean) => void} set */
  constructor(set) {
    this.set = set;
    this.el = h('div.board-tools');
  }

  /**
   * @param {BoardPrefs} prefs
   * @param {boolean} renju offer the forbidden-points toggle
   */
  render(prefs, renju) {
    /**
     * @param {string} key
     * @param {keyof BoardPrefs} pref
     * @param {string} id
     */
    const toggle = (key, pref, id) => h('label.check', null, h('input', { type: 'checkbox', id, checked: prefs[pref], onchange: (/** @type {Event} */ e) => this.set(pref, /** @type {HTMLInputElement} */ (e.target).checked) }), t(key));
    fill(this.el, toggle('action.numbers', 'numbers', 'opt-numbers'), renju ? toggle('action.forbidden', 'forbidden', 'opt-forbidden') : null);
  }
}
