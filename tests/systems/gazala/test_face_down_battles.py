"""Attacks on face-down counters (GG-V.B.2, ruling R-HIDDEN): turned up at resolution, then fought or called off.

Inline positions with counters turned face down by hand; Att in B3 touches B4 and C4.
"""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.mechanics.actions import Attack, NoRetreat, Resolve
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse


def dummy(uid: str, hex_: str) -> str:
    return unit_toml(uid, "allied", hex_, echelon="subdivisional", type_="dummy", factors="0-0-0")


def face_down(units: str, attack: int, dice: list[int]) -> Game:
    game: Game = attack_game(unit_toml("Att", "axis", "B3", factors=f"{attack}-1-4") + units, dice=ForcedDice(dice))
    for uid in game.units_of(family_defs(game)["Att"].side.enemy):
        family_unit(game, uid).hidden = True
    return game


@pytest.mark.rule("GG-V.B.2")
def test_an_attack_on_a_dummy_and_a_unit_goes_on_against_the_unit() -> None:
    game = face_down(dummy("Dum", "B4") + unit_toml("Def", "allied", "C4", factors="1-2-2"), 6, [3])
    game.play(Attack((H("B4"), H("C4")), ("Att",)))
    game.play(Resolve(1))
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(NoRetreat())
    assert family_unit(game, "Dum").eliminated and not family_unit(game, "Def").hidden
    assert "Attack on C4 by Att: 6 to 2, 3:1; die 3: R1 (Def R1)" in game.state.log  # B4 dropped from the attack
    assert gazala_vars(game).attacks[0].order.defenders == (H("C4"),)


@pytest.mark.rule("GG-V.B.2")
@pytest.mark.rule("GG-XIV.B.4")
def test_an_attack_that_turns_out_below_1_to_4_is_called_off() -> None:
    game = face_down(unit_toml("Def", "allied", "B4", factors="1-9-2"), 2, [])
    game.play(Attack((H("B4"),), ("Att",)))  # face down: any odds may be declared
    game.play(Resolve(1))
    assert game.state.log[-1] == "Attack 1 is called off: the odds are below 1:4 after all (GG-XIV.B.4)."
    assert family_unit(game, "Att").attacked and gazala_vars(game).attacks[0].resolved and game.dice.log == []


@pytest.mark.rule("GG-V.B.2")
def test_an_attack_on_dummies_only_is_called_off() -> None:
    game = face_down(dummy("Dum", "B4"), 2, [])
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    assert game.state.log[-1] == "Attack 1 is called off: only dummies were there."
    assert family_unit(game, "Att").attacked and family_unit(game, "Dum").eliminated


@pytest.mark.rule("GG-V.B.2")
def test_a_face_down_unit_is_never_named_in_the_log() -> None:
    from tobruk.systems.gazala import moves as mv

    game = face_down(unit_toml("Def", "allied", "C5", factors="1-2-2"), 2, [])
    mv.eliminate(game, "Def", "over the stacking limit")
    assert game.state.log[-1] == "Allied: a unit in C5 eliminated in C5 (over the stacking limit)."
