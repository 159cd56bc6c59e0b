"""``Game.kept``: a value kept in one slot while what it is made from stays the same, made again when that
changes (never served stale), forgotten with the other caches."""

from __future__ import annotations

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario


def test_a_kept_value_is_made_again_only_when_what_it_is_made_from_changes() -> None:
    game = Game(load_scenario("first-alamein"), seed=1)
    made: list[int] = []

    def work() -> list[int]:
        made.append(len(made))
        return list(made)

    first = game.kept("slot", (1, 2), work)
    assert game.kept("slot", (1, 2), work) is first  # an equal made-from, another object: kept
    assert len(made) == 1
    second = game.kept("slot", (1, 3), work)
    assert second == [0, 1] and second is not first  # made from something else: made again
    assert game.kept("other", (1, 3), work) == [0, 1, 2]  # slots are apart
    game.forget_caches()
    assert game.kept("slot", (1, 3), work) == [0, 1, 2, 3]


def test_a_sides_placed_units_follow_its_rows_and_not_the_enemys() -> None:
    game = Game(load_scenario("first-alamein"), seed=1)
    axis = game.placed(Side.AXIS)
    uid, h = game.placed(Side.ALLIED)[0]
    mover = game.unit(uid)
    target = next(n for n in h.neighbours() if n in game.scenario.map.hexes and not game.units_at(n))
    mover.hex = target  # by hand: only the Allied rows change
    assert game.placed(Side.AXIS) is axis
    assert (uid, target) in game.placed(Side.ALLIED)
    assert game.units_at(target) == [uid] and uid not in game.units_at(h)
