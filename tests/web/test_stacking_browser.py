"""The stacking limit said before it costs units, in real headless Chromium (GG-XII.B): a newcomer moved 15Pz and
21Pz into a hex that already held 90Lt, the Recce Gruppe and KG Hecker, nothing warned, and three units were lost at
the end of the phase.  Now the hex such a move would put over the limit is lit in another colour, its title saying
what it will cost; the end-phase button says which hex is over the limit and how many units will go, and asks for a
second press; the elimination that follows says how many must go.  Outcomes are read through the API."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.conftest import BASE, unit_toml
from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.test_web_keyboard import _go, _said, _tab_until
from tests.web.web_server import api_of, running_server, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

UNITS = (
    unit_toml("90Lt", "axis", "A1")
    + unit_toml("Recce", "axis", "A1", echelon="subdivisional")
    + unit_toml("Hecker", "axis", "A1", echelon="subdivisional")
    + unit_toml("15Pz", "axis", "A3")
    + unit_toml("21Pz", "axis", "A4")
    + unit_toml("T", "allied", "C12")
)
SCENARIO = BASE.format(turns=4, rows=3, columns=12, map_extra="", units=UNITS)
LIMIT = "over the stacking limit (3 units, only 2 of them division-level)"
COST = f"A1 holds 5 units, 3 of them division-level, {LIMIT}: 2 must be eliminated, at least 1 of them division-level (GG-XII.B)"


@pytest.mark.rule("GG-XII.B")
def test_moving_into_a_full_hex_warns_and_ending_the_phase_so_asks_to_confirm(tmp_path: Path, browser: Browser) -> None:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "crowded.toml").write_text(SCENARIO, encoding="utf-8")
    with running_server(tmp_path / "games.sqlite", scenarios) as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "crowded", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        s = state_of(link)  # the Axis set-up ended: the Axis movement phase
        end = next(a for a in s["legal"]["actions"] if a["verb"] == "end-phase")
        httpx.post(api_of(link) + "/order", json={"id": end["id"], "version": s["version"]}, timeout=60)
        assert state_of(link)["view"]["decision"]["phase"] == "axis-movement"
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        # 15Pz picked up: A1 (a stack of the Axis' own: its disc) is lit as a warning, A2 as a plain move
        page.click('[data-unit="15Pz"]')
        a1 = page.locator('[data-reach="A1"]')
        assert a1.get_attribute("class") == "reach reach-dot warned"
        assert a1.locator("title").text_content() == (
            f"A1 would then hold 4 units, 2 of them division-level, {LIMIT}: unless units leave it, 1 must be eliminated "
            "at the end of the phase (GG-XII.B)"
        )
        assert "warned" not in str(page.get_attribute('[data-reach="A2"]', "class"))
        assert "An orange one warns of a cost" in page.inner_text("#hint")
        a1.click()
        page.wait_for_function("document.querySelector('[data-unit=\"15Pz\"]').dataset.hex === 'A1' && !tobrukGame.inFlight")
        # 21Pz: a third division-level unit
        page.click('[data-unit="21Pz"]')
        assert "5 units, 3 of them division-level" in str(page.locator('[data-reach="A1"] title').text_content())
        # the map's cursor tells a screen reader the same, at the lit hex
        page.evaluate("document.activeElement.blur()")
        _tab_until(page, "el.id === 'board'")
        _go(page, "A1", set(httpx.get(f"{url}/api/map/crowded.json", timeout=60).json()["hexes"]))
        assert "beware: A1 would then hold 5 units, 3 of them division-level" in _said(page)
        shot(page, "stacking-warned-move")
        page.click('[data-reach="A1"]')
        page.wait_for_function("document.querySelector('[data-unit=\"21Pz\"]').dataset.hex === 'A1' && !tobrukGame.inFlight")
        # the end of the phase says what it costs and asks for a second press
        before = state_of(link)["version"]
        end_button = page.locator('#orders button[data-order="end-phase"]')
        assert end_button.get_attribute("title") == COST
        end_button.click()
        confirm = page.locator("#orders .confirm-cost")
        assert confirm.locator("p").inner_text() == f"End this phase: {COST}."
        page.wait_for_timeout(300)
        assert state_of(link)["version"] == before  # nothing sent yet
        shot(page, "stacking-ending-costs")
        confirm.locator("button[data-confirm]").click()
        page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version > {before} && !tobrukGame.inFlight")
        # the elimination says how many must go and what counts, each unit why it would serve
        assert "2 of the 5 in A1, at least 1 of its 3 division-level ones" in page.inner_text("#prompt")
        page.click('[data-unit="21Pz"]')  # the stack's chooser, then a ringed unit: its elimination offered beside it
        page.click('#chooser button[data-choose="21Pz"]')
        button = page.locator('button[data-order="eliminate 21Pz"]')
        assert button.inner_text() == "Eliminate 21Pz (division-level): A1 then holds 4 units, 2 of them division-level: 1 more must go"
        shot(page, "stacking-eliminate")
        says = {a["unit"]: a["says"] for a in state_of(link)["legal"]["actions"] if a["verb"] == "eliminate"}
        assert says["Hecker"].startswith("Eliminate Hecker (not division-level): A1 then holds 4 units, 3 of them division-level")
        assert says["90Lt"].startswith("Eliminate 90Lt (division-level): A1 then holds 4 units, 2 of them division-level")
