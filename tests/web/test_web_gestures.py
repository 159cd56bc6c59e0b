"""Every decision made on the map where it has a place on it, by clicks in real headless Chromium (Debian's package).

A unit with an order to give (an activation, No Retreat! orders) is ringed on the map, its mark in the counters' key;
a click on it offers beside it a button per order saying in words what it does.  The hexes an air strike may be aimed
at are lit; a click asks to confirm in words.  A retreat's next hexes are lit and its route drawn as it is chosen hex
by hex.  What has no place on the map (a retreat distance, No Retreat! given to nobody, the end of a phase) is a button
saying what it means, and never a list of order texts.  An attack is made one way only: gathered on the map, its odds
shown before its Declare button works.  Positions are reached by the API (orders by id or notation), outcomes read
from the game's state through the API, not from the page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import api_of, end_or_first, running_server, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

# the Duel's seed whose 3:1 attack on Tommy is an R2 (its retreat distance chosen by the winner: 0, 1 or 2 hexes)
R2_SEED = 1

NO_SELECT = "document.querySelectorAll('#orders select').length"


def _order(link: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(api_of(link) + "/order", json={**body, "version": state_of(link)["version"]}, timeout=60)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def _verbs(state: dict[str, Any]) -> set[str]:
    return {a["verb"] for a in (state.get("legal") or {}).get("actions", [])}


def _drive(links: list[str], until: Callable[[dict[str, Any]], bool], steps: int = 200) -> str:
    """The game played on by the API (the action that ends the step, else the first listed) until the side whose
    decision it is has a state ``until`` accepts: that side's link."""
    for _ in range(steps):
        for link in links:
            s = state_of(link)
            if not s["my_turn"]:
                continue
            if until(s):
                return link
            _order(link, end_or_first(s))
            break
    raise AssertionError("the position was not reached")


def _answered(page: Page, version: int) -> None:
    page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version > {version} && !tobrukGame.inFlight")


def _click_unit(page: Page, uid: str) -> None:
    """A click on a unit's counter; in a stack of one's own counters, the chooser's button for it."""
    page.click(f'#units [data-unit="{uid}"]')
    pick = page.locator(f'#chooser button[data-choose="{uid}"]')
    if pick.count():
        pick.click()


def _orders_in_words(page: Page) -> list[tuple[str, str]]:
    """The panel's buttons: (notation, text); none is a list of order texts."""
    assert page.evaluate(NO_SELECT) == 0
    pairs = page.evaluate("[...document.querySelectorAll('#orders button')].map(b => [b.dataset.order || '', b.textContent])")
    return [(str(a), str(b)) for a, b in pairs]


def _duel_to_battle(link: str) -> None:
    """The Duel (hotseat) to the Axis attack on Tommy, resolved (Pz moved next to it)."""
    while "movement" not in state_of(link)["view"]["decision"]["prompt"]:
        _order(link, {"order": "end-phase"})
    for text in ("move Pz B4", "end-phase", "attack B5 with Pz", "resolve 1"):
        _order(link, {"order": text})


def test_no_retreat_distance_and_a_retreat_hex_by_hex_with_its_route(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: R2_SEED) as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        _duel_to_battle(link)
        board = httpx.get(f"{url}/api/map/duel.json", timeout=60).json()
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector('[data-unit="Tommy"]')
        assert "no-retreat" in _verbs(state_of(link))  # (the defender is asked: GG-XIV.B.5)
        # the defender's No Retreat! orders: Tommy is ringed (an order to give), the answer a button in words
        assert page.locator('#units [data-unit="Tommy"][data-has-order]').count() == 1
        assert page.locator('#counter-key li[data-key="has-order"]').count() == 1
        _click_unit(page, "Tommy")
        hold = page.locator('#chooser button[data-offer="hold"]')
        assert hold.inner_text().startswith("Give Tommy No Retreat! orders")
        page.click("#chooser button[data-offer-cancel]")
        none = dict(_orders_in_words(page))["no-retreat"]
        assert none == "Give no No Retreat! orders: your units retreat if the result says so, as far as the attacker names (GG-XIV.D.1)"
        v = page.evaluate("tobrukGame.state.version")
        page.click('#orders button[data-order="no-retreat"]')
        _answered(page, v)
        # the winner's retreat distance: buttons saying how far the losing unit goes (R2: 0, 1 or 2 hexes, GG-XIV.D.1)
        page.wait_for_selector('#orders button[data-order="retreat-distance 2"]')
        words = dict(_orders_in_words(page))
        assert words["retreat-distance 2"] == "2 hexes: Tommy retreats 2 hexes (the Allied player picks the route)"
        assert words["retreat-distance 1"] == "1 hex: Tommy retreats 1 hex (the Allied player picks the route)"
        assert words["retreat-distance 0"] == "0 hexes: Tommy stays where it is"
        v = page.evaluate("tobrukGame.state.version")
        page.click('#orders button[data-order="retreat-distance 2"]')
        _answered(page, v)
        # the retreat: no button names it; Tommy clicked on the map, its next hexes lit, the route drawn as it grows
        assert not [o for o, _ in _orders_in_words(page) if o.startswith("retreat ")]
        routes = [a["route"] for a in state_of(link)["legal"]["actions"] if a["verb"] == "retreat"]
        assert routes and all(r[0] == "B5" and len(r) == 3 for r in routes)  # GG: 2 hexes from B5
        _click_unit(page, "Tommy")
        page.wait_for_selector("[data-step]")
        first = set(page.evaluate("[...document.querySelectorAll('[data-step]')].map(p => p.dataset.step)"))
        assert first == {r[1] for r in routes}
        step = sorted(first)[0]
        page.click(f'[data-step="{step}"]')
        page.wait_for_selector(f'polyline[data-trail="B5-{step}"]', state="attached")
        points = page.get_attribute("polyline[data-trail]", "points") or ""
        centres = [",".join(str(c) for c in board["hexes"][h]) for h in ("B5", step)]
        assert points.split() == centres  # the route so far passes through the hexes chosen, in order
        second = set(page.evaluate("[...document.querySelectorAll('[data-step]')].map(p => p.dataset.step)"))
        assert second == {r[2] for r in routes if r[1] == step}
        # Tommy clicked again is put down, and says so (not that it has nothing to do); picked up, its route starts again
        _click_unit(page, "Tommy")
        assert page.inner_text("#hint") == "Tommy put down: click it again to pick it up."
        assert page.locator("[data-step]").count() == 0
        _click_unit(page, "Tommy")
        page.wait_for_selector("[data-step]")
        assert set(page.evaluate("[...document.querySelectorAll('[data-step]')].map(p => p.dataset.step)")) == first
        page.click(f'[data-step="{step}"]')
        page.wait_for_selector(f'polyline[data-trail="B5-{step}"]', state="attached")
        shot(page, "retreat-hex-by-hex")
        last = sorted(second)[0]
        v = page.evaluate("tobrukGame.state.version")
        page.click(f'[data-step="{last}"]')  # the route is whole: sent
        _answered(page, v)
        tommy = next(u for u in state_of(link)["view"]["units"] if u.get("id") == "Tommy")
        assert tommy["hex"] == last
        assert f"B5-{step}-{last}" in "\n".join(state_of(link)["view"]["log"])


def test_an_attack_is_made_only_by_gathering_with_its_odds_shown_first(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: R2_SEED) as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        while "movement" not in state_of(link)["view"]["decision"]["prompt"]:
            _order(link, {"order": "end-phase"})
        for text in ("move Pz B4", "end-phase"):
            _order(link, {"order": text})
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_function("document.getElementById('prompt').textContent.includes('attack')")
        # the panel offers no target or attacker of an attack: only what has no place on the map
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        assert not [o for o, _ in _orders_in_words(page) if o.split()[0] in ("target", "add", "declare")]
        _click_unit(page, "Pz")
        assert page.is_disabled("#declare")  # gathered, but no odds shown yet: nothing to declare
        page.click("#declare", force=True)  # (a press on it does nothing)
        page.wait_for_timeout(300)
        assert page.evaluate("tobrukGame.pendingAttack") is None and "resolve" not in _verbs(state_of(link))
        page.click('[data-target="B5"]')
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('3:1')")
        assert page.is_enabled("#declare")
        v = page.evaluate("tobrukGame.state.version")
        page.click("#declare")
        _answered(page, v)
        assert "resolve" in _verbs(state_of(link))  # declared
        # a declaration begun elsewhere (typed, part by part) is offered only to be dropped: no part of it as a button
        other = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        while "movement" not in state_of(other)["view"]["decision"]["prompt"]:
            _order(other, {"order": "end-phase"})
        for text in ("move Pz B4", "end-phase", "target B5"):
            _order(other, {"order": text})
        page.goto(other)
        page.wait_for_selector("#orders button")
        assert [o for o, _ in _orders_in_words(page)] == ["abandon"]
        assert page.locator("#units [data-has-order]").count() == 0  # (its attacker is not offered to be added)


def test_gazala_interception_is_offered_naming_the_air_units_and_the_chances(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        body = {"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}
        links = httpx.post(f"{url}/api/games", json=body, timeout=60).json()["links"]
        axis = _drive([links["allied"], links["axis"]], lambda s: "airstrike" in _verbs(s))
        strike = next(a for a in state_of(axis)["legal"]["actions"] if a["verb"] == "airstrike")
        _order(axis, {"id": strike["id"]})  # the Luftwaffe's strike: the Allies may send the Desert Air Force up (GG-X.B.3)
        allied = links["allied"]
        assert "intercept" in _verbs(state_of(allied))
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(allied)
        page.wait_for_selector('#orders button[data-order="intercept"]')
        words = dict(_orders_in_words(page))
        # the German air unit's column of the air table (GG-X.C): AA on 1-2, Int on 4-5, EAX on 6
        assert words["intercept"].startswith(
            f"Intercept with DAF against Luftwaffe over {strike['hex']}: 1 in 6 Luftwaffe knocked out (EAX), 1 in 3 Luftwaffe "
            "turned back (Int), 1 in 3 DAF knocked out (AA) and the mission goes on"
        )
        assert words["no-intercept"] == f"Do not intercept: Luftwaffe attacks your units in {strike['hex']} one by one (GG-X.B.1)"
        shot(page, "interception-offered")
        v = page.evaluate("tobrukGame.state.version")
        page.click('#orders button[data-order="intercept"]')
        _answered(page, v)
        assert any(line.startswith("DAF intercepts Luftwaffe: die ") for line in state_of(allied)["view"]["log"])


def test_gazala_air_strike_and_activation_by_clicking_the_map(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        body = {"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}
        links = httpx.post(f"{url}/api/games", json=body, timeout=60).json()["links"]
        pair = [links["allied"], links["axis"]]
        # the Axis air strike (GG-X): the hexes it may hit lit on the map; a click asks to confirm, in words
        axis = _drive(pair, lambda s: "airstrike" in _verbs(s))
        assert axis == links["axis"]
        hexes = {a["hex"] for a in state_of(axis)["legal"]["actions"] if a["verb"] == "airstrike"}
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(axis)
        page.wait_for_selector("[data-aim]")
        assert set(page.evaluate("[...document.querySelectorAll('[data-aim]')].map(p => p.dataset.aim)")) == hexes
        assert not [o for o, _ in _orders_in_words(page) if o.startswith("airstrike")]
        aim = sorted(hexes)[0]
        page.click(f'[data-aim="{aim}"]')
        confirm = page.locator('#chooser button[data-offer="airstrike"]')
        words = confirm.inner_text()  # the air unit that flies, and what it risks (GG-X.B.1, X.C)
        assert words.startswith(f"Air strike with Luftwaffe on {aim}: it attacks the undisrupted enemy units there one by one")
        assert "an AA result knocks Luftwaffe out for the rest of this game-turn and the next (GG-X.C)" in words
        shot(page, "air-strike-confirm")
        v = page.evaluate("tobrukGame.state.version")
        confirm.click()
        _answered(page, v)
        assert any(f"attacks {aim}" in line for line in state_of(axis)["view"]["log"])
        # the Allied activation (GG-V.A): the units that may be activated ringed; a click, then the button in words
        allied = _drive(pair, lambda s: "activate" in _verbs(s))
        assert allied == links["allied"]
        may = sorted({a["unit"] for a in state_of(allied)["legal"]["actions"] if a["verb"] == "activate"})
        page.goto(allied)
        page.wait_for_selector("#units [data-has-order]")
        ringed = page.evaluate("[...document.querySelectorAll('#units [data-has-order]')].map(g => g.dataset.unit)")
        assert sorted(ringed) == may
        assert page.locator('#counter-key li[data-key="has-order"]').count() == 1
        assert not [o for o, _ in _orders_in_words(page) if o.startswith("activate")]
        uid = may[0]
        _click_unit(page, uid)
        button = page.locator('#chooser button[data-offer="activate"]')
        assert button.inner_text() == f"Activate {uid} (it may move and attack this turn)"
        shot(page, "activation-offered")
        v = page.evaluate("tobrukGame.state.version")
        button.click()
        _answered(page, v)
        after = state_of(allied)
        assert uid not in {a.get("unit") for a in after["legal"]["actions"] if a["verb"] == "activate"}
        assert any(a.get("unit") == uid and a["verb"] == "move" for a in after["legal"]["actions"])  # now it may move


@pytest.mark.parametrize("scenario", ["gazala-gallop", "first-alamein", "operation-compass"])
def test_no_list_of_order_texts_at_any_decision_of_a_game(tmp_path: Path, browser: Browser, scenario: str) -> None:
    # a game against the computer played on by the page's own send: at each decision of the seat, the panel has no
    # <select> and each of its buttons says in words what it does (never its notation)
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        body = {"scenario": scenario, "mode": "computer", "human_side": "allied", "computer": "random", "seed": 7}
        link = httpx.post(f"{url}/api/games", json=body, timeout=60).json()["links"]["allied"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        seen: set[str] = set()
        for _ in range(20):
            page.wait_for_function("tobrukGame.state && (tobrukGame.state.my_turn || tobrukGame.state.view.over)", timeout=60000)
            s = page.evaluate("tobrukGame.state")
            if s["view"]["over"]:
                break
            for order, text in _orders_in_words(page):
                assert text and text != order, (order, text)
            seen |= _verbs(s)
            chosen = end_or_first(s)
            v = s["version"]
            page.evaluate(f"tobrukGame.send({{id: {chosen['id']}}})")
            _answered(page, v)
        assert len(seen) >= 2
