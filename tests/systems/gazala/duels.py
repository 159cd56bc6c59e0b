"""Ground-combat positions of The Gazala Gallop for its combat tests: the 2016 Ground Combat Results Table typed in
from the charts, one attacker against one defender on an inline map with forced dice, the attack on a hex, and an
attack resolved with no No Retreat! orders."""

from __future__ import annotations

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import (
    Attack,
    NoRetreat,
    Resolve,
)

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


# The 2016 Ground Combat Results Table, typed in from the charts: die 1..6 by column.
COLUMNS = ["1:4", "1:3", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1", "7:1", "10:1"]


GCRT = {
    6: ["D", "D", "R2", "R2", "R2", "R2", "DE", "DE", "DE", "DE", "DE"],
    5: ["AR", "D", "R1", "R1", "R1", "R2", "R2", "DE", "DE", "DE", "DE"],
    4: ["DAE", "-", "D", "D", "R1", "R1", "R2", "R2", "DE", "DE", "DE"],
    3: ["AE", "AR", "-", "-", "D", "R1", "R1", "R2", "R2", "DE", "DE"],
    2: ["AE", "DAE", "AR", "DAR", "-", "D", "R1", "R1", "R2", "R2", "DE"],
    1: ["AE", "AE", "DAE", "AR", "DAR", "-", "D", "R1", "R1", "R2", "R2"],
}


# attack and defence factors giving each column exactly
RATIO = {
    "1:4": (1, 4),
    "1:3": (1, 3),
    "1:2": (1, 2),
    "1:1": (2, 2),
    "3:2": (3, 2),
    "2:1": (4, 2),
    "3:1": (6, 2),
    "4:1": (8, 2),
    "5:1": (10, 2),
    "7:1": (14, 2),
    "10:1": (20, 2),
}


def duel(
    attack: int,
    defence: int,
    *,
    dice: list[int] | None = None,
    extra: str = "",
    defender_type: str = "armour",
    defender_hex: str = "B4",
    attacker_hex: str = "B3",
    more: str = "",
    rows: int = 3,
    columns: int = 8,
) -> Game:
    units = (
        unit_toml("Att", "axis", attacker_hex, type_="armour", factors=f"{attack}-1-4")
        + unit_toml("Def", "allied", defender_hex, type_=defender_type, factors=f"1-{defence}-2")
        + more
    )
    return attack_game(units, extra, rows=rows, columns=columns, dice=ForcedDice(dice or []))


def attack_on(game: Game, target: str = "B4", *units: str) -> Attack:
    return Attack((H(target),), tuple(units) or ("Att",))


NO_ORDERS = NoRetreat()


def resolve(game: Game, order: Attack | None = None, answer: NoRetreat = NO_ORDERS) -> Game:
    game.play(order or attack_on(game))
    game.play(Resolve(1))
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(answer)
    return game
