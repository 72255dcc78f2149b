// @ts-check
// views/movelist.js: the move list; a click shows the position after that move.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../state.js').Move} Move */

/** MoveListView draws the moves; `pick(n)` shows the position after n moves. */
export class MoveListView {
  /** @param {(n: number) => void} pick */
  constructor(pick) {
    this.pick = pick;
    this.el = h('div.tabpanel', { id: 'panel-moves', role: 'tabpanel' });
  }

  /**
   * @param {Move[]} moves
   * @param {number} current the number of moves shown on the board
   * @param {boolean} live follow the end of the list
   */
  render(moves, current, live) {
    if (!moves.length) { this.el.replaceChildren(h('p.muted', '—')); return; }
    const items = [];
    for (let i = 0; i < moves.length; i += 2) {
      items.push(h('li.n', `${i / 2 + 1}.`));
      for (const j of [i, i + 1]) {
        const m = moves[j];
        items.push(h('li', null, m ? h('button', { type: 'button', class: current === j + 1 ? 'current' : '', onclick: () => this.pick(j + 1), 'aria-label': `${j + 1}. ${t(`color.${m.color}`)} ${m.point}` }, m.point) : ''));
      }
    }
    const list = h('ol.movelist', { id: 'move-list', 'aria-label': t('panel.moves') }, items);
    this.el.replaceChildren(list);
    if (live) list.scrollTop = list.scrollHeight;
  }
}
