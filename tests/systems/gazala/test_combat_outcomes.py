"""The probability table a player sees before declaring (System.outcomes: the battle's die grouped by result): results
as the defenders will feel them.

GCRT columns (2016 charts), die 1 to 6: 1:1 AR, DAR, -, D, R1, R2; 10:1 R2, DE, DE, DE, DE, DE.  Against units in
their own box (GG-XI.A.1) R1 becomes D, R2 a compulsory R1, DE a compulsory R2; the attackers' results stand.
Entries come most likely first, then in the order of their names.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack

H = Hex.parse
SIXTH = Fraction(1, 6)
BOX_B4 = '[map.fortifications]\nallied = ["B4"]\n'


def table(attack: int, defenders: str, hexes: tuple[str, ...] = ("B4",), extra: str = BOX_B4) -> list[tuple[str, Fraction]]:
    game = attack_game(unit_toml("Att", "axis", "B3", factors=f"{attack}-1-4") + defenders, extra)
    return game.system.outcomes(game, Attack(tuple(H(h) for h in hexes), ("Att",)), Side.AXIS)


def tank(uid: str, hex_: str, defence: int = 2) -> str:
    return unit_toml(uid, "allied", hex_, type_="armour", factors=f"1-{defence}-2")  # armour: no box bonus


@pytest.mark.rule("GG-XI.A.1")
def test_a_box_at_1_to_1() -> None:
    assert table(2, tank("Def", "B4")) == [("D", 2 * SIXTH), ("-", SIXTH), ("AR", SIXTH), ("DAR", SIXTH), ("R1 (compulsory)", SIXTH)]


@pytest.mark.rule("GG-XI.A.1")
def test_a_box_at_10_to_1() -> None:
    assert table(20, tank("Def", "B4")) == [("R2 (compulsory)", 5 * SIXTH), ("R1 (compulsory)", SIXTH)]


@pytest.mark.rule("GG-XI.A.1")
def test_a_box_at_1_to_4_the_attackers_results_stand() -> None:
    # 1:4: AE, AE, AE, DAE, AR, D; the box converts none of them (its D stays a D)
    assert table(1, tank("Def", "B4", defence=4)) == [("AE", 3 * SIXTH), ("AR", SIXTH), ("D", SIXTH), ("DAE", SIXTH)]


@pytest.mark.rule("GG-XI.A.1")
def test_a_box_and_an_open_hex_together() -> None:
    # B3 touches B4 (the box) and C4; 4 to 4 is 1:1: each result with what it becomes in the box
    assert table(4, tank("Def", "B4") + tank("Def2", "C4"), ("B4", "C4")) == [
        ("- (- in the box)", SIXTH),
        ("AR (AR in the box)", SIXTH),
        ("D (D in the box)", SIXTH),
        ("DAR (DAR in the box)", SIXTH),
        ("R1 (D in the box)", SIXTH),
        ("R2 (R1 (compulsory) in the box)", SIXTH),
    ]


@pytest.mark.rule("GG-XIV.C.3")
def test_without_a_box_the_chart_as_it_is() -> None:
    assert table(20, tank("Def", "B4"), extra="") == [("DE", 5 * SIXTH), ("R2", SIXTH)]


@pytest.mark.rule("GG-XIV.B.4")
def test_below_1_to_4_there_is_no_table() -> None:
    assert table(1, tank("Def", "B4", defence=5), extra="") == []


def test_players_get_the_same_table_through_the_system_and_nothing_for_a_wrong_declaration() -> None:
    # computer players read the table through System.outcomes, which answers [] instead of refusing
    game = attack_game(unit_toml("Att", "axis", "B3", factors="20-1-4") + tank("Def", "B4"))
    order = Attack((H("B4"),), ("Att",))
    assert game.system.outcomes(game, order, Side.AXIS) != []
    assert game.system.outcomes(game, Attack((H("B4"),), ("Nobody",)), Side.AXIS) == []


@pytest.mark.rule("GG-XIV.B.4")
def test_no_die_is_rolled_below_the_lowest_column() -> None:
    from tobruk.engine.errors import IllegalOrderError
    from tobruk.systems.gazala import combat as cb

    game = attack_game(unit_toml("Att", "axis", "B3", factors="1-1-4") + tank("Def", "B4", defence=5))  # 1 to 5: below 1:4
    with pytest.raises(IllegalOrderError) as err:
        cb.combat_die(game, Attack((H("B4"),), ("Att",)), Side.AXIS)
    assert (err.value.clause, err.value.reason) == ("GG-XIV.B.4", "the odds are below the lowest column")
