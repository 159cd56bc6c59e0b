"""A scenario whose rules play one side is offered in the lobby as a solitaire game (a newcomer looked for Operation
Compass's solitaire and found only "against the computer", "You play: Axis"), in real headless Chromium: the first
mode, chosen as the scenario is picked, naming the side the person plays; gone once the option that gives the ruled
side to a player is ticked, and never offered for a game of two sides."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.web_server import running_server, state_of
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.system import find_system
from tobruk.loading.scenario import load_scenario

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SOLITAIRE = "solitaire (you play the Allies; the rules play the Axis)"


def test_the_scenarios_say_which_side_their_rules_play(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        listed = {s["name"]: s for s in httpx.get(f"{url}/api/scenarios", timeout=60).json()}
    option = load_scenario("operation-compass").options[0].name
    assert listed["operation-compass"]["solitaire"] == {"side": "axis", "unless": option}
    assert listed["gazala-gallop"]["solitaire"] is None and listed["first-alamein"]["solitaire"] is None


@pytest.mark.rule("OC-RET.1")
def test_compass_is_solitaire_unless_the_italians_have_a_player() -> None:
    """The Italians by the charts' procedures (ruling R-OC-POLICY) unless the two-players option."""
    compass = load_scenario("operation-compass")
    assert find_system("operation-compass").solitaire is not None
    alone = Game(compass, seed=1)
    assert alone.system.ruled_sides(alone) == frozenset({Side.AXIS})
    two = Game(compass, seed=1, options=[compass.options[0].name])
    assert two.system.ruled_sides(two) == frozenset()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_the_lobby_offers_compass_as_a_solitaire_game(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(url + "/")
        page.wait_for_selector("#scenario option", state="attached")
        page.select_option("#scenario", "gazala-gallop")
        assert page.locator('#mode option[value="solitaire"]').count() == 0  # (a game of two sides)
        page.select_option("#scenario", "operation-compass")
        assert page.input_value("#mode") == "solitaire"
        assert page.inner_text('#mode option[value="solitaire"]') == SOLITAIRE
        assert not page.is_visible("#side-row") and not page.is_visible("#computer-row")
        page.check('input[data-option="two-players"]')  # the Italians to a player: no solitaire
        assert page.locator('#mode option[value="solitaire"]').count() == 0 and page.input_value("#mode") != "solitaire"
        page.uncheck('input[data-option="two-players"]')
        assert page.locator('#mode option[value="solitaire"]').count() == 1
        page.select_option("#mode", "solitaire")
        page.click("#start")
        page.wait_for_url("**/g/*")
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        s = state_of(page.url)
        assert s["mode"] == "hotseat" and s["view"]["decision"]["side"] == "allied"
        assert page.inner_text("#prompt").startswith("Allied")
