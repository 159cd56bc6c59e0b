"""Ending a step that costs something by the rules is confirmed first, in real headless Chromium: a newcomer ended
1st Alamein's attacks with spent units next to enemy units nobody had attacked, and the AR that followed (GG-IX.B)
took his unit off El Alamein, the hex the game is won on, with nothing said before.  The end-phase button now says
what it will cost and asks for a second press; "Go back" leaves the game as it was.  Outcomes are read through the
API."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.systems.first_alamein.kit import BASE, unit
from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import api_of, running_server, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

# one row: the spent S and S2 in A3 next to the Allied E in A4, the spent F in A1 next to nobody
SCENARIO = BASE.format(
    turns=10,
    rows=1,
    columns=8,
    map_extra="",
    units=unit("S", "axis", "A3") + unit("S2", "axis", "A3") + unit("F", "axis", "A1") + unit("E", "allied", "A4"),
    rules='spent_at_start = ["S", "S2", "F"]',
)
COST = "S, S2: spent next to enemy units nobody attacked, so they must retreat (AR, GG-IX.B)"


@pytest.mark.rule("GG-IX.B")
def test_ending_the_attacks_with_an_ar_due_asks_to_confirm(tmp_path: Path, browser: Browser) -> None:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "spent.toml").write_text(SCENARIO, encoding="utf-8")
    with running_server(tmp_path / "games.sqlite", scenarios) as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "spent", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        for _ in range(20):  # every step ended up to the Axis attacks
            s = state_of(link)
            if s["view"]["decision"]["phase"] == "axis-attacks":
                break
            end = next(a for a in s["legal"]["actions"] if a["verb"] == "end-phase")
            httpx.post(api_of(link) + "/order", json={"id": end["id"], "version": s["version"]}, timeout=60)
        before = state_of(link)["version"]
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(link)
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        end = page.locator('#orders button[data-order="end-phase"]')
        assert end.get_attribute("title") == COST
        end.click()
        confirm = page.locator("#orders .confirm-cost")
        assert confirm.locator("p").inner_text() == f"End this phase: {COST}."
        page.wait_for_timeout(300)
        assert state_of(link)["version"] == before  # nothing sent yet
        confirm.get_by_role("button", name="Go back").click()
        assert page.locator("#orders .confirm-cost").count() == 0 and state_of(link)["version"] == before
        end.click()
        shot(page, "ending-costs")
        page.locator("#orders .confirm-cost button[data-confirm]").click()
        page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version > {before} && !tobrukGame.inFlight")
        assert "S, S2: spent next to unattacked enemy units, AR (GG-IX.B)." in state_of(link)["view"]["log"]
