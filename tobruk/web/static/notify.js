// Telling a remote player that it is his turn while the tab is out of view: the tab's title, and a browser
// notification (once he has allowed it) when the decision passes to him.  It only reads the state the page was
// sent, and sends nothing but the seat's own webhook (the server tells that URL when the decision passes to the
// seat, web/webhooks.py).  Kept apart from game.js, which calls Notify.setup once and Notify.update on each state.
'use strict';
const Notify = (() => {
  const base = document.title;
  let mine = null;  // whether the last state shown was this seat's turn (null: none shown yet)
  const $ = (id) => document.getElementById(id);

  function update(S) {
    const remote = S && (S.seat === 'axis' || S.seat === 'allied');
    const now = !!(remote && S.my_turn && !S.view.over);
    document.title = now ? `Your turn · ${base}` : base;
    const away = document.visibilityState !== 'visible' || !document.hasFocus();
    if (now && mine === false && away && 'Notification' in window && Notification.permission === 'granted') {
      const d = S.view.decision;
      new Notification('tobruk: your turn', {body: d ? d.prompt : '', tag: `tobruk-${S.game}`});
    }
    mine = remote ? now : null;
  }

  async function setup(token, S) {
    if (!(S.seat === 'axis' || S.seat === 'allied')) return;
    const ask = $('notify-me');
    if ('Notification' in window && Notification.permission === 'default') {
      ask.hidden = false;
      ask.onclick = async () => { await Notification.requestPermission(); ask.hidden = true; };
    }
    if (S.mode !== 'remote') return;
    const url = `/api/g/${token}/webhook`;
    const box = $('webhook-box'), input = $('webhook-url'), said = $('webhook-status');
    const r = await fetch(url);
    if (!r.ok) return;
    input.value = (await r.json()).url || '';
    box.hidden = false;
    $('webhook-save').onclick = async () => {
      const answer = await fetch(url, {method: 'PUT', headers: {'content-type': 'application/json'},
        body: JSON.stringify({url: input.value.trim() || null})});
      const data = await answer.json();
      said.textContent = answer.ok ? (data.url ? 'saved' : 'removed') : data.error;
    };
  }
  return {update, setup};
})();
