"""The player interface and a loop that plays a game between two players.

``Player.choose(view, legal, advice)`` returns one of ``legal``.  ``advice`` is the side's window on what the
system knows and the side may know: ``outcomes(attack)``, the exact probability of each result of an attack
declaration before it is made (empty when the defenders are face down); ``advisor()``, the system's advice on the
decision (:class:`~tobruk.engine.system.Advisor`: the whole choices worth a look and what each is worth to the
side), or ``None`` when the system gives none.  Nothing else of the engine reaches a player, and a player names no
action of any system: what the actions mean to a side is the system's to say.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

from tobruk.engine.actions import Action as Order
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.system import Advisor
from tobruk.view import view


class Advice:
    """A side's window on the system: attack odds and the system's advice on the decision."""

    def __init__(self, game: Game, side: Side) -> None:
        self._game, self._side = game, side
        self._advisor: Advisor | None = None
        self._asked = False

    def outcomes(self, order: Order) -> list[tuple[str, Fraction]]:
        """The probability of each result of an attack declaration ([] if illegal or unknowable)."""
        return self._game.system.outcomes(self._game, order, self._side)

    __call__ = outcomes

    def advisor(self) -> Advisor | None:
        """The system's advice to the side on its current decision (made once), or ``None``."""
        if not self._asked:
            self._advisor, self._asked = self._game.system.advisor(self._game, self._side), True
        return self._advisor


Outcomes = Advice


class Player(Protocol):
    name: str

    def choose(self, seen: dict[str, Any], legal: list[Order], advice: Advice) -> Order: ...


def outcomes_for(game: Game, side: Side) -> Advice:
    """The side's advice (see :class:`Advice`)."""
    return Advice(game, side)


def _kinds() -> dict[str, Callable[[int], Player]]:
    """The computer players by name, the lobby's default first (imported late: they import this module)."""
    from tobruk.players.greedy import GreedyPlayer
    from tobruk.players.simple import PassivePlayer, RandomPlayer

    return {"greedy": GreedyPlayer, "random": RandomPlayer, "passive": PassivePlayer}


def make_player(name: str, seed: int = 0) -> Player:
    """A player by name: greedy, random, passive (human players come from the CLI)."""
    kinds = _kinds()
    try:
        return kinds[name](seed)
    except KeyError:
        raise ValueError(f"no player {name!r}; choose from {', '.join(kinds)}") from None


def player_names() -> list[str]:
    """The computer players' names, the default first."""
    return list(_kinds())


# what each computer player does, in plain words for the lobby
ABOUT = {
    "greedy": "the strongest: at each decision it weighs the choices its game's advice offers (an attack's odds and "
    "results, what a move gains) and takes the best, else a random one",
    "random": "any legal order at random: a weak opponent, for learning the rules",
    "passive": "ends each phase as soon as it may and otherwise does the least it can: for trying the map and the rules",
}


def player_about() -> dict[str, str]:
    """The computer players' names, the default first, each with what it does in plain words."""
    return {name: ABOUT.get(name, "") for name in player_names()}


def play_game(
    game: Game, players: dict[Side, Player], *, max_orders: int = 200_000, after: Callable[[Game, Order], None] | None = None
) -> Game:
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
