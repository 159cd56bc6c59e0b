"""The nonhistorical set-up (GG-V.B), face-down units and the Siege of Tobruk (GG-XIV.B.6)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import jump_to
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Add, Attack, Declare, EndPhase, Place, Resolve, Target
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.family import family_system
from tobruk.systems.gazala.actions import Activate
from tobruk.systems.gazala.state import gazala_vars
from tobruk.view import view

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


def nonhistorical(gazala: Scenario) -> Game:
    return Game(gazala, seed=4, options=["nonhistorical"])


def place_dummies(game: Game) -> None:
    game.play(Place("Dummy1", H("C5")))  # a box (1SA's)
    game.play(Place("Dummy2", H("E6")))  # an empty box


@pytest.mark.rule("GG-V.B")
def test_the_log_opens_naming_the_set_up_chosen(gazala: Scenario) -> None:
    """Both players read from the first line whether the Allies set up face down (GG-V.B) or as history had them."""
    for options, words in (([], "historical"), (["nonhistorical"], "nonhistorical")):
        first = Game(gazala, seed=4, options=options).state.entries[0]
        assert first.text == f"Turn 1. {gazala.title}: {words} set-up." and first.private == ()


@pytest.mark.rule("GG-V.B.1")
def test_allied_set_up_face_down_with_two_dummies(gazala: Scenario) -> None:
    game = nonhistorical(gazala)
    d = game.decision
    assert d is not None and d.side is ALLIED and d.phase == "allied-setup"
    # every counter of the set-up face down in a pool off the map; the reinforcement arrives later (GG-VII.B)
    setup = [u for u in game.units_of(ALLIED) if not family_defs(game)[u].is_air and u not in gazala.reinforcements]
    assert setup and all(family_unit(game, u).hidden and family_unit(game, u).hex is None for u in setup)
    assert "1ArmdBde" in gazala.reinforcements and not family_unit(game, "1ArmdBde").hidden
    assert EndPhase() not in game.legal_orders()  # the dummies are not placed yet
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("1SA", H("C4")))  # west of the line
    assert err.value.clause == "GG-V.B.1"
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("7MotBde", H("N7")))  # south of the line, column 7: outside columns 8-18
    assert err.value.clause == "GG-V.B.1"
    game.play(Place("7MotBde", H("N12")))  # south of the line, columns 8-18
    game.play(Place("Dummy1", H("N12")))  # with a real unit set up there
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())  # Dummy2 is not placed
    assert err.value.clause == "GG-V.B.1" and "Dummy2" in err.value.reason
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("Dummy2", H("H12")))  # alone, no box
    assert err.value.clause == "GG-V.B.1"
    game.play(Place("Dummy2", H("E6")))  # a box
    game.play(EndPhase())
    assert game.decision is not None and game.decision.phase == "axis-setup"


@pytest.mark.rule("GG-V.B.3")
def test_axis_sets_up_every_unit_in_its_zone(gazala: Scenario) -> None:
    game = nonhistorical(gazala)
    place_dummies(game)
    game.play(EndPhase())
    game.play(Place("Brescia", H("K2")))  # the infantry too, not only the mobile units
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("Pavia", H("K8")))  # south of the line but east of column 6
    assert err.value.clause == "GG-V.B.3" and "set-up zone 'axis-free-setup'" in err.value.reason


def test_axis_view_holds_nothing_of_the_face_down_units(gazala: Scenario) -> None:
    game = nonhistorical(gazala)
    place_dummies(game)
    game.play(EndPhase())
    text = json.dumps(view(game, AXIS))
    for uid in game.units_of(ALLIED):
        d = family_defs(game)[uid]
        if d.is_air or uid in gazala.reinforcements:
            continue  # (the reinforcement is off the map, face up, until it arrives)
        assert f'"{uid}"' not in text and f'"{d.name}"' not in text, uid
    assert "Dummy" not in text and "dummy" not in text and "South African" not in text
    hidden = [u for u in view(game, AXIS)["units"] if u.get("hidden")]
    assert {tuple(sorted(u)) for u in hidden} == {("anon", "hex", "hidden", "side")}
    assert {u["hex"] for u in hidden} >= {"C5", "E6"}
    # the Allied view shows everything
    assert '"Dummy1"' in json.dumps(view(game, ALLIED))


@pytest.mark.rule("GG-V.B.2")
def test_activation_reveals_any_number_at_any_time(gazala: Scenario) -> None:
    game = nonhistorical(gazala)
    place_dummies(game)
    game.play(EndPhase())
    game = jump_to(game, "allied-movement")
    for uid in ("1SA", "50Div", "1FF", "7MotBde"):  # more than 2: no limit in this option
        game.play(Activate(uid))
        assert family_unit(game, uid).activated and not family_unit(game, uid).hidden
    assert not game.can_undo()  # a reveal
    assert '"1SA"' in json.dumps(view(game, AXIS))


@pytest.mark.rule("GG-V.B.2")
def test_attacking_a_dummy_turns_it_up_and_removes_it(gazala: Scenario) -> None:
    game = nonhistorical(gazala)
    game.play(Place("Dummy1", H("E6")))  # alone in a box
    game.play(Place("Dummy2", H("C5")))
    game.play(EndPhase())
    game.play(Place("15Pz", H("E5")))  # next to E6
    game = jump_to(game, "axis-attacks")
    assert Target(H("E6")) in game.legal_orders()
    game.play(Attack((H("E6"),), ("15Pz",)))
    game.play(Resolve(1))
    assert family_unit(game, "Dummy1").eliminated and family_unit(game, "Dummy1").hex is None
    assert family_unit(game, "15Pz").attacked and game.dice.log == []  # called off: nothing was there


@pytest.mark.rule("GG-XIV.B.6")
def test_siege_of_tobruk(gazala: Scenario) -> None:
    game = Game(gazala)
    family_unit(game, "15Pz").hex = H("E12")  # an Axis unit within reach of Tobruk
    game.play(EndPhase())  # end of the Axis set-up: the siege comes before the Axis player-turn
    d = game.decision
    assert d is not None and d.side is ALLIED and d.phase == "allied-siege"
    game.play(Place("Dummy1", H("D12")))
    game.play(Place("Dummy2", H("C12")))
    game.play(Place("2SA", H("D13")))
    assert all(family_unit(game, u).hidden for u in ("Dummy1", "Dummy2", "2SA"))
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("2SA", H("E13")))  # outside the perimeter
    assert err.value.clause == "GG-XIV.B.6"
    game.play(EndPhase())
    axis_view = json.dumps(view(game, AXIS))
    assert '"2SA"' not in axis_view and "Dummy" not in axis_view
    # once Axis units are inside the perimeter the ability is gone for good
    family_unit(game, "21Pz").hex = H("C12")
    from tobruk.systems.gazala import hidden as hd

    hd.note_siege_lost(game)
    assert not hd.siege_available(game) and gazala_vars(game).siege_lost


@pytest.mark.rule("GG-XIV.B.6")
@pytest.mark.rule("GG-XII.A.2")
def test_the_siege_redeploys_no_counter_over_the_stacking_limit(gazala: Scenario) -> None:
    """Three units in D12 (the limit): no fourth unit is offered a redeployment there, a dummy (which counts for
    nothing) is, and so is D13 with room left.  A dummy back inside the perimeter is redeployed again, one left
    outside it is not."""
    game = Game(gazala)
    family_unit(game, "15Pz").hex = H("E12")  # an Axis unit within reach of Tobruk
    for uid in ("201Gds", "2ArmdBde", "22ArmdBde"):  # subdivisional units: 3 in D12
        family_unit(game, uid).hex = H("D12")
    family_unit(game, "Dummy1").hex, family_unit(game, "Dummy2").hex = H("C13"), H("C5")
    game.forget_caches()
    game.play(EndPhase())
    assert game.decision is not None and game.decision.phase == "allied-siege"
    offered = set(game.legal_orders())
    assert Place("2SA", H("D12")) not in offered and Place("201Gds", H("D13")) in offered and Place("2SA", H("C12")) in offered
    assert Place("Dummy1", H("D12")) in offered and not any(isinstance(a, Place) and a.unit == "Dummy2" for a in offered)
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("2SA", H("D12")))
    assert err.value.clause == "GG-XIV.B.6"


def test_an_attack_on_face_down_units_may_be_declared_at_any_odds(gazala: Scenario) -> None:
    game = nonhistorical(gazala)
    place_dummies(game)
    game.play(EndPhase())
    game.play(Place("15MotBde", H("B4")))  # next to 1SA's box at C5 (face down), with its 1 attack factor
    game = jump_to(game, "axis-attacks")
    weak = Attack((H("C5"),), ("15MotBde",))
    assert weak in family_system(game).suggestions(game, AXIS)  # the odds cannot be known
    game.play(Target(H("C5")))
    game.play(Add("15MotBde"))
    assert Declare() in game.legal_orders()
    game.play(Declare())
    assert "odds unknown" in game.state.log[-1]
    game.play(Resolve(1))  # turned up: 1 against 1SA in its box is below 1:4, so it is called off
    assert not family_unit(game, "1SA").hidden and family_unit(game, "15MotBde").attacked and game.dice.log == []
    assert "called off" in game.state.log[-1]


def test_the_log_never_names_a_face_down_unit(gazala: Scenario) -> None:
    game = nonhistorical(gazala)
    game.play(Place("7MotBde", H("N18") if H("N18") in gazala.map else H("M18")))  # far from any Allied line
    place_dummies(game)
    game.play(EndPhase())
    game.play(EndPhase())
    while game.turn == 1 and game.decision is not None:
        game.play(EndPhase())
    assert family_unit(game, "7MotBde").hidden
    log = "\n".join(view(game, AXIS)["log"])
    assert "supply" in log and "7MotBde" not in log and "7th Motor" not in log


@pytest.mark.rule("GG-IX.B")
def test_a_face_down_unit_that_must_retreat_turns_up(gazala: Scenario) -> None:
    game = Game(gazala)
    game.play(EndPhase())  # the Axis set-up
    game = jump_to(game, "allied-attacks")
    family_unit(game, "2SA").hidden = family_unit(game, "2SA").disrupted = True  # (a garrison face down after a siege)
    family_unit(game, "15Pz").hex = H("C12")  # an undisrupted Axis unit next to it that nobody attacked
    game.play(EndPhase())
    assert not family_unit(game, "2SA").hidden
    assert "It must retreat (GG-IX.B): the unit in C13 is 2SA (2nd South African Division, 3-4-2)." in game.state.log
    d = game.decision
    assert d is not None and d.side is AXIS and "2SA" in d.prompt  # the Axis sets the distance
