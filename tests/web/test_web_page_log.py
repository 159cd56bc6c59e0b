"""The game page's log and its smaller defects, in a real headless Chromium driven by clicks (issue 34).

The log keeps the whole history, keeps its newest line in view (unless the player scrolled up to read), explains
each result code with the meaning the server sends for the codes of the system's charts, and says what the other
side did while the player waited, from the side's own log.  The smaller items: the remote page says it is your
turn on your turn; no layer shades a hex no unit can enter; an empty layer says so; the result can be closed to look
at the final board and opened again; the zoom survives a reload; a move made by a double click, or with the pointer
passing over the lit hexes as it is made, is one order and no request answered 4xx.  The lobby keeps the last
choices, says what each computer player does and what the seed is, and lists the games this browser has opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.web.test_web_browser import pytestmark, shot  # noqa: F401  (the skip without chromium)
from tests.web.web_server import end_or_first, running_server
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.results import MEANINGS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def api(link: str) -> str:
    return link.replace("/g/", "/api/g/")


def state(link: str) -> dict[str, Any]:
    return dict(httpx.get(api(link) + "/state", timeout=60).json())


def go_on(link: str) -> dict[str, Any]:
    """One order of the seat whose decision it is (the step's end if listed, else the first listed)."""
    s = state(link)
    r = httpx.post(api(link) + "/order", json={**end_or_first(s), "version": s["version"]}, timeout=120)
    assert r.status_code == 200, r.text
    return dict(r.json())


def at_bottom(page: Page) -> bool:
    return bool(
        page.evaluate("() => { const l = document.getElementById('log'); return l.scrollHeight - l.scrollTop - l.clientHeight < 4; }")
    )


def failures(page: Page) -> list[str]:
    """The requests of ``page`` answered 4xx or 5xx, as they come."""
    failed: list[str] = []
    page.on(
        "response",
        lambda response: failed.append(f"{response.status} {response.request.method} {response.url}") if response.status >= 400 else None,
    )
    return failed


def order_by_click(page: Page) -> None:
    """Orders by clicks (the button that ends the step if there is one, else the first order button) until the log
    has grown."""
    lines = page.locator("#log li").count()
    for _ in range(20):
        version = page.evaluate("() => tobrukGame.state.version")
        end = page.locator('#orders button[data-order="end-phase"]')
        (end if end.count() else page.locator("#orders button[data-id]").first).click()
        page.wait_for_function("v => tobrukGame.state.version !== v && !tobrukGame.inFlight", arg=version)
        if page.locator("#log li").count() > lines:
            return
    raise AssertionError("twenty orders and not a line more in the log")


def test_the_log_is_whole_follows_the_newest_line_explains_codes_and_says_what_happened_while_you_waited(
    tmp_path: Path,
    browser: Browser,
) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        body = {"scenario": "gazala-gallop", "mode": "computer", "human_side": "axis", "computer": "random", "seed": 7}
        link = httpx.post(f"{url}/api/games", json=body, timeout=120).json()["links"]["axis"]
        s = state(link)
        while len(s["view"]["log"]) <= 90 or s["view"]["turn"] < 3:  # the computer's turns make the log long
            s = go_on(link)
        assert s["my_turn"] and s["waited"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#log li")
        # the whole history (the page kept the last 80 lines), its newest line in view
        log = s["view"]["log"]
        assert page.locator("#log li").count() == len(log) > 80
        assert at_bottom(page) and page.evaluate(
            "() => document.getElementById('log').scrollHeight > document.getElementById('log').clientHeight"
        )
        # the newest line also stands under the prompt, on screen, whatever the panel holds below (a newcomer asked
        # a retreat's distance could not see the result that caused it, the log out of sight below)
        assert page.inner_text("#latest") == "Last: " + page.inner_text("#log li:last-child")
        bottom = page.eval_on_selector("#latest li", "l => [l.getBoundingClientRect().bottom, window.innerHeight]")
        assert 0 < bottom[0] <= bottom[1], bottom
        # and the log comes before the counters' key
        assert page.eval_on_selector("#log", "l => l.compareDocumentPosition(document.getElementById('counter-key')) & 4")
        # each result code of the system's charts is explained where it stands (the meanings come with the board)
        codes = httpx.get(f"{url}/api/map/gazala-gallop.json", timeout=60).json()["codes"]
        assert codes["DE"] == MEANINGS["DE"] and "EAX" in codes and "R1 (compulsory)" in codes
        explained = page.eval_on_selector_all("#log abbr.code", "as => as.map(a => [a.dataset.code, a.title])")
        assert explained and all(title == f"{code}: {codes[code]}" for code, title in explained)
        assert {code for code, _ in explained} <= set(codes)
        # what the computer's Allies did while the Axis waited: lines of the Axis's own log, the Allied turn among them
        assert page.is_visible("#waited")
        waited = page.eval_on_selector_all("#waited-lines li", "ls => ls.map(l => l.textContent)")
        assert len(waited) == len(s["waited"])
        assert log[-len(waited) :] == s["waited"]  # (nothing since: the Axis has not acted yet)
        assert any(line.startswith("Allied: ") for line in s["waited"])
        shot(page, "log-whole-explained")
        # scrolled up to read, the log stays where the player put it when the next order's lines come in
        page.evaluate("() => { document.getElementById('log').scrollTop = 0; }")
        order_by_click(page)
        assert page.evaluate("() => document.getElementById('log').scrollTop") == 0
        # back at the bottom, it follows the newest line again
        page.evaluate("() => { const l = document.getElementById('log'); l.scrollTop = l.scrollHeight; }")
        order_by_click(page)
        assert at_bottom(page)


def test_the_remote_page_says_it_is_your_turn_on_your_turn(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        links = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "remote"}, timeout=60).json()["links"]
        allied = browser.new_page(viewport={"width": 1300, "height": 850})
        allied.goto(links["allied"])
        allied.wait_for_selector('[data-unit="Tommy"]')
        assert allied.inner_text("#hint") == "Waiting for the Axis player."
        while state(links["axis"])["view"]["decision"]["side"] == "axis":  # the Axis player's turn, by his link
            go_on(links["axis"])
        allied.wait_for_function("document.getElementById('prompt').textContent.startsWith('Allied')")
        allied.wait_for_selector("#orders button")
        hint = allied.inner_text("#hint")
        assert "Waiting" not in hint and hint.startswith("Your turn")
        shot(allied, "remote-your-turn")


def test_no_layer_shades_a_hex_no_unit_can_enter_and_an_empty_layer_says_so(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "operation-compass", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        sea = {h.label for h in load_scenario("operation-compass").map.hexes if not load_scenario("operation-compass").map.is_land(h)}
        layers = state(link)["view"]["overlays"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#units .counter")
        shaded_at_sea = [layer for layer in layers if layer["kind"] == "hexes" and sea & set(layer["hexes"])]
        assert shaded_at_sea  # the system's layer lists sea hexes (closed to supply): the page leaves them unshaded
        for layer in layers:
            if layer["kind"] == "hexes" and layer["hexes"]:
                page.check(f'input[data-layer="{layer["key"]}"]')
        drawn = set(page.eval_on_selector_all("#overlay polygon.layer", "ps => ps.map(p => p.dataset.hex)"))
        assert drawn and not drawn & sea
        shot(page, "layers-on-land")
    with running_server(tmp_path / "games2.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        empty = [layer for layer in state(link)["view"]["overlays"] if not layer["hexes"] and not layer["lines"]]
        assert empty  # the supply lines, before the first supply phase
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#units .counter")
        for layer in empty:
            page.check(f'input[data-layer="{layer["key"]}"]')
            label = page.inner_text(f'label:has(input[data-layer="{layer["key"]}"])')
            assert label.strip() == f"{layer['title']} (nothing to show yet)"


def test_the_result_closes_to_show_the_final_board_and_opens_again(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        for _ in range(60):
            if not state(link)["legal"]["actions"]:
                break
            go_on(link)
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector("#victory:not([hidden])")
        page.click("#victory-close")
        assert page.is_hidden("#victory")
        assert page.is_visible('[data-unit="Pz"]')
        page.click('[data-unit="Pz"]')  # the board answers clicks again
        assert "Pz" in page.inner_text("#stack")
        shot(page, "result-closed")
        page.click("#show-result")
        assert page.is_visible("#victory") and page.inner_text("#victory-text")


def test_the_zoom_survives_a_reload(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector('[data-unit="Pz"]')
        page.click("#zoom-in")
        page.click("#zoom-in")
        assert page.get_attribute("#map-holder", "data-zoom") == "1.5625"
        drawn = "document.querySelector('#map-holder > svg').style.transform"
        assert page.evaluate(drawn) == "scale(1.5625)"
        page.reload()
        page.wait_for_selector('[data-unit="Pz"]')
        assert page.get_attribute("#map-holder", "data-zoom") == "1.5625" and page.evaluate(drawn) == "scale(1.5625)"


def test_the_whole_map_fits_the_window_at_a_click(tmp_path: Path, browser: Browser) -> None:
    """Gazala's map is larger than the window at the default zoom; the fit button shows all of it, no scrolling."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        page.goto(link)
        page.wait_for_selector('[data-unit="15Pz"]')
        overflows = (
            "(() => { const b = document.getElementById('board'); "
            "return b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1; })()"
        )
        assert page.evaluate(overflows)
        page.click("#zoom-fit")
        assert not page.evaluate(overflows)
        board, holder = (page.locator(s).bounding_box() for s in ("#board", "#map-holder"))
        assert board and holder and holder["width"] <= board["width"] + 1 and holder["height"] <= board["height"] + 1


def to_movement(page: Page) -> None:
    while "movement" not in page.inner_text("#prompt"):
        page.click('button[data-order="end-phase"]')
        page.wait_for_timeout(300)


def test_a_double_click_makes_one_move_and_a_passing_pointer_asks_for_no_stale_route(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        failed = failures(page)
        orders: list[str] = []
        page.on("request", lambda request: orders.append(request.url) if request.url.endswith("/order") else None)
        page.goto(link)
        page.wait_for_selector('[data-unit="Pz"]')
        to_movement(page)
        orders.clear()
        version = state(link)["version"]
        # a double click on a lit hex: one order
        page.click('[data-unit="Pz"]')
        page.dblclick('[data-reach="B4"]')
        page.wait_for_function("document.querySelector('[data-unit=\"Pz\"]').dataset.hex === 'B4'")
        page.wait_for_load_state("networkidle")
        assert len(orders) == 1 and state(link)["version"] == version + 1
        assert failed == []
        # a click on a lit hex, the pointer passing at once over other lit hexes: no route is asked for a stale move
        page.click("#undo")
        page.wait_for_function("document.querySelector('[data-unit=\"Pz\"]').dataset.hex === 'B3'")
        page.click('[data-unit="Pz"]')
        others = [
            page.locator(f'[data-reach="{h}"]').bounding_box() for h in ("C3", "C4", "A4") if page.locator(f'[data-reach="{h}"]').count()
        ]
        assert others
        page.click('[data-reach="B4"]')
        for box in others:
            assert box is not None
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=2)
        page.wait_for_function("document.querySelector('[data-unit=\"Pz\"]').dataset.hex === 'B4'")
        page.wait_for_load_state("networkidle")
        assert failed == []


def test_the_lobby_remembers_the_last_choice_explains_its_choices_and_lists_your_games(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        context = browser.new_context(viewport={"width": 1200, "height": 800})
        page = context.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#scenario option", state="attached")
        first = page.input_value("#scenario")
        chosen = next(o for o in page.eval_on_selector_all("#scenario option", "os => os.map(o => o.value)") if o != first)
        # the computer players and the seed, in plain words
        page.wait_for_function("document.getElementById('computer-about').textContent.length > 0")
        about = httpx.get(f"{url}/api/players/about", timeout=60).json()
        assert list(about) == page.eval_on_selector_all("#computer option", "os => os.map(o => o.value)")
        for name, words in about.items():
            page.select_option("#computer", name)
            assert words and page.inner_text("#computer-about") == words
        page.select_option("#computer", "passive")
        assert "dice" in page.inner_text("#seed-about")
        assert page.is_hidden("#my-games")
        # a game against the computer in another scenario than the first
        page.select_option("#scenario", chosen)
        page.click("#start")
        page.wait_for_url("**/g/*")
        page.wait_for_selector("#units .counter")
        link = page.url
        title = page.evaluate("() => tobrukGame.state.view.title")
        # back in the lobby: the last choices, and the game among this browser's games
        page.goto(url + "/")
        page.wait_for_selector("#scenario option", state="attached")
        page.wait_for_selector("#computer option", state="attached")
        assert page.input_value("#scenario") == chosen and page.input_value("#computer") == "passive"
        assert page.is_visible("#my-games")
        games = page.eval_on_selector_all("#my-games-list a.my-game", "as => as.map(a => [a.href, a.textContent])")
        assert games == [[link, title]]
        shot(page, "lobby-remembers")
        page.click("#my-games-list a.my-game")
        page.wait_for_url(link)
