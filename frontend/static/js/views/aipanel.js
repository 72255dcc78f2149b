// @ts-check
// views/aipanel.js: the AI thinking panel (status, time bar, depth, speed, evaluation bar,
// principal variation) and its show/PV toggles.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { icon } from '../icons.js';

/** @typedef {import('../protocol.js').AIMessage} AIMessage */
/** @typedef {import('../protocol.js').Color} Color */

/**
 * formatScore renders an engine score (centi-stones, from the AI's side) or a mate.
 * @param {number} score
 * @param {number} mate
 */
export function formatScore(score, mate) {
  if (mate) return mate > 0 ? t('panel.ai.mate', { n: mate }) : t('panel.ai.mated', { n: -mate });
  const v = (score || 0) / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

/**
 * evalText shows an evaluation from a fixed point of view, whichever side the AI plays:
 * the side it favours and by how much ("Black +0.50", "White wins in 5"), or "Even".
 * @param {number} score centi-stones from `color`'s view
 * @param {number} mate plies to a forced result, + for `color`
 * @param {Color} color the AI's side
 */
export function evalText(score, mate, color) {
  const sign = color === 'black' ? 1 : -1;
  if (mate) {
    const winner = mate * sign > 0 ? 'black' : 'white';
    return t('panel.ai.winIn', { color: t(`color.${winner}`), n: Math.abs(mate) });
  }
  const v = ((score || 0) * sign) / 100;
  if (Math.abs(v) < 0.005) return t('panel.ai.even');
  return `${t(`color.${v > 0 ? 'black' : 'white'}`)} +${Math.abs(v).toFixed(2)}`;
}

/**
 * blackShare maps a score from `color`'s view to the share (0..1) of the bar that is black's.
 * @param {number} score
 * @param {number} mate
 * @param {Color} color
 */
export function blackShare(score, mate, color) {
  let sc = mate ? (mate > 0 ? 1 : -1) * 1e6 : score || 0;
  if (color === 'white') sc = -sc;
  return 1 / (1 + Math.exp(-sc / 400));
}

/**
 * width sets a bar's width in per cent (through the CSSOM: the page's CSP allows no
 * style attributes).
 * @param {HTMLElement} el
 * @param {number} pct
 */
function width(el, pct) {
  el.style.width = `${pct.toFixed(1)}%`;
  return el;
}

/** @param {number | null | undefined} n */
function fmtNum(n) {
  if (n == null) return '–';
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/**
 * @typedef {Object} AIPanelModel
 * @property {boolean} visible a machine plays in a game not over
 * @property {AIMessage | null} info the progress for the current position
 * @property {number} elapsed its thinking time extrapolated to now
 * @property {boolean} show the panel is open
 * @property {boolean} pv the principal variation is shown (board and panel)
 * @property {boolean} pvSwitch the viewer has the switch (a player facing the AI)
 * @property {boolean} pvOn the switch's position
 */

/** AIPanelView draws the AI panel; the toggles report through onShow / onPV. */
export class AIPanelView {
  /** @param {{onShow: (v: boolean) => void, onPV: (v: boolean) => void}} on */
  constructor(on) {
    this.on = on;
    this.el = h('div', { id: 'ai' });
  }

  /** @param {AIPanelModel} m */
  render(m) {
    if (!m.visible) { this.el.replaceChildren(); return; }
    this.el.replaceChildren(this.panel(m));
  }

  /** @param {AIPanelModel} m */
  panel({ info, elapsed, show, pv, pvSwitch, pvOn }) {
    const header = h('header', null, h('h3', t('panel.ai')),
      h('label.check', null, h('input', { type: 'checkbox', id: 'ai-show', checked: show, onchange: (/** @type {Event} */ e) => this.on.onShow(/** @type {HTMLInputElement} */ (e.target).checked) }), h('span.sr-only', t('panel.ai.show')), icon('eye', 18)));
    if (!show) return h('section.card.ai-panel', { 'aria-label': t('panel.ai') }, header);
    if (!info) {
      return h('section.card.ai-panel', { 'aria-label': t('panel.ai') }, header, h('p.muted.flush', t('panel.ai.idle')));
    }
    const budget = info.budget_ms || 0;
    const pct = budget > 0 ? Math.min(100, (elapsed / budget) * 100) : 0;
    const share = blackShare(info.score, info.mate, info.color);
    return h('section.card.ai-panel', { 'aria-label': t('panel.ai'), id: 'ai-panel', dataset: { status: info.status || '' } },
      header,
      h('div.muted.small', `${t(`color.${info.color}`)} · ${info.status === 'queued' ? t('panel.ai.queued') : t('status.aiThinking')}`),
      h('div.bar', { role: 'progressbar', 'aria-label': t('panel.ai.time'), 'aria-valuemin': '0', 'aria-valuemax': String(budget), 'aria-valuenow': String(Math.round(elapsed)) },
        width(h('span', { id: 'ai-progress' }), pct)),
      h('dl.ai-stats', null,
        h('div', null, h('dt', t('panel.ai.depth')), h('dd', { id: 'ai-depth' }, `${info.depth || 0}${info.seldepth ? `/${info.seldepth}` : ''}`)),
        h('div', null, h('dt', t('panel.ai.nps')), h('dd', fmtNum(info.nps))),
        h('div', null, h('dt', t('panel.ai.nodes')), h('dd', fmtNum(info.nodes)))),
      h('div.evalbar', { role: 'meter', 'aria-label': t('panel.ai.eval'), 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(Math.round(share * 100)) },
        width(h('span'), share * 100), h('em', { id: 'ai-eval' }, evalText(info.score, info.mate, info.color))),
      pv && info.pv && info.pv.length ? h('div.pv-line', null, h('strong', `${t('panel.ai.pvLabel')}: `), info.pv.join(' ')) : null,
      pvSwitch ? h('label.check.small', null, h('input', { type: 'checkbox', id: 'ai-pv', checked: pvOn, onchange: (/** @type {Event} */ e) => this.on.onPV(/** @type {HTMLInputElement} */ (e.target).checked) }), t('panel.ai.pv')) : null);
  }

  /**
   * tick moves the time bar while the AI thinks.
   * @param {AIMessage | null} ai
   * @param {number} elapsed
   */
  tick(ai, elapsed) {
    const bar = /** @type {HTMLElement | null} */ (this.el.querySelector('#ai-progress'));
    if (bar && ai && ai.status === 'thinking' && ai.budget_ms) {
      bar.style.width = `${((Math.min(ai.budget_ms, elapsed) / ai.budget_ms) * 100).toFixed(1)}%`;
    }
  }
}
