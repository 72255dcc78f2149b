// @ts-check
// pairing.js: the lobby WebSocket (GET /ws/lobby, docs/protocol.md section 8) and the
// lobby's Quick pairing panel. The socket also carries the open and live lists, pushed
// when they change; the lobby polls only while the socket is down.
import { h } from './dom.js';
import { t } from './i18n.js';
import * as api from './api.js';
import * as store from './store.js';
import { backoffDelay } from './resume.js';
import { levelLabel } from './rating.js';
import {
  RULES, CLOCKS, initial, seekMessage, sent, receive, lost, offerAI, waitText, aiGameBody, ratingPool, poolRating,
} from './pairingmodel.js';

const PING_EVERY = 20000;

/** lobbyURL builds the lobby WebSocket's URL from the page location. */
function lobbyURL() {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws/lobby`;
}

/**
 * LobbySocket keeps the lobby WebSocket open, reconnecting with backoff. onMessage gets
 * every server message after `welcome`; onUp(up) tells when it opens and drops.
 */
class LobbySocket {
  /**
   * @param {(msg: any) => void} onMessage
   * @param {(up: boolean) => void} onUp
   */
  constructor(onMessage, onUp) {
    this.onMessage = onMessage;
    this.onUp = onUp;
    this.attempt = 0;
    this.stopped = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.token = '';
    this.ready = false;
    /** @type {any[]} frames to send once the hello is answered */
    this.queue = [];
    /** @type {any} */
    this.timer = null;
    /** @type {any} */
    this.pinger = null;
    this.n = 0;
  }

  connect() {
    if (this.stopped) return;
    const p = store.player();
    this.token = p ? p.token : '';
    this.ready = false;
    const ws = new WebSocket(lobbyURL());
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(this.token ? { type: 'hello', token: this.token } : { type: 'hello' }));
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'welcome') {
        this.ready = true;
        this.attempt = 0;
        this.onUp(true);
        for (const f of this.queue.splice(0)) ws.send(JSON.stringify(f));
        return;
      }
      if (msg.type !== 'pong') this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      this.onUp(false);
      if (this.stopped) return;
      this.timer = setTimeout(() => this.connect(), backoffDelay(this.attempt++));
    };
    clearInterval(this.pinger);
    this.pinger = setInterval(() => {
      if (this.ready && this.ws) this.ws.send(JSON.stringify({ type: 'ping', id: this.nextId() }));
    }, PING_EVERY);
  }

  nextId() { this.n += 1; return `l${this.n}`; }

  /** send sends a frame, reconnecting first when the stored identity changed. */
  send(frame) {
    const p = store.player();
    if ((p ? p.token : '') !== this.token && this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close();
      this.queue.push(frame);
      clearTimeout(this.timer);
      this.connect();
      return;
    }
    if (this.ready && this.ws) this.ws.send(JSON.stringify(frame));
    else this.queue.push(frame);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(); }
  }
}

/**
 * mountPairing builds the Quick pairing panel and opens the lobby socket.
 * @param {{navigate: (path: string) => void, playerName: () => string}} ctx
 * @param {{onLists: (open: any[], live: any[]) => void, onUp: (up: boolean) => void}} hooks
 * @returns {{el: HTMLElement, redraw: () => void, stop: () => void}}
 */
export function mountPairing(ctx, hooks) {
  let st = initial();
  const prev = store.get('lastSeek', { rule: 'freestyle', clock: '5+3', rated: false });
  const hasAccount = () => !!(store.player() && store.player().username);
  const ruleSel = h('select', { id: 'pair-rule', name: 'rule' }, RULES.map((r) => h('option', { value: r, selected: r === prev.rule }, t(`rule.${r}`))));
  const clockSel = h('select', { id: 'pair-clock', name: 'clock' }, CLOCKS.map((c) => h('option', { value: c, selected: c === prev.clock }, c)));
  const rated = h('input', { type: 'checkbox', id: 'pair-rated', checked: !!prev.rated });
  const ratedLabel = h('label.check', { for: 'pair-rated' }, rated, h('span', { 'data-i18n': 'pair.rated' }, t('pair.rated')));
  const seekBtn = h('button.btn.btn-primary', { type: 'button', id: 'pair-seek', 'data-i18n': 'pair.seek' }, t('pair.seek'));
  const cancelBtn = h('button.btn', { type: 'button', id: 'pair-cancel', 'data-i18n': 'pair.cancel' }, t('pair.cancel'));
  const aiBtn = h('button.btn', { type: 'button', id: 'pair-ai' }, '');
  const waitEl = h('span', { id: 'pair-wait' });
  const err = h('p.form-error', { role: 'alert', id: 'pair-error' });
  const ratingEl = h('p.muted.pair-rating', { id: 'pair-rating', hidden: true });
  /** @type {{pool: string, display: string}[] | null} the player's ratings (GET /api/players/{id}) */
  let ratings = null;
  /** @type {{rule: string, clock: string, rating_pool: string}[]} the server's pools (GET /api/pairing/pools) */
  let pools = [];
  /** @type {Record<string, number>} the AI levels' published ratings (GET /api/engines) */
  let levelRatings = {};
  const choices = h('div.pair-choices', null,
    h('label.field', { for: 'pair-rule' }, h('span.label', { 'data-i18n': 'create.rule' }, t('create.rule')), ruleSel),
    h('label.field', { for: 'pair-clock' }, h('span.label', { 'data-i18n': 'create.time' }, t('create.time')), clockSel),
    ratedLabel);
  const waiting = h('div.pair-waiting', { 'aria-live': 'polite' }, waitEl, cancelBtn, aiBtn);
  const title = h('h2', { id: 'pair-title', 'data-i18n': 'pair.title' }, t('pair.title'));
  const el = h('section.card.pairing', { id: 'pairing', 'aria-labelledby': 'pair-title' }, title, choices, ratingEl, seekBtn, waiting, err);
  const pool = () => ({ rule: ruleSel.value, clock: clockSel.value, rated: rated.checked });

  const redraw = () => {
    const now = Date.now();
    const acct = hasAccount();
    rated.disabled = !acct || st.phase !== 'idle';
    ratedLabel.title = acct ? '' : t('pair.rated.account');
    ruleSel.disabled = clockSel.disabled = st.phase !== 'idle';
    const ratedPool = ratingPool(pools, ruleSel.value, clockSel.value);
    ratingEl.hidden = !ratings || !ratedPool;
    ratingEl.textContent = ratings && ratedPool ? t('pair.rating', { rating: poolRating(ratings, ratedPool) }) : '';
    ratingEl.title = t('pair.rating.help');
    seekBtn.hidden = st.phase !== 'idle';
    waiting.hidden = st.phase !== 'seeking';
    waitEl.textContent = t('pair.waiting', { time: waitText(now - st.since) });
    aiBtn.hidden = !offerAI(st, now);
    aiBtn.textContent = st.aiLevel ? t('pair.ai', { level: levelLabel(st.aiLevel, levelRatings) }) : '';
    err.textContent = !st.error ? '' : t(st.error) !== st.error ? t(st.error) : t('error.generic', { message: st.error.replace(/^error\./, '') });
  };
  const apply = (next) => {
    st = next;
    if (st.phase === 'paired' && st.room) {
      ctx.navigate(`/r/${encodeURIComponent(st.room)}`);
      return;
    }
    redraw();
  };
  const sock = new LobbySocket((msg) => {
    if (msg.type === 'lobby') { hooks.onLists(msg.open || [], msg.live || []); return; }
    apply(receive(st, msg, Date.now()));
  }, (up) => {
    hooks.onUp(up);
    if (!up) apply(lost(st));
  });

  seekBtn.addEventListener('click', async () => {
    const p = pool();
    store.put('lastSeek', p);
    try {
      await api.ensurePlayer(ctx.playerName());
    } catch (ex) {
      apply({ ...st, error: ex.code === 'network' ? 'error.network' : 'error.unavailable' });
      return;
    }
    const id = sock.nextId();
    apply(sent(st, id, Date.now()));
    sock.send(seekMessage(id, p, hasAccount()));
  });
  cancelBtn.addEventListener('click', () => sock.send({ type: 'cancel', id: st.id }));
  aiBtn.addEventListener('click', async () => {
    const level = st.aiLevel;
    sock.send({ type: 'cancel', id: st.id });
    apply(initial());
    try {
      const res = await api.createRoom(aiGameBody(pool(), level, store.get('autoAnalyse', true)));
      ctx.navigate(`/r/${encodeURIComponent(res.room.id)}`);
    } catch (ex) {
      apply({ ...st, error: ex.code === 'network' ? 'error.network' : 'error.unavailable' });
    }
  });
  ruleSel.addEventListener('change', redraw);
  clockSel.addEventListener('change', redraw);
  api.pairingPools().then((p) => { pools = p; redraw(); }, () => {});
  api.levelRatings().then((r) => { levelRatings = r; redraw(); }, () => {});
  const me = store.player();
  if (me && me.id) {
    api.call('GET', `/api/players/${encodeURIComponent(me.id)}`).then((res) => { ratings = res.ratings || []; redraw(); }, () => {});
  }
  const ticker = setInterval(() => { if (st.phase === 'seeking') redraw(); }, 1000);
  sock.connect();
  redraw();
  return {
    el,
    redraw,
    stop: () => { clearInterval(ticker); sock.stop(); },
  };
}
