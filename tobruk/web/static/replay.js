// tobruk's replay page: steps through a game's frames (one a game-turn) from one side's view or both.
// Like the game page it knows no game system: the board comes with the map (board.js), the frames from the server.
'use strict';
const token = location.pathname.split('/').pop();
let frames = [], i = 0, board = null, gUnits = null;
const $ = (id) => document.getElementById(id);

async function loadFrames() {
  const r = await fetch(`/api/replay/${token}?side=${$('side').value}`); const data = await r.json();
  if (!r.ok) { $('frame-label').textContent = data.error; return; }
  frames = data.frames; i = Math.min(i, frames.length - 1);
  if (!board) {
    const [loaded, svg] = await Board.load($('map-holder'), data.scenario);
    board = loaded; gUnits = Board.el('g', {id: 'units'}, svg);
    $('title').textContent = `Replay: ${board.title}`;
  }
  show();
}

function show() {
  const f = frames[i];
  $('status').textContent = [`${f.label} (${i + 1}/${frames.length})`, Board.notes(f.notes)].filter(Boolean).join(' · ');
  $('frame-label').textContent = f.label;
  Board.drawCounters(board, gUnits, f.units);
  const unitIds = new Set(f.units.filter(u => u.id).map(u => u.id));
  $('log').innerHTML = f.log.map(l => `<li>${Board.explained(board, Board.linked(board, l, unitIds))}</li>`).join('');
  for (const a of $('log').querySelectorAll('a[data-hex]')) a.onclick = () => flash(a.dataset.hex);
  $('result').textContent = f.summary ? Board.result(board, f.summary) : '';
}
function flash(hex) {
  const p = Board.el('polygon', {points: Board.corners(board, hex), class: 'flash', 'data-flash': hex}, gUnits.parentNode);
  setTimeout(() => p.remove(), 1200);
}

$('first').onclick = () => { i = 0; show(); }; $('last').onclick = () => { i = frames.length - 1; show(); };
$('prev').onclick = () => { i = Math.max(0, i - 1); show(); }; $('next').onclick = () => { i = Math.min(frames.length - 1, i + 1); show(); };
$('side').onchange = loadFrames;
loadFrames();
