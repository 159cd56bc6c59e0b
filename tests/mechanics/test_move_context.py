"""``MoveContext.of``, the quick way the systems make a unit's move context, makes the same context as the
dataclass's own constructor and refuses the same mistakes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.mechanics.reach import MoveContext
from tobruk.systems.gazala import moves as mv


def test_the_quick_constructor_makes_the_constructors_context() -> None:
    pz = unit_toml("Pz", "axis", "B5", type_="armour", factors="4-3-4")
    game = movement_game(pz + unit_toml("Tommy", "allied", "B8", type_="infantry", factors="1-1-2"), rows=5, columns=12)
    ctx = mv.move_context(game, "Pz")
    values = {f.name: getattr(ctx, f.name) for f in dataclasses.fields(ctx)}
    made = MoveContext(**values)
    assert MoveContext.of(**values) == made == ctx
    assert MoveContext.of(**values).reach_key() == made.reach_key()
    required = {k: v for k, v in values.items() if k not in ("zoc_stops", "directions", "clauses", "tables", "free_steps")}
    quick, slow = MoveContext.of(**required), MoveContext(**required)
    assert quick == slow and quick.clauses == {} and quick.clauses is not MoveContext.of(**required).clauses  # a fresh dict each
    frozen: Any = quick  # a write its type forbids is refused at run time too
    with pytest.raises(dataclasses.FrozenInstanceError):
        frozen.budget = 1
    with pytest.raises(TypeError, match="no field 'speed'"):
        MoveContext.of(**values, speed=3)
    with pytest.raises(TypeError, match="needs 'budget'"):
        MoveContext.of(**{k: v for k, v in values.items() if k != "budget"})
