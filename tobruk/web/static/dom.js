// @ts-check
// Finding the page's elements and making SVG ones: the small helpers every page module uses.  An element a page's
// HTML must have and does not is an error at once (a renamed id), not a null met later.

export const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The page's element `id`, of the kind given (HTMLElement unless said).
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new (...args: never[]) => T} [kind]
 * @returns {T}
 */
export function byId(id, kind) {
  const found = document.getElementById(id);
  if (!found || !(found instanceof (kind || HTMLElement))) throw new Error(`the page has no ${kind ? kind.name : 'element'} #${id}`);
  return /** @type {T} */ (found);
}

/**
 * An SVG element with its attributes, appended to `parent` if given.
 * @param {string} tag
 * @param {Record<string, string | number>} [attributes]
 * @param {Element | null} [parent]
 * @returns {SVGElement}
 */
export function svgElement(tag, attributes = {}, parent = null) {
  const e = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * An HTML element with its text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function htmlElement(tag, text = '') {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  return e;
}
