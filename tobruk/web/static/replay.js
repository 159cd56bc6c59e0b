// @ts-check
// tobruk's replay page: steps through a game action by action (a slider, a step back and on, a game-turn back and
// on, their keys) from one side's view or both, each step's log lines shown with their dice and result codes, a hex
// clicked (or Enter at the map's cursor) showing the counters standing there.  Like the game page it knows no game
// system: the board comes with the map (board.js), the frames from the server.

import * as api from './api.js';
import {flash, load, notes, result} from './board.js';
import {drawCounters, drawHex, drawKey} from './counters.js';
import {hexUnder} from './cursor.js';
import {byId, svgElement} from './dom.js';
import {watchClauses} from './help.js';
import {linkLog, logLine} from './log.js';
import {setupReplayKeys} from './replaykeys.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Frame} Frame */

const token = location.pathname.split('/').pop() || '';
/** @type {Frame[]} */
let frames = [];
let i = 0;
/** @type {{board: Board, units: SVGElement} | null} the map, once loaded */
let shown = null;
/** @type {string | null} the hex whose counters the side panel shows (clicked, or Enter at the cursor) */
let picked = null;
let cursor = {refresh() { /* set once the map is loaded */ }};
const slider = byId('slider', HTMLInputElement);

async function loadFrames() {
  const [ok, data] = await api.replay(token, byId('side', HTMLSelectElement).value, 'action');
  if (!ok) { byId('frame-label').textContent = data.error; return; }
  frames = data.frames; i = Math.min(i, frames.length - 1);
  slider.max = String(frames.length - 1);
  if (!shown) {
    const [board, svg] = await load(byId('map-holder'), data.scenario);
    shown = {board, units: svgElement('g', {id: 'units'}, svg)};
    byId('title').textContent = `Replay: ${board.title}`;
    svg.addEventListener('click', (e) => {
      const on = e.target instanceof Element ? e.target.closest('[data-hex]') : null;
      const hex = (on instanceof SVGElement && on.dataset.hex) || hexUnder(board, svg, e.clientX, e.clientY);
      if (hex && board.hexes[hex]) { picked = hex; showPicked(); }
    });
    const steps = {back: () => i - 1, on: () => i + 1, prevTurn, nextTurn, first: () => 0, last: () => frames.length - 1};
    cursor = setupReplayKeys({board, svg, units: () => frames[i]?.units || [], steps, go});
  }
  show();
}

/**
 * The log lines up to frame `upto`: each frame brings the lines added since the one before.
 * @param {number} upto
 */
const logUpTo = (upto) => frames.slice(0, upto + 1).flatMap(f => f.lines || []);

/** The side panel: the counters standing in the hex picked in the frame shown. */
function showPicked() {
  if (!shown || !picked) return;
  drawHex(shown.board, byId('stack'), picked, frames[i].units.filter(u => u.hex === picked && !u.eliminated));
}

function show() {
  if (!shown) return;
  const {board, units} = shown, f = frames[i];
  byId('status').textContent = [`${f.label} (${i + 1}/${frames.length})`, notes(f.notes)].filter(Boolean).join(' · ');
  byId('frame-label').textContent = f.label;
  slider.value = String(i);
  slider.setAttribute('aria-valuetext', `${f.label}, step ${i + 1} of ${frames.length}`);
  drawCounters(board, units, f.units);
  drawKey(board, byId('counter-key'), f.units, false);
  const unitIds = new Set(f.units.flatMap(u => u.id ? [u.id] : []));
  const onHex = (/** @type {string} */ hex) => { if (units.parentNode instanceof Element) flash(board, units.parentNode, hex); };
  const step = byId('step-lines');
  step.replaceChildren(...(i ? f.lines || [] : []).map(line => logLine(board, line, unitIds)));
  linkLog(step, {onHex});
  const log = byId('log');
  log.replaceChildren(...logUpTo(i).map(line => logLine(board, line, unitIds)));
  linkLog(log, {onHex});
  log.scrollTop = log.scrollHeight;
  byId('result').textContent = f.summary ? result(board, f.summary) : '';
  showPicked();
  cursor.refresh();  // (what stands at the cursor's hex may have changed)
}

/**
 * The frame `to` shown (kept within the replay), and told to a screen reader where the slider, which says its own
 * value, does not have the focus.
 * @param {number} to
 */
function go(to) {
  i = Math.max(0, Math.min(frames.length - 1, to)); show();
  const f = frames[i];
  if (f && document.activeElement !== slider) byId('step-news').textContent = [`${f.label}, step ${i + 1} of ${frames.length}`, ...(i ? f.lines || [] : [])].join('. ');
}
/** The frame at the end of the game-turn after the one shown (or the last). */
function nextTurn() { const j = frames.findIndex((f, k) => k > i && f.label.startsWith('end of turn')); return j < 0 ? frames.length - 1 : j; }
/** The frame at the end of the game-turn before the one shown (or the start). */
function prevTurn() { for (let k = i - 1; k > 0; k--) if (frames[k].label.startsWith('end of turn')) return k; return 0; }
byId('first').onclick = () => go(0);
byId('last').onclick = () => go(frames.length - 1);
byId('prev').onclick = () => go(prevTurn());
byId('next').onclick = () => go(nextTurn());
byId('back').onclick = () => go(i - 1);
byId('forward').onclick = () => go(i + 1);
slider.oninput = () => go(Number(slider.value));
byId('side').onchange = loadFrames;
watchClauses([...document.querySelectorAll('aside')]);  // the log's clause ids as links to their help
loadFrames();
