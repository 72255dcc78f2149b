// rules.js: five detection and renju forbidden points for display (pure).
// The server is the authority; this module only helps the page show things early.
// Board: { size, cells: Int8Array(size*size) } with 0 empty, 1 black, 2 white; index y*size+x.

export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;
const DIRS = [[1, 0], [0, 1], [1, 1], [1, -1]];

/** colorCode maps "black"/"white" to BLACK/WHITE. */
export function colorCode(c) {
  return c === 'black' ? BLACK : c === 'white' ? WHITE : EMPTY;
}

/** newBoard returns an empty board. */
export function newBoard(size) {
  return { size, cells: new Int8Array(size * size) };
}

/** at returns the stone at (x, y), or -1 off the board. */
export function at(b, x, y) {
  if (x < 0 || y < 0 || x >= b.size || y >= b.size) return -1;
  return b.cells[y * b.size + x];
}

/** set puts colour c at (x, y). */
export function set(b, x, y, c) {
  b.cells[y * b.size + x] = c;
}

/** runLength counts the stones of colour c through (x, y) along (dx, dy), (x, y) included. */
function runLength(b, x, y, dx, dy, c) {
  let n = 1;
  let i = x + dx;
  let j = y + dy;
  while (at(b, i, j) === c) { n++; i += dx; j += dy; }
  i = x - dx; j = y - dy;
  while (at(b, i, j) === c) { n++; i -= dx; j -= dy; }
  return n;
}

/** runPoints lists the stones of the run through (x, y) along (dx, dy). */
function runPoints(b, x, y, dx, dy, c) {
  const pts = [{ x, y }];
  let i = x + dx; let j = y + dy;
  while (at(b, i, j) === c) { pts.push({ x: i, y: j }); i += dx; j += dy; }
  i = x - dx; j = y - dy;
  while (at(b, i, j) === c) { pts.unshift({ x: i, y: j }); i -= dx; j -= dy; }
  return pts;
}

/**
 * winsWith tells whether a run of length n wins for colour c under rule:
 * freestyle: 5 or more; standard: exactly 5; renju: exactly 5 for black, 5 or more for white.
 */
export function winsWith(n, c, rule) {
  if (n < 5) return false;
  if (rule === 'freestyle') return true;
  if (rule === 'renju' && c === WHITE) return true;
  return n === 5;
}

/**
 * winningLine returns the winning stones through the stone at (x, y) under rule, or null.
 * The stone must already be on the board.
 */
export function winningLine(b, x, y, rule) {
  const c = at(b, x, y);
  if (c !== BLACK && c !== WHITE) return null;
  for (const [dx, dy] of DIRS) {
    const n = runLength(b, x, y, dx, dy, c);
    if (winsWith(n, c, rule)) return runPoints(b, x, y, dx, dy, c);
  }
  return null;
}

/** isFull tells whether no empty point is left. */
export function isFull(b) {
  return b.cells.every((v) => v !== EMPTY);
}

// --- renju forbidden points (black only) ---

/** fivePoints lists empty points q on the line through (x, y) along (dx, dy) where black makes exactly five. */
function fivePointsInDir(b, x, y, dx, dy) {
  const out = [];
  for (let k = -4; k <= 4; k++) {
    if (k === 0) continue;
    const qx = x + k * dx;
    const qy = y + k * dy;
    if (at(b, qx, qy) !== EMPTY) continue;
    set(b, qx, qy, BLACK);
    const n = runLength(b, qx, qy, dx, dy, BLACK);
    // the five must include (x, y)
    const includes = n === 5 && runPoints(b, qx, qy, dx, dy, BLACK).some((p) => p.x === x && p.y === y);
    set(b, qx, qy, EMPTY);
    if (includes) out.push(k);
  }
  return out;
}

/** foursInDir counts the fours black has through (x, y) along one direction (0, 1 or 2). */
function foursInDir(b, x, y, dx, dy) {
  const ks = fivePointsInDir(b, x, y, dx, dy);
  if (ks.length === 0) return 0;
  if (ks.length === 2 && Math.abs(ks[0] - ks[1]) === 5) return 1; // straight (open) four
  return Math.min(2, ks.length);
}

/** isStraightFour tells whether black has an open four through (x, y) along the direction. */
function isStraightFour(b, x, y, dx, dy) {
  const ks = fivePointsInDir(b, x, y, dx, dy);
  return ks.length === 2 && Math.abs(ks[0] - ks[1]) === 5;
}

/**
 * isOpenThreeInDir tells whether the black stone at (x, y) forms a real three along the
 * direction: some empty point on the line turns it into a straight four, and that point is not
 * itself forbidden (checked recursively up to `depth`).
 */
function isOpenThreeInDir(b, x, y, dx, dy, depth) {
  for (let k = -4; k <= 4; k++) {
    if (k === 0) continue;
    const qx = x + k * dx;
    const qy = y + k * dy;
    if (at(b, qx, qy) !== EMPTY) continue;
    set(b, qx, qy, BLACK);
    const straight = isStraightFour(b, qx, qy, dx, dy) && runLength(b, qx, qy, dx, dy, BLACK) === 4 &&
      runPoints(b, qx, qy, dx, dy, BLACK).some((p) => p.x === x && p.y === y);
    set(b, qx, qy, EMPTY);
    if (straight && (depth <= 0 || !forbiddenReason(b, qx, qy, depth - 1))) return true;
  }
  return false;
}

/**
 * forbiddenReason returns "overline", "double_four", "double_three" or "" for a black stone at
 * the empty point (x, y) under renju. A move that makes exactly five is never forbidden.
 */
export function forbiddenReason(b, x, y, depth = 2) {
  if (at(b, x, y) !== EMPTY) return '';
  set(b, x, y, BLACK);
  try {
    let overline = false;
    for (const [dx, dy] of DIRS) {
      const n = runLength(b, x, y, dx, dy, BLACK);
      if (n === 5) return '';
      if (n > 5) overline = true;
    }
    if (overline) return 'overline';
    let fours = 0;
    const fourDir = [false, false, false, false];
    DIRS.forEach(([dx, dy], i) => {
      const f = foursInDir(b, x, y, dx, dy);
      fours += f;
      fourDir[i] = f > 0;
    });
    if (fours >= 2) return 'double_four';
    let threes = 0;
    DIRS.forEach(([dx, dy], i) => {
      if (!fourDir[i] && isOpenThreeInDir(b, x, y, dx, dy, depth)) threes++;
    });
    if (threes >= 2) return 'double_three';
    return '';
  } finally {
    set(b, x, y, EMPTY);
  }
}

/** hasNeighbour tells whether some black stone lies within 4 points in a line direction. */
function nearBlack(b, x, y) {
  for (const [dx, dy] of DIRS) {
    for (let k = -4; k <= 4; k++) {
      if (k !== 0 && at(b, x + k * dx, y + k * dy) === BLACK) return true;
    }
  }
  return false;
}

/** forbiddenPoints lists every forbidden point for black as {x, y, reason}. */
export function forbiddenPoints(b) {
  const out = [];
  for (let y = 0; y < b.size; y++) {
    for (let x = 0; x < b.size; x++) {
      if (at(b, x, y) !== EMPTY || !nearBlack(b, x, y)) continue;
      const reason = forbiddenReason(b, x, y);
      if (reason) out.push({ x, y, reason });
    }
  }
  return out;
}

/** boardFrom builds a board from a list of {x, y, color} (color "black"/"white" or 1/2). */
export function boardFrom(size, stones) {
  const b = newBoard(size);
  for (const s of stones) set(b, s.x, s.y, typeof s.color === 'string' ? colorCode(s.color) : s.color);
  return b;
}

/** boardFromRows builds a board from text rows, top row first: "x" black, "o" white, "." empty. */
export function boardFromRows(rows) {
  const size = rows.length;
  const b = newBoard(size);
  rows.forEach((row, i) => {
    const y = size - 1 - i;
    [...row.replace(/\s+/g, '')].forEach((ch, x) => {
      if (ch === 'x' || ch === 'X') set(b, x, y, BLACK);
      if (ch === 'o' || ch === 'O') set(b, x, y, WHITE);
    });
  });
  return b;
}
