// @ts-check
// Talking to the server: every request of the three pages is made here, one function an endpoint, so the shape of
// each answer is written down once (types.js) and checked where it is used.  An answer is [ok, data, status]; a
// refusal's data is {error}, which the pages show rather than throw: a refusal (a stale position, an order no longer
// legal) is part of play.

/** @typedef {import('./types.js').Board} Board */
/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Frame} Frame */
/**
 * Whose decision it is, all a hotseat page with face-down units is told between the sides' views (web/payload.py).
 * @typedef {{handover: true, game: string, seat: string, side: string, mode: string, version: number, scenario: string}} Handover
 */
/** @typedef {{error: string}} Refusal */
/**
 * @template T
 * @typedef {[true, T, number] | [false, Refusal, number]} Answer
 */

/**
 * The answer to a request, its body read as JSON.
 * @param {string} path
 * @param {RequestInit} [options]
 * @returns {Promise<[boolean, any, number]>}  (any only here: each endpoint's function below says its answer's shape)
 */
async function request(path, options) {
  const r = await fetch(path, options);
  return [r.ok, await r.json(), r.status];
}

/**
 * @param {string} path
 * @param {unknown} body
 * @param {string} [method]
 */
function sent(path, body, method = 'POST') {
  return request(path, {method, headers: {'content-type': 'application/json'}, body: JSON.stringify(body)});
}

// --- a game (the token is a seat's key, from the page's address) ------------------------------------------

/**
 * A seat's state; a hotseat page names the side whose view it asks for.
 * @param {string} token
 * @param {string | null} [side]
 * @returns {Promise<Answer<State | Handover>>}
 */
export const state = (token, side = null) => request(`/api/g/${token}/state` + (side ? `?side=${side}` : ''));

/**
 * An order: a listed action's id ({id}) or a whole choice's fields ({action}), for the position `version`.
 * @param {string} token
 * @param {{id: number} | {action: Record<string, unknown>, options?: Record<string, unknown>[]}} what
 * @param {number} version
 * @returns {Promise<Answer<State | Handover>>}
 */
export const order = (token, what, version) => sent(`/api/g/${token}/order`, {...what, version});

/**
 * @param {string} token
 * @param {number} version
 * @returns {Promise<Answer<State | Handover>>}
 */
export const undo = (token, version) => sent(`/api/g/${token}/undo`, {version});

/**
 * The odds of a choice gathered on the map (an attack), asked for by its fields and the options it is made with (a
 * leader named, naval support called), with the options still open to it.
 * @param {string} token
 * @param {Record<string, unknown>} fields
 * @param {Record<string, unknown>[]} [options]
 * @returns {Promise<Answer<{odds: string, lines: string[], outcomes: [string, number][],
 *   options?: {verb: string, fields: Record<string, unknown>, says: string}[]}>>}
 */
export const odds = (token, fields, options = []) => request(`/api/g/${token}/odds?action=${encodeURIComponent(JSON.stringify(fields))}` +
  (options.length ? `&options=${encodeURIComponent(JSON.stringify(options))}` : ''));

/**
 * The route the server lists for a move.
 * @param {string} token
 * @param {number} id
 * @returns {Promise<Answer<{path: string[]}>>}
 */
export const route = (token, id) => request(`/api/g/${token}/path?id=${id}`);

/**
 * @param {string} token
 * @returns {Promise<Answer<{link: string}>>}
 */
export const rematch = (token) => sent(`/api/g/${token}/rematch`, {});

/**
 * The seat's webhook, read (no URL given) or set (null: removed).
 * @param {string} token
 * @param {string | null} [url]
 * @returns {Promise<Answer<{url: string | null}>>}
 */
export const webhook = (token, url) => url === undefined ? request(`/api/g/${token}/webhook`) : sent(`/api/g/${token}/webhook`, {url}, 'PUT');

/**
 * The stream of the game's versions: `onVersion` for each.
 * @param {string} token
 * @param {(version: number) => void} onVersion
 */
export function watch(token, onVersion) {
  const events = new EventSource(`/api/g/${token}/events`);
  events.onmessage = (m) => onVersion(JSON.parse(m.data).version);
  return events;
}

// --- maps and replays -------------------------------------------------------------------------------------

/**
 * A scenario's map: its SVG and its board.
 * @param {string} scenario
 * @returns {Promise<[string, Board]>}
 */
export async function map(scenario) {
  return Promise.all([fetch(`/api/map/${scenario}.svg`).then(r => r.text()), fetch(`/api/map/${scenario}.json`).then(r => r.json())]);
}

/**
 * A game's frames as `side` saw them ('both' for both): one a game-turn, or (`by` 'action') one after each action
 * that changed what the side sees.
 * @param {string} token
 * @param {string} side
 * @param {'turn' | 'action'} [by]
 * @returns {Promise<Answer<{scenario: string, frames: Frame[]}>>}
 */
export const replay = (token, side, by = 'turn') => request(`/api/replay/${token}?side=${side}&by=${by}`);

/**
 * A recorded game sent to be replayed.
 * @param {string} record  the record file's text, as it is
 * @returns {Promise<Answer<{link: string}>>}
 */
export const uploadRecord = (record) => request('/api/replays', {method: 'POST', headers: {'content-type': 'application/json'}, body: record});

// --- the rules' help ----------------------------------------------------------------------------------------

/**
 * A system's results tables (web/help.py): each table's rows, and the meaning of every code they hold.
 * @typedef {{key: string, title: string, corner: string, columns: string[], rows: {label: string, cells: (string | number)[]}[]}} CrtTable
 * @typedef {{system: string, title: string, tables: CrtTable[], codes: Record<string, string>, note: string}} Crt
 */

/**
 * @param {string} system
 * @returns {Promise<Answer<Crt>>}
 */
export const crt = (system) => request(`/api/help/system/${encodeURIComponent(system)}/crt`);

// --- the lobby ----------------------------------------------------------------------------------------------

/** @typedef {{name: string, title: string, preview: string, options: {name: string, text: string, clause: string}[],
 *   solitaire: {side: string, unless: string} | null}} Scenario  (preview: what a system played in part does not play
 *   yet; solitaire: the side its rules play unless the option named is ticked) */

/** @returns {Promise<Answer<Scenario[]>>} */
export const scenarios = () => request('/api/scenarios');

/** @returns {Promise<Answer<string[]>>} the computer players, the default first */
export const players = () => request('/api/players');

/** @returns {Promise<Answer<Record<string, string>>>} a few words on each computer player */
export const playersAbout = () => request('/api/players/about');

/**
 * A new game: its seats' links.
 * @param {Record<string, unknown>} body
 * @returns {Promise<Answer<{links: Record<string, string>}>>}
 */
export const createGame = (body) => sent('/api/games', body);
