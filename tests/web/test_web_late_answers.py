"""An answer that comes late never puts the page back.

After each order the server tells every page watching the game that the position changed, and a page whose position
is older asks for the new one.  That notice may reach the page before the order's own answer does, so two answers
are on their way at once; on a slow network the one asked for first may come last.  A page that showed whatever came
last went back to an older position (its prompt, its buttons) and the player's next click was refused as out of date.
Here the network is made slow in the page itself: the order's answer comes late enough that the notice's request goes
first, and that request's answer comes later still, after the player's next order was answered."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.web_server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

# Once `slowNetwork` is set: an order's answer is held 0.8 s, a position's 2.5 s (each asked of the server at once, so
# it is the position at the moment it was asked for), and each late position counted when it is handed over.
SLOW_NETWORK = """
const realFetch = window.fetch.bind(window);
window.slowNetwork = false;
window.latePositions = 0;
window.fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  const answer = await realFetch(input, init);
  if (!window.slowNetwork) return answer;
  if (url.includes('/order')) await new Promise((done) => setTimeout(done, 800));
  if (url.includes('/state')) { await new Promise((done) => setTimeout(done, 2500)); window.latePositions += 1; }
  return answer;
};
"""


def test_a_late_answer_does_not_put_the_page_back(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "operation-compass", "mode": "hotseat"}, timeout=60)
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.add_init_script(SLOW_NETWORK)
        page.goto(r.json()["links"]["both"])
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        first = page.evaluate("tobrukGame.state.version")
        page.evaluate("window.slowNetwork = true")
        # the first order (a bombardment): its notice comes before its answer, so the page asks for the position
        page.click('[data-aim="I17"]')
        page.click('#chooser button[data-order="bombard I17"]')
        page.wait_for_function("v => tobrukGame.state.version > v && !tobrukGame.inFlight", arg=first)
        bombarded = page.evaluate("tobrukGame.state.version")
        # the second (the phase ended) is answered before the position asked for after the first comes in
        page.click('button[data-order="end-phase"]')
        page.wait_for_function("v => tobrukGame.state.version > v && !tobrukGame.inFlight", arg=bombarded)
        moving = page.evaluate("tobrukGame.state.version")
        assert "move your units" in page.inner_text("#prompt")
        page.wait_for_function("window.latePositions >= 1", timeout=20000)
        # the late answer (the position after the bombardment) is not shown: the page stays at the movement phase
        assert page.evaluate("tobrukGame.state.version") == moving
        assert "move your units" in page.inner_text("#prompt")
        assert page.locator('button[data-order="end-phase"]').count() == 1
