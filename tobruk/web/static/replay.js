// @ts-check
// tobruk's replay page: steps through a game's frames (one a game-turn) from one side's view or both.
// Like the game page it knows no game system: the board comes with the map (board.js), the frames from the server.

import * as api from './api.js';
import {flash, load, notes, result} from './board.js';
import {drawCounters, drawKey} from './counters.js';
import {byId, svgElement} from './dom.js';
import {watchClauses} from './help.js';
import {explained, linkLog, linked} from './log.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Frame} Frame */

const token = location.pathname.split('/').pop() || '';
/** @type {Frame[]} */
let frames = [];
let i = 0;
/** @type {{board: Board, units: SVGElement} | null} the map, once loaded */
let shown = null;

async function loadFrames() {
  const [ok, data] = await api.replay(token, byId('side', HTMLSelectElement).value);
  if (!ok) { byId('frame-label').textContent = data.error; return; }
  frames = data.frames; i = Math.min(i, frames.length - 1);
  if (!shown) {
    const [board, svg] = await load(byId('map-holder'), data.scenario);
    shown = {board, units: svgElement('g', {id: 'units'}, svg)};
    byId('title').textContent = `Replay: ${board.title}`;
  }
  show();
}

function show() {
  if (!shown) return;
  const {board, units} = shown, f = frames[i];
  byId('status').textContent = [`${f.label} (${i + 1}/${frames.length})`, notes(f.notes)].filter(Boolean).join(' · ');
  byId('frame-label').textContent = f.label;
  drawCounters(board, units, f.units);
  drawKey(board, byId('counter-key'), f.units, false);
  const unitIds = new Set(f.units.flatMap(u => u.id ? [u.id] : []));
  const log = byId('log');
  log.innerHTML = f.log.map(l => `<li>${explained(board, linked(board, l, unitIds))}</li>`).join('');
  linkLog(log, {onHex: (hex) => { if (units.parentNode instanceof Element) flash(board, units.parentNode, hex); }});
  byId('result').textContent = f.summary ? result(board, f.summary) : '';
}

/** @param {number} to */
const go = (to) => { i = Math.max(0, Math.min(frames.length - 1, to)); show(); };
byId('first').onclick = () => go(0);
byId('last').onclick = () => go(frames.length - 1);
byId('prev').onclick = () => go(i - 1);
byId('next').onclick = () => go(i + 1);
byId('side').onchange = loadFrames;
watchClauses([...document.querySelectorAll('aside')]);  // the log's clause ids as links to their help
loadFrames();
