// @ts-check
// puzzles.js: the puzzle trainer "/puzzles" and "/puzzles/{id}": a puzzle's position,
// its task, category, source and rating; the player plays the attacking moves, the
// server answers with the best defence until the win (docs/protocol.md, "Puzzles").
// Hints, the solution animated move by move, the player's puzzle rating and its change.
// The attempt's state is puzzlemodel.js (pure); this module calls the API and draws it.
import { h, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { BoardView } from './board.js';
import { toNotation } from './geometry.js';
import * as api from './api.js';
import * as store from './store.js';
import { errorText } from './errors.js';
import {
  RULES, newAttempt, started, over, canPlay, sent, refused, answered, hinted, solutionShown, step, animating,
  toMove, positionMoves, boardOf, ratingText, changeParams, taskKey,
} from './puzzlemodel.js';

/** STEP_MS is the pause between two moves of the solution's animation. */
const STEP_MS = 700;

/** @typedef {import('./puzzlemodel.js').PuzzleState} PuzzleState */

/**
 * renderPuzzles draws the trainer into main (the puzzle id, or '' for the next one of
 * the chosen rule) and returns a teardown function.
 * @param {HTMLElement} main
 * @param {{id: string, playerName: () => string}} ctx
 */
export function renderPuzzles(main, { id, playerName }) {
  const q = new URLSearchParams(location.search);
  const asked = q.get('rule') || '';
  const page = {
    rule: RULES.includes(asked) ? asked : (RULES.includes(store.get('puzzleRule')) ? String(store.get('puzzleRule')) : 'freestyle'),
    /** @type {PuzzleState | null} */
    st: null,
    /** @type {{forbidden?: {point: string, kind: string}[], line?: string[]} | null} */
    pos: null,
    error: '',
    busy: false,
  };
  let gen = 0;
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;

  const board = new BoardView({ onPlay: (x, y) => play(toNotation(x, y)) });
  const title = h('h1');
  const intro = h('p.learn-intro');
  const task = h('p.learn-tomove.puz-task', { id: 'puz-task', 'aria-live': 'polite' });
  const info = h('section.card.puz-info', { id: 'puz-info' });
  const feedback = h('p.puz-feedback', { id: 'puz-feedback', role: 'status', 'aria-live': 'polite' });
  const change = h('p.puz-change', { id: 'puz-change' });
  const mine = h('p.puz-player', { id: 'puz-player' });
  const error = h('p.form-error', { id: 'puz-error', role: 'alert' });
  const ruleSel = /** @type {HTMLSelectElement} */ (h('select', { id: 'puz-rule' }));
  const ruleLabel = h('span.label');
  const btn = (/** @type {string} */ bid, /** @type {string} */ cls, /** @type {() => void} */ fn) => /** @type {HTMLButtonElement} */ (h(`button.btn${cls}`, { id: bid, type: 'button', onclick: fn }));
  const buttons = {
    hint: btn('puz-hint', '', () => askHint()),
    solution: btn('puz-solution', '', () => askSolution()),
    retry: btn('puz-retry', '', () => retry()),
    next: btn('puz-next', '.btn-primary', () => next()),
  };

  main.replaceChildren(h('div.learn.puzzles',
    h('section.learn-head', title, intro),
    h('div.learn-setup',
      h('div.learn-board', board.el, task),
      h('div.puz-side',
        info,
        h('section.card.puz-play',
          feedback, change, mine, error,
          h('div.learn-row', buttons.hint, buttons.solution, buttons.retry, buttons.next),
          h('label.field', { for: 'puz-rule' }, ruleLabel, ruleSel))))));

  ruleSel.addEventListener('change', () => {
    page.rule = ruleSel.value;
    store.put('puzzleRule', page.rule);
    next();
  });

  /** fail shows an API error by its code. @param {any} e */
  function fail(e) {
    page.error = errorText(e.code || 'internal', e.message);
    drawPanel();
  }

  /** load opens a puzzle (by id, or the next one of the rule). @param {string} pid */
  async function load(pid) {
    const my = ++gen;
    stopAnimation();
    page.error = '';
    page.busy = true;
    drawPanel();
    try {
      await api.ensurePlayer(playerName());
      const res = pid ? await api.puzzleGet(pid) : await api.puzzleNext(page.rule);
      if (my !== gen) return;
      page.st = newAttempt(res.puzzle, res.player);
      page.rule = res.puzzle.rule;
      const path = `/puzzles/${encodeURIComponent(res.puzzle.id)}`;
      if (location.pathname !== path) history.replaceState(null, '', path);
    } catch (e) {
      if (my !== gen) return;
      page.st = null;
      page.error = errorText(e.code || 'internal', e.message);
    }
    page.busy = false;
    if (page.st) board.setSize(page.st.puzzle.size);
    drawAll();
    positionChanged();
  }

  /**
   * positionChanged asks the server for the forbidden points and the winning five of
   * the position on the board (the analysis board's GET /api/analysis/position).
   */
  async function positionChanged() {
    const my = gen;
    const st = page.st;
    page.pos = null;
    drawBoard();
    if (!st) return;
    const moves = [...positionMoves(st), ...(st.solution ? st.solution.moves.slice(0, st.solution.shown) : [])];
    try {
      const pos = await api.analysisPosition(new URLSearchParams({ moves: moves.join(''), rule: st.puzzle.rule, size: String(st.puzzle.size) }).toString());
      if (my !== gen || page.st !== st) return;
      page.pos = st.solution ? { line: pos.line } : pos;
      drawBoard();
    } catch {
      // Without the marks the puzzle still plays: the server checks every move.
    }
  }

  /** begin starts the attempt on the server at the first action. */
  async function begin() {
    const st = /** @type {PuzzleState} */ (page.st);
    if (st.attempt) return st;
    const res = await api.puzzleAttempt(st.puzzle.id);
    if (page.st !== st) throw new Error('stale');
    page.st = started(st, res);
    return page.st;
  }

  /** play sends the player's move. @param {string} move */
  async function play(move) {
    const my = gen;
    if (!page.st || !canPlay(page.st, move)) return;
    page.st = sent(page.st, move);
    page.error = '';
    drawAll();
    try {
      const st = await begin();
      const res = await api.puzzleMove(st.attempt, move);
      if (my !== gen) return;
      page.st = answered(/** @type {PuzzleState} */ (page.st), res);
      if (animating(page.st)) animate();
    } catch (e) {
      if (my !== gen || e.message === 'stale') return;
      page.st = refused(/** @type {PuzzleState} */ (page.st));
      fail(e);
    }
    drawAll();
    positionChanged();
  }

  /**
   * act starts the attempt at need, asks the server for help (a hint, the solution) and
   * applies its answer.
   * @param {(attempt: string) => Promise<any>} ask
   * @param {(st: PuzzleState, res: any) => PuzzleState} apply
   */
  async function act(ask, apply) {
    const my = gen;
    if (!page.st || page.st.phase !== 'ready') return;
    try {
      const st = await begin();
      const res = await ask(st.attempt);
      if (my !== gen) return;
      page.st = apply(/** @type {PuzzleState} */ (page.st), res);
      page.error = '';
      if (animating(page.st)) animate();
    } catch (e) {
      if (my !== gen || e.message === 'stale') return;
      fail(e);
    }
    drawAll();
    positionChanged();
  }

  const askHint = () => act(api.puzzleHint, (st, res) => hinted(st, res.hint));
  const askSolution = () => act(api.puzzleSolution, (st, res) => solutionShown(st, res.solution || [], res.rating));

  /** animate plays the solution onto the board, one move every STEP_MS. */
  function animate() {
    stopAnimation();
    timer = setInterval(() => {
      if (!page.st || !animating(page.st)) { stopAnimation(); return; }
      page.st = step(page.st);
      drawBoard();
      if (!animating(page.st)) { stopAnimation(); positionChanged(); }
    }, STEP_MS);
  }

  function stopAnimation() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  /** retry starts the same puzzle again (a new attempt: unrated after the first). */
  function retry() {
    if (!page.st) return;
    gen++;
    stopAnimation();
    page.st = newAttempt(page.st.puzzle, page.st.player);
    page.error = '';
    drawAll();
    positionChanged();
  }

  function next() {
    load('');
  }

  function drawBoard() {
    if (!page.st) { board.render({ stones: [], last: null, win: [], numbers: false, forbidden: [], pending: [], pv: [], hint: null, preview: null }); return; }
    board.render(boardOf(page.st, page.pos));
  }

  function drawInfo() {
    const st = page.st;
    info.hidden = !st && !page.busy;
    if (!st) { fill(info, h('p.muted', t('misc.loading'))); task.textContent = ''; return; }
    const p = st.puzzle;
    const cat = t(`puz.cat.${p.category}`);
    const color = t(`color.${p.to_move}`);
    task.textContent = t(taskKey(p), { color });
    fill(info,
      h('h2', { id: 'puz-headline' }, t(taskKey(p), { color })),
      h('p.puz-tags',
        h('span.badge', { id: 'puz-category', dataset: { category: p.category } }, cat === `puz.cat.${p.category}` ? p.category : cat),
        ' ', h('span.badge', { id: 'puz-rulename' }, t(`rule.${p.rule}`)),
        ' ', h('span.badge.badge-rating', { id: 'puz-rating' }, t('puz.rating', { rating: ratingText(p) }))),
      h('p.muted', { id: 'puz-source', dataset: { source: p.source } }, t(`puz.source.${p.source}`)),
      h('p.muted', { id: 'puz-stats' }, t('puz.stats', { plays: p.plays, solved: p.solved_by })),
      h('p', h('a', { id: 'puz-link', href: `/puzzles/${encodeURIComponent(p.id)}` }, t('puz.link')), ' ', h('code', p.id)));
  }

  function drawPanel() {
    const st = page.st;
    error.textContent = page.error;
    ruleLabel.textContent = t('puz.rule');
    ruleSel.replaceChildren(...RULES.map((r) => h('option', { value: r, selected: r === page.rule }, t(`rule.${r}`))));
    buttons.hint.textContent = t('puz.btn.hint');
    buttons.solution.textContent = t('puz.btn.solution');
    buttons.retry.textContent = t('puz.btn.retry');
    buttons.next.textContent = t('puz.btn.next');
    const ready = !!st && st.phase === 'ready';
    buttons.hint.disabled = !ready || !!st.hint;
    buttons.solution.disabled = !ready;
    buttons.retry.hidden = !st || !over(st);
    buttons.next.disabled = page.busy;
    for (const el of [feedback, change, mine]) el.hidden = !st;
    if (!st) return;
    mine.textContent = t('puz.player', { rating: ratingText(st.player) });
    feedback.dataset.result = st.feedback || '';
    const last = st.line[st.line.length - 1];
    /** @type {Record<string, string>} */
    const texts = {
      correct: t('puz.correct', { color: t(`color.${toMove(st) === 'black' ? 'white' : 'black'}`), reply: last || '' }),
      solved: t('puz.solved'),
      wrong: t('puz.wrong', { move: last || '' }),
      shown: t('puz.shown'),
    };
    let text = st.feedback ? texts[st.feedback] : t('puz.yourMove');
    if (st.phase === 'waiting') text = t('puz.waiting');
    else if (st.hint && st.phase === 'ready') text = `${text} ${t('puz.hint')}`;
    feedback.textContent = text;
    feedback.className = `puz-feedback${st.feedback ? ` is-${st.feedback}` : ''}`;
    if (st.rating) change.textContent = t('rating.change', changeParams(st.rating));
    else change.textContent = over(st) ? t('puz.unrated') : '';
  }

  function drawAll() {
    title.textContent = t('puz.title');
    intro.textContent = t('puz.intro');
    document.title = `${t('puz.title')} · ${t('app.title')}`;
    drawInfo();
    drawPanel();
    drawBoard();
  }

  const oldTitle = document.title;
  const off = onLang(() => { drawAll(); board.relabel(); });
  // A read-only view for the browser tests, as the game page's window.__gomoku.
  /** @type {any} */ (window).__puzzle = { state: () => page.st };
  drawAll();
  load(id);
  return () => {
    off();
    gen++;
    stopAnimation();
    document.title = oldTitle;
    delete /** @type {any} */ (window).__puzzle;
  };
}
