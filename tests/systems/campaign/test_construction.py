"""Fort and box construction and destruction through the game (CA-F.1, CA-F.2 at CA-Q.1-2 step 1 and the supply
phase): one a game-turn per side, nearer a friendly unit than an enemy one, none after combat or where the
scenario says "No forts"; destroyed by an undisrupted enemy infantry-type unit in the owner's supply phase."""

from __future__ import annotations

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import live
from tobruk.systems.campaign import start_of_turn as st
from tobruk.systems.campaign.actions import Build
from tobruk.systems.campaign.state import campaign_vars

from .kit import H, arrange, lines_since, new_game, past_set_up, to_step

# Axis at V30 and V34, Allies at P50 and P52: R41 is 9 hexes from V34 and 10 from P50; R42 10 and 9
PLACED = {"90Lt": "V30", "Trieste": "V34", "1FFBde": "P50", "50Div": "P52"}


def refused(game: Game, order: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


def gazala() -> Game:
    game = arrange(past_set_up(new_game("na-gazala")), PLACED)
    assert game.step.key == "axis-reinforcements"
    return game


def fort_at(game: Game, label: str) -> str | None:
    return campaign_vars(game).forts.get(label)


@pytest.mark.rule("CA-F.1")
def test_a_fort_is_built_nearer_a_friendly_unit_than_an_enemy_one() -> None:
    game = gazala()
    assert (H("R41").distance(H("V34")), H("R41").distance(H("P50"))) == (9, 10)
    assert (H("R42").distance(H("V34")), H("R42").distance(H("P50"))) == (10, 9)
    assert "build R41" in game.legal_notation() and "build R42" not in game.legal_notation()
    assert refused(game, "build R42").clause == "CA-F.1"
    n = len(game.state.entries)
    game.play("build R41")
    assert fort_at(game, "R41") == "axis"
    assert "Axis: a fort is built at R41 (CA-F.1)." in lines_since(game, n)
    assert live.position(game).forts[game.scenario.map.index[H("R41")]] is Side.AXIS  # the rules read it


@pytest.mark.rule("CA-F.1")
def test_one_fort_a_game_turn() -> None:
    game = gazala()
    game.play("build V31")
    assert not [a for a in game.legal_notation() if a.startswith("build ")]
    e = refused(game, "build V29")
    assert e.clause == "CA-F.1" and "one fort this turn" in e.reason
    game.play(EndPhase())
    while not (game.turn == 2 and game.step.key == "axis-reinforcements"):
        game.play(EndPhase())
    game.play("build V29")  # the next game-turn: one more
    assert fort_at(game, "V29") == "axis" and fort_at(game, "V31") == "axis"


@pytest.mark.rule("CA-F.1")
def test_no_box_after_combat_in_the_previous_player_turn_and_a_fort_again_after_two() -> None:
    game = to_step(gazala(), "axis-movement")
    campaign_vars(game).fought = ("axis",)  # an attack resolved in this Axis player-turn
    to_step(game, "allied-reinforcements")  # asked: the 1st Armoured Brigade waits
    assert not [a for a in game.legal_notation() if a.startswith("build ")]
    e = refused(game, "build P51")
    assert e.clause == "CA-F.1" and "after combat" in e.reason
    game.play(EndPhase())
    to_step(game, "axis-reinforcements")  # the combat was two player-turns ago
    assert "build V31" in game.legal_notation()


@pytest.mark.rule("CA-F.1")
@pytest.mark.rule("CA-SC.2")
def test_el_agheila_ii_has_no_axis_forts() -> None:
    game = new_game("na-el-agheila-2")  # "No forts" for the Axis
    assert not st.may_build(game, Side.AXIS) and st.may_build(game, Side.ALLIED)
    with pytest.raises(IllegalOrderError) as e:
        st.build(game, Side.AXIS, Build(H("V31")))
    assert e.value.clause == "CA-SC.2"
    game = to_step(game, "allied-reinforcements")
    assert [a for a in game.legal_notation() if a.startswith("build ")]  # the Allies may


@pytest.mark.rule("CA-F.2")
def test_the_owner_removes_his_own_fort_and_not_the_enemys() -> None:
    game = gazala()
    campaign_vars(game).forts = {"V31": "axis", "P51": "allied"}
    assert "remove V31" in game.legal_notation() and "remove P51" not in game.legal_notation()
    assert refused(game, "remove P51").clause == "CA-F.2"
    game.play("remove V31")
    assert fort_at(game, "V31") is None and fort_at(game, "P51") == "allied"


@pytest.mark.rule("CA-F.2")
@pytest.mark.parametrize(
    ("on_it", "disrupted", "gone"),
    [("Trieste", False, True), ("Trieste", True, False), ("21Pz", False, True), ("8PzRgt", False, False)],
)
def test_a_box_is_destroyed_in_its_owners_supply_phase_by_undisrupted_enemy_infantry(on_it: str, disrupted: bool, gone: bool) -> None:
    game = to_step(new_game("na-gazala"), "allied-early-attacks")  # after the Axis supply phase
    arrange(game, {on_it: "P51", "1FFBde": "P50", "50Div": "V31"}, disrupted=(on_it,) if disrupted else ())
    campaign_vars(game).forts = {"P51": "allied", "V31": "axis"}
    n = len(game.state.entries)
    while game.step.key != "axis-reinforcements":
        game.play(EndPhase())
    assert (fort_at(game, "P51") is None) is gone
    assert any("box at P51 is destroyed" in line for line in lines_since(game, n)) is gone
    assert fort_at(game, "V31") == "axis"  # the Allies' supply phase destroys no Axis fort


@pytest.mark.rule("CA-F.11")
def test_no_fort_off_the_map() -> None:
    game = gazala()
    before = dict(campaign_vars(game).forts)
    with pytest.raises(IllegalOrderError) as e:
        st.build(game, Side.AXIS, Build(H("ZZ99")))  # (the notation refuses such a hex before the rules see it)
    assert (e.value.clause, e.value.reason) == ("CA-F.11", "ZZ99 is not on the map")
    assert campaign_vars(game).forts == before and st.may_build(game, Side.AXIS)
