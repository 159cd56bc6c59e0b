// @ts-check
// The counters on the map, drawn the same on the game page and the replay: nothing here knows a game system.  The
// sides' colours, each unit kind's symbol, the status words and marks all come with the board (render/board.py).

import {svgElement} from './dom.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Unit} Unit */
/** @typedef {import('./types.js').StatusWord} StatusWord */

/**
 * @param {StatusWord} s
 * @param {Unit} u
 */
const applies = (s, u) => Boolean(u[s.bit]) === s.when && (s.sides.length === 0 || s.sides.includes(u.side));

/**
 * The status words a unit shows, in the system's words ("disrupted", "spent", "inactive" ...).
 * @param {Board} board
 * @param {Unit} u
 * @returns {string[]}
 */
export const words = (board, u) => u.id ? board.statuses.filter(s => applies(s, u)).map(s => s.word) : [];

/**
 * Whether a unit is drawn faded (a status the system fades, such as spent).
 * @param {Board} board
 * @param {Unit} u
 */
const faded = (board, u) => Boolean(u.id) && board.statuses.some(s => s.faded && applies(s, u));

/**
 * The units on the map (air units stay off it) by hex, in the order given.
 * @param {Unit[]} units
 * @returns {Record<string, Unit[]>}
 */
function stacks(units) {
  /** @type {Record<string, Unit[]>} */
  const out = {};
  for (const u of units) if (u.hex && !u.eliminated) (out[u.hex] ||= []).push(u);
  return out;
}

/**
 * One counter, the i-th of its stack in `hex`: the side's colour (its edge red while a status the system calls
 * alarming is set), the id, its kind's symbol, its values with the system's marks for its statuses (the family's '*'
 * out of supply), the field the system shows beside its symbol (the steps left); a face-down enemy counter is a '?'.
 * @param {Board} board
 * @param {Element} parent
 * @param {Unit} u
 * @param {string} hex
 * @param {number} i
 */
function counter(board, parent, u, hex, i) {
  const [x, y] = board.hexes[hex], c = board.size * 0.9;
  const g = svgElement('g', {class: 'counter', 'data-hex': hex, 'data-unit': u.id || '', 'data-side': u.side}, parent);
  const gx = x - c / 2 + i * 4, gy = y - c / 2 + i * 4, unknown = !u.id;
  const alarm = board.alarms.some(a => u[a]);
  svgElement('rect', {x: gx, y: gy, width: c, height: c, rx: 2, fill: board.sides[u.side].colour,
    stroke: alarm ? '#c00' : '#222', 'stroke-width': alarm ? 2 : 0.8,
    'stroke-dasharray': u.hidden && !unknown ? '3 2' : 'none'}, g);
  const label = svgElement('text', {x: gx + c / 2, y: gy + c * 0.3, 'text-anchor': 'middle', 'font-size': 7}, g);
  label.textContent = u.id || '?';
  if (unknown) return g;
  const w = c * 0.4, shape = (u.kind && board.symbols[u.kind]) || 'none';
  svgElement('use', {href: `#shape-${shape}`, 'data-type': u.kind || '',
    transform: `translate(${gx + c / 2 - w / 2},${gy + c * 0.52 - w * 0.3}) scale(${w / 20})`}, g);
  const f = svgElement('text', {x: gx + c / 2, y: gy + c * 0.92, 'text-anchor': 'middle', 'font-size': 8}, g);
  f.textContent = u.factors + Object.entries(board.marks).filter(([status]) => u[status]).map(([, mark]) => mark).join('');
  if (board.corner && u[board.corner] != null) {
    const n = svgElement('text', {x: gx + 2, y: gy + c * 0.66, 'text-anchor': 'start', 'font-size': 7, class: 'corner'}, g);
    n.textContent = String(u[board.corner]);
  }
  const said = words(board, u);
  if (said.length) g.dataset.status = said.join(', ');
  if (faded(board, u)) g.setAttribute('opacity', '0.75');
  return g;
}

/**
 * Every counter of `units` into the group `parent` (emptied first); `onClick(u, hex)` if given.
 * @param {Board} board
 * @param {Element} parent
 * @param {Unit[]} units
 * @param {((u: Unit, hex: string) => void) | null} [onClick]
 * @returns {[SVGElement, Unit][]}
 */
export function drawCounters(board, parent, units, onClick = null) {
  parent.replaceChildren();
  /** @type {[SVGElement, Unit][]} */
  const drawn = [];
  for (const [hex, here] of Object.entries(stacks(units))) {
    here.forEach((u, i) => {
      const g = counter(board, parent, u, hex, i);
      if (onClick) g.addEventListener('click', (e) => { e.stopPropagation(); onClick(u, hex); });
      drawn.push([g, u]);
    });
  }
  return drawn;
}
