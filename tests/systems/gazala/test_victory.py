"""Victory in The Gazala Gallop (GG-IV, XI.A.5): each GVP item and the level thresholds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.conftest import jump_to
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import EndPhase
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import victory as vp
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse


def lines(result: dict[str, Any], side: str) -> dict[str, Fraction]:
    return {text: Fraction(p) for text, p in result[side]}


def final(game: Game) -> dict[str, Any]:
    return vp.score(game)


@pytest.mark.rule("GG-IV.C")
@pytest.mark.parametrize(
    ("difference", "name"),
    [
        (0, "no victory (a draw)"),
        (4, "no victory (a draw)"),
        (Fraction(9, 2), "Tactical Victory"),
        (5, "Tactical Victory"),
        (9, "Tactical Victory"),
        (10, "Major Victory"),
        (14, "Major Victory"),
        (15, "Strategic Victory"),
        (20, "Strategic Victory"),
        (21, "Crushing Strategic Victory"),
    ],
)
def test_levels_by_difference(difference: Fraction, name: str) -> None:
    assert vp.level(Fraction(difference)) == name


@pytest.mark.rule("GG-IV.A.2")
def test_allied_points_for_axis_units_destroyed(gazala: Scenario) -> None:
    game = Game(gazala)
    for uid in ("15Pz", "Ariete", "Trieste", "RecceGp"):
        family_unit(game, uid).eliminated = True
        family_unit(game, uid).hex = None
    allied = lines(final(game), "allied")
    assert allied["15. Panzer-Division destroyed"] == 5
    assert allied["132a Divisione corazzata Ariete destroyed"] == 2
    assert allied["101a Divisione motorizzata Trieste destroyed"] == 1
    assert allied["Recce Gruppe (Aufklaerungs-Abt. 3 and 33) destroyed"] == 1


@pytest.mark.rule("GG-IV.A.3")
def test_gazala_position_held_in_supply_and_tobruk_line(gazala: Scenario) -> None:
    game = Game(gazala)
    allied = lines(final(game), "allied")
    assert sum(p for t, p in allied.items() if t.startswith("Gazala position")) == 3
    assert allied["supply line into Tobruk from the east edge"] == 2
    # without Allied units on the Gazala Line boxes: neither
    for uid in ("1SA", "1FF"):
        family_unit(game, uid).hex = H("F17")
    allied = lines(final(game), "allied")
    assert not any(t.startswith("Gazala position") for t in allied)
    assert "supply line into Tobruk from the east edge" not in allied


@pytest.mark.rule("GG-IV.B.1")
@pytest.mark.rule("GG-IV.B.2")
def test_tobruk_surrounded_or_taken(gazala: Scenario) -> None:
    game = Game(gazala)
    assert vp.tobruk_state(game) == "held"
    # Axis units astride every way out of Tobruk to the east-edge sources: D12 E13 D13? ring it
    ring = ["D11", "E12", "E13", "E14", "D14", "C11"]
    axis = ["15Pz", "21Pz", "90Lt", "Ariete", "Trieste", "Brescia"]
    for uid, label in zip(axis, ring, strict=True):
        family_unit(game, uid).hex = H(label)
    assert vp.tobruk_state(game) == "surrounded"
    assert lines(final(game), "axis")["Tobruk surrounded"] == 3
    family_unit(game, "2SA").hex = H("F17")
    family_unit(game, "Pavia").hex = H("C13")
    assert vp.tobruk_state(game) == "taken"
    assert lines(final(game), "axis")["Tobruk taken"] == 6


@pytest.mark.rule("GG-IV.B.3")
@pytest.mark.rule("GG-IV.B.4")
def test_sources_taken_and_the_supply_dump(gazala: Scenario) -> None:
    game = Game(gazala)
    family_unit(game, "15Pz").hex = H("G18")
    family_unit(game, "21Pz").hex = H("N17")
    family_unit(game, "90Lt").hex = H("F15")
    axis = lines(final(game), "axis")
    assert axis["Allied supply source G18 taken"] == 2 and axis["Allied supply source N17 taken"] == 2
    assert axis["Allied Supply Dump (F15) occupied"] == 5
    assert "Allied supply source K18 taken" not in axis


@pytest.mark.rule("GG-IV.B.5")
def test_axis_points_for_allied_units_destroyed(gazala: Scenario) -> None:
    game = Game(gazala)
    for uid in ("1SA", "2ArmdBde", "1FF", "Dummy1"):
        family_unit(game, uid).eliminated = True
        family_unit(game, uid).hex = None
    axis = lines(final(game), "axis")
    assert axis["1st South African Division destroyed"] == 2
    assert axis["2nd Armoured Brigade destroyed"] == 1  # a brigade of 1st Armoured Division
    assert axis["1st Free French Brigade destroyed"] == 2  # independent: division level
    assert not any("Dummy" in t for t in axis)


@pytest.mark.rule("GG-IV.C")
def test_the_lower_total_is_taken_from_the_higher(gazala: Scenario) -> None:
    game = Game(gazala)
    family_unit(game, "15Pz").hex = H("G18")  # Axis 2; Allies 3 + 2
    result = final(game)
    assert (result["allied_total"], result["axis_total"], result["difference"]) == ("5", "2", "3")
    assert result["winner"] is None and result["level"] == "no victory (a draw)"


def nonhistorical_set_up(gazala: Scenario) -> Game:
    """A nonhistorical game after the Allied set-up, every unit left in its printed position."""
    game = Game(gazala, options=["nonhistorical"])
    game.play("place Dummy1 C5")
    game.play("place Dummy2 E6")
    game.play("end-phase")
    return game


@pytest.mark.rule("GG-IV.D")
def test_nonhistorical_halves_an_allied_margin_and_doubles_an_axis_one(gazala: Scenario) -> None:
    game = nonhistorical_set_up(gazala)
    for uid in ("15Pz", "21Pz"):
        family_unit(game, uid).eliminated = True
        family_unit(game, uid).hex = None
    result = final(game)  # 10 + 3 + 2 = 15 against 0: halved to 7.5
    assert result["difference"] == "15/2" and result["level"] == "Tactical Victory" and result["winner"] == "allied"
    game = nonhistorical_set_up(gazala)
    for uid in ("1SA", "50Div", "2SA"):
        family_unit(game, uid).eliminated = True
        family_unit(game, uid).hex = None
    for uid in ("1FF",):
        family_unit(game, uid).hex = H("F17")
    result = final(game)  # Axis 6 (three divisions); Allies: no Gazala box held -> 0; doubled to 12
    assert result["winner"] == "axis" and result["difference"] == "12" and result["level"] == "Major Victory"


@pytest.mark.rule("GG-IV.A.1")
def test_allied_sudden_victory_on_a5_or_g1(gazala: Scenario) -> None:
    game = Game(gazala)
    jump_to(game, "allied-movement")
    family_unit(game, "7MotBde").hex = H("G1")
    while game.decision is not None and game.turn < 3:
        game.play("weather 1 2" if game.decision.phase == "weather" else EndPhase())
    assert game.is_over and game.turn == 2 and game.phase.key == "allied-victory"
    result = gazala_vars(game).result
    assert result is not None
    assert result["winner"] == "allied" and result["sudden"] and result["allied"] == (("Allied unit on G1 (sudden victory)", "10"),)
    assert result["level"] == "Major Victory"


@pytest.mark.rule("GG-XI.A.5")
def test_box_eliminated_by_an_undisrupted_enemy_division_in_its_victory_phase(gazala: Scenario) -> None:
    game = Game(gazala)
    jump_to(game, "allied-recovery")
    family_unit(game, "1SA").hex = H("F17")  # leave the C5 box
    family_unit(game, "15Pz").hex = H("C5")
    family_unit(game, "21Pz").hex = H("D5")
    family_unit(game, "21Pz").disrupted = True
    family_unit(game, "Sabratha").hex = H("B5")  # a division, but...
    while game.turn == 1:
        game.play(EndPhase())
    game.play("weather 1 2")  # then the Axis victory determination phase of turn 2 runs
    gone = gazala_vars(game).boxes_eliminated
    assert "C5" in gone and "B5" in gone and "D5" not in gone  # 21Pz is disrupted


def test_the_game_ends_with_a_result(gazala: Scenario) -> None:
    game = Game(gazala, seed=1)
    while game.decision is not None:
        game.play("weather 1 2" if game.decision.phase == "weather" else EndPhase())
    lines_ = game.system.result_lines(game)
    assert lines_[0].startswith("Allied: Tactical Victory")
    assert any("Gazala position held" in x for x in lines_)
