// @ts-check
// learn.js: the classroom page "/learn": set up a position, compare minimax with
// alpha-beta and its improvements (node counts and times side by side), and draw a
// shallow alpha-beta search tree with its windows and cuts (docs/protocol.md, "Classroom").
import { h, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { BoardView } from './board.js';
import { parseNotation, MIN_SIZE, MAX_SIZE } from './geometry.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { parseMoves, formatMoves, stonesOf, summary, countTree, pathMoves, evalRows } from './learnmodel.js';
import { renderTree, valueText } from './views/learntree.js';

/** @typedef {import('./learnmodel.js').LearnCompare} LearnCompare */
/** @typedef {{depth: number, width: number, to_move: string, win: number, nodes: number, root: import('./learnmodel.js').LearnNode}} LearnTree */

const DEFAULT_POSITION = 'h8i9j7';

/**
 * option builds a select's option.
 * @param {string | number} value
 * @param {string} label
 * @param {string | number} current
 */
function option(value, label, current) {
  return h('option', { value: String(value), selected: String(value) === String(current) }, label);
}

/**
 * renderLearn draws the classroom into main and returns a teardown function.
 * @param {HTMLElement} main
 */
export function renderLearn(main) {
  const q = new URLSearchParams(location.search);
  const st = {
    size: Math.min(MAX_SIZE, Math.max(MIN_SIZE, Number(q.get('size')) || 15)),
    rule: ['freestyle', 'standard', 'renju'].includes(q.get('rule') || '') ? q.get('rule') : 'freestyle',
    depth: 3,
    width: 3,
    /** @type {{x: number, y: number}[]} */
    moves: [],
    /** @type {string[]} the tree line shown on the board */
    line: [],
    busy: false,
    error: '',
    /** @type {LearnCompare | null} */
    compare: null,
    /** @type {LearnTree | null} */
    tree: null,
    /** @type {import('./learnmodel.js').LearnEval | null} */
    ev: null,
    /** @type {string[]} the pattern shown on the board */
    marked: [],
  };
  const first = parseMoves(q.get('moves') ?? DEFAULT_POSITION, st.size);
  if ('moves' in first) st.moves = first.moves;

  const board = new BoardView({ size: st.size, onPlay: (x, y) => { st.moves.push({ x, y }); positionChanged(); } });
  const movesInput = /** @type {HTMLInputElement} */ (h('input', { id: 'learn-moves', type: 'text', spellcheck: 'false', autocomplete: 'off' }));
  const ruleSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'learn-rule' }));
  const sizeSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'learn-size' }));
  const depthSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'learn-depth' }));
  const widthSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'learn-width' }));
  const toMove = h('p.learn-tomove', { 'aria-live': 'polite' });
  const status = h('p.learn-status', { role: 'status', 'aria-live': 'polite' });
  const compareBox = h('section.card.learn-compare', { 'aria-labelledby': 'learn-h-compare' });
  const treeBox = h('section.card.learn-treebox', { 'aria-labelledby': 'learn-h-tree' });
  const evalBox = h('section.card.learn-evalbox', { 'aria-labelledby': 'learn-h-eval' });
  const buttons = {
    undo: h('button.btn.btn-sm', { id: 'learn-undo', type: 'button' }),
    clear: h('button.btn.btn-sm', { id: 'learn-clear', type: 'button' }),
    compare: h('button.btn.btn-primary', { id: 'learn-compare', type: 'button' }),
    tree: h('button.btn', { id: 'learn-tree', type: 'button' }),
    eval: h('button.btn', { id: 'learn-eval', type: 'button' }),
  };
  const title = h('h1');
  const intro = h('p.learn-intro');
  const labels = { moves: h('span.label'), help: h('small.help'), rule: h('span.label'), size: h('span.label'), depth: h('span.label'), width: h('span.label') };

  main.replaceChildren(h('div.learn',
    h('section.learn-head', title, intro),
    h('div.learn-setup',
      h('div.learn-board', board.el, toMove),
      h('form.card.learn-form', { onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
        h('label.field', { for: 'learn-moves' }, labels.moves, movesInput, labels.help),
        h('div.learn-row', buttons.undo, buttons.clear),
        h('div.learn-row',
          h('label.field', { for: 'learn-rule' }, labels.rule, ruleSel),
          h('label.field', { for: 'learn-size' }, labels.size, sizeSel)),
        h('div.learn-row',
          h('label.field', { for: 'learn-depth' }, labels.depth, depthSel),
          h('label.field', { for: 'learn-width' }, labels.width, widthSel)),
        h('div.learn-row', buttons.compare, buttons.tree, buttons.eval),
        status)),
    compareBox, evalBox, treeBox));

  movesInput.addEventListener('change', () => {
    const r = parseMoves(movesInput.value, st.size);
    if ('error' in r) { st.error = t(`learn.error.${r.error}`, { at: r.at }); drawStatus(); return; }
    st.moves = r.moves;
    positionChanged();
  });
  ruleSel.addEventListener('change', () => { st.rule = ruleSel.value; positionChanged(); });
  sizeSel.addEventListener('change', () => {
    st.size = Number(sizeSel.value);
    board.setSize(st.size);
    st.moves = st.moves.filter((p) => p.x < st.size && p.y < st.size);
    positionChanged();
  });
  depthSel.addEventListener('change', () => { st.depth = Number(depthSel.value); });
  widthSel.addEventListener('change', () => { st.width = Number(widthSel.value); });
  buttons.undo.addEventListener('click', () => { st.moves.pop(); positionChanged(); });
  buttons.clear.addEventListener('click', () => { st.moves = []; positionChanged(); });
  buttons.compare.addEventListener('click', () => run('compare'));
  buttons.tree.addEventListener('click', () => run('tree'));
  buttons.eval.addEventListener('click', () => run('eval'));

  function body(kind) {
    if (kind === 'eval') return { moves: formatMoves(st.moves), rule: st.rule, size: st.size };
    const depth = kind === 'tree' ? Math.min(st.depth, 3) : st.depth;
    const b = { moves: formatMoves(st.moves), rule: st.rule, size: st.size, depth };
    return kind === 'tree' ? { ...b, width: st.width } : b;
  }

  /** @param {'compare' | 'tree' | 'eval'} kind */
  async function run(kind) {
    if (st.busy) return;
    if (!st.moves.length && kind !== 'eval') { st.error = t('learn.needMove'); drawStatus(); return; }
    st.busy = true;
    st.error = '';
    drawStatus();
    try {
      if (kind === 'compare') st.compare = await api.learnCompare(body('compare'));
      else if (kind === 'eval') { st.ev = await api.learnEval(body('eval')); st.marked = []; drawBoard(); }
      else { st.tree = await api.learnTree(body('tree')); st.line = []; drawBoard(); }
    } catch (e) {
      const text = errorText(e.code || 'internal', e.message);
      st.error = e.code === 'bad_request' && e.message ? `${text} ${e.message}` : text;
    } finally {
      st.busy = false;
      drawStatus();
      ({ compare: drawCompare, tree: drawTree, eval: drawEval })[kind]();
    }
  }

  function positionChanged() {
    st.error = '';
    st.compare = null;
    st.tree = null;
    st.line = [];
    st.ev = null;
    st.marked = [];
    const url = `/learn?moves=${formatMoves(st.moves)}${st.rule !== 'freestyle' ? `&rule=${st.rule}` : ''}${st.size !== 15 ? `&size=${st.size}` : ''}`;
    history.replaceState(null, '', url);
    drawAll();
  }

  function drawBoard() {
    const m = stonesOf(st.moves);
    let color = m.toMove;
    /** @type {{x: number, y: number, color: import('./protocol.js').Color, n: number}[]} */
    const pv = [];
    st.line.forEach((mv, i) => {
      const p = parseNotation(mv, st.size);
      if (p) pv.push({ ...p, color, n: i + 1 });
      color = color === 'black' ? 'white' : 'black';
    });
    const win = st.marked.map((mv) => parseNotation(mv, st.size)).filter(Boolean);
    board.render({ stones: m.stones, last: m.last, preview: m.toMove, pv, win, numbers: false, forbidden: [], pending: [], hint: null });
    movesInput.value = formatMoves(st.moves);
    toMove.textContent = t('learn.toMove', { color: t(`color.${m.toMove}`) });
  }

  function drawStatus() {
    for (const b of Object.values(buttons)) /** @type {HTMLButtonElement} */ (b).disabled = st.busy;
    status.className = st.error ? 'learn-status form-error' : 'learn-status';
    status.textContent = st.error || (st.busy ? t('learn.running') : '');
  }

  function drawCompare() {
    const res = st.compare;
    if (!res) { fill(compareBox); compareBox.hidden = true; return; }
    compareBox.hidden = false;
    const sum = summary(res);
    const rows = res.modes.map((m, i) => h('tr', { dataset: { mode: m.mode } },
      h('th', { scope: 'row' }, t(`learn.mode.${m.mode}`)),
      h('td.num', m.nodes.toLocaleString()),
      h('td.num', sum.ratios[i] == null ? '—' : `${(sum.ratios[i] * 100).toFixed(sum.ratios[i] < 0.01 ? 2 : 1)}%`),
      h('td.num', `${m.time_ms.toFixed(1)} ms`),
      h('td', m.complete ? m.move : '—'),
      h('td', m.complete ? valueText(m.value, res.win) : h('span.stopped', t(`learn.stopped.${m.stopped}`, { n: m.stopped === 'time' ? res.time_cap_ms : res.node_cap.toLocaleString() })))));
    fill(compareBox,
      h('h2', { id: 'learn-h-compare' }, t('learn.compare')),
      h('p.help', t('learn.caps', { depth: res.depth, color: t(`color.${res.to_move}`), nodes: res.node_cap.toLocaleString(), ms: res.time_cap_ms })),
      h('div.table-wrap', h('table.learn-table', { id: 'learn-table' },
        h('thead', h('tr', ['mode', 'nodes', 'ratio', 'time', 'move', 'value'].map((c) => h('th', { scope: 'col' }, t(`learn.col.${c}`))))),
        h('tbody', rows))),
      h('p', { class: sum.agree ? 'learn-note' : 'learn-note form-error' }, t(sum.agree ? 'learn.agree' : 'learn.disagree')),
      sum.allComplete ? null : h('p.learn-note', t('learn.partial')));
  }

  function drawTree() {
    const tr = st.tree;
    if (!tr) { fill(treeBox); treeBox.hidden = true; return; }
    treeBox.hidden = false;
    const c = countTree(tr.root);
    const color = t(`color.${tr.to_move}`);
    fill(treeBox,
      h('h2', { id: 'learn-h-tree' }, t('learn.tree')),
      h('p.help', t('learn.tree.help', { color })),
      h('p.learn-note', t('learn.tree.summary', { ...c, depth: tr.depth, width: tr.width })),
      h('div', { id: 'learn-treeview' }, renderTree(tr.root, tr.win, (path) => { st.line = pathMoves(tr.root, path); drawBoard(); })));
  }

  function drawAll() {
    title.textContent = t('learn.title');
    intro.textContent = t('learn.intro');
    labels.moves.textContent = t('learn.moves');
    labels.help.textContent = t('learn.moves.help');
    labels.rule.textContent = t('learn.rule');
    labels.size.textContent = t('learn.size');
    labels.depth.textContent = t('learn.depth');
    labels.width.textContent = t('learn.width');
    for (const k of /** @type {const} */ (['undo', 'clear', 'compare', 'tree', 'eval'])) buttons[k].textContent = t(`learn.${k}`);
    ruleSel.replaceChildren(...['freestyle', 'standard', 'renju'].map((r) => option(r, t(`rule.${r}`), st.rule)));
    sizeSel.replaceChildren(...[15, 16, 17, 18, 19, 20].map((n) => option(n, `${n}×${n}`, st.size)));
    depthSel.replaceChildren(...[2, 3, 4].map((n) => option(n, String(n), st.depth)));
    widthSel.replaceChildren(...[2, 3, 4, 5, 6].map((n) => option(n, String(n), st.width)));
    drawBoard();
    drawStatus();
    drawCompare();
    drawTree();
    drawEval();
  }

  function drawEval() {
    const ev = st.ev;
    if (!ev) { fill(evalBox); evalBox.hidden = true; return; }
    evalBox.hidden = false;
    const r = evalRows(ev);
    const rows = r.rows.map((p) => h('tr', { dataset: { kind: p.kind, color: p.color } },
      h('td', t(`color.${p.color}`)),
      h('td', t(`learn.kind.${p.kind}`)),
      h('td', h('button.learn-stones', { type: 'button', onclick: () => { st.marked = p.stones; drawBoard(); } }, p.stones.join(' '))),
      h('td.num', String(p.open)),
      h('td.num', p.score.toLocaleString())));
    fill(evalBox,
      h('h2', { id: 'learn-h-eval' }, t('learn.eval')),
      h('p.help', t('learn.eval.help')),
      r.rows.length
        ? h('div.table-wrap', h('table.learn-table', { id: 'learn-evaltable' },
          h('thead', h('tr', ['color', 'kind', 'stones', 'open', 'score'].map((c) => h('th', { scope: 'col' }, t(`learn.eval.col.${c}`))))),
          h('tbody', rows)))
        : h('p.learn-note', t('learn.eval.none')),
      h('p.learn-note', { id: 'learn-formula' }, t('learn.eval.formula', {
        color: t(`color.${r.own}`), own: r.ownTotal.toLocaleString(), opp: r.oppTotal.toLocaleString(), value: r.value.toLocaleString(),
      })));
  }

  drawAll();
  const oldTitle = document.title;
  document.title = `${t('learn.title')} · Gomoku Arena`;
  const off = onLang(drawAll);
  return () => { off(); document.title = oldTitle; };
}
