// @ts-check
// tobruk's board on a page: the map's SVG and the board data the server sends with it, and what is drawn over the
// map besides counters (counters.js): the layers a system sends, highlighted hexes, a hex flashed from the log.
// Nothing here knows a game: where each hex is, which hexes touch, the sides' colours and the status words all come
// from /api/map/<scenario>.json, built from the map and the system's rendering.

import * as api from './api.js';
import {svgElement} from './dom.js';
import {corners, pointsAttribute} from './hexgrid.js';
import {drawThreats, showWarning} from './threats.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Layer} Layer */
/** @typedef {import('./types.js').Summary} Summary */
/** @typedef {import('./types.js').Threat} Threat */

/**
 * The map of a scenario into `holder`: the board data and the map's <svg>.
 * @param {HTMLElement} holder
 * @param {string} scenario
 * @returns {Promise<[Board, SVGSVGElement]>}
 */
export async function load(holder, scenario) {
  const [svgText, board] = await api.map(scenario);
  holder.innerHTML = svgText;
  const svg = holder.querySelector('svg');
  if (!svg) throw new Error(`the map of ${scenario} is no SVG`);
  board.passableSet = new Set(board.passable || []);
  return [board, svg];
}

/**
 * The corners of the hex `label` as an SVG `points` attribute, `scale` times its size (below 1: inside the hex).
 * @param {Board} board
 * @param {string} label
 * @param {number} [scale]
 */
export const hexPoints = (board, label, scale = 1) => pointsAttribute(corners(board.hexes[label], board.size, scale));

/**
 * A line through hexes' centres as an SVG `points` attribute.
 * @param {Board} board
 * @param {string[]} hexes
 */
export const linePoints = (board, hexes) => hexes.map(h => board.hexes[h].join(',')).join(' ');

/**
 * A hex outlined for a moment, in `parent` (a hex or unit named in the log, clicked).
 * @param {Board} board
 * @param {Element} parent
 * @param {string} hex
 */
export function flash(board, parent, hex) {
  const p = svgElement('polygon', {points: hexPoints(board, hex), class: 'flash', 'data-flash': hex}, parent);
  setTimeout(() => p.remove(), 1200);
}

// --- layers -------------------------------------------------------------------------------------------------
// The layers the system sends for a side (its enemy's zones of control, its supply lines ...; the objectives are rings,
// always drawn, not a layer), each drawn while its box is ticked.

/** The keys of the layers met so far: a layer the system sends `shown` is ticked when first met, then left to the player. */
const met = new Set();
/** @param {Layer} layer */
const isEmpty = (layer) => !(layer.hexes || []).length && !(layer.lines || []).length;

/**
 * A box to tick for each layer into `box`; `onChange` once `shown` (the keys of the layers ticked) has changed.
 * @param {HTMLElement} box
 * @param {Layer[]} layers
 * @param {Set<string>} shown
 * @param {() => void} onChange
 */
export function layerBoxes(box, layers, shown, onChange) {
  box.replaceChildren();
  for (const layer of layers) {
    if (!met.has(layer.key)) { met.add(layer.key); if (layer.shown) shown.add(layer.key); }  // drawn from the start if the system says
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox'; input.dataset.layer = layer.key; input.checked = shown.has(layer.key);
    input.onchange = () => { if (input.checked) shown.add(layer.key); else shown.delete(layer.key); onChange(); };
    label.append(input, ` ${layer.title}`);
    if (isEmpty(layer)) {  // (the supply lines before the first supply phase): said, not left blank
      const note = document.createElement('span');
      note.className = 'layer-empty'; note.dataset.emptyLayer = layer.key; note.textContent = ' (nothing to show yet)';
      label.title = `${layer.title}: nothing to show yet`;
      label.appendChild(note);
    }
    box.appendChild(label);
  }
}

/**
 * The layers ticked, into the group `parent`, and, always, the ring round each of the side's objectives the enemy could
 * reach next with the warning line into `warning` (threats.js).  A layer shades only the hexes a unit may enter (the
 * board's passable hexes: no zone of control at sea).
 * @param {Board} board
 * @param {Element} parent
 * @param {Layer[]} layers
 * @param {Set<string>} shown
 * @param {Threat[]} [threats]
 * @param {HTMLElement | null} [warning]
 */
export function drawLayers(board, parent, layers, shown, threats = [], warning = null) {
  drawThreats(board, parent, threats);
  if (warning) showWarning(warning, threats);
  const passable = (/** @type {string} */ h) => Boolean(board.hexes[h]) && (!board.passable || Boolean(board.passableSet?.has(h)));
  for (const layer of layers) {
    if (!shown.has(layer.key)) continue;
    if (layer.kind === 'hexes') {
      for (const h of layer.hexes || []) if (passable(h))
        svgElement('polygon', {points: hexPoints(board, h, 0.95), class: 'layer', fill: layer.colour, 'data-layer': layer.key, 'data-hex': h}, parent);
    } else {
      for (const line of layer.lines || []) if (line.every(h => board.hexes[h]))
        svgElement('polyline', {points: linePoints(board, line), class: 'layer-line', stroke: layer.colour, 'data-layer': layer.key}, parent);
    }
  }
}

// --- words --------------------------------------------------------------------------------------------------

/**
 * The turn's notes as the status line shows them: "weather: clear", "date: 3 July 1942".
 * @param {Record<string, string> | undefined} n
 */
export const notes = (n) => Object.entries(n || {}).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`).join(' · ');

/**
 * A finished game's result for people: the system's lines, or the winner and the level.
 * @param {Board} board
 * @param {Summary} summary
 */
export function result(board, summary) {
  const who = summary.winner ? board.sides[summary.winner].name : 'Nobody';
  return summary.lines.length ? summary.lines.join('\n') : `${who}: ${summary.level}`;
}

/**
 * Scroll the map's pane so the middle of these elements (a side's counters) is in view: a big map (thousands of
 * hexes) opens where the side's units stand, not at its north-west corner.  Nothing moves when they are all in
 * view already, or when there are none.
 * @param {HTMLElement} pane
 * @param {Iterable<Element>} elements
 */
export function lookAt(pane, elements) {
  const boxes = [...elements].map(e => e.getBoundingClientRect());
  if (!boxes.length) return;
  const view = pane.getBoundingClientRect();
  const left = Math.min(...boxes.map(b => b.left)), right = Math.max(...boxes.map(b => b.right));
  const top = Math.min(...boxes.map(b => b.top)), bottom = Math.max(...boxes.map(b => b.bottom));
  if (left >= view.left && right <= view.right && top >= view.top && bottom <= view.bottom) return;
  pane.scrollLeft += (left + right) / 2 - (view.left + view.right) / 2;
  pane.scrollTop += (top + bottom) / 2 - (view.top + view.bottom) / 2;
}
