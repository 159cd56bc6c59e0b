"""Compulsory attacks (GG-XIV.A.2, ruling R-DUTY) and what the attack phase lists.

A hex is due while it holds an undisrupted enemy unit nobody attacked, next to units able to attack it at 1:4 or
better together (from one hex only in a sandstorm, GG-VIII.A.3; never up a towering escarpment, GG-XI.D).
B3 and A4 both touch B4.
"""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack, EndPhase, Target
from tobruk.mechanics.family import family_system

H = Hex.parse


def position(more: str = "", extra: str = "", defence: int = 8) -> Game:
    game: Game = attack_game(
        unit_toml("A1", "axis", "B3", factors="1-1-4")
        + unit_toml("A2", "axis", "A4", factors="1-1-4")
        + unit_toml("Def", "allied", "B4", factors=f"1-{defence}-2")
        + more,
        extra,
    )
    return game


def ends(game: Game) -> bool:
    try:
        game.play(EndPhase())
    except IllegalOrderError as err:
        assert err.clause == "GG-XIV.A.2"
        return False
    return True


@pytest.mark.rule("GG-XIV.A.2")
def test_a_hex_two_hexes_can_take_together_at_1_to_4_is_due() -> None:
    assert not ends(position())  # 1 + 1 against 8: 1:4
    assert ends(position(defence=9))  # 2 against 9: below 1:4, nobody can: the duty lapses


@pytest.mark.rule("GG-XIV.A.2")
@pytest.mark.rule("GG-VIII.A.3")
def test_in_a_sandstorm_only_one_hexs_units_count() -> None:
    game = position()
    game.vars.weather = "sandstorm"
    assert ends(game)  # 1 against 8 from either hex: below 1:4
    game = position(unit_toml("A3", "axis", "A4", factors="1-1-4"))
    game.vars.weather = "sandstorm"
    assert not ends(game)  # A4 alone: 2 against 8


@pytest.mark.rule("GG-XIV.A.2")
@pytest.mark.rule("GG-XI.D")
def test_no_duty_up_a_towering_escarpment() -> None:
    tow = '[map.hexsides]\n"towering-escarpment" = [{ side = "B3|B4", high = "B4" }, { side = "A4|B4", high = "B4" }]\n'
    assert ends(position(extra=tow))


@pytest.mark.rule("GG-XIV.A.2")
def test_the_strongest_attack_is_listed_with_each_hexs_and_each_units() -> None:
    # the listing offers the target (an attack is declared as small actions); the whole attacks worth a look are
    # the system's suggestions
    game = position()
    assert Target(H("B4")) in game.legal_orders()
    attacks = set(family_system(game).suggestions(game, Side.AXIS))
    assert Attack((H("B4"),), ("A1", "A2")) in attacks
    # each alone is below 1:4, so they are not suggested, but the joint attack is
    assert Attack((H("B4"),), ("A1",)) not in attacks and Attack((H("B4"),), ("A2",)) not in attacks
    game = position(defence=4)
    attacks = set(family_system(game).suggestions(game, Side.AXIS))
    assert {Attack((H("B4"),), ("A1",)), Attack((H("B4"),), ("A2",)), Attack((H("B4"),), ("A1", "A2"))} <= attacks
