"""1st Alamein's terrain-modified factors (ruling R-TERRAIN): who may take No Retreat! orders (GG-XIV.B.5, the
half of FA-CRT.7) and when a defending hex counts as spent (GG-IX.C, FA-CRT.2), both measured on "the
(terrain-modified) factors in a hex".

A hex's bonus (an Allied box +2, FA-TER.2; the El Alamein box +3, FA-TER.3; a ridge +1, FA-TER.4) counts only as
far as the infantry factors in the hex match it (GG-XI.0), and it belongs to those infantry units, shared among
them in proportion to their defence factors.  Each test works the factors out in its comments.

The defenders stand in A3 (an Allied box unless said otherwise), attacked from A2 by the Axis unit A on a row of
six hexes.  The Allied units the scenario starts spent (``spent_at_start``) are still spent at the Axis attack
step of turn 1.  Most tests use two infantry units of 1 and 3 factors beside a tank of 3 or 4: in the box the +2
is matched by their 4 infantry factors and shared 1:3, so the infantry hold 1 + 2/4 = 3/2 and 3 + 6/4 = 9/2.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.first_alamein.kit import H, game_at, unit
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack, Hold, NoRetreat
from tobruk.systems.first_alamein import combat as fa

BOX = '[map.fortifications]\nallied = ["A3"]\n'
EL_ALAMEIN = BOX + '[map.zones]\nalamein = ["A3"]\n'
RIDGE = '[map.terrain]\nridge = ["A3"]\n'
SPENT = "defenders spent: one column higher"
ATTACK = Attack((H("A3"),), ("A",))


def stack(tank: int) -> str:
    """Infantry I1 (1 factor) and I3 (3), and the tank T (``tank`` factors), in that order, in A3."""
    return (
        unit("I1", "allied", "A3", type_="infantry", factors="1-1-3")
        + unit("I3", "allied", "A3", type_="infantry", factors="3-3-3")
        + unit("T", "allied", "A3", type_="armour", factors=f"{tank}-{tank}-3")
    )


def position(attack: int, defenders: str, terrain: str = BOX, spent: tuple[str, ...] = ()) -> Game:
    """Axis A (``attack`` factors) in A2 against ``defenders`` in A3, at the Axis attack step; ``spent``: the Allied
    units spent.  (``terrain`` may make A3 the El Alamein box, the scenario's zone "alamein".)"""
    rules = "spent_at_start = [" + ", ".join(f'"{u}"' for u in spent) + "]"
    if "alamein" in terrain:
        rules += '\nel_alamein_box = "alamein"'
    a = unit("A", "axis", "A2", type_="armour", factors=f"{attack}-{attack}-4")
    return game_at(a + defenders, "axis-attacks", rows=1, columns=6, map_extra=terrain, rules=rules)


# --- the factors each defender holds ----------------------------------------------------------------------
@pytest.mark.rule("FA-TER.2")
@pytest.mark.rule("GG-XI.0")
def test_the_box_bonus_is_shared_by_the_infantry_in_proportion_to_their_factors() -> None:
    # +2 matched by 1 + 3 infantry factors: I1 takes 2 x 1/4, I3 2 x 3/4; the tank nothing
    a = fa.assess(position(10, stack(3)), ATTACK, Side.AXIS)
    assert a.factors == {"I1": Fraction(3, 2), "I3": Fraction(9, 2), "T": 3}
    assert a.defence == 1 + 3 + 3 + 2


@pytest.mark.rule("FA-TER.3")
@pytest.mark.rule("GG-XI.0")
def test_an_unmatched_part_of_the_bonus_belongs_to_nobody() -> None:
    # the El Alamein box's +3 matched by 1 + 1 infantry factors: +2 granted, 1 each; the tank nothing
    units = (
        unit("I1", "allied", "A3", type_="infantry", factors="1-1-3")
        + unit("J1", "allied", "A3", type_="motorized", factors="1-1-3")
        + unit("T", "allied", "A3", type_="armour", factors="3-3-3")
    )
    a = fa.assess(position(10, units, EL_ALAMEIN), ATTACK, Side.AXIS)
    assert a.factors == {"I1": 2, "J1": 2, "T": 3}
    assert a.defence == 1 + 1 + 3 + 2


@pytest.mark.rule("FA-TER.4")
@pytest.mark.rule("GG-XI.0")
def test_a_ridges_one_factor_is_shared_too() -> None:
    # docs/rulings.md, FA-TER.4: +1 for the hex, matched by the infantry, shared 1:3
    a = fa.assess(position(10, stack(3), RIDGE), ATTACK, Side.AXIS)
    assert a.factors == {"I1": Fraction(5, 4), "I3": Fraction(15, 4), "T": 3}


# --- GG-XIV.B.5: No Retreat! orders to at least half the hex's terrain-modified factors -----------------------
def asked(tank: int) -> Game:
    """The stack with a tank of ``tank`` factors attacked by A (10): 10 to 9 or 10 is 1:1, whose R1 and R2 make the
    defender answer the No Retreat! question first (FA-CRT.7)."""
    game = position(10, stack(tank))
    game.play(ATTACK)
    game.play("resolve 1")
    d = game.decision
    assert d is not None and d.clause == "FA-CRT.7"
    return game


def no_retreat_sets(game: Game) -> set[frozenset[str]]:
    """Every set of units the defender may give No Retreat! orders to: they are given unit by unit (``hold``), then
    ``no-retreat``, so every set of holds after which ``no-retreat`` is legal."""
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


def sets(*groups: str) -> set[frozenset[str]]:
    return {frozenset(g.split()) for g in groups}


@pytest.mark.rule("GG-XIV.B.5")
@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_orders_to_exactly_half_the_terrain_modified_factors() -> None:
    # tank 3: the hex holds 3/2 + 9/2 + 3 = 9; I3 alone holds 9/2 and I1 with T 3/2 + 3 = 9/2, exactly half each;
    # T alone (3) and I1 alone (3/2) less.  (Printed factors would give I3 3 of 7 and I1 with T 4: I3 alone refused;
    # the bonus shared equally, 1 each, I3 4 of 9: refused too.)
    assert no_retreat_sets(asked(3)) == sets("", "I3", "I1 T", "I1 I3", "I3 T", "I1 I3 T")


@pytest.mark.rule("GG-XIV.B.5")
@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_orders_to_less_than_half_are_not_enough() -> None:
    # tank 4: the hex holds 10; I3's 9/2 is now less than half, I1 with T (3/2 + 4 = 11/2) more
    game = asked(4)
    assert no_retreat_sets(game) == sets("", "I1 T", "I1 I3", "I3 T", "I1 I3 T")
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as exc:  # orders to I3 alone: its hold is played, then no-retreat refused
        game.play(NoRetreat(("I3",)))
    reason = (  # FA-CRT.7: under No Retreat! orders R1 becomes S, R2 becomes DE
        "'no-retreat' is not allowed now; attack 1 on A3 (1:1) is about to be rolled: give No Retreat! orders (or none) to "
        "your defending units: units under orders do not retreat: an R1 leaves them spent where they stand (S), an R2 "
        "eliminates them (DE)"
    )
    assert (exc.value.clause, exc.value.reason) == ("FA-CRT.7", reason)  # the charts' clause for the orders
    assert game.state_hash() == before  # the whole order refused, the hold too


# --- GG-IX.C: a hex is spent when its spent units hold at least half its terrain-modified factors ------------
# A's 10 factors against 9 (tank 3) or 10 (tank 4) is 1:1; a spent hex reads one column higher, 3:2.


@pytest.mark.rule("GG-IX.C")
@pytest.mark.rule("FA-CRT.2")
@pytest.mark.parametrize(
    ("tank", "spent", "shifted"),
    [
        (3, ("I3",), True),  # 9/2 of 9: exactly half
        (3, ("I1", "T"), True),  # 3/2 + 3 = 9/2 of 9: exactly half, from two units
        (3, ("T",), False),  # 3 of 9
        (3, ("I1",), False),  # 3/2 of 9
        (4, ("I3",), False),  # 9/2 of 10: less than half
        (4, ("I1", "T"), True),  # 3/2 + 4 = 11/2 of 10
        (4, ("T",), False),  # 4 of 10 (printed, 4 of 8, it would be half)
    ],
)
def test_a_hex_is_spent_from_half_its_terrain_modified_factors(tank: int, spent: tuple[str, ...], shifted: bool) -> None:
    game = position(10, stack(tank), spent=spent)
    o = game.system.odds(game, ATTACK, Side.AXIS)
    assert o is not None
    assert (o.column, SPENT in o.lines) == (("3:2", True) if shifted else ("1:1", False))
