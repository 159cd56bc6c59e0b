// @ts-check
// Playing the game page from the keyboard, and what it says to a screen reader.  The map takes the focus and shows a
// hex cursor the arrow keys move; Enter (or Space) acts on the hex under it as a click there would, by clicking the
// element a pointer would meet: the hex lit for the selected unit, an attack's target, the top counter of the hex
// (one's own selects it, a stack opens its chooser), else the hex itself.  So whatever a click on the map does, the
// keyboard does too, with no rule of its own.  Moving onto a hex is hovering it: the counter's tooltip and a lit hex's
// route show as for the pointer.  The cursor's hex, what stands there, new log lines and the hint are told through
// live regions; the result's dialog takes the focus; a focus lost to a redrawn panel comes back to the map.

import {hexPoints} from './board.js';
import {spoken} from './counters.js';
import {byId, htmlElement, svgElement} from './dom.js';
import {hexAt, label, layoutOf, parse} from './hexgrid.js';
import {canGather, formsOf} from './legal.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Unit} Unit */

/** The keys, as the page's "Keys" help lists them. */
export const KEYS = [
  ['Tab', 'to the map, then the decision panel, the trays, the attack panel (Shift+Tab: back)'],
  ['← →', 'the hex cursor one hex west, east'],
  ['↑ ↓', 'the hex cursor one row north, south (the same column number)'],
  ['Enter or Space', 'act on the hex as a click: select your unit (a stack: choose from it), move or place the selected unit ' +
    'to a lit hex (Esc first to select another unit standing there), add a unit to the attack, pick a red hex as its target'],
  ['N, Shift+N', 'the cursor to the next (previous) hex with a unit of yours that has something to do'],
  ['Esc', 'put down what is picked (the selected unit, the attackers, the stack chooser); close the result'],
  ['M', 'back to the map from anywhere'],
  ['O', 'to the decision panel\'s first button'],
  ['?', 'this list'],
];

/**
 * What the keyboard module is told of the page: its board and map, and the state on the page now.
 * @typedef {{board: Board, svg: SVGSVGElement, state: () => State | null}} KeyboardPage
 */

/**
 * The map's cursor and the page's keys set up; the game page calls `update` after each redraw.
 * @param {KeyboardPage} page
 */
export function setupKeyboard({board, svg, state}) {
  const pane = byId('board'), said = byId('cursor-said'), news = byId('log-news');
  pane.tabIndex = 0;
  pane.setAttribute('role', 'application');
  pane.setAttribute('aria-roledescription', 'map');
  pane.setAttribute('aria-label', 'the map: arrow keys move the hex cursor, Enter acts on its hex, N goes to your next unit (Keys: the list)');
  // a screen reader reads the counters on the map; its drawing (hexes, labels, place names, legend) the cursor tells
  for (const part of svg.children) if (part.id !== 'units') part.setAttribute('aria-hidden', 'true');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'the counters on the map');
  const layer = svgElement('g', {id: 'cursor-layer', 'aria-hidden': 'true'}, svg);
  /** @type {string | null} the hex under the cursor */
  let cursor = null;
  /** @type {Element[]} the elements the cursor hovers (sent mouseleave when it goes) */
  let hovered = [];
  /** @type {Element | null} */
  let lastFocused = null;
  let logSeen = -1, victoryShown = false;
  // the cursor is shown while the map has the focus from the keyboard: a click on the map focuses it too, and then
  // only moves the cursor to the hex clicked, unseen until a key is pressed; a focus lost is brought back to the map
  // only for a player on the keyboard
  let keyed = false, byKeys = false;

  /** @param {string} selector */
  const onMap = (selector) => svg.querySelector(selector);
  /** @param {string} hex */
  const unitsAt = (hex) => (state()?.view.units || []).filter(u => u.hex === hex && !u.eliminated);
  /** @param {string} hex  its terrain, as the map's hex says it ("G3 clear") */
  const terrain = (hex) => (onMap(`#hexes polygon[data-hex="${CSS.escape(hex)}"] title`)?.textContent || '').split(' ').slice(1).join(' ');

  /**
   * A mouse event sent to `el` at its middle on the screen, as a pointer there would.
   * @param {Element} el
   * @param {string} type
   */
  function pointAt(el, type) {
    const r = el.getBoundingClientRect();
    const at = {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2};
    el.dispatchEvent(new MouseEvent(type, {bubbles: type === 'click', cancelable: true, view: window, ...at}));
  }

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
    const counters = svg.querySelectorAll(`#units .counter[data-hex="${h}"]`);
    return counters[counters.length - 1] || onMap(`#hexes polygon[data-hex="${h}"]`);
  }

  /** The words told of the cursor's hex: its label and terrain, what stands there, and what Enter would do there. */
  function describe() {
    if (!cursor) return '';
    const h = CSS.escape(cursor), S = state();
    const here = unitsAt(cursor).map(u => spoken(board, u));
    const parts = [`${cursor}${terrain(cursor) ? `, ${terrain(cursor)}` : ''}`, here.length ? here.join('. ') : 'empty'];
    const lit = onMap(`[data-reach="${h}"]`), id = lit instanceof SVGElement ? lit.dataset.id : undefined;
    const action = (S?.legal?.actions || []).find(a => String(a.id) === id);
    if (lit) parts.push(`lit: Enter sends ${action ? action.label : 'the selected unit here'}`);
    if (onMap(`[data-target="${h}"]`)) parts.push('a target: Enter shows the odds');
    return parts.join('. ');
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
    const h = CSS.escape(cursor), counters = svg.querySelectorAll(`#units .counter[data-hex="${h}"]`);
    hovered = [onMap(`[data-reach="${h}"]`), counters[counters.length - 1]].filter(e => e !== null && e !== undefined);
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

  /** The seat's units on the map with something to do now: a unit-hex action, or a place in an attack. */
  function busy() {
    const S = state();
    if (!S || !S.my_turn) return [];
    return S.view.units.filter(u => u.side === S.side && u.id && u.hex && !u.eliminated && (formsOf(S, u.id).length || canGather(S, u.id)));
  }

  /** @param {number} by  +1: the next hex holding a unit with something to do, -1: the one before */
  function cycle(by) {
    const hexes = [...new Set(busy().map(u => /** @type {string} */ (u.hex)))];
    if (!hexes.length) { said.textContent = 'None of your units on the map has anything to do now.'; return; }
    const at = cursor ? hexes.indexOf(cursor) : -1;
    cursor = hexes[at < 0 && by < 0 ? hexes.length - 1 : (at + by + hexes.length) % hexes.length]; show();
  }

  /** Where the cursor starts: a unit with something to do, else one of the seat's, else the first hex. */
  function start() {
    if (cursor && board.hexes[cursor]) return;
    const S = state();
    const first = busy()[0] || S?.view.units.find(u => u.side === S.side && u.hex && !u.eliminated);
    cursor = first?.hex || Object.keys(board.hexes)[0];
  }

  const help = byId('keys-help', HTMLDetailsElement), list = byId('keys-list');
  list.replaceChildren(...KEYS.flatMap(([k, what]) => [htmlElement('dt', k), htmlElement('dd', what)]));

  pane.addEventListener('pointerdown', (e) => {
    keyed = false; hide();
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse()), h = label(hexAt(layoutOf(board), at.x, at.y));
    if (h && board.hexes[h]) cursor = h;
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
      return;
    }
    if (e.key === 'n' || e.key === 'N') { e.preventDefault(); cycle(e.shiftKey ? -1 : 1); }
  });

  /** @param {Element | null} el */
  const typing = (el) => el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;
  document.addEventListener('focusin', (e) => {
    lastFocused = e.target instanceof Element ? e.target : null;
    // a counter of a tray focused shows its tooltip, as the pointer on it does
    const tray = lastFocused?.closest('svg[data-tray-unit]')?.querySelector('.counter');
    if (tray) pointAt(tray, 'mouseenter');
  });
  document.addEventListener('focusout', (e) => {
    const tray = e.target instanceof Element ? e.target.closest('svg[data-tray-unit]')?.querySelector('.counter') : null;
    if (tray) pointAt(tray, 'mouseleave');
  });
  document.addEventListener('pointerdown', () => { byKeys = false; }, true);
  document.addEventListener('keydown', () => { byKeys = true; }, true);
  document.addEventListener('keydown', (e) => {
    const victory = byId('victory');
    if (!victory.hidden) {
      if (e.key === 'Escape') byId('victory-close').click();
      if (e.key === 'Tab') trapFocus(victory, e);
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey || typing(document.activeElement) || !byId('handover').hidden) return;
    if (e.key === 'm' || e.key === 'M') { e.preventDefault(); pane.focus(); }
    else if (e.key === 'o' || e.key === 'O') {
      const first = byId('orders').querySelector('button, select');
      if (first instanceof HTMLElement) { e.preventDefault(); first.focus(); }
    } else if (e.key === '?') { e.preventDefault(); help.open = !help.open; if (help.open) help.querySelector('summary')?.focus(); }
  });

  return {
    /** Before the hotseat's screen goes up: nothing the side saw or was told is left (the cursor's words, the log's). */
    forget() {
      hide(); cursor = null; keyed = false; logSeen = -1;
      said.textContent = ''; news.textContent = ''; delete pane.dataset.cursor;
    },
    /** After each redraw: new log lines told, the result's dialog focused when it opens, a lost focus back on the map, the cursor again. */
    update() {
      const S = state();
      if (!S) { logSeen = -1; return; }
      const log = S.view.log;
      if (logSeen >= 0 && log.length > logSeen) news.textContent = log.slice(logSeen).join(' ');
      logSeen = log.length;
      const open = !byId('victory').hidden;
      if (open && !victoryShown) byId('victory-close').focus();
      victoryShown = open;
      if (!open && byKeys && lost(document.activeElement) && lastFocused && lost(lastFocused)) pane.focus({preventScroll: true});
      if (document.activeElement === pane) show();
    },
  };
}

/**
 * Whether the focus is nowhere a key reaches: on the page's body, or on an element gone or hidden (a button redrawn, the
 * attack panel's Declare once the attack is sent).
 * @param {Element | null} el
 */
const lost = (el) => !el || el === document.body || !el.isConnected || el.getClientRects().length === 0;

/**
 * Tab kept inside a dialog: from its last control to its first, and back.
 * @param {HTMLElement} dialog
 * @param {KeyboardEvent} e
 */
function trapFocus(dialog, e) {
  const controls = [...dialog.querySelectorAll('button, a[href], input, select')].filter(c => c instanceof HTMLElement);
  const first = /** @type {HTMLElement | undefined} */ (controls[0]), last = /** @type {HTMLElement | undefined} */ (controls[controls.length - 1]);
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  else if (!dialog.contains(document.activeElement)) { e.preventDefault(); first.focus(); }
}
