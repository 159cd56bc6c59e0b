"""Corners of the rules that ordinary play rarely reaches, each worked out from its clause."""

from __future__ import annotations

import pytest

from tests.conftest import at_phase, attack_game, movement_game, unit_toml
from tests.systems.gazala.test_air import game_at
from tests.systems.gazala.test_supply import SOURCE, game_with, recovery, track
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.actions import Airstrike, Attack, EndPhase, Move, NoIntercept, NoRetreat, Place, Resolve
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import air as air
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala.actions import Convoy
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


@pytest.mark.rule("GG-XIV.B.3")
def test_odds_against_half_a_factor_and_against_none() -> None:
    # the 4th AA Brigade (1 defence factor) at half against infantry: 1 against 0.5 is 2:1; a unit with no defence
    # factor at all: 10:1
    game = attack_game(
        unit_toml("Inf", "axis", "B3", type_="infantry", factors="1-1-2") + unit_toml("AA4", "allied", "B4", type_="aa", factors="1-1-3")
    )
    assert cb.assess(game, Attack((H("B4"),), ("Inf",)), AXIS).odds == "2:1"
    game = attack_game(
        unit_toml("Inf", "axis", "B3", type_="infantry", factors="1-1-2")
        + unit_toml("Zero", "allied", "B4", type_="armour", factors="1-0-2")
    )
    assert cb.assess(game, Attack((H("B4"),), ("Inf",)), AXIS).odds == "10:1"


@pytest.mark.rule("GG-V.B.1")
def test_the_set_up_cannot_end_with_a_dummy_alone_outside_a_box() -> None:
    game = Game(load_scenario("gazala-gallop"), options=["nonhistorical"])
    game.play(Place("Dummy1", H("C5")))  # a box
    game.play(Place("Dummy2", H("E6")))  # a box
    family_unit(game, "Dummy2").hex = H("H10")  # moved by hand where there is neither a unit nor a box
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert (err.value.clause, err.value.reason) == ("GG-V.B.1", "Dummy2 in H10 must share its hex with a real unit or a box")


@pytest.mark.rule("GG-IX.B")
def test_no_ar_for_a_disrupted_unit_whose_neighbour_was_attacked() -> None:
    # Tired (disrupted) and Att both touch Def; Att attacks it (3:1, die 3: R1): Tired owes no AR at the end
    game = attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4")
        + unit_toml("Tired", "axis", "A4", factors="1-1-4")
        + unit_toml("Def", "allied", "B4", factors="1-2-2"),
        dice=ForcedDice([1]),
    )
    family_unit(game, "Tired").disrupted = True
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(NoRetreat())
    from tobruk.mechanics.actions import EndRetreat

    game.play(EndRetreat())  # the D's voluntary retreat: none
    game.play(EndPhase())
    assert game.phase.key != "axis-attacks" and family_unit(game, "Tired").hex == H("A4")


@pytest.mark.rule("GG-X.B.1")
def test_the_interdiction_ends_with_the_enemy_player_turn() -> None:
    game = game_at(unit_toml("Tommy", "allied", "C4", type_="infantry"), "axis-airstrike", [2])
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    while game.phase.key != "allied-recovery":
        game.play(EndPhase())
        interdiction = gazala_vars(game).interdiction
        assert interdiction is not None and interdiction.hex == "C4"  # through the Allied player-turn
    game.play(EndPhase()) if game.decision is not None and game.decision.phase == "allied-recovery" else None
    assert gazala_vars(game).interdiction is None


@pytest.mark.rule("GG-XV.A.2")
def test_a_sandstorm_line_is_3_mf_plus_the_die_of_the_determination() -> None:
    # sandstorm: 3 + the die rolled as the Axis determination starts (a 4): 7 MF, A12 in supply, A13 not
    units = unit_toml("In", "axis", "A12") + unit_toml("Out", "axis", "A13")
    game = game_with(units, SOURCE + track(1, 5), rows=1, columns=20, dice=[4], phase="axis-attacks")
    game.vars.weather = "sandstorm"
    recovery(game)
    assert game.dice.log[-1].purpose == "Axis supply line in a sandstorm" and gazala_vars(game).supply_die == {"axis": 4}
    from tobruk.systems.gazala import supply as sp

    status = sp.status(game, AXIS)
    assert status["In"]["supplied"] and not status["Out"]["supplied"]


@pytest.mark.rule("GG-X.B.1b")
def test_a_british_division_is_aa_capable_only_in_a_box() -> None:
    # in the box B4 the division (AA-capable there) is attacked before the brigade above it in the stack
    units = unit_toml("Bde", "allied", "B4", echelon="subdivisional", type_="armour") + unit_toml(
        "Div", "allied", "B4", type_="infantry", factors="2-3-2", extra='aa = "in-box"'
    )
    game = game_at(units, "axis-airstrike", [], '[map.fortifications]\nallied = ["B4"]\n')
    assert air.attack_order(game, H("B4"), AXIS) == ["Div", "Bde"] and air.aa_capable(game, "Div")
    game = game_at(units, "axis-airstrike", [])
    assert air.attack_order(game, H("B4"), AXIS) == ["Bde", "Div"] and not air.aa_capable(game, "Div")


@pytest.mark.rule("GG-XVI")
def test_taking_a_village_is_logged() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1"), '[map.terrain]\nvillage = ["A3"]\n', rows=1, columns=8)
    game.vars.villages = {"A3": "allied"}
    game.play(Move("Pz", (H("A1"), H("A2"), H("A3"), H("A4"))))
    assert "Axis takes control of A3." in game.state.log and gazala_vars(game).villages["A3"] == "axis"


@pytest.mark.rule("GG-VII.B")
def test_the_reinforcement_may_enter_where_allied_units_stand(gazala: Scenario) -> None:
    game = at_phase(Game(gazala), "allied-movement")
    while game.turn < 7:
        game.play(EndPhase())
        game = at_phase(game, "allied-movement")
    family_unit(game, "7MotBde").hex = H("K18")
    assert Place("1ArmdBde", H("K18")) in game.legal_orders()


@pytest.mark.rule("GG-XV.A.4")
def test_the_last_convoy_can_still_be_sent() -> None:
    # 3 of the 4 Axis convoys carried infantry; the fourth can still go to a unit out of supply
    units = unit_toml("Inf", "axis", "B1", type_="infantry", factors="3-3-2") + unit_toml("Far", "axis", "A15")
    game = game_with(units, SOURCE + track(1, 5), rows=3, columns=20)
    game.play(Move("Inf", (H("B2"),), trucks=True))
    recovery(game)
    assert Convoy("Far") in game.legal_orders()


@pytest.mark.rule("GG-XVI")
def test_a_village_taken_is_logged_by_its_name(gazala: Scenario) -> None:
    from tobruk.systems.gazala.control import pass_through

    game = Game(gazala)
    pass_through(game, AXIS, [H("C9"), H("C10")])  # Acroma
    assert game.state.log[-1] == "Axis takes control of Acroma." and gazala_vars(game).villages["C10"] == "axis"
    pass_through(game, AXIS, [H("C10")])  # already Axis: nothing more
    assert game.state.log[-1] == "Axis takes control of Acroma." and game.state.log.count(game.state.log[-1]) == 1
