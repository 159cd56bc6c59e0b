"""Reinforcements and replacements through the game (CA-R.1-5 at CA-Q.1-2 step 1): one unit of the owner's choice a
player-turn, entering on its side's coastal-road edge hex, refused with the clause that keeps it out."""

from __future__ import annotations

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.systems.campaign import live
from tobruk.systems.campaign import start_of_turn as st
from tobruk.systems.campaign.state import campaign_vars

from .kit import arrange, lines_since, new_game, past_set_up, to_step, unit

EAST_SHEET_ALLIED_ENTRY = "O53"  # Gazala's section (the centre sheet): the east end of its coastal road


def entries(game: Game) -> list[str]:
    """The entries listed now (the step lists the fortifications to build besides, CA-F.1)."""
    return [a for a in game.legal_notation() if a.startswith("enter ")]


def refused(game: Game, order: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


def eliminate(game: Game, *ids: str) -> None:
    for uid in ids:
        c = unit(game, uid)
        c.hex = None
        c.eliminated = True


@pytest.mark.rule("CA-R.1")
@pytest.mark.rule("CA-R.4")
def test_gazalas_1st_armoured_brigade_enters_when_due_and_not_before() -> None:
    game = to_step(new_game("na-gazala"), "allied-reinforcements")  # II May 42; the track has it from II Jun 42
    assert entries(game) == []
    assert refused(game, "enter 1ArmBde O53 Grant").clause == "CA-R.1"
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # I Jun 42: still not due
    assert game.scenario.turn_name(game.turn) == "I Jun 42"
    assert refused(game, "enter 1ArmBde O53 Grant").clause == "CA-R.1"
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # II Jun 42
    # an armour brigade with any tank type the track has introduced by then (Sherman only from II Sep 42)
    types = ("A13", "Matilda", "Crusader-I", "Stuart", "Valentine", "Grant")
    assert entries(game) == [f"enter 1ArmBde {EAST_SHEET_ALLIED_ENTRY} {t}" for t in types]
    assert refused(game, "enter 1ArmBde O53 Sherman").clause == "CA-R.4"
    assert refused(game, "enter 1ArmBde O52 Grant").clause == "CA-R.4"  # not the entry hex
    n = len(game.state.entries)
    game.play("enter 1ArmBde O53 Grant")
    c = unit(game, "1ArmBde")
    assert c.hex is not None and c.hex.label == EAST_SHEET_ALLIED_ENTRY and not c.disrupted
    assert "Allied: 1ArmBde enters at O53 as the player-turn's reinforcement with Grants (CA-R.4)." in lines_since(game, n)
    assert entries(game) == []  # one a player-turn
    assert live.position(game).unit("1ArmBde").unit.tank == "Grant"
    game.pop()  # undone: back off the map
    assert unit(game, "1ArmBde").hex is None and campaign_vars(game).waiting == {"1ArmBde": "II Jun 42"}


@pytest.mark.rule("CA-R.4")
def test_one_reinforcement_or_replacement_a_player_turn() -> None:
    game = new_game("na-gazala")
    eliminate(game, "50Div", "5IndDiv")  # British and Indian: replaceable (CA-R.2)
    to_step(game, "allied-reinforcements")
    assert entries(game) == ["enter 50Div O53", "enter 5IndDiv O53"]
    game.play("enter 5IndDiv O53")
    assert game.step.key == "allied-reinforcements"
    assert entries(game) == []
    e = refused(game, "enter 50Div O53")
    assert e.clause == "CA-R.4" and "one reinforcement or replacement a player-turn" in e.reason
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # the next player-turn: one more
    assert entries(game) == ["enter 50Div O53"]


@pytest.mark.rule("CA-R.2")
def test_an_eliminated_south_african_division_never_comes_back() -> None:
    game = new_game("na-gazala")
    eliminate(game, "1SADiv")
    to_step(game, "allied-reinforcements")
    assert refused(game, "enter 1SADiv O53").clause == "CA-R.2"


@pytest.mark.rule("CA-R.4")
@pytest.mark.parametrize(
    ("name", "turns", "when", "allowed"),
    [("na-alam-halfa", 2, "I Oct 42", True), ("na-alamein", 0, "II Oct 42", False), ("na-alamein", 1, "I Nov 42", False)],
)
def test_the_axis_last_replacement_is_on_i_oct_42(name: str, turns: int, when: str, allowed: bool) -> None:
    game = past_set_up(new_game(name))
    assert game.step.key == "axis-reinforcements"  # asked: a fort may be built
    eliminate(game, "90Lt")
    for _ in range(turns):
        to_step(game, "axis-early-attacks")
        game.play("end-phase")
        to_step(game, "axis-reinforcements")
    assert game.scenario.turn_name(game.turn) == when
    entry = st.entry_hex(game, Side.AXIS)
    order = f"enter 90Lt {game.scenario.map.hexes[entry]}"
    if allowed:
        game.play(order)
        assert unit(game, "90Lt").hex == game.scenario.map.hexes[entry]
    else:
        e = refused(game, order)
        assert e.clause == "CA-R.4" and "II Oct 42" in e.reason


@pytest.mark.rule("CA-R.3")
@pytest.mark.rule("CA-R.5")
@pytest.mark.parametrize(("to", "within"), [("V70", True), ("W71", True), ("V69", False), ("W70", False)])
def test_an_axis_move_within_5_hexes_of_el_alamein_activates_the_alamein_level(to: str, within: bool) -> None:
    game = arrange(new_game("na-mersa-matruh"), {"21Pz": "V67", "1SADiv": "V79"})
    assert not campaign_vars(game).alamein
    to_step(game, "axis-movement")
    n = len(game.state.entries)
    game.play(f"move 21Pz {to}")  # 5 hexes from V75 (El Alamein), or 6
    assert campaign_vars(game).alamein is within
    assert any("Allied Alamein Force Level" in line for line in lines_since(game, n)) is within
    game.play("end-phase")
    assert campaign_vars(game).alamein is within  # for the rest of the game
