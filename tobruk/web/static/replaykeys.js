// @ts-check
// The replay page by the keyboard and for a screen reader: the map's hex cursor as on the game page (cursor.js; Enter
// clicks its hex as the pointer would, which shows the counters standing there), and keys that step through the
// replay from anywhere on the page.  The arrows belong to the cursor (and to the slider, the side's list), so the steps
// have keys of their own: , and . one action, Page Up and Page Down a game-turn, Home and End the start and the end.

import {CURSOR_KEYS, keysHelp, setupCursor} from './cursor.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Unit} Unit */

/** The keys, as the page's "Keys" help lists them. */
export const REPLAY_KEYS = [
  ['Tab', '"Skip to the map" first, past the header; then the map, the log (Shift+Tab: back)'],
  ...CURSOR_KEYS,
  ['Enter or Space', 'the counters of the cursor\'s hex, in the side panel (as a click on the hex)'],
  [', .', 'comma: one step back; full stop: one step on'],
  ['Page Up, Page Down', 'the end of the game-turn before, the end of this one'],
  ['Home, End', 'the start, the end'],
  ['M', 'to the map from anywhere'],
  ['?', 'this list'],
];

/**
 * Where each stepping key takes the replay: the index of a frame, from the one shown.
 * @typedef {{back: () => number, on: () => number, prevTurn: () => number, nextTurn: () => number, first: () => number,
 *   last: () => number}} Steps
 */

/**
 * The replay's cursor and keys set up, once its map is loaded.
 * @param {{board: Board, svg: SVGSVGElement, units: () => Unit[], steps: Steps, go: (to: number) => void}} page
 */
export function setupReplayKeys({board, svg, units, steps, go}) {
  const cursor = setupCursor({
    board, svg, units,
    start: () => units().find(u => u.hex && !u.eliminated)?.hex,
    name: 'the map: arrow keys move the hex cursor, Enter shows the counters of its hex, comma and full stop step the replay (Keys: the list)',
  });
  const help = keysHelp(REPLAY_KEYS);
  /** @type {Record<string, () => number>} */
  const byKey = {',': steps.back, '.': steps.on, PageUp: steps.prevTurn, PageDown: steps.nextTurn, Home: steps.first, End: steps.last};
  document.addEventListener('keydown', (e) => {
    const at = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || at instanceof HTMLSelectElement || at instanceof HTMLTextAreaElement) return;
    // the slider's own keys (Home, End, Page Up, Page Down) move it, and the step with it: only , and . are the page's there
    const slider = at instanceof HTMLInputElement && at.type === 'range';
    const step = byKey[e.key];
    if (step && !(slider && e.key !== ',' && e.key !== '.')) { e.preventDefault(); go(step()); return; }
    if (e.key === 'm' || e.key === 'M') { e.preventDefault(); cursor.pane.focus(); }
    else if (e.key === '?') { e.preventDefault(); help.toggle(); }
  });
  return cursor;
}
