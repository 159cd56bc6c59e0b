"""The campaign's sequence of play (CA-Q.1, CA-Q.2) walked through the game: every step in the rules' order, the
decisions asked where the rules give a player a choice, the turns named as on the track, the end of the game."""

from __future__ import annotations

import pytest

from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.players.terminal import heading
from tobruk.view import view

from .kit import lines_since, new_game, past_set_up

# CA-Q.1, A.1-9, in the rules' words
AXIS_TURN = [
    "Axis player-turn",
    "Axis reinforcements, replacements and fort construction",  # 1
    "Axis attacks before operational movement",  # 2
    "Axis operational movement and attack allocation",  # 3
    "recovery of the Allied units not being attacked",  # 4
    "Axis combat resolution",  # 5
    "Axis operational breakthrough",  # 6: steps 3 ...
    "Axis breakthrough combat resolution",  # ... and 5 again
    "Allied victory determination",  # 7
    "Axis supply status determination",  # 8
    "German recovery; Newly Disrupted markers off the Axis units",  # 9
]
# CA-Q.2, B.1-8
ALLIED_TURN = [
    "Allied player-turn",
    "Allied reinforcements, replacements and box construction",  # 1
    "Allied rail movement",  # 1, then
    "Allied attacks before operational movement",  # 2
    "Allied operational movement and attack allocation",  # 3
    "recovery of the Italian units not being attacked",  # 4
    "Allied combat resolution",  # 5
    "Allied operational breakthrough",  # 6
    "Allied breakthrough combat resolution",
    "Allied supply status determination",  # 7
    "German victory determination",  # 8
]


def steps_logged(lines: list[str], turn: str) -> list[str]:
    return [line[len(turn) + 2 : -1] for line in lines if line.startswith(f"{turn}: ")]


def walk_turn(game_name: str) -> tuple[list[str], list[tuple[str, str]], object]:
    """Press end-phase through the first game-turn: the steps logged and the decisions asked (step, side)."""
    game = new_game(game_name)
    asked: list[tuple[str, str]] = []
    while game.turn == 1:
        d = game.decision
        assert d is not None
        asked.append((d.phase, d.side.value))
        game.play(EndPhase())
    return lines_since(game, 0), asked, game


@pytest.mark.rule("CA-Q.1")
@pytest.mark.rule("CA-Q.2")
def test_a_game_turn_is_the_axis_player_turn_then_the_allied_each_in_the_rules_order() -> None:
    lines, asked, _ = walk_turn("na-gazala")
    # the two set-ups open the first game-turn, the side moving second first (setup.py)
    assert steps_logged(lines, "II May 42") == ["Allied set-up", "Axis set-up", *AXIS_TURN, *ALLIED_TURN]
    # the players decide in their set-up, in their first step (a fort or box to build, CA-F.1; the Allies' 1st
    # Armoured Brigade waiting off the map, CA-R.4), the attacks before movement, the movement and allocation, and the breakthrough
    assert asked == [
        ("allied-set-up", "allied"),
        ("axis-set-up", "axis"),
        ("axis-reinforcements", "axis"),
        ("axis-early-attacks", "axis"),
        ("axis-movement", "axis"),
        ("axis-breakthrough", "axis"),
        ("allied-reinforcements", "allied"),
        ("allied-early-attacks", "allied"),
        ("allied-movement", "allied"),
        ("allied-breakthrough", "allied"),
    ]
    assert steps_logged(lines, "I Jun 42")[:2] == AXIS_TURN[:2]  # the next game-turn, named as on the track


@pytest.mark.rule("CA-Q.2")
def test_a_scenario_that_begins_with_the_allied_player_turn_has_only_it_in_its_first_game_turn() -> None:
    lines, asked, _ = walk_turn("na-crusader")  # CA-SC.4: "begins with the Allied player-turn of II Nov 41"
    assert steps_logged(lines, "II Nov 41") == ["Axis set-up", "Allied set-up", *ALLIED_TURN]
    first = ["allied-reinforcements", "allied-early-attacks", "allied-movement", "allied-breakthrough"]
    assert [a[0] for a in asked] == ["axis-set-up", "allied-set-up", *first]
    assert steps_logged(lines, "I Dec 41")[:1] == ["Axis player-turn"]


@pytest.mark.rule("CA-Q.1")
def test_the_turn_is_named_as_on_the_track_in_the_prompt_the_notes_and_the_log() -> None:
    game = past_set_up(new_game("na-gazala"))
    d = game.decision
    assert d is not None and d.side is Side.AXIS
    assert d.prompt.startswith("II May 42, Axis reinforcements, replacements and fort construction:")
    assert view(game, Side.AXIS)["turn_name"] == "II May 42"
    assert heading(game) == "II May 42, Axis reinforcements, replacements and fort construction"
    while game.turn == 1:
        game.play(EndPhase())
    assert view(game, Side.ALLIED)["turn_name"] == "I Jun 42"
    assert game.decision is not None and game.decision.prompt.startswith("I Jun 42, ")


@pytest.mark.rule("CA-Q.2")
def test_the_game_ends_after_the_scenarios_last_game_turn_with_the_german_victory_determination() -> None:
    game = new_game("na-crusader")  # II Nov 41 (Allied player-turn) and 3 full game-turns, to I Jan 42
    while not game.is_over:
        game.play(EndPhase())
    lines = lines_since(game, 0)
    assert game.turn == 4
    assert steps_logged(lines, "I Jan 42")[-1] == "German victory determination"
    last = [line for line in lines if line.startswith("Victory (CA-SC.4)")][-1]
    assert last.endswith("Not met (a supply line into tobruk: none).")  # judged at the end, with the line it lacks
    assert lines[-1] == "End of the game: the victory condition is not met."
