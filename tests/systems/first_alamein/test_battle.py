"""1st Alamein's battles through the battle mechanics' hooks: the spent units' AR at the end of the attacks
(GG-IX.B), the die's log line as players read it, the chances before the die, the No Retreat! choices
(GG-XIV.B.5, FA-CRT.7), eliminations (FA-CRT.3, 7) and the stacking limit's refusals (FA-STK.1, GG-XII.A.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.first_alamein.kit import Grid, H, game_at, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.offers import offers
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack, EndPhase, Hold, NoRetreat
from tobruk.mechanics.control import controllers
from tobruk.mechanics.counters import family_unit

ROW: Grid = {"rows": 1, "columns": 8}


def legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_orders()]


@pytest.mark.rule("GG-IX.B")
def test_spent_units_next_to_unattacked_enemy_units_take_an_ar_as_the_attacks_end() -> None:
    units = unit("S", "axis", "A3") + unit("S2", "axis", "A3") + unit("F", "axis", "A1") + unit("E", "allied", "A4")
    game = game_at(units, "axis-attacks", rules='spent_at_start = ["S", "S2"]', **ROW)
    game.play(EndPhase())
    assert "S, S2: spent next to unattacked enemy units, AR (GG-IX.B)." in game.state.log
    d = game.decision
    # AR: retreated 0-1 hexes by the defender, here the Allies (FA-CRT.6)
    assert d is not None and d.side.value == "allied" and d.clause == "GG-XIV.D.1" and d.phase == "axis-attacks"
    assert legal(game) == ["retreat-distance 0", "retreat-distance 1"]
    game.play("retreat-distance 1")
    game.play("retreat S2 A3-A2")
    game.play("retreat S A3-A2")
    assert family_unit(game, "S").hex == family_unit(game, "S2").hex == H("A2")
    assert game.decision is not None and game.decision.phase == "allied-movement"  # the attacks are over
    assert game.state.log.count("S, S2: spent next to unattacked enemy units, AR (GG-IX.B).") == 1


@pytest.mark.rule("GG-IX.B")
def test_the_end_of_the_attacks_is_offered_with_the_ar_it_costs() -> None:
    """The spent S and S2 next to E, whom nobody attacked: ending the attacks is offered with the AR it brings (the
    page asks to confirm it); F, spent too but next to no enemy, is not named; once the AR is done, nothing is."""
    units = unit("S", "axis", "A3") + unit("S2", "axis", "A3") + unit("F", "axis", "A1") + unit("E", "allied", "A4")
    game = game_at(units, "axis-attacks", rules='spent_at_start = ["S", "S2", "F"]', **ROW)
    (end,) = [e for e in offers(game)["actions"] if e["verb"] == "end-phase"]
    assert end["warning"] == "S, S2: spent next to enemy units nobody attacked, so they must retreat (AR, GG-IX.B)"
    fresh = game_at(units, "axis-attacks", rules='spent_at_start = ["F"]', **ROW)
    assert all("warning" not in e for e in offers(fresh)["actions"])


@pytest.mark.rule("GG-IX.B")
def test_no_ar_where_no_spent_unit_stands_next_to_an_unattacked_enemy() -> None:
    units = unit("S", "axis", "A2") + unit("E", "allied", "A4")
    game = game_at(units, "axis-attacks", rules='spent_at_start = ["S"]', **ROW)
    game.play(EndPhase())
    assert family_unit(game, "S").hex == H("A2") and not any("AR (GG-IX.B)" in t for t in game.state.log)
    assert game.decision is not None and game.decision.phase == "allied-movement"


# --- the die and its log line ------------------------------------------------------------------------------
def two_hex_attack(die: int) -> Game:
    """A and B (4 factors each, in B3) against D1 in A4 and D2 in B4 (2 each): 8 to 4, 2:1."""
    units = (
        unit("A", "axis", "B3", factors="4-4-4")
        + unit("B", "axis", "B3", factors="4-4-4")
        + unit("D1", "allied", "A4")
        + unit("D2", "allied", "B4")
    )
    game = game_at(units, "axis-attacks", rows=2, columns=8, dice=ForcedDice([die]))
    game.play("attack A4,B4 with A,B")
    game.play("resolve 1")
    game.play("no-retreat")
    return game


def battle_lines(game: Game) -> list[str]:
    return [e.text for e in game.state.entries if e.kind == "battle"]


@pytest.mark.rule("FA-CRT.2")
def test_the_log_gives_the_hexes_the_attackers_the_odds_the_die_and_who_is_hit() -> None:
    # 2:1, die 2: S, the defenders spent, the attackers untouched
    assert battle_lines(two_hex_attack(2)) == ["Attack 1 on A4,B4 by A,B: 8 to 4, 2:1; die 2: S (D1 S, D2 S)"]
    # 2:1, die 1: -, nobody hit
    assert battle_lines(two_hex_attack(1)) == ["Attack 1 on A4,B4 by A,B: 8 to 4, 2:1; die 1: -"]


@pytest.mark.rule("GG-IX.B")
def test_a_defender_attacked_this_phase_sends_no_spent_unit_back() -> None:
    # A attacks E from A3; spent S stands on E's other side, in A5; the attack leaves E where it is (2:1, die 1: -)
    units = unit("A", "axis", "A3", factors="4-4-4") + unit("S", "axis", "A5") + unit("E", "allied", "A4")
    game = game_at(units, "axis-attacks", dice=ForcedDice([1]), rules='spent_at_start = ["S"]', **ROW)
    game.play("attack A4 with A")
    game.play("resolve 1")
    if game.decision is not None and game.decision.clause == "FA-CRT.7":
        game.play("no-retreat")
    game.play(EndPhase())
    assert not any("AR (GG-IX.B)" in t for t in game.state.log) and family_unit(game, "S").hex == H("A5")


# --- the chances before the die (FA-CRT.1) -------------------------------------------------------------
@pytest.mark.rule("FA-CRT.1")
def test_the_chances_most_likely_first_then_by_code() -> None:
    def chances(attack: int, defence: int) -> list[tuple[str, Fraction]]:
        units = unit("A", "axis", "A2", factors=f"{attack}-{attack}-4") + unit("D", "allied", "A3", factors=f"{defence}-{defence}-3")
        game = game_at(units, "axis-attacks", **ROW)
        return game.system.outcomes(game, Attack((H("A3"),), ("A",)), Side.AXIS)

    sixth, third = Fraction(1, 6), Fraction(1, 3)
    # 2:1 reads -, S, R1, R1, R2, R2 (die 1 to 6)
    assert chances(4, 2) == [("R1", third), ("R2", third), ("-", sixth), ("S", sixth)]
    # 1:2 reads SAE, AR, -, S, R1, R2: one chance each, by code
    assert chances(1, 2) == [("-", sixth), ("AR", sixth), ("R1", sixth), ("R2", sixth), ("S", sixth), ("SAE", sixth)]


# --- No Retreat! (GG-XIV.B.5, FA-CRT.7) ------------------------------------------------------------------
def no_retreat_asked(d_factors: int, d2_factors: int) -> Game:
    units = (
        unit("A", "axis", "A2", factors="8-8-4")
        + unit("D", "allied", "A3", factors=f"{d_factors}-{d_factors}-3")
        + unit("D2", "allied", "A3", factors=f"{d2_factors}-{d2_factors}-3")
    )
    game = game_at(units, "axis-attacks", **ROW)
    game.play("attack A3 with A")
    game.play("resolve 1")
    assert game.decision is not None and game.decision.clause == "FA-CRT.7"
    return game


@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_orders_to_exactly_half_the_factors_are_enough() -> None:
    game = no_retreat_asked(2, 2)
    assert set(game.legal_orders()) == {NoRetreat(), Hold("D"), Hold("D2")}
    game.play(Hold("D2"))  # D2 holds 2 of the hex's 4 factors: half
    assert set(game.legal_orders()) == {NoRetreat(), Hold("D")}


@pytest.mark.rule("FA-CRT.7")
def test_no_retreat_orders_to_a_third_of_the_factors_are_not() -> None:
    game = no_retreat_asked(2, 1)
    game.play(Hold("D2"))  # D2 holds 1 of 3 factors: D must be ordered too
    assert set(game.legal_orders()) == {Hold("D")}


# --- retreat room (FA-CRT.3, 8) ------------------------------------------------------------------------------
@pytest.mark.rule("FA-CRT.3")
def test_r2_with_exactly_two_hexes_of_room_is_a_retreat() -> None:
    # 2:1, die 5: R2; D in A3 has A4 and A5 behind it, the edge after
    units = unit("A", "axis", "A2", factors="4-4-4") + unit("D", "allied", "A3")
    game = game_at(units, "axis-attacks", rows=1, columns=5, dice=ForcedDice([5]))
    game.play("attack A3 with A")
    game.play("resolve 1")
    game.play("no-retreat")
    assert not family_unit(game, "D").eliminated and [str(a) for a in game.legal_orders()][-1] == "retreat-distance 2"


@pytest.mark.rule("FA-CRT.8")
def test_a_survivable_unit_with_exactly_two_hexes_of_room_survives_de() -> None:
    units = unit("A", "axis", "A2", factors="10-10-4") + unit("D", "allied", "A3", factors="1-1-3", extra='flags = ["survivable"]')
    game = game_at(units, "axis-attacks", rows=1, columns=5, dice=ForcedDice([2]))  # 10:1, die 2: DE
    game.play("attack A3 with A")
    game.play("resolve 1")
    game.play("no-retreat")
    assert not family_unit(game, "D").eliminated and family_unit(game, "D").disrupted  # R2 instead: spent


@pytest.mark.rule("FA-CRT.6")
def test_a_unit_eliminated_unable_to_retreat_is_logged_as_a_loss_and_carries_no_marker() -> None:
    units = unit("A", "axis", "A1", factors="2-2-4") + unit("D", "allied", "A2")
    game = game_at(units, "axis-attacks", dice=ForcedDice([1]), **ROW)  # 1:1, die 1: AR; A1 is the row's end
    game.play("attack A2 with A")
    game.play("resolve 1")
    game.play("no-retreat")
    game.play("retreat-distance 1")
    assert family_unit(game, "A").eliminated and not family_unit(game, "A").disrupted
    assert [e.text for e in game.state.entries if e.kind == "loss"] == ["A is eliminated (unable to retreat)."]


@pytest.mark.rule("GG-XIV.A.2")
def test_a_unit_in_its_box_owes_no_attack_but_may_make_one() -> None:
    units = unit("SA", "allied", "A3") + unit("Pz", "axis", "A7")
    game = game_at(units, "allied-movement", map_extra='[map.fortifications]\nallied = ["A3"]\n', **ROW)
    family_unit(game, "Pz").hex = H("A4")  # as if it had come up in the Axis player-turn
    game.play(EndPhase())
    assert legal(game) == ["target A4", "end-phase"]  # SA held its box at the start of the player-turn
    game.play("target A4")
    assert legal(game) == ["add SA", "abandon"]


@pytest.mark.rule("GG-XVI")
def test_a_retreat_through_a_village_takes_it() -> None:
    units = unit("A", "axis", "A2", factors="4-4-4") + unit("D", "allied", "A3")
    game = game_at(units, "axis-attacks", dice=ForcedDice([5]), map_extra='[map.terrain]\nvillage = ["A4"]\n', **ROW)
    assert controllers(game)[H("A4")] is Side.AXIS  # nobody's, outside any Allied set-up zone: the Axis's
    game.play("attack A3 with A")
    game.play("resolve 1")
    game.play("no-retreat")
    game.play("retreat-distance 2")  # 2:1, die 5: R2
    game.play("retreat D A3-A4-A5")
    assert family_unit(game, "D").hex == H("A5") and controllers(game)[H("A4")] is Side.ALLIED


@pytest.mark.rule("FA-CRT.7")
def test_a_no_retreat_order_says_which_faces_then_leave_the_unit_spent_in_place_or_eliminate_it() -> None:
    """A (6) attacks D (2) at 3:1: under orders an R1 leaves D spent where it stands (S), an R2 eliminates it (DE),
    the faces read from the charts' GCRT as typed in for the combat tests."""
    from tests.systems.first_alamein.test_combat import COLUMNS, GCRT

    units = unit("A", "axis", "A2", factors="6-6-4") + unit("D", "allied", "A3", factors="2-2-3")
    game = game_at(units, "axis-attacks", **ROW)
    game.play("attack A3 with A")
    game.play("resolve 1")
    column = COLUMNS.index("3:1")
    r1 = [face for face in range(1, 7) if GCRT[face][column] == "R1"]
    r2 = [face for face in range(1, 7) if GCRT[face][column] == "R2"]
    assert r1 == [2, 3] and r2 == [4, 5]  # (the charts' 3:1 column)
    (words,) = [e["says"] for e in offers(game)["actions"] if e["verb"] == "hold"]
    assert words == (
        "Give D No Retreat! orders: it will not retreat: at 3:1 a 2 or 3 (R1) leaves it spent where it stands (S) instead of a "
        "retreat, and a 4 or 5 (R2) eliminates it (DE) instead of a retreat (FA-CRT.7)"
    )
