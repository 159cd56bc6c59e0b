// tobruk's game page: draws what the server sends for this seat and sends actions back.
// The server is the referee: this page only offers what the legal list contains, as each action's gesture says it is
// made, and sends back the listed id or, for a whole choice it gathered, the action's fields.  It knows no game
// system: the board (hexes, colours, symbols, status words) comes with the map (board.js), the position, the layers
// over the map, the turn's notes and the result with the seat's state.
'use strict';
const token = location.pathname.split('/').pop();
let S = null, board = null, selected = null, moveForm = '', attackers = [], zoom = 1, pendingAttack = null;
let inFlight = false;  // an order sent and not yet answered: further clicks and route requests wait for its answer
let resultClosed = false;  // the player closed the result to look at the final board
const shownLayers = new Set();  // the keys of the layers ticked (kept across positions)
let gOverlay, gUnits, gTop;

const $ = (id) => document.getElementById(id);
const el = Board.el, escapeHtml = Board.escapeHtml;
const corners = (label, scale = 1) => Board.corners(board, label, scale);
const sideName = (side) => board.sides[side].name;

// --- talking to the server ------------------------------------------------------------------------------
// An action is sent as the id the server listed it under ({id}), or, for a whole choice gathered on the map (an
// attack), as its fields ({action}); never as text put together here.
async function api(path, opts) { const r = await fetch(path, opts); return [r.ok, await r.json(), r.status]; }
function post(path, body) { return api(path, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)}); }
async function load() { const [, data] = await api(stateUrl()); await accept(data); }
// One order at a time: a second click (a double click) while the first is on its way is ignored, and the hexes
// lit for the old position go at once, so the pointer passing over them asks for no stale route.
async function send(what) {
  if (inFlight) return false;
  inFlight = true;
  clearTimeout(resting);
  selected = null; attackers = [];
  drawOverlays();
  try {
    if (asking) await asking.catch(() => null);
    const [ok, data] = await post(`/api/g/${token}/order`, {...what, version: S.version});
    if (!ok) { showError(data.error); await load(); return false; }
    clearSelection(); await accept(data); return true;
  } finally { inFlight = false; }
}
function showError(text) { $('hint').innerHTML = `<p class="error">${escapeHtml(text)}</p>`; }

// --- the legal actions ------------------------------------------------------------------------------------
// The server lists each legal action with its gesture (how it is made), its heading and the unit and hex it picks:
// a unit-hex action (a move, a retreat, a placement) is made on the map by clicking the unit, then a highlighted
// hex; a heading of its own (a move by trucks) is another form, chosen before the hexes are shown.  A composite
// (group-target: an attack) is made by gathering units and clicking a target among those the server lists.
const listed = () => (S && S.legal && S.legal.actions) || [];
const composite = () => ((S && S.legal && S.legal.composites) || []).find(c => c.gesture === 'group-target');
function unitHexOf(uid, group = moveForm) { return listed().filter(a => a.gesture === 'unit-hex' && a.unit === uid && a.group === group); }
function formsOf(uid) { return [...new Set(listed().filter(a => a.gesture === 'unit-hex' && a.unit === uid).map(a => a.group))]; }
function canGather(uid) { const c = composite(); return Boolean(c) && c.targets.some(t => t.units.includes(uid)); }
function attackTargets() { const c = composite(); return c ? c.targets.filter(t => attackers.every(a => t.units.includes(a))).map(t => t.hex) : []; }

// --- drawing ----------------------------------------------------------------------------------------------
function render() {
  const v = S.view;
  Notify.update(S);
  $('title').textContent = `${v.title}: ${sideName(S.side)} ${S.mode === 'hotseat' ? '(hotseat)' : ''}`;
  const turn = v.turn_name === `Turn ${v.turn}` ? `Turn ${v.turn}/${v.turns}` : `${v.turn_name} (${v.turn}/${v.turns})`;
  $('status').textContent = [turn, v.phase_title, Board.notes(v.notes)].filter(Boolean).join(' · ');
  $('undo').disabled = !S.can_undo;
  $('export-link').href = `/api/g/${token}/export` + (S.seat === 'both' ? `?side=${S.side}` : '');
  drawUnits(); drawLayers(); drawOverlays(); drawDecision(); drawLog(); noteGame();
  $('show-result').hidden = !v.summary;
  if (v.summary) {
    $('victory-text').textContent = Board.result(board, v.summary);
    $('victory').hidden = resultClosed;
    $('replay-link').href = `/replay/${token}`;
    $('form-link').href = `/api/g/${token}/form`;
    $('record-link').href = `/api/g/${token}/record`;
  }
}

function drawUnits() {
  for (const [g, u] of Board.drawCounters(board, gUnits, S.view.units, clickCounter)) {
    if (u.id && (selected === u.id || attackers.includes(u.id))) g.classList.add('selected');
  }
}

// The layers the system sends for this side (its enemy's zones of control, its supply lines, the victory hexes ...),
// each drawn while its box is ticked; then the selected unit's hexes and the attack's targets.
function drawLayers() {
  const box = $('layers'); box.replaceChildren();
  for (const layer of S.view.overlays || []) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox'; input.dataset.layer = layer.key; input.checked = shownLayers.has(layer.key);
    input.onchange = () => { if (input.checked) shownLayers.add(layer.key); else shownLayers.delete(layer.key); drawOverlays(); };
    label.append(input, ` ${layer.title}`);
    if (isEmpty(layer)) {  // (the supply lines before the first supply phase): said, not left blank
      const note = document.createElement('span');
      note.className = 'layer-empty'; note.dataset.emptyLayer = layer.key; note.textContent = ' (nothing to show yet)';
      label.title = `${layer.title}: nothing to show yet`;
      label.appendChild(note);
    }
    box.appendChild(label);
  }
}
const isEmpty = (layer) => !(layer.hexes || []).length && !(layer.lines || []).length;
// A layer shades only the hexes a unit may enter (the board's passable hexes: no zone of control at sea).
const passable = (h) => Boolean(board.hexes[h]) && (!board.passable || board.passableSet.has(h));
function drawOverlays() {
  gOverlay.replaceChildren(); gTop.replaceChildren();
  for (const layer of S.view.overlays || []) {
    if (!shownLayers.has(layer.key)) continue;
    if (layer.kind === 'hexes') {
      for (const h of layer.hexes) if (passable(h))
        el('polygon', {points: corners(h, 0.95), class: 'layer', fill: layer.colour, 'data-layer': layer.key, 'data-hex': h}, gOverlay);
    } else {
      for (const line of layer.lines) if (line.every(h => board.hexes[h]))
        el('polyline', {points: line.map(h => board.hexes[h].join(',')).join(' '), class: 'layer-line', stroke: layer.colour, 'data-layer': layer.key}, gOverlay);
    }
  }
  if (selected) {
    for (const a of unitHexOf(selected)) {
      const p = el('polygon', {points: corners(a.hex, 0.9), class: 'reach', 'data-reach': a.hex, 'data-id': a.id}, gTop);
      p.addEventListener('mouseenter', () => restOn(a.id));
      p.addEventListener('mouseleave', () => clearTimeout(resting));
      p.addEventListener('click', (e) => { e.stopPropagation(); send({id: a.id}); });
    }
  }
  if (attackers.length) {
    for (const h of attackTargets()) {
      const p = el('polygon', {points: corners(h, 0.9), class: 'target', 'data-target': h}, gTop);
      p.addEventListener('click', (e) => { e.stopPropagation(); previewAttack(h); });
    }
  }
}

// A move is sent by its id; its route (the one the server lists for it) is asked for when the pointer rests on the hex.
// A route is asked for only once the pointer has rested on the hex a moment (not as it passes, or clicks at once),
// never while an order is on its way, and an order waits for a route asked before it: no route is asked of a
// position that has changed.
const routes = new Map();
let resting = null, asking = null;
function restOn(id) {
  clearTimeout(resting);
  resting = setTimeout(() => { if (!inFlight) routeOf(id).then(showRoute); }, 120);
}
async function routeOf(id) {
  const key = `${S.version} ${id}`;
  if (!routes.has(key)) {
    if (routes.size > 500) routes.clear();
    asking = api(`/api/g/${token}/path?id=${id}`);
    const [ok, data] = await asking;
    asking = null;
    routes.set(key, ok ? data.path : null);
  }
  return routes.get(key);
}
function showRoute(path) {
  for (const r of gTop.querySelectorAll('.route')) r.remove();
  if (!path || !selected) return;
  el('polyline', {points: path.map(h => board.hexes[h].join(',')).join(' '), class: 'route'}, gTop);
}

function clickCounter(u, hex) {
  showStack(hex);
  const stack = S.view.units.filter(x => x.hex === hex && x.side === S.side && x.id);
  if (stack.length > 1 && u.side === S.side) return;  // a stack: pick the unit in the side panel
  chooseUnit(u);
}

function chooseUnit(u) {
  if (!S.my_turn) return;
  if (u.side !== S.side) { if (attackers.length && u.hex && attackTargets().includes(u.hex)) previewAttack(u.hex); return; }
  const forms = formsOf(u.id);
  if (composite() && !forms.length) {
    if (!canGather(u.id) && !attackers.includes(u.id)) { $('hint').textContent = `${u.id} cannot attack now.`; return; }
    attackers = attackers.includes(u.id) ? attackers.filter(a => a !== u.id) : [...attackers, u.id];
    pendingAttack = null;
    $('attack-panel').hidden = attackers.length === 0;
    $('attack-info').textContent = attackers.length ? `Attackers: ${attackers.join(', ')}. Click a red hex.` : '';
    render(); return;
  }
  selectUnit(u.id, forms);
}

// Select a unit whose actions are made unit then hex: the map shows the hexes of the chosen form.
function selectUnit(uid, forms = formsOf(uid)) {
  selected = forms.length && selected !== uid ? uid : null;
  moveForm = forms[0] || '';
  showForms(uid, forms);
  render();
}

// The unit's forms (headings) of unit-hex action, when it has more than one: the map shows the hexes of the chosen one.
function showForms(uid, forms) {
  if (!selected) { $('hint').textContent = `${uid} has nothing to do now.`; return; }
  $('hint').textContent = `${uid}: click a green hex.`;
  if (forms.length < 2) return;
  const p = document.createElement('p');
  for (const form of forms) {
    const b = document.createElement('button');
    b.textContent = form; b.dataset.form = form;
    b.classList.toggle('chosen', form === moveForm);
    b.onclick = () => { moveForm = form; showForms(uid, forms); drawOverlays(); };
    p.appendChild(b);
  }
  $('hint').appendChild(p);
}

// The odds of the attack gathered so far on a target hex, asked for by the attack's fields (the composite's fields
// with the gathered units and the target in the fields the server names).
async function previewAttack(hex) {
  const c = composite();
  if (!c) return;
  const fields = {...c.fields, [c.gather]: [...attackers], [c.target]: [hex]};
  const [ok, data] = await api(`/api/g/${token}/odds?action=${encodeURIComponent(JSON.stringify(fields))}`);
  $('attack-panel').hidden = false;
  if (!ok) { $('attack-info').innerHTML = `<p class="error">${escapeHtml(data.error)}</p>`; pendingAttack = null; return; }
  pendingAttack = fields;
  $('attack-info').innerHTML = `<p><b>${escapeHtml(c.label)} ${escapeHtml(hex)}: ${escapeHtml(attackers.join(', '))}</b>, odds ${escapeHtml(data.odds)}</p>` +
    `<ul>${data.lines.map(l => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
    `<table class="odds">${data.outcomes.map(([r, p]) => `<tr><td>${Board.explained(board, escapeHtml(r))}</td><td>${(p * 100).toFixed(1)}%</td></tr>`).join('')}</table>`;
}

function showStack(hex) {
  const units = S.view.units.filter(u => u.hex === hex);
  $('stack').innerHTML = `<h3>${escapeHtml(hex)}</h3>` + units.map(u => !u.id ? '<p>a face-down unit</p>' :
    `<p>${u.side === S.side && S.my_turn ? `<button data-pick="${escapeHtml(u.id)}">${escapeHtml(u.id)}</button>` : escapeHtml(u.id)}
     ${escapeHtml(u.name)} ${escapeHtml(u.factors)} ${escapeHtml(u.kind)}${Board.words(board, u).map(w => `, ${escapeHtml(w)}`).join('')}</p>`).join('');
  for (const b of $('stack').querySelectorAll('button[data-pick]')) {
    b.onclick = () => chooseUnit(S.view.units.find(x => x.id === b.dataset.pick));
  }
}

// The legal actions not made on the map: for each heading of unit-hex actions, its units as buttons (a unit off the
// map, a reinforcement, is picked here); the rest by heading, a few as buttons, many as a list, each sent by its id.
// The parts of a composite the map makes (an attack's targets) are not listed.
function drawDecision() {
  const d = S.view.decision;
  $('prompt').textContent = d ? `${sideName(d.side)}: ${d.prompt}` : 'The game is over';
  const box = $('orders'); box.replaceChildren();
  if (!S.my_turn) {
    if (d) { $('hint').textContent = `Waiting for the ${sideName(d.side)} player.`; $('hint').dataset.waiting = '1'; }
    return;
  }
  if ($('hint').dataset.waiting) { $('hint').textContent = ''; delete $('hint').dataset.waiting; }
  if (d && !$('hint').textContent) $('hint').textContent = 'Your turn. ';
  const picks = {}, groups = {};
  for (const a of listed()) {
    if (a.part_of) continue;
    if (a.gesture === 'unit-hex') { const units = (picks[a.group] ||= []); if (!units.includes(a.unit)) units.push(a.unit); continue; }
    (groups[a.group] ||= []).push(a);
  }
  const told = (t) => { const h = $('hint'); if (!h.textContent || h.textContent === 'Your turn. ') h.textContent = `Your turn. ${t}`; };
  if (Object.keys(picks).length) told('Click one of your units to see where it may go.');
  if (composite()) told('Click your units to attack with, then a red hex.');
  for (const [group, units] of Object.entries(picks)) {
    const p = document.createElement('div'); p.className = 'picks'; p.dataset.group = group;
    p.append(`${group}: `);
    for (const uid of units) {
      const b = document.createElement('button'); b.textContent = uid; b.dataset.pick = uid; b.dataset.group = group;
      b.onclick = () => { selected = null; moveForm = group; selectUnit(uid, [group, ...formsOf(uid).filter(f => f !== group)]); };
      p.appendChild(b);
    }
    box.appendChild(p);
  }
  for (const [group, actions] of Object.entries(groups)) {
    if (actions.length <= 8) {
      for (const a of actions) { const b = document.createElement('button'); b.textContent = a.label; b.dataset.order = a.label; b.dataset.id = a.id; b.onclick = () => send({id: a.id}); box.appendChild(b); }
    } else {
      const s = document.createElement('select'); s.dataset.group = group;
      for (const a of actions) { const opt = document.createElement('option'); opt.textContent = a.label; opt.value = a.id; s.appendChild(opt); }
      const b = document.createElement('button'); b.textContent = group; b.onclick = () => send({id: Number(s.value)});
      const p = document.createElement('div'); p.append(s, b); box.appendChild(p);
    }
  }
}

const FACES = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
// A line of the log as the page shows it: hex labels and unit ids as links, dice as faces, result codes explained.
function logLine(line, unitIds) {
  const li = document.createElement('li');
  li.innerHTML = Board.explained(board, Board.linked(board, line, unitIds).replace(/die (\d)/g, (m, n) => `die <span class="die">${FACES[n]}</span>`));
  return li;
}
function linkLog(box) {
  for (const a of box.querySelectorAll('a[data-hex]')) a.onclick = () => flash(a.dataset.hex);
  for (const a of box.querySelectorAll('a[data-unit-link]')) a.onclick = () => {
    const u = S.view.units.find(x => x.id === a.dataset.unitLink);
    if (u && u.hex) { flash(u.hex); showStack(u.hex); }
  };
}
// The whole log, the newest line in view after each update unless the player has scrolled up to read.
function drawLog() {
  const ol = $('log');
  const following = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 4;
  const unitIds = new Set(S.view.units.filter(u => u.id).map(u => u.id));
  ol.replaceChildren(...S.view.log.map(line => logLine(line, unitIds)));
  linkLog(ol);
  if (following) ol.scrollTop = ol.scrollHeight;
  drawWaited(unitIds);
}
// What the other side did while this one waited: the server picks the lines from this side's own log.
function drawWaited(unitIds) {
  const lines = (S.my_turn && S.waited) || [];
  $('waited').hidden = lines.length === 0;
  $('waited-lines').replaceChildren(...lines.map(line => logLine(line, unitIds)));
  linkLog($('waited-lines'));
}
function flash(hex) { const p = el('polygon', {points: corners(hex), class: 'flash', 'data-flash': hex}, gTop); setTimeout(() => p.remove(), 1200); }

// --- hotseat hand-over -------------------------------------------------------------------------------------
// With face-down units on the board, the server gives the hotseat page a side's view only when the page names
// the side whose decision it is; otherwise it says only whose decision it is ("handover").  Before the screen
// goes up the page forgets everything it showed, and it asks for the next side's view only after the player
// has said he is that side, so neither side's view is in the page (DOM, SVG or script) while the screen is up.
let shownSide = null, nextSide = null;  // hotseat: the side whose view is on the page; the side to hand over to
function stateUrl() { return `/api/g/${token}/state` + (shownSide ? `?side=${shownSide}` : ''); }
async function accept(data) {
  if (!data.handover) { S = data; if (S.seat === 'both') shownSide = S.side; render(); return; }
  if (data.side !== shownSide) { handOver(data.side); return; }
  const [, again] = await api(stateUrl());  // still this side's decision: its view, asked for by name
  if (again.handover) handOver(again.side); else { S = again; render(); }
}
function forgetView() {
  S = null; shownSide = null; clearSelection();
  for (const g of [gUnits, gOverlay, gTop]) g.replaceChildren();
  $('waited').hidden = true;
  for (const id of ['log', 'waited-lines', 'orders', 'stack', 'attack-info', 'hint', 'prompt', 'status', 'title', 'layers']) $(id).replaceChildren();
  $('export-link').href = '#'; routes.clear();
  $('undo').disabled = true;
}
function handOver(side) {
  forgetView();
  nextSide = side;
  const who = sideName(side);
  $('handover-text').textContent = `The ${who} player decides now. Hand over the screen to the ${who} player.`;
  $('handover-ok').textContent = `I am the ${who} player`;
  $('handover').hidden = false;
  $('handover-ok').focus();
}
async function takeOver() {
  const side = nextSide;
  if (!side) return;
  nextSide = null;
  const [, data] = await api(`/api/g/${token}/state?side=${side}`);
  if (data.handover) { handOver(data.side); return; }  // the decision moved on meanwhile
  $('handover').hidden = true;
  S = data; shownSide = side; render();
}

function clearSelection() { selected = null; moveForm = ''; attackers = []; pendingAttack = null; $('attack-panel').hidden = true; $('hint').textContent = ''; }

// This game among the games this browser has opened (the lobby lists them, newest first; at most 30 kept).
function noteGame() {
  const seat = S.seat === 'both' ? 'hotseat' : sideName(S.side);
  const entry = {link: location.pathname, title: S.view.title, seat, turn: S.view.turn, over: S.view.over, seen: Date.now()};
  try {
    const games = (JSON.parse(localStorage.getItem('tobruk-games')) || []).filter(g => g.link !== entry.link);
    localStorage.setItem('tobruk-games', JSON.stringify([entry, ...games].slice(0, 30)));
  } catch { /* storage refused: the lobby lists nothing */ }
}

// The map's zoom, kept for each game in the browser (localStorage) so a reload keeps it.
const zoomKey = () => `tobruk-zoom-${token}`;
function setZoom(z) {
  zoom = Math.min(4, Math.max(0.25, z));
  $('map-holder').style.transform = `scale(${zoom})`;
  try { localStorage.setItem(zoomKey(), String(zoom)); } catch { /* storage refused: the zoom lasts this page */ }
}

// --- start ------------------------------------------------------------------------------------------------
async function start() {
  const [, st] = await api(`/api/g/${token}/state`);
  const [data, svg] = await Board.load($('map-holder'), st.scenario);
  board = data;
  board.passableSet = new Set(board.passable || []);
  gOverlay = el('g', {id: 'overlay'}, svg); gUnits = el('g', {id: 'units'}, svg); gTop = el('g', {id: 'top'}, svg);
  svg.addEventListener('click', (e) => { const h = e.target.closest('[data-hex]'); if (h && attackers.length && attackTargets().includes(h.dataset.hex)) previewAttack(h.dataset.hex); });
  // pan by dragging the map
  const pane = $('board'); let drag = null;
  pane.addEventListener('mousedown', (e) => { if (e.button === 0 && !e.target.closest('.counter, .reach, .target')) drag = [e.clientX, e.clientY, pane.scrollLeft, pane.scrollTop]; });
  window.addEventListener('mousemove', (e) => { if (drag) { pane.scrollLeft = drag[2] - (e.clientX - drag[0]); pane.scrollTop = drag[3] - (e.clientY - drag[1]); } });
  window.addEventListener('mouseup', () => { drag = null; });
  setZoom(Number(localStorage.getItem(zoomKey())) || 1);
  $('zoom-in').onclick = () => setZoom(zoom * 1.25);
  $('zoom-out').onclick = () => setZoom(zoom / 1.25);
  $('victory-close').onclick = () => { resultClosed = true; $('victory').hidden = true; $('show-result').focus(); };
  $('show-result').onclick = () => { resultClosed = false; $('victory').hidden = false; $('victory-close').focus(); };
  $('undo').onclick = async () => { const [ok, data] = await post(`/api/g/${token}/undo`, {version: S.version});
    if (!ok) showError(data.error); else { clearSelection(); await accept(data); } };
  $('declare').onclick = () => { if (pendingAttack) send({action: pendingAttack}); };
  $('attack-cancel').onclick = () => { clearSelection(); render(); };
  $('handover-ok').onclick = takeOver;
  $('rematch').onclick = async () => { const [ok, data] = await post(`/api/g/${token}/rematch`, {}); if (ok) location.href = data.link; };
  await accept(st);
  Notify.setup(token, st);
  const events = new EventSource(`/api/g/${token}/events`);
  events.onmessage = (m) => { const v = JSON.parse(m.data).version; if (S && v !== S.version) load(); };
}
start();
