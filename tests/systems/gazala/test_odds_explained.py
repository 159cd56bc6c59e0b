"""The odds as explained to the player before declaring (Assessment.lines), and the modifiers behind them.

B3 touches B4; terrain on B4 or on the hexside B3|B4.  Factors in halves are shown as 1.5.
"""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import combat as cb

H = Hex.parse


def assess(attacker: str, defenders: str, extra: str = "", disrupted: tuple[str, ...] = ()) -> cb.Assessment:
    game = attack_game(attacker + defenders, extra)
    for uid in disrupted:
        family_unit(game, uid).disrupted = True
    uid = attacker.split('"')[1]
    return cb.assess(game, Attack((H("B4"),), (uid,)), Side.AXIS)


def att(factors: str = "6-1-4", type_: str = "armour", uid: str = "Att") -> str:
    return unit_toml(uid, "axis", "B3", type_=type_, factors=factors)


def dfn(factors: str = "1-2-2", type_: str = "armour", uid: str = "Def") -> str:
    return unit_toml(uid, "allied", "B4", type_=type_, factors=factors)


@pytest.mark.rule("GG-XIV.B.7")
def test_the_aa_units_at_half_against_infantry_and_motorized() -> None:
    a = assess(att("3-3-3", "aa", "Flak"), dfn("1-1-2", "infantry"))
    assert a.lines == ["attack 1.5 against defence 1", "Flak 3 halved (AA unit against infantry and motorized only)"]
    a = assess(att("2-1-2", "infantry"), dfn("2-2-3", "aa", "AA4"))
    assert a.lines == ["attack 2 against defence 1", "Att 2", "AA4 defends at half (AA unit against infantry and motorized only)"]
    a = assess(att("2-1-2", "infantry"), dfn("1-2-2", "infantry"))  # only the AA units are halved
    assert (a.attack2, a.defence2) == (4, 4)
    a = assess(att("2-1-4", "armour"), dfn("2-2-3", "aa", "AA4"))  # armour among the enemy: not halved
    assert a.defence2 == 4


@pytest.mark.rule("GG-XI.A.1")
@pytest.mark.rule("GG-XI.B2")
@pytest.mark.rule("GG-XI.C")
def test_terrain_bonuses_add_up_as_matched() -> None:
    # box +3 and escarpment +2 (attacked up it): 5, matched by 6 infantry factors
    extra = '[map.fortifications]\nallied = ["B4"]\n[map.hexsides]\nescarpment = [{ side = "B3|B4", high = "B4" }]\n'
    a = assess(att("12-1-4"), dfn("1-6-2", "infantry"), extra)
    assert a.defence2 == 2 * 11
    assert a.lines == ["attack 12 against defence 11", "Att 12", "B4: box/fort +3, escarpment +2; matched by 6 infantry factors: +5"]
    a = assess(att(), dfn("1-3-2", "infantry"), '[map.hexsides]\nridge = [{ side = "B3|B4" }]\n')
    assert a.lines[-1] == "B4: ridge +1; matched by 3 infantry factors: +1"
    a = assess(att(), dfn("1-3-2", "infantry"), '[map.terrain]\nhill = ["B4"]\n')
    assert a.lines[-1] == "B4: hill +1; matched by 3 infantry factors: +1"


@pytest.mark.rule("GG-XI.C")
def test_attacking_down_an_escarpment_needs_one_infantry_factor() -> None:
    down = '[map.hexsides]\nescarpment = [{ side = "B3|B4", high = "B3" }]\n'
    a = assess(att("1-1-2", "infantry"), dfn(), down)  # exactly 1 infantry factor: +1
    assert a.attack2 == 2 * 2 and a.lines[-1] == "+1 attacking down the escarpment from B3"
    a = assess(att("1-1-4", "armour"), dfn(), down)  # no infantry: nothing
    assert a.attack2 == 2


@pytest.mark.rule("GG-XI.D")
def test_attacking_down_a_towering_escarpment_at_half() -> None:
    tow = '[map.hexsides]\n"towering-escarpment" = [{ side = "B3|B4", high = "B3" }]\n'
    a = assess(att("3-1-4"), dfn("1-1-2"), tow)
    assert a.lines == ["attack 1.5 against defence 1", "Att 3 halved (attacking down a towering escarpment)"]


@pytest.mark.rule("GG-IX.C")
def test_a_lone_disrupted_defender_and_the_10_to_1_ceiling() -> None:
    a = assess(att("2-1-4"), dfn("1-1-2"), disrupted=("Def",))  # 2 to 1: 2:1, one column higher
    assert a.odds == "3:1" and a.lines[-1] == "defenders disrupted: one column higher"
    a = assess(att("30-1-4"), dfn("1-1-2"), disrupted=("Def",))  # 10:1 stays 10:1
    assert a.odds == "10:1"
