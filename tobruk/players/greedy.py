"""The greedy player: the best-valued of the choices its system's advice offers, one order ahead.

It knows no game: the system's advisor (``System.advisor``, through :class:`~tobruk.players.base.Advice`) lists the
whole choices worth a look at the decision and values each for the side (the family's advice: attacks by their
expected factors won and lost, moves toward the objectives within supply and stacking, retreats, No Retreat!,
airstrikes ..., in ``tobruk/mechanics/advisor.py``).  It takes the candidate of the highest value; among equal
values the one the advisor lists first (its order of preference, the rules' order of listing), so the same game
and seeds give the same game.  Where the system gives no advice, or the advice has no candidate of any value, it
falls back on its generic rule: one of the legal actions uniformly at random, from its own seeded generator.
"""

from __future__ import annotations

import random
from typing import Any

from tobruk.engine.actions import Action as Order
from tobruk.players.base import Advice


class GreedyPlayer:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, seen: dict[str, Any], legal: list[Order], advice: Advice) -> Order:
        advisor = advice.advisor()
        if advisor is not None:
            best: tuple[float, Order] | None = None
            for candidate in advisor.candidates():
                value = advisor.value(candidate)
                if value is not None and (best is None or value > best[0]):
                    best = (value, candidate)
            if best is not None:
                return best[1]
        return self.rng.choice(legal)
