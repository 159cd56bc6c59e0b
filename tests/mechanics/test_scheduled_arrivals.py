"""The reinforcements that could enter in a side's next entry step (``mechanics.reinforcements.scheduled_arrivals``,
what the threat warnings count, GG-VII.B): due by that step's turn, still off the map and in play, entering by the open
hexes of their zone; none once the game has no turn left for them."""

from __future__ import annotations

import pytest

from tests.conftest import jump_to, make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.reinforcements import scheduled_arrivals

TAIL = '\n[zones.entry]\nhexes = ["A1", "A2"]\n'


def game_at(turn: int, phase: str, *, turns: int = 2, due: int = 2) -> Game:
    """A two-turn game with Arm (Allied) due on turn ``due`` by A1 or A2, at ``phase`` of ``turn``."""
    units = unit_toml("Arm", "allied", None, type_="motorized", factors="2-3-3", extra=f'arrives = {{ turn = {due}, zone = "entry" }}')
    units += unit_toml("Pz", "axis", "A8")
    game = Game(make_scenario(units, rows=1, columns=10, tail=TAIL, turns=turns), seed=0)
    game.state.turn = turn
    return jump_to(game, phase)


def scheduled(game: Game) -> list[tuple[str, int, list[str]]]:
    return [(a.unit, a.turn, sorted(h.label for h in a.entries)) for a in scheduled_arrivals(game, Side.ALLIED, "allied-movement")]


@pytest.mark.rule("GG-VII.B")
def test_a_reinforcement_due_on_the_last_turn_is_scheduled_for_it_and_none_after() -> None:
    assert scheduled(game_at(2, "axis-movement")) == [("Arm", 2, ["A1", "A2"])]  # the last turn, still to come
    assert scheduled(game_at(2, "allied-movement")) == [("Arm", 2, ["A1", "A2"])]  # its movement under way: it may enter now
    assert scheduled(game_at(2, "allied-attacks")) == []  # past the last movement: no turn left for it


@pytest.mark.rule("GG-VII.B")
def test_a_reinforcement_counts_from_its_own_turn_only() -> None:
    assert scheduled(game_at(1, "axis-movement", turns=3, due=2)) == []  # due next turn, not in this movement
    assert scheduled(game_at(1, "allied-attacks", turns=3, due=2)) == [("Arm", 2, ["A1", "A2"])]  # the next movement is turn 2's


@pytest.mark.rule("GG-VII.B")
def test_a_reinforcement_on_the_map_or_eliminated_off_it_is_not_scheduled_and_an_enemy_held_entry_is_closed() -> None:
    game = game_at(2, "axis-movement")
    game.unit("Arm").eliminated = True  # (eliminated before it arrived: off the map for good)
    assert scheduled(game) == []
    game = game_at(2, "axis-movement")
    game.unit("Arm").hex = Hex.parse("A3")
    assert scheduled(game) == []
    game = game_at(2, "axis-movement")
    game.unit("Pz").hex = Hex.parse("A1")  # an enemy unit in A1: the entry by A2 only
    game.forget_caches()
    assert scheduled(game) == [("Arm", 2, ["A2"])]
