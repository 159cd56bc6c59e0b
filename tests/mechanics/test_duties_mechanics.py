"""The attack phase's duties as a mechanic: which enemy hexes are due, a declaration that strands one, and the
disrupted units that must retreat at the end; with simple rules given as hooks, on a small inline board."""

from __future__ import annotations

from collections.abc import Set

from tests.conftest import make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.duties import Duties, exposed, obligations, owed, owed_words, strands_a_duty, suggested_attacks

H = Hex.parse


class Simple(Duties):
    """Able: undisrupted and not yet attacked; threatening: undisrupted and not attacked; odds: at least 1:4."""

    def able(self, game: Game, side: Side, busy: Set[str], include_exempt: bool) -> dict[Hex, list[str]]:
        out: dict[Hex, list[str]] = {}
        for uid in game.units_of(side):
            u = family_unit(game, uid)
            if u.hex is not None and not u.disrupted and not u.attacked and uid not in busy:
                out.setdefault(u.hex, []).append(uid)
        return out

    def threatens(self, game: Game, uid: str, attacked: Set[str]) -> bool:
        return not family_unit(game, uid).disrupted and uid not in attacked

    def can_declare(self, game: Game, order: Attack, side: Side) -> bool:
        attack = sum(family_defs(game)[u].attack for u in order.attackers)
        defence = sum(family_defs(game)[u].defence for h in order.defenders for u in game.units_at(h, side.enemy))
        return 4 * attack >= defence


class Exempting(Simple):
    """As :class:`Simple`, with unit E exempt from the duty unless asked for (as a system exempts units in a box its
    side holds)."""

    def able(self, game: Game, side: Side, busy: Set[str], include_exempt: bool) -> dict[Hex, list[str]]:
        out = super().able(game, side, busy, include_exempt)
        if not include_exempt:
            out = {h: left for h, units in out.items() if (left := [u for u in units if u != "E"])}
        return out


def board(extra: str = "") -> Game:
    units = (
        unit_toml("A", "axis", "B2", factors="2-2-4")
        + unit_toml("X", "allied", "B3", factors="1-1-2")
        + unit_toml("Y", "allied", "C3", factors="1-1-2")
        + unit_toml("Z", "allied", "A2", factors="9-9-2")
        + extra
    )
    return Game(make_scenario(units))


def test_due_hexes_need_a_threat_and_odds_on_the_table() -> None:
    game = board()
    # X and Y threaten and can be attacked at 1:4 or better; Z (9 against 2: below 1:4) cannot, so it is not due
    assert obligations(game, Side.AXIS, Simple()) == [H("B3"), H("C3")]
    family_unit(game, "Y").disrupted = True
    game.forget_caches()
    assert obligations(game, Side.AXIS, Simple()) == [H("B3")]
    game.vars.attacked_units = ("X",)
    assert obligations(game, Side.AXIS, Simple()) == []


def test_who_owes_each_due_attack_leaves_out_the_units_exempt_from_the_duty() -> None:
    # E (exempt) is next to B3 only, F next to both due hexes, as A is: the attacks are owed by A and F
    game = board(unit_toml("E", "axis", "A4", factors="2-2-4") + unit_toml("F", "axis", "C4", factors="2-2-4"))
    assert owed(game, Side.AXIS, Exempting()) == [(H("B3"), ("A", "F")), (H("C3"), ("A", "F"))]
    assert owed(game, Side.AXIS, Simple()) == [(H("B3"), ("A", "E", "F")), (H("C3"), ("A", "F"))]  # E owes it when not exempt
    game.vars.attacked_units = ("X", "Y")
    assert owed(game, Side.AXIS, Exempting()) == []


def test_the_owed_attacks_in_words_name_the_units_of_each_hex() -> None:
    assert owed_words([(H("B3"), ("A", "F")), (H("C3"), ("A",))]) == "B3 by A, F; C3 by A"
    assert owed_words([(H("B3"), ())]) == "B3"  # (a due hex nobody next to it may attack any more)


def test_a_declaration_that_strands_a_due_hex() -> None:
    game = board()
    # A alone is next to both due hexes: attacking B3 alone would leave C3 with nobody, but B3 and C3 together
    # can be attacked at 2 to 2: the narrower declaration strands C3
    assert strands_a_duty(game, Attack((H("B3"),), ("A",)), Side.AXIS, Simple()) == H("C3")
    assert strands_a_duty(game, Attack((H("B3"), H("C3")), ("A",)), Side.AXIS, Simple()) is None


def test_disrupted_units_next_to_an_unattacked_threat_are_exposed() -> None:
    game = board()
    family_unit(game, "A").disrupted = True
    assert exposed(game, Side.AXIS, Simple()) == {"A": [H("A2"), H("B3"), H("C3")]}
    game.vars.attacked_units = ("X", "Y", "Z")
    assert exposed(game, Side.AXIS, Simple()) == {}


def test_suggestions_are_widened_to_take_in_a_stranded_hex() -> None:
    game = board()

    def check(order: Attack) -> None:
        if not Simple().can_declare(game, order, Side.AXIS):
            raise IllegalOrderError("T-1", "below 1:4")
        if strands_a_duty(game, order, Side.AXIS, Simple()) is not None:
            raise IllegalOrderError("T-2", "strands a due hex")

    # against B3 and C3 alone A strands the other, so both come back as the one attack on B3 and C3; against Z
    # (A2) A is below 1:4 and strands nothing to widen with: no suggestion
    assert suggested_attacks(game, Side.AXIS, Simple(), check) == [Attack((H("B3"), H("C3")), ("A",))]
