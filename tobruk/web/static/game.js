// tobruk's game page: draws what the server sends for this seat and sends orders back.
// The server is the referee: this page only offers what the legal-order list contains.
'use strict';
const token = location.pathname.split('/').pop();
const NS = 'http://www.w3.org/2000/svg';
let S = null, layout = null, selected = null, attackers = [], zoom = 1, pendingAttack = null;
let gOverlay, gUnits, gTop;

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, parent = null) => {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
};

// --- hex arithmetic (rows B, D, F... half a hex east) -------------------------------------------------
function parseHex(label) { const m = /^([A-Z]+)(\d+)$/.exec(label); const row = m[1].charCodeAt(0) - 65, col = Number(m[2]) - 1;
  return [col - ((row - (row & 1)) >> 1), row]; }
function hexLabel(q, r) { const col = q + ((r - (r & 1)) >> 1); return String.fromCharCode(65 + r) + (col + 1); }
const DIRS = [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]];
function neighbours(label) { const [q, r] = parseHex(label); return DIRS.map(([dq, dr]) => hexLabel(q + dq, r + dr)); }
function corners(label, scale = 1) { const [x, y] = layout.hexes[label]; const s = layout.size * scale;
  return [0, 1, 2, 3, 4, 5].map(i => { const a = Math.PI / 180 * (60 * i - 30); return `${x + s * Math.cos(a)},${y + s * Math.sin(a)}`; }).join(' '); }

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
function escapeHtml(t) { return String(t).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c])); }

// --- drawing ----------------------------------------------------------------------------------------------
function render() {
  const v = S.view;
  $('title').textContent = `${v.title}: ${S.side === 'axis' ? 'Axis' : 'Allied'} ${S.mode === 'hotseat' ? '(hotseat)' : ''}`;
  $('status').textContent = `Turn ${v.turn}/${v.turns} · ${v.phase_title} · weather: ${v.weather}`;
  $('undo').disabled = !S.can_undo;
  drawUnits(); drawOverlays(); drawDecision(); drawLog();
  if (v.result) {
    const r = v.result, who = r.winner ? (r.winner === 'axis' ? 'Axis' : 'Allied') : 'Nobody';
    $('victory-text').textContent = [`${who}: ${r.level} (difference ${r.difference} GVP)`,
      `Allied GVP ${r.allied_total}`, ...r.allied.map(([t, p]) => `  ${p}  ${t}`),
      `Axis GVP ${r.axis_total}`, ...r.axis.map(([t, p]) => `  ${p}  ${t}`)].join('\n');
    $('victory').hidden = false;
    $('replay-link').href = `/replay/${token}`;
    $('form-link').href = `/api/g/${token}/form`;
    $('record-link').href = `/api/g/${token}/record`;
  }
}

function drawUnits() {
  gUnits.replaceChildren();
  const stacks = {};
  for (const u of S.view.units) if (u.hex && !u.eliminated && u.type !== 'air') (stacks[u.hex] ||= []).push(u);
  const c = layout.size * 0.9;
  for (const [hex, units] of Object.entries(stacks)) {
    const [x, y] = layout.hexes[hex];
    units.forEach((u, i) => {
      const g = el('g', {class: 'counter', 'data-hex': hex, 'data-unit': u.id || '', 'data-side': u.side}, gUnits);
      if (u.id && (selected === u.id || attackers.includes(u.id))) g.classList.add('selected');
      const gx = x - c / 2 + i * 4, gy = y - c / 2 + i * 4;
      const unknown = !u.id;  // a face-down enemy counter: nothing but its hex is known
      el('rect', {x: gx, y: gy, width: c, height: c, rx: 2, fill: u.side === 'axis' ? '#6b6f73' : '#c8a165',
        stroke: u.disrupted ? '#c00' : '#222', 'stroke-width': u.disrupted ? 2 : 0.8,
        'stroke-dasharray': u.hidden && !unknown ? '3 2' : 'none'}, g);
      const label = el('text', {x: gx + c / 2, y: gy + c * 0.3, 'text-anchor': 'middle', 'font-size': 7}, g);
      label.textContent = unknown ? '?' : u.id;
      if (!unknown) {
        symbol(g, u.type, gx + c / 2, gy + c * 0.56, c * 0.42, c * 0.22);
        const f = el('text', {x: gx + c / 2, y: gy + c * 0.92, 'text-anchor': 'middle', 'font-size': 8}, g);
        f.textContent = u.factors + (u.out_of_supply ? '*' : '');
        if (u.side === 'allied' && !u.activated) g.setAttribute('opacity', '0.75');
      }
      g.addEventListener('click', (e) => { e.stopPropagation(); clickCounter(u, hex); });
    });
  }
}

// NATO-style type symbols: armour an oval, infantry a cross, motorized a cross on wheels, recce a slash
function symbol(g, type, x, y, w, h) {
  const box = el('rect', {x: x - w / 2, y: y - h / 2, width: w, height: h, fill: 'none', stroke: '#222', 'stroke-width': 0.7}, g);
  box.dataset.type = type;
  const l = x - w / 2, r = x + w / 2, t = y - h / 2, b = y + h / 2, line = (a, c, d, e) => el('line', {x1: a, y1: c, x2: d, y2: e, stroke: '#222', 'stroke-width': 0.7}, g);
  if (type === 'armour') el('ellipse', {cx: x, cy: y, rx: w * 0.33, ry: h * 0.3, fill: 'none', stroke: '#222', 'stroke-width': 0.7}, g);
  if (type === 'infantry' || type === 'motorized') { line(l, t, r, b); line(l, b, r, t); }
  if (type === 'motorized') el('circle', {cx: x, cy: b + 1.2, r: 0.9, fill: '#222'}, g);
  if (type === 'recce') line(l, b, r, t);
  if (type === 'aa') el('path', {d: `M${l},${b} Q${x},${t - h * 0.4} ${r},${b}`, fill: 'none', stroke: '#222', 'stroke-width': 0.7}, g);
}

function drawOverlays() {
  gOverlay.replaceChildren(); gTop.replaceChildren();
  if ($('ov-zoc').checked) {
    const zoc = new Set();
    for (const u of S.view.units) if (u.hex && u.side !== S.side && u.type !== 'air') for (const n of neighbours(u.hex)) if (layout.hexes[n]) zoc.add(n);
    for (const h of zoc) el('polygon', {points: corners(h, 0.95), class: 'zoc'}, gOverlay);
  }
  if ($('ov-supply').checked) {
    for (const e of Object.values(S.view.supply || {})) if (e.route && e.route.length > 1)
      el('polyline', {points: e.route.map(h => layout.hexes[h].join(',')).join(' '), class: 'supply'}, gOverlay);
  }
  if (selected) {
    for (const o of movesOf(selected)) {
      const path = o.split(' ')[2].split('-'), dest = path[path.length - 1];
      const p = el('polygon', {points: corners(dest, 0.9), class: 'reach', 'data-reach': dest}, gTop);
      p.addEventListener('mouseenter', () => showRoute(path));
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

function showRoute(path) {
  for (const r of gTop.querySelectorAll('.route')) r.remove();
  el('polyline', {points: path.map(h => layout.hexes[h].join(',')).join(' '), class: 'route'}, gTop);
}

function movesOf(uid) { return S.legal.filter(o => o.startsWith(`move ${uid} `) && !o.endsWith('by-trucks')); }
function attackTargets() {
  const mine = attackers.map(a => S.view.units.find(u => u.id === a)).filter(Boolean);
  const enemy = new Set(S.view.units.filter(u => u.side !== S.side && u.hex && u.type !== 'air').map(u => u.hex));
  return [...enemy].filter(h => mine.every(u => neighbours(u.hex).includes(h)));
}
function canAttack() { return S.my_turn && S.view.phase.endsWith('attacks') && S.legal.some(o => o.startsWith('target ')); }

function clickCounter(u, hex) {
  showStack(hex);
  const stack = S.view.units.filter(x => x.hex === hex && x.side === S.side && x.id);
  if (stack.length > 1 && u.side === S.side) return;  // a stack: pick the unit in the side panel
  chooseUnit(u);
}

function chooseUnit(u) {
  if (!S.my_turn) return;
  if (u.side !== S.side) { if (attackers.length) previewAttack(hex); return; }
  if (canAttack()) {
    attackers = attackers.includes(u.id) ? attackers.filter(a => a !== u.id) : [...attackers, u.id];
    $('attack-panel').hidden = attackers.length === 0;
    $('attack-info').textContent = attackers.length ? `Attackers: ${attackers.join(', ')}. Click a red hex.` : '';
    render(); return;
  }
  selected = movesOf(u.id).length ? (selected === u.id ? null : u.id) : null;
  $('hint').textContent = selected ? `${u.id}: click a green hex to move there.` : `${u.id} cannot move now.`;
  render();
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
  $('stack').innerHTML = `<h3>${hex}</h3>` + units.map(u => !u.id ? '<p>a face-down unit</p>' :
    `<p>${u.side === S.side && S.my_turn ? `<button data-pick="${escapeHtml(u.id)}">${escapeHtml(u.id)}</button>` : escapeHtml(u.id)}
     ${escapeHtml(u.name)} ${u.factors} ${u.type}${u.disrupted ? ', disrupted' : ''}${u.out_of_supply ? ', out of supply' : ''}${u.side === 'allied' && !u.activated ? ', inactive' : ''}</p>`).join('');
  for (const b of $('stack').querySelectorAll('button[data-pick]')) {
    b.onclick = () => chooseUnit(S.view.units.find(x => x.id === b.dataset.pick));
  }
}

function drawDecision() {
  const d = S.view.decision;
  $('prompt').textContent = d ? `${d.side === 'axis' ? 'Axis' : 'Allied'}: ${d.prompt}` : 'The game is over';
  const box = $('orders'); box.replaceChildren();
  if (!S.my_turn) { if (d) $('hint').textContent = 'Waiting for the other player.'; return; }
  const groups = {};
  for (const o of S.legal) { const verb = o.split(' ')[0]; if (verb !== 'move' || o.endsWith('by-trucks')) (groups[verb] ||= []).push(o); }
  if (S.legal.some(o => o.startsWith('move '))) $('hint').textContent ||= 'Click one of your units to see where it may go.';
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
    li.innerHTML = escapeHtml(line).replace(/die (\d)/g, (m, n) => `die <span class="die">${FACES[n]}</span>`)
      .replace(/\b([A-N]\d{1,2})\b/g, (m) => layout.hexes[m] ? `<a data-hex="${m}">${m}</a>` : m)
      .replace(/\b([A-Za-z0-9.']+)\b/g, (m) => unitIds.has(m) && !layout.hexes[m] ? `<a data-unit-link="${m}">${m}</a>` : m);
    ol.appendChild(li);
  }
  for (const a of ol.querySelectorAll('a[data-hex]')) a.onclick = () => flash(a.dataset.hex);
  for (const a of ol.querySelectorAll('a[data-unit-link]')) a.onclick = () => {
    const u = S.view.units.find(x => x.id === a.dataset.unitLink);
    if (u && u.hex) { flash(u.hex); showStack(u.hex); }
  };
  ol.scrollTop = ol.scrollHeight;
}
function flash(hex) { const p = el('polygon', {points: corners(hex), class: 'flash'}, gTop); setTimeout(() => p.remove(), 1200); }

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
  $('undo').disabled = true;
}
function handOver(side) {
  forgetView();
  nextSide = side;
  const who = side === 'axis' ? 'Axis' : 'Allied';
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

function clearSelection() { selected = null; attackers = []; pendingAttack = null; $('attack-panel').hidden = true; $('hint').textContent = ''; }

// --- start ------------------------------------------------------------------------------------------------
async function start() {
  const [, st] = await api(`/api/g/${token}/state`);
  const [svgText, lay] = await Promise.all([fetch(`/api/map/${st.scenario}.svg`).then(r => r.text()),
                                            fetch(`/api/map/${st.scenario}.json`).then(r => r.json())]);
  layout = lay;
  $('map-holder').innerHTML = svgText;
  const svg = $('map-holder').querySelector('svg');
  gOverlay = el('g', {id: 'overlay'}, svg); gUnits = el('g', {id: 'units'}, svg); gTop = el('g', {id: 'top'}, svg);
  svg.addEventListener('click', (e) => { const h = e.target.closest('[data-hex]'); if (h && attackers.length) previewAttack(h.dataset.hex); });
  $('ov-supply').onchange = drawOverlays; $('ov-zoc').onchange = drawOverlays;
  // pan by dragging the map
  const board = $('board'); let drag = null;
  board.addEventListener('mousedown', (e) => { if (e.button === 0 && !e.target.closest('.counter, .reach, .target')) drag = [e.clientX, e.clientY, board.scrollLeft, board.scrollTop]; });
  window.addEventListener('mousemove', (e) => { if (drag) { board.scrollLeft = drag[2] - (e.clientX - drag[0]); board.scrollTop = drag[3] - (e.clientY - drag[1]); } });
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
  const events = new EventSource(`/api/g/${token}/events`);
  events.onmessage = (m) => { const v = JSON.parse(m.data).version; if (S && v !== S.version) load(); };
}
start();
