"""The campaign's player-turns as the engine's steps (CA-Q.1, CA-Q.2): each step's kind, key, title, clause and side,
read against the rules' sequence.  The steps are made once, when the system is loaded; these tests build them again
through :func:`player_turn` so that a wrong step is seen by the tests that ask for one (the walk through a game in
test_sequence.py sees the titles only)."""

from __future__ import annotations

import pytest

from tobruk.engine.sides import Side
from tobruk.systems.campaign.rail import RailStep
from tobruk.systems.campaign.sea import FirstStep
from tobruk.systems.campaign.sequence import (
    ALLIED_TURN,
    AXIS_TURN,
    GAME_TURN,
    AttackStep,
    Breakthrough,
    CombatStep,
    GermanRecoveryStep,
    MovementStep,
    RecoveryStep,
    SupplyStep,
    VictoryStep,
    player_turn,
)
from tobruk.systems.campaign.setup import SetUp, set_up_steps

from .kit import new_game, to_step

# (kind, key, title, clause): A.1-9 of the rules' sequence; steps 3 and 5 again for the breakthrough (A.6); step 1
# also holds the player-turn's sea move (CA-S.3, ruled there)
AXIS = [
    (FirstStep, "axis-reinforcements", "Axis reinforcements, replacements and fort construction", "CA-Q.1"),
    (AttackStep, "axis-early-attacks", "Axis attacks before operational movement", "CA-Q.1"),
    (MovementStep, "axis-movement", "Axis operational movement and attack allocation", "CA-Q.1"),
    (RecoveryStep, "axis-recovery", "recovery of the Allied units not being attacked", "CA-G.17"),
    (CombatStep, "axis-combat", "Axis combat resolution", "CA-Q.1"),
    (Breakthrough, "axis-breakthrough", "Axis operational breakthrough", "CA-M.5"),
    (CombatStep, "axis-breakthrough-combat", "Axis breakthrough combat resolution", "CA-Q.1"),
    (VictoryStep, "allied-victory", "Allied victory determination", "CA-Q.1"),
    (SupplyStep, "axis-supply", "Axis supply status determination", "CA-P.3"),
    (GermanRecoveryStep, "german-recovery", "German recovery; Newly Disrupted markers off the Axis units", "CA-G.17"),
]
# B.1-8: the rail movement closes step 1; supply before the German victory determination
ALLIED = [
    (FirstStep, "allied-reinforcements", "Allied reinforcements, replacements and box construction", "CA-Q.2"),
    (RailStep, "allied-rail", "Allied rail movement", "CA-S.2"),
    (AttackStep, "allied-early-attacks", "Allied attacks before operational movement", "CA-Q.2"),
    (MovementStep, "allied-movement", "Allied operational movement and attack allocation", "CA-Q.2"),
    (RecoveryStep, "allied-recovery", "recovery of the Italian units not being attacked", "CA-G.17"),
    (CombatStep, "allied-combat", "Allied combat resolution", "CA-Q.2"),
    (Breakthrough, "allied-breakthrough", "Allied operational breakthrough", "CA-M.5"),
    (CombatStep, "allied-breakthrough-combat", "Allied breakthrough combat resolution", "CA-Q.2"),
    (SupplyStep, "allied-supply", "Allied supply status determination", "CA-P.3"),
    (VictoryStep, "axis-victory", "German victory determination", "CA-Q.2"),
]


def described(steps: object) -> list[tuple[type, str, str, str]]:
    assert isinstance(steps, (list, tuple))
    return [(type(s), s.key, s.title, s.clause) for s in steps]


@pytest.mark.rule("CA-Q.1")
def test_the_axis_player_turn_step_by_step() -> None:
    steps = player_turn(Side.AXIS)
    assert described(steps) == AXIS
    assert all(s.side is Side.AXIS for s in steps)


@pytest.mark.rule("CA-Q.2")
def test_the_allied_player_turn_step_by_step() -> None:
    steps = player_turn(Side.ALLIED)
    assert described(steps) == ALLIED
    assert all(s.side is Side.ALLIED for s in steps)


@pytest.mark.rule("CA-Q.1")
@pytest.mark.rule("CA-Q.2")
def test_the_game_turn_kept_by_the_system_is_the_axis_player_turn_then_the_allied() -> None:
    assert described(AXIS_TURN) == AXIS and described(ALLIED_TURN) == ALLIED
    assert described(GAME_TURN) == AXIS + ALLIED
    assert len({s.key for s in GAME_TURN}) == len(GAME_TURN)  # every step its own key (the log and the form name it)


@pytest.mark.rule("CA-SC.5")
@pytest.mark.rule("CA-SC.4")
def test_the_side_that_moves_second_sets_up_first() -> None:
    """Before the first player-turn each side sets up (docs/rulings.md, the set-up): the side that moves second first,
    so the side that moves first sees where it stands, as a player-turn's mover does."""
    axis_first = set_up_steps(Side.AXIS)  # Gazala, most scenarios
    assert [(type(s), s.key, s.title, s.clause, s.side) for s in axis_first] == [
        (SetUp, "allied-set-up", "Allied set-up", "CA-SC", Side.ALLIED),
        (SetUp, "axis-set-up", "Axis set-up", "CA-SC", Side.AXIS),
    ]
    allied_first = set_up_steps(Side.ALLIED)  # Crusader opens with the Allied player-turn
    assert [(s.key, s.side) for s in allied_first] == [("axis-set-up", Side.AXIS), ("allied-set-up", Side.ALLIED)]


@pytest.mark.rule("CA-Q.1")
@pytest.mark.parametrize("key", ["axis-movement", "axis-breakthrough"])
def test_a_movement_steps_actions_are_the_legal_orders_of_its_blocks(key: str) -> None:
    game = to_step(new_game("na-gazala"), key)
    assert game.decision is not None
    assert list(game.step.actions(game, game.decision)) == list(game.legal_orders())
