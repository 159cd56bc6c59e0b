"""The special units (CA-U.2, CA-U.3) as combat will read them, on the order of battle's own counters.

CA-U.2: the Recce Gruppe, the 7th Armoured Support Group and the 3rd Indian Motor Brigade read a DE as a D2 when
defending.  CA-U.3: the 8th Army artillery is disrupted at the end of any movement, destroyed by D1, D2, DE and
Bltz, defends at 2 and attacks at 6.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.systems.campaign.boards import board, position
from tests.systems.campaign.campaign_data import forces
from tobruk.systems.campaign.special import (
    GCRT_CODES,
    after_movement,
    always_two,
    attack_factor,
    defence_factor,
    defender_reading,
    hard_to_pin,
)

STARRED = ("RecceGp", "7ArmSpt", "3IndMotBde")


@pytest.mark.rule("CA-U.2")
@pytest.mark.parametrize("uid", STARRED)
def test_a_de_against_the_three_reads_d2(uid: str) -> None:
    u = forces().units[uid]
    assert hard_to_pin(u)
    assert defender_reading(u, "DE") == "D2"
    # every other result as printed: Bltz still eliminates, D2 stays D2, an exchange is an exchange
    for code in sorted(GCRT_CODES - {"DE"}):
        assert defender_reading(u, code) == code


@pytest.mark.rule("CA-U.2")
@pytest.mark.parametrize("uid", ("1ArmSpt", "GdsBde", "90Lt", "5IndDiv", "4LtArmBde", "15MotBde"))
def test_other_units_read_de_as_printed(uid: str) -> None:
    # the 1st Armoured Support Group, a sister of the 7th, has no star: the clause names the 7th alone
    u = forces().units[uid]
    assert not hard_to_pin(u)
    assert defender_reading(u, "DE") == "DE"


@pytest.mark.rule("CA-U.2")
def test_the_starred_units_of_the_order_of_battle_are_the_clauses_and_the_listings() -> None:
    starred = {uid for uid, u in forces().units.items() if hard_to_pin(u)}
    assert starred == {*STARRED, "Folgore", "Ramcke"}  # the listings' starred Folgore and Ramcke (CA-SC.8-9)


@pytest.mark.rule("CA-U.3")
@pytest.mark.parametrize(("code", "reading"), [("D1", "DE"), ("D2", "DE"), ("DE", "DE"), ("Bltz", "DE"), ("D", "D"), ("X", "X")])
def test_the_artillery_is_destroyed_by_d1_d2_de_and_bltz(code: str, reading: str) -> None:
    arty = forces().units["8ArmyArty"]
    assert defender_reading(arty, code) == reading
    # an ordinary unit is not destroyed by a D1 or a D2
    assert defender_reading(forces().units["GdsBde"], code) == code


@pytest.mark.rule("CA-U.3")
def test_the_artillery_defends_at_2_and_attacks_at_6() -> None:
    arty = forces().units["8ArmyArty"]
    assert (defence_factor(arty), attack_factor(arty)) == (2, 6)
    assert always_two(arty) and not always_two(forces().units["GdsBde"])
    gds = forces().units["GdsBde"]
    assert (defence_factor(gds), attack_factor(gds)) == (gds.defence, gds.attack) == (2, 2)


@pytest.mark.rule("CA-U.3")
def test_the_artillery_is_disrupted_at_the_end_of_any_movement() -> None:
    p = position(board(1, 3), "8ArmyArty@A1", "GdsBde@A2")
    arty, gds = p.unit("8ArmyArty"), p.unit("GdsBde")
    assert not arty.disrupted
    assert after_movement(arty).disrupted
    assert not after_movement(arty).newly_disrupted
    assert after_movement(gds) == gds  # other units end a move as they were


def test_a_code_not_on_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match=r"CA-G\.2"):
        defender_reading(forces().units["GdsBde"], "R2")


@pytest.mark.rule("CA-U.3")
def test_the_artillerys_factors_are_the_clauses_whatever_its_counter_prints() -> None:
    arty = replace(forces().units["8ArmyArty"], attack=3, defence=1)  # (a counter printed otherwise)
    assert (defence_factor(arty), attack_factor(arty)) == (2, 6)
    dummy = forces().units["TobrukDummy"]  # any other unit: as printed, here 0-0 (CA-F.4)
    assert (defence_factor(dummy), attack_factor(dummy)) == (0, 0)


@pytest.mark.rule("CA-G.2")
def test_a_code_not_on_the_table_is_refused_naming_the_tables_codes() -> None:
    with pytest.raises(ValueError) as e:
        defender_reading(forces().units["GdsBde"], "R2")
    assert str(e.value) == "'R2' is not a result of the ground combat table (CA-G.2: AD, AE, Bltz, D, D/AE, D1, D2, DE, X)"
