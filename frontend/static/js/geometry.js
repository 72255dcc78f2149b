// @ts-check
// geometry.js: board geometry and renju notation (pure).
// Coordinates: x = column from the left (0-based), y = row from the bottom (0-based).
// Notation: column letter a.. (no letter skipped), row number 1.. from the bottom: h8.

export const MIN_SIZE = 15;
export const MAX_SIZE = 20;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** colLetter returns the column letter of x. */
export function colLetter(x) {
  return LETTERS[x];
}

/** toNotation converts (x, y) to a point name like "h8". */
export function toNotation(x, y) {
  return `${LETTERS[x]}${y + 1}`;
}

/** parseNotation converts "h8" to {x, y}, or null if malformed or off a board of `size`. */
export function parseNotation(s, size = MAX_SIZE) {
  if (typeof s !== 'string') return null;
  const m = /^([a-z])([1-9][0-9]?)$/.exec(s.trim().toLowerCase());
  if (!m) return null;
  const x = LETTERS.indexOf(m[1]);
  const y = Number(m[2]) - 1;
  if (x < 0 || x >= size || y < 0 || y >= size) return null;
  return { x, y };
}

/** STONE_RADIUS is a stone's radius in cells. */
export const STONE_RADIUS = 0.46;

/**
 * layout returns the drawing geometry for a board of `size` in a square viewBox of `px` units:
 * margin (room for coordinates outside the edge stones) and cell (distance between lines).
 */
export function layout(size, px = 1000) {
  const margin = px * 0.075;
  const cell = (px - 2 * margin) / (size - 1);
  return { size, px, margin, cell };
}

/**
 * coordLabels returns where the coordinate labels go: their font size and the centre lines
 * of the four rows of labels, in the middle of the strip between the edge stones and the
 * board's border (so that no stone on row 1 or column a covers one).
 * @param {{px: number, margin: number, cell: number}} geo
 */
export function coordLabels(geo) {
  const fontSize = Math.min(geo.px * 0.026, geo.cell * 0.42);
  const strip = geo.margin - geo.cell * STONE_RADIUS;
  return { fontSize, top: strip / 2, bottom: geo.px - strip / 2, left: strip / 2, right: geo.px - strip / 2 };
}

/** pointToPixel returns the centre of intersection (x, y) in viewBox units. */
export function pointToPixel(x, y, geo) {
  return {
    px: geo.margin + x * geo.cell,
    py: geo.margin + (geo.size - 1 - y) * geo.cell,
  };
}

/**
 * pixelToPoint returns the intersection nearest to viewBox point (px, py), or null when the
 * point is further than `snap` cells (default 0.5) from it or off the board.
 */
export function pixelToPoint(px, py, geo, snap = 0.5) {
  const fx = (px - geo.margin) / geo.cell;
  const fy = (geo.size - 1) - (py - geo.margin) / geo.cell;
  const x = Math.round(fx);
  const y = Math.round(fy);
  if (x < 0 || y < 0 || x >= geo.size || y >= geo.size) return null;
  if (Math.abs(fx - x) > snap || Math.abs(fy - y) > snap) return null;
  return { x, y };
}

/** starPoints returns the star points (hoshi) of a board of `size`. */
export function starPoints(size) {
  const d = 3;
  const lo = d;
  const hi = size - 1 - d;
  const pts = [
    { x: lo, y: lo }, { x: lo, y: hi }, { x: hi, y: lo }, { x: hi, y: hi },
  ];
  if (size % 2 === 1) pts.push({ x: (size - 1) / 2, y: (size - 1) / 2 });
  return pts;
}

/** centre returns the centre point (rounded down for even sizes). */
export function centre(size) {
  return { x: Math.floor((size - 1) / 2), y: Math.floor((size - 1) / 2) };
}

/**
 * moveCursor moves a keyboard cursor by an arrow key name ("ArrowUp", ...), staying on board.
 * ArrowUp goes towards higher row numbers (up on screen).
 */
export function moveCursor(cur, key, size) {
  const d = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
  if (!d) return cur;
  return {
    x: Math.min(size - 1, Math.max(0, cur.x + d[0])),
    y: Math.min(size - 1, Math.max(0, cur.y + d[1])),
  };
}
