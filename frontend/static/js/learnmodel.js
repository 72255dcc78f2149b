// @ts-check
// learnmodel.js: the classroom page's pure logic: move lists, value formatting, the
// comparison summary and the explanation of alpha-beta cuts (docs/protocol.md, "Classroom").
import { parseNotation, toNotation } from './geometry.js';

/**
 * @typedef {{x: number, y: number}} Pt
 * @typedef {import('./protocol.js').Color} Color
 * @typedef {{mode: string, nodes: number, time_ms: number, complete: boolean, stopped?: string, move?: string, value?: number}} LearnMode
 * @typedef {{depth: number, to_move: string, win: number, node_cap: number, time_cap_ms: number, modes: LearnMode[]}} LearnCompare
 * @typedef {{move?: string, max: boolean, alpha: number, beta: number, value: number, leaf?: boolean, terminal?: boolean,
 *   best: number, cut?: boolean, cut_by?: string, pruned?: string[], children?: LearnNode[]}} LearnNode
 * @typedef {{kind: 'win' | 'loss' | 'inf' | 'num', plies?: number, n?: number}} Val
 */

/**
 * parseMoves reads a move list in renju notation ("h8i9j7", "h8 i9, j7") for a board of
 * `size`: {moves} or {error, at} (the unreadable text or the repeated point).
 * @param {string} text
 * @param {number} size
 * @returns {{moves: Pt[]} | {error: 'syntax' | 'occupied', at: string}}
 */
export function parseMoves(text, size) {
  const moves = [];
  const seen = new Set();
  const s = text.trim().toLowerCase();
  const re = /[\s,;]*([a-z][0-9]{1,2})/y;
  let i = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) {
      if (/^[\s,;]*$/.test(s.slice(i))) break;
      return { error: 'syntax', at: s.slice(i).trim().slice(0, 8) };
    }
    // Two digits only when the point exists ("h15" on 15, but "h1" then "5…" is nonsense).
    let tok = m[1];
    let p = parseNotation(tok, size);
    if (!p && tok.length === 3) {
      tok = tok.slice(0, 2);
      p = parseNotation(tok, size);
    }
    if (!p) return { error: 'syntax', at: tok };
    const key = `${p.x},${p.y}`;
    if (seen.has(key)) return { error: 'occupied', at: tok };
    seen.add(key);
    moves.push(p);
    i = re.lastIndex - (m[1].length - tok.length);
  }
  return { moves };
}

/**
 * formatMoves writes a move list as packed notation ("h8i9j7").
 * @param {Pt[]} moves
 */
export function formatMoves(moves) {
  return moves.map((p) => toNotation(p.x, p.y)).join('');
}

/**
 * stonesOf colours a move list (black first) for the board view; the last move is marked.
 * @param {Pt[]} moves
 * @returns {{stones: {x: number, y: number, color: Color, n: number}[], last: Pt | null, toMove: Color}}
 */
export function stonesOf(moves) {
  return {
    stones: moves.map((p, i) => ({ x: p.x, y: p.y, color: i % 2 === 0 ? 'black' : 'white', n: i + 1 })),
    last: moves.length ? moves[moves.length - 1] : null,
    toMove: moves.length % 2 === 0 ? 'black' : 'white',
  };
}

/**
 * valueOf reads a search value: a win or loss in n plies (within 1000 of ±win), an
 * infinite bound (beyond ±win: the initial window), or a number of pattern points.
 * @param {number} v
 * @param {number} win
 * @returns {Val}
 */
export function valueOf(v, win) {
  if (v > win || v < -win) return { kind: 'inf', n: Math.sign(v) };
  if (v > win - 1000) return { kind: 'win', plies: win - v };
  if (v < -win + 1000) return { kind: 'loss', plies: v + win };
  return { kind: 'num', n: v };
}

/**
 * summary compares the modes with plain minimax: whether every finished mode found
 * minimax's value, and each mode's nodes as a fraction of minimax's (null when minimax
 * did not finish, since its count is then only a lower bound).
 * @param {LearnCompare} res
 */
export function summary(res) {
  const ref = res.modes.find((m) => m.complete);
  const agree = res.modes.every((m) => !m.complete || !ref || m.value === ref.value);
  const mm = res.modes[0];
  const ratios = res.modes.map((m) => (mm && mm.complete && mm.nodes > 0 ? m.nodes / mm.nodes : null));
  return { agree, ratios, allComplete: res.modes.every((m) => m.complete) };
}

/**
 * cutReason explains a node's cut for the i18n table: at a max node the value reached
 * beta (the min player above will never allow this line), at a min node it fell to alpha.
 * Returns null for a node without a cut.
 * @param {LearnNode} n
 * @returns {{key: string, bound: number, value: number, pruned: string[]} | null}
 */
export function cutReason(n) {
  if (!n.cut) return null;
  const pruned = n.pruned || [];
  return n.max
    ? { key: 'learn.cut.beta', bound: n.beta, value: n.value, pruned }
    : { key: 'learn.cut.alpha', bound: n.alpha, value: n.value, pruned };
}

/**
 * countTree counts a tree's nodes, cut nodes and pruned candidates.
 * @param {LearnNode} root
 */
export function countTree(root) {
  let nodes = 0;
  let cuts = 0;
  let pruned = 0;
  const walk = (/** @type {LearnNode} */ n) => {
    nodes++;
    if (n.cut) { cuts++; pruned += (n.pruned || []).length; }
    for (const c of n.children || []) walk(c);
  };
  walk(root);
  return { nodes, cuts, pruned };
}

/**
 * pathMoves returns the moves from the root to the node at `path` (child indexes).
 * @param {LearnNode} root
 * @param {number[]} path
 */
export function pathMoves(root, path) {
  const out = [];
  let n = root;
  for (const i of path) {
    n = (n.children || [])[i];
    if (!n) break;
    if (n.move) out.push(n.move);
  }
  return out;
}

/**
 * @typedef {{color: string, stones: string[], open: number, kind: string, score: number}} LearnPattern
 * @typedef {{to_move: string, black: number, white: number, value: number, weights: Record<string, number>, patterns: LearnPattern[]}} LearnEval
 */

/** KINDS orders the pattern kinds from the strongest. */
export const KINDS = ['five', 'open_four', 'four', 'open_three', 'closed_three', 'open_two', 'closed_two'];

/**
 * evalRows orders the patterns for the table: the side to move's first, then by
 * strength, then by board order; and the formula's terms from the side to move's view.
 * @param {LearnEval} ev
 */
export function evalRows(ev) {
  const own = ev.to_move;
  const rows = [...ev.patterns].sort((a, b) => (a.color === own ? 0 : 1) - (b.color === own ? 0 : 1)
    || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
  const ownTotal = own === 'black' ? ev.black : ev.white;
  const oppTotal = own === 'black' ? ev.white : ev.black;
  return { rows, own, ownTotal, oppTotal, value: ev.value, check: 10 * ownTotal - 12 * oppTotal === ev.value };
}
