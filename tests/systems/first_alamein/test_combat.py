"""1st Alamein's ground combat: the GCRT with Spent (FA-CRT.1-2), what each result does (FA-CRT.3-6), No Retreat!
and units unable to retreat (FA-CRT.7), the survivability of the Recce Gruppe and 7th Armoured Division
(FA-CRT.8), and the defence the terrain adds (FA-TER.2-4).

Most battles are fought on one row of hexes: the attacker in A2, the defender in A3, so the defender's only
way out is east (A4, A5 ...) and a short row leaves it no room.  At 1:1 the die gives every kind of result:
1 AR, 2 SAR, 3 -, 4 S, 5 R1, 6 R2 (the charts' 1:1 column).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.first_alamein.kit import H, game_at, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import (
    Abandon,
    Add,
    Attack,
    Declare,
    EndRetreat,
    Hold,
    NoRetreat,
    Retreat,
    RetreatDistance,
    Target,
)
from tobruk.mechanics.counters import family_unit
from tobruk.systems.first_alamein.state import alamein_vars

# the charts' GCRT, die 1 to 6, columns 1:4 ... 10:1 (FA-CRT.1)
COLUMNS = ["1:4", "1:3", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1", "7:1", "10:1"]
GCRT = {
    1: ["AE", "AE", "SAE", "AR", "SAR", "-", "S", "R1", "R1", "R2", "R2"],
    2: ["AE", "SAE", "AR", "SAR", "-", "S", "R1", "R1", "R2", "R2", "DE"],
    3: ["AE", "AR", "-", "-", "S", "R1", "R1", "R2", "R2", "DE", "DE"],
    4: ["SAE", "-", "S", "S", "R1", "R1", "R2", "R2", "DE", "DE", "DE"],
    5: ["AR", "S", "R1", "R1", "R1", "R2", "R2", "DE", "DE", "DE", "DE"],
    6: ["S", "S", "R2", "R2", "R2", "R2", "DE", "DE", "DE", "DE", "DE"],
}
RATIOS = {
    "1:4": (1, 4),
    "1:3": (1, 3),
    "1:2": (1, 2),
    "1:1": (2, 2),
    "3:2": (3, 2),
    "2:1": (2, 1),
    "3:1": (3, 1),
    "4:1": (4, 1),
    "5:1": (5, 1),
    "7:1": (7, 1),
    "10:1": (10, 1),
}


def duel(
    attack: int,
    defence: int,
    *,
    columns: int = 6,
    die: int | None = None,
    attacker: str = "armour",
    defender: str = "armour",
    extra: str = "",
    rules: str = "",
    map_extra: str = "",
) -> Game:
    """Axis A (in A2) facing Allied D (in A3) on one row, at the Axis attack step."""
    units = (
        unit("A", "axis", "A2", type_=attacker, factors=f"{attack}-{attack}-4")
        + unit("D", "allied", "A3", type_=defender, factors=f"{defence}-{defence}-3")
        + extra
    )
    dice = ForcedDice([die]) if die is not None else None
    return game_at(units, "axis-attacks", rows=1, columns=columns, dice=dice, rules=rules, map_extra=map_extra)


def fight(game: Game, order: str = "attack A3 with A") -> None:
    """Declare and resolve; the defender, if asked, gives no No Retreat! orders."""
    game.play(order)
    game.play("resolve 1")
    if game.decision is not None and game.decision.clause == "FA-CRT.7":
        game.play("no-retreat none")


def answer(game: Game, *orders: str) -> None:
    for o in orders:
        game.play(o)


# --- FA-CRT.1: the table ------------------------------------------------------------------------------
@pytest.mark.rule("FA-CRT.1")
@pytest.mark.parametrize("column", COLUMNS)
def test_each_column_gives_the_charts_results(column: str) -> None:
    a, d = RATIOS[column]
    game = duel(a, d)
    odds = game.system.odds(game, Attack((H("A3"),), ("A",)), Side.AXIS)
    assert odds is not None and odds.column == column
    expected: dict[str, Fraction] = {}
    for die in range(1, 7):
        r = GCRT[die][COLUMNS.index(column)]
        expected[r] = expected.get(r, Fraction(0)) + Fraction(1, 6)
    assert dict(odds.outcomes) == expected


@pytest.mark.rule("FA-CRT.1")
@pytest.mark.parametrize(
    ("attack", "defence", "column"), [(5, 3, "3:2"), (2, 5, "1:3"), (9, 1, "7:1"), (10, 1, "10:1"), (20, 1, "10:1"), (1, 4, "1:4")]
)
def test_the_column_nearest_but_not_above_the_ratio(attack: int, defence: int, column: str) -> None:
    game = duel(attack, defence)
    odds = game.system.odds(game, Attack((H("A3"),), ("A",)), Side.AXIS)
    assert odds is not None and odds.column == column


@pytest.mark.rule("FA-CRT.1")
def test_attacks_below_one_to_four_are_not_allowed() -> None:
    game = duel(1, 5)
    with pytest.raises(IllegalOrderError) as exc:
        game.play("attack A3 with A")
    assert exc.value.clause == "FA-CRT.1" and not alamein_vars(game).attacks
    game = duel(1, 4)
    game.play("attack A3 with A")  # 1:4 exactly is on the table
    assert len(alamein_vars(game).attacks) == 1


# --- FA-CRT.2: results, Spent as Disrupted ----------------------------------------------------------------
@pytest.mark.rule("FA-CRT.2")
def test_spent_plays_the_part_of_disrupted() -> None:
    game = duel(2, 2, die=4)  # 1:1, die 4: S
    fight(game)
    assert family_unit(game, "D").disrupted  # Spent is the family's disrupted status
    answer(game, "end-retreat")
    assert family_unit(game, "D").hex == H("A3")
    # a spent defender reads one column higher (GG-IX.C): 1:1 becomes 3:2
    family_unit(game, "A").attacked = False
    odds = game.system.odds(game, Attack((H("A3"),), ("A",)), Side.AXIS)
    assert odds is not None and odds.column == "3:2"


@pytest.mark.rule("FA-CRT.2")
def test_a_spent_unit_may_not_attack() -> None:
    game = duel(2, 2, rules='spent_at_start = ["A"]')
    with pytest.raises(IllegalOrderError) as exc:
        game.play("attack A3 with A")
    assert exc.value.clause == "GG-XIV.A.3"


@pytest.mark.rule("FA-CRT.2")
def test_de_and_ae() -> None:
    game = duel(10, 1, die=2)  # 10:1, die 2: DE
    fight(game)
    assert family_unit(game, "D").eliminated
    game = duel(1, 4, die=1)  # 1:4, die 1: AE
    fight(game)
    assert family_unit(game, "A").eliminated and not family_unit(game, "D").eliminated


# --- FA-CRT.3: R2 ------------------------------------------------------------------------------------
@pytest.mark.rule("FA-CRT.3")
def test_r2_the_attacker_names_up_to_two_hexes() -> None:
    game = duel(2, 2, die=6)  # R2
    answer(game, "attack A3 with A", "resolve 1", "no-retreat none")
    d = game.decision
    assert d is not None and d.side is Side.AXIS
    assert game.legal_orders() == [RetreatDistance(0), RetreatDistance(1), RetreatDistance(2)]
    game.play("retreat-distance 2")
    assert game.decision is not None and game.decision.side is Side.ALLIED
    assert game.legal_orders() == [Retreat("D", (H("A3"), H("A4"), H("A5")))]  # exactly two, no voluntary hex
    game.play("retreat D A3-A4-A5")
    assert family_unit(game, "D").hex == H("A5") and family_unit(game, "D").disrupted


@pytest.mark.rule("FA-CRT.3")
def test_r2_a_unit_unable_to_retreat_two_hexes_is_eliminated_whatever_the_distance() -> None:
    game = duel(2, 2, die=6, columns=4)  # A4 is the only hex beyond A3: one hex of retreat, not two
    answer(game, "attack A3 with A", "resolve 1", "no-retreat none")
    assert family_unit(game, "D").eliminated  # at once: the attacker is not asked for a distance (ruling)
    assert game.decision is not None and game.decision.phase == "axis-attacks" and not game.state.stack


# --- FA-CRT.4: R1 ------------------------------------------------------------------------------------
@pytest.mark.rule("FA-CRT.4")
def test_r1_the_attacker_names_the_distance_and_the_defender_may_add_one() -> None:
    game = duel(2, 2, die=5)  # R1
    answer(game, "attack A3 with A", "resolve 1", "no-retreat none")
    assert game.decision is not None and game.decision.side is Side.AXIS  # the attacker, as the charts say
    assert game.legal_orders() == [RetreatDistance(0), RetreatDistance(1)]
    game.play("retreat-distance 1")
    assert set(game.legal_orders()) == {Retreat("D", (H("A3"), H("A4"))), Retreat("D", (H("A3"), H("A4"), H("A5")))}
    game.play("retreat D A3-A4-A5")
    assert family_unit(game, "D").hex == H("A5") and family_unit(game, "D").disrupted


@pytest.mark.rule("FA-CRT.4")
def test_r1_with_no_distance_the_defender_may_still_retreat_one_hex() -> None:
    game = duel(2, 2, die=5)
    answer(game, "attack A3 with A", "resolve 1", "no-retreat none", "retreat-distance 0")
    assert set(game.legal_orders()) == {Retreat("D", (H("A3"), H("A4"))), EndRetreat()}
    game.play("end-retreat")
    assert family_unit(game, "D").hex == H("A3") and family_unit(game, "D").disrupted


# --- FA-CRT.5: S -------------------------------------------------------------------------------------
@pytest.mark.rule("FA-CRT.5")
def test_s_the_defender_may_retreat_one_or_two_hexes_or_stay() -> None:
    game = duel(2, 2, die=4)  # S: nothing for the attacker to name
    fight(game)
    d = game.decision
    assert d is not None and d.side is Side.ALLIED
    assert set(game.legal_orders()) == {Retreat("D", (H("A3"), H("A4"))), Retreat("D", (H("A3"), H("A4"), H("A5"))), EndRetreat()}
    game.play("retreat D A3-A4-A5")
    assert family_unit(game, "D").hex == H("A5") and family_unit(game, "D").disrupted


# --- FA-CRT.6: AR, SAR, SAE -----------------------------------------------------------------------------
@pytest.mark.rule("FA-CRT.6")
def test_ar_the_defender_names_the_attackers_distance_and_they_may_add_one() -> None:
    game = duel(2, 2, die=1)  # AR
    fight(game)
    naming = game.decision
    assert naming is not None and naming.side is Side.ALLIED
    assert game.legal_orders() == [RetreatDistance(0), RetreatDistance(1)]
    game.play("retreat-distance 1")
    retreating = game.decision
    assert retreating is not None and retreating.side is Side.AXIS
    assert set(game.legal_orders()) == {Retreat("A", (H("A2"), H("A1")))}  # A1 is the row's end: no second hex
    game.play("retreat A A2-A1")
    assert family_unit(game, "A").hex == H("A1") and not family_unit(game, "A").disrupted  # retreated, not spent


@pytest.mark.rule("FA-CRT.6")
def test_sar_spends_the_defenders_and_retreats_the_attackers() -> None:
    game = duel(2, 2, die=2, columns=6)  # SAR
    fight(game)
    assert family_unit(game, "D").disrupted
    game.play("retreat-distance 0")  # the defender names the attackers' distance first
    game.play("end-retreat")  # the attacker retreats no further
    d = game.decision
    assert d is not None and d.side is Side.ALLIED and EndRetreat() in game.legal_orders()  # then S's choice
    game.play("end-retreat")
    assert family_unit(game, "A").hex == H("A2") and family_unit(game, "D").hex == H("A3")


@pytest.mark.rule("FA-CRT.6")
def test_sae_spends_the_defenders_and_eliminates_the_attackers() -> None:
    game = duel(1, 4, die=4)  # 1:4, die 4: SAE
    fight(game)
    assert family_unit(game, "A").eliminated and family_unit(game, "D").disrupted


# --- FA-CRT.7: No Retreat! and unable to retreat -------------------------------------------------------
@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_turns_r1_into_s_without_a_retreat() -> None:
    game = duel(2, 2, die=5)  # R1
    answer(game, "attack A3 with A", "resolve 1")
    assert game.decision is not None and game.decision.side is Side.ALLIED and game.decision.clause == "FA-CRT.7"
    assert set(game.legal_orders()) == {NoRetreat(), Hold("D")}
    game.play("no-retreat D")  # hold D, then the answer
    assert family_unit(game, "D").disrupted and family_unit(game, "D").hex == H("A3")
    assert game.decision is not None and game.decision.phase == "axis-attacks" and not game.state.stack  # no S retreat


@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_turns_r2_into_de() -> None:
    game = duel(2, 2, die=6)
    answer(game, "attack A3 with A", "resolve 1", "no-retreat D")
    assert family_unit(game, "D").eliminated


@pytest.mark.rule("FA-CRT.7")
def test_unable_to_retreat_r1_becomes_s() -> None:
    game = duel(2, 2, die=5, columns=3)  # nowhere to go beyond A3
    answer(game, "attack A3 with A", "resolve 1", "no-retreat none", "retreat-distance 1")
    assert not family_unit(game, "D").eliminated and family_unit(game, "D").disrupted and family_unit(game, "D").hex == H("A3")


@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_is_asked_only_where_a_result_retreats_the_defenders() -> None:
    game = duel(1, 4, die=5)  # 1:4: AE AE AE SAE AR S, nothing the attacker retreats: the die is rolled at once
    answer(game, "attack A3 with A", "resolve 1")
    assert game.decision is not None and game.decision.clause != "FA-CRT.7" and game.dice.log
    game = duel(2, 2, die=5)  # 1:1: R1 and R2 are there: the defender is asked first
    answer(game, "attack A3 with A", "resolve 1")
    assert game.decision is not None and game.decision.clause == "FA-CRT.7" and not game.dice.log


@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_orders_go_to_at_least_half_the_factors() -> None:
    two = unit("D2", "allied", "A3", factors="1-1-3")
    game = duel(4, 3, extra=two)  # D 3 factors and D2 1 in A3: D alone holds at least half, D2 alone does not
    answer(game, "attack A3 with A", "resolve 1")
    assert set(game.legal_orders()) == {NoRetreat(), Hold("D"), Hold("D2")}
    game.play(Hold("D2"))  # D2 alone would hold a quarter: the orders must take in D too
    assert set(game.legal_orders()) == {Hold("D")}
    game.play(Hold("D"))
    assert set(game.legal_orders()) == {NoRetreat()}


@pytest.mark.rule("FA-CRT.7")
@pytest.mark.rule("GG-XIV.B.5")
def test_no_retreat_orders_weigh_the_terrain_modified_factors() -> None:
    """R-TERRAIN: the half of GG-XIV.B.5 is of the hex's terrain-modified factors.  In the Allied box A3 the
    infantry I (2) matches the box's +2 and holds 4 of 7; the tank D (3) holds 3 of 7.  On printed factors
    (2 of 5 and 3 of 5) it would be the other way round."""
    infantry = unit("I", "allied", "A3", factors="2-2-3")
    game = duel(12, 3, extra=infantry, map_extra=BOX)  # 12 against 3 + 2 + 2 = 7: above 1:1, some result retreats
    answer(game, "attack A3 with A", "resolve 1")
    assert set(game.legal_orders()) == {NoRetreat(), Hold("D"), Hold("I")}
    game.play(Hold("D"))  # D alone holds 3 of 7, less than half: I must be ordered too
    assert set(game.legal_orders()) == {Hold("I")}
    game = duel(12, 3, extra=infantry, map_extra=BOX)
    answer(game, "attack A3 with A", "resolve 1", "hold I")  # I alone holds 4 of 7: enough
    assert NoRetreat() in game.legal_orders()


# --- FA-CRT.8: survivability ---------------------------------------------------------------------------
SURVIVOR = 'flags = ["survivable"]'


@pytest.mark.rule("FA-CRT.8")
def test_de_against_a_survivable_unit_becomes_r2() -> None:
    game = game_at(
        unit("A", "axis", "A2", type_="armour", factors="10-10-4")
        + unit("D", "allied", "A3", type_="motorized", factors="1-1-3", extra=SURVIVOR),
        "axis-attacks",
        rows=1,
        columns=6,
        dice=ForcedDice([2]),
    )
    answer(game, "attack A3 with A", "resolve 1", "no-retreat none")
    assert not family_unit(game, "D").eliminated
    assert game.legal_orders() == [RetreatDistance(0), RetreatDistance(1), RetreatDistance(2)]


@pytest.mark.rule("FA-CRT.8")
def test_survivability_fails_where_the_retreat_is_blocked() -> None:
    game = game_at(
        unit("A", "axis", "A2", type_="armour", factors="10-10-4")
        + unit("D", "allied", "A3", type_="motorized", factors="1-1-3", extra=SURVIVOR),
        "axis-attacks",
        rows=1,
        columns=4,
        dice=ForcedDice([2]),
    )
    fight(game)
    assert family_unit(game, "D").eliminated


@pytest.mark.rule("FA-CRT.8")
def test_an_ordinary_unit_is_eliminated_by_de() -> None:
    game = duel(10, 1, die=2)
    fight(game)
    assert family_unit(game, "D").eliminated


# --- FA-TER.2-4: the defence the terrain adds -------------------------------------------------------------
def odds_of(game: Game, order: str = "attack A3 with A") -> tuple[str, tuple[str, ...]]:
    o = game.system.odds(game, game.parse(order), Side.AXIS)
    assert o is not None
    return o.column, o.lines


BOX = '[map.fortifications]\nallied = ["A3"]\n'


@pytest.mark.rule("FA-TER.2")
def test_an_allied_box_adds_two_infantry_factors_if_matched() -> None:
    game = duel(8, 2, defender="infantry", map_extra=BOX)  # 8 against 2 + 2: 2:1, not 4:1
    assert odds_of(game)[0] == "2:1"
    game = duel(8, 2, defender="armour", map_extra=BOX)  # no infantry to match it: 4:1
    assert odds_of(game)[0] == "4:1"


@pytest.mark.rule("FA-TER.2")
def test_a_box_bonus_short_of_its_match_gives_what_is_matched() -> None:
    game = duel(8, 1, defender="infantry", map_extra=BOX)  # one infantry factor matches +1 of the +2: 8 to 2
    column, lines = odds_of(game)
    assert column == "4:1" and any("matched by 1 infantry factors: +1" in line for line in lines)


@pytest.mark.rule("FA-TER.2")
def test_the_box_helps_only_its_own_side() -> None:
    units = unit("A", "allied", "A2", factors="2-2-3") + unit("D", "axis", "A3", type_="infantry", factors="2-2-2")
    game = game_at(units, "axis-movement", rows=1, columns=6, map_extra=BOX)
    o = game.system.odds(game, Attack((H("A3"),), ("A",)), Side.ALLIED)
    assert o is not None and o.column == "1:1"  # an Axis unit in an Allied box gets nothing (GG-XI.A.2)


@pytest.mark.rule("FA-TER.3")
def test_the_el_alamein_box_adds_three() -> None:
    extra = BOX + '[map.zones]\nalamein = ["A3"]\n'
    game = duel(10, 2, defender="infantry", map_extra=extra, rules='el_alamein_box = "alamein"')
    assert odds_of(game)[0] == "2:1"  # 10 against 2 + 2 (matched, of the +3): 5:2, read 2:1
    game = duel(10, 3, defender="infantry", map_extra=extra, rules='el_alamein_box = "alamein"')
    assert odds_of(game)[0] == "3:2"  # 10 against 3 + 3: 5:3, read 3:2


@pytest.mark.rule("FA-TER.4")
@pytest.mark.parametrize("terrain", ["deir", "ridge", "hill", "tel"])
def test_depressions_and_ridges_add_one_for_an_infantry_unit(terrain: str) -> None:
    where = f'[map.terrain]\n{terrain} = ["A3"]\n'
    game = duel(6, 2, defender="infantry", map_extra=where)
    assert odds_of(game)[0] == "2:1"  # 6 against 3
    game = duel(6, 2, defender="armour", map_extra=where)
    assert odds_of(game)[0] == "3:1"  # no infantry: nothing


@pytest.mark.rule("FA-TER.4")
def test_just_one_infantry_unit_gets_the_plus_one() -> None:
    two = unit("D2", "allied", "A3", type_="infantry", factors="1-1-2")
    game = duel(6, 1, defender="infantry", extra=two, map_extra='[map.terrain]\nhill = ["A3"]\n')
    assert odds_of(game)[0] == "2:1"  # 6 against 1 + 1 + 1: +1 for the hex, not for each unit


@pytest.mark.rule("FA-TER.4")
def test_the_floor_of_the_qattara_depression_is_no_deir() -> None:
    game = duel(6, 2, defender="infantry", map_extra='[map.terrain]\ndepression = ["A3"]\n')
    assert odds_of(game)[0] == "3:1"


@pytest.mark.rule("FA-TER.4")
def test_a_deir_marked_by_a_map_zone() -> None:
    game = duel(6, 2, defender="infantry", map_extra='[map.zones]\ndeirs = ["A3"]\n')
    assert odds_of(game)[0] == "2:1"


@pytest.mark.rule("FA-CRT.8")
def test_no_retreat_orders_keep_de_against_a_survivable_unit() -> None:
    game = game_at(
        unit("A", "axis", "A2", type_="armour", factors="10-10-4")
        + unit("D", "allied", "A3", type_="motorized", factors="1-1-3", extra=SURVIVOR),
        "axis-attacks",
        rows=1,
        columns=6,
        dice=ForcedDice([2]),
    )
    answer(game, "attack A3 with A", "resolve 1", "no-retreat D")
    assert family_unit(game, "D").eliminated


@pytest.mark.rule("FA-CRT.6")
def test_an_attacker_unable_to_retreat_on_ar_is_eliminated() -> None:
    game = game_at(
        unit("A", "axis", "A1", type_="armour", factors="2-2-4") + unit("D", "allied", "A2", factors="2-2-3"),
        "axis-attacks",
        rows=1,
        columns=6,
        dice=ForcedDice([1]),
    )  # 1:1, die 1: AR; A1 is the row's end
    fight(game, "attack A2 with A")
    game.play("retreat-distance 1")
    assert family_unit(game, "A").eliminated


def test_an_attack_is_made_in_small_steps() -> None:
    game = duel(2, 2)
    assert Target(H("A3")) in game.legal_orders()
    game.play(Target(H("A3")))
    assert set(game.legal_orders()) == {Add("A"), Abandon()}
    game.play(Add("A"))
    assert Declare() in game.legal_orders()
    game.play(Declare())
    assert [a.order for a in alamein_vars(game).attacks] == [Attack((H("A3"),), ("A",))]
