// @ts-check
// views/opening.js: the opening choice of swap/swap2 ("Play black", "Play white", "Place
// two more"), shown to the player whose choice it is.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../protocol.js').OpeningChoice} OpeningChoice */

/** OpeningView draws the choice buttons; choosing sends the choice through `choose`. */
export class OpeningView {
  /** @param {(choice: OpeningChoice) => void} choose */
  constructor(choose) {
    this.choose = choose;
    this.el = h('div.card.offer.opening-choice', { id: 'opening-choice', role: 'group' });
    this.el.hidden = true;
  }

  /**
   * @param {OpeningChoice[]} choices the viewer's choices ([]: none due)
   * @param {string} prompt the status prompt of the step
   * @param {boolean} online buttons work only while connected
   */
  render(choices, prompt, online) {
    this.el.hidden = choices.length === 0;
    if (!choices.length) { this.el.replaceChildren(); return; }
    this.el.setAttribute('aria-label', prompt);
    this.el.replaceChildren(h('span', prompt), h('span.actions', null, choices.map((c) => h('button.btn.btn-sm', {
      type: 'button', id: `btn-choose-${c}`, class: c === 'place2' ? '' : 'btn-primary', disabled: !online,
      onclick: () => this.choose(c),
    }, t(`opening.choice.${c}`)))));
  }
}
