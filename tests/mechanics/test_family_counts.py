"""What the game form counts for each side of a family game at every turn (tobruk/tools/form.py): its strength,
the printed attack and defence factors of its units on the map that are neither eliminated nor dummies, and the
number of those units out of supply."""

from __future__ import annotations

from tests.conftest import movement_game, unit_toml
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import family_unit


def test_strength_counts_the_factors_of_the_units_on_the_map_but_not_the_eliminated_or_off_map_or_dummies() -> None:
    game = movement_game(
        unit_toml("A", "axis", "A1", factors="4-3-4")
        + unit_toml("B", "axis", "A2", factors="2-5-3")
        + unit_toml("Off", "axis", None, factors="9-9-4")
        + unit_toml("Gone", "axis", "A3", factors="7-7-4")
        + unit_toml("T", "allied", "C10", factors="1-2-3")
        + unit_toml("D", "allied", "C11", type_="dummy", factors="0-0-0")
    )
    gone = family_unit(game, "Gone")
    gone.eliminated = True
    gone.hex = None
    assert game.system.strength(game, Side.AXIS) == (4 + 3) + (2 + 5)  # Off is off the map, Gone eliminated
    assert game.system.strength(game, Side.ALLIED) == 1 + 2  # the dummy has no factors and is not counted
    family_unit(game, "Gone").hex = family_unit(game, "A").hex  # (an eliminated unit is never counted)
    assert game.system.strength(game, Side.AXIS) == (4 + 3) + (2 + 5)


def test_out_of_supply_counts_the_units_on_the_map_out_of_supply() -> None:
    game = movement_game(
        unit_toml("A", "axis", "A1") + unit_toml("B", "axis", "A2") + unit_toml("C", "axis", "A3") + unit_toml("T", "allied", "C10")
    )
    assert game.system.out_of_supply(game, Side.AXIS) == 0
    for uid in ("A", "B"):
        family_unit(game, uid).out_of_supply = True
    assert game.system.out_of_supply(game, Side.AXIS) == 2
    assert game.system.out_of_supply(game, Side.ALLIED) == 0
    b = family_unit(game, "B")
    b.eliminated = True  # eliminated, still marked out of supply: not counted
    assert game.system.out_of_supply(game, Side.AXIS) == 1
    family_unit(game, "A").hex = None  # off the map: not counted
    assert game.system.out_of_supply(game, Side.AXIS) == 0
