// game.js: the game page controller: connection, state, clocks, presence, AI panel, replay.
import { h, fill, applyI18n, toast, banner, copyText } from './dom.js';
import { t, onLang } from './i18n.js';
import * as store from './store.js';
import * as api from './api.js';
import * as sound from './sound.js';
import { RoomConnection } from './conn.js';
import { wsURL } from './protocol.js';
import { BoardView } from './board.js';
import { parseNotation, toNotation } from './geometry.js';
import { forbiddenPoints } from './rules.js';
import { makeClock, remaining, formatClock, formatTimeControl } from './clock.js';
import {
  emptyGame, fromSnapshot, applyEvent, turn, status, canPlay, winLine, boardAt, stonesAt, isPlayer,
  aiSeat, other, COLORS, openSeats,
} from './state.js';
import { playerCard, offerBox, aiPanel, moveList, chatLog, replayBar, formatScore, seatName } from './gameui.js';

/** errorText turns a server error into a sentence in the current language. */
export function errorText(code, message) {
  if (code === 'forbidden') {
    const why = /double_three|double_four|overline/.exec(message || '');
    return t('error.forbidden', { why: why ? t(`forbidden.${why[0]}`) : (message || '') });
  }
  const k = `error.${code}`;
  const s = t(k);
  return s === k ? t('error.generic', { message: message || code }) : s;
}

/** renderGame draws the game page for room id into main; returns a teardown function. */
export function renderGame(main, roomId, ctx) {
  const watchOnly = new URLSearchParams(location.search).has('watch');
  let g = emptyGame(roomId);
  let role = 'spectator';
  let conn = 'connecting';
  let attempt = 0;
  let loaded = false;
  let fatal = null;
  let fatalShown = false;
  let ticker = null;
  let clocks = { black: makeClock(null), white: makeClock(null) };
  let presence = null;
  let presenceAt = 0;
  let serverOffset = 0; // local Date.now() - server time
  let ai = null;
  let aiAt = 0;
  let aiCount = 0;
  const trace = []; // last non-AI messages, for the browser tests' failure reports
  let hint = null;
  let viewPly = null; // null: live position
  let autoplay = null;
  let pendingSit = null;
  let myId = (store.player() || {}).id || '';
  const pending = new Map(); // id -> {x, y, color, point}
  let tab = 'moves';
  let resignArmed = false;
  let forbCache = { key: '', pts: [] };
  const prefs = {
    numbers: store.get('numbers', false), forbidden: store.get('forbidden', true),
    showAI: store.get('showAI', true), showPV: store.get('showPV', true),
  };

  const board = new BoardView({ size: 15, onPlay: (x, y) => play(x, y) });
  const statusEl = h('div.status', { id: 'status', role: 'status', 'aria-live': 'polite' });
  const toolsEl = h('div.board-tools');
  const replayEl = h('div', { id: 'replay' });
  const playersEl = h('div.players');
  const offersEl = h('div', { id: 'offers', style: 'display:flex;flex-direction:column;gap:8px' });
  const actionsEl = h('div.actions', { id: 'actions' });
  const linksEl = h('div.links');
  const aiEl = h('div', { id: 'ai' });
  const infoEl = h('div.info-row', { id: 'info' });
  const movesPanel = h('div.tabpanel', { id: 'panel-moves', role: 'tabpanel' });
  const chatInput = h('input.text-input', { type: 'text', id: 'chat-input', maxlength: '300', 'data-i18n-placeholder': 'chat.placeholder', placeholder: t('chat.placeholder'), 'aria-label': t('panel.chat') });
  const chatLogEl = h('div');
  const chatForm = h('form.chat-form', { onsubmit: (e) => { e.preventDefault(); sendChat(); } },
    chatInput, h('button.btn.btn-sm', { type: 'submit', 'data-i18n': 'chat.send' }, t('chat.send')));
  const chatPanel = h('div.tabpanel', { id: 'panel-chat', role: 'tabpanel', hidden: true }, chatLogEl, chatForm);
  const tabBtn = (id, key) => h('button', { type: 'button', role: 'tab', id: `tab-${id}`, 'aria-controls': `panel-${id}`, onclick: () => { tab = id; renderTabs(); } }, t(key));
  const tabsEl = h('div.tabs', { role: 'tablist' }, tabBtn('moves', 'panel.moves'), tabBtn('chat', 'panel.chat'));

  main.replaceChildren(h('div.game', null,
    h('div.board-col', null, statusEl, board.el, replayEl, toolsEl),
    h('aside.side', { 'aria-label': t('app.title') }, playersEl, offersEl, actionsEl, aiEl, h('section.card', null, tabsEl, movesPanel, chatPanel), linksEl, infoEl)));

  // --- connection ---
  const player = store.player();
  const client = new RoomConnection({
    url: wsURL(location, roomId), token: player ? player.token : '',
    onMessage, onState, onMoveSettled,
  });
  client.start();

  function onState(st) {
    conn = st.state;
    attempt = st.attempt;
    if (conn === 'reconnecting') banner(t('status.reconnecting', { n: Math.max(1, attempt) }), 'warn');
    else if (conn === 'open') banner(null);
    render();
  }

  function onMoveSettled(res) {
    pending.delete(res.id);
    if (!res.ok && res.error && res.error !== 'stale_ply') toast(errorText(res.error, ''), 'error');
    render();
  }

  function onMessage(msg) {
    if (msg.type !== 'ai' && msg.type !== 'pong') {
      trace.push(`${msg.type}${msg.event ? `:${msg.event.kind}` : ''}${msg.seq ? `#${msg.seq}` : ''}${msg.code ? `:${msg.code}` : ''}`);
      if (trace.length > 60) trace.shift();
    }
    switch (msg.type) {
      case 'welcome':
        role = (msg.you && msg.you.role) || 'spectator';
        if (msg.you && msg.you.player_id) myId = msg.you.player_id;
        if (pendingSit && !isPlayer(role)) {
          try { client.send({ type: 'sit', color: pendingSit }); } catch (e) { toast(errorText(e.code, e.message), 'error'); }
        }
        pendingSit = null;
        break;
      case 'snapshot':
        g = fromSnapshot(msg.room, msg.seq);
        loaded = true;
        if (msg.room.clock && msg.room.clock.at) serverOffset = Date.now() - msg.room.clock.at;
        if (msg.room.presence) { presence = msg.room.presence; presenceAt = Date.now(); g.spectators = presence.spectators || g.spectators; }
        board.setSize(g.size);
        resetClocks(msg.room.clock);
        break;
      case 'event':
        onEvent(msg.event, msg.seq);
        break;
      case 'error':
        if (msg.code === 'no_such_room' && !loaded) fatal = t('game.notFound');
        else if (!msg.id || !pending.has(msg.id)) toast(errorText(msg.code, msg.message), 'error');
        break;
      case 'ai':
        aiCount++;
        ai = msg;
        aiAt = performance.now();
        break;
      case 'presence':
        presence = msg;
        presenceAt = Date.now();
        g = { ...g, spectators: msg.spectators ?? g.spectators };
        break;
      case 'hint':
        hint = msg;
        toast(t('hint.text', { point: msg.point, score: formatScore(msg.score, 0) }), 'success');
        break;
      default:
        break;
    }
    render();
  }

  function onEvent(ev, seq) {
    const before = g;
    g = applyEvent(g, ev, seq);
    loaded = true;
    if (ev.at) serverOffset = Date.now() - ev.at;
    switch (ev.kind) {
      case 'created':
        board.setSize(g.size);
        break;
      case 'move':
        ai = null;
        hint = null;
        if (ev.color !== role) sound.play('stone');
        board.say(t('board.played', { color: t(`color.${ev.color}`), point: ev.point }));
        if (viewPly === before.moves.length) viewPly = null;
        break;
      case 'takeback':
        ai = null;
        hint = null;
        break;
      case 'game_over':
        ai = null;
        sound.play(isPlayer(role) && g.result.result !== role && g.result.result !== 'draw' ? 'alert' : 'win');
        break;
      case 'rematch':
        viewPly = null;
        stopAutoplay();
        break;
      case 'draw_offered': case 'takeback_requested': case 'rematch_offered':
        if (isPlayer(role) && ev.color !== role) sound.play('alert');
        break;
      case 'draw_declined':
        if (isPlayer(role) && ev.color !== role) toast(t('offer.drawDeclined'));
        break;
      case 'takeback_declined':
        if (isPlayer(role) && ev.color !== role) toast(t('offer.takebackDeclined'));
        break;
      default:
        break;
    }
    const changed = ['started', 'move', 'takeback', 'game_over', 'rematch'].includes(ev.kind);
    if (changed) resetClocks(null);
  }

  function resetClocks(snapClock) {
    const now = performance.now();
    const runningColor = g.phase === 'playing' && (!snapClock || snapClock.running) ? turn(g) : null;
    const perMoveOnly = !g.time.base_ms && g.time.per_move_ms;
    for (const c of COLORS) {
      let ms = g.clocks[c];
      if (perMoveOnly) {
        ms = g.time.per_move_ms;
        if (snapClock && snapClock.deadline_ms && c === runningColor) ms = snapClock.deadline_ms - snapClock.at;
      }
      clocks[c] = makeClock(ms, c === runningColor, now);
    }
  }

  // --- actions ---
  function send(cmd, okMsg) {
    try {
      client.send(cmd);
      if (okMsg) toast(okMsg);
    } catch (e) {
      toast(errorText(e.code, e.message), 'error');
    }
  }

  function play(x, y) {
    if (viewPly !== null || !canPlay(g, role) || pending.size) return;
    const point = toNotation(x, y);
    if (g.rule === 'renju' && role === 'black' && prefs.forbidden) {
      const f = currentForbidden().find((p) => p.x === x && p.y === y);
      if (f) { toast(t('error.forbidden', { why: t(`forbidden.${f.reason}`) }), 'error'); return; }
    }
    const id = client.move(g.moves.length, point);
    pending.set(id, { x, y, color: role, point });
    hint = null;
    sound.play('stone');
    render();
  }

  async function sit(color) {
    try {
      const p = await api.ensurePlayer(ctx.playerName());
      myId = p.id;
      if (client.token !== p.token) {
        client.token = p.token;
        pendingSit = color;
        client.reconnectNow();
        return;
      }
      client.send({ type: 'sit', color });
    } catch (e) {
      toast(errorText(e.code, e.message), 'error');
    }
  }

  function sendChat() {
    const text = chatInput.value.trim();
    if (!text) return;
    try {
      client.send({ type: 'chat', text });
      chatInput.value = '';
    } catch (e) {
      toast(errorText(e.code, e.message), 'error');
    }
  }

  function go(n) {
    const total = g.moves.length;
    const v = Math.max(0, Math.min(total, n));
    viewPly = v === total && g.phase !== 'finished' ? null : v;
    if (v === total) stopAutoplay();
    render();
  }

  function stopAutoplay() {
    if (autoplay) clearInterval(autoplay);
    autoplay = null;
  }

  function toggleAutoplay() {
    if (autoplay) { stopAutoplay(); render(); return; }
    if ((viewPly ?? g.moves.length) >= g.moves.length) viewPly = 0;
    autoplay = setInterval(() => {
      const n = (viewPly ?? g.moves.length) + 1;
      if (n > g.moves.length) { stopAutoplay(); render(); return; }
      viewPly = n;
      sound.play('stone');
      render();
    }, 900);
    render();
  }

  // --- derived ---
  function currentForbidden() {
    if (g.rule !== 'renju' || turn(g) !== 'black' || g.phase !== 'playing') return [];
    const key = g.moves.map((m) => m.point).join(',');
    if (forbCache.key !== key) forbCache = { key, pts: forbiddenPoints(boardAt(g)) };
    return forbCache.pts;
  }

  function seatPresence(c) {
    if (!presence || !presence[c]) return null;
    const p = presence[c];
    let remainingMs = 0;
    if (!p.connected && p.grace_ms) {
      const serverNow = Date.now() - serverOffset;
      const elapsed = p.since > 1e11 ? serverNow - p.since : p.since + (Date.now() - presenceAt);
      remainingMs = Math.max(0, p.grace_ms - elapsed);
    }
    return { connected: !!p.connected, remainingMs, claimable: !!p.claimable };
  }

  // The seat holding my player id is my role (a sit, a rematch swap, a reload).
  function syncRole() {
    if (!myId) return;
    const mine = COLORS.find((c) => g.seats[c] && g.seats[c].player_id === myId);
    if (mine) role = mine;
    else if (isPlayer(role) && (!g.seats[role] || (g.seats[role].player_id && g.seats[role].player_id !== myId))) role = 'spectator';
  }

  // --- rendering ---
  function render() {
    syncRole();
    if (fatal) {
      if (!fatalShown) {
        fatalShown = true; // client.stop() below re-enters render() through onState
        main.replaceChildren(h('section.card', { style: 'padding:24px;text-align:center' }, h('h2', { id: 'fatal' }, fatal), h('a.btn.btn-primary', { href: '/' }, t('action.lobby'))));
        clearInterval(ticker);
        client.stop();
      }
      return;
    }
    const live = viewPly === null;
    const n = live ? g.moves.length : viewPly;
    const st = status(g, role, { pending: pending.size > 0, connection: conn === 'open' ? 'open' : loaded ? conn : 'connecting', attempt });
    renderStatus(st);
    const mine = live && canPlay(g, role) && !pending.size;
    const aiThinkingForThis = ai && (ai.ply == null || ai.ply === g.moves.length);
    const pv = live && prefs.showAI && prefs.showPV && aiThinkingForThis && ai.pv
      ? ai.pv.map((p, i) => ({ ...parseNotation(p, g.size), color: i % 2 === 0 ? ai.color : other(ai.color), n: i + 1 })).filter((p) => p.x != null).slice(0, 10)
      : [];
    const lm = n > 0 ? g.moves[n - 1] : null;
    const hintPt = live && hint ? parseNotation(hint.point, g.size) : null;
    board.render({
      stones: stonesAt(g, n),
      last: lm && lm.x >= 0 ? { x: lm.x, y: lm.y } : null,
      win: live || n === g.moves.length ? winLine(g) : [],
      numbers: prefs.numbers,
      forbidden: live && prefs.forbidden && (role === 'black' || !isPlayer(role)) ? currentForbidden() : [],
      pending: live ? [...pending.values()] : [],
      pv,
      hint: hintPt,
      preview: mine ? role : null,
    });
    renderPlayers();
    renderOffers();
    renderActions();
    renderAI();
    movesPanel.replaceChildren(g.moves.length ? moveList(g.moves, n, (k) => go(k)) : h('p.muted', '—'));
    const ml = movesPanel.querySelector('.movelist');
    if (ml && live) ml.scrollTop = ml.scrollHeight;
    chatLogEl.replaceChildren(g.chatAllowed ? chatLog(g.messages) : h('p.muted', t('chat.disabled')));
    chatForm.hidden = !g.chatAllowed;
    const cl = chatLogEl.querySelector('.chat-log');
    if (cl) cl.scrollTop = cl.scrollHeight;
    renderTabs();
    fill(replayEl, g.phase === 'finished' || !live ? replayBar(n, g.moves.length, !!autoplay, { go, toggle: toggleAutoplay }) : null);
    renderTools();
    renderLinks();
    tick();
    document.title = `${t(st.key, tParams(st))} · ${t('app.title')}`;
  }

  function tParams(st) {
    return st.colorParam ? { ...st.params, [st.colorParam]: t(`color.${st.params[st.colorParam]}`) } : st.params;
  }

  function renderStatus(st) {
    statusEl.className = `status tone-${st.tone}`;
    fill(statusEl, h('span', { id: 'status-text' }, t(st.key, tParams(st))), st.why ? h('span.why', `· ${t(st.why)}`) : null);
  }

  function renderPlayers() {
    const cards = [];
    const order = role === 'black' ? ['white', 'black'] : ['black', 'white'];
    const running = g.phase === 'playing' ? turn(g) : null;
    for (const c of order) {
      const pr = seatPresence(c);
      cards.push(playerCard({
        color: c, seat: g.seats[c], you: role === c, toMove: running === c,
        clockMs: remaining(clocks[c], performance.now()), baseMs: g.time.base_ms,
        presence: g.seats[c] && g.seats[c].kind === 'human' ? pr : null,
        showAbandon: g.phase === 'playing',
        canClaim: isPlayer(role) && role !== c && g.phase === 'playing',
        onClaim: () => send({ type: 'claim_victory' }),
        canSit: !watchOnly && !isPlayer(role) && !g.seats[c] && g.phase === 'waiting' && conn === 'open',
        onSit: () => sit(c),
      }));
    }
    playersEl.replaceChildren(...cards);
  }

  function renderOffers() {
    const items = [];
    const opp = isPlayer(role) ? other(role) : null;
    const o = g.offers;
    if (o.draw && g.phase === 'playing') {
      items.push(opp && o.draw === opp
        ? offerBox(t('offer.draw', { color: t(`color.${o.draw}`) }), () => send({ type: 'draw_accept' }), () => send({ type: 'draw_decline' }), 'offer-draw')
        : h('div.card.offer', t('offer.draw', { color: t(`color.${o.draw}`) })));
    }
    if (o.takeback && g.phase === 'playing') {
      items.push(opp && o.takeback === opp
        ? offerBox(t('offer.takeback', { color: t(`color.${o.takeback}`) }), () => send({ type: 'takeback_accept' }), () => send({ type: 'takeback_decline' }), 'offer-takeback')
        : h('div.card.offer', t('offer.takeback', { color: t(`color.${o.takeback}`) })));
    }
    if (o.rematch && g.phase === 'finished') {
      items.push(opp && o.rematch === opp
        ? offerBox(t('offer.rematch', { color: t(`color.${o.rematch}`) }), () => send({ type: 'rematch' }), null, 'offer-rematch')
        : h('div.card.offer', t('offer.rematch', { color: t(`color.${o.rematch}`) })));
    }
    offersEl.replaceChildren(...items);
    offersEl.hidden = items.length === 0;
  }

  function renderActions() {
    const btns = [];
    const b = (key, id, fn, opts = {}) => h('button.btn', { type: 'button', id, onclick: fn, disabled: !!opts.disabled || conn !== 'open', class: opts.cls || '' }, t(key));
    if (isPlayer(role)) {
      const opp = other(role);
      if (g.phase === 'playing') {
        const vsMachine = aiSeat(g);
        if (g.moves.length < 2) btns.push(b('action.abort', 'btn-abort', () => send({ type: 'abort' })));
        const rb = b(resignArmed ? 'action.resign.confirm' : 'action.resign', 'btn-resign', () => {
          if (!resignArmed) {
            resignArmed = true;
            setTimeout(() => { resignArmed = false; render(); }, 4000);
            render();
            document.getElementById('btn-resign')?.focus();
            return;
          }
          resignArmed = false;
          send({ type: 'resign' });
        }, { cls: 'btn-danger' });
        btns.push(rb);
        if (!vsMachine) btns.push(b('action.draw', 'btn-draw', () => send({ type: 'draw_offer' }, t('offer.sent')), { disabled: g.offers.draw === role }));
        if (g.takebacks) btns.push(b('action.takeback', 'btn-takeback', () => send({ type: 'takeback_request' }, vsMachine ? '' : t('offer.sent')), { disabled: g.offers.takeback === role || g.moves.length === 0 }));
        if (vsMachine && g.hints !== false) btns.push(b('action.hint', 'btn-hint', () => send({ type: 'hint' }), { disabled: turn(g) !== role }));
      } else if (g.phase === 'finished' && g.seats[opp]) {
        btns.push(b('action.rematch', 'btn-rematch', () => send({ type: 'rematch' }, t('offer.sent')), { disabled: g.offers.rematch === role, cls: 'btn-primary' }));
      } else if (g.phase === 'waiting') {
        btns.push(b('action.abort', 'btn-abort', () => send({ type: 'abort' })));
      }
    }
    actionsEl.replaceChildren(...btns);
    actionsEl.hidden = btns.length === 0;
  }

  function renderAI() {
    if (!aiSeat(g) || g.phase === 'finished') { aiEl.replaceChildren(); return; }
    const info = ai && (ai.ply == null || ai.ply === g.moves.length) && g.phase === 'playing' ? ai : null;
    const elapsed = info ? (info.elapsed_ms || 0) + (info.status === 'thinking' ? performance.now() - aiAt : 0) : 0;
    aiEl.replaceChildren(aiPanel(info, elapsed, {
      show: prefs.showAI, pv: prefs.showPV,
      onShow: (v) => { prefs.showAI = v; store.put('showAI', v); render(); },
      onPV: (v) => { prefs.showPV = v; store.put('showPV', v); render(); },
    }));
  }

  function renderTabs() {
    for (const [id, panel] of [['moves', movesPanel], ['chat', chatPanel]]) {
      panel.hidden = tab !== id;
      tabsEl.querySelector(`#tab-${id}`).setAttribute('aria-selected', String(tab === id));
    }
  }

  function renderTools() {
    const toggle = (key, pref, id) => h('label.check', null, h('input', { type: 'checkbox', id, checked: prefs[pref], onchange: (e) => { prefs[pref] = e.target.checked; store.put(pref, e.target.checked); render(); } }), t(key));
    fill(toolsEl, toggle('action.numbers', 'numbers', 'opt-numbers'), g.rule === 'renju' ? toggle('action.forbidden', 'forbidden', 'opt-forbidden') : null);
  }

  function renderLinks() {
    const base = `${location.origin}/r/${encodeURIComponent(roomId)}`;
    const copy = (key, url, id) => h('button.btn.btn-sm', { type: 'button', id, onclick: async () => toast(await copyText(url) ? t('action.copied') : url, 'success') }, t(key));
    const links = [];
    if (openSeats(g).length && g.phase === 'waiting') links.push(copy('action.copyInvite', base, 'copy-invite'));
    links.push(copy('action.copySpectate', `${base}?watch=1`, 'copy-spectate'));
    if (g.moves.length) {
      links.push(h('a.btn.btn-sm', { href: api.recordURL(roomId, 'sgf'), download: `gomoku-${roomId}.sgf`, id: 'dl-sgf' }, `${t('replay.download')} SGF`));
      links.push(h('a.btn.btn-sm', { href: api.recordURL(roomId, 'psq'), download: `gomoku-${roomId}.psq`, id: 'dl-psq' }, 'PSQ'));
    }
    linksEl.replaceChildren(...links);
    fill(infoEl,
      h('span', `${t('game.rule')}: ${t(`rule.${g.rule}`)}`),
      h('span', `${t('game.size')}: ${g.size}×${g.size}`),
      h('span', `${t('game.time')}: ${formatTimeControl(g.time)}`),
      g.gameNo > 1 ? h('span', t('game.number', { n: g.gameNo })) : null,
      h('span', { id: 'spectators' }, `👁 ${t('spectators', { n: g.spectators || 0 })}`));
  }

  // Clocks, countdowns and the AI bar tick locally between server messages.
  function tick() {
    const now = performance.now();
    for (const c of COLORS) {
      const el = playersEl.querySelector(`[data-clock="${c}"]`);
      if (el) el.textContent = formatClock(remaining(clocks[c], now));
      const cd = playersEl.querySelector(`[data-countdown="${c}"]`);
      const pr = seatPresence(c);
      if (cd && pr) {
        cd.textContent = pr.remainingMs > 0 ? t('conn.abandon', { time: formatClock(pr.remainingMs) }) : '';
        const btn = playersEl.querySelector('#claim-btn');
        if (btn) btn.disabled = pr.remainingMs > 0 && !pr.claimable;
      }
    }
    const bar = aiEl.querySelector('#ai-progress');
    if (bar && ai && ai.status === 'thinking' && ai.budget_ms) {
      const el = Math.min(ai.budget_ms, (ai.elapsed_ms || 0) + now - aiAt);
      bar.style.width = `${((el / ai.budget_ms) * 100).toFixed(1)}%`;
    }
  }
  ticker = setInterval(tick, 100);

  const offLang = onLang(() => { board.relabel(); applyI18n(main); tabsEl.querySelector('#tab-moves').textContent = t('panel.moves'); tabsEl.querySelector('#tab-chat').textContent = t('panel.chat'); render(); });
  const onOnline = () => { if (conn !== 'open') client.reconnectNow(); };
  window.addEventListener('online', onOnline);
  render();

  // Hook for the browser tests: a read-only view of the state, and drop() to cut the socket.
  window.__gomoku = { get game() { return g; }, get role() { return role; }, get conn() { return conn; }, get aiMessages() { return aiCount; }, get trace() { return trace.slice(); }, seatName,
    /** drop closes the socket as a network failure would (browser tests of reconnection). */
    drop() { if (client.ws) client.ws.close(); } };

  return () => {
    clearInterval(ticker);
    stopAutoplay();
    offLang();
    window.removeEventListener('online', onOnline);
    client.stop();
    banner(null);
  };
}
