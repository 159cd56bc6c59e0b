"""Each side's points if the game ended now, shown during play (a newcomer found no score anywhere until the end):
sent with the state as the seat's side knows the position, drawn on the status line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web.chromium import CHROMIUM
from tests.web.web_server import running_server, state_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.mark.rule("FA-SEQ.3")
def test_first_alamein_scores_the_axis_victory_conditions_met(tmp_path: Path) -> None:
    """At the start the Axis holds neither El Alamein nor the road hex east of it: no Axis condition met, so the
    Allies' one."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "first-alamein", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        score = state_of(link)["view"]["score"]
    assert score == {"title": "Axis victory conditions met if the game ended now", "axis": 0.0, "allied": 1.0}


def test_a_system_that_keeps_no_score_sends_none(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "na-mersa-matruh", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        assert state_of(link)["view"]["score"] is None


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_the_status_line_shows_the_score(tmp_path: Path, browser: Browser) -> None:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        link = httpx.post(f"{url}/api/games", json={"scenario": "operation-compass", "mode": "hotseat"}, timeout=60).json()["links"]["both"]
        score = state_of(link)["view"]["score"]
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(link)
        page.wait_for_function("tobrukGame.state && !tobrukGame.inFlight")
        status = page.inner_text("#status")
    assert score["title"] == "Victory points if the game ended now"
    # the last part of the status line: the title, then each side by its name with its points (as numbers print)
    assert re.search(rf"· Victory points if the game ended now: .+ {score['allied']:g}, .+ {score['axis']:g}$", status), status
