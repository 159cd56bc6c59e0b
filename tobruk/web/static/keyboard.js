// @ts-check
// Playing the game page from the keyboard, and what it says to a screen reader.  The map's hex cursor (cursor.js, as on
// the replay) acts on the hex under it as a click there would: the hex lit for the selected unit, an attack's target,
// the top counter of the hex (one's own selects it, a stack opens its chooser), else the hex itself.  Here: what the
// cursor tells of a lit hex or a target, N to the next unit with something to do, the page's keys (M, O, ?), new log
// lines told through a live region, the result's dialog taking the focus, a focus lost to a redrawn panel brought back
// to the map.

import {CURSOR_KEYS, keysHelp, pointAt, setupCursor} from './cursor.js';
import {byId} from './dom.js';
import {canGather, formsOf} from './legal.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Unit} Unit */

/** The keys, as the page's "Keys" help lists them. */
export const KEYS = [
  ['Tab', '"Skip to the map" first, past the header; from the map to the decision panel, the trays, the attack panel, ' +
    'the log (Shift+Tab: back)'],
  ...CURSOR_KEYS,
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
  const news = byId('log-news');
  /** @type {Element | null} */
  let lastFocused = null;
  let logSeen = -1, victoryShown = false;

  /** @param {string} selector */
  const onMap = (selector) => svg.querySelector(selector);

  /**
   * What Enter would do at a hex lit for the selected unit or an attack's target.
   * @param {string} hex
   */
  function more(hex) {
    const h = CSS.escape(hex), parts = [];
    const lit = onMap(`[data-reach="${h}"]`), id = lit instanceof SVGElement ? lit.dataset.id : undefined;
    const action = (state()?.legal?.actions || []).find(a => String(a.id) === id);
    if (lit) parts.push(`lit: Enter sends ${action ? action.label : 'the selected unit here'}`);
    if (lit && action?.warning) parts.push(`beware: ${action.warning}`);  // (a move over the stacking limit)
    if (onMap(`[data-target="${h}"]`)) parts.push('a target: Enter shows the odds');
    return parts;
  }

  /** The seat's units on the map with something to do now: a unit-hex action, or a place in an attack. */
  function busy() {
    const S = state();
    if (!S || !S.my_turn) return [];
    return S.view.units.filter(u => u.side === S.side && u.id && u.hex && !u.eliminated && (formsOf(S, u.id).length || canGather(S, u.id)));
  }

  /** Where the cursor starts: a unit with something to do, else one of the seat's, else (cursor.js) the first hex. */
  function start() {
    const S = state();
    return (busy()[0] || S?.view.units.find(u => u.side === S.side && u.hex && !u.eliminated))?.hex;
  }

  const cursor = setupCursor({
    board, svg, units: () => state()?.view.units || [], more, start,
    name: 'the map: arrow keys move the hex cursor, Enter acts on its hex, N goes to your next unit (Keys: the list)',
  });
  const pane = cursor.pane, said = byId('cursor-said');

  /** @param {number} by  +1: the next hex holding a unit with something to do, -1: the one before */
  function cycle(by) {
    const hexes = [...new Set(busy().map(u => /** @type {string} */ (u.hex)))];
    if (!hexes.length) { said.textContent = 'None of your units on the map has anything to do now.'; return; }
    const here = cursor.at(), at = here ? hexes.indexOf(here) : -1;
    cursor.moveTo(hexes[at < 0 && by < 0 ? hexes.length - 1 : (at + by + hexes.length) % hexes.length]);
  }

  const help = keysHelp(KEYS);
  pane.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
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
    } else if (e.key === '?') { e.preventDefault(); help.toggle(); }
  });

  return {
    /** Before the hotseat's screen goes up: nothing the side saw or was told is left (the cursor's words, the log's). */
    forget() {
      cursor.forget(); logSeen = -1;
      news.textContent = '';
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
      if (!open && cursor.byKeys() && lost(document.activeElement) && lastFocused && lost(lastFocused)) pane.focus({preventScroll: true});
      cursor.refresh();
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
