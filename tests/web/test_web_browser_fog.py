"""Hidden units in real headless Chromium: the hotseat hand-over screen, and what a remote opponent's page
receives (GG-V.B.1: the Allied units and both dummies are set up face down in the nonhistorical game).

What is judged is what the page holds and receives: its DOM (HTML, text, SVG), its script's state and every
response body, never what the page happens to show.  Screenshots are kept in ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.conftest import family
from tests.web.chromium import CHROMIUM
from tests.web.test_web_browser import shot
from tests.web.web_server import running_server
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Response

    from tobruk.board.units import UnitDef

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

SCENARIO = load_scenario("gazala-gallop")
# GG-V.B.1: the Allied units set up face down; a reinforcement (the 1st Armoured Brigade, GG-VII.B) is on the
# turn record for both players to read and arrives face up
FACE_DOWN = [d for d in family(SCENARIO) if d.side is Side.ALLIED and not d.is_air and d.id not in SCENARIO.reinforcements]
AXIS = [d for d in family(SCENARIO) if d.side is Side.AXIS]
# factor strings only a face-down Allied counter has (2-3-2 is also an Italian division's, and so on)
SECRET_FACTORS = sorted({d.factors for d in FACE_DOWN} - {d.factors for d in AXIS} - {"0-0-0"})


def identities_in(text: str, units: Sequence[UnitDef]) -> list[str]:
    """Every id, name or unique factor string of ``units`` (and any word 'dummy') that ``text`` contains."""
    found = [d.id for d in units if re.search(rf"(?<![\w.']){re.escape(d.id)}(?![\w.'])", text)]
    found += [d.name for d in units if d.name != "Dummy" and d.name in text]
    found += [f for f in SECRET_FACTORS if re.search(rf"(?<![\d-]){f}(?![\d-])", text)]
    found += re.findall(r"dummy", text, flags=re.IGNORECASE)
    return found


def whole_page(page: Page) -> str:
    """The page's HTML with its SVG, and its text including what is hidden from view."""
    return str(page.evaluate("document.documentElement.outerHTML + '\\n' + document.documentElement.textContent"))


def place(page: Page, unit: str, hex_: str) -> None:
    """Place a counter as a person does on the page: pick it in the tray of counters to place (they wait off the
    map), then click one of the hexes highlighted for it."""
    page.click(f'#trays [data-tray="now"] [data-tray-unit="{unit}"]')
    page.click(f'[data-reach="{hex_}"]')


# --- A. the hotseat hand-over screen ----------------------------------------------------------------------
def test_hotseat_handover_screen_hides_every_view(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        r = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat", "options": ["nonhistorical"]}, timeout=60)
        page = browser.new_page(viewport={"width": 1300, "height": 850})
        bodies: list[tuple[str, str]] = []
        page.on(
            "response",
            lambda resp: bodies.append((resp.url, resp.text())) if "/api/g/" in resp.url and not resp.url.endswith("/events") else None,
        )
        page.goto(r.json()["links"]["both"])
        # opened cold, the page asks who sits at it before it shows anybody's view
        page.wait_for_selector("#handover:not([hidden])")
        assert page.inner_text("#handover-ok") == "I am the Allied player"
        assert page.locator("#units .counter").count() == 0
        page.click("#handover-ok")
        page.wait_for_selector('#trays [data-tray="now"] [data-tray-unit]')  # the Allied counters wait in the set-up tray
        assert page.is_hidden("#handover")
        # the Allied player sets his dummies up face down and ends his set-up
        place(page, "Dummy1", "C5")
        page.wait_for_selector('[data-unit="Dummy1"][data-hex="C5"]')
        place(page, "Dummy2", "E6")
        page.wait_for_selector('[data-unit="Dummy2"][data-hex="E6"]')
        assert page.is_hidden("#handover")  # the same side decides on: no hand-over in between
        page.wait_for_timeout(500)  # the event stream's echo of the placement may still bring the Allied view: let it
        bodies.clear()
        page.click('button[data-order="end-phase"]')
        page.wait_for_selector("#handover:not([hidden])")
        page.wait_for_timeout(500)  # let any late answer or refresh arrive: it must not bring a view back
        shot(page, "hotseat-handover")

        # nothing of the Allied view (nor of the Axis one) is in the page while the screen is up
        assert page.inner_text("#handover-ok") == "I am the Axis player"
        assert identities_in(whole_page(page), FACE_DOWN) == []
        assert identities_in(whole_page(page), AXIS) == []
        assert re.findall(r"\b\d+-\d+-\d+\b", whole_page(page)) == []  # no counter's factors at all
        assert page.locator("#units .counter, #overlay *, #top *, #log li, #orders *, #stack *").count() == 0
        assert page.evaluate("document.getElementById('threat-warning').textContent") == ""  # no side's warning either
        kept = page.evaluate("[tobrukGame.state, tobrukGame.selected, tobrukGame.attackers.length, tobrukGame.pendingAttack]")
        assert kept == [None, None, 0, None]
        # and none was sent to it: the answer to the order says only whose decision it is
        assert bodies and all('"view"' not in body for _, body in bodies)
        assert all(identities_in(body, FACE_DOWN + AXIS) == [] for _, body in bodies)
        # the screen is fully opaque and covers the whole window, above everything else
        cover = page.evaluate("""() => {
            const o = document.getElementById('handover'), s = getComputedStyle(o), r = o.getBoundingClientRect();
            const points = [[1, 1], [innerWidth / 2, innerHeight / 2], [innerWidth - 2, innerHeight - 2], [200, 300]];
            return {opacity: s.opacity, background: s.backgroundColor, box: [r.left, r.top, r.right, r.bottom],
                    window: [innerWidth, innerHeight],
                    on_top: points.every(([x, y]) => o.contains(document.elementFromPoint(x, y)))};
        }""")
        assert cover["opacity"] == "1"
        assert re.fullmatch(r"rgb\(\d+, \d+, \d+\)", cover["background"]), cover["background"]  # no alpha
        assert cover["box"] == [0, 0, *cover["window"]] and cover["on_top"]

        # the Axis player says who he is: his view appears, with the Allied counters face down
        page.click("#handover-ok")
        page.wait_for_selector('[data-unit="15Pz"]')
        assert page.is_hidden("#handover")
        assert page.inner_text("#prompt").startswith("Axis")
        assert page.locator('#units .counter[data-side="allied"][data-unit=""]').count() >= len(FACE_DOWN) - 1
        assert identities_in(whole_page(page), FACE_DOWN) == []
        # the Axis is warned of the face-down counters that could reach A5 (GG-IV.A.1) without a word of which they are
        page.wait_for_selector("#threat-warning:not([hidden])")
        assert "face-down counter" in page.inner_text("#threat-warning")
        shot(page, "hotseat-after-handover")


def test_hotseat_state_names_the_side_before_it_shows_its_view(tmp_path: Path) -> None:
    """The hotseat seat's state holds a side's view only when asked for the side whose decision it is."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(
            f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat", "options": ["nonhistorical"]}, timeout=60
        ).json()["links"]["both"]
        api = link.replace("/g/", "/api/g/")
        unasked = httpx.get(f"{api}/state", timeout=60).json()
        other = httpx.get(f"{api}/state", params={"side": "axis"}, timeout=60).json()
        for state in (unasked, other):
            assert state["handover"] and state["side"] == "allied" and "view" not in state and "legal" not in state
        asked = httpx.get(f"{api}/state", params={"side": "allied"}, timeout=60).json()
        assert "handover" not in asked and asked["view"]["side"] == "allied" and asked["my_turn"]
        answer = httpx.post(f"{api}/order", json={"order": "place Dummy1 C5", "version": asked["version"]}, timeout=60)
        assert answer.status_code == 200 and "view" not in answer.json()
        # the same game without face-down units (the historical set-up) needs no hand-over
        plain = (
            httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "hotseat"}, timeout=60)
            .json()["links"]["both"]
            .replace("/g/", "/api/g/")
        )
        assert httpx.get(f"{plain}/state", timeout=60).json()["view"]["side"] == "axis"


# --- B. a remote game: what the Axis player's browser receives --------------------------------------------
DUMMIES_BESIDE_1SA = ("place Dummy1 C5", "place Dummy2 E6")


def _remote_game(url: str, browser: Browser, placements: tuple[str, ...] = DUMMIES_BESIDE_1SA) -> tuple[list[tuple[str, str]], list[str]]:
    """A remote nonhistorical game played in two browser contexts, one per side's link, to an Axis attack
    declaration on the face-down stack in C5; the Allied player places ``placements`` in his set-up.
    Returns every response (address, body) the Axis context received and its page at each version."""
    links = httpx.post(
        f"{url}/api/games", json={"scenario": "gazala-gallop", "mode": "remote", "options": ["nonhistorical"]}, timeout=60
    ).json()["links"]
    axis_context, allied_context = browser.new_context(), browser.new_context()
    received: list[tuple[str, str]] = []

    def record(resp: Response) -> None:
        if not resp.url.endswith("/events"):  # the event stream never ends; it carries only version numbers
            received.append((resp.url, resp.body().decode("utf-8", "replace")))

    axis_context.on("response", record)
    axis, allied = axis_context.new_page(), allied_context.new_page()
    axis.set_viewport_size({"width": 1300, "height": 850})
    pages: list[str] = []

    def version(v: int) -> None:
        axis.wait_for_function(f"tobrukGame.state && tobrukGame.state.version === {v}", timeout=20000)
        pages.append(whole_page(axis))

    allied.goto(links["allied"])
    axis.goto(links["axis"])
    allied.wait_for_selector('#trays [data-tray="now"] [data-tray-unit]')  # the Allied counters wait in the set-up tray
    axis.wait_for_selector("#units .counter")
    version(0)
    # set-up: the Allied player places his dummies face down and ends his set-up
    for n, order in enumerate(placements, start=1):
        _, unit, hex_ = order.split()
        place(allied, unit, hex_)
        allied.wait_for_selector(f'[data-unit="{unit}"][data-hex="{hex_}"]')
        version(n)
    v = len(placements)
    allied.click('button[data-order="end-phase"]')
    version(v + 1)
    # the Axis player ends his set-up and his air phase, moves next to the face-down stack in C5 and attacks it
    axis.click('button[data-order="end-phase"]')
    version(v + 2)
    axis.click('button[data-order="end-phase"]')
    version(v + 3)
    axis.click('[data-unit="15MotBde"]')
    axis.click('[data-reach="C4"]')
    axis.wait_for_selector('[data-unit="15MotBde"][data-hex="C4"]')
    version(v + 4)
    axis.click('button[data-order="end-phase"]')
    version(v + 5)
    axis.click('[data-unit="15MotBde"]')
    axis.click('[data-target="C5"]')
    axis.wait_for_function("document.getElementById('attack-info').textContent.includes('odds')")
    axis.click("#declare")
    version(v + 8)  # the whole attack is stored as the actions it is played as: target, attacker, declaration
    assert axis.evaluate("tobrukGame.state.view.attacks.map(a => a.defenders)") == [["C5"]]  # declared, not yet resolved
    shot(axis, "remote-axis-attack")
    axis_context.close()
    allied_context.close()
    return received, pages


def test_remote_axis_browser_never_receives_a_face_down_identity(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        received, pages = _remote_game(url, browser)
    states = [json.loads(body) for address, body in received if address.split("?")[0].endswith("/state") or address.endswith("/order")]
    assert len(states) >= 9 and len(pages) == 9
    for address, body in received:
        assert identities_in(body, FACE_DOWN) == [], address
    for page in pages:
        assert identities_in(page, FACE_DOWN) == []
    # a face-down counter shows its side and its hex (and at most an anonymous id), nothing about the unit
    ids = {d.id for d in family(SCENARIO)}
    for state in states:
        face_down = [u for u in state["view"]["units"] if u["side"] == "allied" and u.get("hidden")]
        assert all(set(u) == {"side", "hex", "hidden", "anon"} and u["anon"] not in ids for u in face_down)
    assert len([u for u in states[-1]["view"]["units"] if u["side"] == "allied" and u.get("hidden")]) == len(
        FACE_DOWN
    )  # every one, the dummies too


def _by_version(received: list[tuple[str, str]], tokens: list[str]) -> dict[int, str]:
    """The state bodies the page received, by version, with the game's own links and number taken out, and
    anonymous ids of face-down counters (if any) named by their first appearance."""
    out: dict[int, str] = {}
    real = {d.id for d in family(SCENARIO)}
    anonymous: dict[str, str] = {}
    for address, body in received:
        if "/api/g/" not in address or not (address.split("?")[0].endswith("/state") or address.endswith("/order")):
            continue
        data = json.loads(body)
        data.pop("game", None)
        for u in data["view"]["units"]:
            if u.get("hidden") and u["side"] != data["side"] and u.get("anon") not in (None, *real):
                u["anon"] = anonymous.setdefault(u["anon"], f"anonymous-{len(anonymous)}")
        text = json.dumps(data, sort_keys=True)
        for t in tokens:
            text = text.replace(t, "TOKEN")
        out.setdefault(data["version"], text)
    return out


@pytest.mark.parametrize(
    "first, second",
    [
        # the two dummies change places
        (DUMMIES_BESIDE_1SA, ("place Dummy2 C5", "place Dummy1 E6")),
        # as many counters in each hex, set up in the same hexes in the same order, but the Guards share C5 with the
        # 1st South African and the dummies share E6, or a dummy is with each
        (("place Dummy1 C5", "place Dummy2 E6", "place 201Gds E6"), ("place 201Gds C5", "place Dummy1 E6", "place Dummy2 E6")),
    ],
    ids=["dummies-swapped", "unit-and-dummy-swapped"],
)
def test_remote_axis_browser_receives_the_same_whatever_is_face_down_where(
    tmp_path: Path, browser: Browser, first: tuple[str, ...], second: tuple[str, ...]
) -> None:
    """Two games with the same seed that differ only in where the face-down counters are: every state the Axis
    player's browser receives is the same byte for byte (GG-V.B.1: he sees counters in hexes, nothing more).
    (A remote game may not choose its seed: the server is given the one both games get.)"""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios", seeds=lambda: 7) as url:
        one, _ = _remote_game(url, browser, first)
        other, _ = _remote_game(url, browser, second)
    tokens = sorted({a.split("/api/g/")[1].split("/")[0] for a, _ in one + other if "/api/g/" in a}, key=len)
    a, b = _by_version(one, tokens), _by_version(other, tokens)
    # the set-up, the phases and the move, then the whole attack: stored as its target, attacker and declaration
    assert sorted(a) == sorted(b) == [*range(len(first) + 6), len(first) + 8]
    for v in a:
        assert a[v] == b[v], f"version {v}: the Axis player's payload tells the two set-ups apart"
