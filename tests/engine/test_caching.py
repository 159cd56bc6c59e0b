"""The engine's one way to keep answers (tobruk/engine/caching.py), on the toy system: an answer is served again
exactly while what its cache declares it depends on is the same, and worked out afresh when that changes, whoever
changed it (an order, an undo, a position arranged by hand)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.toy_system import toy_scenario, toy_vars
from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, FIXED, POSITION, Cache, Carried, board_key, cached, enemy_units, side_units, variable
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side

H = Hex.parse


def toy_game() -> Game:
    return Game(toy_scenario(), seed=1)


class Counted:
    """A piece of work that counts its calls and answers with the count (so a kept answer is told from a new one)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return self.calls


def test_a_position_answer_is_kept_for_its_position_and_comes_back_with_it() -> None:
    game, work = toy_game(), Counted()
    cache: Cache[int] = Cache("test.position", POSITION)
    assert cache.get(game, "q", work) == 1 and cache.get(game, "q", work) == 1
    assert cache.get(game, "other question", work) == 2  # the arguments are part of the key
    game.play("move Scout B3-A3")
    assert cache.get(game, "q", work) == 3  # a new position: worked out again
    game.pop()  # undone
    assert cache.get(game, "q", work) == 1  # back where it was: the first answer, kept for that position
    game.unit("Guard").hex = H("A6")  # arranged by hand, no order
    assert cache.get(game, "q", work) == 4


def test_a_board_answer_outlives_a_change_of_the_decision_stack_only() -> None:
    game, work = toy_game(), Counted()
    cache: Cache[int] = Cache("test.board", BOARD)
    assert cache.get(game, None, work) == 1
    board, position = board_key(game), game.position_key()
    game.state.stack = (*game.state.stack, object())  # type: ignore[arg-type]  # a frame pushed: the board is the same
    assert board_key(game) == board and game.position_key() != position
    assert cache.get(game, None, work) == 1
    game.state.stack = game.state.stack[:-1]
    game.unit("Scout").set_flag("disrupted", True)
    assert cache.get(game, None, work) == 2


def test_a_sides_answer_is_kept_while_only_the_enemy_moves() -> None:
    game, work = toy_game(), Counted()
    cache: Cache[int] = Cache("test.side", side_units())
    assert cache.get(game, Side.AXIS, work) == 1
    game.unit("Guard").hex = H("A6")  # the Allies' rows: the Axis answer stands
    assert cache.get(game, Side.AXIS, work) == 1
    game.unit("Scout").hex = H("A3")
    assert cache.get(game, Side.AXIS, work) == 2
    both = Cache[int]("test.both", side_units())
    assert both.get(game, None, work) == 3  # no side: every unit's rows
    game.unit("Guard").hex = H("B6")
    assert both.get(game, None, work) == 4


def test_an_answer_about_the_enemy_follows_the_enemys_rows() -> None:
    game, work = toy_game(), Counted()
    cache: Cache[int] = Cache("test.enemy", enemy_units())
    assert cache.get(game, (Side.AXIS, "zoc"), work) == 1
    game.unit("Scout").hex = H("A3")  # the side's own unit: the enemy's rows stand
    assert cache.get(game, (Side.AXIS, "zoc"), work) == 1
    game.unit("Guard").hex = H("A6")
    assert cache.get(game, (Side.AXIS, "zoc"), work) == 2


def test_a_variables_answer_follows_its_value() -> None:
    game, work = toy_game(), Counted()
    cache: Cache[int] = Cache("test.variable", variable("marches"))
    assert cache.get(game, None, work) == 1
    game.unit("Guard").hex = H("A6")  # anything but the variable: the answer stands
    assert cache.get(game, None, work) == 1
    game.play("move Scout B3-A3")  # a march: the variable counts it
    assert toy_vars(game).marches == 1 and cache.get(game, None, work) == 2
    toy_vars(game).marches = 0  # the same value as at first: the first answer again
    assert cache.get(game, None, work) == 1


def test_fixed_answers_are_shared_with_a_copy_and_the_others_are_not() -> None:
    game, work = toy_game(), Counted()
    fixed: Cache[int] = Cache("test.fixed", FIXED)
    position: Cache[int] = Cache("test.position-copy", POSITION)
    assert fixed.get(game, "key", work) == 1 and position.get(game, "key", work) == 2
    other = game.copy()
    assert fixed.get(other, "key", work) == 1  # the answer depends on its arguments alone
    assert position.get(other, "key", work) == 3  # a copy starts with no position answers ...
    other.unit("Scout").hex = H("A3")
    assert position.get(game, "key", work) == 2  # ... and what it keeps is its own


def test_a_cache_starts_again_when_full() -> None:
    game, work = toy_game(), Counted()
    cache: Cache[int] = Cache("test.small", FIXED, size=3)
    for n in range(3):
        cache.get(game, n, work)
    assert len(game.cache_store(cache)) == 3
    cache.get(game, 3, work)
    assert len(game.cache_store(cache)) == 1 and cache.get(game, 0, work) == 5  # dropped, worked out again


def test_a_kept_refusal_is_raised_afresh_each_time() -> None:
    game = toy_game()
    calls: list[int] = []

    def refuse() -> int:
        calls.append(1)
        raise IllegalOrderError("TOY-1", "no march into the sea")

    cache: Cache[int] = Cache("test.refusal", POSITION)
    raised = []
    for _ in range(2):
        with pytest.raises(IllegalOrderError) as err:
            cache.check(game, None, refuse)
        raised.append(err.value)
    assert len(calls) == 1 and raised[0] is not raised[1]
    assert all((e.clause, e.reason) == ("TOY-1", "no march into the sea") for e in raised)
    assert cache.check(game, "fine", lambda: 7) == 7


def test_a_cached_function_is_answered_once_per_position_and_takes_positional_arguments_only() -> None:
    calls: list[str] = []

    @cached(POSITION)
    def units_of(game: Game, side: Side) -> tuple[str, ...]:
        """The side's units."""
        calls.append(side.value)
        return tuple(game.units_of(side))

    game = toy_game()
    assert units_of(game, Side.AXIS) == ("Scout",) and units_of(game, Side.AXIS) == ("Scout",)
    assert calls == ["axis"] and units_of.__doc__ == "The side's units."
    call: Callable[..., object] = units_of
    with pytest.raises(TypeError, match="positional"):
        call(game, side=Side.AXIS)


def test_a_carried_value_is_the_games_own_until_forgotten() -> None:
    game = toy_game()
    carried: Carried[list[int]] = Carried("test.carried")
    assert carried.last(game, "side") is None
    carried.keep(game, "side", [1])
    assert carried.last(game, "side") == [1] and carried.last(game, "other") is None
    assert carried.last(game.copy(), "side") is None  # a copy brings its own up to date from nothing
    game.forget_caches()
    assert carried.last(game, "side") is None


def test_forgetting_drops_every_kind_of_answer() -> None:
    game, work = toy_game(), Counted()
    caches: list[Cache[int]] = [Cache(f"test.{d}", d) for d in (FIXED, POSITION, BOARD, side_units(), variable("marches"))]
    assert [c.get(game, Side.AXIS, work) for c in caches] == [1, 2, 3, 4, 5]
    game.forget_caches()
    assert [c.get(game, Side.AXIS, work) for c in caches] == [6, 7, 8, 9, 10]


def test_a_cache_must_say_what_its_answers_depend_on() -> None:
    with pytest.raises(ValueError, match="depend on"):
        Cache("test.nothing")
    with pytest.raises(ValueError, match="FIXED"):
        Cache("test.mixed", FIXED, POSITION)
