"""The player interface and a loop that plays a game between two players.

``Player.choose(view, legal, outcomes)`` returns one of ``legal``.  ``outcomes(attack)`` gives the
exact probability of each result of an attack declaration before it is made (empty when the
defenders are face down).  Nothing else of the engine reaches a player.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

from tobruk.engine.game import Game
from tobruk.engine.actions import Action as Order
from tobruk.mechanics.actions import Attack
from tobruk.engine.sides import Side
from tobruk.view import view

Outcomes = Callable[[Attack], list[tuple[str, Fraction]]]


class Player(Protocol):
    name: str

    def choose(self, seen: dict[str, Any], legal: list[Order], outcomes: Outcomes) -> Order: ...


def outcomes_for(game: Game, side: Side) -> Outcomes:
    """The side's window on attack odds: the system's outcome table for a declaration ([] if illegal)."""

    def ask(order: Attack) -> list[tuple[str, Fraction]]:
        return game.system.outcomes(game, order, side)

    return ask


def make_player(name: str, seed: int = 0) -> Player:
    """A player by name: random, passive, greedy (human players come from the CLI)."""
    from tobruk.players.greedy import GreedyPlayer
    from tobruk.players.simple import PassivePlayer, RandomPlayer

    kinds: dict[str, Callable[[int], Player]] = {
        "random": RandomPlayer, "passive": PassivePlayer, "greedy": GreedyPlayer,
    }
    try:
        return kinds[name](seed)
    except KeyError:
        raise ValueError(f"no player {name!r}; choose from {', '.join(player_names())}") from None


def player_names() -> list[str]:
    return ["greedy", "passive", "random"]


def play_game(game: Game, players: dict[Side, Player], *, max_orders: int = 200_000,
              after: Callable[[Game, Order], None] | None = None) -> Game:
    """Let the players play until the game is over (or ``max_orders`` orders, a guard against loops)."""
    for _ in range(max_orders):
        decision = game.decision
        if decision is None:
            return game
        legal = game.legal_orders()
        if not legal:
            raise RuntimeError(f"dead end: no legal order at {decision}")
        order = players[decision.side].choose(view(game, decision.side), legal, outcomes_for(game, decision.side))
        game.play(order)
        if after is not None:
            after(game, order)
    raise RuntimeError(f"the game did not end within {max_orders} orders")
