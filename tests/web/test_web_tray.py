"""Setting up from the trays and selecting on the map, by clicks in real headless Chromium (Debian's package).

A side's counters off the map wait in its tray beside the map, drawn as the map draws them; picking one lights the
hexes where it may go (its legal actions, by id) and a click on one places it there.  With a unit selected, a click
on another of one's own counters selects that one (a stack opens a chooser) instead of moving onto it; Esc puts the
selection down; the side panel follows a unit that has moved.  What lands where is read from the game's state through
the API, not from the page.  And the Axis's tray, like the rest of what the Axis's seat is sent during the hidden
Allied set-up, is the same byte for byte wherever the Allied counters stand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import api_of, running_server, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

TRAY_NOW = '#trays .tray[data-side="{side}"] [data-tray="now"]'


def _hex_of(link: str, uid: str) -> str | None:
    unit = next(u for u in state_of(link)["view"]["units"] if u.get("id") == uid)
    return None if unit.get("hex") is None else str(unit["hex"])


def _lit(page: Page) -> set[str]:
    return set(page.evaluate("[...document.querySelectorAll('.reach')].map(p => p.dataset.reach)"))


def _tray(page: Page, side: str) -> list[str]:
    found = page.evaluate(f"[...document.querySelectorAll('{TRAY_NOW.format(side=side)} [data-tray-unit]')].map(s => s.dataset.trayUnit)")
    return [str(uid) for uid in found]


def _version(page: Page) -> int:
    return int(page.evaluate("tobrukGame.state.version"))


def _answered(page: Page, version: int) -> None:
    page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version === {version} && !tobrukGame.inFlight")


def test_the_hidden_allied_set_up_is_placed_from_the_tray_by_clicks(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        links = httpx.post(
            f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}, timeout=60
        ).json()["links"]
        allied = links["allied"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        orders: list[str] = []
        page.on("request", lambda r: orders.append(r.post_data or "") if r.url.endswith("/order") else None)
        page.goto(allied)
        page.wait_for_selector(f"{TRAY_NOW.format(side='allied')} [data-tray-unit]")
        # the tray holds exactly the counters the legal actions place (the set-up's 16, dummies too), drawn as counters
        legal = state_of(allied)["legal"]["actions"]
        placeable = sorted({a["unit"] for a in legal if a["gesture"] == "unit-hex"})
        assert sorted(_tray(page, "allied")) == placeable and len(placeable) == 16
        assert page.locator('#trays [data-tray-unit="1SA"] .counter use').count() == 1  # the kind's symbol, as on the map
        assert "tray" in page.inner_text("#hint")  # the hint says where the counters to place are
        shot(page, "tray-hidden-set-up")
        # the counters kept off the map (those to come later, the air) folded away; unfolded, their names fit them
        page.click('#trays .tray[data-side="allied"] details[data-tray="later"] summary')
        page.wait_for_selector('#trays .tray[data-side="allied"] details[data-tray="later"][open] .counter')
        overflow = page.evaluate("""[...document.querySelectorAll('#trays .counter')].filter(g => {
            const t = g.querySelector('text').getBoundingClientRect(), r = g.querySelector('rect').getBoundingClientRect();
            return t.left < r.left - 0.5 || t.right > r.right + 0.5;
        }).length""")
        assert overflow == 0

        placed: dict[str, str] = {}
        for uid in ("1SA", "Dummy1", "2SA"):
            version = _version(page)
            page.click(f'#trays [data-tray-unit="{uid}"]')
            lit = _lit(page)
            # the hexes lit are those of the unit's listed placements, each by its id
            assert lit == {a["hex"] for a in legal if a.get("unit") == uid} and lit
            ids = page.evaluate("[...document.querySelectorAll('.reach')].map(p => Number(p.dataset.id))")
            assert set(ids) <= {a["id"] for a in legal if a.get("unit") == uid}
            target = sorted(lit - set(placed.values()))[len(placed)]
            page.click(f'[data-reach="{target}"]')
            _answered(page, version + 1)
            placed[uid] = target
            assert _hex_of(allied, uid) == target  # the game's state: where it was clicked
            assert uid not in _tray(page, "allied")
            assert page.inner_text("#stack h3") == target  # the side panel shows where it now stands
            legal = state_of(allied)["legal"]["actions"]
        assert all(json.loads(body).keys() == {"id", "version"} for body in orders) and len(orders) == 3  # ids, never text

        # a hex that is not lit does nothing: no order, nothing placed, the unit still picked
        page.click('#trays [data-tray-unit="50Div"]')
        lit = _lit(page)
        units = {u["hex"] for u in state_of(allied)["view"]["units"] if u.get("hex")}
        board = httpx.get(f"{url}/api/map/gazala-gallop.json", timeout=60).json()
        dark = next(h for h in board["passable"] if h not in lit and h not in units)
        version = _version(page)
        page.click(f'#hexes polygon[data-hex="{dark}"]', force=True)
        assert page.evaluate("tobrukGame.selected") == "50Div" and _lit(page) == lit
        # Esc puts the picked counter down: nothing lit, nothing picked, still no order sent
        page.keyboard.press("Escape")
        page.wait_for_function("tobrukGame.selected === null")
        assert _lit(page) == set() and page.locator("#trays .counter.selected").count() == 0
        assert len(orders) == 3 and _version(page) == version and _hex_of(allied, "50Div") is None

        # a second counter onto a hex that holds one of the side's own: the click on that counter is no placement;
        # the disc on its corner places it there
        page.click('#trays [data-tray-unit="50Div"]')
        uid, onto = next((u, h) for u, h in placed.items() if h in _lit(page))
        page.click(f'#units .counter[data-unit="{uid}"]')
        assert len(orders) == 3 and _version(page) == version and _hex_of(allied, "50Div") is None
        page.click('#trays [data-tray-unit="50Div"]')
        page.click(f'[data-reach="{onto}"]')
        _answered(page, version + 1)
        assert _hex_of(allied, "50Div") == onto

        # a third picked from the keyboard; a click on the stack opens its chooser: its counters, and the placement onto it
        third = next(a for a in state_of(allied)["legal"]["actions"] if a.get("hex") == onto and a["gesture"] == "unit-hex")
        page.focus(f'#trays [data-tray-unit="{third["unit"]}"]')
        page.keyboard.press("Enter")
        assert page.evaluate("tobrukGame.selected") == third["unit"]
        assert page.evaluate("document.activeElement.dataset.trayUnit") == third["unit"]  # the focus stays on it
        page.locator(f'#units .counter[data-hex="{onto}"]').last.click()
        page.wait_for_selector("#chooser:not([hidden])")
        listed = page.evaluate("[...document.querySelectorAll('#chooser button[data-choose]')].map(b => b.dataset.choose)")
        assert sorted(listed) == sorted([uid, "50Div"])
        assert page.get_attribute("#chooser button[data-choose-move]", "data-choose-move") == str(third["id"])
        page.click("#chooser button[data-choose-move]")
        _answered(page, version + 2)
        assert _hex_of(allied, third["unit"]) == onto and page.is_hidden("#chooser")


def test_selecting_on_the_map_chooser_escape_and_the_panel_after_a_move(tmp_path: Path, browser: Browser) -> None:
    """The Axis's historical set-up (GG-V.A: its counters stand on the map and may be set up again in its zone)."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote"}, timeout=60).json()["links"]["axis"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#units .counter[data-unit]")
        hexes = {u["id"]: u["hex"] for u in state_of(link)["view"]["units"] if u.get("id") and u.get("hex")}
        legal = state_of(link)["legal"]["actions"]
        movable = {a["unit"] for a in legal if a["gesture"] == "unit-hex"}
        stacks: dict[str, list[str]] = {}
        for uid, h in hexes.items():
            stacks.setdefault(h, []).append(uid)
        version = _version(page)

        # select one unit, then click another of the Axis's counters standing alone in a hex: that one is selected
        first, other = sorted(u for u in movable if len(stacks[hexes[u]]) == 1)[:2]
        page.click(f'#units .counter[data-unit="{first}"]')
        assert page.evaluate("tobrukGame.selected") == first and _lit(page)
        page.click(f'#units .counter[data-unit="{other}"]')
        assert page.evaluate("tobrukGame.selected") == other
        assert _lit(page) == {a["hex"] for a in legal if a.get("unit") == other}
        assert _version(page) == version and _hex_of(link, first) == hexes[first] and _hex_of(link, other) == hexes[other]

        # a stack of the Axis's own opens a chooser listing its counters; choosing one selects it
        stack_hex, stack = next((h, us) for h, us in stacks.items() if len(us) > 1)
        page.locator(f'#units .counter[data-hex="{stack_hex}"]').last.click()
        page.wait_for_selector("#chooser:not([hidden])")
        chosen = page.evaluate("[...document.querySelectorAll('#chooser button[data-choose]')].map(b => b.dataset.choose)")
        assert sorted(chosen) == sorted(stack)
        shot(page, "tray-stack-chooser")
        pick = next(u for u in stack if u in movable)
        page.click(f'#chooser button[data-choose="{pick}"]')
        assert page.is_hidden("#chooser") and page.evaluate("tobrukGame.selected") == pick
        assert _version(page) == version

        # Esc: the selection is put down and its hexes go out
        page.keyboard.press("Escape")
        page.wait_for_function("tobrukGame.selected === null")
        assert _lit(page) == set()

        # a move: the side panel then shows the hex the unit stands in now, not the one it left
        page.click(f'#units .counter[data-unit="{first}"]')
        assert page.inner_text("#stack h3") == hexes[first]
        occupied = set(hexes.values())
        target = sorted(h for h in _lit(page) if h not in occupied)[0]
        page.click(f'[data-reach="{target}"]')
        _answered(page, version + 1)
        assert _hex_of(link, first) == target
        page.wait_for_selector(f'#units .counter[data-unit="{first}"][data-hex="{target}"]')
        assert page.inner_text("#stack h3") == target
        assert first in page.inner_text("#stack")


def test_first_alamein_arrivals_are_brought_on_from_the_tray(tmp_path: Path, browser: Browser) -> None:
    """1st Alamein's Axis reinforcements, once the Allies have set up: they wait off the map in the Axis's tray."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        links = httpx.post(f"{url}/api/games", json={"scenario": "first-alamein", "mode": "remote"}, timeout=60).json()["links"]
        version = state_of(links["allied"])["version"]
        r = httpx.post(api_of(links["allied"]) + "/order", json={"order": "end-phase", "version": version}, timeout=60)
        assert r.status_code == 200, r.text
        axis = links["axis"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(axis)
        page.wait_for_selector(f"{TRAY_NOW.format(side='axis')} [data-tray-unit]")
        legal = state_of(axis)["legal"]["actions"]
        arriving = sorted({a["unit"] for a in legal if a["gesture"] == "unit-hex"})
        assert sorted(_tray(page, "axis")) == arriving and arriving
        uid = arriving[0]
        page.click(f'#trays [data-tray-unit="{uid}"]')
        lit = _lit(page)
        assert lit == {a["hex"] for a in legal if a.get("unit") == uid}
        target = sorted(lit)[0]
        version = _version(page)
        page.click(f'[data-reach="{target}"]')
        _answered(page, version + 1)
        assert _hex_of(axis, uid) == target and uid not in _tray(page, "axis")


def test_operation_compass_has_no_tray_its_counters_all_stand_on_the_map(tmp_path: Path, browser: Browser) -> None:
    """Operation Compass's set-up is printed on the map: nothing off it, so no tray shows."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "operation-compass", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#units .counter")
        assert page.is_hidden("#trays") and page.locator("#trays *").count() == 0


# --- fog: the Axis's tray during the hidden Allied set-up ----------------------------------------------------------
FIRST = ("place Dummy1 C5", "place Dummy2 E6", "place 201Gds E6")
SECOND = ("place 201Gds C5", "place Dummy1 E6", "place Dummy2 E6")


def _axis_sees(url: str, browser: Browser, placements: tuple[str, ...]) -> list[tuple[str, str]]:
    """A remote nonhistorical game whose Allies place ``placements`` (through the API) and end their set-up: at each
    version, the Axis's page's trays (as drawn) and the state the Axis's seat is sent, its links and number set aside."""
    asked = {"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}
    made = httpx.post(f"{url}/api/games", json=asked, timeout=60).json()
    links, number = made["links"], made["game"]
    tokens = [link.rsplit("/", 1)[1] for link in links.values()]
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto(links["axis"])
    seen: list[tuple[str, str]] = []

    def note(version: int) -> None:
        page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version === {version}")
        body = httpx.get(api_of(links["axis"]) + "/state", timeout=60).text
        for t in tokens:
            body = body.replace(t, "<token>")
        seen.append((page.inner_html("#trays"), body.replace(number, "<game>")))

    note(0)
    for n, order in enumerate([*placements, "end-phase"], start=1):
        version = state_of(links["allied"])["version"]
        r = httpx.post(api_of(links["allied"]) + "/order", json={"order": order, "version": version}, timeout=60)
        assert r.status_code == 200, r.text
        note(n)
    page.close()
    return seen


def test_the_axis_tray_is_the_same_wherever_the_allied_counters_stand(tmp_path: Path, browser: Browser) -> None:
    """Two games of one seed that differ only in which face-down Allied counter stands where: the trays the Axis's page
    draws and the state its seat is sent are the same byte for byte, during the hidden set-up and after it."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: 7) as url:
        one = _axis_sees(url, browser, FIRST)
        other = _axis_sees(url, browser, SECOND)
    assert len(one) == len(other) == len(FIRST) + 2
    for n, (a, b) in enumerate(zip(one, other, strict=True)):
        assert a[0] == b[0], f"version {n}: the Axis's trays tell the set-ups apart"
        assert a[1] == b[1], f"version {n}: the Axis's state tells the set-ups apart"
    # the Axis's tray holds none of the Allies' face-down set-up: only what its view sends (their later arrivals)
    assert "Dummy" not in one[0][0] and "201Gds" not in one[-1][0]
