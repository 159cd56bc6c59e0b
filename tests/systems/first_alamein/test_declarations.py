"""What 1st Alamein checks in a declared attack before the die, through the odds hook the faces ask (the same
check a declaration meets): each refusal with its Gazala clause and its words (GG-XIV.A-B, FA-SEQ.1, where the
charts are silent), and the odds' lines: the terrain's matched bonus (FA-TER.2-4) and spent defenders one
column higher (GG-IX.C)."""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import H, air, game_at, unit
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.counters import family_unit

# A (4 factors) in B3 is next to both A4 and B4; B (2) in B2 is next to B4 only
FRONT = (
    unit("A", "axis", "B3", factors="4-4-4")
    + unit("B", "axis", "B2", factors="2-2-4")
    + unit("D1", "allied", "A4")
    + unit("D2", "allied", "B4")
    + air("LW", "axis", "german")
    + unit("R", "axis", None, extra='arrives = { turn = 5, zone = "w" }')
)


def front(rules: str = "") -> Game:
    return game_at(FRONT, "axis-attacks", rows=2, columns=8, tail='[zones.w]\nhexes = ["A1"]\n', rules=rules)


def refusal(game: Game, attack: Attack) -> tuple[str, str]:
    with pytest.raises(IllegalOrderError) as exc:
        game.system.odds(game, attack, Side.AXIS)
    return exc.value.clause, exc.value.reason


def attack(hexes: str, units: tuple[str, ...], partial: tuple[tuple[str, int], ...] = ()) -> Attack:
    return Attack(tuple(H(h) for h in hexes.split(",")), units, partial)


@pytest.mark.rule("GG-XIV.A.4")
@pytest.mark.rule("GG-XIV.A.1")
@pytest.mark.rule("GG-XIV.A.2")
@pytest.mark.rule("GG-XIV.B.1")
@pytest.mark.parametrize(
    ("order", "clause", "reason"),
    [
        (attack("A4", ()), "GG-XIV.A.4", "an attack needs at least one attacking unit"),
        (attack("A4", ("A", "A")), "GG-XIV.A.4", "a unit or hex is named twice"),
        (attack("A4,A4", ("A",)), "GG-XIV.A.4", "a unit or hex is named twice"),
        (attack("A4", ("LW",)), "GG-XIV.A.1", "'LW' is not one of your ground units"),
        (attack("A4", ("D2",)), "GG-XIV.A.1", "'D2' is not one of your ground units"),
        (attack("A4", ("R",)), "GG-XIV.A.1", "R is not on the map"),  # a reinforcement still to come
        (attack("A4", ("A",), (("A", 5),)), "GG-XIV.B.1", "A can attack with 1 to 4 factors, not 5"),
        (attack("A4", ("A",), (("B", 1),)), "GG-XIV.B.1", "B has factors given but is not attacking"),
        (attack("A5", ("A",)), "GG-XIV.A.2", "A5 holds no enemy units"),
        (attack("A4", ("B",)), "GG-XIV.A.4", "every attacker must be next to every defending hex: B2 is not next to A4"),
    ],
)
def test_a_malformed_attack_is_refused_by_its_clause(order: Attack, clause: str, reason: str) -> None:
    assert refusal(front(), order) == (clause, reason)


@pytest.mark.rule("GG-XIV.A.6")
def test_a_unit_in_a_declared_attack_is_in_no_other() -> None:
    game = front()
    game.play("attack A4,B4 with A")
    assert refusal(game, attack("B4", ("A",))) == ("GG-XIV.A.6", "A is in another declared attack: cancel that one first")


@pytest.mark.rule("FA-SEQ.1")
@pytest.mark.rule("GG-XIV.A.3")
def test_a_unit_attacks_once_a_game_turn_and_never_spent() -> None:
    game = front()
    family_unit(game, "A").attacked = True
    assert refusal(game, attack("A4", ("A",))) == ("FA-SEQ.1", "A has attacked already this game-turn")
    game = front(rules='spent_at_start = ["A"]')
    assert refusal(game, attack("A4", ("A",))) == ("GG-XIV.A.3", "A is spent and may not attack")


@pytest.mark.rule("GG-XIV.A.2")
def test_a_declaration_may_not_strand_a_hex_that_must_be_attacked() -> None:
    game = front()  # B4 must be attacked and A is the only unit next to A4
    with pytest.raises(IllegalOrderError) as exc:
        game.play("attack A4 with A")
    assert (exc.value.clause, exc.value.reason) == (
        "GG-XIV.A.2",
        "this would leave B4, which must be attacked, with no unit able to attack it: include it or keep units for it",
    )


# --- the odds' lines ----------------------------------------------------------------------------------------
def odds(units: str, order: str, *, rows: int = 1, map_extra: str = "", rules: str = "") -> tuple[str, tuple[str, ...]]:
    game = game_at(units, "axis-attacks", rows=rows, columns=8, map_extra=map_extra, rules=rules)
    o = game.system.odds(game, game.parse(order), Side.AXIS)
    assert o is not None
    return o.column, o.lines


ATTACKER = unit("A", "axis", "A2", factors="8-8-4")


def defenders(*factors: int) -> str:
    return "".join(unit(f"D{i}", "allied", "A3", type_="infantry", factors=f"{f}-{f}-2") for i, f in enumerate(factors, 1))


@pytest.mark.rule("GG-IX.C")
def test_spent_defenders_holding_half_the_factors_read_one_column_higher() -> None:
    column, lines = odds(ATTACKER + defenders(2, 2), "attack A3 with A", rules='spent_at_start = ["D1"]')
    assert column == "3:1" and lines == ("attack 8 against defence 4", "A 8", "defenders spent: one column higher")  # 2:1 + 1
    column, lines = odds(ATTACKER + defenders(2, 1), "attack A3 with A", rules='spent_at_start = ["D2"]')
    assert column == "2:1" and "defenders spent: one column higher" not in lines  # 1 of 3 factors spent: 8:3, read 2:1
    column, _ = odds(ATTACKER + defenders(1), "attack A3 with A", rules='spent_at_start = ["D1"]')
    assert column == "10:1"  # 8:1 reads 7:1, one column higher


@pytest.mark.rule("GG-IX.C")
def test_the_spent_shift_needs_every_defending_hex_spent() -> None:
    """Ruling on GG-IX.C: one column higher only when every defending hex counts as spent, hex by hex."""
    units = (
        unit("A", "axis", "B3", factors="4-4-4")
        + unit("B", "axis", "B3", factors="4-4-4")
        + unit("D1", "allied", "A4")
        + unit("D2", "allied", "B4")
    )
    column, lines = odds(units, "attack A4,B4 with A,B", rows=2, rules='spent_at_start = ["D1"]')
    assert column == "2:1" and lines[0] == "attack 8 against defence 4"  # 8 to 2 + 2: 2:1; B4 is not spent
    column, _ = odds(units, "attack A4,B4 with A,B", rows=2, rules='spent_at_start = ["D1", "D2"]')
    assert column == "3:1"  # both hexes spent: one column higher


@pytest.mark.rule("FA-CRT.1")
def test_an_attack_below_one_to_four_reads_so() -> None:
    assert odds(unit("A", "axis", "A2", factors="1-1-4") + defenders(5), "attack A3 with A")[0] == "below 1:4"


@pytest.mark.rule("FA-TER.2")
@pytest.mark.rule("FA-TER.4")
def test_a_box_on_a_hill_adds_both_as_far_as_matched() -> None:
    where = '[map.fortifications]\nallied = ["A3"]\n[map.terrain]\nhill = ["A3"]\n'
    _, lines = odds(ATTACKER + defenders(3), "attack A3 with A", map_extra=where)
    assert lines == ("attack 8 against defence 6", "A 8", "A3: box +2, hill +1; matched by 3 infantry factors: +3")


@pytest.mark.rule("FA-TER.3")
@pytest.mark.rule("FA-TER.4")
def test_the_el_alamein_box_and_a_deir_zone_are_named() -> None:
    where = '[map.fortifications]\nallied = ["A3"]\n[map.zones]\nalamein = ["A3"]\ndeirs = ["A3"]\n'
    _, lines = odds(ATTACKER + defenders(4), "attack A3 with A", map_extra=where, rules='el_alamein_box = "alamein"')
    assert lines[-1] == "A3: El Alamein box +3, deirs +1; matched by 4 infantry factors: +4"


@pytest.mark.rule("GG-XIV.A.2")
def test_the_step_says_why_it_may_not_end_the_hexes_owed_an_attack_and_who_owes_each() -> None:
    game = front()
    d = game.decision
    assert d is not None
    why = game.step.unended(game, d.side)
    assert why is not None and why.clause == "GG-XIV.A.2"
    assert why.reason == "attacks still owed: A4 by A; B4 by A (every hex of unspent enemy units next to yours must be attacked)"
