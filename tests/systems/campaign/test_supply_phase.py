"""The supply status determination at its step (CA-P.3, CA-Q.1 step 8, CA-Q.2 step 7), and the Tobruk garrison
without supply by sea (docs/rulings.md)."""

from __future__ import annotations

import pytest

from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import live, supply_phase
from tobruk.systems.campaign.state import campaign_vars

from .kit import arrange, lines_since, new_game, to_step, unit

GARRISON = ("44Div", "1PolBde", "32TkBde")


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-SC.4")
def test_crusaders_tobruk_garrison_starts_out_of_supply_for_the_rules_give_no_supply_by_sea() -> None:
    game = new_game("na-crusader")
    status = live.lines(game, game.defs["44Div"].side)
    for uid in GARRISON:
        assert not status.supplied(unit(game, uid).hex_index)
    assert status.supplied(unit(game, "NZDiv").hex_index)  # east of the front: a line to the east coastal road
    why = status.status({"44Div": unit(game, "44Div").hex_index})["44Div"]
    assert why.clause == "CA-P.1" and "coastal-road hex on the east edge" in why.reason


@pytest.mark.rule("CA-P.3")
@pytest.mark.rule("CA-Q.2")
def test_at_the_allied_supply_determination_unsupplied_units_are_disrupted_and_disrupted_ones_eliminated() -> None:
    game = to_step(new_game("na-crusader"), "allied-breakthrough")
    unit(game, "1PolBde").disrupted = True
    unit(game, "NZDiv").disrupted = True
    n = len(game.state.entries)
    game.play(EndPhase())  # the breakthrough's combat, then the supply determination
    assert unit(game, "1PolBde").eliminated and unit(game, "1PolBde").hex is None
    assert unit(game, "44Div").disrupted and unit(game, "44Div").out_of_supply and not unit(game, "44Div").eliminated
    assert unit(game, "NZDiv").disrupted and not unit(game, "NZDiv").eliminated  # in supply: untouched
    assert not unit(game, "4IndDiv").disrupted and not unit(game, "4IndDiv").out_of_supply
    lines = lines_since(game, n)
    assert any(line.startswith("1PolBde is out of supply and already disrupted: eliminated (CA-P.3; [CA-P.1]") for line in lines)
    assert any(line.startswith("44Div is out of supply: disrupted (CA-P.3; [CA-P.1]") for line in lines)


@pytest.mark.rule("CA-P.3")
@pytest.mark.rule("CA-Q.1")
def test_the_axis_supply_determination_is_for_axis_units_only() -> None:
    game = to_step(new_game("na-crusader"), "axis-movement")  # the garrison, disrupted in II Nov 41, is not touched
    assert all(unit(game, u).disrupted and not unit(game, u).eliminated for u in GARRISON)
    n = len(game.state.entries)
    while game.step.key != "allied-early-attacks":
        game.play(EndPhase())
    assert all(not unit(game, u).eliminated for u in GARRISON)
    assert "Axis supply determination: every unit is in supply." in lines_since(game, n)


@pytest.mark.rule("CA-P.3")
@pytest.mark.rule("CA-F.4")
def test_a_cut_off_garrison_each_unit_disrupted_or_eliminated_the_dummy_removed() -> None:
    game = new_game("na-crusader")
    unit(game, "GdsBde").hex = unit(game, "1PolBde").hex  # listed after the dummy: still determined
    unit(game, "1PolBde").disrupted = True
    n = len(game.state.entries)
    supply_phase.determination(game, Side.ALLIED)
    for uid in ("44Div", "32TkBde", "GdsBde"):
        assert unit(game, uid).disrupted and unit(game, uid).out_of_supply, uid
    pol = unit(game, "1PolBde")
    assert pol.eliminated and not (pol.disrupted or pol.newly_disrupted or pol.out_of_supply)  # gone: no markers
    dummy = unit(game, "TobrukDummy")
    assert dummy.hex is None and not dummy.out_of_supply
    lines = [(e.text, e.kind) for e in game.state.entries[n:]]
    assert ("The face-down counter in J39 is revealed (disrupted): 44Div.", "event") in lines
    kinds = {text.split(" ", 1)[0] + (" gone" if "eliminated" in text else ""): kind for text, kind in lines if "out of supply" in text}
    assert kinds == {"44Div": "supply", "32TkBde": "supply", "GdsBde": "supply", "1PolBde gone": "loss"}


@pytest.mark.rule("CA-P.3")
def test_a_side_wholly_in_supply_is_told_so_as_a_supply_line() -> None:
    game = new_game("na-crusader")
    n = len(game.state.entries)
    supply_phase.determination(game, Side.AXIS)
    assert [(e.text, e.kind) for e in game.state.entries[n:]] == [("Axis supply determination: every unit is in supply.", "supply")]


@pytest.mark.rule("CA-P.1")
def test_each_side_traces_its_own_lines() -> None:
    game = new_game("na-crusader")
    axis_hex = unit(game, "90Lt").hex_index
    assert live.lines(game, Side.AXIS).supplied(axis_hex)
    assert not live.lines(game, Side.ALLIED).supplied(axis_hex)  # an Axis unit's hex is no Allied line's


@pytest.mark.rule("CA-P.1")
@pytest.mark.rule("CA-F.3")
def test_an_empty_enemy_fort_on_the_supply_source_cuts_the_line_and_an_own_fort_does_not() -> None:
    game = arrange(new_game("na-gazala"), {"50Div": "P52"})
    assert live.supplied(game, "50Div")
    campaign_vars(game).forts = {"O53": "allied"}  # the Allied source, the east end of the coastal road
    assert live.supplied(game, "50Div")
    campaign_vars(game).forts = {"O53": "axis"}
    assert not live.supplied(game, "50Div")
