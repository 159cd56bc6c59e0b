"""A view's unit entries are made once per unit, hex and status bits and copied into each view: a caller that
changes the entries it was handed (a face adding a field, a list sorted again) changes no later view."""

from __future__ import annotations

import copy
import random

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.scenario import load_scenario
from tobruk.view import view


def test_changing_a_views_unit_entries_changes_no_later_view() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=6, options=("nonhistorical",))
    rng = random.Random(6)
    for _ in range(60):
        game.play(rng.choice(game.legal_orders()))
    for side in Side:
        seen = view(game, side)
        kept = copy.deepcopy(seen)
        for entry in seen["units"]:
            entry["hex"] = "Z99"
            entry["hidden"] = not entry["hidden"]
            entry["extra"] = 1
            if "flags" in entry:
                entry["flags"].append("changed")
        assert view(game, side) == kept
        game.forget_caches()
        assert view(game, side) == kept  # and the same as made afresh
