// @ts-check
// analyzemodel.js: the analysis board's pure logic: the tree of variations, free
// placement, the share link, server-sent event parsing and score text
// (docs/protocol.md, "Analysis board").

/**
 * @typedef {{x: number, y: number}} Pt
 * @typedef {{move: Pt | null, children: VNode[]}} VNode
 * @typedef {{move: string, score: number, mate?: number, depth: number, pv: string[]}} Line
 */

/** newTree returns a tree whose main line is moves. @param {Pt[]} moves @returns {VNode} */
export function newTree(moves = []) {
  /** @type {VNode} */
  const root = { move: null, children: [] };
  let n = root;
  for (const m of moves) {
    const c = { move: m, children: [] };
    n.children.push(c);
    n = c;
  }
  return root;
}

/** nodeAt follows path (child indexes) from root. @param {VNode} root @param {number[]} path */
export function nodeAt(root, path) {
  let n = root;
  for (const i of path) n = n.children[i];
  return n;
}

/** movesAt lists the moves from root along path. @param {VNode} root @param {number[]} path @returns {Pt[]} */
export function movesAt(root, path) {
  const out = [];
  let n = root;
  for (const i of path) {
    n = n.children[i];
    out.push(/** @type {Pt} */ (n.move));
  }
  return out;
}

/**
 * play plays p after the node at path: into the existing child with that move, else a
 * new variation. It returns the new path.
 * @param {VNode} root @param {number[]} path @param {Pt} p
 */
export function play(root, path, p) {
  const n = nodeAt(root, path);
  let i = n.children.findIndex((c) => c.move && c.move.x === p.x && c.move.y === p.y);
  if (i < 0) {
    n.children.push({ move: p, children: [] });
    i = n.children.length - 1;
  }
  return [...path, i];
}

/** forward steps into the first child (the main line of the node), or stays. @param {VNode} root @param {number[]} path */
export function forward(root, path) {
  return nodeAt(root, path).children.length ? [...path, 0] : path;
}

/** end follows the first children to the end of the line. @param {VNode} root @param {number[]} path */
export function end(root, path) {
  let p = path;
  for (let q = forward(root, p); q !== p; q = forward(root, p)) p = q;
  return p;
}

/**
 * interleave orders free-placed stones as moves (black, white, black, …): as many
 * white as black, or one black more; null otherwise.
 * @param {Pt[]} black @param {Pt[]} white @returns {Pt[] | null}
 */
export function interleave(black, white) {
  if (black.length !== white.length && black.length !== white.length + 1) return null;
  const out = [];
  black.forEach((b, i) => { out.push(b); if (i < white.length) out.push(white[i]); });
  return out;
}

/**
 * shareURL is the page's link for a position.
 * @param {string} moves packed notation @param {string} rule @param {number} size
 */
export function shareURL(moves, rule, size) {
  const q = new URLSearchParams({ moves });
  if (rule !== 'freestyle') q.set('rule', rule);
  if (size !== 15) q.set('size', String(size));
  return `/analysis?${q}`;
}

/**
 * parseEvents splits server-sent event text into complete events and the unfinished
 * rest (to prepend to the next chunk).
 * @param {string} text
 * @returns {{events: {name: string, data: any}[], rest: string}}
 */
export function parseEvents(text) {
  const events = [];
  const blocks = text.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const b of blocks) {
    let name = 'message';
    const data = [];
    for (const line of b.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (!data.length) continue;
    try { events.push({ name, data: JSON.parse(data.join('\n')) }); } catch { /* not JSON: skip */ }
  }
  return { events, rest };
}

/**
 * scoreText writes a line's score for the side to move: "+1.25", "−0.40", "#5" (wins in
 * 5 plies), "−#4" (loses in 4).
 * @param {Line} line
 */
export function scoreText(line) {
  if (line.mate) return line.mate > 0 ? `#${line.mate}` : `−#${-line.mate}`;
  const v = line.score / 100;
  return v >= 0 ? `+${v.toFixed(2)}` : `−${(-v).toFixed(2)}`;
}
