"""1st Alamein through the faces' hooks only: views, odds, the fuzzer's invariants, computer players, records,
the form, and a game created and played on the real server over HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import jump_to
from tests.systems.first_alamein.kit import BASE, H, game_at, scenario, unit
from tests.web.web_server import labels, running_server
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Attack, EndPhase
from tobruk.mechanics.advisor import sight_of
from tobruk.mechanics.family import family_system
from tobruk.players.base import make_player, play_game
from tobruk.players.terminal import status_words
from tobruk.record import record_of, replay
from tobruk.tools.fuzz import check_rules, fuzz_game
from tobruk.view import view

# a small front: the Axis enters from the west on turn 1, the Allies hold a box and a ridge; both sides fly
FRONT_UNITS = """
[[unit]]
id = "15Pz"
name = "15. Panzer-Division"
side = "axis"
nationality = "german"
echelon = "division"
type = "armour"
factors = "3-3-4"
arrives = { turn = 1, zone = "west" }

[[unit]]
id = "RecceGp"
name = "Recce Gruppe"
side = "axis"
nationality = "german"
echelon = "subdivisional"
type = "recce"
factors = "1-1-5"
flags = ["survivable"]
arrives = { turn = 1, zone = "west" }

[[unit]]
id = "Ariete"
name = "Ariete"
side = "axis"
nationality = "italian"
echelon = "division"
type = "armour"
factors = "2-2-4"
arrives = { turn = 2, zone = "west" }

[[unit]]
id = "LW"
name = "Fliegerfuehrer Afrika"
side = "axis"
nationality = "german"
echelon = "division"
type = "air"
factors = "0-0-0"
off_map = true

[[unit]]
id = "1SA"
name = "1st South African Division"
side = "allied"
nationality = "south-african"
echelon = "division"
type = "infantry"
factors = "3-3-2"
hex = "C6"
setup_zone = "allied-setup"

[[unit]]
id = "7Armd"
name = "7th Armoured Division"
side = "allied"
nationality = "british"
echelon = "division"
type = "motorized"
factors = "2-2-3"
flags = ["survivable"]
hex = "E5"
setup_zone = "allied-setup"

[[unit]]
id = "Aus"
name = "9th Australian Division"
side = "allied"
nationality = "australian"
echelon = "division"
type = "infantry"
factors = "3-3-2"
arrives = { turn = 3, zone = "east" }

[[unit]]
id = "DAF"
name = "Desert Air Force"
side = "allied"
nationality = "british"
echelon = "division"
type = "air"
factors = "0-0-0"
off_map = true
"""
FRONT_MAP = """
[map.terrain]
sea = ["A5", "A6", "A7", "A8"]
hill = ["E4"]
[map.supply]
axis = ["A1", "E1"]
allied = ["C8", "E8"]
[map.fortifications]
allied = ["C6"]
[map.zones]
el-alamein = ["C6"]
ne-road = ["C8"]
[[map.route]]
kind = "road"
name = "coast road"
hexes = ["A1", "B1", "B2", "B3", "B4", "C5", "C6", "C7", "C8"]
[[map.route]]
kind = "major-track"
name = "track"
hexes = ["E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8"]
[[map.place]]
name = "El Alamein box"
hex = "C6"
"""
FRONT_ZONES = """
[zones.west]
edge = "west"
[zones.east]
hexes = ["C8", "E8"]
[zones.allied-setup]
columns = "3-8"
"""
FRONT_RULES = """first_day = "1942-07-01"
spent_at_start = ["7Armd"]
el_alamein_box = "el-alamein"
victory_el_alamein = "el-alamein"
victory_road_hex = "ne-road"
"""


def front_text() -> str:
    return BASE.format(turns=10, rows=5, columns=8, map_extra=FRONT_MAP, units=FRONT_UNITS, rules=FRONT_RULES) + FRONT_ZONES


def front() -> Game:
    s = scenario(FRONT_UNITS, rows=5, columns=8, map_extra=FRONT_MAP, rules=FRONT_RULES, tail=FRONT_ZONES)
    return Game(s, seed=1)


def test_a_sides_view_holds_the_systems_part() -> None:
    game = front()
    seen = view(game, Side.ALLIED)
    assert seen["system"] == "first-alamein" and seen["date"] == "1 July 1942"
    assert seen["objectives"] == ["C6", "C8"] and seen["phase"] == "allied-setup"
    assert seen["air"] == {
        "LW": {"side": "axis", "ready": True, "knocked_out_until": 0},
        "DAF": {"side": "allied", "ready": True, "knocked_out_until": 0},
    }
    assert {u["id"] for u in seen["units"] if u["disrupted"]} == {"7Armd"}  # spent at the start (CA-SC.7)
    assert view(game, Side.AXIS)["legal_orders"] == []


def test_the_odds_hook_explains_the_terrain() -> None:
    units = unit("A", "axis", "C5", type_="armour", factors="6-6-4") + unit("D", "allied", "C6", factors="1-1-2")
    game = game_at(units, "axis-attacks", rows=5, columns=8, map_extra='[map.fortifications]\nallied = ["C6"]\n')
    odds = game.system.odds(game, Attack((H("C6"),), ("A",)), Side.AXIS)
    assert odds is not None and odds.column == "3:1"  # 6 against 1 + 1 (the box, matched by 1 infantry factor)
    assert odds.lines[0] == "attack 6 against defence 2" and "box +2" in odds.lines[2]


def test_the_invariants_catch_a_stack_over_the_limit() -> None:
    units = unit("D1", "axis", "A1") + unit("D2", "axis", "A1") + unit("D3", "axis", "A2")
    game = game_at(units, "axis-movement", rows=1, columns=6)
    before = game.step
    game.unit("D3").hex = H("A1")  # as if a bug had let it in unchecked
    game.state.step += 1
    with pytest.raises(AssertionError, match="over the stacking limit"):
        check_rules(game, before)


def test_fuzzed_games_break_no_invariant() -> None:
    game = front()
    for seed in range(3):
        result = fuzz_game(game.scenario, seed)
        assert result.failure is None, result.failure
        assert result.turn == 10


def test_the_greedy_player_plays_a_whole_game_through_the_hooks() -> None:
    game = front()
    features = family_system(game).features(game, Side.AXIS)
    assert features["objectives"] == [H("C6"), H("C8")] and features["stacking"] == (3, 2)
    done = play_game(game, {Side.AXIS: make_player("greedy", 1), Side.ALLIED: make_player("greedy", 2)})
    summary = done.system.summary(done)
    assert done.is_over and summary is not None and summary.winner in ("axis", "allied")
    assert replay(record_of(done), scenario=done.scenario).state_hash() == done.state_hash()


def test_the_greedy_player_brings_reinforcements_in_nearest_the_objectives() -> None:
    game = front()
    assert family_system(game).prefer(game, sight_of(game, Side.AXIS), game.legal_orders(), "first") is None  # the set-up: left alone
    game.play(EndPhase())  # the Allied set-up
    choice = family_system(game).prefer(game, sight_of(game, Side.AXIS), game.legal_orders(), "first")
    assert choice is not None and str(choice) in ("place 15Pz B1", "place RecceGp B1")  # B1: 5 hexes from C6
    advisor = game.system.advisor(game, Side.AXIS)
    assert advisor is not None and list(advisor.candidates()) == [choice]


def test_a_game_on_the_server_over_http(tmp_path: Path) -> None:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "front.toml").write_text(front_text(), encoding="utf-8")
    with running_server(tmp_path / "games.sqlite", scenarios) as url:
        listed = httpx.get(f"{url}/api/scenarios", timeout=60).json()
        fa = next(x for x in listed if x["name"] == "first-alamein")
        assert fa["title"] == "1st Alamein - Beginners' Edition" and fa["options"] == []
        r = httpx.post(f"{url}/api/games", json={"scenario": "front", "mode": "remote"}, timeout=60)
        assert r.status_code == 200, r.text
        links = r.json()["links"]
        axis, allied = (links[s].rsplit("/", 1)[1] for s in ("axis", "allied"))

        def state(tok: str) -> dict[str, Any]:
            return dict(httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json())

        def order(tok: str, text: str) -> httpx.Response:
            return httpx.post(f"{url}/api/g/{tok}/order", json={"order": text, "version": state(tok)["version"]}, timeout=60)

        s = state(allied)
        assert s["my_turn"] and s["view"]["system"] == "first-alamein" and s["view"]["phase"] == "allied-setup"
        r = order(allied, "place 1SA C2")  # outside the set-up zone (columns 3-8)
        assert r.status_code == 400 and r.json()["clause"] == "CA-SC.7"
        assert order(allied, "end-phase").status_code == 200
        s = state(axis)
        assert s["view"]["phase"] == "axis-reinforcement" and "place 15Pz B1" in labels(s)
        r = order(axis, "end-phase")
        assert r.status_code == 400 and r.json()["clause"] == "FA-UNIT.1"
        assert order(axis, "place 15Pz B1").status_code == 200
        assert order(axis, "place RecceGp B1").status_code == 200
        s = state(axis)
        assert s["view"]["phase"] == "axis-airstrike" and "airstrike C6" in labels(s)
        assert order(axis, "end-phase").status_code == 200
        r = order(axis, "move 15Pz B1-B2-B3-B4-C5")  # four free road hexes
        assert r.status_code == 200, r.text
        assert order(axis, "end-phase").status_code == 200
        odds = httpx.get(f"{url}/api/g/{axis}/odds", params={"order": "attack C6 with 15Pz"}, timeout=60).json()
        assert odds["odds"] == "1:2" and abs(sum(p for _, p in odds["outcomes"]) - 1) < 1e-9  # 3 against 3 + 2 box
        r = order(axis, "end-phase")
        assert r.status_code == 400 and r.json()["clause"] == "GG-XIV.A.2"  # 1SA must be attacked


@pytest.mark.rule("CA-SC.7")
def test_a_unit_spent_at_the_start_says_so_until_its_sides_first_recovery_is_over() -> None:
    game = Game(load_scenario("first-alamein"), seed=1)
    reason = {"disrupted": "starts the game spent (CA-SC.7)"}
    assert game.system.status_reasons(game, "18IndBde") == reason and game.system.status_reasons(game, "1SADiv") == {}
    assert status_words(game, "18IndBde") == " spent: starts the game spent (CA-SC.7)"
    entry = next(u for u in view(game, Side.AXIS)["units"] if u.get("id") == "18IndBde")
    assert entry["why"] == reason  # the enemy sees it too: the scenario says it
    jump_to(game, "allied-attacks")
    assert game.system.status_reasons(game, "18IndBde") == reason  # (its recovery still to come)
    jump_to(game, "allied-supply")
    # recovered, or still spent for lack of supply: no longer for the start
    assert game.system.status_reasons(game, "18IndBde") == {}
