"""End-to-end in a real headless Chromium (Debian's package, driven by Playwright).

Screenshots are kept in ``test-artifacts/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.web_server import end_or_first, running_server
from tobruk.engine.dice import Dice
from tobruk.loading.scenario import load_scenario
from tobruk.players import player_names

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)")


def retreat_seed() -> int:
    """A seed whose first die at 3:1 is an R1 or R2 (2 to 5)."""
    return next(s for s in range(100) if Dice(s).value(0, 6) in (2, 3, 4, 5))


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def pz_hex(page: Page) -> str:
    return str(page.get_attribute('[data-unit="Pz"]', "data-hex"))


def test_hotseat_move_attack_retreat_undo_reload(tmp_path: Path, browser: Browser) -> None:
    # a hotseat game may not choose its seed: the server is given the one it draws for this test
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=retreat_seed) as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60)
        link = r.json()["links"]["both"]
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        page.goto(link)
        page.wait_for_selector('[data-unit="Pz"]')
        while "movement" not in page.inner_text("#prompt"):
            page.click('button[data-order="end-phase"]')
            page.wait_for_timeout(300)
        # move by clicking: the unit, then a highlighted hex
        page.click('[data-unit="Pz"]')
        assert page.locator(".reach").count() > 0
        page.hover('[data-reach="B4"]')
        page.wait_for_selector(".route", state="attached")  # the route, asked for when the pointer rests on the hex
        assert page.locator(".route").count() == 1
        page.click('[data-reach="B4"]')
        page.wait_for_function("document.querySelector('[data-unit=\"Pz\"]').dataset.hex === 'B4'")
        # undo it, and move again
        page.click("#undo")
        page.wait_for_function("document.querySelector('[data-unit=\"Pz\"]').dataset.hex === 'B3'")
        page.click('[data-unit="Pz"]')
        page.click('[data-reach="B4"]')
        page.wait_for_function("document.querySelector('[data-unit=\"Pz\"]').dataset.hex === 'B4'")
        shot(page, "hotseat-moved")
        page.click('button[data-order="end-phase"]')
        page.wait_for_function("document.getElementById('prompt').textContent.includes('attacks')")
        # declare an attack by picking the attacker and the defending hex: the odds show first
        page.click('[data-unit="Pz"]')
        page.click('[data-target="B5"]')
        page.wait_for_function("document.getElementById('attack-info').textContent.includes('3:1')")
        info = page.inner_text("#attack-info")
        assert "%" in info and "attack 6 against defence 2" in info
        shot(page, "hotseat-odds")
        page.click("#declare")
        page.click('button[data-order="resolve 1"]')
        page.wait_for_selector('button[data-order="no-retreat"]')  # the defender's answer (hotseat)
        page.click('button[data-order="no-retreat"]')
        page.wait_for_selector('button[data-order^="retreat-distance"]')
        page.click('button[data-order="retreat-distance 1"]')
        # the loser's retreat, on the map: the unit, then its route's hexes, lit one by one
        page.wait_for_function("!tobrukGame.inFlight && tobrukGame.state.legal.actions.some(a => a.verb === 'retreat')")
        page.click('[data-unit="Tommy"]')
        page.wait_for_selector("[data-step]")
        page.locator("[data-step]").first.click()
        page.wait_for_function("!document.getElementById('prompt').textContent.includes('retreat')")
        tommy = page.get_attribute('[data-unit="Tommy"]', "data-hex")
        assert tommy != "B5"
        log = page.inner_text("#log")
        assert "die" in log and "3:1" in log
        shot(page, "hotseat-after-battle")
        # reload: the game is as it was
        page.reload()
        page.wait_for_selector('[data-unit="Pz"]')
        assert pz_hex(page) == "B4" and page.get_attribute('[data-unit="Tommy"]', "data-hex") == tommy
        assert "die" in page.inner_text("#log")


def test_remote_game_two_browsers_each_sees_its_own_side(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}, timeout=60)
        links = r.json()["links"]
        axis = browser.new_context().new_page()
        allied = browser.new_context().new_page()
        axis.goto(links["axis"])
        allied.goto(links["allied"])
        axis.wait_for_selector("#units .counter")
        allied.wait_for_selector("#units .counter")
        # the Allied player sets up first; the Axis player waits and sees only face-down counters
        assert "Waiting" in axis.inner_text("#hint")
        # (the Allied counters wait in a pool off the map until placed: the Allied player is offered them)
        assert axis.locator('[data-unit="1SA"]').count() == 0
        assert allied.locator('#trays [data-tray="now"] [data-tray-unit="1SA"]').count() == 1
        assert "1SA" not in axis.content()
        assert "1st South African" not in axis.content()
        shot(axis, "remote-axis")
        shot(allied, "remote-allied")
        # the Allied player places the dummies and ends his set-up; the Axis page updates by itself
        for dummy, hex_ in (("Dummy1", "C5"), ("Dummy2", "E6")):
            resp = httpx.post(
                links["allied"].replace("/g/", "/api/g/") + "/order",
                timeout=60,
                json={
                    "order": f"place {dummy} {hex_}",
                    "version": httpx.get(links["allied"].replace("/g/", "/api/g/") + "/state", timeout=60).json()["version"],
                },
            )
            assert resp.status_code == 200
        allied.reload()
        allied.wait_for_selector('button[data-order="end-phase"]')
        allied.click('button[data-order="end-phase"]')
        axis.wait_for_function("document.getElementById('prompt').textContent.startsWith('Axis')", timeout=15000)
        assert axis.locator('button[data-order="end-phase"]').count() == 1
        assert "Dummy" not in axis.content()


def test_replay_page_steps_through_turns(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60)
        tok = r.json()["links"]["both"].rsplit("/", 1)[1]
        for _ in range(60):  # play the short game out with end-phase and the one compulsory attack
            s = httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json()
            if not s["legal"]["actions"]:
                break
            httpx.post(f"{url}/api/g/{tok}/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(f"{url}/replay/{tok}")
        page.wait_for_function("document.getElementById('status').textContent.includes('start')")
        page.click("#next")
        page.wait_for_function("document.getElementById('status').textContent.includes('end of turn 1')")
        assert page.locator('[data-unit="Pz"]').count() == 1
        assert "weather: " in page.inner_text("#status")
        shot(page, "replay")
        # the last frame and the game's own page show the result in the system's lines
        lines = httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json()["view"]["summary"]["lines"]
        page.click("#last")
        page.wait_for_function("document.getElementById('result').textContent.length > 0")
        assert page.inner_text("#result") == "\n".join(lines)
        page.goto(f"{url}/g/{tok}")
        page.wait_for_selector("#victory:not([hidden])")
        assert page.inner_text("#victory-text") == "\n".join(lines)
        # the result's lines wrap inside the dialog (none runs past its edge), and the status line says it is over
        assert page.eval_on_selector("#victory-text", "e => e.scrollWidth <= e.clientWidth")
        # (with the result's headline: the winner's name and the level, as the summary gives them)
        summary = httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json()["view"]["summary"]
        board = httpx.get(f"{url}/api/map/duel.json", timeout=60).json()
        who = board["sides"][summary["winner"]]["name"] if summary["winner"] else "Nobody"
        assert f"the game is over ({who}: {summary['level']})" in page.inner_text("#status")


def test_the_lobby_starts_a_game_against_the_computer(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(url + "/")
        page.wait_for_selector("#scenario option", state="attached")
        # the scenario's one option, as a checkbox with its text and rule (left unchecked: the historical set-up)
        page.select_option("#scenario", "gazala-gallop")
        option = load_scenario("gazala-gallop").options[0]
        assert page.inner_text(f'label:has([data-option="{option.name}"])').strip() == f"{option.text} ({option.clause})"
        page.select_option("#mode", "computer")
        page.wait_for_selector("#computer option", state="attached")  # the server's computer players, greedy first
        assert page.eval_on_selector_all("#computer option", "os => os.map(o => o.textContent)") == player_names()
        assert page.input_value("#computer") == "greedy"
        page.click("#start")
        page.wait_for_url("**/g/*")
        page.wait_for_selector('[data-unit="15Pz"]')
        assert page.inner_text("#prompt").startswith("Axis")
        # GG-V.A.2: the Allied units start inactive, drawn faded; the Axis units are never inactive
        assert page.get_attribute('[data-unit="1SA"]', "data-status") == "inactive"
        assert page.get_attribute('[data-unit="1SA"]', "opacity") == "0.75"
        assert page.get_attribute('[data-unit="15Pz"]', "data-status") is None
        assert re.search(r"weather: \w", page.inner_text("#status"))
        shot(page, "lobby-game")


def test_no_page_asks_for_anything_the_server_has_not(tmp_path: Path, browser: Browser) -> None:
    """The lobby, a game and the replay of a finished one load with no request answered 4xx or 5xx (the browser's own
    ask for the tab's icon included, which used to be a 404): the icon each page names, and the one at /favicon.ico,
    is an SVG."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        done = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        tok = done.rsplit("/", 1)[1]
        for _ in range(60):  # the second game played out (a replay is shown once its game is over)
            s = httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json()
            if not s["legal"]["actions"]:
                break
            httpx.post(f"{url}/api/g/{tok}/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
        failed: list[str] = []
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.on("response", lambda response: failed.append(f"{response.status} {response.url}") if response.status >= 400 else None)
        for address, ready in ((url + "/", "#scenario option"), (link, '[data-unit="Pz"]'), (f"{url}/replay/{tok}", '[data-unit="Pz"]')):
            page.goto(address)
            page.wait_for_selector(ready, state="attached")
            page.wait_for_load_state("networkidle")
            assert page.get_attribute('link[rel="icon"]', "href") == "/static/favicon.svg"
        assert failed == []
        for icon in ("/static/favicon.svg", "/favicon.ico"):
            got = httpx.get(url + icon, timeout=60)
            assert got.status_code == 200 and got.headers["content-type"].startswith("image/svg+xml") and b"<svg" in got.content
