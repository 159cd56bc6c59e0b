"""1st Alamein's attack declarations and odds, clause by clause: what a declaration may name (GG-XIV.A, B.1),
the odds a player is shown before he declares (the lines of the odds, word for word), the defence the terrain
adds (FA-TER.2-4), spent defenders one column higher (GG-IX.C, FA-CRT.2), and the thresholds of FA-CRT.3 and 8
(a retreat of exactly two hexes).

Most battles are fought on one row, Axis A in A2 against Allied D in A3 (the kit's ``duel``); the attacks on two
hexes put A in B2 with its neighbours A2 and C2 defending.
"""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import H, air, game_at, unit
from tests.systems.first_alamein.test_combat import SURVIVOR, duel, fight
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack, RetreatDistance
from tobruk.systems.first_alamein.state import alamein_vars

BOX = '[map.fortifications]\nallied = ["A3"]\n'
LATE = unit("R", "axis", None, extra='arrives = { turn = 5, zone = "west" }')  # still to arrive on turn 1
WEST = '[map.zones]\nwest = ["A1"]\n'


def refused(game: Game, order: str) -> IllegalOrderError:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as exc:
        game.play(order)
    assert game.state_hash() == before  # a refusal changes nothing
    return exc.value


def odds_refused(game: Game, attack: Attack) -> IllegalOrderError:
    """The odds a player asks for before declaring (the browser's odds) refuse as the declaration would."""
    with pytest.raises(IllegalOrderError) as exc:
        game.system.odds(game, attack, Side.AXIS)
    return exc.value


def odds(game: Game, attack: Attack | str = "attack A3 with A", side: Side = Side.AXIS) -> tuple[str, tuple[str, ...]]:
    o = game.system.odds(game, game.parse(attack) if isinstance(attack, str) else attack, side)
    assert o is not None
    return o.column, o.lines


# --- GG-XIV.A, B.1: what a declaration may name -----------------------------------------------------------
@pytest.mark.rule("GG-XIV.A.1")
def test_only_your_own_ground_units_on_the_map_attack() -> None:
    game = duel(2, 2, extra=air("LW", "axis", "german") + LATE, map_extra=WEST)
    e = refused(game, "attack A3 with D")  # the enemy's unit
    assert (e.clause, e.reason) == ("GG-XIV.A.1", "'D' is not one of your ground units")
    e = refused(game, "attack A3 with LW")  # the side's own air unit
    assert (e.clause, e.reason) == ("GG-XIV.A.1", "'LW' is not one of your ground units")
    e = refused(game, "attack A3 with R")  # a reinforcement not arrived yet: neither eliminated nor on the map
    assert (e.clause, e.reason) == ("GG-XIV.A.1", "R is not on the map")
    game.play("attack A3 with A")  # the refusals left the declaration open to the one that is allowed
    assert alamein_vars(game).attacks and alamein_vars(game).attacks[0].attackers == ("A",)


@pytest.mark.rule("GG-XIV.A.4")
def test_an_attack_names_each_unit_once_and_at_least_one_attacker() -> None:
    game = duel(2, 2)
    e = refused(game, "attack A3 with A,A")
    assert (e.clause, e.reason) == ("GG-XIV.A.4", "a unit or hex is named twice")
    e = odds_refused(game, Attack((H("A3"),), ("A", "A")))  # the defending hex named once
    assert (e.clause, e.reason) == ("GG-XIV.A.4", "a unit or hex is named twice")
    e = odds_refused(game, Attack((H("A3"), H("A3")), ("A",)))
    assert (e.clause, e.reason) == ("GG-XIV.A.4", "a unit or hex is named twice")
    e = odds_refused(game, Attack((H("A3"),), ()))
    assert (e.clause, e.reason) == ("GG-XIV.A.4", "an attack needs at least one attacking unit")


@pytest.mark.rule("GG-XIV.A.6")
def test_a_unit_in_a_declared_attack_is_in_no_other() -> None:
    game = duel(2, 2)
    game.play("attack A3 with A")
    e = refused(game, "attack A3 with A")
    assert (e.clause, e.reason) == ("GG-XIV.A.6", "A is in another declared attack: cancel that one first")


@pytest.mark.rule("GG-XIV.B.1")
def test_an_attacker_uses_one_to_all_of_its_factors() -> None:
    game = duel(2, 2)
    e = refused(game, "attack A3 with A:3")
    assert (e.clause, e.reason) == ("GG-XIV.B.1", "A can attack with 1 to 2 factors, not 3")
    e = odds_refused(game, Attack((H("A3"),), ("A",), (("A", 0),)))  # the notation itself refuses "A:0"
    assert (e.clause, e.reason) == ("GG-XIV.B.1", "A can attack with 1 to 2 factors, not 0")
    e = odds_refused(game, Attack((H("A3"),), ("A",), (("B", 1),)))  # factors for a unit not in the attack
    assert (e.clause, e.reason) == ("GG-XIV.B.1", "B has factors given but is not attacking")
    assert odds(game, "attack A3 with A:1") == ("1:2", ("attack 1 against defence 2", "A 1"))  # 1 of its 2 factors
    game.play("attack A3 with A:1")
    assert alamein_vars(game).attacks[0].order == Attack((H("A3"),), ("A",), (("A", 1),))


@pytest.mark.rule("GG-XIV.A.2")
def test_a_defending_hex_holds_enemy_units() -> None:
    game = duel(2, 2, extra=unit("B", "axis", "A1"))
    e = odds_refused(game, Attack((H("A4"),), ("A",)))  # empty
    assert (e.clause, e.reason) == ("GG-XIV.A.2", "A4 holds no enemy units")
    e = odds_refused(game, Attack((H("A1"),), ("A",)))  # the side's own unit B: no defender
    assert (e.clause, e.reason) == ("GG-XIV.A.2", "A1 holds no enemy units")


@pytest.mark.rule("FA-CRT.1")
def test_the_odds_below_the_table_are_named() -> None:
    game = duel(1, 5)  # 1:5, under the first column (1:4)
    assert odds(game) == ("below 1:4", ("attack 1 against defence 5", "A 1"))


# --- two defending hexes --------------------------------------------------------------------------------
def two_hexes(first: str, second: str, *, rules: str = "") -> Game:
    """Axis A (4 factors) in B2 against the Allied units in A2 and C2, both next to it."""
    units = unit("A", "axis", "B2", type_="armour", factors="4-4-4") + first + second
    return game_at(units, "axis-attacks", rows=3, columns=6, rules=rules)


@pytest.mark.rule("GG-XIV.A.4")
def test_the_defence_of_two_hexes_adds_up() -> None:
    game = two_hexes(unit("D1", "allied", "A2", factors="1-1-3"), unit("D2", "allied", "C2", factors="1-1-3"))
    assert odds(game, "attack A2,C2 with A") == ("2:1", ("attack 4 against defence 2", "A 4"))  # 4 to 1 + 1


# --- GG-IX.C: spent defenders, one column higher ------------------------------------------------------
SPENT = "defenders spent: one column higher"


@pytest.mark.rule("GG-IX.C")
@pytest.mark.rule("FA-CRT.2")
def test_a_single_spent_factor_reads_one_column_higher() -> None:
    game = duel(2, 1, rules='spent_at_start = ["D"]')  # 2:1 against a spent unit of one factor: 3:1
    assert odds(game) == ("3:1", ("attack 2 against defence 1", "A 2", SPENT))
    assert odds(duel(2, 1)) == ("2:1", ("attack 2 against defence 1", "A 2"))


@pytest.mark.rule("GG-IX.C")
def test_a_hex_is_spent_from_exactly_half_its_factors() -> None:
    half = unit("S", "allied", "A3", type_="armour", factors="2-2-3")  # spent 2 of the hex's 4
    game = duel(4, 2, extra=half, rules='spent_at_start = ["S"]')
    assert odds(game) == ("3:2", ("attack 4 against defence 4", "A 4", SPENT))  # 1:1, one higher
    less = unit("S", "allied", "A3", type_="armour", factors="1-1-3")  # spent 1 of 3
    game = duel(3, 2, extra=less, rules='spent_at_start = ["S"]')
    assert odds(game) == ("1:1", ("attack 3 against defence 3", "A 3"))


@pytest.mark.rule("GG-IX.C")
def test_one_column_higher_only_when_every_defending_hex_is_spent() -> None:
    """docs/rulings.md, GG-IX.C: the clause decides hex by hex, and the shift is for an attack on spent units
    only, so a spent hex attacked together with a fresh one reads its own column."""
    first, second = unit("D1", "allied", "A2", factors="2-2-3"), unit("D2", "allied", "C2", factors="2-2-3")
    game = two_hexes(first, second, rules='spent_at_start = ["D1"]')  # half the factors spent, but C2 is fresh
    assert odds(game, "attack A2,C2 with A") == ("1:1", ("attack 4 against defence 4", "A 4"))
    game = two_hexes(first, second, rules='spent_at_start = ["D1", "D2"]')
    assert odds(game, "attack A2,C2 with A") == ("3:2", ("attack 4 against defence 4", "A 4", SPENT))


@pytest.mark.rule("GG-IX.C")
@pytest.mark.rule("FA-TER.2")
def test_spent_is_weighed_with_the_terrain_modified_factors() -> None:
    """docs/rulings.md, R-TERRAIN: the box's +2 belongs to the infantry that matches it.  A spent 3-factor
    infantry unit in a box holds 3 + 2 = 5 of the hex's 9 factors beside a fresh 4-factor tank: spent
    (printed factors alone, 3 of 7, would not be); the other way round the spent tank holds 4 of 9: not."""
    tank = unit("T", "allied", "A3", type_="armour", factors="4-4-3")
    game = duel(9, 3, defender="infantry", extra=tank, map_extra=BOX, rules='spent_at_start = ["D"]')
    column, lines = odds(game)  # 9 against 3 + 2 + 4: 1:1, one higher
    assert column == "3:2" and lines[-1] == SPENT
    game = duel(9, 3, defender="infantry", extra=tank, map_extra=BOX, rules='spent_at_start = ["T"]')
    column, lines = odds(game)
    assert column == "1:1" and SPENT not in lines


# --- FA-TER.2-4: the defence the hex adds, as the odds show it ------------------------------------------
@pytest.mark.rule("FA-TER.2")
def test_the_box_line() -> None:
    game = duel(8, 2, defender="infantry", map_extra=BOX)
    assert odds(game) == ("2:1", ("attack 8 against defence 4", "A 8", "A3: box +2; matched by 2 infantry factors: +2"))


@pytest.mark.rule("FA-TER.3")
def test_the_el_alamein_box_line() -> None:
    extra = BOX + '[map.zones]\nalamein = ["A3"]\n'
    game = duel(12, 3, defender="infantry", map_extra=extra, rules='el_alamein_box = "alamein"')
    lines = ("attack 12 against defence 6", "A 12", "A3: El Alamein box +3; matched by 3 infantry factors: +3")
    assert odds(game) == ("2:1", lines)


@pytest.mark.rule("FA-TER.4")
def test_a_deir_zone_is_named_in_the_line() -> None:
    game = duel(6, 2, defender="infantry", map_extra='[map.zones]\ndeirs = ["A3"]\n')
    assert odds(game) == ("2:1", ("attack 6 against defence 3", "A 6", "A3: deirs +1; matched by 2 infantry factors: +1"))


@pytest.mark.rule("FA-TER.2")
@pytest.mark.rule("FA-TER.4")
def test_a_box_on_a_ridge_adds_both() -> None:
    """docs/rulings.md, FA-TER.4: the +1 adds to a box's +2, the sum matched by the infantry (3 factors here)."""
    game = duel(12, 3, defender="infantry", map_extra=BOX + '[map.terrain]\nridge = ["A3"]\n')
    lines = ("attack 12 against defence 6", "A 12", "A3: box +2, ridge +1; matched by 3 infantry factors: +3")
    assert odds(game) == ("2:1", lines)  # 12 to 3 + 3


# --- FA-CRT.3, 8: a retreat of exactly two hexes ---------------------------------------------------------
@pytest.mark.rule("FA-CRT.3")
def test_r2_with_room_for_exactly_two_hexes_is_a_retreat() -> None:
    game = duel(2, 2, columns=5, die=6)  # 1:1, die 6: R2; A4 and A5 free behind D, then the map's edge
    fight(game)
    assert not game.unit("D").eliminated
    assert game.legal_orders() == [RetreatDistance(0), RetreatDistance(1), RetreatDistance(2)]


@pytest.mark.rule("FA-CRT.8")
def test_a_survivable_unit_with_room_for_exactly_two_hexes_survives_de() -> None:
    game = game_at(
        unit("A", "axis", "A2", type_="armour", factors="10-10-4")
        + unit("D", "allied", "A3", type_="motorized", factors="1-1-3", extra=SURVIVOR),
        "axis-attacks",
        rows=1,
        columns=5,
        dice=ForcedDice([2]),
    )  # 10:1, die 2: DE, which becomes R2 for D (A4 and A5 free)
    fight(game)
    assert not game.unit("D").eliminated
    assert game.legal_orders() == [RetreatDistance(0), RetreatDistance(1), RetreatDistance(2)]
