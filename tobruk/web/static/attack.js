// @ts-check
// The attack panel: the units gathered for an attack (a composite the server lists, legal.js), the odds of the
// attack on a target the server asks for, and the attack's fields kept to be declared: the one way to make an attack,
// its Declare button enabled only once the odds of the attack it declares are shown.  The panel holds only the
// gathering; the game page sends the declared attack as an order and redraws.

import * as api from './api.js';
import {byId} from './dom.js';
import {composite, canGather, targetsOf} from './legal.js';
import {escapeHtml, explained} from './log.js';

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Board} Board */

/** @type {string[]} the units gathered, in the order clicked */
let gathered = [];
/** @type {Record<string, unknown> | null} the fields of the attack last previewed, to be declared */
let pending = null;

/** The units gathered. */
export const attackers = () => gathered;

/** The attack to declare: its fields, once its odds have been shown. */
export const declared = () => pending;

/**
 * The target hexes of the units gathered.
 * @param {State | null} S
 */
export const targets = (S) => targetsOf(S, gathered);

/** The gathering forgotten (an order was sent), the panel left as it is until the answer comes. */
export function forgetGathered() { gathered = []; }

/** Nothing gathered, the panel hidden. */
export function clear() {
  gathered = []; pending = null; byId('declare', HTMLButtonElement).disabled = true;
  byId('attack-panel').hidden = true;
}

/**
 * A unit added to the gathering, or taken out of it; false if it cannot attack now.
 * @param {State | null} S
 * @param {string} uid
 */
export function gather(S, uid) {
  if (!canGather(S, uid) && !gathered.includes(uid)) return false;
  gathered = gathered.includes(uid) ? gathered.filter(a => a !== uid) : [...gathered, uid];
  pending = null; byId('declare', HTMLButtonElement).disabled = true;  // (declared only once its odds are shown)
  byId('attack-panel').hidden = gathered.length === 0;
  byId('attack-info').textContent = gathered.length ? `Attackers: ${gathered.join(', ')}. Click a red hex.` : '';
  return true;
}

/**
 * The odds of the attack gathered so far on a target hex, asked for by the attack's fields (the composite's fields
 * with the gathered units and the target in the fields the server names).
 * @param {string} token
 * @param {State | null} S
 * @param {Board} board
 * @param {string} hex
 */
export async function preview(token, S, board, hex) {
  const c = composite(S);
  if (!c) return;
  const fields = {...c.fields, [c.gather]: [...gathered], [c.target]: [hex]};
  const [ok, data] = await api.odds(token, fields);
  const info = byId('attack-info');
  byId('attack-panel').hidden = false;
  if (!ok) { info.innerHTML = `<p class="error">${escapeHtml(data.error)}</p>`; pending = null; byId('declare', HTMLButtonElement).disabled = true; return; }
  pending = fields; byId('declare', HTMLButtonElement).disabled = false;
  info.innerHTML = `<p><b>${escapeHtml(c.label)} ${escapeHtml(hex)}: ${escapeHtml(gathered.join(', '))}</b>, odds ${escapeHtml(data.odds)}</p>` +
    `<ul>${data.lines.map(l => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
    `<table class="odds">${data.outcomes.map(([r, p]) => `<tr><td>${explained(board, escapeHtml(r))}</td><td>${(p * 100).toFixed(1)}%</td></tr>`).join('')}</table>`;
}
