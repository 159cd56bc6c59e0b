// @ts-check
// The map's gestures beyond a move and an attack: the actions made by clicking one unit (activate, hold, eliminate,
// convoy ...), by clicking one hex (an air strike, a bombardment, an airlift ...), and a route chosen hex by hex (a
// retreat).  A unit with an order to give is ringed on the map (its mark in the counters' key); a click on it offers,
// beside it, a button per action saying in words what it does (the server's `says`, never the notation).  The hexes
// an action may be aimed at are lit while the decision has such actions; a click asks to confirm, in words.  A
// retreat's next hexes are lit from the routes the server lists for the unit, the route so far drawn as it grows; the
// route is sent, by its id, once it is one the server lists (at once if nothing longer starts with it).  The game page
// draws these, and sends what is chosen; this module only reads the legal list (legal.js) and draws.

import {hexPoints, linePoints} from './board.js';
import {byId, svgElement} from './dom.js';
import {listed} from './legal.js';

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Action} Action */
/** @typedef {(id: number) => unknown} Send */

/** The mark of a unit with an order to give, as the counters' key shows it. */
export const ORDERED = '#e0a800';

/**
 * The actions made by clicking one unit, by unit (those not part of a whole choice gathered on the map).
 * @param {State | null} S
 */
export function unitOrders(S) {
  /** @type {Map<string, Action[]>} */
  const out = new Map();
  for (const a of listed(S)) if (a.gesture === 'unit' && a.unit && !a.part_of) out.set(a.unit, [...(out.get(a.unit) || []), a]);
  return out;
}

/**
 * The actions made by clicking one hex, by hex.
 * @param {State | null} S
 */
export function hexOrders(S) {
  /** @type {Map<string, Action[]>} */
  const out = new Map();
  for (const a of listed(S)) if (a.gesture === 'hex' && a.hex && !a.part_of) out.set(a.hex, [...(out.get(a.hex) || []), a]);
  return out;
}

/**
 * Whether an action is made on the map (so the decision panel leaves it out): a unit's or a hex's, the unit on the
 * map (one off it is listed in the panel).
 * @param {State} S
 * @param {Action} a
 */
export function onMap(S, a) {
  if (a.gesture === 'hex') return Boolean(a.hex);
  if (a.gesture === 'unit') return Boolean(a.unit && S.view.units.find(u => u.id === a.unit && u.hex && !u.eliminated));
  return false;
}

/**
 * The ring on each counter `g` of a unit with an order to give, and the ring's entry in the counters' key while some
 * unit has one.
 * @param {State} S
 * @param {Iterable<[SVGElement, import('./types.js').Unit]>} counters
 * @param {HTMLElement} key
 */
export function markUnits(S, counters, key) {
  const orders = S.my_turn ? unitOrders(S) : new Map();
  for (const [g, u] of counters) if (u.id && orders.has(u.id)) { g.classList.add('has-order'); g.dataset.hasOrder = '1'; }
  if (!orders.size) return;
  const li = document.createElement('li'); li.dataset.key = 'has-order';
  const svg = svgElement('svg', {width: 22, height: 18, viewBox: '0 0 22 18', 'aria-hidden': 'true'}, li);
  svgElement('rect', {x: 3, y: 2, width: 14, height: 14, rx: 2, fill: '#ddd', stroke: ORDERED, 'stroke-width': 3}, svg);
  li.append(' gold ring: a unit with an order to give now (click it)');
  key.appendChild(li);
}

/**
 * The chooser beside an element: a title and a button per action, its words; `send(id)` when one is pressed.
 * @param {Element | null} anchor
 * @param {string} title
 * @param {Action[]} actions
 * @param {Send} send
 */
export function offer(anchor, title, actions, send) {
  const box = byId('chooser');
  box.replaceChildren();
  delete box.dataset.hex;
  const head = document.createElement('div'); head.className = 'chooser-title'; head.textContent = title;
  box.appendChild(head);
  for (const a of actions) {
    const b = document.createElement('button');
    b.textContent = a.says; b.dataset.order = a.label; b.dataset.id = String(a.id); b.dataset.offer = a.verb;
    b.onclick = () => { box.hidden = true; send(a.id); };
    box.appendChild(b);
  }
  const no = document.createElement('button'); no.textContent = 'Cancel'; no.dataset.offerCancel = '1';
  no.onclick = closeChooser;
  box.appendChild(no);
  showBeside(box, anchor, title);
}

/**
 * The chooser (a stack's counters, a unit's orders, a hex's) shown beside the element it is about, its first button
 * focused, named for a screen reader by what it offers.
 * @param {HTMLElement} box
 * @param {Element | null} anchor
 * @param {string} label
 */
export function showBeside(box, anchor, label) {
  box.setAttribute('aria-label', label);
  const r = anchor ? anchor.getBoundingClientRect() : {right: 0, top: 0};
  box.style.left = `${Math.round(r.right + 4)}px`; box.style.top = `${Math.round(r.top)}px`;
  box.hidden = false;
  const first = box.querySelector('button');
  if (first instanceof HTMLButtonElement) first.focus();
}

/** The chooser closed and emptied. */
export function closeChooser() {
  const box = byId('chooser');
  box.hidden = true; box.replaceChildren();
}

/**
 * A unit's orders offered beside its counter; false if it has none.
 * @param {State} S
 * @param {string} uid
 * @param {Element | null} anchor
 * @param {Send} send
 */
export function offerUnit(S, uid, anchor, send) {
  const orders = unitOrders(S).get(uid);
  if (!orders) return false;
  offer(anchor, `${uid}: what it does now`, orders, send);
  return true;
}

/**
 * The hexes an action may be aimed at, lit over the map; a click asks to confirm.  A hex holding the seat's own
 * counters is lit beneath them (in `under`), its edge drawn over them: a click on one of those counters selects it, as
 * anywhere else, and the hex is aimed at from its uncovered part.
 * @param {Board} board
 * @param {SVGElement} top
 * @param {SVGElement} under
 * @param {Set<string>} held  the hexes holding the seat's own counters
 * @param {State} S
 * @param {Send} send
 */
export function drawHexOrders(board, top, under, held, S, send) {
  if (!S.my_turn) return;
  for (const [hex, actions] of hexOrders(S)) {
    const p = svgElement('polygon', {points: hexPoints(board, hex, 0.9), class: 'aim', 'data-aim': hex}, held.has(hex) ? under : top);
    if (held.has(hex)) svgElement('polygon', {points: hexPoints(board, hex, 0.9), class: 'aim-edge'}, top);
    p.addEventListener('click', (e) => { e.stopPropagation(); offer(p, `${hex}: confirm`, actions, send); });
  }
}

// --- a route chosen hex by hex ------------------------------------------------------------------------------------
/** @type {{key: string, path: string[]}} the route so far of the unit whose route is being chosen (its hex first) */
let trail = {key: '', path: []};

/**
 * The unit's actions of one form whose route is chosen hex by hex (a retreat), if it has any.
 * @param {State | null} S
 * @param {string} uid
 * @param {string} form
 */
export const stepwise = (S, uid, form) => listed(S).filter(a => a.gesture === 'unit-hex' && a.unit === uid && a.group === form && a.route && a.route.length > 1);

/** The route being chosen forgotten. */
export function forgetTrail() { trail = {key: '', path: []}; }

/** The route chosen so far (its hexes, the unit's own first). */
export const trailSoFar = () => [...trail.path];

/**
 * The route so far drawn, the next hexes lit (and the hex it has reached, if a listed route ends there and a longer
 * one goes on): a click on a next hex adds it, and the route is sent once it is one listed and nothing longer goes on.
 * @param {Board} board
 * @param {SVGElement} top
 * @param {State} S
 * @param {string} uid
 * @param {string} form
 * @param {Send} send
 * @param {() => void} redraw
 */
export function drawTrail(board, top, S, uid, form, send, redraw) {
  const routes = stepwise(S, uid, form);
  const key = `${S.version} ${uid} ${form}`;
  if (trail.key !== key) trail = {key, path: [/** @type {string[]} */ (routes[0].route)[0]]};
  const path = trail.path;
  const starts = (/** @type {string[]} */ r) => path.every((h, i) => r[i] === h);
  const going = routes.filter(a => starts(/** @type {string[]} */ (a.route)));
  const next = [...new Set(going.flatMap(a => (/** @type {string[]} */ (a.route)).length > path.length ? [(/** @type {string[]} */ (a.route))[path.length]] : []))];
  const ends = going.find(a => (/** @type {string[]} */ (a.route)).length === path.length);
  if (path.length > 1) svgElement('polyline', {points: linePoints(board, path), class: 'route trail', 'data-trail': path.join('-')}, top);
  for (const hex of next) {
    const p = svgElement('polygon', {points: hexPoints(board, hex, 0.9), class: 'reach step', 'data-step': hex}, top);
    p.addEventListener('click', (e) => {
      e.stopPropagation();
      path.push(hex);
      const whole = routes.filter(a => starts(/** @type {string[]} */ (a.route)));
      const done = whole.find(a => (/** @type {string[]} */ (a.route)).length === path.length);
      if (done && whole.length === 1) send(done.id); else redraw();
    });
  }
  if (ends) {
    const here = path[path.length - 1];
    const p = svgElement('polygon', {points: hexPoints(board, here, 0.6), class: 'reach stop', 'data-stop': here}, top);
    p.addEventListener('click', (e) => { e.stopPropagation(); offer(p, `${uid}: stop here?`, [ends], send); });
  }
  const hint = byId('hint');
  hint.textContent = `${uid}: click the next hex of its route (lit)${ends ? `, or the ringed ${path[path.length - 1]} to stop there` : ''}.`;
}
