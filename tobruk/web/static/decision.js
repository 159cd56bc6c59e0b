// @ts-check
// The decision panel: whose decision it is, a hint of how to make it, and the legal actions not made on the map.  For
// each heading of unit-hex actions, its units as buttons (a unit off the map may be picked here, as in its tray); the
// rest by heading, a few as buttons, many as a list, each sent by its id.  The parts of a composite the map makes
// (an attack's targets) are not listed.

import {byId} from './dom.js';
import {composite, listed} from './legal.js';

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Action} Action */

/**
 * What the panel's buttons do: a unit picked for a heading of unit-hex actions, a listed action sent by its id.
 * @typedef {{pick: (uid: string, form: string) => void, order: (id: number) => void}} DecisionHooks
 */

const YOUR_TURN = 'Your turn. ';

/**
 * The panel for the state `S`.
 * @param {State} S
 * @param {(side: string) => string} sideName
 * @param {DecisionHooks} hooks
 */
export function drawDecision(S, sideName, hooks) {
  const d = S.view.decision, hint = byId('hint');
  byId('prompt').textContent = d ? `${sideName(d.side)}: ${d.prompt}${d.clause ? ` [${d.clause}]` : ''}` : 'The game is over';
  const box = byId('orders'); box.replaceChildren();
  if (!S.my_turn) {
    if (d) { hint.textContent = `Waiting for the ${sideName(d.side)} player.`; hint.dataset.waiting = '1'; }
    return;
  }
  if (hint.dataset.waiting) { hint.textContent = ''; delete hint.dataset.waiting; }
  if (d && !hint.textContent) hint.textContent = YOUR_TURN;
  /** @type {Record<string, string[]>} */
  const picks = {};
  /** @type {Record<string, Action[]>} */
  const groups = {};
  for (const a of listed(S)) {
    if (a.part_of) continue;
    if (a.gesture === 'unit-hex') { const units = (picks[a.group] ||= []); if (a.unit && !units.includes(a.unit)) units.push(a.unit); continue; }
    (groups[a.group] ||= []).push(a);
  }
  // the hint says how to make the decision, unless it already says something else (an error, a unit's state)
  const told = (/** @type {string} */ t) => { if (!hint.textContent || hint.textContent === YOUR_TURN) hint.textContent = `${YOUR_TURN}${t}`; };
  const offMap = Object.values(picks).flat().some(uid => !S.view.units.find(u => u.id === uid)?.hex);  // (in the tray)
  if (Object.keys(picks).length) told(offMap ? 'Pick a counter in your tray (or on the map) to see where it may go.' : 'Click one of your units to see where it may go.');
  if (composite(S)) told('Click your units to attack with, then a red hex.');
  for (const [group, units] of Object.entries(picks)) {
    const p = document.createElement('div'); p.className = 'picks'; p.dataset.group = group;
    p.append(`${group}: `);
    for (const uid of units) {
      const b = document.createElement('button'); b.textContent = uid; b.dataset.pick = uid; b.dataset.group = group;
      b.onclick = () => hooks.pick(uid, group);
      p.appendChild(b);
    }
    box.appendChild(p);
  }
  for (const [group, actions] of Object.entries(groups)) {
    if (actions.length <= 8) {
      for (const a of actions) {
        const b = document.createElement('button'); b.textContent = a.label; b.dataset.order = a.label; b.dataset.id = String(a.id);
        b.onclick = () => hooks.order(a.id);
        box.appendChild(b);
      }
    } else {
      const s = document.createElement('select'); s.dataset.group = group;
      for (const a of actions) { const opt = document.createElement('option'); opt.textContent = a.label; opt.value = String(a.id); s.appendChild(opt); }
      const b = document.createElement('button'); b.textContent = group; b.onclick = () => hooks.order(Number(s.value));
      const p = document.createElement('div'); p.append(s, b); box.appendChild(p);
    }
  }
}
