"""Small inline 1st Alamein scenarios for the tests: a board in a few lines, units by their counters, and ways
to reach a step of the sequence of play with the position arranged."""

from __future__ import annotations

import tomllib
from typing import Any, TypedDict

from tobruk.board.hexes import Hex
from tobruk.engine.dice import Dice
from tobruk.engine.game import Game
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import Scenario, read_scenario
from tobruk.mechanics.actions import EndPhase, Place

H = Hex.parse

BASE = """
format = "tobruk-scenario"
version = 1
title = "Test"
system = "first-alamein"
turns = {turns}

[map]
name = "test"
grid = {{ rows = {rows}, columns = {columns} }}
{map_extra}

{units}

[rules]
{rules}
"""


def unit(
    uid: str,
    side: str,
    hex_: str | None,
    *,
    echelon: str = "division",
    type_: str = "infantry",
    factors: str = "2-2-3",
    nationality: str = "",
    extra: str = "",
) -> str:
    """A unit's TOML; ``hex_`` None: off the map (an air unit, or give ``arrives`` in ``extra``)."""
    where = f'hex = "{hex_}"' if hex_ else ("" if "arrives" in extra else "off_map = true")
    nation = nationality or ("german" if side == "axis" else "british")
    return (
        f'[[unit]]\nid = "{uid}"\nname = "{uid}"\nside = "{side}"\nnationality = "{nation}"\n'
        f'echelon = "{echelon}"\ntype = "{type_}"\nfactors = "{factors}"\n{where}\n{extra}\n'
    )


def air(uid: str, side: str, nationality: str = "") -> str:
    return unit(uid, side, None, type_="air", factors="0-0-0", nationality=nationality)


def scenario(
    units: str = "", *, rows: int = 5, columns: int = 8, map_extra: str = "", turns: int = 10, rules: str = "", tail: str = ""
) -> Scenario:
    text = BASE.format(turns=turns, rows=rows, columns=columns, map_extra=map_extra, units=units, rules=rules) + tail
    data: dict[str, Any] = tomllib.loads(text)
    return read_scenario(Table(data, "inline.toml"), "inline")


class Grid(TypedDict):
    """A board's size, given to :func:`game_at` or :func:`scenario` as ``**ROW`` by the tests that play on one row."""

    rows: int
    columns: int


def game_at(
    units: str,
    key: str,
    *,
    dice: Dice | None = None,
    seed: int = 0,
    rows: int = 5,
    columns: int = 8,
    map_extra: str = "",
    turns: int = 10,
    rules: str = "",
    tail: str = "",
) -> Game:
    """A game on an inline board (:func:`scenario`), brought to step ``key`` of turn 1 by ending every step before it
    (with no reinforcement due there, its units unmoved)."""
    board = scenario(units, rows=rows, columns=columns, map_extra=map_extra, turns=turns, rules=rules, tail=tail)
    return advance_to(Game(board, seed=seed, dice=dice), key)


def advance_to(game: Game, key: str, turn: int | None = None) -> Game:
    """Play end-phase (or bring in the first reinforcement due) until the game reaches the step ``key`` (of game-turn
    ``turn`` if given)."""
    for _ in range(500):
        d = game.decision
        if d is None:
            raise AssertionError(f"the game ended before step {key}")
        if d.phase == key and d.clause != "FA-STK.1" and (turn is None or game.turn == turn):
            return game
        game.play(
            next((a for a in game.legal_orders() if isinstance(a, Place)), EndPhase()) if d.phase.endswith("reinforcement") else EndPhase()
        )
    raise AssertionError(f"never reached step {key}")


def keys(game: Game) -> list[str]:
    return [s.key for s in game.steps]
