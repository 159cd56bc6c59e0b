// @ts-check
// tobruk's replay page: steps through a game action by action (a slider, a step back and on, a game-turn back and
// on) from one side's view or both, each step's log lines shown with their dice and result codes.  Like the game
// page it knows no game system: the board comes with the map (board.js), the frames from the server.

import * as api from './api.js';
import {flash, load, notes, result} from './board.js';
import {drawCounters, drawKey} from './counters.js';
import {byId, svgElement} from './dom.js';
import {watchClauses} from './help.js';
import {linkLog, logLine} from './log.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Frame} Frame */

const token = location.pathname.split('/').pop() || '';
/** @type {Frame[]} */
let frames = [];
let i = 0;
/** @type {{board: Board, units: SVGElement} | null} the map, once loaded */
let shown = null;
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
  }
  show();
}

/**
 * The log lines up to frame `upto`: each frame brings the lines added since the one before.
 * @param {number} upto
 */
const logUpTo = (upto) => frames.slice(0, upto + 1).flatMap(f => f.lines || []);

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
}

/** @param {number} to */
const go = (to) => { i = Math.max(0, Math.min(frames.length - 1, to)); show(); };
/** The frame at the end of the game-turn after the one shown (or the last). */
const nextTurn = () => { const j = frames.findIndex((f, k) => k > i && f.label.startsWith('end of turn')); return j < 0 ? frames.length - 1 : j; };
/** The frame at the end of the game-turn before the one shown (or the start). */
const prevTurn = () => { for (let k = i - 1; k > 0; k--) if (frames[k].label.startsWith('end of turn')) return k; return 0; };
byId('first').onclick = () => go(0);
byId('last').onclick = () => go(frames.length - 1);
byId('prev').onclick = () => go(prevTurn());
byId('next').onclick = () => go(nextTurn());
byId('back').onclick = () => go(i - 1);
byId('forward').onclick = () => go(i + 1);
slider.oninput = () => go(Number(slider.value));
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLSelectElement || e.target === slider) return;  // (their own keys)
  const to = {ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: frames.length - 1, PageUp: prevTurn(), PageDown: nextTurn()}[e.key];
  if (to !== undefined) { e.preventDefault(); go(to); }
});
byId('side').onchange = loadFrames;
watchClauses([...document.querySelectorAll('aside')]);  // the log's clause ids as links to their help
loadFrames();
