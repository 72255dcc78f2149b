// @ts-check
// views/offers.js: pending draw / takeback / rematch offers; the opponent's with answer buttons.
import { h } from '../dom.js';
import { t } from '../i18n.js';

/** @typedef {import('../protocol.js').Color} Color */

/**
 * @typedef {Object} Offer
 * @property {'draw' | 'takeback' | 'rematch'} kind
 * @property {Color} by
 * @property {boolean} answerable the viewer is the one asked
 */

/**
 * offersFor lists the pending offers of a game as the viewer sees them: draw and takeback
 * while playing, rematch after the game; answerable when the viewer is the one asked.
 * @param {import('../state.js').Game} g
 * @param {import('../protocol.js').Role} role
 * @returns {Offer[]}
 */
export function offersFor(g, role) {
  const opp = role === 'black' ? 'white' : role === 'white' ? 'black' : null;
  /** @type {Offer[]} */
  const out = [];
  const o = g.offers;
  if (o.draw && g.phase === 'playing') out.push({ kind: 'draw', by: o.draw, answerable: o.draw === opp });
  if (o.takeback && g.phase === 'playing') out.push({ kind: 'takeback', by: o.takeback, answerable: o.takeback === opp });
  if (o.rematch && g.phase === 'over') out.push({ kind: 'rematch', by: o.rematch, answerable: o.rematch === opp });
  return out;
}

/** The commands answering each offer (rematch has no decline: it is just not accepted). */
const ANSWERS = {
  draw: { accept: 'draw_accept', decline: 'draw_decline' },
  takeback: { accept: 'takeback_accept', decline: 'takeback_decline' },
  rematch: { accept: 'rematch', decline: '' },
};

/** OffersView lists the offers; answering sends the command through `send`. */
export class OffersView {
  /** @param {(type: string) => void} send */
  constructor(send) {
    this.send = send;
    this.el = h('div', { id: 'offers', style: 'display:flex;flex-direction:column;gap:8px' });
  }

  /** @param {Offer[]} offers */
  render(offers) {
    const items = offers.map((o) => {
      const text = t(`offer.${o.kind}`, { color: t(`color.${o.by}`) });
      if (!o.answerable) return h('div.card.offer', text);
      const { accept, decline } = ANSWERS[o.kind];
      return h('div.card.offer', { role: 'alert', id: `offer-${o.kind}` },
        h('span', text),
        h('span.actions', null,
          h('button.btn.btn-sm.btn-green', { type: 'button', onclick: () => this.send(accept), dataset: { answer: 'accept' } }, t('action.accept')),
          decline ? h('button.btn.btn-sm', { type: 'button', onclick: () => this.send(decline), dataset: { answer: 'decline' } }, t('action.decline')) : null));
    });
    this.el.replaceChildren(...items);
    this.el.hidden = items.length === 0;
  }
}
