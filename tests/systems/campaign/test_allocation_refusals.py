"""Why a unit may not be allocated to an attack, each reason with its clause, in the three steps that allocate: the
attacks before movement (CA-Q.1-2 step 2), operational movement (step 3) and the breakthrough (step 6, CA-M.5).

On the Gazala map's row V (V30, V31, ... each next to the one before); 90th Light (a German motorized division) has
4 MF (CA-M.2), 2 in the breakthrough (CA-M.5: the basic MF less 2).
"""

from __future__ import annotations

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign.actions import Allocate

from .kit import H, arrange, new_game, to_step


def refused(game: Game, order: Allocate) -> str:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    assert game.state_hash() == before
    return f"[{e.value.clause}] {e.value.reason}"


def at(step: str, placed: dict[str, str], **statuses: tuple[str, ...]) -> Game:
    return arrange(to_step(new_game("na-gazala"), step), placed, **statuses)


@pytest.mark.rule("CA-G.12")
def test_only_ones_own_units_on_the_map_not_yet_allocated() -> None:
    game = at("axis-movement", {"90Lt": "V30", "1FFBde": "V31"})
    assert refused(game, Allocate("1FFBde", H("V30"))) == "[CA-G.12] '1FFBde' is not one of your units"
    assert refused(game, Allocate("Ariete", H("V31"))) == "[CA-G.12] Ariete is not on the map"
    game.play(Allocate("90Lt", H("V31")))
    assert refused(game, Allocate("90Lt", H("V31"))) == "[CA-G.12] 90Lt is already allocated to an attack"


@pytest.mark.rule("CA-G.15")
@pytest.mark.rule("CA-G.12")
def test_a_disrupted_unit_does_not_attack_and_the_target_is_an_adjacent_enemy_hex() -> None:
    game = at("axis-movement", {"90Lt": "V30", "Trieste": "U30", "1FFBde": "V32"}, disrupted=("Trieste",))
    assert refused(game, Allocate("Trieste", H("V31"))) == "[CA-G.15] Trieste is disrupted and may not attack"
    assert refused(game, Allocate("90Lt", H("V32"))) == "[CA-G.12] V32 is not a hex of enemy units next to 90Lt"
    assert refused(game, Allocate("90Lt", H("V31"))) == "[CA-G.12] V31 is not a hex of enemy units next to 90Lt"


@pytest.mark.rule("CA-Q.1")
@pytest.mark.rule("CA-Q.2")
def test_attacks_before_movement_are_by_units_that_have_not_moved() -> None:
    for side, step, mover, enemy in (
        ("Axis", "axis-early-attacks", "90Lt", "1FFBde"),
        ("Allied", "allied-early-attacks", "1FFBde", "90Lt"),
    ):
        game = at(step, {mover: "V30", enemy: "V31"}, moved=(mover,))
        clause = "CA-Q.1" if side == "Axis" else "CA-Q.2"
        assert refused(game, Allocate(mover, H("V31"))) == f"[{clause}] {mover} has moved: attacks before movement are by unmoved units"
        game = at(step, {mover: "V30", enemy: "V31"})
        game.play(Allocate(mover, H("V31")))  # unmoved: it may


@pytest.mark.rule("CA-Q.1")
@pytest.mark.rule("CA-Q.2")
def test_in_operational_movement_a_unit_moved_in_an_earlier_step_is_not_allocated() -> None:
    for step, mover, enemy, clause in (("axis-movement", "90Lt", "1FFBde", "CA-Q.1"), ("allied-movement", "1FFBde", "90Lt", "CA-Q.2")):
        game = at(step, {mover: "V30", enemy: "V31"}, moved=(mover,))
        assert refused(game, Allocate(mover, H("V31"))) == f"[{clause}] {mover} moved in an earlier step"


def breakthrough(start: str) -> Game:
    """The Axis breakthrough with 90th Light unmoved on ``start`` and 15th Motorized Brigade moved in step 3."""
    game = at("axis-movement", {"90Lt": start, "15MotBde": "T30", "1FFBde": "V34"})
    game.play(Move("15MotBde", (H("T31"),)))
    game.play(EndPhase())
    assert game.step.key == "axis-breakthrough"
    return game


@pytest.mark.rule("CA-M.5")
@pytest.mark.rule("CA-M.3")
def test_in_the_breakthrough_only_the_eligible_allocate_and_within_the_basic_mf_less_2() -> None:
    game = breakthrough("V31")
    assert refused(game, Allocate("15MotBde", H("T32"))) == (
        "[CA-M.5] 15MotBde moved or attacked before the breakthrough and takes no part in it"
    )
    game.play(Move("90Lt", (H("V31"), H("V32"), H("V33"))))  # 2 MF: the breakthrough's basic MF (4 - 2)
    game.play(Allocate("90Lt", H("V34")))
    game = breakthrough("V30")
    game.play(Move("90Lt", (H("V30"), H("V31"), H("V32"), H("V33"))))  # 3 MF: into the bonus of 3
    assert refused(game, Allocate("90Lt", H("V34"))) == (
        "[CA-M.3] 90Lt spent 3 MF, more than its 2 basic MF: a unit that took the movement bonus may not attack"
    )
