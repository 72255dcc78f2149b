// @ts-check
// views/status.js: the status line above the board (whose turn, result, connection).
import { h, fill } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../statusline.js').StatusLine} StatusLine */

/**
 * statusText renders a status line in the current language.
 * @param {StatusLine} st
 */
export function statusText(st) {
  const params = st.colorParam ? { ...st.params, [st.colorParam]: t(`color.${st.params[st.colorParam]}`) } : st.params;
  return t(st.key, params);
}

/** StatusView draws the status line. */
export class StatusView {
  constructor() {
    this.el = h('div.status', { id: 'status', role: 'status', 'aria-live': 'polite' });
  }

  /** @param {StatusLine} st */
  render(st) {
    this.el.className = `status tone-${st.tone}`;
    fill(this.el, h('span', { id: 'status-text' }, statusText(st)), st.why ? h('span.why', `· ${t(st.why)}`) : null);
  }
}
