"""An assault's options chosen on the page (Operation Compass: the leader named, OC-CRT.6; the Inshore Squadron called,
OC-CRT.3), in real headless Chromium, and through the API: the odds asked with them, the order sent with them.

The units are gathered on the map and the target clicked, as for every attack; the attack panel then offers, beside
the odds, the choices the declaration leaves open (from the rules: the server lists them with the odds), each a button
that toggles and asks for the odds again.  Outcomes are read from the game's log through the API."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.systems.operation_compass.kit import BASE, allied, italian
from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import api_of, end_or_first, running_server, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser

UNITS = (
    allied("U", "A2", kind="motorized-infantry", attack=2)
    + allied("T", "A2", kind="armour", attack=3)
    + italian("I", "A3", steps=2, defence=2, morale=4)
    + italian("J", "A3", steps=1, defence=1, morale=5)
)
# two rows of five hexes, the sea north-east of A3 (B3), the WDF's supply from A1
SCENARIO = BASE.format(
    turns=4, rows=2, columns=5, options="", units=UNITS, map_extra='[map.terrain]\nsea = ["B3"]\n[map.supply]\nallied = ["A1"]\n'
)
ATTACK = {"verb": "attack", "attackers": ["U", "T"], "defenders": ["A3"]}


def _to_the_assaults(url: str) -> str:
    """A solitaire game of the small board (the Italians played by the rules), played on to the WDF's assaults."""
    link: str = httpx.post(f"{url}/api/games", json={"scenario": "assault", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
    for _ in range(50):
        s = state_of(link)
        if any(a["verb"] == "target" for a in s["legal"]["actions"]):
            return link
        httpx.post(api_of(link) + "/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
    raise AssertionError("the assault step was not reached")


def _odds(link: str, options: list[dict[str, Any]] | None = None) -> httpx.Response:
    params = {"action": json.dumps(ATTACK)} | ({"options": json.dumps(options)} if options is not None else {})
    return httpx.get(api_of(link) + "/odds", params=params, timeout=60)


def _server(tmp_path: Path) -> AbstractContextManager[str]:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "assault.toml").write_text(SCENARIO, encoding="utf-8")
    return running_server(tmp_path / "games.sqlite", scenarios)


@pytest.mark.rule("OC-CRT.3")
@pytest.mark.rule("OC-CRT.6")
def test_the_odds_and_the_order_with_options_through_the_api(tmp_path: Path) -> None:
    with _server(tmp_path) as url:
        link = _to_the_assaults(url)
        plain = _odds(link).json()
        assert plain["lines"][0] == "led by U"
        assert sorted(o["verb"] for o in plain["options"]) == ["lead", "naval"]
        lead_t = next(o["fields"] for o in plain["options"] if o["verb"] == "lead")
        assert lead_t == {"verb": "lead", "unit": "T"}
        both = _odds(link, [lead_t, {"verb": "naval"}]).json()
        assert both["lines"][0] == "led by T" and any("naval support called" in line for line in both["lines"])
        assert both["odds"].endswith("and the navy") and not plain["odds"].endswith("and the navy")
        assert [o["fields"] for o in both["options"]] == [{"verb": "lead", "unit": "U"}]  # (the navy called once)
        # an option the declaration does not offer is refused, naming its rule, and an option needs an attack
        twice = _odds(link, [{"verb": "naval"}, {"verb": "naval"}])
        assert twice.status_code == 400 and twice.json()["clause"] == "OC-CRT.3"
        alone = httpx.get(api_of(link) + "/odds", params={"order": "attack A3 with U", "options": "[]"}, timeout=60)
        assert alone.status_code == 400 and "options" in alone.json()["error"]
        v = state_of(link)["version"]
        refused = httpx.post(api_of(link) + "/order", json={"id": 0, "options": [{"verb": "naval"}], "version": v}, timeout=60)
        assert refused.status_code == 400 and state_of(link)["version"] == v
        order = api_of(link) + "/order"
        bad = httpx.post(order, json={"action": ATTACK, "options": [{"verb": "lead", "unit": "I"}], "version": v}, timeout=60)
        assert bad.status_code == 400 and bad.json()["clause"] == "OC-CRT.6" and state_of(link)["version"] == v
        made = httpx.post(order, json={"action": ATTACK, "options": [lead_t, {"verb": "naval"}], "version": v}, timeout=60)
        assert made.status_code == 200, made.text
        assert any("assault on A3 by U, T, led by T, with naval support" in line for line in state_of(link)["view"]["log"])


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
@pytest.mark.rule("OC-CRT.3")
@pytest.mark.rule("OC-CRT.6")
def test_the_leader_and_the_navy_chosen_by_clicks(tmp_path: Path, browser: Browser) -> None:
    with _server(tmp_path) as url:
        link = _to_the_assaults(url)
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        for uid in ("U", "T"):  # (a stack of two: a click on its top counter, then the chooser's button for each)
            page.locator('#units .counter[data-hex="A2"]').last.click()
            page.locator(f'#chooser button[data-choose="{uid}"]').click()
        page.click('[data-target="A3"]')
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('led by U')")
        options = page.locator("#attack-options button")
        assert sorted(options.all_inner_texts()) == [
            "Call the Inshore Squadron's fire in support of the assault",
            "T leads the assault (its morale check is the Allied one)",
        ]
        assert options.evaluate_all("bs => bs.map(b => b.getAttribute('aria-pressed'))") == ["false", "false"]
        page.click('#attack-options button[data-verb="naval"]')
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('naval support called')")
        assert page.get_attribute('#attack-options button[data-verb="naval"]', "aria-pressed") == "true"
        # a chosen option looks chosen: not drawn as the one still open beside it
        background = "b => getComputedStyle(b).backgroundColor"
        naval, lead = ('#attack-options button[data-verb="naval"]', '#attack-options button[data-verb="lead"]')
        assert page.eval_on_selector(naval, background) != page.eval_on_selector(lead, background)
        page.click('#attack-options button[data-verb="lead"]')
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('led by T')")
        # T named: U may lead instead (a second name replaces the first), the navy still called
        assert "U leads the assault (its morale check is the Allied one)" in options.all_inner_texts()
        assert "naval support called" in page.inner_text("#attack-info")
        shot(page, "assault-options")
        v = page.evaluate("tobrukGame.state.version")
        page.click("#declare")
        page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version > {v} && !tobrukGame.inFlight")
        assert any("assault on A3 by U, T, led by T, with naval support" in line for line in state_of(link)["view"]["log"])


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
@pytest.mark.rule("OC-CRT.6")
def test_units_gathered_with_no_target_together_are_told_why(tmp_path: Path, browser: Browser) -> None:
    """U (A2) and W (B2) may each assault A3, but not together: an assault is made by the units of one hex next to
    the target (OC-CRT.6).  U gathered lights A3; W joining it lights nothing, and the page says why in the rules'
    words; W taken back and X (B1, which may assault only C2) gathered, the same."""
    units = (
        allied("U", "A2", kind="motorized-infantry")
        + allied("W", "B2", kind="motorized-infantry")
        + allied("X", "B1", kind="motorized-infantry")
        + italian("I", "A3")
        + italian("K", "C2")
    )
    text = BASE.format(turns=4, rows=3, columns=5, options="", units=units, map_extra='[map.supply]\nallied = ["A1"]\n')
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "assault.toml").write_text(text, encoding="utf-8")
    with running_server(tmp_path / "games.sqlite", scenarios) as url:
        link = _to_the_assaults(url)
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        page.click('#units [data-unit="U"]')
        assert page.locator('[data-target="A3"]').count() == 1
        for other in ("W", "X"):
            page.click(f'#units [data-unit="{other}"]')
            assert page.locator("[data-target]").count() == 0
            page.wait_for_function("document.getElementById('attack-info').textContent.includes('No hex may be attacked')")
            info = page.inner_text("#attack-info")
            assert info.startswith(f"Attackers: U, {other}. No hex may be attacked by all of them: ") and "[OC-CRT." in info, info
            page.click(f'#units [data-unit="{other}"]')  # (taken back: A3 lit again)
            assert page.locator('[data-target="A3"]').count() == 1
