// @ts-check
// The decision panel: whose decision it is, a hint of how to make it, and the legal actions that have no place on the
// map, each a button saying in words what it does (the server's `says`: "The losers retreat 2 hexes"), sent by its id.
// What is made on the map is not listed here: a unit's move, retreat or placement (its counter on the map or in its
// tray), a unit's order (its ringed counter, gestures.js), an action aimed at a hex (the lit hexes), an attack's parts
// (gathered on the map, attack.js).  Never a list of order texts to pick from: a choice of many is many buttons, and a
// choice of several numbers at once a row of numbers each (picker.js).

import {byId} from './dom.js';
import {composite, listed} from './legal.js';
import {hexOrders, onMap, unitOrders} from './gestures.js';
import {isNumberChoice, numberPicker} from './picker.js';

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Action} Action */

/**
 * What the panel's buttons do: a listed action sent by its id.
 * @typedef {{order: (id: number) => void}} DecisionHooks
 */

const YOUR_TURN = 'Your turn. ';

/**
 * The actions the panel lists, by heading: those with no place on the map.
 * @param {State} S
 */
export function panelActions(S) {
  /** @type {Record<string, Action[]>} */
  const groups = {};
  for (const a of listed(S)) {
    if (a.part_of || a.gesture === 'unit-hex' || onMap(S, a)) continue;
    (groups[a.group] ||= []).push(a);
  }
  return groups;
}

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
  // the hint says how to make the decision (each way the map offers), unless it already says something else (an
  // error, a unit's state)
  const ways = [];
  const moving = listed(S).filter(a => a.gesture === 'unit-hex');
  if (moving.length) {
    const offMap = moving.some(a => !S.view.units.find(u => u.id === a.unit)?.hex);  // (in the tray)
    ways.push(offMap ? 'Pick a counter in your tray (or on the map) to see where it may go.' : 'Click one of your units to see where it may go.');
  }
  if (composite(S)) ways.push('Click your units to attack with, then a red hex.');
  if (unitOrders(S).size) ways.push('Click a ringed unit to see what it may do.');
  if (hexOrders(S).size) ways.push('Click a lit hex to aim at it.');
  if (ways.length && (!hint.textContent || hint.textContent === YOUR_TURN)) hint.textContent = `${YOUR_TURN}${ways.join(' ')}`;
  if (d && S.view.unended) {  // the end button missing: the step says why (the attacks still owed, and who owes them)
    const why = document.createElement('p'); why.id = 'unended'; why.className = 'unended'; why.setAttribute('role', 'note');
    why.textContent = `No end of the phase yet [${S.view.unended.clause}]: ${S.view.unended.text}.`;
    box.appendChild(why);
  }
  for (const [group, actions] of Object.entries(panelActions(S))) {
    if (isNumberChoice(actions)) { box.appendChild(numberPicker(actions, hooks.order)); continue; }
    const p = document.createElement('div'); p.className = 'choices'; p.dataset.group = group;
    for (const a of actions) {
      const b = document.createElement('button'); b.textContent = a.says; b.dataset.order = a.label; b.dataset.id = String(a.id);
      if (a.warning) b.title = a.warning;  // (never the notation: the button's words say what it does)
      b.onclick = () => (a.warning ? confirmCost(p, a, hooks) : hooks.order(a.id));
      p.appendChild(b);
    }
    box.appendChild(p);
  }
}

/**
 * Before an action that costs something by the rules (ending the attacks with spent units next to enemy units nobody
 * attacked: they must retreat, GG-IX.B), what it costs in words and a second press to do it anyway, or go back.
 * @param {HTMLElement} where  the panel's row of the action's button
 * @param {Action} a  the action, with its `warning`
 * @param {DecisionHooks} hooks
 */
function confirmCost(where, a, hooks) {
  where.querySelector('.confirm-cost')?.remove();
  const box = document.createElement('div'); box.className = 'confirm-cost'; box.setAttribute('role', 'alertdialog');
  const said = document.createElement('p'); said.textContent = `${a.says}: ${a.warning}.`;
  const yes = document.createElement('button'); yes.textContent = `${a.says} anyway`; yes.dataset.confirm = String(a.id);
  yes.onclick = () => hooks.order(a.id);
  const no = document.createElement('button'); no.textContent = 'Go back'; no.onclick = () => box.remove();
  box.append(said, yes, no);
  where.appendChild(box);
  yes.focus();
}
