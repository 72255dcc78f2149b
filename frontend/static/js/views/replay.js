// @ts-check
// views/replay.js: replay controls (first, previous, play/pause, next, last, slider).
import { h, s } from '../dom.js';
import { t } from '../i18n.js';

const ICONS = {
  first: 'M5 4h2v16H5zM19 4v16L8 12z',
  prev: 'M15.5 4l2 2-6 6 6 6-2 2-8-8z',
  next: 'M8.5 4l-2 2 6 6-6 6 2 2 8-8z',
  last: 'M17 4h2v16h-2zM5 4v16l11-8z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
};

/**
 * icon draws a small media-control icon.
 * @param {keyof ICONS} name
 */
function icon(name) {
  return s('svg', { viewBox: '0 0 24 24', width: '16', height: '16', 'aria-hidden': 'true', fill: 'currentColor' }, s('path', { d: ICONS[name] }));
}

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
     * @param {keyof ICONS} ic
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
