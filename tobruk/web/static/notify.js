// @ts-check
// Telling a remote player that it is his turn while the tab is out of view: the tab's title, and a browser
// notification (once he has allowed it) when the decision passes to him.  It only reads the state the page was
// sent, and sends nothing but the seat's own webhook (the server tells that URL when the decision passes to the
// seat, web/webhooks.py).  The game page calls setup once and update on each state.

import * as api from './api.js';
import {byId} from './dom.js';

/** @typedef {import('./types.js').State} State */

const base = document.title;
/** @type {boolean | null} whether the last state shown was this seat's turn (null: none shown yet) */
let mine = null;

/** @param {State} S */
const remote = (S) => S.seat === 'axis' || S.seat === 'allied';

/** @param {State | null} S */
export function update(S) {
  const seated = Boolean(S && remote(S));
  const now = Boolean(S && seated && S.my_turn && !S.view.over);
  document.title = now ? `Your turn · ${base}` : base;
  const away = document.visibilityState !== 'visible' || !document.hasFocus();
  if (S && now && mine === false && away && 'Notification' in window && Notification.permission === 'granted') {
    const d = S.view.decision;
    new Notification('tobruk: your turn', {body: d ? d.prompt : '', tag: `tobruk-${S.game}`});
  }
  mine = seated ? now : null;
}

/**
 * The seat's offer of notifications, and of a webhook in a remote game.
 * @param {string} token
 * @param {State} S
 */
export async function setup(token, S) {
  if (!remote(S)) return;
  const ask = byId('notify-me', HTMLButtonElement);
  if ('Notification' in window && Notification.permission === 'default') {
    ask.hidden = false;
    ask.onclick = async () => { await Notification.requestPermission(); ask.hidden = true; };
  }
  if (S.mode !== 'remote') return;
  const box = byId('webhook-box'), input = byId('webhook-url', HTMLInputElement), said = byId('webhook-status');
  const [ok, data] = await api.webhook(token);
  if (!ok) return;
  input.value = data.url || '';
  box.hidden = false;
  byId('webhook-save', HTMLButtonElement).onclick = async () => {
    const [saved, answer] = await api.webhook(token, input.value.trim() || null);
    said.textContent = saved ? (answer.url ? 'saved' : 'removed') : answer.error;
  };
}
