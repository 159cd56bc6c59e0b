"""The browser page's JavaScript modules (tobruk/web/static): their hex-grid maths against the Python side's, the
server's answers for them, and the pages loading them in a real Chromium without an error.

The maths is checked under node (``tests/web/js/hexgrid_check.mjs`` runs the page's own ``hexgrid.js``): the map's
SVG is drawn by Python (:func:`tobruk.render.svg.map_layout`) and the counters, layers and highlights over it by the
page, so the two must place every hex alike, on every map, including the two-letter rows of the big map.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.web_server import end_or_first, running_server
from tobruk.board.hexes import Hex
from tobruk.loading.scenario import load_scenario, scenario_names
from tobruk.render.board import board_data
from tobruk.render.svg import map_layout
from tobruk.web.server import MAP_SIZE

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "tobruk" / "web" / "static"
CHECK = Path(__file__).resolve().parent / "js" / "hexgrid_check.mjs"
NODE = shutil.which("node")
EXACT = 1e-6  # the same formulas in double precision on both sides
ROUNDED = 0.006  # the board's centres are sent rounded to 2 decimals


def maps() -> dict[str, Any]:
    """Each packaged map once (many scenarios share one), by name: its Map."""
    found: dict[str, Any] = {}
    for name in scenario_names():
        m = load_scenario(name).map
        found.setdefault(m.name, m)
    return found


def sample(hexes: list[Hex], count: int = 60) -> list[Hex]:
    """About ``count`` hexes spread over the map, its first and last among them."""
    step = max(1, len(hexes) // count)
    return sorted(set(hexes[::step]) | {hexes[0], hexes[-1]})


def pixels(layout: Any, hexes: list[Hex]) -> list[tuple[list[float], str]]:
    """Pixels to look a hex up by, each with the hex Python finds there: each hex's centre and a point just inside
    each of its corners (the farthest a pixel of the hex can be from the centre, off the boundary where the two
    languages' rounding of a tie would differ)."""
    out: list[tuple[list[float], str]] = []
    for h in hexes:
        cx, cy = layout.centre(h)
        for x, y in [(cx, cy), *((cx + 0.9 * (px - cx), cy + 0.9 * (py - cy)) for px, py in layout.corners(h))]:
            out.append(([x, y], layout.hex_at(x, y).label))
    return out


@pytest.mark.skipif(NODE is None, reason="node is not installed (.ci/run installs Debian's nodejs): the JavaScript checks are skipped")
def test_the_pages_hex_grid_maths_places_every_hex_as_the_map_is_drawn(tmp_path: Path) -> None:
    fixture, expected = [], {}
    for name, m in sorted(maps().items()):
        board = board_data(m, None, size=MAP_SIZE, title=name)
        layout = map_layout(MAP_SIZE)
        hexes = sample(sorted(m.hexes))
        found = pixels(layout, hexes)
        fixture.append(
            {
                "name": name,
                "size": board["size"],
                "origin": board["origin"],
                "hexes": [h.label for h in hexes],
                "pixels": [p for p, _ in found],
            }
        )
        expected[name] = (board, layout, hexes, [label for _, label in found])
    assert any(len(label) > 3 and label[1].isalpha() for entry in fixture for label in entry["hexes"]), "no two-letter row sampled"
    path = tmp_path / "hexgrid-fixture.json"
    path.write_text(json.dumps(fixture))
    assert NODE is not None
    ran = subprocess.run([NODE, str(CHECK), str(path)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    answers = {a["name"]: a for a in json.loads(ran.stdout)}
    assert sorted(answers) == sorted(expected)
    for name, (board, layout, hexes, labels) in expected.items():
        got = answers[name]
        for h, centre, corners in zip(hexes, got["centres"], got["corners"], strict=True):
            assert centre is not None, f"{name}: the page cannot read the label {h.label}"
            assert math.dist(centre, layout.centre(h)) < EXACT, f"{name} {h.label}: {centre} against {layout.centre(h)}"
            assert math.dist(centre, board["hexes"][h.label]) < ROUNDED, f"{name} {h.label}: not where the board sends it"
            for js, py in zip(corners, layout.corners(h), strict=True):
                assert math.dist(js, py) < EXACT, f"{name} {h.label}: corner {js} against {py}"
        assert got["found"] == labels, f"{name}: the hexes under the pixels differ"


def test_the_pages_modules_are_served_as_javascript_and_revalidated(tmp_path: Path) -> None:
    """A module script of another MIME type is refused by the browser; each module carries an ETag and is to be
    revalidated before use, so a browser that kept one asks again (a 304 if unchanged) and gets the new file after an
    upgrade rather than mixing old and new modules."""
    modules = sorted(p.name for p in STATIC.glob("*.js"))
    assert {"api.js", "hexgrid.js", "board.js", "counters.js", "game.js", "replay.js", "lobby.js"} <= set(modules)
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        for name in modules:
            r = httpx.get(f"{url}/static/{name}", timeout=30)
            assert r.status_code == 200, name
            assert r.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript"), name
            assert r.headers["cache-control"] == "no-cache", name
            etag = r.headers["etag"]
            again = httpx.get(f"{url}/static/{name}", headers={"if-none-match": etag}, timeout=30)
            assert again.status_code == 304, name


def test_every_page_loads_its_modules_as_modules() -> None:
    """The pages load their code as ES modules, each page its one entry module, with no inline script (which could
    reach the modules only through globals)."""
    for page, entry in (("index.html", "lobby.js"), ("game.html", "game.js"), ("replay.html", "replay.js")):
        html = (STATIC / page).read_text(encoding="utf-8")
        assert html.count("<script") == 1, page
        assert f'<script type="module" src="/static/{entry}"></script>' in html, page


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_lobby_game_and_replay_pages_load_without_an_error(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    from tests.web.chromium import FLAGS

    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url, sync_playwright() as p:
        link = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        tok = link.rsplit("/", 1)[1]
        for _ in range(60):  # the game played out: a hotseat game's replay opens once it is over
            s = httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json()
            if not s["legal"]["actions"]:
                break
            httpx.post(f"{url}/api/g/{tok}/order", json={**end_or_first(s), "version": s["version"]}, timeout=60)
        browser: Browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
            # (the game's stream of events stays open until the page is left, which aborts it)
            page.on("requestfailed", lambda r: None if r.url.endswith("/events") else errors.append(f"failed: {r.url} {r.failure}"))
            page.on("response", lambda r: errors.append(f"{r.status}: {r.url}") if r.status >= 400 else None)
            loaded: list[str] = []
            page.on("response", lambda r: loaded.append(r.url.rsplit("/", 1)[-1]) if r.url.endswith(".js") else None)
            page.goto(url + "/")
            page.wait_for_selector("#scenario option", state="attached")  # the lobby's module ran and asked the server
            page.wait_for_load_state("networkidle")
            page.goto(link)
            page.wait_for_selector("#victory:not([hidden])")  # the game page's modules drew the finished game
            page.wait_for_selector('#units .counter[data-unit="Pz"]', state="attached")
            page.goto(f"{url}/replay/{tok}")
            page.wait_for_selector('#units .counter[data-unit="Pz"]', state="attached")
            page.wait_for_function("document.getElementById('frame-label').textContent.length > 0")
            page.wait_for_load_state("networkidle")
            assert errors == []
            assert {"lobby.js", "game.js", "replay.js", "api.js", "hexgrid.js", "board.js", "counters.js"} <= set(loaded)
        finally:
            browser.close()
