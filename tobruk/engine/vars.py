"""A game system's own variables: a dataclass per system instead of a bag of flags.

The weather, the convoys used this turn, the attacks declared, which boxes have fallen: whatever a
system's rules remember goes in its :class:`Vars` subclass, typed and documented field by field.
Containers in the fields are copied one level deep by :meth:`Vars.copy` (a position copy for undo and
search); deeper values must be immutable (tuples, frozensets, frozen dataclasses), which the systems keep
to by replacing what they change rather than changing it in place.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Self

from tobruk.engine.plain import frozen, plain


@dataclasses.dataclass
class Vars:
    """Base of every system's variables (the empty set of variables is a valid one)."""

    def copy(self) -> Self:
        other = object.__new__(type(self))
        for name, value in self.__dict__.items():
            if isinstance(value, dict):
                value = {k: (v.copy() if isinstance(v, (dict, list, set)) else v) for k, v in value.items()}
            elif isinstance(value, (list, set)):
                value = value.copy()
            other.__dict__[name] = value
        return other

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = plain(self)
        return data

    def key(self) -> Any:
        """The variables the rules read, as a hashable value (part of the position's cache key).

        A field declared with ``field(metadata={"key": False})`` is left out: it is a record for people
        (the supply lines drawn on the map, the final score) that no rule reads back.
        """
        names = _KEY_FIELDS.get(type(self))
        if names is None:
            names = _KEY_FIELDS[type(self)] = tuple(f.name for f in dataclasses.fields(self) if f.metadata.get("key", True))
        return tuple(frozen(getattr(self, n)) for n in names)


_KEY_FIELDS: dict[type, tuple[str, ...]] = {}
