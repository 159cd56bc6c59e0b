// @ts-check
// A choice of several numbers at once (the British player's weather numbers: a sandstorm number and a rainstorm
// number, 30 pairs) made as a player names them at the table: a row of numbers per field, each picked with a click,
// the numbers no offered action pairs with those already picked greyed out, then one button saying the whole choice
// in words, sent by its id.  A list of every pair as buttons would be 30 to read; this is two rows of six.

/** @typedef {import('./types.js').Action} Action */

/**
 * The number fields of an action (its coordinates other than the verb, when every one is a whole number).
 * @param {Action} a
 * @returns {string[] | null}
 */
function numberFields(a) {
  const names = Object.keys(a.fields || {}).filter(k => k !== 'verb');
  return names.length && names.every(k => Number.isInteger(a.fields?.[k])) ? names : null;
}

/**
 * Whether the actions of a group are one choice of several numbers: one verb, chosen from options, two or more
 * number fields.
 * @param {Action[]} actions
 */
export function isNumberChoice(actions) {
  if (actions.length < 2 || actions.some(a => a.gesture !== 'choose' || a.verb !== actions[0].verb)) return false;
  const names = numberFields(actions[0]);
  return !!names && names.length >= 2 && actions.every(a => numberFields(a)?.join() === names.join());
}

/** @param {string} name */
const title = (name) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

/**
 * The picker for a choice of several numbers: a row per field, then the button of the action the picks name.
 * @param {Action[]} actions  (those of :func:`isNumberChoice`)
 * @param {(id: number) => void} order  sends the chosen action
 * @returns {HTMLElement}
 */
export function numberPicker(actions, order) {
  const names = numberFields(actions[0]) || [];
  /** @type {Record<string, number>} */
  const picked = {};
  const box = document.createElement('div'); box.className = 'picker'; box.dataset.verb = actions[0].verb;
  const confirm = document.createElement('button'); confirm.className = 'confirm'; confirm.disabled = true;
  /** @param {Action} a @param {Record<string, number>} picks */
  const fits = (a, picks) => Object.entries(picks).every(([k, v]) => a.fields?.[k] === v);
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  const redraw = () => {
    for (const b of buttons) {
      const field = b.dataset.field || '', value = Number(b.dataset.value);
      const others = Object.fromEntries(Object.entries(picked).filter(([k]) => k !== field));
      b.disabled = !actions.some(a => fits(a, {...others, [field]: value}));
      b.setAttribute('aria-pressed', String(picked[field] === value));
    }
    const chosen = names.every(k => k in picked) ? actions.find(a => fits(a, picked)) : undefined;
    confirm.disabled = !chosen;
    confirm.textContent = chosen ? chosen.says : `Pick ${names.map(title).join(' and ').toLowerCase()}`;
    confirm.dataset.id = chosen ? String(chosen.id) : '';
    confirm.onclick = chosen ? () => order(chosen.id) : null;
  };
  for (const name of names) {
    const row = document.createElement('div'); row.className = 'picker-row'; row.setAttribute('role', 'group');
    const label = document.createElement('span'); label.textContent = `${title(name)}:`; label.id = `pick-${name}`;
    row.setAttribute('aria-labelledby', label.id); row.appendChild(label);
    const values = [...new Set(actions.map(a => /** @type {number} */ (a.fields?.[name])))].sort((x, y) => x - y);
    for (const value of values) {
      const b = document.createElement('button'); b.textContent = String(value);
      b.dataset.field = name; b.dataset.value = String(value);
      b.setAttribute('aria-label', `${title(name)} ${value}`);
      b.onclick = () => {
        if (picked[name] === value) delete picked[name]; else picked[name] = value;
        redraw();
      };
      buttons.push(b); row.appendChild(b);
    }
    box.appendChild(row);
  }
  box.appendChild(confirm);
  redraw();
  return box;
}
