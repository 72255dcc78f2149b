// @ts-check
// lobby.js: lobby page (live, open, finished games) and the create-game dialog.
import { h, s, applyI18n } from './dom.js';
import { t, tn, onLang, levelName } from './i18n.js';
import * as api from './api.js';
import * as store from './store.js';
import { fromSummary } from './lobbymodel.js';
import { formatTimeControl } from './clock.js';
import { mountPairing } from './pairing.js';
import { seatRating, levelLabel } from './rating.js';

const POLL_MS = 5000;
const FALLBACK_LEVELS = ['beginner', 'novice', 'intermediate', 'advanced', 'expert', 'master'];
const TIME_PRESETS = [
  { id: '1+0', base_ms: 60000, increment_ms: 0 },
  { id: '3+2', base_ms: 180000, increment_ms: 2000 },
  { id: '5+5', base_ms: 300000, increment_ms: 5000 },
  { id: '10+5', base_ms: 600000, increment_ms: 5000 },
  { id: '15+10', base_ms: 900000, increment_ms: 10000 },
  { id: 'none', base_ms: 0, increment_ms: 0 },
];

/** @type {Record<string, number>} the levels' published ratings (GET /api/engines, once known) */
let levelRatings = {};

/** levels returns the AI level names, strongest last (GET /api/engines' published ratings). */
async function levels() {
  try {
    levelRatings = await api.levelRatings();
  } catch {
    return FALLBACK_LEVELS;
  }
  const names = Object.keys(levelRatings).sort((a, b) => levelRatings[a] - levelRatings[b]);
  return names.length ? names : FALLBACK_LEVELS;
}

function miniBoard() {
  const stones = [[3, 3, 'b'], [4, 3, 'w'], [4, 4, 'b'], [5, 5, 'b'], [3, 5, 'w'], [6, 6, 'b'], [2, 6, 'w'], [5, 3, 'w'], [2, 2, 'b']];
  const g = s('svg.hero-board', { viewBox: '0 0 180 180', 'aria-hidden': 'true' },
    s('rect', { x: 0, y: 0, width: 180, height: 180, rx: 10, fill: '#dcaa62' }));
  for (let i = 0; i < 9; i++) {
    const p = 10 + i * 20;
    g.append(s('line', { x1: 10, y1: p, x2: 170, y2: p, stroke: '#5a3d17', 'stroke-width': 1 }));
    g.append(s('line', { x1: p, y1: 10, x2: p, y2: 170, stroke: '#5a3d17', 'stroke-width': 1 }));
  }
  for (const [x, y, c] of /** @type {[number, number, string][]} */ (stones)) {
    g.append(s('circle', { cx: 10 + x * 20, cy: 10 + y * 20, r: 9, fill: c === 'b' ? '#151515' : '#f4f1ea', stroke: c === 'b' ? 'none' : '#999' }));
  }
  return g;
}

/**
 * seatEntry is what a lobby entry shows of a seated player: the name and the rating in
 * the room's pool when the server gives one, or an AI level's published rating. (The
 * entry as a whole is one link to the room, so a name cannot link to its player's page
 * here; the room's player cards do.)
 * @param {import('./state.js').Seat} seat
 * @param {Record<string, number>} [ratings] the AI levels' published ratings
 * @returns {{name: string, rating: string}}
 */
export function seatEntry(seat, ratings = {}) {
  if (seat.kind !== 'human') return { name: seat.level ? t('seat.ai', { level: levelName(seat.level) }) : seat.name, rating: seatRating(seat, ratings) };
  return { name: seat.name, rating: seatRating(seat) };
}

/** @param {import('./state.js').Seat | null} seat */
function seatLabel(seat) {
  if (!seat) return h('span.muted', t('seat.open'));
  const e = seatEntry(seat, levelRatings);
  return h('span', null, e.name,
    e.rating ? h('span.badge.badge-rating', { title: t(seat.kind === 'human' ? 'rating.title' : 'rating.level'), dataset: { kind: seat.kind } }, e.rating) : null);
}

/**
 * resultText describes a finished game's result for the lobby.
 * @param {string} result black | white | draw | aborted
 * @param {string} reason
 */
export function resultText(result, reason) {
  if (result === 'aborted' || reason === 'aborted') return t('status.aborted');
  if (result === 'draw') return t('status.draw');
  const wins = t('status.wins', { color: t(`color.${result}`) });
  return reason ? `${wins} · ${t(`reason.${reason}`)}` : wins;
}

/**
 * movesText says how many moves a game has (singular and plural forms).
 * @param {number} n
 */
export function movesText(n) {
  return tn('lobby.moves', n);
}

function roomItem(r, kind) {
  const action = kind === 'open' ? 'lobby.join' : kind === 'live' ? 'lobby.watch' : 'lobby.replay';
  const meta = [
    h('span', t(`rule.${r.rule}`) || r.rule),
    h('span', `${r.size}×${r.size}`),
    r.opening && r.opening !== 'none' ? h('span.opening', t(`opening.${r.opening}`)) : null,
    r.time ? h('span', formatTimeControl(r.time)) : null,
    h('span', movesText(r.moves)),
    kind === 'finished' && r.result ? h('span', resultText(r.result, r.reason)) : null,
  ];
  const ai = [r.black, r.white].some((x) => x && x.kind !== 'human');
  // "Join" opens the room and takes its open seat in one tap (?join=1, read by the game page).
  const href = `/r/${encodeURIComponent(r.id)}${kind === 'open' ? '?join=1' : ''}`;
  return h('li', null, h('a.room', { href, dataset: { room: r.id } },
    h('span.room-players', h('span.pl', h('i.dot.dot-black'), seatLabel(r.black)), h('span.muted', t('lobby.vs')), h('span.pl', h('i.dot.dot-white'), seatLabel(r.white)),
      ai ? h('span.badge.badge-ai', 'AI') : null),
    h('span.meta', meta),
    h('span.go.btn.btn-sm', { class: kind === 'open' ? 'btn-primary' : '' }, t(action))));
}

/** LOBBY_LINKS are the lobby's links to the other pages: [path, i18n key]. */
const LOBBY_LINKS = [['/learn', 'nav.learn'], ['/analysis', 'nav.analyze'], ['/puzzles', 'nav.puzzles'], ['/leaderboard', 'leaders.title']];

/** renderLobby draws the lobby into main and returns a teardown function. */
export function renderLobby(main, ctx) {
  const cols = {};
  const mk = (kind) => {
    const list = h('ul.room-list', { 'aria-live': 'polite' });
    const count = h('span.count', '0');
    cols[kind] = { list, count, rooms: null, error: null };
    return h('section.card.lobby-col', { 'aria-labelledby': `h-${kind}` },
      h('h2', { id: `h-${kind}` }, h('span', { 'data-i18n': `lobby.${kind}` }, t(`lobby.${kind}`)), count), list);
  };
  main.replaceChildren(
    h('section.hero', null,
      h('div', null,
        h('h1', { 'data-i18n': 'lobby.hero.title' }, t('lobby.hero.title')),
        h('p', { 'data-i18n': 'lobby.hero.text' }, t('lobby.hero.text')),
        h('div.actions', null,
          h('button.btn.btn-primary', { type: 'button', id: 'quick-ai', 'data-i18n': 'lobby.quick.ai', onclick: () => openCreateDialog(ctx, 'ai') }, t('lobby.quick.ai')),
          h('button.btn', { type: 'button', id: 'quick-human', 'data-i18n': 'lobby.quick.human', onclick: () => openCreateDialog(ctx, 'human') }, t('lobby.quick.human')),
          h('button.btn', { type: 'button', id: 'quick-aivai', 'data-i18n': 'lobby.quick.exhibition', onclick: () => openCreateDialog(ctx, 'aivai') }, t('lobby.quick.exhibition'))),
        // The study pages and the leaderboard, on every width (the top bar drops its page links on phones).
        h('nav.hero-links', { 'aria-label': t('lobby.pages'), 'data-i18n-label': 'lobby.pages' },
          LOBBY_LINKS.map(([href, key]) => h('a.btn.btn-sm', { href, 'data-i18n': key }, t(key))))),
      miniBoard()),
    h('div.lobby-grid', null, mk('live'), mk('open'), mk('finished')));

  const draw = () => {
    for (const [kind, c] of Object.entries(cols)) {
      if (c.error) {
        c.list.replaceChildren(h('li.empty', { role: 'alert' }, t('lobby.loadError', { message: c.error })));
        continue;
      }
      if (!c.rooms) { c.list.replaceChildren(h('li.empty', t('misc.loading'))); continue; }
      c.count.textContent = String(c.rooms.length);
      c.list.replaceChildren(...(c.rooms.length ? c.rooms.map((r) => roomItem(r, kind)) : [h('li.empty', t(`lobby.empty.${kind}`))]));
    }
  };
  let alive = true;
  // The open and live lists come from the lobby WebSocket while it is up; the finished
  // list (not pushed) and, while the socket is down, all three are polled.
  let pushed = false;
  const load = async () => {
    const kinds = pushed ? ['finished'] : Object.keys(cols);
    await Promise.all(kinds.map(async (kind) => {
      try {
        const res = await api.listRooms(kind, 20);
        cols[kind].rooms = res.rooms.map(fromSummary);
        cols[kind].error = null;
      } catch (e) {
        cols[kind].error = e.code === 'network' ? t('error.network') : e.message;
      }
    }));
    if (alive) draw();
  };
  const pairing = mountPairing(ctx, {
    onLists: (open, live) => {
      cols.open.rooms = open.map(fromSummary);
      cols.live.rooms = live.map(fromSummary);
      cols.open.error = cols.live.error = null;
      if (alive) draw();
    },
    onUp: (up) => { pushed = up; },
  });
  main.querySelector('.hero').after(pairing.el);
  draw();
  load();
  // The AI seats show their levels' published ratings once known.
  levels().then(() => { if (alive) draw(); });
  const timer = setInterval(() => { if (!document.hidden) load(); }, POLL_MS);
  const off = onLang(() => { applyI18n(main); draw(); pairing.redraw(); });
  document.title = `${t('app.title')} · 五子棋`;
  return () => { alive = false; clearInterval(timer); off(); pairing.stop(); };
}

function seg(name, options, checked) {
  return h('div.seg', { role: 'radiogroup' }, options.map(([value, label]) => h('label', null,
    h('input', { type: 'radio', name, value, checked: value === checked }), h('span', label))));
}

/** AI_PACES are the AI show's choices of time between moves (ai_pace_ms; the server's default is 1 s). */
export const AI_PACES = [1000, 2000, 3000, 5000, 10000];
/** FIRST_MOVE_LIMITS are the choices of time for each side's first move (first_move_ms; default 30 s). */
export const FIRST_MOVE_LIMITS = [15000, 30000, 60000, 120000];

/**
 * createBody builds the POST /api/rooms body from the create dialog's values. A game against
 * the AI says whether the server analyses it when it ends (auto_analysis; the server's
 * default is on, the dialog's box starts as the player last chose).
 * @param {{mode: string, rule: string, size: number, time: string, takebacks: boolean, chat: boolean,
 *   opening: string, color: string, visibility: string, level: string, level_black: string,
 *   level_white: string, pace_ms: number, first_move_ms: number, rated?: boolean, auto_analysis?: boolean}} f
 * @returns {Record<string, any>}
 */
export function createBody(f) {
  const tc = TIME_PRESETS.find((p) => p.id === f.time) || TIME_PRESETS[2];
  /** @type {Record<string, any>} */
  const body = {
    rule: f.rule, size: f.size,
    time: { base_ms: tc.base_ms, increment_ms: tc.increment_ms, per_move_ms: 0 },
    takebacks: f.takebacks, chat: f.chat, opening: f.opening,
  };
  // The first-move limit only means something when the game has a clock.
  if (f.mode !== 'aivai' && tc.base_ms > 0) body.first_move_ms = f.first_move_ms;
  if (f.mode === 'human') Object.assign(body, { me: f.color, opponent: { kind: 'human' }, public: f.visibility === 'public' });
  if (f.mode === 'human' && f.rated) body.rated = true;
  if (f.mode === 'ai') Object.assign(body, { me: f.color, opponent: { kind: 'ai', level: f.level }, public: true, hints: true, auto_analysis: f.auto_analysis !== false });
  if (f.mode === 'aivai') Object.assign(body, { me: 'none', black: { kind: 'ai', level: f.level_black }, white: { kind: 'ai', level: f.level_white }, public: true, ai_pace_ms: f.pace_ms });
  return body;
}

/** secondsText names a duration of whole seconds or minutes ("5 s", "2 min"). */
export function secondsText(ms) {
  return ms % 60000 === 0 ? t('unit.min', { n: ms / 60000 }) : t('unit.s', { n: ms / 1000 });
}

/** openCreateDialog shows the create-game dialog; mode: human | ai | aivai. */
export async function openCreateDialog(ctx, mode = store.get('lastMode', 'ai')) {
  const dlg = /** @type {HTMLDialogElement} */ (document.getElementById('create-dialog'));
  const lv = await levels();
  const prev = store.get('lastCreate', {});
  const levelSelect = (name, value) => h('select', { name, id: `f-${name}` },
    lv.map((l) => h('option', { value: l, selected: l === value }, levelLabel(l, levelRatings))));
  const timeSel = h('select', { name: 'time', id: 'f-time' }, TIME_PRESETS.map((p) => h('option', { value: p.id, selected: p.id === (prev.time || '5+5') }, p.id === 'none' ? t('create.time.none') : p.id)));
  const sizeSel = h('select', { name: 'size', id: 'f-size' }, [15, 16, 17, 18, 19, 20].map((n) => h('option', { value: n, selected: n === (prev.size || 15) }, `${n}×${n}`)));
  const ruleSel = h('select', { name: 'rule', id: 'f-rule' }, ['freestyle', 'standard', 'renju'].map((r) => h('option', { value: r, selected: r === (prev.rule || 'freestyle') }, t(`rule.${r}`))));
  const openingSel = h('select', { name: 'opening', id: 'f-opening', title: t('opening.help') }, ['none', 'swap', 'swap2'].map((o) => h('option', { value: o, selected: o === (prev.opening || 'none') }, t(`opening.${o}`))));
  const paceSel = h('select', { name: 'pace', id: 'f-pace' }, AI_PACES.map((ms) => h('option', { value: ms, selected: ms === (prev.pace_ms || 1000) }, secondsText(ms))));
  const firstSel = h('select', { name: 'first_move', id: 'f-first-move', title: t('create.firstmove.help') }, FIRST_MOVE_LIMITS.map((ms) => h('option', { value: ms, selected: ms === (prev.first_move_ms || 30000) }, secondsText(ms))));
  const err = h('p.form-error', { role: 'alert' });
  const submit = h('button.btn.btn-primary', { type: 'submit', id: 'create-submit' }, t('create.submit'));
  const form = h('form', { method: 'dialog' },
    h('h2', { id: 'create-title' }, t('create.title')),
    h('fieldset.field', null, h('legend', t('create.mode')),
      seg('mode', [['human', t('create.mode.human')], ['ai', t('create.mode.ai')], ['aivai', t('create.mode.aivai')]], mode)),
    h('fieldset.field.only-human', null, h('legend', t('create.visibility')),
      seg('visibility', [['public', t('create.public')], ['private', t('create.private')]], prev.visibility || 'public')),
    h('div.row2.only-ai', null,
      h('label.field', { for: 'f-level' }, h('span.label', t('create.level')), levelSelect('level', prev.level || lv[Math.min(1, lv.length - 1)]))),
    h('label.check.only-ai', { title: t('create.autoAnalysis.help') },
      h('input', { type: 'checkbox', name: 'auto_analysis', id: 'f-auto-analysis', checked: store.get('autoAnalyse', true) }), t('create.autoAnalysis')),
    h('fieldset.field.only-play', null, h('legend', t('create.color')),
      seg('color', [['black', t('create.color.black')], ['white', t('create.color.white')], ['random', t('create.color.random')]], prev.color || 'random')),
    h('div.row2.only-aivai', null,
      h('label.field', { for: 'f-level_black' }, h('span.label', t('create.level.black')), levelSelect('level_black', prev.level_black || lv[lv.length - 1])),
      h('label.field', { for: 'f-level_white' }, h('span.label', t('create.level.white')), levelSelect('level_white', prev.level_white || lv[lv.length - 1]))),
    h('div.row2', null,
      h('label.field', { for: 'f-rule' }, h('span.label', t('create.rule')), ruleSel),
      h('label.field', { for: 'f-size' }, h('span.label', t('create.size')), sizeSel)),
    h('div.row2', null,
      h('label.field', { for: 'f-opening' }, h('span.label', t('create.opening')), openingSel),
      h('p.field.muted.opening-help', t('opening.help'))),
    h('div.row2', null,
      h('label.field.only-play', { for: 'f-first-move' }, h('span.label', t('create.firstmove')), firstSel),
      h('label.field.only-aivai', { for: 'f-pace' }, h('span.label', t('create.pace')), paceSel)),
    h('div.row2', null,
      h('label.field', { for: 'f-time' }, h('span.label', t('create.time')), timeSel),
      h('div.field', null,
        h('label.check', null, h('input', { type: 'checkbox', name: 'takebacks', checked: prev.takebacks ?? true }), t('create.takebacks')),
        h('label.check', null, h('input', { type: 'checkbox', name: 'chat', checked: prev.chat ?? true }), t('create.chat')),
        h('label.check.only-human', { title: t('create.rated.help') }, h('input', { type: 'checkbox', name: 'rated', checked: !!prev.rated }), t('create.rated')))),
    err,
    h('div.buttons', null,
      h('button.btn', { type: 'button', onclick: () => dlg.close() }, t('create.cancel')),
      submit));
  const sync = () => {
    const m = form.elements.mode.value;
    form.querySelectorAll('.only-human').forEach((el) => { el.hidden = m !== 'human'; });
    form.querySelectorAll('.only-ai').forEach((el) => { el.hidden = m !== 'ai'; });
    form.querySelectorAll('.only-aivai').forEach((el) => { el.hidden = m !== 'aivai'; });
    form.querySelectorAll('.only-play').forEach((el) => { el.hidden = m === 'aivai'; });
  };
  form.addEventListener('change', sync);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const m = f.mode.value;
    const body = createBody({
      mode: m, rule: f.rule.value, size: Number(f.size.value), time: f.time.value,
      takebacks: f.takebacks.checked, chat: f.chat.checked, opening: f.opening.value,
      color: f.color.value, visibility: f.visibility.value, level: f.level.value,
      level_black: f.level_black.value, level_white: f.level_white.value,
      pace_ms: Number(f.pace.value), first_move_ms: Number(f.first_move.value), rated: f.rated.checked,
      auto_analysis: f.auto_analysis.checked,
    });
    store.put('lastMode', m);
    if (m === 'ai') store.put('autoAnalyse', f.auto_analysis.checked);
    store.put('lastCreate', {
      rule: body.rule, size: body.size, time: f.time.value, takebacks: body.takebacks, chat: body.chat, opening: body.opening,
      pace_ms: Number(f.pace.value), first_move_ms: Number(f.first_move.value), rated: f.rated.checked,
      visibility: f.visibility.value, color: f.color.value, level: f.level.value, level_black: f.level_black.value, level_white: f.level_white.value,
    });
    submit.disabled = true;
    submit.textContent = t('create.creating');
    err.textContent = '';
    try {
      await api.ensurePlayer(ctx.playerName());
      const res = await api.createRoom(body);
      dlg.close();
      ctx.navigate(`/r/${encodeURIComponent(res.room.id)}`);
    } catch (ex) {
      err.textContent = ex.code && t(`error.${ex.code}`) !== `error.${ex.code}` ? `${t(`error.${ex.code}`)} ${ex.message ? `(${ex.message})` : ''}` : t('error.generic', { message: ex.message });
    } finally {
      submit.disabled = false;
      submit.textContent = t('create.submit');
    }
  });
  dlg.replaceChildren(form);
  sync();
  if (!dlg.open) dlg.showModal();
  const first = form.querySelector('input[name=mode]:checked');
  if (first) first.focus();
}
