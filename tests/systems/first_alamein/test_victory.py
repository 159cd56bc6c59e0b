"""1st Alamein's game-turn as built (FA-SEQ.1-3) and its victory determinations: when the Axis one notes what the
Axis holds, the boxes eliminated, the final result's lines (CA-SC.7's condition), word for word as the log
and the form show them."""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import advance_to, scenario, unit
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.mechanics.counters import family_unit
from tobruk.systems.first_alamein.sequence import player_turn
from tobruk.systems.first_alamein.state import alamein_vars

# A8 is El Alamein, the north-east coastal road hex and an Axis supply source; the Allies are far off in A2
VICTORY_MAP = '[map.supply]\naxis = ["A8"]\n[map.zones]\nalamein = ["A8"]\nroad-end = ["A8"]\n'
VICTORY_RULES = 'victory_el_alamein = "alamein"\nvictory_road_hex = "road-end"\n'
HOLDERS = unit("X", "axis", "A8") + unit("Y", "axis", "A8")
BOTH = "El Alamein occupied in supply (X, Y); the north-east coastal road hex occupied (X, Y)"


def logged(game: Game, kind: str) -> list[str]:
    return [e.text for e in game.state.entries if e.kind == kind]


def victory_game(units: str, turns: int = 10, rules: str = "") -> Game:
    return Game(scenario(units, rows=1, columns=8, turns=turns, map_extra=VICTORY_MAP, rules=VICTORY_RULES + rules), seed=1)


@pytest.mark.rule("FA-SEQ.2")
@pytest.mark.rule("FA-SEQ.3")
def test_each_player_turn_is_built_in_the_charts_order() -> None:
    axis, allied = player_turn(Side.AXIS, "FA-SEQ.2"), player_turn(Side.ALLIED, "FA-SEQ.3")
    assert [s.title for s in axis] == [
        "Axis reinforcement",
        "Axis airstrike",  # the Axis strikes before moving ...
        "Axis operational movement",
        "Axis attacks",
        "Axis recovery from Spent",
        "Axis supply status determination",
    ]
    assert [s.title for s in allied] == [
        "Allied reinforcement",
        "Allied operational movement",  # ... the Allies after
        "Allied airstrike",
        "Allied attacks",
        "Allied recovery from Spent",
        "Allied supply status determination",
    ]
    assert [s.key for s in allied][:3] == ["allied-reinforcement", "allied-movement", "allied-airstrike"]
    assert all(s.side is Side.AXIS and s.clause == "FA-SEQ.2" for s in axis)
    assert all(s.side is Side.ALLIED and s.clause == "FA-SEQ.3" for s in allied)
    assert allied[2].prompt == "send an air unit against a hex (Axis interception possible), or end the phase"
    assert axis[1].prompt == "send an air unit against a hex (Allied interception possible), or end the phase"


@pytest.mark.rule("FA-SEQ.3")
def test_the_axis_victory_determination_follows_the_allied_player_turn() -> None:
    game = victory_game(HOLDERS + unit("Z", "allied", "A2"))
    advance_to(game, "allied-movement")  # the Allied determination has passed: nothing noted yet
    assert alamein_vars(game).holding == {} and not [t for t in logged(game, "event") if t.startswith("Axis victory determination")]
    advance_to(game, "axis-movement", turn=2)
    assert f"Axis victory determination: {BOTH}." in logged(game, "event")
    assert game.system.form_facts(game)[1] == ("The Axis at each Axis victory determination", [("Turn 1", BOTH)])


@pytest.mark.rule("CA-SC.7")
def test_the_final_result_names_the_holdings_and_each_sides_destroyed_units() -> None:
    units = HOLDERS + unit("Z1", "allied", "A2") + unit("Z2", "allied", "A3") + unit("Z3", "allied", "A4")
    game = victory_game(units + unit("DAF", "allied", None, type_="air", factors="0-0-0"), turns=1)
    for uid in ("Z1", "Z2"):
        family_unit(game, uid).eliminated = True
        family_unit(game, uid).hex = None
    assert game.system.result_lines(game) == []  # nothing to say before the end
    while game.decision is not None:
        game.play(EndPhase())
    lines = [f"Axis victory: {BOTH}.", "Axis units destroyed: none", "Allied units destroyed: Z1, Z2"]
    assert game.is_over and game.system.result_lines(game) == lines
    assert logged(game, "event")[-3:] == lines


@pytest.mark.rule("CA-SC.7")
def test_the_allies_win_when_the_axis_holds_neither() -> None:
    game = victory_game(unit("X", "axis", "A6") + unit("Z", "allied", "A2"), turns=1)
    while game.decision is not None:
        game.play(EndPhase())
    assert game.system.result_lines(game)[0] == (
        "Allied victory: the Axis holds neither El Alamein in supply nor the north-east coastal road hex."
    )


@pytest.mark.rule("GG-XI.A.5")
def test_an_eliminated_box_is_logged_as_a_loss() -> None:
    box = '[map.fortifications]\nallied = ["A5"]\n'
    game = Game(scenario(unit("Pz", "axis", "A5", type_="armour"), rows=1, columns=8, turns=2, map_extra=box))
    advance_to(game, "axis-movement", turn=2)
    assert "Axis: the box in A5 is eliminated." in logged(game, "loss")


@pytest.mark.rule("FA-SEQ.1")
def test_a_new_game_turn_clears_the_moved_and_attacked_marks_and_names_the_day() -> None:
    game = victory_game(unit("X", "axis", "A6") + unit("Z", "allied", "A2"), rules='first_day = "1942-07-01"\n')
    advance_to(game, "axis-movement")
    family_unit(game, "X").moved = family_unit(game, "X").attacked = True
    advance_to(game, "axis-movement", turn=2)
    assert not family_unit(game, "X").moved and not family_unit(game, "X").attacked
    assert "Turn 2, 2 July 1942." in game.state.log
    game = victory_game(unit("X", "axis", "A6") + unit("Z", "allied", "A2"))
    advance_to(game, "axis-movement", turn=2)
    assert "Turn 2." in game.state.log  # no first day given: no date


@pytest.mark.rule("FA-LOG.1")
def test_the_log_opens_with_the_first_game_turn_its_day_and_the_title() -> None:
    game = victory_game(unit("X", "axis", "A6"), rules='first_day = "1942-07-01"\n')
    assert game.state.log[0] == "Turn 1, 1 July 1942. Test."
    game = victory_game(unit("X", "axis", "A6"))
    assert game.state.log[0] == "Turn 1. Test."  # no first day given: no date
