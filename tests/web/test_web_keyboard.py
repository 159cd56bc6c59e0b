"""Playing by the keyboard alone, and what the page says to a screen reader, in real headless Chromium.

After the page has loaded nothing is clicked: Tab reaches the map, the arrow keys move its hex cursor, Enter acts on
the cursor's hex as a click there would (select, choose from a stack, move, gather an attacker, pick the target), N
goes to the next unit with something to do, Tab reaches the decision panel's buttons and the attack panel's Declare.
What each key did is read from the game's state through the API.  The cursor's hex is told in a live region; a counter
is an image named by what the seat may know of it (a face-down one only by its side); its tooltip shows when the
cursor is on it, as when the pointer is."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.web.test_web_browser import pytestmark, shot  # noqa: F401  (the skip without chromium)
from tests.web.web_server import api_of, end_or_first, running_server, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

FACE_DOWN = "a face-down Allied counter"
# two hidden Allied set-ups that differ only in which counter stands where
ONE_SET_UP = ("place Dummy1 C5", "place Dummy2 E6", "place 201Gds E6")
ANOTHER_SET_UP = ("place 201Gds C5", "place Dummy1 E6", "place Dummy2 E6")
NAMED = "gs => gs.map(g => [g.getAttribute('role'), g.getAttribute('aria-label')])"


def _hexes_of(link: str) -> dict[str, str]:
    return {u["id"]: u["hex"] for u in state_of(link)["view"]["units"] if u.get("id") and u.get("hex")}


def _row_col(label: str) -> tuple[int, int]:
    m = re.fullmatch(r"([A-Z]+)(\d+)", label)
    assert m, label
    row = 0
    for ch in m[1]:
        row = row * 26 + ord(ch) - 64
    return row - 1, int(m[2])


def _keys_to(start: str, goal: str, hexes: set[str]) -> list[str]:
    """The arrow keys from hex ``start`` to ``goal`` (rows first, then columns, or the other way), every hex on the way on
    the map: ↑↓ keep a hex's column number, ←→ its row."""
    (r0, c0), (r1, c1) = _row_col(start), _row_col(goal)
    by_label = {_row_col(h): h for h in hexes}
    vertical = ["ArrowDown" if r1 > r0 else "ArrowUp"] * abs(r1 - r0)
    horizontal = ["ArrowRight" if c1 > c0 else "ArrowLeft"] * abs(c1 - c0)
    for keys in (vertical + horizontal, horizontal + vertical):
        r, c, ok = r0, c0, True
        for k in keys:
            r += {"ArrowDown": 1, "ArrowUp": -1}.get(k, 0)
            c += {"ArrowRight": 1, "ArrowLeft": -1}.get(k, 0)
            ok = ok and (r, c) in by_label
        if ok:
            return keys
    raise AssertionError(f"no straight way from {start} to {goal}")


def _cursor(page: Page) -> str:
    return str(page.evaluate("document.getElementById('board').dataset.cursor"))


def _said(page: Page) -> str:
    return page.inner_text("#cursor-said")


def _go(page: Page, goal: str, hexes: set[str]) -> None:
    for key in _keys_to(_cursor(page), goal, hexes):
        page.keyboard.press(key)
    assert _cursor(page) == goal and _said(page).startswith(goal)


def _tab_until(page: Page, test: str, limit: int = 150) -> None:
    """Tab until the focused element passes ``test`` (a JavaScript expression of ``el``)."""
    for _ in range(limit):
        if page.evaluate(f"(el => Boolean({test}))(document.activeElement)"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {test}")


def _version(page: Page) -> int:
    return int(page.evaluate("tobrukGame.state.version"))


def _answered(page: Page, version: int) -> None:
    """The page shows a position after ``version`` (an order may take the game several versions on)."""
    page.wait_for_function(f"tobrukGame.state && tobrukGame.state.version > {version} && !tobrukGame.inFlight")


def _press_order(page: Page, order: str) -> None:
    """The decision panel's button for ``order`` reached with O and Tab, and pressed with Enter."""
    version = _version(page)
    page.keyboard.press("o")
    _tab_until(page, f"el.dataset.order === {order!r}")
    page.keyboard.press("Enter")
    _answered(page, version)
    page.wait_for_function("document.activeElement.id === 'board'")  # the focus back on the map, the button redrawn


def _select(page: Page, uid: str, hexes: set[str]) -> None:
    """``uid`` selected from the keyboard: N until the cursor is on its hex, Enter (a stack: its chooser, Tab to it, Enter)."""
    where = _hexes_of(page.url)[uid]
    for _ in range(40):
        if _cursor(page) == where:
            break
        page.keyboard.press("n")
    if _cursor(page) != where:  # (a unit N does not reach: the arrows)
        _go(page, where, hexes)
    page.keyboard.press("Enter")
    if page.is_visible("#chooser"):
        _tab_until(page, f"el.dataset.choose === {uid!r}")
        page.keyboard.press("Enter")
        page.wait_for_function("document.activeElement.id === 'board'")


def _attack_moves(state: dict[str, Any], board: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """An Allied hex and two Axis units' moves, each to an empty hex beside it."""
    units = state["view"]["units"]
    allied = {u["hex"] for u in units if u["side"] == "allied" and u.get("hex")}
    held = {u["hex"] for u in units if u.get("hex")}
    moves = [a for a in state["legal"]["actions"] if a["verb"] == "move" and a["hex"] not in held]
    for target in sorted(allied):
        beside = [a for a in moves if target in board["neighbours"][a["hex"]]]
        for a in beside:
            other = next((b for b in beside if b["unit"] != a["unit"] and b["hex"] != a["hex"]), None)
            if other:
                return target, [a, other]
    raise AssertionError("no two moves beside one Allied hex")


def test_a_gazala_turn_by_the_keyboard_alone(tmp_path: Path, browser: Browser) -> None:
    """The Axis's first turn: set-up and air phase ended, two units moved beside an Allied hex, the phase ended, both
    gathered, the target picked (its odds shown), the attack declared and resolved: the decision passes to the Allies."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: 7) as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote"}, timeout=60).json()["links"]["axis"]
        board = httpx.get(f"{url}/api/map/gazala-gallop.json", timeout=60).json()
        hexes = set(board["hexes"])
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        orders: list[str] = []
        page.on("request", lambda r: orders.append(r.post_data or "") if r.url.endswith("/order") else None)
        page.goto(link)
        page.wait_for_selector("#units .counter[data-unit]")

        # Tab reaches the map: its cursor starts on a unit with something to do and says what stands there
        _tab_until(page, "el.id === 'board'")
        start = _cursor(page)
        here = [uid for uid, h in _hexes_of(link).items() if h == start]
        assert here and all(uid in _said(page) for uid in here)
        terrain = (page.text_content(f'#hexes polygon[data-hex="{start}"] title') or "").split(" ", 1)[1]
        assert _said(page).startswith(f"{start}, {terrain}. ")  # the hex, its terrain, then what stands there
        assert page.get_attribute("#cursor-said", "aria-live") == "polite"
        # its words are for a screen reader (the tooltip shows them to the eye): they take no room above the prompt
        said = page.locator("#cursor-said").bounding_box()
        assert said is not None and said["height"] <= 1 and said["width"] <= 1
        # the cursor on a counter shows its tooltip, as the pointer does (the top counter of the hex)
        page.wait_for_selector("#counter-tip:not([hidden])")
        assert any(uid in page.inner_text("#counter-tip") for uid in here)
        # the keys listed in the page
        page.keyboard.press("?")
        assert page.is_visible("#keys-list") and "Enter" in page.inner_text("#keys-list")
        page.keyboard.press("m")
        assert page.evaluate("document.activeElement.id") == "board"
        shot(page, "keyboard-cursor")

        _press_order(page, "end-phase")  # the set-up
        _press_order(page, "end-phase")  # the air phase
        state = state_of(link)
        assert state["view"]["decision"]["phase"] == "axis-movement"

        # two moves: the unit by N (its stack's chooser), the lit hex by the arrows, Enter
        target, moves = _attack_moves(state, board)
        for move in moves:
            version = _version(page)
            _select(page, move["unit"], hexes)
            assert page.evaluate("tobrukGame.selected") == move["unit"]
            _go(page, move["hex"], hexes)
            assert "lit: Enter sends move" in _said(page)
            page.wait_for_selector(".route", state="attached")  # the route shown, as when the pointer rests on the hex
            page.keyboard.press("Enter")
            _answered(page, version)
            assert _hexes_of(link)[move["unit"]] == move["hex"]
        _press_order(page, "end-phase")
        assert state_of(link)["view"]["decision"]["phase"] == "axis-attacks"

        # the attack: both units gathered at the cursor, the target picked, its odds shown, Declare reached by Tab
        attackers = [m["unit"] for m in moves]
        for uid in attackers:
            _go(page, _hexes_of(link)[uid], hexes)
            page.keyboard.press("Enter")
        assert page.evaluate("tobrukGame.attackers") == attackers
        _go(page, target, hexes)
        assert "a target" in _said(page)
        page.keyboard.press("Enter")
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('odds')")
        odds = page.inner_text("#attack-info")
        assert re.search(r"odds \d+:\d+", odds) and "%" in odds
        shot(page, "keyboard-odds")
        version = _version(page)
        _tab_until(page, "el.id === 'declare'")
        page.keyboard.press("Enter")
        _answered(page, version)
        assert "declares attack 1" in " ".join(state_of(link)["view"]["log"])
        # the new log line told in the polite live region
        assert "declares attack 1" in page.inner_text("#log-news")
        page.wait_for_function("document.activeElement.id === 'board'")
        _press_order(page, "resolve 1")
        after = state_of(link)
        assert after["view"]["decision"]["side"] == "allied" and not after["my_turn"]
        assert all('"order"' not in body for body in orders) and len(orders) == 7  # ids and gathered fields, never text

        # every button has a name a screen reader can say; the map is named and says how it is played
        snapshot = page.locator("body").aria_snapshot()
        assert 'application "the map: arrow keys move the hex cursor' in snapshot
        # the map's own drawing (hex labels, place names, the legend) is left to the cursor's words: its counters are read
        assert "A1 A2" not in snapshot and 'img "15Pz' in snapshot
        assert not re.search(r"- button\s*$|- button:", snapshot, re.MULTILINE), snapshot


def _face_down_page(url: str, browser: Browser, placements: tuple[str, ...]) -> tuple[Page, str]:
    made = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}, timeout=60)
    links = made.json()["links"]
    for order in [*placements, "end-phase"]:
        version = state_of(links["allied"])["version"]
        r = httpx.post(api_of(links["allied"]) + "/order", json={"order": order, "version": version}, timeout=60)
        assert r.status_code == 200, r.text
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto(links["axis"])
    page.wait_for_selector('#units .counter[data-side="allied"]')
    return page, links["allied"]


def test_a_face_down_counter_is_named_the_same_whichever_unit_it_is(tmp_path: Path, browser: Browser) -> None:
    """The hidden Allied set-up seen by the Axis: each face-down counter an image named only by its side, the cursor
    telling the same words of a hex with a dummy as of one with a brigade; the Axis's own counters by their values."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: 7) as url:
        hexes = set(httpx.get(f"{url}/api/map/gazala-gallop.json", timeout=60).json()["hexes"])
        told: list[tuple[str, str]] = []
        for placements in (ONE_SET_UP, ANOTHER_SET_UP):
            page, _ = _face_down_page(url, browser, placements)
            labels = page.eval_on_selector_all('#units .counter[data-side="allied"]', NAMED)
            assert labels and all(label == ["img", FACE_DOWN] for label in labels)
            assert f'img "{FACE_DOWN}"' in page.locator("#units").aria_snapshot()
            pz = page.get_attribute('#units .counter[data-unit="15Pz"]', "aria-label") or ""
            assert pz.startswith("15Pz") and "Axis" in pz
            _tab_until(page, "el.id === 'board'")
            said = []
            for h in ("C5", "E6"):
                _go(page, h, hexes)
                said.append(_said(page))
                page.wait_for_selector("#counter-tip:not([hidden])")
                assert "face down" in page.inner_text("#counter-tip")
            assert "Dummy" not in " ".join(said) and "201Gds" not in " ".join(said) and FACE_DOWN in said[0]
            told.append((said[0], said[1]))
            page.close()
        assert told[0] == told[1]


def test_a_tray_counter_focused_shows_its_tooltip(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        asked = {"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}
        made = httpx.post(f"{url}/api/games", json=asked, timeout=60)
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(made.json()["links"]["allied"])
        page.wait_for_selector("#trays [data-tray-unit]")
        _tab_until(page, "el.dataset.trayUnit")
        uid = str(page.evaluate("document.activeElement.dataset.trayUnit"))
        page.wait_for_selector("#counter-tip:not([hidden])")
        assert page.inner_text("#counter-tip").startswith(uid)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.trayUnit") != uid
        assert page.inner_text("#counter-tip").startswith(str(page.evaluate("document.activeElement.dataset.trayUnit") or ""))


def test_a_long_press_on_a_counter_shows_its_tooltip_a_tap_selects(tmp_path: Path, browser: Browser) -> None:
    """On a touch screen: a tap selects a counter as a click does (no tooltip), a long press shows its tooltip and
    selects nothing."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote"}, timeout=60).json()["links"]["axis"]
        context = browser.new_context(viewport={"width": 1300, "height": 850}, has_touch=True)
        page = context.new_page()
        page.goto(link)
        hexes = _hexes_of(link)
        movable = {a["unit"] for a in state_of(link)["legal"]["actions"] if a["gesture"] == "unit-hex"}
        uid = sorted(u for u in movable if u in hexes and list(hexes.values()).count(hexes[u]) == 1)[0]
        page.wait_for_selector(f'#units .counter[data-unit="{uid}"]')
        box = page.locator(f'#units .counter[data-unit="{uid}"]').bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.touchscreen.tap(x, y)
        page.wait_for_function(f"tobrukGame.selected === {uid!r}")
        assert page.is_hidden("#counter-tip")
        page.keyboard.press("Escape")
        page.wait_for_function("tobrukGame.selected === null")
        cdp = context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        page.wait_for_timeout(800)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_selector("#counter-tip:not([hidden])")
        assert page.inner_text("#counter-tip").startswith(uid)
        page.wait_for_timeout(300)
        assert page.evaluate("tobrukGame.selected") is None


def test_the_mouse_player_sees_no_cursor(tmp_path: Path, browser: Browser) -> None:
    """A click on the map focuses it, and a click on a button that goes as the panel is redrawn loses the focus: neither
    shows the keyboard's cursor or takes the focus to the map; a key pressed then shows the cursor on the hex clicked."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote"}, timeout=60).json()["links"]["axis"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector('#units .counter[data-unit="Sabratha"]')
        version = _version(page)
        page.click('button[data-order="end-phase"]')
        _answered(page, version)
        page.wait_for_timeout(200)
        assert page.evaluate("document.activeElement.id") != "board" and page.locator("#cursor-layer *").count() == 0
        page.click('#units .counter[data-unit="Sabratha"]')
        assert page.evaluate("document.activeElement.id") == "board" and page.locator("#cursor-layer *").count() == 0
        page.keyboard.press("ArrowRight")
        assert page.locator("#cursor-layer .hex-cursor").count() == 1
        sabratha = _hexes_of(link)["Sabratha"]
        row, col = _row_col(sabratha)
        assert _row_col(_cursor(page)) == (row, col + 1)  # one hex east of the hex clicked


def test_the_result_dialog_takes_the_focus_and_esc_closes_it(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        for _ in range(60):
            s = state_of(link)
            if not s["legal"]["actions"]:
                break
            httpx.post(api_of(link) + "/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#victory:not([hidden])")
        page.wait_for_function("document.activeElement.id === 'victory-close'")
        assert page.get_attribute("#victory", "role") == "dialog"
        for _ in range(6):  # Tab stays in the dialog
            page.keyboard.press("Tab")
            assert page.evaluate("document.getElementById('victory').contains(document.activeElement)")
        page.keyboard.press("Escape")
        assert page.is_hidden("#victory") and page.evaluate("document.activeElement.id") == "show-result"


def _smoke(url: str, browser: Browser, scenario: str, seat: str) -> None:
    """A remote game's ``seat``, its phases ended through the API until one of its units may move: that unit moved."""
    link = httpx.post(f"{url}/api/games", json={"scenario": scenario, "mode": "remote"}, timeout=60).json()["links"][seat]
    for _ in range(6):
        s = state_of(link)
        if any(a["gesture"] == "unit-hex" and a["unit"] in _hexes_of(link) for a in s["legal"]["actions"]):
            break
        httpx.post(api_of(link) + "/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
    hexes = set(httpx.get(f"{url}/api/map/{scenario}.json", timeout=60).json()["hexes"])
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto(link)
    page.wait_for_selector("#units .counter[data-unit]")
    _tab_until(page, "el.id === 'board'")
    state = state_of(link)
    held = {u["hex"] for u in state["view"]["units"] if u.get("hex")}
    on_map = _hexes_of(link)
    move = next(a for a in state["legal"]["actions"] if a["gesture"] == "unit-hex" and a["hex"] not in held and a["unit"] in on_map)
    version = _version(page)
    _select(page, move["unit"], hexes)
    assert page.evaluate("tobrukGame.selected") == move["unit"]
    _go(page, move["hex"], hexes)
    page.keyboard.press("Enter")
    _answered(page, version)
    assert _hexes_of(link)[move["unit"]] == move["hex"]
    page.close()


def test_first_alamein_and_compass_a_unit_moved_by_the_keyboard(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        _smoke(url, browser, "first-alamein", "allied")
        _smoke(url, browser, "operation-compass", "allied")


def test_the_skip_link_is_the_first_stop_and_the_map_comes_before_the_panel_and_the_log(tmp_path: Path, browser: Browser) -> None:
    """Tab from the page's load: the "Skip to the map" link first (off the screen until then), Enter on it focuses the
    map with its cursor shown; Tab from the map: the decision panel's orders, then on to the log, none of the header's
    controls on the way."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote"}, timeout=60).json()["links"]["axis"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#orders button")
        hidden = page.locator("#skip-link").bounding_box()
        assert hidden and hidden["y"] + hidden["height"] <= 0
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "skip-link"
        shown = page.locator("#skip-link").bounding_box()
        assert shown and shown["y"] >= 0 and page.inner_text("#skip-link") == "Skip to the map"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "board"
        assert page.locator("#cursor-layer .hex-cursor").count() == 1 and _said(page).startswith(_cursor(page))
        where = (
            "(el => el.closest('header') ? 'header' : el.closest('#decision') ? 'decision' : el.id === 'log' ? 'log' : "
            "el.closest('aside') ? 'panel' : 'elsewhere')(document.activeElement)"
        )
        stops = []
        for _ in range(60):
            page.keyboard.press("Tab")
            stops.append(str(page.evaluate(where)))
            if stops[-1] == "log":
                break
        assert stops[0] == "decision" and stops[-1] == "log", stops
        assert "header" not in stops and "elsewhere" not in stops, stops
