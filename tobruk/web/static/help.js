// @ts-check
// The rules' help on the game page: every clause id the page shows (a refusal, a prompt, the odds' reasons, the log)
// becomes a link to its help page (/help/<clause>, opened beside the game), and a CRT button opens a panel with the
// system's results tables, each code with its meaning.  The ids are found in the text the page has already put on
// screen, whoever put it there: the other modules write their text as before and need not know of the help, and the
// links are made with DOM nodes, never markup, so nothing the server wrote is read as HTML.

import * as api from './api.js';
import {htmlElement} from './dom.js';

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./api.js').Crt} Crt */

/** A clause id of the rules (GG-XIII.A.1, FA-CRT.3, OC-MC.2, CA-SC.1), not part of a longer name (R-OC-ROAD). */
export const CLAUSE_ID = /(?<![\w-])(?:GG|FA|OC|CA)-[A-Z0-9]+(?:\.[A-Za-z0-9]+)*/g;
/** The one browser window the help pages open in, beside the game. */
export const HELP_WINDOW = 'tobruk-help';
/** Where no link may go: inside a link, a button, a form's field, a code's explanation. */
const NO_LINKS = 'a, abbr, button, select, option, textarea, input, script, style';

/**
 * The link to a clause's help.
 * @param {string} clause
 */
export function clauseLink(clause) {
  const a = htmlElement('a', clause);
  a.className = 'clause'; a.href = `/help/${encodeURIComponent(clause)}`; a.target = HELP_WINDOW; a.dataset.clause = clause;
  a.title = `what ${clause} says (opens the rules' help)`;
  return a;
}

/**
 * A text node's clause ids made links (the node replaced by its text and the links); false if it holds none.
 * @param {Text} node
 */
function linkText(node) {
  const text = node.data, parent = node.parentElement;
  if (!parent || parent.closest(NO_LINKS) || !text.match(CLAUSE_ID)) return false;
  const parts = document.createDocumentFragment();
  let at = 0;
  for (const m of text.matchAll(CLAUSE_ID)) {
    const start = m.index ?? 0;
    parts.append(text.slice(at, start), clauseLink(m[0]));
    at = start + m[0].length;
  }
  parts.append(text.slice(at));
  node.replaceWith(parts);
  return true;
}

/**
 * Every clause id in the text under `root` made a link.
 * @param {Node} root
 */
export function linkClauses(root) {
  if (root instanceof Text) { linkText(root); return; }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  /** @type {Text[]} */
  const found = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n instanceof Text) found.push(n);
  for (const t of found) linkText(t);  // (after the walk: a replaced node would end it)
}

/**
 * The clause ids written under each of `roots` from now on made links, as they come (and those already there).  The
 * links made are mutations too, but their text is inside a link and is left alone: the watch settles at once.
 * @param {Element[]} roots
 */
export function watchClauses(roots) {
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'characterData') linkClauses(r.target);
      for (const n of r.addedNodes) if (n.isConnected) linkClauses(n);
    }
  });
  for (const root of roots) {
    linkClauses(root);
    observer.observe(root, {childList: true, subtree: true, characterData: true});
  }
}

/**
 * A result code as the panel shows it: its meaning in its title (an OC entry's '*', red, is explained by its numbers').
 * @param {Record<string, string>} codes
 * @param {string} cell
 */
function codeCell(codes, cell) {
  const td = htmlElement('td'), meaning = codes[cell] ?? codes[cell.replace(/\*$/, '')];
  if (meaning === undefined) { td.textContent = cell; return td; }
  const abbr = htmlElement('abbr', cell);
  abbr.className = 'code'; abbr.dataset.code = cell; abbr.title = `${cell}: ${meaning}`;
  if (cell.endsWith('*')) td.classList.add('red');
  td.appendChild(abbr);
  return td;
}

/**
 * The panel's content: each table, then every code with its meaning.
 * @param {HTMLElement} panel
 * @param {Crt} crt
 */
export function drawCrt(panel, crt) {
  const body = htmlElement('div'); body.className = 'crt-body';
  if (crt.note) body.appendChild(htmlElement('p', crt.note));
  for (const t of crt.tables) {
    const table = htmlElement('table'); table.className = 'crt'; table.dataset.table = t.key;
    table.appendChild(htmlElement('caption', t.title));
    const head = htmlElement('tr');
    for (const c of [t.corner, ...t.columns]) head.appendChild(htmlElement('th', c));
    table.appendChild(head);
    for (const row of t.rows) {
      const tr = htmlElement('tr');
      tr.appendChild(htmlElement('th', row.label));
      for (const cell of row.cells) tr.appendChild(codeCell(crt.codes, String(cell)));
      table.appendChild(tr);
    }
    body.appendChild(table);
  }
  const list = htmlElement('dl'); list.className = 'codes';
  for (const [code, meaning] of Object.entries(crt.codes)) {
    const dt = htmlElement('dt', code); dt.dataset.code = code;
    list.append(dt, htmlElement('dd', meaning));
  }
  if (list.children.length) body.appendChild(list);
  const more = htmlElement('a', 'the rules, clause by clause');
  more.href = `/help/system/${encodeURIComponent(crt.system)}`; more.target = HELP_WINDOW;
  body.appendChild(more);
  panel.querySelector('.crt-body')?.remove();
  panel.appendChild(body);
}

/**
 * The help on the game page of a board: the clause links in the side panel and the result, and the CRT button
 * (first of the header's tools) with its panel (at the top of the side panel), its tables asked for when first opened.
 * Placed by the page's landmarks, not by its other elements' ids, so a rearranged panel does not lose it.
 * @param {Board} board
 */
export function setupHelp(board) {
  watchClauses([...document.querySelectorAll('aside, #victory')]);
  const system = board.system, tools = document.querySelector('header .tools'), aside = document.querySelector('aside');
  if (!system || !tools || !aside) return;
  const button = htmlElement('button', 'CRT');
  button.id = 'crt-button'; button.title = "the combat results table and what each result means"; button.setAttribute('aria-controls', 'crt-panel');
  const panel = htmlElement('section'); panel.id = 'crt-panel'; panel.hidden = true;
  const close = htmlElement('button', '×'); close.className = 'close'; close.setAttribute('aria-label', 'close the results tables');
  panel.append(close, htmlElement('h3', 'Results tables'));
  tools.prepend(button);
  aside.prepend(panel);
  let loaded = false;
  close.onclick = () => { panel.hidden = true; button.focus(); };
  button.onclick = async () => {
    panel.hidden = !panel.hidden;
    if (panel.hidden || loaded) return;
    const [ok, data] = await api.crt(system);
    if (!ok) { panel.appendChild(htmlElement('p', data.error)).className = 'error'; return; }
    loaded = true;
    drawCrt(panel, data);
  };
}
