"""A game system's own variables: a dataclass per system instead of a bag of flags.

The weather, the convoys used this turn, the attacks declared, which boxes have fallen: whatever a
system's rules remember goes in its :class:`Vars` subclass, typed and documented field by field.

Every value in the fields is immutable: a dict assigned to a field is stored as a :class:`FrozenDict` (its
dict values too), a list as a tuple, a set as a frozenset, and changing one in place raises ``TypeError``.
Rules change a variable by assigning a new value (``v.air = v.air | {uid: flown}``).  That is what makes the
two things the engine needs from the variables cheap and safe: a copy of the position (for undo and search)
is a shallow copy of the fields, which later play can never touch, and the variables' hash for cache keys
is kept up to date on every assignment (:meth:`Vars.key`), never recomputed from the whole.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, NoReturn, Self, TypeVar

from tobruk.engine.plain import plain

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A dict that refuses to change, and so can be hashed (its hash is worked out once).

    A plain dict everywhere it is read (JSON, :func:`plain`, ``dict(d)``, ``d | other``, which gives a new
    plain dict); a subclass rather than a mapping proxy so that saves and views need no special case.
    """

    __slots__ = ("_hash",)

    def __hash__(self) -> int:  # type: ignore[override]
        try:
            return self._hash
        except AttributeError:
            self._hash: int = hash(frozenset(self.items()))
            return self._hash

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a game variable is immutable: assign a changed copy to the field instead (v.x = v.x | {key: value})")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


_ATOMS = frozenset({str, int, bool, float, type(None), frozenset, FrozenDict})  # values immutable as they are


def freeze(value: Any) -> Any:
    """The immutable form of a variable's value: dicts (deeply) as :class:`FrozenDict`, lists as tuples, sets
    as frozensets; everything else as it is (which must then be immutable: numbers, strings, frozen dataclasses)."""
    kind = type(value)
    if kind in _ATOMS or (kind is tuple and all(type(v) in _ATOMS for v in value)):
        return value  # (the commonest values, at once: the rules assign variables at almost every action)
    if isinstance(value, dict):
        if isinstance(value, FrozenDict):
            return value
        return FrozenDict((k, freeze(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        frozen_items = tuple(freeze(v) for v in value)
        return value if isinstance(value, tuple) and all(a is b for a, b in zip(frozen_items, value, strict=True)) else frozen_items
    if isinstance(value, set):
        return frozenset(freeze(v) for v in value)
    return value


@dataclasses.dataclass
class Vars:
    """Base of every system's variables (the empty set of variables is a valid one)."""

    def __setattr__(self, name: str, value: Any) -> None:
        value = freeze(value)
        d = self.__dict__
        if name in _key_fields(type(self)):
            z = d.get("_z", 0)
            if name in d:
                z ^= hash((name, d[name]))
            d["_z"] = z ^ hash((name, value))
        d[name] = value

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_z"}  # (string hashes differ between processes)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__dict__["_z"] = self.key_afresh()

    def copy(self) -> Self:
        """An independent copy (the values are immutable, so sharing them is safe)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        return other

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = plain(self)
        return data

    def key(self) -> int:
        """The variables the rules read, as a hash kept up to date by every assignment (part of the position's
        cache key; equal variables give equal keys, different ones differ but with odds of about 2^-64).

        A field declared with ``field(metadata={"key": False})`` is left out: it is a record for people
        (the supply lines drawn on the map, the final score) that no rule reads back.
        """
        z: int = self.__dict__.get("_z", 0)
        return z

    def key_without(self, names: Sequence[str]) -> int:
        """:meth:`key` leaving out the named fields (for a cache that never reads them; an unknown name is an error)."""
        d = self.__dict__
        z: int = d.get("_z", 0)
        fields = _key_fields(type(self))
        for name in names:
            value = d[name]
            if name in fields:
                z ^= hash((name, value))
        return z

    def key_afresh(self) -> int:
        """:meth:`key` worked out from the fields themselves (the fuzzer and the tests check the two agree)."""
        z = 0
        for name in _key_fields(type(self)):
            z ^= hash((name, self.__dict__[name]))
        return z


_KEY_FIELDS: dict[type, frozenset[str]] = {}


def _key_fields(kind: type) -> frozenset[str]:
    names = _KEY_FIELDS.get(kind)
    if names is None:
        names = _KEY_FIELDS[kind] = frozenset(f.name for f in dataclasses.fields(kind) if f.metadata.get("key", True))
    return names
