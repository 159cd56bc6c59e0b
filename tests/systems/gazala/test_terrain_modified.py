"""Terrain-modified factors: when a hex counts as disrupted (GG-IX.C) and who may take No Retreat! orders
(GG-XIV.B.5), both measured on "the (terrain-modified) factors in a hex" (ruling R-TERRAIN).

A hex's terrain bonus (box +3, hill +1, escarpment +2: GG-XI) counts only as far as infantry factors in the hex
match it (GG-XI.0); it is shared among those infantry units in proportion to their defence factors.  Every
expected value is worked out in the comments from the printed factors and that sharing.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack, Hold, NoRetreat, Resolve
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import combat as cb

H = Hex.parse
AXIS = Side.AXIS
BOX = '[map.fortifications]\nallied = ["B4"]\n'
HILL = '[map.terrain]\nhill = ["B4"]\n'


def position(attack: int, defenders: str, extra: str, disrupted: tuple[str, ...] = ()) -> Game:
    game = attack_game(unit_toml("Att", "axis", "B3", type_="armour", factors=f"{attack}-1-4") + defenders, extra, dice=ForcedDice([]))
    for uid in disrupted:
        family_unit(game, uid).disrupted = True
    return game


def odds(game: Game, *hexes: str) -> str:
    return cb.assess(game, Attack(tuple(H(h) for h in hexes or ("B4",)), ("Att",)), AXIS).odds


def inf(uid: str, defence: int, where: str = "B4") -> str:
    return unit_toml(uid, "allied", where, type_="infantry", factors=f"1-{defence}-2")


def tank(uid: str, defence: int, where: str = "B4") -> str:
    return unit_toml(uid, "allied", where, type_="armour", factors=f"1-{defence}-2")


# --- GG-IX.C ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("GG-IX.C")
def test_a_disrupted_infantry_unit_carrying_the_box_bonus_makes_the_hex_disrupted() -> None:
    # box +3, matched by Inf's 3: Inf 3 + 3 = 6 of 10 terrain-modified factors are disrupted (printed: 3 of 7)
    game = position(20, inf("Inf", 3) + tank("Tank", 4), BOX, disrupted=("Inf",))
    assert odds(game) == "3:1"  # 20 to 10 is 2:1, one column higher


@pytest.mark.rule("GG-IX.C")
def test_exactly_half_the_terrain_modified_factors_disrupted_counts() -> None:
    # hill +1 matched by Inf's 1: Inf 2, Tank 2: 2 of 4 disrupted, exactly half
    game = position(8, inf("Inf", 1) + tank("Tank", 2), HILL, disrupted=("Inf",))
    assert odds(game) == "3:1"  # 8 to 4 is 2:1, one column higher


@pytest.mark.rule("GG-IX.C")
def test_less_than_half_the_terrain_modified_factors_disrupted_does_not() -> None:
    # Inf 2, Tank 3: 2 of 5 disrupted
    game = position(10, inf("Inf", 1) + tank("Tank", 3), HILL, disrupted=("Inf",))
    assert odds(game) == "2:1"


@pytest.mark.rule("GG-IX.C")
def test_the_bonus_a_disrupted_unit_does_not_carry_counts_against_the_shift() -> None:
    # Tank disrupted (2), Inf undisrupted carries the hill: 1 + 1 = 2; 2 of 4 is half: shifted.  With the box
    # instead (+3, matched only by Inf's 1: +1) the same.  With Inf 2 on the box (+2): Tank 2 of 6: not shifted.
    assert odds(position(8, inf("Inf", 1) + tank("Tank", 2), HILL, disrupted=("Tank",))) == "3:1"
    assert odds(position(12, inf("Inf", 2) + tank("Tank", 2), BOX, disrupted=("Tank",))) == "2:1"


@pytest.mark.rule("GG-IX.C")
def test_the_bonus_is_shared_by_the_infantry_in_proportion_to_their_factors() -> None:
    # box +3 matched by 1 + 2 = 3 infantry factors: A carries 1, B 2; with Tank 1: A 2, B 4, Tank 1
    game = position(14, inf("A", 1) + inf("B", 2) + tank("Tank", 1), BOX)
    a = cb.assess(game, Attack((H("B4"),), ("Att",)), AXIS)
    assert a.factors == {"A": Fraction(2), "B": Fraction(4), "Tank": Fraction(1)}
    # box +3 matched by 4 + 2 = 6 factors (only 3 granted): A carries 2, B 1
    game = position(18, inf("A", 4) + inf("B", 2), BOX)
    a = cb.assess(game, Attack((H("B4"),), ("Att",)), AXIS)
    assert a.factors == {"A": Fraction(6), "B": Fraction(3)}


@pytest.mark.rule("GG-IX.C")
def test_with_several_defending_hexes_every_hex_must_count_as_disrupted() -> None:
    # Att in B3 touches B4 and C4. B4: a disrupted Tank 2; C4: an undisrupted Tank 2. 8 to 4 is 2:1.
    two = tank("T1", 2) + tank("T2", 2, "C4")
    game = position(8, two, "", disrupted=("T1",))
    assert odds(game, "B4", "C4") == "2:1"  # C4 does not count as disrupted
    game = position(8, two, "", disrupted=("T1", "T2"))
    assert odds(game, "B4", "C4") == "3:1"


# --- GG-XIV.B.5 ---------------------------------------------------------------------------------------------------


def asked(attack: int, defenders: str, extra: str = HILL) -> Game:
    game = position(attack, defenders, extra)
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    d = game.decision
    assert d is not None and d.clause == "GG-XIV.B.5"
    return game


def no_retreat_sets(game: Game) -> set[frozenset[str]]:
    """The sets of units the defender may give No Retreat! orders to: orders are given unit by unit (``hold``),
    then ``no-retreat``; every set of holds after which ``no-retreat`` is legal."""
    found: set[frozenset[str]] = set()
    seen: set[frozenset[str]] = set()

    def explore(g: Game, held: frozenset[str]) -> None:
        if held in seen:
            return
        seen.add(held)
        legal = g.legal_orders()
        if NoRetreat() in legal:
            found.add(held)
        for order in legal:
            if isinstance(order, Hold):
                after = g.copy()
                after.play(order)
                explore(after, held | {order.unit})

    explore(game, frozenset())
    return found


def sets(*groups: tuple[str, ...]) -> set[frozenset[str]]:
    return {frozenset(g) for g in groups}


@pytest.mark.rule("GG-XIV.B.5")
def test_no_retreat_orders_need_half_the_terrain_modified_factors() -> None:
    # hill +1 matched by Inf: Inf 2, Tank 1 of 3: Inf alone holds more than half, Tank alone less (printed: 1 and 1)
    game = asked(6, inf("Inf", 1) + tank("Tank", 1))  # 6 to 3: 2:1, which has R1 and R2 results
    assert no_retreat_sets(game) == sets((), ("Inf",), ("Inf", "Tank"))
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as err:
        game.play(NoRetreat(("Tank",)))
    assert err.value.clause == "GG-XIV.B.5" and game.state_hash() == before


@pytest.mark.rule("GG-XIV.B.5")
def test_no_retreat_orders_for_exactly_half_are_allowed() -> None:
    # Inf 1 + 1 = 2, Tank 2: each holds exactly half of 4
    game = asked(8, inf("Inf", 1) + tank("Tank", 2))
    assert no_retreat_sets(game) == sets((), ("Inf",), ("Tank",), ("Inf", "Tank"))
    # Inf 2, Tank 3 of 5: Inf alone is less than half
    game = asked(10, inf("Inf", 1) + tank("Tank", 3))
    assert no_retreat_sets(game) == sets((), ("Tank",), ("Inf", "Tank"))
