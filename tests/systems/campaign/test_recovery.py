"""Recovery from disruption and the Newly Disrupted marker (CA-G.17, CA-Q.1-3, CA-P.2) at the steps of the
sequence that say so, on the real map with the other units off it (so every unit arranged here is in supply
unless a test cuts its line)."""

from __future__ import annotations

import pytest

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import live, recovery
from tobruk.systems.campaign.actions import Allocate

from .kit import H, arrange, new_game, to_step, unit


def at(step: str, placed: dict[str, str], name: str = "na-gazala", **statuses: tuple[str, ...]) -> Game:
    return arrange(to_step(new_game(name), step), placed, **statuses)


def disrupted(game: Game, *ids: str) -> list[bool]:
    return [unit(game, u).disrupted for u in ids]


@pytest.mark.rule("CA-G.17")
@pytest.mark.rule("CA-Q.1")
def test_allied_units_recover_at_the_start_of_the_axis_movement_and_combat_unless_newly_disrupted() -> None:
    game = at("axis-movement", {"1FFBde": "V34", "GdsBde": "V36", "90Lt": "T28"}, disrupted=("1FFBde", "GdsBde"))
    unit(game, "GdsBde").newly_disrupted = True
    game.play(EndPhase())  # step 4, then step 5 takes the Allied markers off
    assert disrupted(game, "1FFBde", "GdsBde") == [False, True]
    assert not unit(game, "GdsBde").newly_disrupted


@pytest.mark.rule("CA-G.17")
def test_a_unit_being_attacked_does_not_recover() -> None:
    game = at("axis-movement", {"1FFBde": "V34", "GdsBde": "V36", "Trieste": "V35"}, disrupted=("1FFBde", "GdsBde"))
    game.play(Allocate("Trieste", H("V34")))
    assert recovery.recover_unattacked(game, game.step.side) == ["GdsBde"]  # type: ignore[arg-type]
    assert disrupted(game, "1FFBde", "GdsBde") == [True, False]


@pytest.mark.rule("CA-P.2")
def test_a_unit_out_of_supply_does_not_recover() -> None:
    # Crusader's Tobruk garrison is out of supply (docs/rulings.md); the unit outside it is in supply
    game = to_step(new_game("na-crusader"), "axis-movement")
    for uid in ("44Div", "1PolBde", "NZDiv"):
        unit(game, uid).disrupted = True
    assert [live.supplied(game, u) for u in ("44Div", "1PolBde", "NZDiv")] == [False, False, True]
    game.play(EndPhase())
    assert disrupted(game, "44Div", "1PolBde", "NZDiv") == [True, True, False]


@pytest.mark.rule("CA-G.17")
@pytest.mark.rule("CA-Q.1")
def test_german_units_recover_at_the_end_of_the_axis_player_turn_or_lose_the_marker() -> None:
    placed = {"90Lt": "V30", "15MotBde": "V32", "Trieste": "V34", "1FFBde": "P50"}
    game = at("axis-breakthrough", placed, disrupted=("90Lt", "15MotBde", "Trieste"))
    unit(game, "15MotBde").newly_disrupted = True
    unit(game, "Trieste").newly_disrupted = True
    n = len(game.state.entries)
    game.play(EndPhase())  # the breakthrough ends; steps 7-9 run by themselves
    assert game.step.key == "allied-reinforcements"  # the next decision (the 1st Armd Bde waits, CA-R.4)
    assert disrupted(game, "90Lt", "15MotBde", "Trieste") == [False, True, True]  # Italians do not recover here
    assert not unit(game, "15MotBde").newly_disrupted and not unit(game, "Trieste").newly_disrupted
    assert "Recovered from disruption (German units, CA-G.17): 90Lt." in [e.text for e in game.state.entries[n:]]


@pytest.mark.rule("CA-G.17")
@pytest.mark.rule("CA-Q.2")
def test_italian_units_recover_at_the_start_of_the_allied_movement_and_combat() -> None:
    placed = {"Trieste": "V30", "Ariete": "V32", "90Lt": "V34", "1FFBde": "P50"}
    game = at("allied-movement", placed, disrupted=("Trieste", "Ariete", "90Lt"))
    unit(game, "Ariete").newly_disrupted = True
    game.play(EndPhase())
    # Trieste recovers; Ariete keeps its disruption (its marker comes off in step 5); 90Lt is German
    assert disrupted(game, "Trieste", "Ariete", "90Lt") == [False, True, True]
    assert not unit(game, "Ariete").newly_disrupted


@pytest.mark.rule("CA-Q.3")
def test_the_newly_disrupted_marker_disrupts_and_comes_off_leaving_the_unit_disrupted() -> None:
    game = at("axis-movement", {"1FFBde": "V34"})
    recovery.mark_newly_disrupted(game, ["1FFBde"])
    assert unit(game, "1FFBde").disrupted and unit(game, "1FFBde").newly_disrupted
    assert recovery.remove_markers(game, game.step.side.enemy) == ["1FFBde"]  # type: ignore[union-attr]
    assert unit(game, "1FFBde").disrupted and not unit(game, "1FFBde").newly_disrupted


@pytest.mark.rule("CA-G.17")
def test_an_attacked_unit_not_disrupted_again_recovers_after_the_attack() -> None:
    game = at("axis-movement", {"1FFBde": "V34", "GdsBde": "V36"}, disrupted=("1FFBde", "GdsBde"))
    unit(game, "GdsBde").newly_disrupted = True
    n = len(game.state.entries)
    assert recovery.recover_after_attack(game, ["1FFBde", "GdsBde"]) == ["1FFBde"]
    said = [(e.text, e.kind) for e in game.state.entries[n:]]
    assert said == [("Recovered from disruption (attacked but not disrupted again, CA-G.17): 1FFBde.", "event")]


def entries_since(game: Game, n: int) -> list[tuple[str, str]]:
    return [(e.text, e.kind) for e in game.state.entries[n:]]


@pytest.mark.rule("CA-G.17")
def test_in_the_axis_player_turn_only_allied_units_recover_and_the_log_names_each_with_why() -> None:
    game = at("axis-movement", {"1FFBde": "V34", "GdsBde": "V36", "90Lt": "T28"}, disrupted=("1FFBde", "GdsBde", "90Lt"))
    n = len(game.state.entries)
    assert recovery.recover_unattacked(game, Side.AXIS) == ["GdsBde", "1FFBde"]
    assert disrupted(game, "90Lt") == [True]  # the Axis' own recover at step 9, not here
    assert entries_since(game, n) == [("Recovered from disruption (Allied units not being attacked, CA-G.17): GdsBde, 1FFBde.", "event")]


@pytest.mark.rule("CA-G.17")
def test_in_the_allied_player_turn_the_italian_units_recover_and_the_log_says_why() -> None:
    game = at("allied-movement", {"Trieste": "V34", "1FFBde": "P50"}, disrupted=("Trieste",))
    n = len(game.state.entries)
    assert recovery.recover_unattacked(game, Side.ALLIED) == ["Trieste"]
    assert entries_since(game, n) == [("Recovered from disruption (Italian units not being attacked, CA-G.17): Trieste.", "event")]


@pytest.mark.rule("CA-P.2")
def test_a_unit_kept_disrupted_for_want_of_supply_is_a_supply_line() -> None:
    game = new_game("na-crusader")
    unit(game, "44Div").disrupted = True
    n = len(game.state.entries)
    assert recovery.recover_after_attack(game, ["44Div"]) == []
    assert entries_since(game, n) == [("44Div is out of supply and stays disrupted (CA-P.2).", "supply")]


@pytest.mark.rule("CA-Q.3")
def test_the_markers_taken_off_are_one_event_naming_each_unit() -> None:
    game = at("axis-movement", {"90Lt": "V30", "Trieste": "V34"}, disrupted=("90Lt", "Trieste"), newly_disrupted=("90Lt", "Trieste"))
    n = len(game.state.entries)
    assert recovery.remove_markers(game, Side.AXIS) == ["Trieste", "90Lt"]  # in the order of battle's order
    assert entries_since(game, n) == [("Newly Disrupted markers removed (the units stay disrupted): Trieste, 90Lt.", "event")]
    assert disrupted(game, "Trieste", "90Lt") == [True, True]
