// @ts-check
// views/actions.js: the viewer's game buttons (abort, resign with confirmation, draw,
// takeback, hint, rematch).
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { isPlayer, aiSeat, other, turn } from '../state.js';

/** How long a first click on "Resign" waits for the confirming second click. */
const RESIGN_CONFIRM_MS = 4000;

/**
 * @typedef {Object} Action
 * @property {string} id element id
 * @property {string} label i18n key
 * @property {string} command the command type sent
 * @property {string} [sent] i18n key of a toast after sending
 * @property {boolean} [disabled]
 * @property {string} [cls] extra classes
 */

/**
 * actionsFor lists the viewer's buttons: abort (before both sides moved), resign, draw
 * (not against a machine), takeback (when allowed), hint (against a machine with hints)
 * while playing; rematch after the game while the opponent is there; abort while waiting.
 * Spectators have none.
 * @param {import('../state.js').Game} g
 * @param {import('../protocol.js').Role} role
 * @returns {Action[]}
 */
export function actionsFor(g, role) {
  if (!isPlayer(role)) return [];
  /** @type {Action[]} */
  const out = [];
  if (g.phase === 'playing') {
    const vsMachine = !!aiSeat(g);
    // Abort until both sides have acted: under an opening rule, until the second player's first choice.
    if (g.opening !== 'none' ? g.step === 'place3' || g.step === 'choose' : g.moves.length < 2) out.push({ id: 'btn-abort', label: 'action.abort', command: 'abort' });
    out.push({ id: 'btn-resign', label: 'action.resign', command: 'resign', cls: 'btn-danger' });
    if (!vsMachine) out.push({ id: 'btn-draw', label: 'action.draw', command: 'draw_offer', sent: 'offer.sent', disabled: g.offers.draw === role });
    if (g.takebacks) out.push({ id: 'btn-takeback', label: 'action.takeback', command: 'takeback_request', sent: vsMachine ? '' : 'offer.sent', disabled: g.offers.takeback === role || !!g.step || !g.moves.some((m) => m.color === role && m.ply >= g.openingPlies) });
    if (vsMachine && g.hints) out.push({ id: 'btn-hint', label: 'action.hint', command: 'hint', disabled: turn(g) !== role || !!g.step });
  } else if (g.phase === 'over' && g.seats[other(role)]) {
    out.push({ id: 'btn-rematch', label: 'action.rematch', command: 'rematch', sent: 'offer.sent', disabled: g.offers.rematch === role, cls: 'btn-primary' });
  } else if (g.phase === 'waiting') {
    out.push({ id: 'btn-abort', label: 'action.abort', command: 'abort' });
  }
  return out;
}

/** ActionsView draws the buttons; `send(command, sentKey)` runs one. */
export class ActionsView {
  /** @param {(command: string, sentKey?: string) => void} send */
  constructor(send) {
    this.send = send;
    this.el = h('div.actions', { id: 'actions' });
    this.resignArmed = false;
    /** @type {Action[]} */
    this.actions = [];
    this.online = false;
  }

  /**
   * @param {Action[]} actions
   * @param {boolean} online buttons work only while connected
   */
  render(actions, online) {
    this.actions = actions;
    this.online = online;
    this.draw();
  }

  draw() {
    const btns = this.actions.map((a) => {
      const resign = a.command === 'resign';
      const label = resign && this.resignArmed ? 'action.resign.confirm' : a.label;
      return h('button.btn', { type: 'button', id: a.id, onclick: () => (resign ? this.resign() : this.send(a.command, a.sent)), disabled: !!a.disabled || !this.online, class: a.cls || '' }, t(label));
    });
    this.el.replaceChildren(...btns);
    this.el.hidden = btns.length === 0;
  }

  /** resign asks for a second click within RESIGN_CONFIRM_MS before resigning. */
  resign() {
    if (this.resignArmed) {
      this.resignArmed = false;
      this.send('resign');
      return;
    }
    this.resignArmed = true;
    setTimeout(() => { this.resignArmed = false; this.draw(); }, RESIGN_CONFIRM_MS);
    this.draw();
    /** @type {HTMLElement | null} */ (this.el.querySelector('#btn-resign'))?.focus();
  }
}
