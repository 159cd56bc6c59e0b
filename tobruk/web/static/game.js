// @ts-check
// tobruk's game page, its entry module: the seat's state, the map's gestures, the orders sent and the hotseat's
// hand-over.  The server is the referee: this page only offers what the legal list contains, as each action's
// gesture says it is made (legal.js), and sends back the listed id or, for a whole choice it gathered (attack.js),
// the action's fields.  It knows no game system: the board (hexes, colours, symbols, status words) comes with the map
// (board.js), the position, the layers over the map, the turn's notes and the result with the seat's state.

import * as api from './api.js';
import * as attack from './attack.js';
import * as gestures from './gestures.js';
import {closeChooser, showBeside} from './gestures.js';
import {drawLayers, flash, hexPoints, layerBoxes, linePoints, load, lookAt, notes, result} from './board.js';
import {counterSide, drawCounters, drawHex, drawKey, hideTip, stackOffset, tipAvoids} from './counters.js';
import {drawDecision} from './decision.js';
import {byId, svgElement} from './dom.js';
import {composite, formsOf, unitHexOf} from './legal.js';
import {setupHelp} from './help.js';
import {setupKeyboard} from './keyboard.js';
import {escapeHtml, linkLog, logLine} from './log.js';
import * as notify from './notify.js';
import {drawTrays} from './tray.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Unit} Unit */
/** @typedef {import('./api.js').Handover} Handover */
/** @typedef {{board: Board, overlay: SVGElement, units: SVGElement, top: SVGElement}} Drawing  the board and its groups */

const token = location.pathname.split('/').pop() || '';
/** @type {State | null} the seat's state on the page (null: none, as behind the hotseat's screen) */
let S = null;
/** @type {Drawing} set once by start(), before any state is shown */
let map = /** @type {Drawing} */ (/** @type {unknown} */ (null));
/** @type {string | null} the unit whose hexes the map shows */
let selected = null;
let moveForm = '';  // the form (heading) of the selected unit's hexes shown
/** @type {{unit: string | null, hex: string | null}} what the side panel shows: a unit's hex (wherever it now stands), else a hex */
let panel = {unit: null, hex: null};
let inFlight = false;  // an order sent and not yet answered: further clicks and route requests wait for its answer
let resultClosed = false;  // the player closed the result to look at the final board
const shownLayers = new Set();  // the keys of the layers ticked (kept across positions)
let keyboard = {update() { /* set by start() */ }, forget() { /* set by start() */ }};

/** @param {string} side */
const sideName = (side) => map.board.sides[side].name;
/** @param {number} id */
const orderId = (id) => send({id});
/** @param {string} hex */
const flashHex = (hex) => flash(map.board, map.top, hex);

// --- orders ---------------------------------------------------------------------------------------------------
// An action is sent as the id the server listed it under ({id}), or, for a whole choice gathered on the map (an
// attack), as its fields ({action}); never as text put together here.

async function reload() {
  const [ok, data] = await api.state(token, shownSide);
  if (ok) await accept(data); else showError(data.error);
}

/**
 * One order at a time: a second click (a double click) while the first is on its way is ignored, and the hexes
 * lit for the old position go at once, so the pointer passing over them asks for no stale route.
 * @param {{id: number} | {action: Record<string, unknown>, options?: Record<string, unknown>[]}} what
 */
async function send(what) {
  if (inFlight || !S) return false;
  inFlight = true;
  clearTimeout(resting);
  closeChooser();
  if (selected) panel = {unit: selected, hex: null};  // after the move the panel shows where the unit now stands
  selected = null; attack.forgetGathered(); gestures.forgetTrail();
  drawOverlays();
  try {
    if (asking) await asking.catch(() => null);
    const [ok, data] = await api.order(token, what, S.version);
    if (!ok) { showError(data.error); await reload(); return false; }
    clearSelection(); await accept(data, true); return true;
  } finally { inFlight = false; }
}
/** @param {string} text */
function showError(text) { byId('hint').innerHTML = `<p class="error">${escapeHtml(text)}</p>`; }

// --- drawing ----------------------------------------------------------------------------------------------------
function render() {
  if (!S) return;
  const v = S.view;
  notify.update(S);
  byId('title').textContent = `${v.title}: ${sideName(S.side)} ${S.mode === 'hotseat' ? '(hotseat)' : ''}`;
  // a dated track names its turns ('II May 42'); other systems' read 'Turn 3'; either says how many the game has
  const of = `${v.turn} of ${v.turns}${v.turn === v.turns ? ', the last' : ''}`;
  const turn = v.turn_name === `Turn ${v.turn}` ? `Turn ${of}` : `${v.turn_name} (turn ${of})`;
  const score = v.score ? `${v.score.title}: ${sideName('allied')} ${v.score.allied}, ${sideName('axis')} ${v.score.axis}` : '';
  // once over, the status line keeps the result's headline (the winner and the level), the board left to look at
  const over = v.summary ? `the game is over (${v.summary.winner ? sideName(v.summary.winner) : 'Nobody'}: ${v.summary.level})` : 'the game is over';
  byId('status').textContent = [turn, v.decision ? v.phase_title : over, notes(v.notes), score].filter(Boolean).join(' · ');
  byId('undo', HTMLButtonElement).disabled = !S.can_undo;
  byId('export-link', HTMLAnchorElement).href = `/api/g/${token}/export` + (S.seat === 'both' ? `?side=${S.side}` : '');
  drawUnits();
  drawTrays(map.board, byId('trays'), S, selected, (uid) => { closeChooser(); selectUnit(uid); });
  showPanel();
  layerBoxes(byId('layers'), v.overlays || [], shownLayers, drawOverlays);
  drawOverlays();
  drawDecision(S, sideName, {order: orderId});
  drawLog(); noteGame();
  byId('show-result').hidden = !v.summary;
  if (v.summary) {
    byId('victory-text').textContent = result(map.board, v.summary);
    byId('victory').hidden = resultClosed;
    byId('replay-link', HTMLAnchorElement).href = `/replay/${token}`;
    byId('form-link', HTMLAnchorElement).href = `/api/g/${token}/form`;
    byId('record-link', HTMLAnchorElement).href = `/api/g/${token}/record`;
  }
  keyboard.update();
}

function drawUnits() {
  if (!S) return;
  const drawn = [...drawCounters(map.board, map.units, S.view.units, clickCounter)];
  for (const [g, u] of drawn) if (u.id && (selected === u.id || attack.attackers().includes(u.id))) g.classList.add('selected');
  drawKey(map.board, byId('counter-key'), S.view.units);
  gestures.markUnits(S, drawn, byId('counter-key'));  // (the units with an order to give, ringed, and the ring's key)
}

// The layers ticked, then the selected unit's hexes and the attack's targets.
function drawOverlays() {
  map.overlay.replaceChildren(); map.top.replaceChildren();
  if (!S) return;
  drawLayers(map.board, map.overlay, S.view.overlays || [], shownLayers, S.view.threats || [], byId('threat-warning'));
  gestures.drawHexOrders(map.board, map.top, map.overlay, new Set(ownStacks().keys()), S, orderId);
  if (selected && gestures.stepwise(S, selected, moveForm).length) gestures.drawTrail(map.board, map.top, S, selected, moveForm, orderId, drawOverlays);
  else if (selected) {
    const held = ownStacks(), dots = svgElement('g', {class: 'reach-dots'});  // (the discs over every hex lit: added last)
    for (const a of unitHexOf(S, selected, moveForm)) {
      if (!a.hex) continue;
      const n = held.get(a.hex) || 0;
      /** @type {SVGElement} */
      let p;
      if (n) {
        // A hex holding the seat's own counters is lit beneath them, its edge drawn over them: a click on one of those
        // counters selects it, as anywhere else, and is never taken for a move onto its hex.  The move is made from a
        // disc on the top counter's corner (or the hex's rim, or the stack's chooser).
        const under = svgElement('polygon', {points: hexPoints(map.board, a.hex, 0.9), class: 'reach-under', 'data-reach-under': a.hex}, map.overlay);
        if (a.warning) under.classList.add('warned');
        under.addEventListener('click', (e) => { e.stopPropagation(); send({id: a.id}); });
        svgElement('polygon', {points: hexPoints(map.board, a.hex, 0.9), class: 'reach-edge', 'data-reach-edge': a.hex}, map.top);
        const [x, y] = map.board.hexes[a.hex], [dx, dy] = stackOffset(map.board, n, n - 1), half = counterSide(map.board) / 2;
        p = svgElement('circle', {cx: x + dx + half, cy: y + dy + half, r: 7, class: 'reach reach-dot', 'data-reach': a.hex, 'data-id': a.id}, dots);
      } else {
        p = svgElement('polygon', {points: hexPoints(map.board, a.hex, 0.9), class: 'reach', 'data-reach': a.hex, 'data-id': a.id}, map.top);
      }
      if (a.warning) { p.classList.add('warned'); p.dataset.warning = a.warning; svgElement('title', {}, p).textContent = a.warning; }  // what the move costs later
      p.addEventListener('mouseenter', () => restOn(a.id));
      p.addEventListener('mouseleave', () => clearTimeout(resting));
      p.addEventListener('click', (e) => { e.stopPropagation(); send({id: a.id}); });
    }
    map.top.appendChild(dots);
  }
  if (attack.attackers().length) {
    for (const h of attack.targets(S)) {
      const p = svgElement('polygon', {points: hexPoints(map.board, h, 0.9), class: 'target', 'data-target': h}, map.top);
      p.addEventListener('click', (e) => { e.stopPropagation(); attack.preview(token, S, map.board, h); });
    }
  }
}

// A move is sent by its id; its route (the one the server lists for it) is asked for only once the pointer has rested
// on the hex a moment (not as it passes, or clicks at once), never while an order is on its way, and an order waits
// for a route asked before it: no route is asked of a position that has changed.
/** @type {Map<string, string[] | null>} */
const routes = new Map();
/** @type {ReturnType<typeof setTimeout> | undefined} */
let resting;
/** @type {Promise<unknown> | null} */
let asking = null;
/** @param {number} id */
function restOn(id) {
  clearTimeout(resting);
  resting = setTimeout(() => { if (!inFlight) routeOf(id).then(showRoute); }, 120);
}
/** @param {number} id */
async function routeOf(id) {
  const key = `${S ? S.version : ''} ${id}`;
  if (!routes.has(key)) {
    if (routes.size > 500) routes.clear();
    const answer = api.route(token, id);
    asking = answer;
    const [ok, data] = await answer;
    asking = null;
    routes.set(key, ok ? data.path : null);
  }
  return routes.get(key);
}
/** @param {string[] | null | undefined} path */
function showRoute(path) {
  for (const r of map.top.querySelectorAll('.route')) r.remove();
  if (!path || !selected) return;
  svgElement('polyline', {points: linePoints(map.board, path), class: 'route'}, map.top);
}

// --- choosing units -------------------------------------------------------------------------------------------
/**
 * @param {Unit} u
 * @param {string} hex
 */
function clickCounter(u, hex) {
  if (!S) return;
  closeChooser();
  panel = u.id ? {unit: u.id, hex} : {unit: null, hex};
  showPanel();
  const stack = S.view.units.filter(x => x.hex === hex && x.side === S?.side && x.id && !x.eliminated);
  if (stack.length > 1 && u.side === S.side && S.my_turn) { openChooser(hex, stack); return; }
  chooseUnit(u);
}

/** The hexes holding the seat's own counters, with the number of counters in each (its own and any other's). */
function ownStacks() {
  /** @type {Map<string, number>} */
  const out = new Map();
  const units = S ? S.view.units.filter(u => u.hex && !u.eliminated) : [];
  for (const u of units) if (u.side === S?.side && u.hex) out.set(u.hex, 0);
  for (const u of units) if (u.hex && out.has(u.hex)) out.set(u.hex, (out.get(u.hex) || 0) + 1);
  return out;
}

/**
 * A small chooser beside a stack of the seat's own counters: one button a counter, to select it; and, while a unit is
 * selected that may go to this hex, one to send it there (the listed action's id).
 * @param {string} hex
 * @param {Unit[]} stack
 */
function openChooser(hex, stack) {
  const box = byId('chooser');
  box.replaceChildren();
  box.dataset.hex = hex;
  const title = document.createElement('div'); title.className = 'chooser-title'; title.textContent = `${hex}: choose a counter`;
  box.appendChild(title);
  for (const u of stack) {
    const b = document.createElement('button');
    b.dataset.choose = u.id || ''; b.textContent = `${u.id} ${u.name && u.name !== u.id ? `(${u.name})` : ''}`.trim();
    b.onclick = () => { closeChooser(); chooseUnit(u); };
    box.appendChild(b);
  }
  const there = selected ? unitHexOf(S, selected, moveForm).find(a => a.hex === hex) : undefined;
  if (there) {
    const b = document.createElement('button');
    b.dataset.chooseMove = String(there.id); b.textContent = there.says; b.title = there.warning || '';
    b.onclick = () => { closeChooser(); send({id: there.id}); };
    box.appendChild(b);
  }
  showBeside(box, [...map.units.querySelectorAll(`.counter[data-hex="${CSS.escape(hex)}"]`)].pop() || null, `${hex}: the counters of a stack`); hideTip();
}

// The side panel: the hex of the unit last clicked or moved, wherever that unit now stands (a move takes the panel
// with it), else the hex clicked.
function showPanel() {
  if (!S) return;
  const u = panel.unit ? S.view.units.find(x => x.id === panel.unit) : undefined;
  const hex = panel.unit ? (u && !u.eliminated ? u.hex : null) : panel.hex;
  if (hex) showStack(hex); else byId('stack').replaceChildren();
}

/** @param {Unit} u */
function chooseUnit(u) {
  if (!S || !S.my_turn) return;
  const ordered = u.id ? gestures.offerUnit(S, u.id, map.units.querySelector(`.counter[data-unit="${CSS.escape(u.id)}"]`), orderId) : false;
  if (ordered && !formsOf(S, u.id || '').length) return;  // (its orders offered beside it; a unit that may also move is selected too)
  if (u.side !== S.side) {
    if (attack.attackers().length && u.hex && attack.targets(S).includes(u.hex)) attack.preview(token, S, map.board, u.hex);
    return;
  }
  const uid = u.id || '';
  const forms = formsOf(S, uid);
  if (composite(S) && !forms.length) {
    if (!attack.gather(S, uid)) { byId('hint').textContent = `${uid} cannot attack now.`; return; }
    render(); attack.explainNoTarget(token, S); return;
  }
  selectUnit(uid, forms);
}

/**
 * Select a unit whose actions are made unit then hex: the map shows the hexes of the chosen form.
 * @param {string} uid
 * @param {string[]} forms
 */
function selectUnit(uid, forms = formsOf(S, uid)) {
  if (selected === uid) gestures.forgetTrail();  // (put down: a route begun hex by hex starts again when picked up)
  selected = forms.length && selected !== uid ? uid : null;
  moveForm = forms[0] || '';
  showForms(uid, forms);
  render();
}

/**
 * The unit's forms (headings) of unit-hex action, when it has more than one: the map shows the hexes of the chosen one.
 * @param {string} uid
 * @param {string[]} forms
 */
function showForms(uid, forms) {
  const hint = byId('hint');
  if (!selected) { hint.textContent = forms.length ? `${uid} put down: click it again to pick it up.` : `${uid} has nothing to do now.`; return; }
  hint.textContent = `${uid}: click a green hex.`;
  if (unitHexOf(S, uid, moveForm).some(a => a.warning)) hint.textContent += ' An orange one warns of a cost: point at it to read why.';
  if (forms.length < 2) return;
  const p = document.createElement('p');
  for (const form of forms) {
    const b = document.createElement('button');
    b.textContent = form; b.dataset.form = form;
    b.classList.toggle('chosen', form === moveForm);
    b.onclick = () => { moveForm = form; showForms(uid, forms); drawOverlays(); };
    p.appendChild(b);
  }
  hint.appendChild(p);
}

/** @param {string} hex */
function showStack(hex) {
  if (!S) return;
  const mine = S.side, picking = S.my_turn;
  const pick = (/** @type {Unit} */ u) => u.side === mine && picking ? () => {
    const now = S?.view.units.find(x => x.id === u.id);  // (as the position is when pressed)
    if (now) chooseUnit(now);
  } : null;
  drawHex(map.board, byId('stack'), hex, S.view.units.filter(u => u.hex === hex), pick);
}

function clearSelection() {
  selected = null; moveForm = ''; attack.clear(); closeChooser(); gestures.forgetTrail();
  byId('hint').textContent = '';
}

// Esc puts down what is picked: the chooser, the selected unit (its lit hexes go) and the units gathered to attack.
/** @param {KeyboardEvent} e */
function onKey(e) {
  if (e.key !== 'Escape' || !S) return;
  const open = !byId('chooser').hidden;
  if (!open && !selected && !attack.attackers().length) return;
  clearSelection(); render();
}

// --- the log ------------------------------------------------------------------------------------------------------
const logLinks = {onHex: flashHex, onUnit: (/** @type {string} */ id) => {
  const u = S?.view.units.find(x => x.id === id);
  if (u && u.hex) { flashHex(u.hex); panel = {unit: id, hex: u.hex}; showPanel(); }
}};

// The whole log, the newest line in view after each update unless the player has scrolled up to read.
function drawLog() {
  if (!S) return;
  const ol = byId('log');
  const following = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 4;
  const unitIds = new Set(S.view.units.flatMap(u => u.id ? [u.id] : []));
  ol.replaceChildren(...S.view.log.map(line => logLine(map.board, line, unitIds)));
  linkLog(ol, logLinks);
  if (following) ol.scrollTop = ol.scrollHeight;
  // the newest line under the prompt too: what led to the decision (a result, a retreat) beside its question
  const newest = S.view.log.at(-1), latest = byId('latest');
  latest.replaceChildren(...(newest ? [logLine(map.board, newest, unitIds)] : []));
  latest.firstElementChild?.prepend('Last: ');
  linkLog(latest, logLinks);
  // what the other side did while this one waited: the server picks the lines from this side's own log
  const lines = (S.my_turn && S.waited) || [];
  byId('waited').hidden = lines.length === 0;
  byId('waited-lines').replaceChildren(...lines.map(line => logLine(map.board, line, unitIds)));
  linkLog(byId('waited-lines'), logLinks);
}

// --- hotseat hand-over ------------------------------------------------------------------------------------------
// With face-down units on the board, the server gives the hotseat page a side's view only when the page names
// the side whose decision it is; otherwise it says only whose decision it is ("handover").  Before the screen
// goes up the page forgets everything it showed, and it asks for the next side's view only after the player
// has said he is that side, so neither side's view is in the page (DOM, SVG or script) while the screen is up.
/** @type {string | null} hotseat: the side whose view is on the page */
let shownSide = null;
/** @type {string | null} hotseat: the side to hand over to */
let nextSide = null;

let looked = false;  // the map scrolled once to the seat's units (after that, where the player leaves it)
function lookOnce() {
  if (looked || !S) return;
  looked = true;
  lookAt(byId('board'), map.units.querySelectorAll(`.counter[data-side="${CSS.escape(S.side)}"]`));
}

/**
 * Show an answer, unless it is older than the position shown, or (`redraw` false) the same position of the same side
 * again: an order's answer and the reload its change's notice starts race (either may come first), and a slow answer
 * overtaken by a newer one must not put the page back, nor a second copy redraw what the player has opened since.
 * The answer to the player's own order or undo is drawn again (`redraw`: its selection was cleared for it).
 * @param {State | Handover} data
 * @param {boolean} [redraw]
 */
async function accept(data, redraw = false) {
  if (S && (data.version < S.version || (!redraw && data.version === S.version && !data.handover && data.side === S.side))) return;
  if (!data.handover) { S = data; if (S.seat === 'both') shownSide = S.side; render(); lookOnce(); return; }
  if (data.side !== shownSide) { handOver(data.side); return; }
  const [ok, again] = await api.state(token, shownSide);  // still this side's decision: its view, asked for by name
  if (!ok) showError(again.error); else if (again.handover) handOver(again.side); else { S = again; render(); lookOnce(); }
}
function forgetView() {
  S = null; shownSide = null; clearSelection(); panel = {unit: null, hex: null};
  for (const g of [map.units, map.overlay, map.top]) g.replaceChildren();
  hideTip(); keyboard.forget();
  byId('waited').hidden = true;
  for (const id of ['log', 'latest', 'waited-lines', 'orders', 'stack', 'attack-info', 'hint', 'prompt', 'status', 'title', 'layers', 'counter-key', 'trays', 'threat-warning']) byId(id).replaceChildren();
  byId('export-link', HTMLAnchorElement).href = '#'; routes.clear();
  byId('undo', HTMLButtonElement).disabled = true;
}
/** @param {string} side */
function handOver(side) {
  forgetView();
  nextSide = side;
  const who = sideName(side), ok = byId('handover-ok');
  byId('handover-text').textContent = `The ${who} player decides now. Hand over the screen to the ${who} player.`;
  ok.textContent = `I am the ${who} player`;
  byId('handover').hidden = false;
  ok.focus();
}
async function takeOver() {
  const side = nextSide;
  if (!side) return;
  nextSide = null;
  const [ok, data] = await api.state(token, side);
  if (!ok) { nextSide = side; byId('handover-text').textContent = data.error; return; }  // (the button may be pressed again)
  if (data.handover) { handOver(data.side); return; }  // the decision moved on meanwhile
  byId('handover').hidden = true;
  S = data; shownSide = side; render(); lookOnce();
}

// --- the browser's memory -----------------------------------------------------------------------------------------
// This game among the games this browser has opened (the lobby lists them, newest first; at most 30 kept).
function noteGame() {
  if (!S) return;
  const seat = S.seat === 'both' ? 'hotseat' : sideName(S.side);
  const entry = {link: location.pathname, title: S.view.title, seat, turn: S.view.turn, over: S.view.over, seen: Date.now()};
  try {
    /** @type {{link: string}[]} */
    const games = (JSON.parse(localStorage.getItem('tobruk-games') || 'null') || []).filter((/** @type {{link: string}} */ g) => g.link !== entry.link);
    localStorage.setItem('tobruk-games', JSON.stringify([entry, ...games].slice(0, 30)));
  } catch { /* storage refused: the lobby lists nothing */ }
}

// The map's zoom, kept for each game in the browser (localStorage) so a reload keeps it.
let zoom = 1;
const zoomKey = `tobruk-zoom-${token}`;
/** The map's own size (its SVG's, before the zoom). */
const mapSize = () => { const svg = byId('map-holder').querySelector('svg'); return svg ? [svg.width.baseVal.value, svg.height.baseVal.value] : [0, 0]; };
/**
 * The zoom set: the map's SVG scaled and its holder given the scaled size, so the pane scrolls over the map as it is
 * drawn (the holder scaled itself kept its own size: a map zoomed out sat in an empty area that still scrolled).
 * @param {number} z
 */
function setZoom(z) {
  zoom = Math.min(4, Math.max(0.25, z));
  const holder = byId('map-holder'), svg = holder.querySelector('svg'), [w, h] = mapSize();
  if (svg && w && h) { svg.style.transform = `scale(${zoom})`; holder.style.width = `${w * zoom}px`; holder.style.height = `${h * zoom}px`; }
  holder.dataset.zoom = String(zoom);
  try { localStorage.setItem(zoomKey, String(zoom)); } catch { /* storage refused: the zoom lasts this page */ }
}

// Pan by dragging the map (not from a counter or a highlighted hex, which are clicked).
function panByDragging() {
  const pane = byId('board');
  /** @type {[number, number, number, number] | null} */
  let drag = null;
  pane.addEventListener('mousedown', (e) => {
    if (e.button === 0 && !(e.target instanceof Element && e.target.closest('.counter, .reach, .reach-under, .target, .aim'))) drag = [e.clientX, e.clientY, pane.scrollLeft, pane.scrollTop];
  });
  window.addEventListener('mousemove', (e) => { if (drag) { pane.scrollLeft = drag[2] - (e.clientX - drag[0]); pane.scrollTop = drag[3] - (e.clientY - drag[1]); } });
  window.addEventListener('mouseup', () => { drag = null; });
}

// --- start ----------------------------------------------------------------------------------------------------------
async function start() {
  const [ok, st] = await api.state(token);
  if (!ok) { byId('hint').textContent = st.error; return; }
  const [board, svg] = await load(byId('map-holder'), st.scenario);
  map = {board, overlay: svgElement('g', {id: 'overlay'}, svg), units: svgElement('g', {id: 'units'}, svg), top: svgElement('g', {id: 'top'}, svg)};
  tipAvoids(() => [...map.top.querySelectorAll('[data-reach], [data-target]')].map(e => e.getBoundingClientRect()));  // the hexes lit
  setupHelp(board);  // clause ids as links to their help, and the CRT panel
  byId('preview-note').textContent = board.preview || ''; byId('preview-note').hidden = !board.preview;
  keyboard = setupKeyboard({board, svg, state: () => S});  // the map's cursor, the keys, the live regions
  svg.addEventListener('click', (e) => {
    const h = e.target instanceof Element ? e.target.closest('[data-hex]') : null;
    const hex = h instanceof SVGElement ? h.dataset.hex : undefined;
    if (hex && attack.attackers().length && attack.targets(S).includes(hex)) attack.preview(token, S, map.board, hex);
  });
  panByDragging();
  setZoom(Number(localStorage.getItem(zoomKey)) || 1);
  byId('zoom-in').onclick = () => setZoom(zoom * 1.25);
  byId('zoom-out').onclick = () => setZoom(zoom / 1.25);
  byId('zoom-fit').onclick = () => {  // the whole map in the pane
    const pane = byId('board'), [w, h] = mapSize();
    if (w && h) { setZoom(Math.min(pane.clientWidth / w, pane.clientHeight / h)); pane.scrollTo(0, 0); }
  };
  byId('victory-close').onclick = () => { resultClosed = true; byId('victory').hidden = true; byId('show-result').focus(); };
  byId('show-result').onclick = () => { resultClosed = false; byId('victory').hidden = false; byId('victory-close').focus(); };
  byId('undo').onclick = async () => {
    if (!S) return;
    const [done, data] = await api.undo(token, S.version);
    if (!done) showError(data.error); else { clearSelection(); await accept(data, true); }
  };
  byId('declare').onclick = () => { const made = attack.declared(); if (made) send(made); };
  byId('attack-cancel').onclick = () => { clearSelection(); render(); };
  byId('handover-ok').onclick = takeOver;
  document.addEventListener('keydown', onKey);
  document.addEventListener('mousedown', (e) => {  // a press anywhere else closes the stack's chooser
    if (!(e.target instanceof Node && byId('chooser').contains(e.target))) closeChooser();
  });
  byId('rematch').onclick = async () => { const [made, data] = await api.rematch(token); if (made) location.href = data.link; };
  await accept(st);
  if (!st.handover) notify.setup(token, st);
  api.watch(token, (version) => { if (S && version > S.version) reload(); });
}
// What the browser tests read of the page's state (that the hotseat screen leaves no view in the script, that an
// order has been answered) and the page's one way of sending an order, for a test to send a stale one as the page
// would.  A module has no globals: this one name is made on purpose, read-only, and nothing of the page uses it.
Object.defineProperty(window, 'tobrukGame', {value: Object.freeze({
  get state() { return S; },
  get selected() { return selected; },
  get attackers() { return [...attack.attackers()]; },
  get pendingAttack() { return attack.declared(); },
  get inFlight() { return inFlight; },
  token,
  send,
})});
start();
