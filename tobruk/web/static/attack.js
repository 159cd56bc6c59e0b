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

/**
 * An option of the attack (a choice its declaration offers besides its units and target: a leader named, naval
 * support called), as the server lists it with the odds.
 * @typedef {{verb: string, fields: Record<string, unknown>, says: string}} Option
 */

/** @type {string[]} the units gathered, in the order clicked */
let gathered = [];
/** @type {Option[]} the options chosen, in the order clicked */
let chosen = [];
/** @type {Record<string, unknown> | null} the fields of the attack last previewed, to be declared */
let pending = null;
/** @type {string | null} the target of the attack last previewed */
let aimed = null;

/** The units gathered. */
export const attackers = () => gathered;

/**
 * The attack to declare, once its odds have been shown: its fields and the options it is made with.
 * @returns {{action: Record<string, unknown>, options?: Record<string, unknown>[]} | null}
 */
export const declared = () => pending && (chosen.length ? {action: pending, options: chosen.map(o => o.fields)} : {action: pending});

/**
 * The target hexes of the units gathered.
 * @param {State | null} S
 */
export const targets = (S) => targetsOf(S, gathered);

/** The gathering forgotten (an order was sent), the panel left as it is until the answer comes. */
export function forgetGathered() { gathered = []; chosen = []; }

/** Nothing gathered, the panel hidden. */
export function clear() {
  gathered = []; chosen = []; pending = null; aimed = null; byId('declare', HTMLButtonElement).disabled = true;
  byId('attack-panel').hidden = true; byId('attack-options').replaceChildren();
}

/**
 * A unit added to the gathering, or taken out of it; false if it cannot attack now.
 * @param {State | null} S
 * @param {string} uid
 */
export function gather(S, uid) {
  if (!canGather(S, uid) && !gathered.includes(uid)) return false;
  gathered = gathered.includes(uid) ? gathered.filter(a => a !== uid) : [...gathered, uid];
  chosen = []; byId('attack-options').replaceChildren();  // (the options open depend on the units: asked again)
  pending = null; byId('declare', HTMLButtonElement).disabled = true;  // (declared only once its odds are shown)
  byId('attack-panel').hidden = gathered.length === 0;
  byId('attack-info').textContent = gathered.length ? `Attackers: ${gathered.join(', ')}. Click a red hex.` : '';
  return true;
}

/**
 * Why the units gathered have no target together (each may attack, but no hex is one they may all attack): the
 * rules' own refusal of the attack on a hex the units gathered before the last one could attack, asked of the server
 * as the odds of that attack ("the attacking stack is the units of one hex [OC-CRT.6]").  Nothing when they have a
 * target, or the last unit alone has none.
 * @param {string} token
 * @param {State | null} S
 */
export async function explainNoTarget(token, S) {
  const c = composite(S);
  if (!c || gathered.length < 2 || targetsOf(S, gathered).length) return;
  const [hex] = targetsOf(S, gathered.slice(0, -1));
  if (!hex) return;
  const asked = [...gathered];
  const [ok, data] = await api.odds(token, {...c.fields, [c.gather]: asked, [c.target]: [hex]});
  if (ok || asked.join() !== gathered.join()) return;  // (accepted after all, or the gathering changed meanwhile)
  byId('attack-info').textContent = `Attackers: ${gathered.join(', ')}. No hex may be attacked by all of them: ${data.error}`;
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
  if (hex !== aimed) chosen = [];  // (another target: its own options)
  aimed = hex;
  const fields = {...c.fields, [c.gather]: [...gathered], [c.target]: [hex]};
  const [ok, data] = await api.odds(token, fields, chosen.map(o => o.fields));
  const info = byId('attack-info');
  byId('attack-panel').hidden = false;
  if (!ok) { info.innerHTML = `<p class="error">${escapeHtml(data.error)}</p>`; pending = null; byId('declare', HTMLButtonElement).disabled = true; return; }
  pending = fields; byId('declare', HTMLButtonElement).disabled = false;
  drawOptions(data.options || [], () => preview(token, S, board, hex));
  info.innerHTML = `<p><b>${escapeHtml(c.label)} ${escapeHtml(hex)}: ${escapeHtml(gathered.join(', '))}</b>, odds ${escapeHtml(data.odds)}</p>` +
    `<ul>${data.lines.map(l => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
    `<table class="odds">${data.outcomes.map(([r, p]) => `<tr><td>${explained(board, escapeHtml(r))}</td><td>${(p * 100).toFixed(1)}%</td></tr>`).join('')}</table>`;
}

/**
 * The attack's options as buttons that toggle: those chosen pressed (a click takes one back), then those still open
 * (a click chooses one, in place of a chosen one of the same verb: a second leader named replaces the first).  Each
 * change asks for the odds again, which the options change (the leader's kind, the navy's die).
 * @param {Option[]} open  the options the server says are still open
 * @param {() => void} again  asks for the odds again
 */
function drawOptions(open, again) {
  const box = byId('attack-options'); box.replaceChildren();
  /** @param {Option} o @param {boolean} pressed */
  const button = (o, pressed) => {
    const b = document.createElement('button'); b.textContent = o.says; b.dataset.verb = o.verb;
    b.setAttribute('aria-pressed', String(pressed));
    b.onclick = () => {
      chosen = pressed ? chosen.filter(c => c !== o) : [...chosen.filter(c => c.verb !== o.verb), o];
      again();
    };
    box.appendChild(b);
  };
  for (const o of chosen) button(o, true);
  for (const o of open) button(o, false);
}
