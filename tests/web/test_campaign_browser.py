"""The North-Africa campaign's preview in real headless Chromium, by clicks: the lobby offers its scenarios as a
preview that says combat is not played yet, and on the 3,260-hex map a player builds a fort (drawn at once),
moves, bugs out, moves by sea and by rail with the lit hexes of each (the reach overlay), and ends each step by its
button.  What happened is read from the game's state and log through the API and judged by the rules (CA-S: a unit
moved strategically arrives disrupted, a sunk one is eliminated), not from the page.  The scenario is Mersa Matruh
(II Jun 42), whose first player-turns offer every one of these moves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import running_server, state_of
from tobruk.engine.system import find_system

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

SCENARIO = "na-mersa-matruh"
PREVIEW = find_system("north-africa-campaign").preview


def _unit(link: str, uid: str) -> dict[str, Any]:
    return next(u for u in state_of(link)["view"]["units"] if u.get("id") == uid)


def _actions(link: str) -> list[dict[str, Any]]:
    return list(state_of(link)["legal"]["actions"])


def _version(page: Page) -> int:
    return int(page.evaluate("tobrukGame.state.version"))


def _answered(page: Page, version: int) -> None:
    page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version >= {version} && !tobrukGame.inFlight")


def _lit(page: Page) -> set[str]:
    return set(page.evaluate("[...document.querySelectorAll('[data-reach]')].map(p => p.dataset.reach)"))


def _end_step(page: Page, link: str) -> None:
    """The step ended by its button in the decision panel (the end-phase the server lists, by its id)."""
    (end,) = [a for a in _actions(link) if a["verb"] == "end-phase"]
    version = _version(page)
    page.click(f'#orders button[data-id="{end["id"]}"]')
    _answered(page, version + 1)


def _log(link: str) -> str:
    return "\n".join(str(line) for line in state_of(link)["view"]["log"])


def _prompt(link: str) -> str:
    return str(state_of(link)["view"]["decision"]["prompt"])


def _step_to(page: Page, link: str, words: str) -> None:
    """End steps by their buttons until the decision's prompt says ``words``."""
    for _ in range(8):
        page.reload()
        page.wait_for_function("tobrukGame.state && tobrukGame.state.my_turn")
        if words in _prompt(link):
            return
        _end_step(page, link)
    raise AssertionError(f"no step says {words!r}: {_prompt(link)}")


def _pick(page: Page, uid: str, hex_: str) -> None:
    """A unit picked on the map: its stack's top counter clicked, and the unit chosen in the stack's chooser if one
    opens (a stack of one's own counters)."""
    page.locator(f'#units .counter[data-hex="{hex_}"]').last.click()
    if page.is_visible("#chooser"):
        page.click(f'#chooser button[data-choose="{uid}"]')
    page.wait_for_function(f"tobrukGame.selected === {uid!r}")


def _make(page: Page, link: str, verb: str, *, form: str | None = None) -> tuple[str, str]:
    """A ``verb`` made on the map: the first unit the server lists one for clicked, its form chosen if it has
    several, then one of the hexes lit for it clicked.  The lit hexes are exactly the listed ones."""
    listed = [a for a in _actions(link) if a["verb"] == verb and (form is None or a["group"] == form)]
    uid = str(listed[0]["unit"])
    hexes = {a["hex"] for a in listed if a["unit"] == uid}
    _pick(page, uid, str(_unit(link, uid)["hex"]))
    if form is not None and page.locator(f'[data-form="{form}"]').count():
        page.click(f'[data-form="{form}"]')
    page.wait_for_function("document.querySelectorAll('[data-reach]').length > 0")
    assert _lit(page) == hexes
    target = sorted(hexes)[0]
    version = _version(page)
    page.locator(f'[data-reach="{target}"]').first.click()
    _answered(page, version + 1)
    return uid, target


def test_the_lobby_offers_the_campaign_as_a_preview_that_says_what_it_does_not_play(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        listed = {s["name"]: s for s in httpx.get(f"{url}/api/scenarios", timeout=60).json()}
        assert listed[SCENARIO]["preview"] == PREVIEW and "combat (CA-G, CA-T) is not yet" in PREVIEW
        assert listed["gazala-gallop"]["preview"] == ""  # a system played in full is no preview
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector(f'#scenario option[value="{SCENARIO}"]', state="attached")
        assert page.inner_text(f'#scenario option[value="{SCENARIO}"]').endswith("(preview)")
        page.select_option("#scenario", SCENARIO)
        assert page.is_visible("#preview-note") and page.inner_text("#preview-note") == PREVIEW
        page.select_option("#scenario", "gazala-gallop")
        assert page.is_hidden("#preview-note")


def test_a_campaign_player_turn_by_clicks_move_bugout_sea_and_rail(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: 3) as url:
        links = httpx.post(f"{url}/api/games", json={"scenario": SCENARIO, "mode": "remote"}, timeout=60).json()["links"]
        axis, allied = browser.new_page(viewport={"width": 1300, "height": 850}), browser.new_page(viewport={"width": 1300, "height": 850})
        allied.goto(links["allied"])
        allied.wait_for_selector("#units .counter[data-unit]")
        assert allied.inner_text("#preview-note") == PREVIEW
        # the big map opens where the side's counters stand, not at its north-west corner (A1)
        assert allied.evaluate("document.getElementById('board').scrollLeft") > 0
        _end_step(allied, links["allied"])  # the Allied set-up, kept as the scenario gives it

        axis.goto(links["axis"])
        axis.wait_for_selector("#units .counter[data-unit]")
        _end_step(axis, links["axis"])  # the Axis set-up

        # a fort built (CA-F.1): the hexes it may stand on lit, a click, the confirmation in words; then it is drawn
        _step_to(axis, links["axis"], "fort construction")
        builds = {a["hex"]: a for a in _actions(links["axis"]) if a["verb"] == "build"}
        axis.wait_for_selector("[data-aim]", state="attached")
        assert set(axis.evaluate("[...document.querySelectorAll('[data-aim]')].map(p => p.dataset.aim)")) == set(builds)
        fort = sorted(builds)[0]
        axis.locator(f'[data-aim="{fort}"]').click()
        confirm = axis.locator('#chooser button[data-offer="build"]')
        assert confirm.inner_text() == builds[fort]["says"]
        version = _version(axis)
        confirm.click()
        _answered(axis, version + 1)
        assert f"Axis: a fort is built at {fort} (CA-F.1)." in _log(links["axis"])
        axis.wait_for_selector(f'[data-layer="forts-axis"][data-hex="{fort}"]', state="attached")  # drawn without a tick
        assert axis.is_checked('input[data-layer="forts-axis"]')
        shot(axis, "campaign-fort")
        _step_to(axis, links["axis"], "operational movement and attack allocation")
        assert "no attacks in this preview" in _prompt(links["axis"])
        assert not any(a["verb"] == "allocate" for a in _actions(links["axis"]))

        # an operational move: the unit stands on the hex clicked
        uid, target = _make(axis, links["axis"], "move")
        assert _unit(links["axis"], uid)["hex"] == target
        shot(axis, "campaign-move")

        # a bugout (CA-S.4): off the map by the bugout's form, or eliminated by its die; either is in the log
        uid, _ = _make(axis, links["axis"], "bugout", form="bugout off-map")
        unit, log = _unit(links["axis"], uid), _log(links["axis"])
        assert f"{uid} bugs out" in log
        assert unit.get("hex") is None  # gone from the map whichever way the die fell
        _step_to(axis, links["axis"], "breakthrough")
        _end_step(axis, links["axis"])

        # the Allied sea move (CA-S.3): at the port and disrupted, or sunk (eliminated) by the die, as the log says
        _step_to(allied, links["allied"], "reinforcements")
        uid, port = _make(allied, links["allied"], "sea")
        unit = _unit(links["allied"], uid)
        sunk = [line for line in _log(links["allied"]).splitlines() if uid in line and "by sea" in line]
        assert sunk, "the sea move is in the log"
        if unit.get("eliminated"):
            assert "sunk" in sunk[-1] or "eliminated" in sunk[-1]
        else:
            assert unit["hex"] == port and unit.get("disrupted"), "a unit moved strategically arrives disrupted (CA-S)"

        # the Allied rail move (CA-S.2): along the line, to the hex clicked
        _step_to(allied, links["allied"], "rail movement")
        uid, target = _make(allied, links["allied"], "move")
        assert _unit(links["allied"], uid)["hex"] == target
        shot(allied, "campaign-rail")
