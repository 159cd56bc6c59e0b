// @ts-check
// The map's hex cursor, the same on the game page and the replay: the map takes the focus and shows a hex cursor the
// arrow keys move; Enter (or Space) clicks the element a pointer at the cursor's hex would meet, so a page's keyboard
// does whatever its clicks on the map do, with no rule of its own.  Moving onto a hex is hovering it: the counter's
// tooltip (and, on the game page, a lit hex's route) show as for the pointer.  The cursor's hex and what stands there
// are told through a live region.  Besides: the "Skip to the map" link and the page's Keys list, which both pages have.

import {hexPoints} from './board.js';
import {spoken} from './counters.js';
import {byId, htmlElement, svgElement} from './dom.js';
import {hexAt, label, layoutOf, parse} from './hexgrid.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Unit} Unit */

/** The cursor's keys, as both pages' Keys lists name them. */
export const CURSOR_KEYS = [
  ['← →', 'the hex cursor one hex west, east'],
  ['↑ ↓', 'the hex cursor one row north, south (the same column number)'],
];

/**
 * What the cursor is told of its page: the board and map, the counters on the map now, the map's name for a screen
 * reader (how it is played), more words of a hex (the game page: what Enter would do there) and where the cursor
 * starts (else the first hex).
 * @typedef {{board: Board, svg: SVGSVGElement, units: () => Unit[], name: string,
 *   more?: (hex: string) => string[], start?: () => string | null | undefined}} CursorPage
 */

/**
 * A mouse event sent to `el` at its middle on the screen, as a pointer there would.
 * @param {Element} el
 * @param {string} type
 */
export function pointAt(el, type) {
  const r = el.getBoundingClientRect();
  const at = {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2};
  el.dispatchEvent(new MouseEvent(type, {bubbles: type === 'click', cancelable: true, view: window, ...at}));
}

/**
 * The hex of the map under the point (x, y) of the screen, if any.
 * @param {Board} board
 * @param {SVGSVGElement} svg
 * @param {number} x
 * @param {number} y
 */
export function hexUnder(board, svg, x, y) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const at = new DOMPoint(x, y).matrixTransform(ctm.inverse()), h = label(hexAt(layoutOf(board), at.x, at.y));
  return h && board.hexes[h] ? h : null;
}

/**
 * The map's cursor set up on the page's #board (the map's pane) and #cursor-said (its live region).
 * @param {CursorPage} page
 */
export function setupCursor({board, svg, units, name, more = () => [], start: startAt = () => undefined}) {
  const pane = byId('board'), said = byId('cursor-said');
  pane.tabIndex = 0;
  pane.setAttribute('role', 'application');
  pane.setAttribute('aria-roledescription', 'map');
  pane.setAttribute('aria-label', name);
  // a screen reader reads the counters on the map; its drawing (hexes, labels, place names, legend) the cursor tells
  for (const part of svg.children) if (part.id !== 'units') part.setAttribute('aria-hidden', 'true');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'the counters on the map');
  const layer = svgElement('g', {id: 'cursor-layer', 'aria-hidden': 'true'}, svg);
  /** @type {string | null} the hex under the cursor */
  let cursor = null;
  /** @type {Element[]} the elements the cursor hovers (sent mouseleave when it goes) */
  let hovered = [];
  // the cursor is shown while the map has the focus from the keyboard: a click on the map focuses it too, and then
  // only moves the cursor to the hex clicked, unseen until a key is pressed
  let keyed = false, byKeys = false;

  /** @param {string} selector */
  const onMap = (selector) => svg.querySelector(selector);
  /** @param {string} hex  its terrain, as the map's hex says it ("G3 clear") */
  const terrain = (hex) => (onMap(`#hexes polygon[data-hex="${CSS.escape(hex)}"] title`)?.textContent || '').split(' ').slice(1).join(' ');
  /** @param {string} hex  the counters there, the top one last */
  const countersAt = (hex) => svg.querySelectorAll(`#units .counter[data-hex="${CSS.escape(hex)}"]`);

  /**
   * The element a click on the cursor's hex meets: a hex lit for the selected unit or an attack's target (made on
   * the hex, even where one's own counters stand in it), else whatever a pointer at the hex's middle meets on the map
   * (the top counter of the hex, anything another gesture draws there, the hex itself), else the top counter or the hex.
   */
  function clickable() {
    if (!cursor) return null;
    const h = CSS.escape(cursor);
    const lit = onMap(`[data-reach="${h}"]`) || onMap(`[data-target="${h}"]`);
    if (lit) return lit;
    const ctm = svg.getScreenCTM(), [x, y] = board.hexes[cursor];
    const at = ctm ? new DOMPoint(x, y).matrixTransform(ctm) : null;
    const met = at ? document.elementFromPoint(at.x, at.y) : null;
    if (met && svg.contains(met) && met !== svg) return met;
    const counters = countersAt(cursor);
    return counters[counters.length - 1] || onMap(`#hexes polygon[data-hex="${h}"]`);
  }

  /** The words told of the cursor's hex: its label and terrain, what stands there, and what the page adds. */
  function describe() {
    if (!cursor) return '';
    const here = units().filter(u => u.hex === cursor && !u.eliminated).map(u => spoken(board, u));
    return [`${cursor}${terrain(cursor) ? `, ${terrain(cursor)}` : ''}`, here.length ? here.join('. ') : 'empty', ...more(cursor)].join('. ');
  }

  /** The cursor taken off the map (what it hovered, left). */
  function hide() {
    layer.replaceChildren();
    for (const el of hovered) if (el.isConnected) pointAt(el, 'mouseleave');
    hovered = [];
  }

  /** The cursor drawn, scrolled into view, its hex told and hovered. */
  function show() {
    hide();
    if (!cursor || !keyed) return;
    pane.dataset.cursor = cursor;
    const ring = svgElement('polygon', {points: hexPoints(board, cursor, 1), class: 'hex-cursor', 'data-cursor': cursor}, layer);
    ring.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const words = describe();
    if (said.textContent !== words) said.textContent = words;  // (told again only when it changes)
    if (document.activeElement !== pane) return;
    const counters = countersAt(cursor);
    hovered = [onMap(`[data-reach="${CSS.escape(cursor)}"]`), counters[counters.length - 1]].filter(e => e !== null && e !== undefined);
    for (const el of hovered) pointAt(el, 'mouseenter');  // the tooltip, a lit hex's route
  }

  /**
   * The cursor `rows` rows down and `cols` columns east, if that hex is on the map.
   * @param {number} rows
   * @param {number} cols
   */
  function step(rows, cols) {
    const a = cursor ? parse(cursor) : null;
    if (!a) return;
    const col = a.q + (a.r - (a.r & 1)) / 2 + cols, r = a.r + rows;
    const next = label({q: col - (r - (r & 1)) / 2, r});
    if (next && board.hexes[next]) { cursor = next; show(); } else said.textContent = `${cursor}: the edge of the map`;
  }

  /** Where the cursor starts, unless it stands on the map already: where the page says, else the first hex. */
  function start() {
    if (cursor && board.hexes[cursor]) return;
    const there = startAt();
    cursor = there && board.hexes[there] ? there : Object.keys(board.hexes)[0];
  }

  pane.addEventListener('pointerdown', (e) => {
    keyed = false; hide();
    cursor = hexUnder(board, svg, e.clientX, e.clientY) || cursor;
  });
  pane.addEventListener('focus', () => { keyed = byKeys; start(); show(); });
  pane.addEventListener('blur', hide);
  pane.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (!keyed && e.key !== 'Tab' && e.key !== 'Shift') { keyed = true; start(); show(); }
    const moves = /** @type {Record<string, [number, number]>} */ ({ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0]});
    if (moves[e.key]) { e.preventDefault(); start(); step(...moves[e.key]); return; }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const el = clickable();
      if (el) pointAt(el, 'click');
    }
  });
  document.addEventListener('pointerdown', () => { byKeys = false; }, true);
  document.addEventListener('keydown', () => { byKeys = true; }, true);

  // the skip link, the page's first stop for Tab: past the header's controls, the map focused with its cursor shown
  const skip = byId('skip-link');
  skip.addEventListener('click', (e) => { e.preventDefault(); byKeys = true; pane.focus(); });

  return {
    pane,
    /** The hex under the cursor, if any. */
    at: () => cursor,
    /** Whether the last thing the player did was a key (not the pointer): a lost focus is brought back only then. */
    byKeys: () => byKeys,
    /**
     * The cursor put on `hex` (shown if the map has the focus from the keyboard).
     * @param {string} hex
     */
    moveTo(hex) { if (board.hexes[hex]) { cursor = hex; show(); } },
    /** The cursor drawn and told again after the map is redrawn (what stands at its hex may have changed). */
    refresh() { if (document.activeElement === pane) show(); },
    /** Nothing the cursor saw or told is left (before the hotseat's screen goes up). */
    forget() { hide(); cursor = null; keyed = false; said.textContent = ''; delete pane.dataset.cursor; },
  };
}

/**
 * The page's Keys list (#keys-help, #keys-list) filled with `keys`, a key and what it does a row.
 * @param {string[][]} keys
 */
export function keysHelp(keys) {
  const help = byId('keys-help', HTMLDetailsElement);
  byId('keys-list').replaceChildren(...keys.flatMap(([k, what]) => [htmlElement('dt', k), htmlElement('dd', what)]));
  return {
    /** The list opened (its summary focused) or closed: the page's ? key. */
    toggle() { help.open = !help.open; if (help.open) help.querySelector('summary')?.focus(); },
  };
}
