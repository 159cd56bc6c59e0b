"""The server and the page play a game system they were never told about: the toy system of
``tests/toy_system.py`` (its own terrain, status word, two-step sequence, turn notes, victory and option),
served from a user's scenario file, over real HTTP and in real headless Chromium (Debian's package)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.toy_system import MARSH_COLOUR, TOY_SCENARIO
from tests.web.test_web_browser import shot
from tests.web.web_server import running_server
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.render.palette import FILL, SIDE_COLOUR

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# the toy scenario's map: 4 rows of 6, marsh in B2, C3 and C4, sea in D6; the Scouts (Axis) in B3, the
# Guards (Allied) in B6; the flag in B4.  Rows B, D ... sit half a hex east, so B3 touches A3, A4, B2, B4,
# C3 and C4, all land (TOY-1: a unit marches one hex to land no enemy holds).
SCOUT_REACH = {"A3", "A4", "B2", "B4", "C3", "C4"}
# an infantry unit may also go two hexes by trucks: in rows A and C two columns either side of B3's neighbours,
# in row B two columns either side, in row D (shifted like B) the three below
SCOUT_TRUCKS = {"A2", "A5", "B1", "B5", "C2", "C5", "D2", "D3", "D4"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "toy.toml").write_text(TOY_SCENARIO, encoding="utf-8")
    with running_server(tmp_path / "games.sqlite", folder) as url:
        yield url


def api(link: str) -> str:
    return link.replace("/g/", "/api/g/")


def state(link: str) -> dict[str, Any]:
    r = httpx.get(api(link) + "/state", timeout=60)
    assert r.status_code == 200, r.text
    return dict(r.json())


def play(link: str, order: str) -> dict[str, Any]:
    r = httpx.post(api(link) + "/order", json={"order": order, "version": state(link)["version"]}, timeout=60)
    assert r.status_code == 200, r.text
    return dict(r.json())


# --- over HTTP -------------------------------------------------------------------------------------------
def test_the_scenario_listing_gives_each_option_with_its_rule_and_text(server: str) -> None:
    listed = {s["name"]: s for s in httpx.get(f"{server}/api/scenarios", timeout=60).json()}
    assert listed["toy"]["options"] == [{"name": "night", "clause": "TOY-3", "text": "The skirmish is fought by night"}]
    option = load_scenario("gazala-gallop").options[0]
    assert listed["gazala-gallop"]["options"] == [{"name": option.name, "clause": option.clause, "text": option.text}]
    assert listed["duel"]["options"] == []


def test_the_map_and_board_of_a_system_the_server_does_not_know(server: str) -> None:
    svg = httpx.get(f"{server}/api/map/toy.svg", timeout=60).text
    drawn = dict(re.findall(r'<polygon data-hex="([A-Z]+\d+)" points="[^"]*" fill="([^"]*)">', svg))
    assert {h for h, c in drawn.items() if c == MARSH_COLOUR} == {"B2", "C3", "C4"} and drawn["D6"] == FILL["sea"]
    assert re.findall(r'<g data-terrain="([a-z-]+)">', svg) == ["clear", "marsh", "sea"]
    board = httpx.get(f"{server}/api/map/toy.json", timeout=60).json()
    assert (board["rows"], board["columns"], len(board["hexes"])) == (4, 6, 24)
    assert set(board["neighbours"]["B3"]) == SCOUT_REACH
    assert {"terrain": "marsh", "name": "salt marsh", "colour": MARSH_COLOUR} in board["legend"]
    assert board["symbols"]["infantry"] == "dot" and board["symbols"]["armour"] == "oval"  # its own, then the family's
    assert board["alarms"] == ["disrupted"] and board["marks"] == {"out_of_supply": "*"}  # how the family draws these
    assert board["corner"] == ""  # (its counters show no live number beside the symbol)
    footsore = next(s for s in board["statuses"] if s["word"] == "footsore")
    assert {k: footsore[k] for k in ("bit", "when", "sides", "faded")} == {"bit": "moved", "when": True, "sides": [], "faded": False}
    marks = [(s["mark"], s["colour"]) for s in board["statuses"]]
    assert len(set(marks)) == len(marks)  # each status its own mark on a counter
    assert httpx.get(f"{server}/api/map/nowhere.json", timeout=60).status_code == 404


def test_a_toy_game_is_played_to_its_end_with_notes_and_the_summary(server: str) -> None:
    r = httpx.post(f"{server}/api/games", json={"scenario": "toy", "mode": "hotseat", "options": ["night"]}, timeout=60)
    assert r.status_code == 200, r.text
    link = r.json()["links"]["both"]
    s = state(link)
    assert s["view"]["system"] == "toy-skirmish" and s["view"]["notes"] == {"light": "night"}
    assert s["view"]["summary"] is None and s["view"]["decision"]["side"] == "axis"
    listed = {(a["verb"], a["gesture"], a["group"], a.get("unit"), a.get("hex")) for a in s["legal"]["actions"]}
    assert listed == (
        {("move", "unit-hex", "move", "Scout", h) for h in SCOUT_REACH}
        | {("move", "unit-hex", "move by-trucks", "Scout", h) for h in SCOUT_TRUCKS}
        | {("end-phase", "press", "end-phase", None, None)}
    )
    play(link, "move Scout B4")
    assert next(u for u in state(link)["view"]["units"] if u["id"] == "Scout")["moved"]
    for _ in range(3):
        play(link, "end-phase")
    s = play(link, "end-phase")
    # TOY-2: the Axis alone holds the flag hex at the end
    assert s["view"]["over"] and s["view"]["summary"] == {
        "winner": "axis",
        "level": "flag victory",
        "lines": ["Axis holds the flag in B4."],
    }
    frames = httpx.get(api(link).replace("/api/g/", "/api/replay/"), params={"side": "both"}, timeout=60).json()["frames"]
    assert [f["notes"] for f in frames] == [{"light": "night"}] * 3
    assert frames[0]["summary"] is None and frames[-1]["summary"]["winner"] == "axis"


def test_a_gazala_views_notes_are_its_weather(server: str) -> None:
    link = httpx.post(f"{server}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
    seen = state(link)["view"]
    assert seen["notes"] == {"weather": seen["weather"]} and seen["summary"] is None


# --- in the browser --------------------------------------------------------------------------------------
def attribute(page: Page, selector: str, name: str) -> str:
    return str(page.get_attribute(selector, name))


def test_the_page_draws_and_plays_the_toy_system(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    # the lobby offers the toy scenario's option with its text and rule
    page.goto(server + "/")
    page.wait_for_selector("#scenario option", state="attached")
    page.select_option("#scenario", "toy")
    assert page.inner_text("#options").strip().endswith("The skirmish is fought by night (TOY-3)")
    page.check('[data-option="night"]')
    page.select_option("#mode", "hotseat")
    page.click("#start")
    page.wait_for_url("**/g/*")
    page.wait_for_selector('[data-unit="Scout"]')
    assert "light: night" in page.inner_text("#status") and page.inner_text("#prompt").startswith("Axis")

    # the map in the system's colours, with the legend of the terrain it has
    fills = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#hexes polygon')].map(p => [p.dataset.hex, p.getAttribute('fill')]))"
    )
    assert {h for h, c in fills.items() if c == MARSH_COLOUR} == {"B2", "C3", "C4"} and fills["A1"] == FILL["clear"]
    legend = page.evaluate(
        "[...document.querySelectorAll('#legend [data-terrain]')]"
        ".map(g => [g.dataset.terrain, g.querySelector('rect').getAttribute('fill'), g.textContent])"
    )
    assert legend == [["clear", FILL["clear"], "clear"], ["marsh", MARSH_COLOUR, "salt marsh"], ["sea", FILL["sea"], "sea"]]
    # the counters in the sides' colours with the system's symbols: its infantry a dot, its armour the family's oval
    assert attribute(page, '[data-unit="Scout"] use', "href") == "#shape-dot"
    assert attribute(page, '[data-unit="Guard"] use', "href") == "#shape-oval"
    assert attribute(page, '[data-unit="Scout"] rect', "fill") == SIDE_COLOUR[Side.AXIS]
    assert attribute(page, '[data-unit="Guard"] rect', "fill") == SIDE_COLOUR[Side.ALLIED]
    assert page.locator('[data-unit="Scout"]').first.bounding_box() is not None

    # a march by clicks: the unit, then one of the highlighted hexes (exactly those TOY-1 allows)
    page.click('[data-unit="Scout"]')
    assert set(page.evaluate("[...document.querySelectorAll('.reach')].map(p => p.dataset.reach)")) == SCOUT_REACH
    page.click('[data-reach="B4"]')
    page.wait_for_selector('[data-unit="Scout"][data-hex="B4"]')
    # it is footsore now (the system's word for a unit that has moved), on the counter and in the stack
    assert attribute(page, '[data-unit="Scout"]', "data-status") == "footsore"
    assert page.get_attribute('[data-unit="Guard"]', "data-status") is None
    page.click('[data-unit="Scout"]')
    assert "footsore" in page.inner_text("#stack")
    # undo it; the other form of move (by trucks, a heading of its own) is a choice on the map, not a list in the panel
    page.click("#undo")
    page.wait_for_selector('[data-unit="Scout"][data-hex="B3"]')
    assert page.locator("#orders button[data-pick], #orders select").count() == 0
    page.click('[data-unit="Scout"]')
    page.click('#hint button[data-form="move by-trucks"]')
    assert set(page.evaluate("[...document.querySelectorAll('.reach')].map(p => p.dataset.reach)")) == SCOUT_TRUCKS
    page.click('[data-reach="D3"]')
    page.wait_for_selector('[data-unit="Scout"][data-hex="D3"]')
    assert "Scout marches B3-D3 by trucks." in page.inner_text("#log")
    # undo that too, and march one hex to the flag
    page.click("#undo")
    page.wait_for_selector('[data-unit="Scout"][data-hex="B3"]')
    page.click('[data-unit="Scout"]')
    assert page.get_attribute('#hint button[data-form="move"]', "class") == "chosen"  # the plain move first
    page.click('[data-reach="B4"]')
    page.wait_for_selector('[data-unit="Scout"][data-hex="B4"]')

    # the log's hex labels and unit ids are links: a hex flashes where the map draws it
    page.wait_for_selector('#log a[data-hex="B4"]')
    assert page.locator('#log a[data-hex="B3"]').count() == 1 and page.locator('#log a[data-unit-link="Scout"]').count() == 1
    page.click('#log a[data-hex="B4"]')
    page.wait_for_selector('.flash[data-flash="B4"]', state="attached")
    flash = page.locator('.flash[data-flash="B4"]').bounding_box()
    hex_box = page.locator('#hexes polygon[data-hex="B4"]').bounding_box()
    assert flash is not None and hex_box is not None
    # the same centre (the hex's box has its stroke around it)
    assert abs(flash["x"] + flash["width"] / 2 - hex_box["x"] - hex_box["width"] / 2) < 0.5
    assert abs(flash["y"] + flash["height"] / 2 - hex_box["y"] - hex_box["height"] / 2) < 0.5
    shot(page, "toy-marched")

    # the Allied march, the second turn, and the result the system gives
    page.click('button[data-order="end-phase"]')
    page.wait_for_function("document.getElementById('prompt').textContent.startsWith('Allied')")
    page.click('[data-unit="Guard"]')
    page.click('[data-reach="B5"]')
    page.wait_for_selector('[data-unit="Guard"][data-hex="B5"]')
    page.click('button[data-order="end-phase"]')
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Turn 2 of 2, the last')")
    assert page.get_attribute('[data-unit="Scout"]', "data-status") is None  # a new turn: rested
    page.click('button[data-order="end-phase"]')
    page.wait_for_function("document.getElementById('prompt').textContent.startsWith('Allied')")
    page.click('button[data-order="end-phase"]')
    page.wait_for_selector("#victory:not([hidden])")
    assert page.inner_text("#victory-text") == "Axis holds the flag in B4."
    shot(page, "toy-over")
