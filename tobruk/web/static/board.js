// tobruk's board on a page: the map's SVG and the board data the server sends with it, and counters drawn on it.
// Nothing here knows a game: where each hex is, which hexes touch, the sides' colours, the symbol of each unit
// type and the status words all come from /api/map/<scenario>.json, built from the map and the system's rendering.
'use strict';
const Board = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs = {}, parent = null) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  };

  // The map of a scenario into `holder`: returns the board data and the map's <svg>.
  async function load(holder, scenario) {
    const [svgText, data] = await Promise.all([fetch(`/api/map/${scenario}.svg`).then(r => r.text()),
                                               fetch(`/api/map/${scenario}.json`).then(r => r.json())]);
    holder.innerHTML = svgText;
    return [data, holder.querySelector('svg')];
  }

  const applies = (s, u) => Boolean(u[s.bit]) === s.when && (s.sides.length === 0 || s.sides.includes(u.side));
  // The status words a unit shows, in the system's words ("disrupted", "spent", "inactive" ...).
  const words = (board, u) => u.id ? board.statuses.filter(s => applies(s, u)).map(s => s.word) : [];
  const faded = (board, u) => Boolean(u.id) && board.statuses.some(s => s.faded && applies(s, u));

  function corners(board, label, scale = 1) {
    const [x, y] = board.hexes[label], s = board.size * scale;
    return [0, 1, 2, 3, 4, 5].map(i => { const a = Math.PI / 180 * (60 * i - 30); return `${x + s * Math.cos(a)},${y + s * Math.sin(a)}`; }).join(' ');
  }

  // The units on the map (air units stay off it) by hex, in the order given.
  function stacks(units) {
    const out = {};
    for (const u of units) if (u.hex && !u.eliminated) (out[u.hex] ||= []).push(u);
    return out;
  }

  // One counter, the i-th of its stack in `hex`: the side's colour (its edge red while a status the system calls
  // alarming is set), the id, its kind's symbol, its values with the system's marks for its statuses (the family's '*'
  // out of supply), the field the system shows beside its symbol (the steps left); a face-down enemy counter is a '?'.
  function counter(board, parent, u, hex, i) {
    const [x, y] = board.hexes[hex], c = board.size * 0.9;
    const g = el('g', {class: 'counter', 'data-hex': hex, 'data-unit': u.id || '', 'data-side': u.side}, parent);
    const gx = x - c / 2 + i * 4, gy = y - c / 2 + i * 4, unknown = !u.id;
    const alarm = board.alarms.some(a => u[a]);
    el('rect', {x: gx, y: gy, width: c, height: c, rx: 2, fill: board.sides[u.side].colour,
      stroke: alarm ? '#c00' : '#222', 'stroke-width': alarm ? 2 : 0.8,
      'stroke-dasharray': u.hidden && !unknown ? '3 2' : 'none'}, g);
    const label = el('text', {x: gx + c / 2, y: gy + c * 0.3, 'text-anchor': 'middle', 'font-size': 7}, g);
    label.textContent = unknown ? '?' : u.id;
    if (unknown) return g;
    const w = c * 0.4, shape = board.symbols[u.kind] || 'none';
    el('use', {href: `#shape-${shape}`, 'data-type': u.kind,
      transform: `translate(${gx + c / 2 - w / 2},${gy + c * 0.52 - w * 0.3}) scale(${w / 20})`}, g);
    const f = el('text', {x: gx + c / 2, y: gy + c * 0.92, 'text-anchor': 'middle', 'font-size': 8}, g);
    f.textContent = u.factors + Object.entries(board.marks).filter(([status]) => u[status]).map(([, mark]) => mark).join('');
    if (board.corner && u[board.corner] != null) {
      const n = el('text', {x: gx + 2, y: gy + c * 0.66, 'text-anchor': 'start', 'font-size': 7, class: 'corner'}, g);
      n.textContent = String(u[board.corner]);
    }
    const said = words(board, u);
    if (said.length) g.dataset.status = said.join(', ');
    if (faded(board, u)) g.setAttribute('opacity', '0.75');
    return g;
  }

  // Every counter of `units` into the group `parent` (emptied first); `onClick(u, hex)` if given.
  function drawCounters(board, parent, units, onClick = null) {
    parent.replaceChildren();
    const drawn = [];
    for (const [hex, here] of Object.entries(stacks(units))) {
      here.forEach((u, i) => {
        const g = counter(board, parent, u, hex, i);
        if (onClick) g.addEventListener('click', (e) => { e.stopPropagation(); onClick(u, hex); });
        drawn.push([g, u]);
      });
    }
    return drawn;
  }

  // The turn's notes as the status line shows them: "weather: clear", "date: 3 July 1942".
  const notes = (n) => Object.entries(n || {}).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`).join(' · ');

  // A finished game's result for people: the system's lines, or the winner and the level.
  function result(board, summary) {
    const who = summary.winner ? board.sides[summary.winner].name : 'Nobody';
    return summary.lines.length ? summary.lines.join('\n') : `${who}: ${summary.level}`;
  }

  // Hex labels and unit ids in a line of the log, as links (a hex label is a word of the board's hexes).
  const escapeHtml = (t) => String(t).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
  function linked(board, text, unitIds = new Set()) {
    return escapeHtml(text)
      .replace(/\b([A-Z]{1,2}\d{1,3})\b/g, (m) => board.hexes[m] ? `<a data-hex="${m}">${m}</a>` : m)
      .replace(/(<a[^>]*>[^<]*<\/a>)|\b([A-Za-z0-9.']+)\b/g, (m, link, word) =>
        link || !unitIds.has(word) ? m : `<a data-unit-link="${word}">${word}</a>`);
  }

  // The result codes of the system's charts in a line of HTML (text outside tags and links), each as an <abbr> whose
  // title is its meaning (board.codes, sent with the board: the page knows no code of its own).  A lone '-' is a
  // code only where a result stands: after ': ' at the end of a clause, or as the whole text.
  function explained(board, html) {
    const codes = board.codes || {};
    const abbr = (code) => `<abbr class="code" data-code="${escapeHtml(code)}" title="${escapeHtml(`${code}: ${codes[code]}`)}">${escapeHtml(code)}</abbr>`;
    const words = Object.keys(codes).filter(c => c !== '-').sort((a, b) => b.length - a.length);
    if (!words.length && !codes['-']) return html;
    if (html === '-' && codes['-']) return abbr('-');
    const quote = (t) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const pattern = new RegExp(`(?<![\\w/])(${words.map(w => quote(escapeHtml(w))).join('|') || '(?!)'})(?![\\w/])` +
      (codes['-'] ? '|(?<=: )-(?=$|[.,;)\\s])' : ''), 'g');
    let inLink = 0;
    return html.split(/(<[^>]*>)/).map(part => {
      if (part.startsWith('<')) { if (/^<a\b/.test(part)) inLink++; else if (part === '</a>') inLink--; return part; }
      if (inLink) return part;
      return part.replace(pattern, (m) => abbr(m.replace(/&amp;/g, '&')));
    }).join('');
  }

  return {NS, el, load, explained, words, faded, corners, stacks, counter, drawCounters, notes, result, escapeHtml, linked};
})();
