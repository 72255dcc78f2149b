// @ts-check
// analyze.js: the analysis board "/analysis": set up a position (alternate moves or
// free placement, a pasted move string, PSQ or SGF, a room's game), branch variations
// and step through them, and watch the engine analyse it live: depth, speed and the
// three best lines, drawn on the board (docs/protocol.md, "Analysis board").
import { h, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { BoardView } from './board.js';
import { parseNotation, MIN_SIZE, MAX_SIZE } from './geometry.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { parseMoves, formatMoves, stonesOf } from './learnmodel.js';
import { newTree, nodeAt, movesAt, play, forward, end, interleave, shareURL, parseEvents, scoreText } from './analyzemodel.js';

/** @typedef {import('./analyzemodel.js').Pt} Pt */
/** @typedef {import('./analyzemodel.js').Line} Line */

/**
 * @param {string | number} value @param {string} label @param {string | number} current
 */
function option(value, label, current) {
  return h('option', { value: String(value), selected: String(value) === String(current) }, label);
}

/**
 * renderAnalyze draws the analysis board into main and returns a teardown function.
 * @param {HTMLElement} main
 */
export function renderAnalyze(main) {
  const q = new URLSearchParams(location.search);
  const st = {
    size: Math.min(MAX_SIZE, Math.max(MIN_SIZE, Number(q.get('size')) || 15)),
    rule: ['freestyle', 'standard', 'renju'].includes(q.get('rule') || '') ? String(q.get('rule')) : 'freestyle',
    mode: 'alternate', // or black / white: free placement
    tree: newTree(),
    /** @type {number[]} */
    path: [],
    live: true,
    /** @type {any} the position answer */
    pos: null,
    /** @type {any} the latest info or done event */
    info: null,
    status: '',
    error: '',
    selected: 0,
  };
  const first = parseMoves(q.get('moves') ?? '', st.size);
  if ('moves' in first) { st.tree = newTree(first.moves); st.path = end(st.tree, []); }

  /** @type {AbortController | null} */
  let stream = null;
  let gen = 0;

  const board = new BoardView({ size: st.size, onPlay: (x, y) => place({ x, y }) });
  const movesInput = /** @type {HTMLInputElement} */ (h('input', { id: 'an-moves', type: 'text', spellcheck: 'false', autocomplete: 'off' }));
  const ruleSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'an-rule' }));
  const sizeSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'an-size' }));
  const modeSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'an-mode' }));
  const liveBox = /** @type {HTMLInputElement} */ (h('input', { id: 'an-live', type: 'checkbox', checked: true }));
  const paste = /** @type {HTMLTextAreaElement} */ (h('textarea', { id: 'an-paste', rows: 3, spellcheck: 'false' }));
  const roomInput = /** @type {HTMLInputElement} */ (h('input', { id: 'an-room', type: 'text', spellcheck: 'false', autocomplete: 'off' }));
  const gameInput = /** @type {HTMLInputElement} */ (h('input', { id: 'an-game', type: 'number', min: '1' }));
  const shareInput = /** @type {HTMLInputElement} */ (h('input', { id: 'an-share', type: 'text', readonly: true }));
  const toMove = h('p.learn-tomove', { 'aria-live': 'polite' });
  const status = h('p.learn-status', { id: 'an-status', role: 'status', 'aria-live': 'polite' });
  const engineBox = h('section.card.an-engine', { 'aria-labelledby': 'an-h-engine' });
  const treeBox = h('section.card.an-treebox', { 'aria-labelledby': 'an-h-tree' });
  const btn = (/** @type {string} */ id, /** @type {() => void} */ fn) => h('button.btn.btn-sm', { id, type: 'button', onclick: fn });
  const buttons = {
    first: btn('an-first', () => go([])),
    back: btn('an-back', () => go(st.path.slice(0, -1))),
    fwd: btn('an-fwd', () => go(forward(st.tree, st.path))),
    last: btn('an-last', () => go(end(st.tree, st.path))),
    clear: btn('an-clear', () => { st.tree = newTree(); go([]); }),
    import: btn('an-import', () => importText(paste.value)),
    room: btn('an-room-load', () => importRoom()),
    share: btn('an-share-copy', () => { shareInput.select(); navigator.clipboard?.writeText(shareInput.value).catch(() => {}); }),
  };
  const title = h('h1');
  const intro = h('p.learn-intro');
  /** @type {Record<string, HTMLElement>} */
  const labels = {};
  const label = (/** @type {string} */ k) => (labels[k] = h('span.label'));

  main.replaceChildren(h('div.learn.analyze',
    h('section.learn-head', title, intro),
    h('div.learn-setup',
      h('div.learn-board', board.el, toMove,
        h('div.learn-row.an-nav', buttons.first, buttons.back, buttons.fwd, buttons.last, buttons.clear)),
      h('div.an-side',
        engineBox,
        h('form.card.learn-form', { onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
          h('label.field', { for: 'an-moves' }, label('moves'), movesInput),
          h('div.learn-row',
            h('label.field', { for: 'an-rule' }, label('rule'), ruleSel),
            h('label.field', { for: 'an-size' }, label('size'), sizeSel),
            h('label.field', { for: 'an-mode' }, label('mode'), modeSel)),
          h('label.check', { for: 'an-live' }, liveBox, label('live')),
          h('label.field', { for: 'an-paste' }, label('paste'), paste),
          h('div.learn-row', buttons.import),
          h('div.learn-row',
            h('label.field', { for: 'an-room' }, label('room'), roomInput),
            h('label.field', { for: 'an-game' }, label('game'), gameInput),
            buttons.room),
          h('div.learn-row', h('label.field', { for: 'an-share' }, label('share'), shareInput), buttons.share),
          status),
        treeBox))));

  movesInput.addEventListener('change', () => {
    const r = parseMoves(movesInput.value, st.size);
    if ('error' in r) { st.error = t(`learn.error.${r.error}`, { at: r.at }); drawStatus(); return; }
    st.tree = newTree(r.moves);
    go(end(st.tree, []));
  });
  ruleSel.addEventListener('change', () => { st.rule = ruleSel.value; go(st.path); });
  sizeSel.addEventListener('change', () => {
    st.size = Number(sizeSel.value);
    board.setSize(st.size);
    st.tree = newTree(movesAt(st.tree, st.path).filter((p) => p.x < st.size && p.y < st.size));
    go(end(st.tree, []));
  });
  modeSel.addEventListener('change', () => { st.mode = modeSel.value; drawBoard(); });
  liveBox.addEventListener('change', () => { st.live = liveBox.checked; positionChanged(); });

  /** place handles a click: a move (alternate) or a free-placed stone. @param {Pt} p */
  function place(p) {
    if (st.pos && st.pos.winner && st.mode === 'alternate') return;
    if (st.mode === 'alternate') { go(play(st.tree, st.path, p)); return; }
    const m = stonesOf(movesAt(st.tree, st.path));
    const black = m.stones.filter((s) => s.color === 'black').map(({ x, y }) => ({ x, y }));
    const white = m.stones.filter((s) => s.color === 'white').map(({ x, y }) => ({ x, y }));
    (st.mode === 'black' ? black : white).push(p);
    const moves = interleave(black, white);
    if (!moves) { st.error = t('an.error.uneven'); drawStatus(); return; }
    st.tree = newTree(moves);
    go(end(st.tree, []));
  }

  /** go shows the position at path. @param {number[]} path */
  function go(path) {
    st.path = path;
    positionChanged();
  }

  /** @param {string} text */
  async function importText(text) {
    st.error = '';
    try {
      const r = await api.analysisImport({ text, size: st.size });
      if (r.rule) st.rule = r.rule;
      if (r.size !== st.size) { st.size = r.size; board.setSize(st.size); }
      const pm = parseMoves(r.moves, st.size);
      st.tree = newTree('moves' in pm ? pm.moves : []);
      go(end(st.tree, []));
      drawControls();
    } catch (e) {
      st.error = `${errorText(e.code || 'internal', e.message)} ${e.code === 'bad_request' ? e.message : ''}`.trim();
      drawStatus();
    }
  }

  async function importRoom() {
    const id = roomInput.value.trim().replace(/^.*\/r\//, '');
    if (!id) return;
    const game = gameInput.value ? `&game=${encodeURIComponent(gameInput.value)}` : '';
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(id)}/record?format=sgf${game}`);
      const text = await res.text();
      if (!res.ok) {
        let err = { code: `http_${res.status}`, message: '' };
        try { err = JSON.parse(text).error; } catch { /* not JSON */ }
        st.error = errorText(err.code, err.message);
        drawStatus();
        return;
      }
      await importText(text);
    } catch (e) {
      st.error = errorText('network', e.message);
      drawStatus();
    }
  }

  function query() {
    const moves = formatMoves(movesAt(st.tree, st.path));
    return { moves, q: new URLSearchParams({ moves, rule: st.rule, size: String(st.size) }) };
  }

  async function positionChanged() {
    const my = ++gen;
    if (stream) { stream.abort(); stream = null; }
    st.error = '';
    st.info = null;
    st.status = '';
    st.selected = 0;
    const { moves, q: qs } = query();
    history.replaceState(null, '', shareURL(moves, st.rule, st.size));
    shareInput.value = location.origin + shareURL(moves, st.rule, st.size);
    drawAll();
    try {
      const pos = await api.analysisPosition(qs.toString());
      if (my !== gen) return;
      st.pos = pos;
    } catch (e) {
      if (my !== gen) return;
      st.pos = null;
      st.error = `${errorText(e.code || 'internal', e.message)} ${e.message || ''}`.trim();
    }
    drawAll();
    if (st.pos && !st.pos.winner && st.live) analyse(my, qs);
  }

  /** analyse reads the live stream of the position. @param {number} my @param {URLSearchParams} qs */
  async function analyse(my, qs) {
    const ctl = new AbortController();
    stream = ctl;
    st.status = 'starting';
    drawEngine();
    try {
      const res = await fetch(`/api/analysis/stream?${qs}`, { signal: ctl.signal, headers: api.withAuth({ Accept: 'text/event-stream' }) });
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        const err = body.error || {};
        throw new api.ApiError(err.code || `http_${res.status}`, err.message, res.status);
      }
      const reader = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
      const dec = new TextDecoder();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done || my !== gen) break;
        const r = parseEvents(buf + dec.decode(value, { stream: true }));
        buf = r.rest;
        for (const ev of r.events) onEvent(ev.name, ev.data);
      }
    } catch (e) {
      if (my !== gen || e.name === 'AbortError') return;
      st.status = 'error';
      st.error = errorText(e.code || 'network', e.message);
      drawStatus();
      drawEngine();
    }
  }

  /** @param {string} name @param {any} data */
  function onEvent(name, data) {
    if (name === 'position') st.pos = data;
    else if (name === 'queued') st.status = 'queued';
    else if (name === 'info') { st.info = data; st.status = 'running'; }
    else if (name === 'done') { st.info = data; st.status = `done.${data.stopped}`; }
    else if (name === 'error') { st.status = 'error'; st.error = errorText(data.error.code, data.error.message); drawStatus(); }
    drawEngine();
    drawBoard();
  }

  function drawBoard() {
    const m = stonesOf(movesAt(st.tree, st.path));
    /** @type {Line | undefined} */
    const line = st.info && st.info.lines[st.selected];
    /** @type {import('./protocol.js').Color} */
    let color = m.toMove === 'white' ? 'white' : 'black';
    /** @type {{x: number, y: number, color: import('./protocol.js').Color, n: number}[]} */
    const pv = [];
    (line ? line.pv.slice(0, 9) : []).forEach((mv, i) => {
      const p = parseNotation(mv, st.size);
      if (p) pv.push({ ...p, color, n: i + 1 });
      color = color === 'black' ? 'white' : 'black';
    });
    const forbidden = (st.pos && st.pos.forbidden || []).map((f) => ({ ...parseNotation(f.point, st.size), kind: f.kind }));
    const win = (st.pos && st.pos.line || []).map((mv) => parseNotation(mv, st.size)).filter(Boolean);
    /** @type {import('./protocol.js').Color} */
    const preview = (st.mode === 'alternate' ? m.toMove : st.mode) === 'white' ? 'white' : 'black';
    board.render({ stones: m.stones, last: m.last, preview, pv, win, numbers: false, forbidden, pending: [], hint: null });
    movesInput.value = formatMoves(movesAt(st.tree, st.path));
    toMove.textContent = st.pos && st.pos.winner
      ? t(st.pos.winner === 'draw' ? 'an.draw' : 'an.won', { color: t(`color.${st.pos.winner}`) })
      : t('learn.toMove', { color: t(`color.${m.toMove}`) });
    const n = st.path.length;
    /** @type {HTMLButtonElement} */ (buttons.first).disabled = n === 0;
    /** @type {HTMLButtonElement} */ (buttons.back).disabled = n === 0;
    /** @type {HTMLButtonElement} */ (buttons.fwd).disabled = !nodeAt(st.tree, st.path).children.length;
    /** @type {HTMLButtonElement} */ (buttons.last).disabled = !nodeAt(st.tree, st.path).children.length;
  }

  function drawStatus() {
    status.className = st.error ? 'learn-status form-error' : 'learn-status';
    status.textContent = st.error;
  }

  function drawEngine() {
    const info = st.info;
    const head = h('h2', { id: 'an-h-engine' }, t('an.engine'));
    const state = h('p.an-state', { id: 'an-state', dataset: { status: st.status } },
      st.status ? t(`an.status.${st.status}`) : (st.live ? '' : t('an.off')));
    if (!info) { fill(engineBox, head, state); return; }
    const stats = h('p.an-stats', { id: 'an-stats' }, t('an.stats', {
      depth: info.depth, nodes: info.nodes.toLocaleString(), nps: Math.round(info.nps / 1000).toLocaleString(),
      s: (info.elapsed_ms / 1000).toFixed(1), limit: Math.round(info.limit_ms / 1000),
    }));
    const rows = info.lines.map((/** @type {Line} */ l, /** @type {number} */ i) => h('tr', { class: i === st.selected ? 'is-selected' : '', dataset: { move: l.move } },
      h('td', h('button.learn-stones', { type: 'button', onclick: () => { st.selected = i; drawEngine(); drawBoard(); } }, l.move)),
      h('td.num', scoreText(l)),
      h('td.num', String(l.depth)),
      h('td.an-pv', l.pv.slice(0, 10).join(' '))));
    fill(engineBox, head, state, stats,
      h('div.table-wrap', h('table.learn-table', { id: 'an-lines' },
        h('thead', h('tr', ['move', 'score', 'depth', 'line'].map((c) => h('th', { scope: 'col' }, t(`an.col.${c}`))))),
        h('tbody', rows))),
      h('p.help', t('an.lines.help')));
  }

  /** drawTree lists the variations: the main line and, in brackets, the others. */
  function drawTree() {
    /** @param {import('./analyzemodel.js').VNode} n @param {number[]} path @param {number} ply */
    const list = (n, path, ply) => {
      const out = [];
      let node = n;
      let p = path;
      let k = ply;
      while (node.children.length) {
        const [main, ...alts] = node.children;
        out.push(moveBtn(main, [...p, 0], k));
        for (let i = 0; i < alts.length; i++) {
          out.push(h('span.an-var', '(', moveBtn(alts[i], [...p, i + 1], k), ...list(alts[i], [...p, i + 1], k + 1), ')'));
        }
        node = main;
        p = [...p, 0];
        k++;
      }
      return out;
    };
    /** @param {import('./analyzemodel.js').VNode} n @param {number[]} path @param {number} ply */
    const moveBtn = (n, path, ply) => {
      const here = path.length === st.path.length && path.every((v, i) => v === st.path[i]);
      const mv = n.move ? `${ply % 2 === 0 ? `${ply / 2 + 1}.` : ''}${String.fromCharCode(97 + n.move.x)}${n.move.y + 1}` : '';
      return h('button.an-move', { type: 'button', class: here ? 'an-move is-current' : 'an-move', 'aria-current': here ? 'true' : null, onclick: () => go(path) }, mv);
    };
    fill(treeBox, h('h2', { id: 'an-h-tree' }, t('an.tree')), h('p.help', t('an.tree.help')),
      h('div.an-tree', { id: 'an-tree' }, ...list(st.tree, [], 0)));
  }

  function drawControls() {
    ruleSel.replaceChildren(...['freestyle', 'standard', 'renju'].map((r) => option(r, t(`rule.${r}`), st.rule)));
    sizeSel.replaceChildren(...[15, 16, 17, 18, 19, 20].map((n) => option(n, `${n}×${n}`, st.size)));
    modeSel.replaceChildren(...['alternate', 'black', 'white'].map((m) => option(m, t(`an.mode.${m}`), st.mode)));
  }

  function drawAll() {
    title.textContent = t('an.title');
    intro.textContent = t('an.intro');
    for (const k of Object.keys(labels)) labels[k].textContent = t(`an.${k}`);
    paste.placeholder = 'h8i9j7 · Piskvorky 15x15… · (;GM[4]SZ[15];B[hh]…)';
    const names = /** @type {const} */ (['first', 'back', 'fwd', 'last', 'clear', 'import', 'room', 'share']);
    for (const k of names) buttons[k].textContent = t(`an.btn.${k}`);
    drawControls();
    drawBoard();
    drawStatus();
    drawEngine();
    drawTree();
  }

  const oldTitle = document.title;
  document.title = `${t('an.title')} · Gomoku Arena`;
  const off = onLang(drawAll);
  positionChanged();
  return () => { off(); gen++; if (stream) stream.abort(); document.title = oldTitle; };
}
