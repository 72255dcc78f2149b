// @ts-check
// game.js: the game page controller. It owns the room connection and one Session
// (session.js), turns server messages into a new Session plus side effects (sounds,
// toasts, screen-reader announcements: gamenotices.js), turns clicks into commands, and
// hands each view (views/*.js, board.js, the chat panel of gamechat.js) the part of the
// Session it draws.
import { h, applyI18n, toast, banner } from './dom.js';
import { t, onLang } from './i18n.js';
import * as store from './store.js';
import * as api from './api.js';
import * as sound from './sound.js';
import { RoomConnection } from './conn.js';
import { wsURL } from './protocol.js';
import { BoardView } from './board.js';
import { toNotation } from './geometry.js';
import { canPlay, isPlayer, aiSeat, COLORS, openSeats, stoneColor, choicesFor } from './state.js';
import { status } from './statusline.js';
import {
  newSession, receive, withPlayer, seek, shownPly, seatPresence, currentAI, aiElapsed, clockLeft, firstMoveLeft, boardModel, pvShown, pvSwitch, playerCards,
} from './session.js';
import { PlayersView } from './views/players.js';
import { OffersView, offersFor } from './views/offers.js';
import { ActionsView, actionsFor } from './views/actions.js';
import { AIPanelView, formatScore } from './views/aipanel.js';
import { MoveListView } from './views/movelist.js';
import { ReplayView } from './views/replay.js';
import { TabsView } from './views/tabs.js';
import { LinksView } from './views/links.js';
import { ToolsView } from './views/tools.js';
import { StatusView, statusText } from './views/status.js';
import { OpeningView } from './views/opening.js';
import { errorText, forbiddenText } from './errors.js';
import { fatalPage } from './views/fatal.js';
import { connBanner } from './connview.js';
import { AnalysisPanel } from './views/analysis.js';
import { GameChat } from './gamechat.js';
import { announce } from './gamenotices.js';
import { MessageTrace, exposeForTests } from './gametrace.js';

/** @typedef {import('./protocol.js').Color} Color */
/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */
/** @typedef {import('./protocol.js').ClientMessage} ClientMessage */
/** @typedef {import('./protocol.js').RoomEvent} RoomEvent */
/** @typedef {import('./session.js').Session} Session */
/** @typedef {import('./session.js').BoardPrefs} BoardPrefs */

/** Autoplay in replay: one move every REPLAY_STEP_MS. */
const REPLAY_STEP_MS = 900;
/** Clocks, countdowns and the AI bar tick locally every TICK_MS between server messages. */
const TICK_MS = 100;

/** @param {any} e an Error with a protocol code */
function toastError(e) {
  toast(errorText(e.code, e.message), 'error');
}

/** @returns {import('./session.js').Now} */
function now() {
  return { wall: Date.now(), mono: performance.now() };
}

/** GameController runs the game page of one room. */
export class GameController {
  /**
   * @param {HTMLElement} main
   * @param {string} roomId
   * @param {{playerName: () => string, navigate: (path: string) => void}} ctx
   */
  constructor(main, roomId, ctx) {
    this.main = main;
    this.roomId = roomId;
    this.ctx = ctx;
    const params = new URLSearchParams(location.search);
    this.watchOnly = params.has('watch');
    /** the lobby's "Join": take the open seat as soon as the room is known (one tap) */
    this.joinOnOpen = params.has('join') && !this.watchOnly;
    if (this.joinOnOpen) history.replaceState(history.state, '', location.pathname);
    const player = store.player();
    /** @type {Session} */
    this.s = newSession(roomId, player ? player.id : '');
    this.conn = 'connecting';
    this.attempt = 0;
    /** performance.now() of the next reconnection attempt (0: one is under way) */
    this.retryAt = 0;
    /** the banner's text as last drawn (redrawn when it changes) */
    this.bannerText = '';
    /** @type {{black: number | null, white: number | null} | null} the clocks when the connection was lost */
    this.frozen = null;
    /** the identity was renewed once on this page (a second refusal is not retried) */
    this.renewed = false;
    /** a renewal is under way */
    this.renewing = false;
    /** @type {Map<string, {x: number, y: number, color: Color, point: string}>} moves sent, not yet settled */
    this.pending = new Map();
    /** @type {Color | null} the seat to take once reconnected with a new identity */
    this.pendingSit = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.autoplay = null;
    this.closed = false;
    /** @type {Record<string, number> | null} the AI levels' published ratings, once asked for */
    this.levels = null;
    this.trace = new MessageTrace();
    /** @type {BoardPrefs} */
    this.prefs = {
      numbers: store.get('numbers', false), forbidden: store.get('forbidden', true),
      showAI: store.get('showAI', true), pvVsAI: store.get('pvVsAI', false),
    };

    const send = (/** @type {string} */ type, /** @type {string} */ sentKey) => this.send(/** @type {ClientMessage} */ ({ type }), sentKey ? t(sentKey) : '');
    this.board = new BoardView({ size: 15, onPlay: (x, y) => this.play(x, y) });
    this.status = new StatusView();
    this.tools = new ToolsView((pref, v) => this.setPref(pref, v));
    this.replay = new ReplayView({ go: (n) => this.go(n), toggle: () => this.toggleAutoplay() });
    this.players = new PlayersView({ claim: () => this.send({ type: 'claim_victory' }), sit: (c) => this.sit(c) });
    this.offers = new OffersView((type) => send(type, ''));
    this.opening = new OpeningView((choice) => this.send({ type: 'choose', choice }));
    this.actions = new ActionsView(send);
    this.ai = new AIPanelView({ onShow: (v) => this.setPref('showAI', v), onPV: (v) => this.setPref('pvVsAI', v) });
    this.moves = new MoveListView((n) => this.go(n));
    this.chat = new GameChat(roomId, {
      send: (text) => this.send({ type: 'chat', text }),
      setName: (name) => this.chatAs(name),
      changed: () => this.render(),
    });
    this.tabs = new TabsView([{ id: 'moves', label: 'panel.moves', panel: this.moves.el }, { id: 'chat', label: 'panel.chat', panel: this.chat.view.el }], () => this.render());
    this.links = new LinksView(roomId);
    this.analysis = new AnalysisPanel(roomId, { go: (n) => this.go(n), changed: () => this.render(), error: toastError });
    main.replaceChildren(h('div.game', null,
      h('div.board-col', null, this.status.el, this.board.el, this.replay.el, this.tools.el, this.analysis.el),
      h('aside.side', { 'aria-label': t('app.title') }, this.players.el, this.opening.el, this.offers.el, this.actions.el, this.ai.el, this.tabs.el, this.links.links, this.links.info)));

    this.client = new RoomConnection({
      url: wsURL(location, roomId), token: player ? player.token : '',
      onMessage: (msg) => this.onMessage(msg),
      onState: (st) => this.onState(st),
      onMoveSettled: (res) => this.onMoveSettled(res),
    });
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.offLang = onLang(() => { this.board.relabel(); applyI18n(main); this.tabs.relabel(); this.render(); });
    this.onOnline = () => { if (this.conn !== 'open') this.client.reconnectNow(); };
    window.addEventListener('online', this.onOnline);
    this.onRenamed = () => { if (this.client.token && this.conn === 'open') this.client.rejoin(); };
    window.addEventListener('gomoku:renamed', this.onRenamed);
    this.onKeyDown = (/** @type {KeyboardEvent} */ e) => this.onKey(e);
    document.addEventListener('keydown', this.onKeyDown);
    this.client.start();
    this.render();
  }

  // ---- server -> page ----

  /**
   * onState follows the connection. While it is down the clocks stop at what was last
   * known (the server's may have moved on: the page cannot tell) and the banner says what
   * the connection is doing.
   * @param {{state: string, attempt: number, delay?: number}} st
   */
  onState(st) {
    const mono = performance.now();
    // ("connecting" after a rejoin is a moment's new session, not a lost connection.)
    if ((st.state === 'reconnecting' || st.state === 'closed') && !this.frozen && this.s.loaded) {
      this.frozen = { black: clockLeft(this.s, 'black', mono), white: clockLeft(this.s, 'white', mono) };
    }
    if (st.state === 'open') this.frozen = null;
    this.conn = st.state;
    this.attempt = st.attempt;
    this.retryAt = st.state === 'reconnecting' && st.delay ? mono + st.delay : 0;
    this.showBanner();
    this.render();
  }

  /** showBanner draws the connection banner if its text changed. */
  showBanner() {
    if (this.closed) return;
    const b = connBanner({ state: this.conn, attempt: this.attempt, retryAt: this.retryAt }, performance.now());
    // A refused identity is being renewed: the connection restarts by itself.
    const text = b && !(this.conn === 'closed' && this.renewing) ? t(b.key, b.params) : '';
    if (text === this.bannerText) return;
    this.bannerText = text;
    if (!b || !text) { banner(null); return; }
    banner(text, b.tone, b.retry ? { label: t('conn.retryNow'), onclick: () => this.retryNow() } : null);
  }

  /** retryNow reconnects at once (the banner's button). */
  retryNow() {
    if (this.conn === 'closed') this.client.start();
    else this.client.reconnectNow();
  }

  /**
   * renewIdentity handles a hello refused as unauthorized (the server forgot the token:
   * a restart with the embedded store): it registers again under the same name, once,
   * and reconnects with the new token.
   */
  async renewIdentity() {
    if (this.renewed) return;
    this.renewed = true;
    this.renewing = true;
    this.showBanner();
    try {
      const { player } = await api.checkPlayer();
      if (this.closed || !player) return;
      this.client.token = player.token;
      this.s = withPlayer(this.s, player.id);
      this.client.start();
    } catch (e) {
      toastError(e);
    } finally {
      this.renewing = false;
      this.showBanner();
    }
  }

  /**
   * onMoveSettled forgets a pending move (acked, refused or overtaken); a refusal's error
   * message follows through onMessage.
   * @param {{id: string}} res
   */
  onMoveSettled(res) {
    this.pending.delete(res.id);
    this.render();
  }

  /** @param {ServerMessage} msg */
  onMessage(msg) {
    this.trace.record(msg);
    const before = this.s;
    this.s = receive(before, msg, now());
    switch (msg.type) {
      case 'welcome':
        if (this.pendingSit && !isPlayer(this.s.role)) this.send({ type: 'sit', color: this.pendingSit });
        this.pendingSit = null;
        break;
      case 'snapshot':
        this.board.setSize(this.s.game.size);
        // Chat history that came with the page is not news.
        if (!before.loaded) this.chat.historySeen(this.s.game.messages);
        this.joinIfAsked();
        break;
      case 'event':
        this.onEvent(msg.event, before);
        break;
      case 'error':
        if (msg.code === 'unauthorized' && this.conn === 'closed' && !this.renewed) {
          this.renewIdentity();
          break;
        }
        // stale_ply: the position moved on under a move; the events bring the page up to date.
        if (!this.s.notFound && msg.code !== 'stale_ply') toastError(msg);
        break;
      case 'hint':
        toast(t('hint.text', { point: msg.point, score: formatScore(msg.score, 0) }), 'success');
        break;
      default:
        break;
    }
    this.render();
  }

  /**
   * onEvent keeps the board and the replay in step with an event and announces it.
   * @param {RoomEvent} ev
   * @param {Session} before the session before the event
   */
  onEvent(ev, before) {
    if (ev.kind === 'created') this.board.setSize(this.s.game.size);
    if (ev.kind === 'rematch') this.stopAutoplay();
    announce(ev, this.s, (text) => this.board.say(text));
    if (before.viewPly !== null && this.s.viewPly === null) this.stopAutoplay();
  }

  // ---- page -> server ----

  /**
   * send sends a command, toasting okMsg when it went out; it returns whether it did.
   * @param {ClientMessage} cmd
   * @param {string} [okMsg]
   */
  send(cmd, okMsg) {
    try {
      this.client.send(cmd);
      if (okMsg) toast(okMsg);
      return true;
    } catch (e) {
      toastError(e);
      return false;
    }
  }

  /**
   * play places a stone at (x, y) if the viewer may; a forbidden point shown on the board
   * is refused here with the server's reason.
   * @param {number} x
   * @param {number} y
   */
  play(x, y) {
    const g = this.s.game;
    if (this.s.viewPly !== null || !canPlay(g, this.s.role) || this.pending.size) return;
    // The stone's colour: during an opening a player places stones of both colours.
    const stone = stoneColor(g);
    if (this.prefs.forbidden) {
      const f = g.forbidden.find((p) => p.x === x && p.y === y);
      if (f && stone === 'black') { toast(forbiddenText(f.kind), 'error'); return; }
    }
    const point = toNotation(x, y);
    const id = this.client.move(g.moves.length, point);
    this.pending.set(id, { x, y, color: stone, point });
    this.s = { ...this.s, hint: null };
    sound.play('stone');
    this.render();
  }

  /**
   * sit takes the seat of colour c, registering a player first when the viewer has none.
   * @param {Color} c
   */
  async sit(c) {
    try {
      const p = await api.ensurePlayer(this.ctx.playerName());
      this.s = withPlayer(this.s, p.id);
      if (this.client.token !== p.token) {
        this.client.token = p.token;
        this.pendingSit = c;
        this.client.reconnectNow();
        return;
      }
      this.client.send({ type: 'sit', color: c });
    } catch (e) {
      toastError(e);
    }
  }

  /**
   * chatAs gives an anonymous spectator a name to chat with: it registers (the name also
   * goes to the top bar) and reconnects with the new identity.
   * @param {string} name
   */
  async chatAs(name) {
    const field = /** @type {HTMLInputElement | null} */ (document.getElementById('player-name'));
    if (name && field) {
      field.value = name;
      store.put('name', name);
    }
    try {
      const p = await api.ensurePlayer(this.ctx.playerName());
      this.s = withPlayer(this.s, p.id);
      if (this.client.token !== p.token) {
        this.client.token = p.token;
        this.client.reconnectNow();
      }
      this.render();
    } catch (e) {
      toastError(e);
    }
  }

  /** joinIfAsked takes the open seat once, when the page was opened by the lobby's "Join". */
  joinIfAsked() {
    if (!this.joinOnOpen) return;
    this.joinOnOpen = false;
    const open = openSeats(this.s.game);
    if (this.s.game.phase === 'waiting' && !isPlayer(this.s.role) && open.length) this.sit(open[0]);
  }

  /**
   * onKey steps through the game with ←/→ and jumps with Home/End, unless a field or the
   * board (whose arrows move its cursor) has the focus.
   * @param {KeyboardEvent} e
   */
  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    const el = /** @type {Element | null} */ (e.target instanceof Element ? e.target : null);
    if (el && el.closest('input, textarea, select, [contenteditable], svg.board, dialog[open]')) return;
    const total = this.s.game.moves.length;
    const n = shownPly(this.s);
    const to = { ArrowLeft: n - 1, ArrowRight: n + 1, Home: 0, End: total }[e.key];
    if (to === undefined || total === 0) return;
    e.preventDefault();
    this.stopAutoplay();
    this.go(to);
  }

  /**
   * setPref changes and stores a display preference.
   * @param {keyof BoardPrefs} pref
   * @param {boolean} v
   */
  setPref(pref, v) {
    this.prefs = { ...this.prefs, [pref]: v };
    store.put(pref, v);
    this.render();
  }

  // ---- replay ----

  /** @param {number} n */
  go(n) {
    this.s = seek(this.s, n);
    if (shownPly(this.s) === this.s.game.moves.length) this.stopAutoplay();
    this.render();
  }

  stopAutoplay() {
    if (this.autoplay) clearInterval(this.autoplay);
    this.autoplay = null;
  }

  toggleAutoplay() {
    if (this.autoplay) { this.stopAutoplay(); this.render(); return; }
    if (shownPly(this.s) >= this.s.game.moves.length) this.s = { ...this.s, viewPly: 0 };
    this.autoplay = setInterval(() => {
      const n = shownPly(this.s) + 1;
      if (n > this.s.game.moves.length) { this.stopAutoplay(); this.render(); return; }
      this.s = { ...this.s, viewPly: n };
      sound.play('stone');
      this.render();
    }, REPLAY_STEP_MS);
    this.render();
  }

  // ---- rendering ----

  render() {
    if (this.closed) return;
    const s = this.s;
    if (s.notFound) { this.showNotFound(); return; }
    const g = s.game;
    const role = s.role;
    const live = s.viewPly === null;
    const n = shownPly(s);
    const open = this.conn === 'open';
    const st = status(g, role, { pending: this.pending.size > 0, connection: open ? 'open' : s.loaded ? this.conn : 'connecting', attempt: this.attempt });
    this.status.render(st);
    const unsent = !open;
    this.analysis.sync(g);
    const model = boardModel(s, this.prefs, [...this.pending.values()].map((p) => ({ ...p, unsent })));
    if (g.phase === 'over') Object.assign(model, this.analysis.boardOverlay(n, g.size));
    this.board.render(model);
    this.analysis.render(g.phase === 'over', n);
    this.players.render(playerCards(s, { conn: this.conn, watchOnly: this.watchOnly, frozen: this.frozen, levelRatings: this.levelRatings(g) }, now()));
    this.offers.render(offersFor(g, role));
    this.opening.render(live ? choicesFor(g, role) : [], statusText(st), open);
    this.actions.render(actionsFor(g, role), open);
    const ai = currentAI(s);
    this.ai.render({
      visible: !!aiSeat(g) && g.phase !== 'over', info: ai, elapsed: ai ? aiElapsed(ai, s.aiAt, performance.now()) : 0,
      show: this.prefs.showAI, pv: pvShown(s, this.prefs), pvSwitch: pvSwitch(s), pvOn: this.prefs.pvVsAI,
    });
    this.moves.render(g.moves, n, live);
    this.chat.render(s, this.tabs);
    this.replay.render(g.phase === 'over' || !live, n, g.moves.length, !!this.autoplay);
    this.tools.render(this.prefs, g.rule === 'renju');
    this.links.render({
      inviting: openSeats(g).length > 0 && g.phase === 'waiting', hasMoves: g.moves.length > 0,
      rule: g.rule, size: g.size, time: g.time, gameNo: g.gameNo, spectators: s.spectators,
    });
    this.tick();
    document.title = `${statusText(st)} · ${t('app.title')}`;
  }

  /**
   * levelRatings returns the AI levels' published ratings, fetched (once, then drawn
   * again) when a seat is an AI level.
   * @param {{seats: {black: import('./state.js').Seat | null, white: import('./state.js').Seat | null}}} g
   * @returns {Record<string, number>}
   */
  levelRatings(g) {
    if (this.levels) return this.levels;
    if (![g.seats.black, g.seats.white].some((x) => x && x.kind === 'ai' && x.level)) return {};
    /** @type {Record<string, number>} */
    const got = {};
    this.levels = got;
    api.levelRatings().then((res) => {
      Object.assign(got, res);
      if (!this.closed) this.render();
    }, () => {});
    return this.levels;
  }

  /** tick refreshes the clocks, countdowns and the AI bar. */
  tick() {
    const mono = performance.now();
    const wall = Date.now();
    this.showBanner();
    if (!this.frozen) for (const c of COLORS) this.players.tick(c, clockLeft(this.s, c, mono), seatPresence(this.s, c, wall), firstMoveLeft(this.s, c, wall));
    const ai = this.s.ai;
    if (ai) this.ai.tick(ai, aiElapsed(ai, this.s.aiAt, mono));
  }

  /** showNotFound replaces the page: the room does not exist (or no longer: a restart). */
  showNotFound() {
    this.closed = true; // client.stop() below re-enters render() through onState
    banner(null);
    fatalPage(this.main, 'game.gone', 'game.gone.text');
    this.stop();
  }

  /** stop ends the page: timers, listeners, the connection. */
  stop() {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.stopAutoplay();
    this.analysis.stop();
    this.offLang();
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('gomoku:renamed', this.onRenamed);
    document.removeEventListener('keydown', this.onKeyDown);
    this.client.stop();
  }
}

/**
 * renderGame draws the game page for room id into main; returns a teardown function.
 * @param {HTMLElement} main
 * @param {string} roomId
 * @param {{playerName: () => string, navigate: (path: string) => void}} ctx
 */
export function renderGame(main, roomId, ctx) {
  const page = new GameController(main, roomId, ctx);
  exposeForTests(page);
  return () => {
    if (!page.closed) page.stop();
    page.closed = true;
    banner(null);
  };
}
