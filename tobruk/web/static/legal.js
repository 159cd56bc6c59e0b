// @ts-check
// The legal actions as the game page reads them.  The server lists each with its gesture (how it is made), its
// heading and the unit and hex it picks: a unit-hex action (a move, a retreat, a placement) is made on the map by
// clicking the unit, then a highlighted hex; a heading of its own (a move by trucks) is another form, chosen before
// the hexes are shown.  A composite (group-target: an attack) is made by gathering units and clicking a target among
// those the server lists.  Only reading here: what is made of a choice is the other modules' concern.

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Action} Action */
/** @typedef {import('./types.js').Composite} Composite */

/**
 * @param {State | null} S
 * @returns {Action[]}
 */
export const listed = (S) => (S && S.legal && S.legal.actions) || [];

/**
 * The choice gathered on the map, if the position has one.
 * @param {State | null} S
 * @returns {Composite | undefined}
 */
export const composite = (S) => ((S && S.legal && S.legal.composites) || []).find(c => c.gesture === 'group-target');

/**
 * A unit's unit-hex actions of one form (heading).
 * @param {State | null} S
 * @param {string} uid
 * @param {string} form
 */
export const unitHexOf = (S, uid, form) => listed(S).filter(a => a.gesture === 'unit-hex' && a.unit === uid && a.group === form);

/**
 * A unit's forms of unit-hex action, in the order listed.
 * @param {State | null} S
 * @param {string} uid
 */
export const formsOf = (S, uid) => [...new Set(listed(S).filter(a => a.gesture === 'unit-hex' && a.unit === uid).map(a => a.group))];

/**
 * Whether a unit may join some target of the composite.
 * @param {State | null} S
 * @param {string} uid
 */
export function canGather(S, uid) {
  const c = composite(S);
  return Boolean(c) && Boolean(c?.targets.some(t => t.units.includes(uid)));
}

/**
 * The target hexes the units gathered may attack together: each may join it, and none is kept apart from another
 * there (the server's `apart`: in a sandstorm, units of different hexes, GG-VIII.A.3).
 * @param {State | null} S
 * @param {string[]} gathered
 */
export function targetsOf(S, gathered) {
  const c = composite(S);
  const together = (/** @type {Composite['targets'][number]} */ t) =>
    gathered.every(a => t.units.includes(a) && !(t.apart?.[a] || []).some(b => gathered.includes(b)));
  return c ? c.targets.filter(together).map(t => t.hex) : [];
}
