"""Objectives, threats and the legend on the page, in real headless Chromium (Debian's package), by clicks.

The hexes a system's victory conditions name are ringed on the map from the start and listed in its legend with their
rule; the legend lists every kind of mark the map shows (the page's own threat rings too); and when, as the seat's
side knows the enemy, an enemy unit could reach one of its objectives in its next move, the objective is ringed red
and the page says which, why (the rule) and who.  Placing a unit on the threatened hex by clicks lifts the warning
(an enemy may not enter a hex the Axis holds, GG-XIII.A.3).  What the threats are is the server's answer
(tests/systems/*/test_objectives.py); this checks what the page does with it.  Screenshots in ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


def _state(link: str) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(link.replace("/g/", "/api/g/") + "/state", timeout=60).json()
    return answer


def _marks(page: Page) -> tuple[set[str], set[str]]:
    """The kinds of mark the map shows (the SVG's and the page's own, outside the legend; the counters' status marks have
    their own key beside the map), and those its legend lists."""
    drawn = page.evaluate(
        "[...document.querySelectorAll('#map-holder [data-mark]')].filter(e => !e.closest('#legend, #units')).map(e => e.dataset.mark)"
    )
    listed = page.evaluate("[...document.querySelectorAll('#legend [data-legend]')].map(e => e.dataset.legend)")
    return set(drawn), set(listed)


def _rings(page: Page) -> set[str]:
    return set(page.evaluate("[...document.querySelectorAll('#overlay [data-threat]')].map(e => e.dataset.threat)"))


@pytest.mark.parametrize("scenario", ["gazala-gallop", "first-alamein", "operation-compass"])
def test_the_objectives_are_ringed_from_the_start_and_the_legend_lists_every_mark(tmp_path: Path, browser: Browser, scenario: str) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": scenario, "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        board = httpx.get(f"{url}/api/map/{scenario}.json", timeout=60).json()
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#units .counter")
        objectives = board["objectives"]
        assert objectives
        ringed = page.evaluate(
            "[...document.querySelectorAll('#objectives [data-mark^=\"objective:\"] title')].map(t => t.textContent.split(':')[0])"
        )
        assert set(ringed) == {o["hex"] for o in objectives}  # every objective, from the start, not a layer to tick
        legend = str(page.evaluate("document.querySelector('#legend').textContent"))
        for o in objectives:
            assert o["name"] in legend and f"[{o['clause']}]" in legend
        drawn, listed = _marks(page)
        assert drawn <= listed and {m["mark"] for m in board["key"]} == listed
        assert {k.split(":")[0] for k in drawn} >= {"objective", "supply", "route"}
        # a click on a layer's box draws the layer: the objectives stay ringed whatever is ticked
        page.click("#layers input >> nth=0")
        assert page.locator("#objectives [data-mark]").count() == len({o["hex"] for o in objectives})
        shot(page, f"objectives-{scenario}")


def test_a_threatened_objective_is_ringed_and_said_and_a_unit_placed_on_it_lifts_the_warning(tmp_path: Path, browser: Browser) -> None:
    """The Gazala Gallop's set-up: the Allies' printed positions leave A5 (an Allied unit there wins at once, GG-IV.A.1)
    within an Allied move of them; the Axis puts a unit on A5 by clicks and the warning goes."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote"}, timeout=60).json()["links"]["axis"]
        state = _state(link)
        threatened = {t["hex"]: t for t in state["view"]["threats"]}
        assert "A5" in threatened and threatened["A5"]["units"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#threat-warning:not([hidden])")
        warning = page.inner_text("#threat-warning")
        assert "A5" in warning and "GG-IV.A.1" in warning and threatened["A5"]["units"][0] in warning
        assert _rings(page) == set(threatened)
        drawn, listed = _marks(page)
        assert "threatened" in drawn and drawn <= listed  # the page's own ring is in the legend too
        shot(page, "objectives-threatened")

        hexes = {u["id"]: u["hex"] for u in state["view"]["units"] if u.get("id") and u.get("hex")}
        alone = [uid for uid, h in hexes.items() if list(hexes.values()).count(h) == 1]
        mover = next(
            a["unit"] for a in state["legal"]["actions"] if a["gesture"] == "unit-hex" and a.get("hex") == "A5" and a["unit"] in alone
        )
        version = state["version"]
        page.click(f'#units .counter[data-unit="{mover}"]')
        page.click('[data-reach="A5"]', force=True)
        page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version > {version} && !tobrukGame.inFlight")
        after = _state(link)
        assert next(u for u in after["view"]["units"] if u.get("id") == mover)["hex"] == "A5"
        assert "A5" not in {t["hex"] for t in after["view"]["threats"]}
        assert "A5" not in _rings(page) and "A5" not in page.inner_text("#threat-warning")
        shot(page, "objectives-threat-lifted")
