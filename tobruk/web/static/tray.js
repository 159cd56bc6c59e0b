// @ts-check
// The trays beside the map: each side's counters that are off it, drawn as the map draws them (counters.js).  A side
// sets up or brings on its arrivals as at the table: it picks a counter in its tray, the hexes where it may go are lit
// on the map (the unit's unit-hex actions the server lists, legal.js), and a click on one sends that action's id.
// What a tray holds is what the seat's view sends and nothing more: the other side's tray shows only the counters the
// view gives this seat (a counter it may not know of, one set up face down, is not in its view at all), and which
// of the seat's own counters may be placed now is read from its legal actions, not from any rule of the page.

import {counterAt, counterSide, withTip} from './counters.js';
import {htmlElement, svgElement} from './dom.js';
import {formsOf} from './legal.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Unit} Unit */

/** Room around a counter in its tray picture, in the map's pixels: enough for the status discs on its right edge. */
const MARGIN = 8;

/** The sides whose counters kept off the map (folded away at first) the player has unfolded: they stay so as the trays are drawn again. */
const unfolded = new Set();

/**
 * Whether a unit is off the map and still in the game: waiting to be set up, to arrive, or kept off the map (an air
 * unit).
 * @param {Unit} u
 */
const offMap = (u) => !u.hex && !u.eliminated;

/**
 * One counter of a tray: a small picture of it, `picking` if the seat may pick it now (its tooltip in any case).
 * @param {Board} board
 * @param {HTMLElement} parent
 * @param {Unit} u
 * @param {boolean} picking
 * @param {boolean} chosen
 */
function trayCounter(board, parent, u, picking, chosen) {
  const side = counterSide(board), room = side + 2 * MARGIN;
  const svg = svgElement('svg', {class: 'tray-counter', width: room, height: room, viewBox: `0 0 ${room} ${room}`,
    'data-tray-unit': u.id || '', 'data-side': u.side}, parent);
  const g = counterAt(board, svg, u, room / 2, room / 2);
  g.removeAttribute('data-unit');  // (the tray's picture names it: a selector for a counter on the map finds that one only)
  withTip(board, g, u);
  if (picking) {  // picked by a click, or from the keyboard like a button
    svg.classList.add('pickable');
    svg.setAttribute('tabindex', '0'); svg.setAttribute('role', 'button'); svg.setAttribute('aria-label', `place ${u.id}`);
  }
  if (chosen) g.classList.add('selected');
  return svg;
}

/**
 * The trays into `box` (emptied first): for each side with counters off the map, those the seat may place now (on its
 * turn: the units its unit-hex actions name), and the others (those to come later, those kept off the map) folded
 * away.  `onPick(uid)` when the seat picks a counter it may place; `selected` is the unit picked.
 * @param {Board} board
 * @param {HTMLElement} box
 * @param {State} S
 * @param {string | null} selected
 * @param {(uid: string) => void} onPick
 */
export function drawTrays(board, box, S, selected, onPick) {
  // the counter picked from the keyboard keeps the focus as the trays are drawn again
  const active = document.activeElement;
  const focused = active instanceof SVGElement && box.contains(active) ? active.dataset.trayUnit : undefined;
  box.replaceChildren();
  box.hidden = false;  // (shown while drawn: a counter's text is measured to fit it)
  const sides = [S.side, ...Object.keys(board.sides).filter(s => s !== S.side)];
  for (const side of sides) {
    const off = S.view.units.filter(u => u.side === side && offMap(u));
    const now = S.my_turn && side === S.side ? off.filter(u => u.id && formsOf(S, u.id).length) : [];
    const rest = off.filter(u => !now.includes(u));
    if (!off.length) continue;
    // (each part is in the page before its counters are drawn: a counter's text is fitted to it as it is measured)
    const tray = htmlElement('div'); tray.className = 'tray'; tray.dataset.side = side;
    box.appendChild(tray);
    const name = board.sides[side].name;
    if (now.length) {
      tray.append(htmlElement('h3', `${name}: to place (${now.length})`));
      const holder = htmlElement('div'); holder.className = 'tray-counters'; holder.dataset.tray = 'now';
      tray.appendChild(holder);
      for (const u of now) {
        const uid = /** @type {string} */ (u.id);
        const svg = trayCounter(board, holder, u, true, uid === selected);
        svg.addEventListener('click', () => onPick(uid));
        svg.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onPick(uid); } });
      }
    }
    if (rest.length) {
      const more = htmlElement('details'); more.dataset.tray = 'later'; more.open = unfolded.has(side);
      more.addEventListener('toggle', () => { if (more.open) unfolded.add(side); else unfolded.delete(side); });  // kept across positions
      more.append(htmlElement('summary', `${name}: off the map (${rest.length})`));
      const holder = htmlElement('div'); holder.className = 'tray-counters';
      more.appendChild(holder);
      tray.appendChild(more);
      for (const u of rest) trayCounter(board, holder, u, false, false);
    }
  }
  box.hidden = !box.childElementCount;
  const again = focused ? [...box.querySelectorAll('svg[data-tray-unit]')].find(e => e instanceof SVGElement && e.dataset.trayUnit === focused) : undefined;
  if (again instanceof SVGElement) again.focus();
}
