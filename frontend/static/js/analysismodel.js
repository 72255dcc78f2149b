// @ts-check
// analysismodel.js: the post-game analysis as the page draws it (pure: node-tested).
// The server's answer is docs/protocol.md "Analysis": positions[i] is the position after
// i moves, with black's win probability, the engine's best move and line, and the mark of
// the move played from it.
import { parseNotation } from './geometry.js';

/**
 * @typedef {{ply: number, to_move: string, score: number, mate?: number, black: number, best?: string,
 *   pv?: string[], depth?: number, forced?: {kind: string, plies: number, line: string[]},
 *   played?: string, mark?: string, drop?: number}} APosition
 * @typedef {{status: string, total: number, moves: string[], positions: APosition[], budget_ms?: number}} AResult
 */

/** MARKS are the marks of a move, worst first. */
export const MARKS = ['missed_win', 'unanswered', 'blunder', 'mistake'];

/**
 * graphPoints places each analysed position on a w×h graph: x by ply over the whole game,
 * y by black's win probability (black winning at the top).
 * @param {AResult} r
 * @param {number} w
 * @param {number} h
 * @returns {{x: number, y: number, ply: number, mark: string}[]}
 */
export function graphPoints(r, w, h) {
  const span = Math.max(1, r.total - 1);
  return r.positions.map((p) => ({
    x: round((p.ply / span) * w), y: round((1 - clamp(p.black)) * h), ply: p.ply, mark: p.mark || '',
  }));
}

/**
 * graphPaths returns the SVG path of the evaluation line and of black's area under it.
 * @param {{x: number, y: number}[]} pts
 * @param {number} h
 */
export function graphPaths(pts, h) {
  if (!pts.length) return { line: '', area: '' };
  const line = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join('');
  const last = pts[pts.length - 1];
  return { line, area: `M${pts[0].x} ${h}${line.replace(/^M/, 'L')}L${last.x} ${h}Z` };
}

/**
 * plyAt is the ply under x on a graph of width w (a click on the graph).
 * @param {number} x
 * @param {number} w
 * @param {number} total positions
 */
export function plyAt(x, w, total) {
  const span = Math.max(1, total - 1);
  return Math.max(0, Math.min(total - 1, Math.round((x / w) * span)));
}

/**
 * marked lists the marked moves in order: {ply (the position it was played from), n (its
 * move number), point, mark, color}.
 * @param {AResult} r
 */
export function marked(r) {
  return r.positions.filter((p) => p.mark).map((p) => ({
    ply: p.ply, n: p.ply + 1, point: p.played || '', mark: /** @type {string} */ (p.mark), color: p.to_move,
  }));
}

/**
 * counts are the marks per colour: {black: {mistake: 1, …}, white: {…}}.
 * @param {AResult} r
 */
export function counts(r) {
  /** @type {Record<string, Record<string, number>>} */
  const c = { black: {}, white: {} };
  for (const m of marked(r)) c[m.color][m.mark] = (c[m.color][m.mark] || 0) + 1;
  return c;
}

/**
 * overlay is what the board shows of the analysis at the position after n moves: the
 * engine's best move (hint) and, when asked, its line as numbered stones.
 * @param {AResult | null} r
 * @param {number} n
 * @param {number} size
 * @param {boolean} showLine
 * @returns {{hint: {x: number, y: number} | null, pv: {x: number, y: number, color: import('./protocol.js').Color, n: number}[]}}
 */
export function overlay(r, n, size, showLine) {
  const p = r && r.positions[n];
  if (!p || !p.best) return { hint: null, pv: [] };
  const hint = parseNotation(p.best, size);
  const pv = [];
  if (showLine) {
    /** @type {import('./protocol.js').Color} */
    const mover = p.to_move === 'white' ? 'white' : 'black';
    const other = mover === 'black' ? 'white' : 'black';
    for (const [i, q] of (p.pv || []).entries()) {
      const xy = q ? parseNotation(q, size) : null;
      if (xy && pv.length < 12) pv.push({ ...xy, color: i % 2 === 0 ? mover : other, n: i + 1 });
    }
  }
  return { hint, pv };
}

/**
 * follow is what the panel does after reading an analysis in status: 'done' (nothing
 * more), 'start' (a stopped analysis is resumed by asking again), or while it is queued
 * or runs: 'wait' (the open stream brings the next state), 'stream' (open one: GET
 * .../analysis/stream) or 'poll' (read it again in a second: the browser has no
 * EventSource, or a stream failed).
 * @param {string} status
 * @param {'open' | 'closed' | 'failed'} stream the panel's stream
 * @returns {'done' | 'start' | 'wait' | 'stream' | 'poll'}
 */
export function follow(status, stream) {
  if (status === 'done') return 'done';
  if (status === 'stopped') return 'start';
  if (stream === 'open') return 'wait';
  return stream === 'closed' ? 'stream' : 'poll';
}

/**
 * percent formats black's win probability.
 * @param {number} p
 */
export function percent(p) {
  return `${Math.round(clamp(p) * 100)}%`;
}

/** @param {number} v */
function clamp(v) {
  return Math.max(0, Math.min(1, Number.isFinite(v) ? v : 0.5));
}

/** @param {number} v */
function round(v) {
  return Math.round(v * 10) / 10;
}
