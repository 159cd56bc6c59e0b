"""The odds of an assault made with its options (a leader named, OC-CRT.6; the navy called, OC-CRT.3), checked against
the game itself: every roll of the assault walked through the chance API, each outcome weighted by its probability,
up to the leader's own morale check (the Italian losses are known by then)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import pytest

from tests.systems.operation_compass.kit import H, allied, declare, game_at, italian
from tobruk.engine.game import Game
from tobruk.engine.offers import declaration_options
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.systems.operation_compass.actions import Lead, Naval
from tobruk.systems.operation_compass.counters import compass_unit

SEA = '[map.terrain]\nsea = ["B3"]\n'
DEFENDERS = ("I", "J")
K = TypeVar("K")


def board(extra: str = SEA) -> Game:
    """Turn 2 (no surprise): an infantry unit and a tank unit in A2 against two Italian units in A3, by the sea."""
    units = (
        allied("U", "A2", kind="motorized-infantry", attack=2)
        + allied("T", "A2", kind="armour", attack=3)
        + italian("I", "A3", steps=2, defence=2, morale=4)
        + italian("J", "A3", steps=1, defence=1, morale=5)
    )
    return game_at(units, turn=2, rows=2, columns=5, map_extra=extra + '[map.supply]\nallied = ["A1"]\n')


def italian_steps(game: Game) -> int:
    return sum(compass_unit(game, u).steps for u in DEFENDERS)


def walked(game: Game, measure: Callable[[Game], K], stop: str = "") -> dict[K, Fraction]:
    """``measure`` of the game by every roll of the assault (the chance nodes' own outcomes and probabilities), taken
    once no roll is due or the roll due is about ``stop``."""
    node = game.chance
    if node is None or (stop and stop in node.purpose(game)):
        return {measure(game): Fraction(1)}
    out: dict[K, Fraction] = {}
    for i, outcome in enumerate(game.chance_outcomes()):
        branch = game.copy()
        branch.play_chance(i)
        for value, p in walked(branch, measure, stop).items():
            out[value] = out.get(value, Fraction(0)) + outcome.probability * p
    return out


def italian_losses(game: Game) -> dict[str, Fraction]:
    """The Italian steps lost, as the odds label them, once the rolls reach the leader's own check (the Italian
    losses are known by then)."""
    before = italian_steps(game)
    return walked(game, lambda g: f"{before - italian_steps(g)} Italian steps", stop="leading")


def shown(game: Game, options: tuple[Lead | Naval, ...] = ()) -> dict[str, Fraction]:
    odds = game.system.odds(game, Attack((H("A3"),), ("U", "T")), Side.ALLIED, options)
    assert odds is not None and sum(p for _, p in odds.outcomes) == 1
    return dict(odds.outcomes)


def played(leader: str | None = None, naval: bool = False) -> dict[str, Fraction]:
    game = board()
    declare(game, "A3", "U", "T", leader=leader, naval=naval)
    return italian_losses(game)


@pytest.mark.rule("OC-CRT.3")
def test_the_odds_with_the_navy_called_are_those_of_its_die() -> None:
    game = board()
    with_navy = shown(game, (Naval(),))
    assert with_navy == played(naval=True)
    assert with_navy != shown(game)  # (the navy's -1 or -2 moves the entry)
    assert shown(game) == played()


@pytest.mark.rule("OC-CRT.6")
@pytest.mark.rule("OC-CRT.2")
def test_the_odds_with_a_leader_named_are_those_of_that_leader() -> None:
    """U leads unless T is named; armour support counts only when armour leads (OC-CRT.2), so naming T moves the DRM."""
    game = board()
    odds_u = game.system.odds(game, Attack((H("A3"),), ("U", "T")), Side.ALLIED)
    odds_t = game.system.odds(game, Attack((H("A3"),), ("U", "T")), Side.ALLIED, (Lead("T"),))
    assert odds_u is not None and odds_t is not None
    assert odds_u.lines[0] == "led by U" and odds_t.lines[0] == "led by T"
    assert odds_u.column != odds_t.column
    assert shown(game, (Lead("T"),)) == played(leader="T")
    assert shown(game, (Lead("T"), Naval())) == played(leader="T", naval=True)


@pytest.mark.rule("OC-CRT.3")
@pytest.mark.rule("OC-CRT.6")
def test_the_options_open_to_a_gathered_assault() -> None:
    """Gathered U and T against A3 by the sea: T may be named leader (U leads already) and the navy called; once the
    navy is called it is not offered again, and inland it never is."""
    game = board()
    attack = Attack((H("A3"),), ("U", "T"))
    says = {o["verb"]: o["says"] for o in declaration_options(game, attack)}
    assert set(says) == {"lead", "naval"} and says["lead"].startswith("T leads")
    assert [o["verb"] for o in declaration_options(game, attack, (Naval(),))] == ["lead"]
    assert [o["fields"] for o in declaration_options(game, attack, (Lead("T"),))] == [
        {"verb": "lead", "unit": "U"},
        {"verb": "naval"},
    ]
    assert [o["verb"] for o in declaration_options(board(extra=""), attack)] == ["lead"]


@pytest.mark.rule("OC-CRT.6")
@pytest.mark.rule("OC-MC.1")
@pytest.mark.parametrize("naval", [False, True])
def test_the_odds_say_what_the_assault_may_cost_the_wdf(naval: bool) -> None:
    """U alone against I and J: its own morale check with the table's Allied number costs it steps; the odds say how
    many with what chance, as every roll of the assault gives them (U has no one to pass an excess to)."""
    game = board()
    game.unit("T").hex = None  # (off the map: U assaults alone)
    odds = game.system.odds(game, Attack((H("A3"),), ("U",)), Side.ALLIED, (Naval(),) if naval else ())
    assert odds is not None
    declare(game, "A3", "U", naval=naval)
    expected = sorted(walked(game, lambda g: 3 - compass_unit(g, "U").steps).items())
    assert sum(p for _, p in expected) == 1 and len(expected) > 1
    cost = ", ".join(f"{n} ({float(p):.1%})" for n, p in expected)
    assert f"the WDF steps it may cost: {cost} (the leader's morale check, OC-CRT.6)" in odds.lines
