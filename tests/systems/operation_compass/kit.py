"""Small inline Operation Compass boards for the tests: a map in a few lines, units by what their counters print, a
game brought to a step of the sequence, and the dice chosen through the chance API (never by patching the dice).

Rows A, C, E ... are not shifted; rows B, D ... sit half a hex east, so C2's neighbours are B1, B2 (north-west,
north-east), C1, C3 (west, east), D1, D2 (south-west, south-east)."""

from __future__ import annotations

import tomllib
from typing import Any

from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import Scenario, read_scenario
from tobruk.mechanics.actions import EndPhase

H = Hex.parse

BASE = """
format = "tobruk-scenario"
version = 1
title = "Test"
system = "operation-compass"
turns = {turns}

{options}

[map]
name = "test"
route_kinds = ["road", "minor-road"]
grid = {{ rows = {rows}, columns = {columns} }}
{map_extra}

{units}
"""

TWO_PLAYERS = '[[option]]\nname = "two-players"\nclause = "OC-RET.1"\ntext = "An Italian player."\n'


def unit(
    uid: str,
    side: str,
    hex_: str,
    *,
    kind: str = "infantry",
    steps: int = 3,
    morale: int = 4,
    attack: int = 2,
    defence: int = 2,
    movement: int = 6,
    support: int = 0,
) -> str:
    """A unit's TOML, as its counter prints it."""
    return (
        f'[[unit]]\nid = "{uid}"\nname = "{uid}"\nside = "{side}"\nnationality = "x"\nkind = "{kind}"\nsteps = {steps}\n'
        f'morale = {morale}\nattack = {attack}\ndefence = {defence}\nmovement = {movement}\nhex = "{hex_}"\n'
        + (f"support = {support}\n" if support else "")  # (none printed: the counter's default, 0)
    )


def allied(uid: str, hex_: str, **kw: Any) -> str:
    return unit(uid, "allied", hex_, **kw)


def italian(uid: str, hex_: str, **kw: Any) -> str:
    return unit(uid, "axis", hex_, **kw)


def scenario(units: str, *, rows: int = 5, columns: int = 8, map_extra: str = "", turns: int = 4, two_players: bool = False) -> Scenario:
    text = BASE.format(
        turns=turns, rows=rows, columns=columns, map_extra=map_extra, units=units, options=TWO_PLAYERS if two_players else ""
    )
    data: dict[str, Any] = tomllib.loads(text)
    return read_scenario(Table(data, "inline.toml"), "inline")


def play_to(game: Game, key: str, turn: int = 1) -> Game:
    """End every phase until the game stands at step ``key`` of game-turn ``turn``, or at a roll (with
    ``explicit_chance`` set, the game stops at every chance node: the Retreat Phase's first check)."""
    for _ in range(100):
        if game.chance is not None:
            return game
        d = game.decision
        if d is None:
            raise AssertionError(f"the game ended before step {key} of turn {turn}")
        if d.phase == key and game.turn == turn:
            return game
        game.play(EndPhase())
    raise AssertionError(f"never reached step {key} of turn {turn}")


def game_at(units: str, key: str = "allied-assaults", *, turn: int = 1, explicit: bool = True, **board: Any) -> Game:
    """A game on an inline board brought to step ``key`` of ``turn``; ``explicit``: every roll from then on is a chance
    node the test chooses (:func:`roll`)."""
    options = ["two-players"] if board.get("two_players") else []
    game = Game(scenario(units, **board), seed=1, options=options)
    game.explicit_chance = explicit
    return play_to(game, key, turn)


def roll(game: Game, value: int, about: str = "") -> None:
    """Choose the outcome ``value`` of the roll the game stands at (a die's face, a chit); ``about``: a word its
    purpose must contain, so a test cannot roll for the wrong thing."""
    node = game.chance
    assert node is not None, "no roll is due"
    purpose = node.purpose(game)
    assert about in purpose, f"the roll due is {purpose!r}, not one about {about!r}"
    values = [o.value for o in game.chance_outcomes()]
    assert value in values, f"{value} is not an outcome of {purpose!r}: {values}"
    game.play_chance(values.index(value))


def rolls(game: Game, *values: int) -> None:
    for v in values:
        roll(game, v)


def due(game: Game) -> str:
    """The purpose of the roll the game stands at ("" when none)."""
    node = game.chance
    return "" if node is None else node.purpose(game)


def refused(game: Game, order: str) -> IllegalOrderError:
    """Play ``order``, which must be refused and change nothing; the refusal."""
    before = game.state_hash()
    try:
        game.play(order)
    except IllegalOrderError as e:
        assert game.state_hash() == before
        return e
    raise AssertionError(f"{order!r} was accepted")


def lines(game: Game, since: int = 0) -> list[str]:
    """The log's lines (from entry ``since``)."""
    return [e.text for e in game.state.entries[since:]]


def declare(game: Game, target: str, *attackers: str, leader: str | None = None, naval: bool = False) -> None:
    """Make an assault the way a player does: target the hex, add each unit, name the leader, call the navy, declare."""
    game.play(f"target {target}")
    for uid in attackers:
        game.play(f"add {uid}")
    if leader is not None:
        game.play(f"lead {leader}")
    if naval:
        game.play("naval")
    game.play("declare")


def no_chits(game: Game) -> None:
    """The ground support die's 3 (one Allied chit) and that chit a 0: the net DRM stays as assessed."""
    roll(game, 3, "ground support")
    roll(game, 0, "Allied ground support chit")


def entry_line(game: Game) -> str:
    """The log's line giving the assault's net DRM, column and entry."""
    return next(x for x in reversed(lines(game)) if x.startswith("Assault on "))


def settle(game: Game) -> None:
    """Take the first outcome of every roll due, until none is."""
    while game.chance is not None:
        game.play_chance(0)


def next_turn(game: Game, key: str = "allied-assaults") -> None:
    """End the phases (the rolls due settled by :func:`settle`) until step ``key`` of the next game-turn."""
    turn = game.turn
    for _ in range(50):
        settle(game)
        d = game.decision
        assert d is not None
        if game.turn == turn + 1 and d.phase == key:
            return
        game.play(EndPhase())
    raise AssertionError(f"never reached {key} of turn {turn + 1}")
