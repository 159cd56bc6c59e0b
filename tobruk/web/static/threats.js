// @ts-check
// The warning when the enemy could reach one of the seat's objectives in its next move: a ring round each such
// objective on the map and a line saying which, why it matters (its rule) and who could get there.  The server works
// the threats out from what the seat's side may know (engine/objectives.py); the ring's look comes with the board.

import {svgElement} from './dom.js';
import {corners, pointsAttribute} from './hexgrid.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Threat} Threat */

/**
 * A ring round each threatened objective, into the group `parent`.
 * @param {Board} board
 * @param {Element} parent
 * @param {Threat[]} threats
 */
export function drawThreats(board, parent, threats) {
  const ring = board.threat || {colour: '#e00000', width: 3.5, scale: 0.92, dashes: '5 3'};
  for (const t of threats) {
    if (!board.hexes[t.hex]) continue;
    const p = svgElement('polygon', {
      points: pointsAttribute(corners(board.hexes[t.hex], board.size, ring.scale)), class: 'threat', fill: 'none', stroke: ring.colour,
      'stroke-width': String(ring.width), 'stroke-dasharray': ring.dashes, 'data-mark': 'threatened', 'data-threat': t.hex,
    }, parent);
    svgElement('title', {}, p).textContent = describe(t);
  }
}

/**
 * One threat for people: the hex, what it counts for and its rule, and the units that could reach it (by id, the
 * reinforcements with the turn they arrive, the face-down ones counted), then those that could only under a condition
 * the system words, grouped under it ("if activated (its rule) by 2 of X, Y, Z").  The terminal words it the same way
 * (Threat.describe, engine/system.py).
 * @param {Threat} t
 */
export function describe(t) {
  const conditional = t.conditional || [];
  const held = new Set(conditional.flatMap((c) => c.units));
  const who = [...t.units.filter((u) => !held.has(u)), ...(t.arriving || []).map((a) => `${a.unit} (arriving ${a.when})`)];
  if (t.unseen) who.push(t.unseen === 1 ? 'a face-down counter' : `${t.unseen} face-down counters`);
  const parts = who.length ? [`by ${who.join(', ')}`] : [];
  for (const c of conditional) {
    const some = c.most !== null && c.most < c.units.length ? `${c.most} of ` : '';
    parts.push(`${c.words} (${c.clause}) by ${some}${c.units.join(', ')}`);
  }
  return `${t.hex} (${t.name}, ${t.clause}) could be reached ${parts.join('; ')}`;
}

/**
 * The warning line into `box` (emptied and hidden when nothing is threatened).
 * @param {HTMLElement} box
 * @param {Threat[]} threats
 */
export function showWarning(box, threats) {
  box.hidden = !threats.length;
  box.textContent = threats.length ? `Threatened in the enemy's next move: ${threats.map(describe).join('; ')}.` : '';
}
