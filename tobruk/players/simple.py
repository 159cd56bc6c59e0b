"""The two simplest players: uniformly random, and passive (ends every phase it can)."""

from __future__ import annotations

import random
from typing import Any

from tobruk.engine.actions import Action as Order
from tobruk.players.base import Advice


class RandomPlayer:
    """Uniform over the legal orders, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, seen: dict[str, Any], legal: list[Order], advice: Advice) -> Order:
        return self.rng.choice(legal)


class PassivePlayer:
    """Ends each step as soon as it may (the action whose type ends the step for its decider, ``Action.ends_step``);
    otherwise the first legal order (a baseline, and the demo)."""

    name = "passive"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, seen: dict[str, Any], legal: list[Order], advice: Advice) -> Order:
        return next((o for o in legal if o.ends_step), legal[0])
