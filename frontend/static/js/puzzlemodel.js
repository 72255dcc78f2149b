// @ts-check
// puzzlemodel.js: the puzzle trainer's pure part (docs/protocol.md, "Puzzles"): one
// attempt at a puzzle as the page shows it (the position, the line played since the
// start, whose turn, the result, the hint, the solution's animation, the rating change)
// and the board model drawn from it. Every step is a function from the old state to a
// new one, node-tested without a DOM.
import { parseNotation } from './geometry.js';
import { signed } from './rating.js';

/**
 * @typedef {import('./protocol.js').Color} Color
 * @typedef {{id: string, rule: string, size: number, to_move: Color, moves: string[], category: string,
 *   source: string, rating: number, rd: number, provisional: boolean, plays: number, solved_by: number}} Puzzle
 * @typedef {{rating: number, rd: number, provisional: boolean}} PuzzleRating
 * @typedef {{before: number, after: number, rd: number, provisional: boolean}} RatingStep
 * @typedef {{result: 'continue' | 'solved' | 'wrong', reply?: string, line?: string[], solution?: string[], rating?: RatingStep}} MoveAnswer
 * @typedef {'ready' | 'waiting' | 'solved' | 'wrong' | 'shown'} Phase
 *   ready: the player's move; waiting: a move is on its way; solved / wrong / shown
 *   (the solution was asked for): the attempt is over
 * @typedef {{from: string[], moves: string[], shown: number}} SolutionShow the solution's
 *   moves played from the line `from`, of which `shown` are on the board
 * @typedef {Object} PuzzleState
 * @property {Puzzle} puzzle
 * @property {PuzzleRating} player the caller's puzzle rating
 * @property {string} attempt the attempt's id ('' until the first action starts one)
 * @property {string[]} line the moves played since the puzzle's position
 * @property {Phase} phase
 * @property {string | null} pending the move on its way
 * @property {'correct' | 'solved' | 'wrong' | 'shown' | null} feedback what the last answer said
 * @property {string | null} hint the hinted point
 * @property {boolean} assisted a hint or the solution was asked for (the attempt is unrated)
 * @property {SolutionShow | null} solution
 * @property {RatingStep | null} rating the player's rating change when the attempt ended
 */

/** RULES are the rules the page offers puzzles in. */
export const RULES = ['freestyle', 'standard', 'renju'];

/** other returns the opposite colour. @param {Color} c @returns {Color} */
function other(c) {
  return c === 'black' ? 'white' : 'black';
}

/**
 * newAttempt starts the page's state for a puzzle: its position, the player's move, no
 * attempt on the server yet.
 * @param {Puzzle} puzzle @param {PuzzleRating} player
 * @returns {PuzzleState}
 */
export function newAttempt(puzzle, player) {
  return { puzzle, player, attempt: '', line: [], phase: 'ready', pending: null, feedback: null, hint: null, assisted: false, solution: null, rating: null };
}

/**
 * started records the attempt the server opened (POST /api/puzzles/{id}/attempts).
 * @param {PuzzleState} st @param {{attempt: string, puzzle?: Puzzle, player?: PuzzleRating}} res
 * @returns {PuzzleState}
 */
export function started(st, res) {
  return { ...st, attempt: res.attempt, puzzle: res.puzzle || st.puzzle, player: res.player || st.player };
}

/** over tells whether the attempt has ended. @param {PuzzleState} st */
export function over(st) {
  return st.phase === 'solved' || st.phase === 'wrong' || st.phase === 'shown';
}

/**
 * occupied lists the points taken in the position after the line.
 * @param {PuzzleState} st
 */
function occupied(st) {
  return new Set([...st.puzzle.moves, ...st.line].map((m) => m.toLowerCase()));
}

/**
 * canPlay tells whether the player may play move now: their turn, no move on its way,
 * the attempt not over, an empty point on the board.
 * @param {PuzzleState} st @param {string} move
 */
export function canPlay(st, move) {
  return st.phase === 'ready' && st.line.length % 2 === 0 && parseNotation(move, st.puzzle.size) !== null && !occupied(st).has(move.toLowerCase());
}

/**
 * sent marks move as on its way (drawn pending).
 * @param {PuzzleState} st @param {string} move
 * @returns {PuzzleState}
 */
export function sent(st, move) {
  return { ...st, phase: 'waiting', pending: move, feedback: null, hint: null };
}

/**
 * refused takes a refused move back (the error is shown by the page).
 * @param {PuzzleState} st
 * @returns {PuzzleState}
 */
export function refused(st) {
  return { ...st, phase: st.phase === 'waiting' ? 'ready' : st.phase, pending: null };
}

/**
 * answered applies the server's answer to the pending move: the line as the server has
 * it (or the move and its reply), the feedback, and at the end the rating change and,
 * after a wrong move, the solution from the position before it.
 * @param {PuzzleState} st @param {MoveAnswer} res
 * @returns {PuzzleState}
 */
export function answered(st, res) {
  const move = st.pending || '';
  const before = st.line;
  const line = res.line || [...before, move, ...(res.result === 'continue' && res.reply ? [res.reply] : [])];
  /** @type {PuzzleState} */
  const next = { ...st, line, pending: null };
  if (res.result === 'continue') return { ...next, phase: 'ready', feedback: 'correct' };
  const player = res.rating ? { rating: res.rating.after, rd: res.rating.rd, provisional: res.rating.provisional } : st.player;
  next.rating = res.rating || null;
  next.player = player;
  if (res.result === 'solved') return { ...next, phase: 'solved', feedback: 'solved' };
  return { ...next, phase: 'wrong', feedback: 'wrong', solution: res.solution && res.solution.length ? { from: before, moves: res.solution, shown: 0 } : null };
}

/**
 * hinted marks the hinted point; the attempt is assisted from now on.
 * @param {PuzzleState} st @param {string} hint
 * @returns {PuzzleState}
 */
export function hinted(st, hint) {
  return { ...st, hint, assisted: true };
}

/**
 * solutionShown ends the attempt with the solution from the current position, to be
 * animated from its first move.
 * @param {PuzzleState} st @param {string[]} solution @param {RatingStep} [rating]
 * @returns {PuzzleState}
 */
export function solutionShown(st, solution, rating) {
  const player = rating ? { rating: rating.after, rd: rating.rd, provisional: rating.provisional } : st.player;
  return { ...st, phase: 'shown', feedback: 'shown', assisted: true, hint: null, pending: null, player, rating: rating || st.rating,
    solution: { from: st.line, moves: solution, shown: 0 } };
}

/**
 * step shows one more move of the solution; done tells when all are on the board.
 * @param {PuzzleState} st
 * @returns {PuzzleState}
 */
export function step(st) {
  if (!st.solution || st.solution.shown >= st.solution.moves.length) return st;
  return { ...st, solution: { ...st.solution, shown: st.solution.shown + 1 } };
}

/** animating tells whether moves of the solution are still to be shown. @param {PuzzleState} st */
export function animating(st) {
  return !!st.solution && st.solution.shown < st.solution.moves.length;
}

/**
 * toMove is the colour to move after the line.
 * @param {PuzzleState} st @returns {Color}
 */
export function toMove(st) {
  return st.line.length % 2 === 0 ? st.puzzle.to_move : other(st.puzzle.to_move);
}

/**
 * positionMoves lists the position's moves from the empty board (black first) as the
 * board shows it: the puzzle's moves and the line (before the solution, while it is
 * shown).
 * @param {PuzzleState} st
 */
export function positionMoves(st) {
  return [...st.puzzle.moves, ...(st.solution ? st.solution.from : st.line)];
}

/** @typedef {{x: number, y: number}} Pt */

/**
 * boardOf is the board view's model: the stones of the position (the puzzle's and the
 * line's, the line's numbered from 1 in the solution's colours), the pending move, the
 * hint, the solution's shown moves as numbered stones, and the position's forbidden
 * points and winning five (from GET /api/analysis/position, passed in).
 * @param {PuzzleState} st
 * @param {{forbidden?: {point: string, kind: string}[], line?: string[]} | null} pos
 * @returns {import('./session.js').BoardModel}
 */
export function boardOf(st, pos) {
  const size = st.puzzle.size;
  const moves = positionMoves(st);
  const stones = [];
  for (const [i, m] of moves.entries()) {
    const p = parseNotation(m, size);
    if (p) stones.push({ ...p, color: /** @type {Color} */ (i % 2 === 0 ? 'black' : 'white'), n: i + 1 });
  }
  const last = stones.length ? { x: stones[stones.length - 1].x, y: stones[stones.length - 1].y } : null;
  const pv = [];
  if (st.solution) {
    let c = moves.length % 2 === 0 ? 'black' : 'white';
    for (const [i, m] of st.solution.moves.slice(0, st.solution.shown).entries()) {
      const p = parseNotation(m, size);
      if (p) pv.push({ ...p, color: /** @type {Color} */ (c), n: i + 1 });
      c = c === 'black' ? 'white' : 'black';
    }
  }
  const pending = [];
  const pp = st.pending ? parseNotation(st.pending, size) : null;
  if (pp) pending.push({ ...pp, color: toMove(st) });
  const hp = st.hint ? parseNotation(st.hint, size) : null;
  const blackToMove = moves.length % 2 === 0;
  /** @type {import('./state.js').Forbidden[]} */
  const forbidden = [];
  for (const f of (!st.solution && blackToMove && pos && pos.forbidden) || []) {
    const p = parseNotation(f.point, size);
    if (p) forbidden.push({ ...p, point: f.point, kind: /** @type {import('./state.js').ForbiddenKind} */ (f.kind) });
  }
  const win = pos && pos.line ? pos.line.map((m) => parseNotation(m, size)).filter((p) => p !== null) : [];
  const playable = st.phase === 'ready' && st.line.length % 2 === 0;
  return { stones, last, win: /** @type {Pt[]} */ (win), numbers: false, forbidden, pending, pv, hint: hp, preview: playable ? toMove(st) : null };
}

/**
 * ratingText writes a rating as the pages show it: rounded, "?" while provisional.
 * @param {{rating: number, provisional: boolean}} r
 */
export function ratingText(r) {
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/**
 * changeParams returns the parameters of the rating.change message for a puzzle
 * attempt's change, rounded as shown.
 * @param {RatingStep} r
 */
export function changeParams(r) {
  const before = Math.round(r.before);
  const after = Math.round(r.after);
  return { before: String(before), after: `${after}${r.provisional ? '?' : ''}`, delta: signed(after - before) };
}

/**
 * taskKey names the i18n key of the puzzle's task: most puzzles are won by the side to
 * move; must-block and open-three puzzles ask for the defence.
 * @param {Puzzle} p
 */
export function taskKey(p) {
  if (p.category === 'must-block') return 'puz.task.block';
  if (p.category === 'open-three') return 'puz.task.defend';
  return 'puz.task.win';
}

/**
 * puzzlePath reads the puzzle id of a page path ("/puzzles/{id}"): the id, '' for the
 * trainer's own page "/puzzles", null for any other path.
 * @param {string} path
 */
export function puzzlePath(path) {
  const m = /^\/puzzles(?:\/([A-Za-z0-9_.-]{1,64}))?\/?$/.exec(path);
  if (!m) return null;
  return m[1] || '';
}
