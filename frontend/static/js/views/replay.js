// @ts-check
// views/replay.js: replay controls (first, previous, play/pause, next, last, slider).
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t } from '../i18n.js';

/** ReplayView draws the controls; `go(n)` shows the position after n moves, `toggle()` plays/pauses. */
export class ReplayView {
  /** @param {{go: (n: number) => void, toggle: () => void}} on */
  constructor(on) {
    this.on = on;
    this.el = h('div', { id: 'replay' });
  }

  /**
   * @param {boolean} visible
   * @param {number} n moves shown
   * @param {number} total moves played
   * @param {boolean} playing autoplay runs
   */
  render(visible, n, total, playing) {
    if (!visible) { this.el.replaceChildren(); return; }
    const { go, toggle } = this.on;
    /**
     * @param {string} label
     * @param {keyof typeof import('../icons.js').ICONS} ic
     * @param {() => void} fn
     * @param {boolean} dis
     * @param {string} id
     */
    const btn = (label, ic, fn, dis, id) => h('button.btn.btn-sm', { type: 'button', 'aria-label': t(label), title: t(label), onclick: fn, disabled: dis, id }, icon(ic));
    this.el.replaceChildren(h('div.replay', { role: 'group', 'aria-label': t('replay.title') },
      btn('replay.first', 'first', () => go(0), n === 0, 'rp-first'),
      btn('replay.prev', 'prev', () => go(n - 1), n === 0, 'rp-prev'),
      btn(playing ? 'replay.pause' : 'replay.play', playing ? 'pause' : 'play', toggle, total === 0, 'rp-play'),
      btn('replay.next', 'next', () => go(n + 1), n >= total, 'rp-next'),
      btn('replay.last', 'last', () => go(total), n >= total, 'rp-last'),
      h('input', { type: 'range', min: '0', max: String(total), value: String(n), 'aria-label': t('replay.title'), oninput: (/** @type {Event} */ e) => go(Number(/** @type {HTMLInputElement} */ (e.target).value)) }),
      h('span.pos', { id: 'rp-pos' }, t('replay.position', { n, total }))));
  }
}
