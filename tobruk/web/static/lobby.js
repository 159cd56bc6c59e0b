// @ts-check
// tobruk's lobby (index.html): a new game's form, the games this browser has opened, and a recorded game to replay.
// The scenarios, their options and the computer players are the server's; the lobby's last choices are kept in this
// browser, so the next game starts from them.

import * as api from './api.js';
import {byId} from './dom.js';
import {watchClauses} from './help.js';

/** @typedef {import('./api.js').Scenario} Scenario */

const CHOICES = 'tobruk-lobby';
/** @type {Record<string, string>} */
const remembered = (() => { try { return JSON.parse(localStorage.getItem(CHOICES) || 'null') || {}; } catch { return {}; } })();

/**
 * @param {string} name
 * @param {string} value
 */
function remember(name, value) {
  remembered[name] = value;
  try { localStorage.setItem(CHOICES, JSON.stringify(remembered)); } catch { /* storage refused: nothing kept */ }
}

/** @param {HTMLSelectElement} select */
function restore(select) {
  const value = remembered[select.name];
  if (value && [...select.options].some(o => o.value === value)) select.value = value;
}

// --- the scenario and its options ------------------------------------------------------------------------------
const scenario = byId('scenario', HTMLSelectElement);
/** @type {Scenario[]} */
let scenarios = [];

// one checkbox per option of the chosen scenario, with its text and its rule
function showOptions() {
  const box = byId('options'), chosen = scenarios.find(s => s.name === scenario.value);
  box.querySelectorAll('label').forEach(l => l.remove());
  for (const o of chosen ? chosen.options : []) {
    const label = document.createElement('label'), input = document.createElement('input');
    input.type = 'checkbox'; input.name = 'option'; input.value = o.name; input.dataset.option = o.name;
    label.append(input, ` ${o.text} (${o.clause})`);
    box.appendChild(label);
  }
  box.hidden = !chosen || chosen.options.length === 0;
  const note = byId('preview-note');  // a system played in part says what it does not play yet
  note.textContent = chosen && chosen.preview ? chosen.preview : '';
  note.hidden = !note.textContent;
  box.querySelectorAll('input').forEach(i => { i.onchange = () => offerSolitaire(false); });
  offerSolitaire(true);
}

/**
 * A scenario whose rules play one side (Compass's Italians, by the charts) is offered as a solitaire game, the
 * first mode and the one chosen when the scenario is picked, while the option that gives that side to a player is
 * not ticked: the person plays the other side and the rules play theirs.  (Sent as a hotseat game: one screen, and
 * the ruled side never asks it anything.)
 * @param {boolean} choose  choose it (the scenario was just picked)
 */
function offerSolitaire(choose) {
  const chosen = scenarios.find(s => s.name === scenario.value), alone = chosen && chosen.solitaire;
  const ticked = !!alone && [...byId('options').querySelectorAll('input')].some(i => i instanceof HTMLInputElement && i.checked && i.value === alone.unless);
  const sideSelect = /** @type {HTMLSelectElement} */ (document.querySelector('select[name="human_side"]'));
  mode.querySelector('option[value="solitaire"]')?.remove();  // (the mode chosen falls back to the first left)
  if (alone && !ticked) {
    const word = (/** @type {string} */ v) => sideSelect.querySelector(`option[value="${v}"]`)?.textContent || v;
    const player = alone.side === 'axis' ? 'allied' : 'axis';
    const o = document.createElement('option'); o.value = 'solitaire';
    o.textContent = `solitaire (you play the ${word(player)}; the rules play the ${word(alone.side)})`;
    mode.prepend(o);
    if (choose) mode.value = 'solitaire';
    sideSelect.value = player;
  }
  rows();
}
api.scenarios().then(([ok, list]) => {
  if (!ok) return;
  scenarios = list;
  for (const s of list) { const o = document.createElement('option'); o.value = s.name; o.textContent = s.preview ? `${s.title} (preview)` : s.title; scenario.appendChild(o); }
  restore(scenario);
  showOptions();
});
scenario.onchange = () => { remember('scenario', scenario.value); showOptions(); };
watchClauses([byId('options')]);  // each option's clause a link to its help

// --- the computer players: the server's; the first it names is the default --------------------------------------
const computer = byId('computer', HTMLSelectElement);
/** @type {Record<string, string>} */
let about = {};
function showAbout() { byId('computer-about').textContent = about[computer.value] || ''; }
api.players().then(async ([ok, list]) => {
  if (!ok) return;
  for (const name of list) { const o = document.createElement('option'); o.textContent = name; o.value = name; computer.appendChild(o); }
  restore(computer);
  const [told, words] = await api.playersAbout();
  if (!told) return;
  about = words;
  for (const o of computer.options) o.title = about[o.value] || '';
  showAbout();
});
computer.onchange = () => { remember('computer', computer.value); showAbout(); };

// --- the mode, and the rows it needs ---------------------------------------------------------------------------
const mode = byId('mode', HTMLSelectElement);
function rows() {
  const c = mode.value === 'computer';  // (solitaire: the side is the one the rules leave, no computer)
  byId('side-row').style.display = c ? '' : 'none';
  byId('computer-row').style.display = c ? '' : 'none';
  // only a game against the computer may choose its dice: a hotseat or remote game's seed is the server's secret
  byId('seed-row').style.display = c ? '' : 'none';
}
const side = document.querySelector('select[name="human_side"]');
if (!(side instanceof HTMLSelectElement)) throw new Error('the lobby has no side to choose');
restore(mode); restore(side);
mode.onchange = () => { remember('mode', mode.value); rows(); }; rows();
side.onchange = () => remember('human_side', side.value);

// --- starting a game ---------------------------------------------------------------------------------------------
const form = byId('new', HTMLFormElement);
form.onsubmit = async (/** @type {SubmitEvent} */ e) => {
  e.preventDefault();
  const f = new FormData(form), text = (/** @type {string} */ name) => String(f.get(name) ?? '');
  for (const name of ['scenario', 'mode', 'human_side', 'computer']) if (f.get(name)) remember(name, text(name));
  /** @type {Record<string, unknown>} */
  const body = {scenario: f.get('scenario'), mode: f.get('mode') === 'solitaire' ? 'hotseat' : f.get('mode'), human_side: f.get('human_side'),
                computer: f.get('computer'), options: f.getAll('option')};
  if (body.mode === 'computer' && f.get('seed')) body.seed = Number(f.get('seed'));
  const [ok, data] = await api.createGame(body);
  const out = byId('links');
  if (!ok) { out.textContent = data.error; return; }
  /** @type {Record<string, string>} */
  const names = {axis: 'Axis player', allied: 'Allied player', both: 'Both players (hotseat)'};
  out.innerHTML = '<h2>Your game</h2>' + Object.entries(data.links).map(([k, v]) =>
    `<p>${names[k]}: <a class="game-link" data-seat="${k}" href="${v}">${v}</a></p>`).join('') +
    (body.mode === 'remote' ? '<p>Send each player only his own link: it is the key to his side.</p>' : '');
  if (body.mode !== 'remote') location.href = Object.values(data.links)[0];
};

// --- the games this browser has opened (the game page notes each one; the server knows no player), newest first ---
function showMyGames() {
  /** @type {{link: string, title: string, seat: string, turn: number, over: boolean, seen: number}[]} */
  let games = [];
  try { games = JSON.parse(localStorage.getItem('tobruk-games') || 'null') || []; } catch { games = []; }
  const list = byId('my-games-list');
  for (const g of games) {
    const li = document.createElement('li'), a = document.createElement('a');
    a.href = g.link; a.className = 'my-game'; a.textContent = g.title;
    li.append(a, ` · ${g.seat} · turn ${g.turn}${g.over ? ' · over' : ''} · ${new Date(g.seen).toLocaleString()}`);
    list.appendChild(li);
  }
  byId('my-games').hidden = games.length === 0;
}
showMyGames();

// --- a recorded game to replay ----------------------------------------------------------------------------------
const record = byId('record', HTMLInputElement);
record.onchange = async () => {
  const file = record.files && record.files[0];
  if (!file) return;
  const [ok, data] = await api.uploadRecord(await file.text());
  if (!ok) { byId('replay-error').textContent = data.error; return; }
  location.href = data.link;
};
