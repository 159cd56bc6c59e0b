// @ts-check
// The hex grid's maths, as tobruk.board.hexes and tobruk.board.layout do it on the server: labels to axial
// coordinates, a hex's centre and corners on the map's SVG, and the hex under a pixel.  Pointy-topped hexes, rows
// B, D, F ... shifted half a hex east ("odd-r"), x east and y south.  No DOM here: tests/web/js runs this module
// under node and compares it with the Python side's numbers, so the page's drawing and the map's cannot drift apart.

const SQRT3 = Math.sqrt(3);
const LABEL = /^([A-Za-z]{1,2})(\d{1,3})$/;

/** @typedef {{q: number, r: number}} Axial */
/** @typedef {{size: number, originX: number, originY: number}} Layout  hex size and the pixel of A1's centre */
/** @typedef {[number, number]} Point */

/**
 * A row's letters to its index from the north: A is 0, Z 25, AA 26 (as on a spreadsheet).
 * @param {string} letters
 */
function rowIndex(letters) {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * A row index to its letters (the inverse of rowIndex).
 * @param {number} row
 */
function rowLetters(row) {
  let letters = '';
  for (let n = row + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + (n - 1) % 26) + letters;
  return letters;
}

/**
 * "C13" to the hex's axial coordinates; null for text that is no label.
 * @param {string} label
 * @returns {Axial | null}
 */
export function parse(label) {
  const m = LABEL.exec(label.trim());
  if (!m || Number(m[2]) < 1) return null;
  const row = rowIndex(m[1]), col = Number(m[2]) - 1;
  return {q: col - (row - (row & 1)) / 2, r: row};
}

/**
 * A hex's label; null north or west of A1, where no hex has one.
 * @param {Axial} hex
 * @returns {string | null}
 */
export function label({q, r}) {
  const col = q + (r - (r & 1)) / 2;
  return r < 0 || col < 0 ? null : `${rowLetters(r)}${col + 1}`;
}

/**
 * The layout of a board: its hex size and A1's centre (render/board.py sends both).
 * @param {{size: number, origin: [number, number]}} board
 * @returns {Layout}
 */
export const layoutOf = (board) => ({size: board.size, originX: board.origin[0], originY: board.origin[1]});

/**
 * The centre of the hex `label` (which need not be on the map); null for text that is no label.
 * @param {Layout} layout
 * @param {string} label
 * @returns {Point | null}
 */
export function centre(layout, label) {
  const h = parse(label);
  if (!h) return null;
  return [layout.originX + layout.size * SQRT3 * (h.q + h.r / 2), layout.originY + layout.size * 1.5 * h.r];
}

/**
 * The six corners of a hex of `size` around `middle`, clockwise from the east-north-east one (-30 degrees), as the
 * map's SVG draws them; `scale` below 1 draws a hex inside it (a layer's shade, a highlight).
 * @param {Point} middle
 * @param {number} size
 * @param {number} [scale]
 * @returns {Point[]}
 */
export function corners([x, y], size, scale = 1) {
  const s = size * scale;
  return [0, 1, 2, 3, 4, 5].map(i => {
    const a = Math.PI / 180 * (60 * i - 30);
    return /** @type {Point} */ ([x + s * Math.cos(a), y + s * Math.sin(a)]);
  });
}

/**
 * Points as an SVG `points` attribute.
 * @param {Point[]} points
 */
export const pointsAttribute = (points) => points.map(([x, y]) => `${x},${y}`).join(' ');

/**
 * The hex whose area holds the pixel (x, y): fractional axial coordinates rounded through cube coordinates.
 * @param {Layout} layout
 * @param {number} x
 * @param {number} y
 * @returns {Axial}
 */
export function hexAt(layout, x, y) {
  const px = (x - layout.originX) / layout.size, py = (y - layout.originY) / layout.size;
  return round(SQRT3 / 3 * px - py / 3, 2 / 3 * py);
}

/**
 * The hex holding fractional axial coordinates: each cube coordinate rounded, and the one rounded furthest redone
 * from the other two, so the three still sum to zero (tobruk.board.hexes.round_axial).
 * @param {number} q
 * @param {number} r
 * @returns {Axial}
 */
function round(q, r) {
  const s = -q - r;
  let rq = Math.round(q), rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return {q: rq + 0, r: rr + 0};  // (+ 0: no -0)
}
