// @ts-check
// The shapes of what the server sends the pages, for the type check only: no page loads this file at run time
// (the other modules name these types in their JSDoc, `import('./types.js').Board`), so it holds no code.  The server
// is the source of each shape (render/board.py for the board, web/server.py and the faces' views for the rest);
// written down here, a page that reads a field the server does not send fails the type check, not a game.

/**
 * A side's name and colour on the board.
 * @typedef {{name: string, colour: string}} SideLook
 */

/**
 * A status the system names on a unit: shown as `word` while the unit's `bit` is `when` (for the sides listed, or all),
 * marked on the counter by a disc of `colour` with the letters `mark`.
 * @typedef {{bit: string, word: string, when: boolean, sides: string[], faded: boolean, mark: string, colour: string}} StatusWord
 */

/**
 * The board of a scenario (/api/map/<scenario>.json, render/board.py): where each hex's centre is in the map's SVG, and
 * what the system shows of units.  `passableSet` is the page's own, made from `passable` once the board has come.
 * @typedef {object} Board
 * @property {string} title
 * @property {number} size  the hexes' centre-to-corner distance in the SVG
 * @property {[number, number]} origin  the centre of hex A1 in the SVG (whether or not A1 is on the map)
 * @property {Record<string, [number, number]>} hexes  each hex of the map: its centre
 * @property {Record<string, string[]>} neighbours
 * @property {string[]} passable  the hexes a unit may enter
 * @property {Record<string, string>} symbols  each unit kind's shape
 * @property {Record<string, SideLook>} sides
 * @property {string[]} alarms  the statuses that set a counter's edge red
 * @property {Record<string, string>} marks  the statuses marked beside a counter's values
 * @property {string | null} corner  the field shown beside a counter's symbol
 * @property {StatusWord[]} statuses
 * @property {Record<string, string>} [nationalities]  a counter's colour by its nationality (lower case)
 * @property {Record<string, string>} [codes]  what each result code of the system's charts means
 * @property {string} [system]  the game system's name (its rules' help and results tables, web/help.py)
 * @property {string} [preview]  for a system played in part, what it does not play yet (shown above the map)
 * @property {Set<string>} [passableSet]
 * @property {Objective[]} [objectives]  the hexes the scenario's victory conditions name (ringed on the map's SVG)
 * @property {Ring} [threat]  how the ring round an objective the enemy could reach is drawn
 * @property {{mark: string, name: string}[]} [key]  every mark the map draws besides terrain, as its legend lists it
 */

/**
 * An objective: its hex, what it counts for, the rule, and the side that must hold it.
 * @typedef {{hex: string, name: string, clause: string, defender: string}} Objective
 */

/**
 * An objective of the seat's side that the enemy could reach in its next move, with the enemy units it can see that
 * could (`units`) and the face-down counters that could (`unseen`).
 * @typedef {Objective & {units: string[], unseen: number, arriving?: {unit: string, when: string}[],
 *   conditional?: {words: string, clause: string, most: number | null, units: string[]}[]}} Threat
 */

/**
 * A ring drawn inside a hex: colour, stroke width, size against the hex, dashes ('' solid).
 * @typedef {{colour: string, width: number, scale: number, dashes: string}} Ring
 */

/**
 * A unit as a view shows it: an enemy face-down counter has no id.  Its statuses are fields of their own names
 * (the system's: "disrupted", "supplied" ...), which is why any other field may be read; `why`, the system's reason for
 * a status where it gives one.
 * @typedef {{id?: string | null, side: string, hex?: string | null, eliminated?: boolean, kind?: string, echelon?: string,
 *   factors?: string, name?: string, nationality?: string, hidden?: boolean, why?: Record<string, string>,
 *   [status: string]: unknown}} Unit
 */

/**
 * A layer the system draws over the map for a side: shaded hexes, or lines through hexes.
 * @typedef {{key: string, title: string, kind: string, colour: string, shown?: boolean, hexes?: string[], lines?: string[][]}} Layer
 */

/**
 * A finished game's result.
 * @typedef {{winner: string | null, level: string, lines: string[]}} Summary
 */

/**
 * What a seat sees of the game.
 * @typedef {object} View
 * @property {string} title
 * @property {number} turn
 * @property {string} turn_name the turn as the scenario's track names it ('II May 42', or 'Turn 3')
 * @property {number} turns
 * @property {string} [phase_title]
 * @property {Record<string, string>} [notes]
 * @property {Unit[]} units
 * @property {Layer[]} [overlays]
 * @property {Threat[]} [threats]  the side's objectives the enemy could reach in its next move
 * @property {{clause: string, text: string} | null} [unended]  why the seat may not end the step now (no end button)
 * @property {{title: string, axis: number, allied: number} | null} [score]  each side's points if the game ended now
 * @property {{side: string, prompt: string, clause?: string | null} | null} decision  (its clause shown with the prompt, a link to its help)
 * @property {string[]} log
 * @property {Summary | null} [summary]
 * @property {boolean} over
 */

/**
 * A legal action as the server lists it: its id, how it is made (its gesture), what it picks, what it does in words
 * (`says`, a button's text; `label` is its notation) and, for one whose route is chosen hex by hex (a retreat), its route.
 * @typedef {{id: number, verb: string, gesture: string, label: string, says: string, group: string, unit?: string,
 *   hex?: string, route?: string[], part_of?: string, fields?: Record<string, unknown>, warning?: string}} Action
 */

/**
 * A choice gathered on the map (an attack): the targets, each with the units that may join it (and, where some may
 * not join it together, which each is kept apart from), and the fields the gathered units and the target go into.
 * @typedef {{gesture: string, label: string, targets: {hex: string, units: string[], apart?: Record<string, string[]>}[],
 *   fields: Record<string, unknown>, gather: string, target: string}} Composite
 */

/**
 * A seat's state (/api/g/<token>/state): its view of the game and, on its turn, the legal actions.
 * @typedef {object} State
 * @property {number} version
 * @property {string} game
 * @property {string} scenario
 * @property {string} seat  'axis', 'allied' or 'both' (hotseat)
 * @property {string} side  the side whose view this is
 * @property {string} mode  'computer', 'hotseat' or 'remote'
 * @property {boolean} my_turn
 * @property {boolean} can_undo
 * @property {View} view
 * @property {{actions?: Action[], composites?: Composite[]} | null} [legal]
 * @property {string[]} [waited]
 * @property {undefined} [handover]  (a hand-over is another answer: api.js's Handover)
 */

/**
 * One frame of a replay: the position after a game-turn (``log``: its last lines) or after an action (``lines``: the
 * log lines added since the frame before; the first frame's, the whole log then), with the result at the end.
 * @typedef {{label: string, turn?: number, notes?: Record<string, string>, units: Unit[], log?: string[], lines?: string[], summary?: Summary | null}} Frame
 */

export {};
