// @ts-check
// The counters on the map, drawn the same on the game page and the replay, with their tooltip and their key: nothing
// here knows a game system.  The sides' and nationalities' colours, each unit kind's symbol, the status words and
// their marks all come with the board (render/board.py); what a counter says of a unit is what the view sends.

import {htmlElement, svgElement} from './dom.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').Unit} Unit */
/** @typedef {import('./types.js').StatusWord} StatusWord */

/** The counter's side, as a share of the hexes' size (a hex is √3 sizes across its flats). */
const SCALE = 1.45;
/** The smallest text on a counter, in the map's pixels (at zoom 1, the screen's). */
const TEXT = 10;
/** How far each counter of a stack is drawn from the one beneath it, at the most (less where the hex has no room). */
const STEP = 3;
/** The radius of a status's mark on a counter, and of a stack's badge. */
const MARK = 5.5, BADGE = 6;
/** The colour of a selected counter's edge (no status uses it). */
export const SELECTED = '#0a5cff';
/** The colour of a counter's edge while a status the system calls alarming is set. */
const ALARM = '#c00';

/**
 * @param {StatusWord} s
 * @param {Unit} u
 */
const applies = (s, u) => Boolean(u[s.bit]) === s.when && (s.sides.length === 0 || s.sides.includes(u.side));

/**
 * The statuses a unit shows, in the system's words ("disrupted", "spent", "inactive" ...) with their marks.
 * @param {Board} board
 * @param {Unit} u
 * @returns {StatusWord[]}
 */
const shown = (board, u) => u.id ? board.statuses.filter(s => applies(s, u)) : [];

/**
 * The status words a unit shows, in the system's words ("disrupted", "spent", "inactive" ...), each with its reason
 * where the system gives one (the unit's `why`, by status: "spent: starts the game spent (CA-SC.7)").
 * @param {Board} board
 * @param {Unit} u
 * @returns {string[]}
 */
export const words = (board, u) => shown(board, u).map(s => (s.when && u.why?.[s.bit] ? `${s.word}: ${u.why[s.bit]}` : s.word));

/**
 * Whether a unit is drawn faded (a status the system fades, such as spent).
 * @param {Board} board
 * @param {Unit} u
 */
const faded = (board, u) => Boolean(u.id) && board.statuses.some(s => s.faded && applies(s, u));

/**
 * A counter's colour: its nationality's, else its side's.
 * @param {Board} board
 * @param {Unit} u
 */
const colour = (board, u) => (u.nationality && board.nationalities?.[u.nationality.toLowerCase()]) || board.sides[u.side].colour;

/**
 * The word for a status bit: the system's, else the bit's own name.
 * @param {Board} board
 * @param {string} bit
 */
const wordFor = (board, bit) => board.statuses.find(s => s.bit === bit && s.when)?.word || bit.replace(/_/g, ' ');

/**
 * The units on the map (air units stay off it) by hex, in the order given.
 * @param {Unit[]} units
 * @returns {Record<string, Unit[]>}
 */
function stacks(units) {
  /** @type {Record<string, Unit[]>} */
  const out = {};
  for (const u of units) if (u.hex && !u.eliminated) (out[u.hex] ||= []).push(u);
  return out;
}

/**
 * A line of text in `parent`, `size` px high, squeezed to `width` if it is wider.
 * @param {Element} parent
 * @param {string} text
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {number} width
 * @param {Record<string, string | number>} [extra]
 */
function fitted(parent, text, x, y, size, width, extra = {}) {
  const t = /** @type {SVGTextElement} */ (svgElement('text', {x, y, 'text-anchor': 'middle', 'font-size': size, ...extra}, parent));
  t.textContent = text;
  const length = t.isConnected && typeof t.getComputedTextLength === 'function' ? t.getComputedTextLength() : 0;
  if (length > width) { t.setAttribute('textLength', String(width)); t.setAttribute('lengthAdjust', 'spacingAndGlyphs'); }
  return t;
}

/**
 * A status's mark (a disc of its colour with its letters) centred on (x, y), into `parent`.
 * @param {Element} parent
 * @param {StatusWord} s
 * @param {number} x
 * @param {number} y
 */
function mark(parent, s, x, y) {
  const g = svgElement('g', {class: 'status-mark', 'data-status': s.word, 'data-mark': s.mark}, parent);
  svgElement('circle', {cx: x, cy: y, r: MARK, fill: s.colour, stroke: '#fff', 'stroke-width': 1}, g);
  const t = svgElement('text', {x, y: y + 3.2, 'text-anchor': 'middle', 'font-size': s.mark.length > 1 ? 7 : 9,
    'font-weight': 'bold', fill: '#fff'}, g);
  t.textContent = s.mark;
  return g;
}

/**
 * One counter, the i-th of its stack in `hex`: its nationality's colour (its edge red while a status the system calls
 * alarming is set, dashed while it is face down to the enemy), the id on top, its kind's symbol, its values with the
 * system's marks for its statuses (the family's '*' out of supply) below, the field the system shows beside its
 * symbol (the steps left) and a coloured mark on its right edge for each status word; a face-down enemy counter is
 * a '?'.
 * @param {Board} board
 * @param {Element} parent
 * @param {Unit} u
 * @param {string} hex
 * @param {number} i
 * @param {number} n  the counters in the stack
 */
function counter(board, parent, u, hex, i, n) {
  const [x, y] = board.hexes[hex], [dx, dy] = stackOffset(board, n, i);
  const g = counterAt(board, parent, u, x + dx, y + dy, n > 1 && i === n - 1 ? 2 * BADGE : 0);
  g.dataset.hex = hex;
  return g;
}

/**
 * Where the i-th counter (from the bottom) of a stack of `n` is centred, from its hex's centre: the stack rises to the
 * right, centred on the hex and spread no wider than the hex's flats allow (a pointy hex is √3 sizes across), so every
 * counter of it stays within its own hex rather than spilling towards the one below.
 * @param {Board} board
 * @param {number} n
 * @param {number} i
 * @returns {[number, number]}
 */
export function stackOffset(board, n, i) {
  const room = board.size * (Math.sqrt(3) - SCALE) / 2 - 0.5;  // between a lone counter's side and the hex's flat
  const step = n > 1 ? Math.max(0, Math.min(STEP, 2 * room / (n - 1))) : 0;
  const k = (i - (n - 1) / 2) * step;
  return [k, -k];
}

/** The side of a counter drawn by :func:`counterAt`, in the map's pixels (a tray sizes its pictures by it). */
export const counterSide = (/** @type {Board} */ board) => board.size * SCALE;

/**
 * One counter centred on (x, y) in `parent`, as :func:`counter` draws it on the map: the map's stacks and the trays
 * of counters off the map (tray.js) draw the same counter.
 * @param {Board} board
 * @param {Element} parent
 * @param {Unit} u
 * @param {number} x
 * @param {number} y
 * @param {number} [room]  the width its name leaves free on the left (the top counter of a stack: its badge's)
 * @returns {SVGElement}
 */
export function counterAt(board, parent, u, x, y, room = 0) {
  const c = board.size * SCALE;
  const g = svgElement('g', {class: 'counter', 'data-unit': u.id || '', 'data-side': u.side, role: 'img', 'aria-label': spoken(board, u)}, parent);
  const gx = x - c / 2, gy = y - c / 2, unknown = !u.id;
  const alarm = !unknown && board.alarms.some(a => u[a]);
  if (alarm) g.classList.add('alarm');
  svgElement('rect', {class: 'body', x: gx, y: gy, width: c, height: c, rx: 3, fill: colour(board, u),
    stroke: alarm ? ALARM : '#222', 'stroke-width': alarm ? 2.5 : 1,
    'stroke-dasharray': u.hidden && !unknown ? '4 2' : 'none'}, g);
  if (unknown) {
    fitted(g, '?', gx + c / 2, gy + c / 2 + 7, 20, c - 4, {class: 'name', 'font-weight': 'bold'});
    return g;
  }
  fitted(g, u.id || '', gx + (c + room) / 2, gy + TEXT + 1, TEXT + 1, c - 4 - room, {class: 'name', 'font-weight': 'bold'});
  const w = c * 0.42, shape = (u.kind && board.symbols[u.kind]) || 'none';
  svgElement('use', {href: `#shape-${shape}`, 'data-type': u.kind || '',
    transform: `translate(${gx + c / 2 - w / 2},${gy + c * 0.5 - w * 0.3}) scale(${w / 20})`}, g);
  const values = (u.factors || '') + Object.entries(board.marks).filter(([status]) => u[status]).map(([, m]) => m).join('');
  fitted(g, values, gx + c / 2, gy + c - 3, TEXT, c - 4, {class: 'values'});
  if (board.corner && u[board.corner] != null)
    fitted(g, String(u[board.corner]), gx + 5, gy + c * 0.5 + 4, TEXT, 8, {class: 'corner'});
  const said = shown(board, u);
  // beside the symbol, within the counter's right edge (a mark that stuck out would lie over the next hex's counters)
  said.forEach((s, k) => mark(g, s, gx + c - MARK - 1, gy + c / 2 + (k - (said.length - 1) / 2) * (2 * MARK + 1)));
  if (said.length) g.dataset.status = said.map(s => s.word).join(', ');
  if (faded(board, u)) g.setAttribute('opacity', '0.75');
  return g;
}

/**
 * A stack's badge, the number of counters in its hex, in the top counter's upper left corner (the top counter's name
 * leaves it room, :func:`counterAt`).
 * @param {Board} board
 * @param {Element} parent
 * @param {string} hex
 * @param {number} n
 */
function badge(board, parent, hex, n) {
  const [dx, dy] = stackOffset(board, n, n - 1), c = board.size * SCALE;
  const cx = board.hexes[hex][0] + dx - c / 2 + BADGE, cy = board.hexes[hex][1] + dy - c / 2 + BADGE;
  const g = svgElement('g', {class: 'stack-badge', 'data-hex': hex, 'data-count': n}, parent);
  svgElement('circle', {cx, cy, r: BADGE, fill: '#fff', stroke: '#222', 'stroke-width': 1.2}, g);
  const t = svgElement('text', {x: cx, y: cy + 3.6, 'text-anchor': 'middle', 'font-size': TEXT,
    'font-weight': 'bold'}, g);
  t.textContent = String(n);
}

// --- the tooltip --------------------------------------------------------------------------------------------

/**
 * What the tooltip says of a unit: only the fields the view sent (a face-down enemy counter: its side and hex).
 * @param {Board} board
 * @param {Unit} u
 * @returns {string[]}
 */
export function described(board, u) {
  const side = board.sides[u.side]?.name || u.side;
  if (!u.id) return [`${side} counter, face down`, `hex ${u.hex}`, 'what it is, is not known'];
  const lines = [`${u.id}${u.name && u.name !== u.id ? ` — ${u.name}` : ''}`];
  lines.push([side, u.nationality, u.kind, u.echelon].filter(Boolean).join(' · '));  // (the echelon: what stacking counts)
  const values = (u.factors || '') + Object.entries(board.marks).filter(([status]) => u[status]).map(([, m]) => m).join('');
  if (values) lines.push(`values ${values}`);
  if (board.corner && u[board.corner] != null) lines.push(`${board.corner.replace(/_/g, ' ')}: ${u[board.corner]}`);
  const said = words(board, u);
  lines.push(said.length ? `status: ${said.join(', ')}` : 'status: none marked');
  if (u.hidden) lines.push('face down to the enemy');
  if (u.hex) lines.push(`hex ${u.hex}`);
  return lines;
}

/**
 * What a screen reader says of a counter: the tooltip's words but its hex (the map's cursor says the hex); a face-down
 * enemy counter only its side, the same words whichever unit it is.
 * @param {Board} board
 * @param {Unit} u
 */
export function spoken(board, u) {
  const side = board.sides[u.side]?.name || u.side;
  if (!u.id) return `a face-down ${side} counter`;
  return described(board, u).filter(line => !line.startsWith('hex ')).join('; ');
}

/**
 * The side panel of a hex into `box`, on the game page and the replay alike: its label, then a line a counter standing
 * there (its id, name, values, kind and status words; a face-down one only as such), its id a button where `pick`
 * gives what a press does (the game page: one's own counter, selected).
 * @param {Board} board
 * @param {HTMLElement} box
 * @param {string} hex
 * @param {Unit[]} here
 * @param {(u: Unit) => (() => void) | null} [pick]
 */
export function drawHex(board, box, hex, here, pick = () => null) {
  const lines = here.map(u => {
    if (!u.id) return htmlElement('p', 'a face-down unit');
    const p = htmlElement('p'), press = pick(u);
    if (press) {
      const b = htmlElement('button', u.id);
      b.dataset.pick = u.id; b.onclick = press;
      p.append(b);
    } else p.append(u.id);
    p.append(` ${[u.name, u.factors, u.kind, u.echelon].filter(Boolean).join(' ')}${words(board, u).map(w => `, ${w}`).join('')}`);
    return p;
  });
  box.replaceChildren(htmlElement('h3', hex), ...(lines.length ? lines : [htmlElement('p', 'no counter here')]));
}

/** The page's one tooltip box, made when first needed. */
function tipBox() {
  let tip = document.getElementById('counter-tip');
  if (!tip) {
    tip = document.createElement('div');
    tip.id = 'counter-tip'; tip.setAttribute('role', 'tooltip'); tip.hidden = true;
    document.body.appendChild(tip);
  }
  return tip;
}

/** Hides the tooltip (the counters are drawn again, the page changes side). */
export function hideTip() {
  const tip = document.getElementById('counter-tip');
  if (tip) { tip.hidden = true; tip.replaceChildren(); }
}

/** How long a finger rests on a counter before its tooltip shows (a tap selects, as a click does). */
const LONG_PRESS = 500;
/** The kind of the pointer last over the page: a touch's emulated mouseenter shows no tooltip (a long press does). */
let lastPointer = '';
/** Whether the touch just ended was a long press: the click it ends in selects nothing. */
let longPressed = false;
document.addEventListener('pointerover', (e) => { lastPointer = e.pointerType; }, true);
// any press hides the tooltip: a click selects, moves or asks for something, and what it lights must not lie under it
// (and the counters drawn again under a pointer that has not moved since bring none back: the pointer must move first)
/** @type {[number, number] | null} where the last press was, until the pointer moves off it */
let pressedAt = null;
document.addEventListener('pointerdown', (e) => { lastPointer = e.pointerType; pressedAt = [e.clientX, e.clientY]; hideTip(); }, true);
document.addEventListener('pointermove', (e) => {
  if (pressedAt && Math.hypot(e.clientX - pressedAt[0], e.clientY - pressedAt[1]) > 3) pressedAt = null;
}, true);

/** The boxes on the screen the tooltip keeps off (the hexes lit for the selected unit); the page says which. */
let avoided = () => /** @type {DOMRect[]} */ ([]);

/**
 * Tells the tooltip what it must not cover: `boxes` gives their boxes on the screen when the tooltip shows.
 * @param {() => DOMRect[]} boxes
 */
export function tipAvoids(boxes) { avoided = boxes; }

/**
 * How much of the box (x, y, w, h) the boxes `avoid` cover, in square pixels.
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 * @param {DOMRect[]} avoid
 */
function covered(x, y, w, h, avoid) {
  let area = 0;
  for (const r of avoid) area += Math.max(0, Math.min(x + w, r.right) - Math.max(x, r.left)) * Math.max(0, Math.min(y + h, r.bottom) - Math.max(y, r.top));
  return area;
}

/**
 * The tooltip of `u` shown at (x, y) on the screen.
 * @param {Board} board
 * @param {Unit} u
 * @param {number} x
 * @param {number} y
 */
function showTip(board, u, x, y) {
  const tip = tipBox();
  tip.replaceChildren(...described(board, u).map((line, k) => {
    const div = document.createElement('div');
    div.textContent = line;
    if (k === 0) div.className = 'tip-title';
    return div;
  }));
  tip.style.left = `${x + 14}px`; tip.style.top = `${y + 14}px`;
  tip.hidden = false;
  const avoid = avoided();
  if (!avoid.length) return;
  // beside the pointer where it covers none of the lit hexes (else where it covers least, the window's corners too)
  const w = tip.offsetWidth, h = tip.offsetHeight, W = window.innerWidth, H = window.innerHeight;
  /** @type {[number, number][]} */
  const places = [[x + 14, y + 14], [x - 14 - w, y + 14], [x + 14, y - 14 - h], [x - 14 - w, y - 14 - h], [W - w - 4, 4], [W - w - 4, H - h - 4], [4, 4], [4, H - h - 4]];
  const inside = places.map(([px, py]) => /** @type {[number, number]} */ ([Math.max(4, Math.min(px, W - w - 4)), Math.max(4, Math.min(py, H - h - 4))]));
  const best = inside.map(([px, py]) => ({px, py, cover: covered(px, py, w, h, avoid)})).reduce((a, b) => (b.cover < a.cover ? b : a));
  tip.style.left = `${best.px}px`; tip.style.top = `${best.py}px`;
}

/**
 * The tooltip of `u` shown beside the pointer while it is on the counter `g` (the map's keyboard cursor sends the
 * same mouseenter), and on a touch screen after a long press on it.
 * @param {Board} board
 * @param {SVGElement} g
 * @param {Unit} u
 */
export function withTip(board, g, u) {
  g.addEventListener('mouseenter', (e) => {
    if (!(e.isTrusted && (lastPointer === 'touch' || pressedAt))) showTip(board, u, e.clientX, e.clientY);
  });
  g.addEventListener('mouseleave', hideTip);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pressing;
  g.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch') return;
    longPressed = false;
    pressing = setTimeout(() => { longPressed = true; showTip(board, u, e.clientX, e.clientY); }, LONG_PRESS);
  });
  for (const end of ['pointerup', 'pointercancel', 'pointerleave']) g.addEventListener(end, () => clearTimeout(pressing));
  g.addEventListener('contextmenu', (e) => { if (longPressed) e.preventDefault(); });
  g.addEventListener('click', (e) => {  // (a capturing listener runs before the counter's own click)
    if (longPressed) { longPressed = false; e.stopImmediatePropagation(); }
  }, true);
}

/**
 * Every counter of `units` into the group `parent` (emptied first), a badge on each stack of more than one, a
 * tooltip on each; `onClick(u, hex)` if given.
 * @param {Board} board
 * @param {Element} parent
 * @param {Unit[]} units
 * @param {((u: Unit, hex: string) => void) | null} [onClick]
 * @returns {[SVGElement, Unit][]}
 */
export function drawCounters(board, parent, units, onClick = null) {
  parent.replaceChildren();
  hideTip();
  /** @type {[SVGElement, Unit][]} */
  const drawn = [];
  const all = Object.entries(stacks(units));
  for (const [hex, here] of all) {
    here.forEach((u, i) => {
      const g = counter(board, parent, u, hex, i, here.length);
      withTip(board, g, u);
      if (onClick) g.addEventListener('click', (e) => { e.stopPropagation(); onClick(u, hex); });
      drawn.push([g, u]);
    });
  }
  for (const [hex, here] of all) if (here.length > 1) badge(board, parent, hex, here.length);
  return drawn;
}

// --- the key ------------------------------------------------------------------------------------------------

/**
 * A key entry: a small picture drawn by `draw` into an <svg> and the words.
 * @param {HTMLElement} box
 * @param {string} key
 * @param {string} text
 * @param {(svg: Element) => void} draw
 */
function entry(box, key, text, draw) {
  const li = document.createElement('li');
  li.dataset.key = key;
  const svg = svgElement('svg', {width: 22, height: 18, viewBox: '0 0 22 18', 'aria-hidden': 'true'}, li);
  draw(svg);
  li.append(` ${text}`);
  box.appendChild(li);
  return li;
}

/**
 * @param {Element} svg
 * @param {string} fill
 * @param {Record<string, string | number>} [edge]
 */
const square = (svg, fill, edge = {}) => svgElement('rect', {x: 3, y: 2, width: 14, height: 14, rx: 2, fill, stroke: '#222',
  'stroke-width': 1, ...edge}, svg);

/**
 * The key of the counters' marks into the list `box`: the selected edge (if `selecting`), each status the system declares (its mark,
 * and the red edge or fading it also draws), the marks after the values, a counter face down, a stack's badge, the
 * field beside the symbol, and the colour of each nationality among the face-up `units`.
 * @param {Board} board
 * @param {HTMLElement} box
 * @param {Unit[]} units
 * @param {boolean} [selecting]  whether counters may be selected on the page (not on the replay)
 */
export function drawKey(board, box, units, selecting = true) {
  box.replaceChildren();
  const plain = '#ddd';
  if (selecting)
    entry(box, 'selected', 'selected (picked to move or attack)', svg => square(svg, plain, {stroke: SELECTED, 'stroke-width': 3}));
  for (const s of board.statuses) {
    const also = [board.alarms.includes(s.bit) && s.when ? 'red edge' : '', s.faded ? 'drawn faded' : ''].filter(Boolean);
    const li = entry(box, 'status', `${s.word}${also.length ? ` (${also.join(', ')})` : ''}`, svg => mark(svg, s, 11, 9));
    li.dataset.status = s.word;
  }
  for (const bit of board.alarms) if (!board.statuses.some(s => s.bit === bit))
    entry(box, 'alarm', `red edge: ${wordFor(board, bit)}`, svg => square(svg, plain, {stroke: ALARM, 'stroke-width': 2.5}));
  for (const [bit, m] of Object.entries(board.marks)) {
    const li = entry(box, 'mark', `after the values: ${wordFor(board, bit)}`, svg => {
      const t = svgElement('text', {x: 11, y: 14, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 'bold'}, svg);
      t.textContent = m;
    });
    li.dataset.mark = m;
  }
  if (board.corner) {
    entry(box, 'corner', `number left of the symbol: ${board.corner.replace(/_/g, ' ')}`, svg => {
      const t = svgElement('text', {x: 11, y: 14, 'text-anchor': 'middle', 'font-size': 12}, svg);
      t.textContent = '3';
    });
  }
  entry(box, 'own-face-down', 'dashed edge: your counter, face down to the enemy', svg => square(svg, plain, {'stroke-dasharray': '3 2'}));
  entry(box, 'face-down', 'an enemy counter face down: what it is, is not known', svg => {
    square(svg, plain);
    const t = svgElement('text', {x: 10, y: 14, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 'bold'}, svg);
    t.textContent = '?';
  });
  entry(box, 'stack', 'the number of counters in a hex', svg => {
    svgElement('circle', {cx: 11, cy: 9, r: 7.5, fill: '#fff', stroke: '#222'}, svg);
    const t = svgElement('text', {x: 11, y: 13, 'text-anchor': 'middle', 'font-size': 10, 'font-weight': 'bold'}, svg);
    t.textContent = '2';
  });
  const nations = [...new Set(units.filter(u => u.id && u.nationality).map(u => /** @type {string} */ (u.nationality)))].sort();
  for (const n of nations) {
    const fill = board.nationalities?.[n.toLowerCase()];
    if (fill) entry(box, 'nationality', n.charAt(0).toUpperCase() + n.slice(1), svg => square(svg, fill)).dataset.nationality = n;
  }
}
