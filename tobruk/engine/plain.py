"""Plain data: the one conversion of engine values (hexes, sides, dataclasses, sets) into JSON-ready values.

The state hash, save files and views all go through :func:`plain`, so two equal positions always give the
same bytes, and :func:`frozen` gives the hashable twin used as a cache key.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any


def plain(value: Any) -> Any:
    """A JSON-ready, canonical form: hexes as labels, enums as values, sets sorted, dataclasses as dicts."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Enum):
        return value.value
    label = getattr(value, "label", None)
    if isinstance(label, str):  # a Hex
        return label
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(plain(k)): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(plain(kv[0])))}
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    raise TypeError(f"no plain form for {type(value).__name__}")


def frozen(value: Any) -> Any:
    """A hashable form of a value that may hold dicts, lists and sets (for cache keys)."""
    if isinstance(value, dict):
        return tuple(sorted(((k, frozen(v)) for k, v in value.items()), key=repr))
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    if isinstance(value, set):
        return frozenset(frozen(v) for v in value)
    if isinstance(value, tuple):
        return tuple(frozen(v) for v in value)
    return value
