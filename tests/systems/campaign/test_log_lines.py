"""The campaign's log lines that the game log form sorts by kind (move, event): an attack allocated, a face-down
attacker turned up, Newly Disrupted markers placed, the end of the game.  Each is checked word for word, with the
kind it is filed under (the form's columns and the page's filters read the kind)."""

from __future__ import annotations

import pytest

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import recovery
from tobruk.systems.campaign import start_of_turn as st
from tobruk.systems.campaign.actions import Allocate
from tobruk.systems.campaign.state import campaign_vars

from .kit import SYSTEM, H, arrange, new_game, past_set_up, to_step, unit


def entries_since(game: Game, n: int) -> list[tuple[str, str]]:
    return [(e.text, e.kind) for e in game.state.entries[n:]]


@pytest.mark.rule("CA-F.4")
@pytest.mark.rule("CA-G.12")
def test_a_face_down_unit_allocated_to_attack_is_turned_up_then_allocated() -> None:
    game = to_step(new_game("na-gazala"), "allied-movement")
    arrange(game, {"2SADiv": "V34", "90Lt": "V35"})
    unit(game, "2SADiv").hidden = True  # (the garrison starts face down inside the perimeter)
    n = len(game.state.entries)
    game.play(Allocate("2SADiv", H("V35")))
    assert entries_since(game, n) == [
        ("The face-down counter in V34 is revealed (it attacks): 2SADiv.", "event"),
        ("Allied: 2SADiv is allocated to attack V35.", "move"),
    ]
    assert not unit(game, "2SADiv").hidden and unit(game, "2SADiv").attacking and unit(game, "90Lt").targeted


@pytest.mark.rule("CA-Q.3")
def test_newly_disrupted_markers_are_logged_as_one_event_naming_the_units_in_order() -> None:
    game = to_step(new_game("na-gazala"), "axis-movement")
    arrange(game, {"90Lt": "V30", "Trieste": "U34", "1FFBde": "V36"})
    n = len(game.state.entries)
    recovery.mark_newly_disrupted(game, ["1FFBde", "90Lt"])
    assert entries_since(game, n) == [("Newly Disrupted: 1FFBde, 90Lt.", "event")]
    assert unit(game, "90Lt").newly_disrupted and unit(game, "1FFBde").disrupted


@pytest.mark.rule("CA-F.4")
@pytest.mark.rule("CA-Q.3")
def test_the_face_down_dummy_disrupted_leaves_the_map_and_the_units_after_it_still_take_their_markers() -> None:
    game = to_step(new_game("na-gazala"), "axis-movement")
    arrange(game, {"TobrukDummy": "J39", "90Lt": "V30", "1FFBde": "V36"})
    unit(game, "TobrukDummy").hidden = True  # (as it starts, inside the perimeter)
    n = len(game.state.entries)
    recovery.mark_newly_disrupted(game, ["TobrukDummy", "1FFBde", "90Lt"])
    assert entries_since(game, n) == [
        ("The face-down counter in J39 is revealed (disrupted): the Tobruk dummy, taken off the map.", "event"),
        ("Newly Disrupted: 1FFBde, 90Lt.", "event"),
    ]
    assert unit(game, "TobrukDummy").hex is None and not unit(game, "TobrukDummy").newly_disrupted
    assert unit(game, "1FFBde").newly_disrupted and unit(game, "90Lt").newly_disrupted


@pytest.mark.rule("CA-SC.5")
def test_the_game_ends_with_a_line_giving_the_last_determinations_finding() -> None:
    game = new_game("na-gazala")
    n = len(game.state.entries)
    game.system.end_game(game)  # before any determination: nothing judged yet, and the line says so
    assert entries_since(game, n) == [("End of the game: the victory condition is not judged.", "event")]
    game = to_step(new_game("na-gazala"), "allied-reinforcements")  # the Allied victory determination has run
    n = len(game.state.entries)
    game.system.end_game(game)
    # at the start the Axis holds neither Tobruk nor a supplied unit on the east edge (CA-SC.5)
    assert entries_since(game, n) == [("End of the game: the victory condition is not met.", "event")]


@pytest.mark.rule("CA-R.4")
@pytest.mark.rule("CA-F.1")
@pytest.mark.rule("CA-F.2")
def test_an_entry_a_fort_built_and_a_fort_removed_are_moves() -> None:
    game = new_game("na-gazala")
    c = unit(game, "90Lt")
    c.hex, c.eliminated = None, True  # a replacement for the Axis (CA-R.2)
    game = past_set_up(game)
    assert game.step.key == "axis-reinforcements"
    entry = game.scenario.map.hexes[st.entry_hex(game, Side.AXIS)]
    n = len(game.state.entries)
    game.play(f"enter 90Lt {entry}")
    game.play("build V31")
    game.play("remove V31")  # (the step has nothing more to ask: the next one begins)
    assert entries_since(game, n)[:3] == [
        (f"Axis: 90Lt enters at {entry} as the player-turn's replacement (CA-R.4).", "move"),
        ("Axis: a fort is built at V31 (CA-F.1).", "move"),
        ("Axis: the fort at V31 is removed (CA-F.2).", "move"),
    ]


@pytest.mark.rule("CA-R.3")
@pytest.mark.rule("CA-R.5")
def test_the_alamein_level_coming_into_force_is_one_event_naming_the_level_and_the_axis_additions() -> None:
    game = arrange(new_game("na-mersa-matruh"), {"21Pz": "V67", "1SADiv": "V79"})
    to_step(game, "axis-movement")
    n = len(game.state.entries)
    game.play("move 21Pz V70")  # 5 hexes from El Alamein (V75)
    assert entries_since(game, n)[-1] == (
        "An Axis unit is within 5 hexes of El Alamein: the Allied Alamein Force Level (18) holds for the rest of the game, "
        "and the Axis may bring in Littorio, Pistoia, Folgore, 164Div, Ramcke (CA-R.3, CA-R.5).",
        "event",
    )


@pytest.mark.rule("CA-F.2")
@pytest.mark.rule("CA-Q.1")
def test_a_box_destroyed_is_a_loss_and_a_player_turn_begins_with_a_note() -> None:
    game = to_step(new_game("na-gazala"), "allied-early-attacks")
    arrange(game, {"Trieste": "P51", "1FFBde": "P50", "50Div": "V31"})
    campaign_vars(game).forts = {"P51": "allied"}
    n = len(game.state.entries)
    while game.step.key != "axis-reinforcements":
        game.play(EndPhase())
    lines = entries_since(game, n)
    assert ("The Allied box at P51 is destroyed: an undisrupted enemy infantry-type unit holds it (CA-F.2).", "loss") in lines
    assert ("I Jun 42: Axis player-turn.", "note") in lines
    assert ("II May 42: Allied supply status determination.", "note") in lines  # each step's title


@pytest.mark.rule("CA-Q.3")
@pytest.mark.rule("CA-P.3")
def test_the_map_names_each_status_a_campaign_counter_carries() -> None:
    names = SYSTEM.rendering().status_names
    assert names == {"disrupted": "disrupted", "newly_disrupted": "Newly Disrupted", "out_of_supply": "out of supply"}
    c = unit(new_game("na-gazala"), "90Lt")
    for bit in names:  # each a status the counter has
        c.set_flag(bit, True)
        assert c.flag(bit)
