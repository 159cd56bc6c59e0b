// tobruk's game page: draws what the server sends for this seat and sends orders back.
// The server is the referee: this page only offers what the legal-order list contains.  It knows no game system:
// the board (hexes, neighbours, colours, symbols, status words) comes with the map (board.js), the position,
// the turn's notes and the result with the seat's state.
'use strict';
const token = location.pathname.split('/').pop();
let S = null, board = null, selected = null, moveForm = '', attackers = [], zoom = 1, pendingAttack = null;
let gOverlay, gUnits, gTop;

const $ = (id) => document.getElementById(id);
const el = Board.el, escapeHtml = Board.escapeHtml;
const corners = (label, scale = 1) => Board.corners(board, label, scale);
const neighbours = (label) => board.neighbours[label] || [];
const sideName = (side) => board.sides[side].name;

// --- talking to the server ------------------------------------------------------------------------------
async function api(path, opts) { const r = await fetch(path, opts); return [r.ok, await r.json(), r.status]; }
function post(path, body) { return api(path, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)}); }
async function load() { const [, data] = await api(stateUrl()); await accept(data); }
async function send(order) {
  const [ok, data] = await post(`/api/g/${token}/order`, {order, version: S.version});
  if (!ok) { showError(data.error); await load(); return false; }
  clearSelection(); await accept(data); return true;
}
function showError(text) { $('hint').innerHTML = `<p class="error">${escapeHtml(text)}</p>`; }

// --- the legal orders ---------------------------------------------------------------------------------------
// A move is "move UNIT DEST" (or its route, where a unit has more than one to a hex) and maybe more words after
// it: those make another form of move ("by-trucks"), offered on the map as a choice and listed with the orders.
function moveOf(order) {
  const w = order.split(' ');
  if (w[0] !== 'move' || w.length < 3) return null;
  const route = w[2].split('-');
  return {unit: w[1], to: route[route.length - 1], form: w.slice(3).join(' ')};
}
function movesOf(uid, form = moveForm) { return S.legal.filter(o => { const m = moveOf(o); return m && m.unit === uid && m.form === form; }); }
function formsOf(uid) { return [...new Set(S.legal.map(moveOf).filter(m => m && m.unit === uid).map(m => m.form))]; }
function enemyHexes() { return new Set(S.view.units.filter(u => u.side !== S.side && u.hex && !u.eliminated && u.type !== 'air').map(u => u.hex)); }
function attackTargets() {
  const mine = attackers.map(a => S.view.units.find(u => u.id === a)).filter(Boolean);
  return [...enemyHexes()].filter(h => mine.every(u => neighbours(u.hex).includes(h)));
}
function canAttack() { return S.my_turn && S.legal.some(o => o.startsWith('target ')); }

// --- drawing ----------------------------------------------------------------------------------------------
function render() {
  const v = S.view;
  Notify.update(S);
  $('title').textContent = `${v.title}: ${sideName(S.side)} ${S.mode === 'hotseat' ? '(hotseat)' : ''}`;
  $('status').textContent = [`Turn ${v.turn}/${v.turns}`, v.phase_title, Board.notes(v.notes)].filter(Boolean).join(' · ');
  $('undo').disabled = !S.can_undo;
  $('export-link').href = `/api/g/${token}/export` + (S.seat === 'both' ? `?side=${S.side}` : '');
  drawUnits(); drawOverlays(); drawDecision(); drawLog();
  if (v.summary) {
    $('victory-text').textContent = Board.result(board, v.summary);
    $('victory').hidden = false;
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

function drawOverlays() {
  gOverlay.replaceChildren(); gTop.replaceChildren();
  if ($('ov-zoc').checked) {
    const zoc = new Set();
    for (const h of enemyHexes()) for (const n of neighbours(h)) zoc.add(n);
    for (const h of zoc) el('polygon', {points: corners(h, 0.95), class: 'zoc'}, gOverlay);
  }
  if ($('ov-supply').checked) {
    for (const e of Object.values(S.view.supply || {})) if (e.route && e.route.length > 1)
      el('polyline', {points: e.route.map(h => board.hexes[h].join(',')).join(' '), class: 'supply'}, gOverlay);
  }
  if (selected) {
    for (const o of movesOf(selected)) {
      const dest = moveOf(o).to;
      const p = el('polygon', {points: corners(dest, 0.9), class: 'reach', 'data-reach': dest}, gTop);
      p.addEventListener('mouseenter', () => routeOf(o).then(showRoute));
      p.addEventListener('click', (e) => { e.stopPropagation(); send(o); });
    }
  }
  if (attackers.length) {
    for (const h of attackTargets()) {
      const p = el('polygon', {points: corners(h, 0.9), class: 'target', 'data-target': h}, gTop);
      p.addEventListener('click', (e) => { e.stopPropagation(); previewAttack(h); });
    }
  }
}

// A move is sent as its unit and destination; its route is asked for when the pointer rests on the hex.
const routes = new Map();
async function routeOf(order) {
  const key = `${S.version} ${order}`;
  if (!routes.has(key)) {
    if (routes.size > 500) routes.clear();
    const [ok, data] = await api(`/api/g/${token}/path?order=${encodeURIComponent(order)}`);
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
  if (u.side !== S.side) { if (attackers.length && u.hex) previewAttack(u.hex); return; }
  if (canAttack()) {
    attackers = attackers.includes(u.id) ? attackers.filter(a => a !== u.id) : [...attackers, u.id];
    $('attack-panel').hidden = attackers.length === 0;
    $('attack-info').textContent = attackers.length ? `Attackers: ${attackers.join(', ')}. Click a red hex.` : '';
    render(); return;
  }
  const forms = formsOf(u.id);
  selected = forms.length && selected !== u.id ? u.id : null;
  moveForm = forms.includes('') ? '' : (forms[0] || '');
  showForms(u, forms);
  render();
}

// The unit's forms of move, when it has more than one: the map shows the destinations of the chosen one.
function showForms(u, forms) {
  if (!selected) { $('hint').textContent = `${u.id} cannot move now.`; return; }
  $('hint').textContent = `${u.id}: click a green hex to move there.`;
  if (forms.length < 2) return;
  const p = document.createElement('p');
  for (const form of forms) {
    const b = document.createElement('button');
    b.textContent = form ? `move … ${form}` : 'move'; b.dataset.form = form;
    b.classList.toggle('chosen', form === moveForm);
    b.onclick = () => { moveForm = form; showForms(u, forms); drawOverlays(); };
    p.appendChild(b);
  }
  $('hint').appendChild(p);
}

async function previewAttack(hex) {
  const order = `attack ${hex} with ${attackers.join(',')}`;
  const [ok, data] = await api(`/api/g/${token}/odds?order=${encodeURIComponent(order)}`);
  $('attack-panel').hidden = false;
  if (!ok) { $('attack-info').innerHTML = `<p class="error">${escapeHtml(data.error)}</p>`; pendingAttack = null; return; }
  pendingAttack = order;
  $('attack-info').innerHTML = `<p><b>${escapeHtml(order)}</b>: odds ${escapeHtml(data.odds)}</p>` +
    `<ul>${data.lines.map(l => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
    `<table class="odds">${data.outcomes.map(([r, p]) => `<tr><td>${escapeHtml(r)}</td><td>${(p * 100).toFixed(1)}%</td></tr>`).join('')}</table>`;
}

function showStack(hex) {
  const units = S.view.units.filter(u => u.hex === hex);
  $('stack').innerHTML = `<h3>${escapeHtml(hex)}</h3>` + units.map(u => !u.id ? '<p>a face-down unit</p>' :
    `<p>${u.side === S.side && S.my_turn ? `<button data-pick="${escapeHtml(u.id)}">${escapeHtml(u.id)}</button>` : escapeHtml(u.id)}
     ${escapeHtml(u.name)} ${escapeHtml(u.factors)} ${escapeHtml(u.type)}${Board.words(board, u).map(w => `, ${escapeHtml(w)}`).join('')}</p>`).join('');
  for (const b of $('stack').querySelectorAll('button[data-pick]')) {
    b.onclick = () => chooseUnit(S.view.units.find(x => x.id === b.dataset.pick));
  }
}

// Every legal order but the plain moves (given on the map), grouped by verb, a form of move being a group of
// its own: a few as buttons, many as a list.
function drawDecision() {
  const d = S.view.decision;
  $('prompt').textContent = d ? `${sideName(d.side)}: ${d.prompt}` : 'The game is over';
  const box = $('orders'); box.replaceChildren();
  if (!S.my_turn) { if (d) $('hint').textContent = 'Waiting for the other player.'; return; }
  const groups = {};
  for (const o of S.legal) {
    const m = moveOf(o);
    if (m && !m.form) continue;
    (groups[m ? `move … ${m.form}` : o.split(' ')[0]] ||= []).push(o);
  }
  if (S.legal.some(o => moveOf(o))) $('hint').textContent ||= 'Click one of your units to see where it may go.';
  for (const [verb, orders] of Object.entries(groups)) {
    if (orders.length <= 8) {
      for (const o of orders) { const b = document.createElement('button'); b.textContent = o; b.dataset.order = o; b.onclick = () => send(o); box.appendChild(b); }
    } else {
      const s = document.createElement('select'); s.dataset.verb = verb;
      for (const o of orders) { const opt = document.createElement('option'); opt.textContent = o; s.appendChild(opt); }
      const b = document.createElement('button'); b.textContent = verb; b.onclick = () => send(s.value);
      const p = document.createElement('div'); p.append(s, b); box.appendChild(p);
    }
  }
}

const FACES = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
function drawLog() {
  const ol = $('log'); ol.replaceChildren();
  const unitIds = new Set(S.view.units.filter(u => u.id).map(u => u.id));
  for (const line of S.view.log.slice(-80)) {
    const li = document.createElement('li');
    li.innerHTML = Board.linked(board, line, unitIds).replace(/die (\d)/g, (m, n) => `die <span class="die">${FACES[n]}</span>`);
    ol.appendChild(li);
  }
  for (const a of ol.querySelectorAll('a[data-hex]')) a.onclick = () => flash(a.dataset.hex);
  for (const a of ol.querySelectorAll('a[data-unit-link]')) a.onclick = () => {
    const u = S.view.units.find(x => x.id === a.dataset.unitLink);
    if (u && u.hex) { flash(u.hex); showStack(u.hex); }
  };
  ol.scrollTop = ol.scrollHeight;
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
  for (const id of ['log', 'orders', 'stack', 'attack-info', 'hint', 'prompt', 'status', 'title']) $(id).replaceChildren();
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

// --- start ------------------------------------------------------------------------------------------------
async function start() {
  const [, st] = await api(`/api/g/${token}/state`);
  const [data, svg] = await Board.load($('map-holder'), st.scenario);
  board = data;
  gOverlay = el('g', {id: 'overlay'}, svg); gUnits = el('g', {id: 'units'}, svg); gTop = el('g', {id: 'top'}, svg);
  svg.addEventListener('click', (e) => { const h = e.target.closest('[data-hex]'); if (h && attackers.length) previewAttack(h.dataset.hex); });
  $('ov-supply').onchange = drawOverlays; $('ov-zoc').onchange = drawOverlays;
  // pan by dragging the map
  const pane = $('board'); let drag = null;
  pane.addEventListener('mousedown', (e) => { if (e.button === 0 && !e.target.closest('.counter, .reach, .target')) drag = [e.clientX, e.clientY, pane.scrollLeft, pane.scrollTop]; });
  window.addEventListener('mousemove', (e) => { if (drag) { pane.scrollLeft = drag[2] - (e.clientX - drag[0]); pane.scrollTop = drag[3] - (e.clientY - drag[1]); } });
  window.addEventListener('mouseup', () => { drag = null; });
  $('zoom-in').onclick = () => { zoom *= 1.25; $('map-holder').style.transform = `scale(${zoom})`; };
  $('zoom-out').onclick = () => { zoom /= 1.25; $('map-holder').style.transform = `scale(${zoom})`; };
  $('undo').onclick = async () => { const [ok, data] = await post(`/api/g/${token}/undo`, {version: S.version});
    if (!ok) showError(data.error); else { clearSelection(); await accept(data); } };
  $('declare').onclick = () => { if (pendingAttack) send(pendingAttack); };
  $('attack-cancel').onclick = () => { clearSelection(); render(); };
  $('handover-ok').onclick = takeOver;
  $('rematch').onclick = async () => { const [ok, data] = await post(`/api/g/${token}/rematch`, {}); if (ok) location.href = data.link; };
  await accept(st);
  Notify.setup(token, st);
  const events = new EventSource(`/api/g/${token}/events`);
  events.onmessage = (m) => { const v = JSON.parse(m.data).version; if (S && v !== S.version) load(); };
}
start();
