// @ts-check
// The game's log as the pages show it: hex labels and unit ids as links, dice as faces, and the result codes of the
// system's charts explained (board.codes, sent with the board: the page knows no code of its own).  The log's lines
// are the server's text, so every line is escaped before any markup is added.

/** @typedef {import('./types.js').Board} Board */

/**
 * Text made safe to put in HTML.
 * @param {unknown} t
 */
export const escapeHtml = (t) => String(t).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'})[c] || c);

/**
 * Hex labels and unit ids in a line of the log, as links (a hex label is a word of the board's hexes, not the tail of
 * a clause id such as GG-XI.B2, which help.js makes a link to the clause's help).
 * @param {Board} board
 * @param {string} text
 * @param {Set<string>} [unitIds]
 */
export function linked(board, text, unitIds = new Set()) {
  return escapeHtml(text)
    .replace(/\b(?<!\b(?:GG|FA|OC|CA)-[A-Za-z0-9.]*)([A-Z]{1,2}\d{1,3})\b/g, (m) => board.hexes[m] ? `<a data-hex="${m}">${m}</a>` : m)
    .replace(/(<a[^>]*>[^<]*<\/a>)|\b([A-Za-z0-9.']+)\b/g, (m, link, word) =>
      link || !unitIds.has(word) ? m : `<a data-unit-link="${word}">${word}</a>`);
}

/**
 * The result codes of the system's charts in a line of HTML (text outside tags and links), each as an <abbr> whose
 * title is its meaning.  A lone '-' is a code only where a result stands: after ': ' at the end of a clause, or as
 * the whole text.
 * @param {Board} board
 * @param {string} html
 */
export function explained(board, html) {
  const codes = board.codes || {};
  const abbr = (/** @type {string} */ code) =>
    `<abbr class="code" data-code="${escapeHtml(code)}" title="${escapeHtml(`${code}: ${codes[code]}`)}">${escapeHtml(code)}</abbr>`;
  const words = Object.keys(codes).filter(c => c !== '-').sort((a, b) => b.length - a.length);
  if (!words.length && !codes['-']) return html;
  if (html === '-' && codes['-']) return abbr('-');
  const quote = (/** @type {string} */ t) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const pattern = new RegExp(`(?<![\\w/])(${words.map(w => quote(escapeHtml(w))).join('|') || '(?!)'})(?![\\w/])` +
    (codes['-'] ? '|(?<=: )-(?=$|[.,;)\\s])' : ''), 'g');
  let inLink = 0;
  return html.split(/(<[^>]*>)/).map(part => {
    if (part.startsWith('<')) { if (/^<a\b/.test(part)) inLink++; else if (part === '</a>') inLink--; return part; }
    if (inLink) return part;
    return part.replace(pattern, (m) => abbr(m.replace(/&amp;/g, '&')));
  }).join('');
}

const FACES = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/**
 * A line of the log as the game page shows it: hex labels and unit ids as links, dice as faces, codes explained.
 * @param {Board} board
 * @param {string} line
 * @param {Set<string>} unitIds
 */
export function logLine(board, line, unitIds) {
  const li = document.createElement('li');
  li.innerHTML = explained(board, linked(board, line, unitIds).replace(/die (\d)/g, (_, n) => `die <span class="die">${FACES[Number(n)]}</span>`));
  return li;
}

/**
 * What a click on a link of the log does: a hex flashed, a unit found.
 * @typedef {{onHex: (hex: string) => void, onUnit?: (id: string) => void}} LogLinks
 */

/**
 * The links of a list of log lines made to work.
 * @param {HTMLElement} box
 * @param {LogLinks} links
 */
export function linkLog(box, {onHex, onUnit}) {
  for (const a of box.querySelectorAll('a[data-hex]')) if (a instanceof HTMLElement) a.onclick = () => onHex(a.dataset.hex || '');
  if (onUnit) for (const a of box.querySelectorAll('a[data-unit-link]')) if (a instanceof HTMLElement) a.onclick = () => onUnit(a.dataset.unitLink || '');
}
