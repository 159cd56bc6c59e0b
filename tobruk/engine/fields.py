"""An action's fields: its coordinates as JSON-ready values, and back (:meth:`Action.fields`, :meth:`Action.from_fields`).

A field is written by its declared type: a unit id as text, a hex as its label, a path or a group as a list of them, a
number, a flag.  Reading one back checks it as strictly as the notation does, with a message that names the field,
so a face that sends fields (the browser page) gets the same refusals as a person typing.  The codecs are a closed
list: an action type whose field has another type is a programming error, raised when its fields are first asked for
(a test asks for every vocabulary's).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tobruk.engine.actions import hex_word, unit_word
from tobruk.engine.errors import InvalidOrderError

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.engine.actions import Action


@dataclass(frozen=True, slots=True)
class Codec:
    """How one field of an action is written as JSON-ready data and read back, checked (by the field's declared type:
    a unit id, a hex label, a list of them, a whole number, a flag).  ``required``: the field has no default."""

    kind: str
    required: bool

    def encode(self, value: Any) -> Any:
        k = self.kind
        if k == "Hex":
            return value.label
        if k == "tuple[Hex, ...]":
            return [h.label for h in value]
        if k in ("tuple[str, ...]",):
            return list(value)
        if k == "tuple[tuple[str, int], ...]":
            return [[u, n] for u, n in value]
        return value

    def decode(self, value: Any, where: str) -> Any:
        k = self.kind
        if k == "str":
            return _unit_field(value, where)
        if k == "Hex":
            return _hex_field(value, where)
        if k == "int":
            return _int_field(value, where)
        if k == "int | None":
            return None if value is None else _int_field(value, where)
        if k == "bool":
            if not isinstance(value, bool):
                raise InvalidOrderError(f"{where}: expected true or false")
            return value
        items = _list_field(value, where, nonempty=self.required)
        if k == "tuple[Hex, ...]":
            return tuple(_hex_field(v, where) for v in items)
        if k == "tuple[str, ...]":
            return tuple(_unit_field(v, where) for v in items)
        pairs = []  # tuple[tuple[str, int], ...]
        for v in items:
            pair = _list_field(v, where, nonempty=True)
            if len(pair) != 2:
                raise InvalidOrderError(f"{where}: expected pairs of a unit id and a number")
            pairs.append((_unit_field(pair[0], where), _int_field(pair[1], where)))
        return tuple(pairs)


CODECS = ("str", "Hex", "int", "int | None", "bool", "tuple[Hex, ...]", "tuple[str, ...]", "tuple[tuple[str, int], ...]")
MAX_ITEMS = 64  # items a list field may hold (more units or hexes than any choice has)
_KEPT: dict[type[Action], tuple[tuple[str, Codec], ...]] = {}


def codecs(kind: type[Action]) -> tuple[tuple[str, Codec], ...]:
    """The fields of an action type, in its dataclass's order, with their codecs (worked out once per type).  A field
    of a type no codec knows is a programming error, raised as such (a test reads every vocabulary's types)."""
    found = _KEPT.get(kind)
    if found is None:
        out: list[tuple[str, Codec]] = []
        declared: tuple[dataclasses.Field[Any], ...] = dataclasses.fields(kind) if dataclasses.is_dataclass(kind) else ()
        for f in declared:
            annotation: str = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", repr(f.type))
            if annotation not in CODECS:
                raise TypeError(f"{kind.__name__}.{f.name}: no field codec for {annotation!r}")
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            out.append((f.name, Codec(annotation, required)))
        found = _KEPT[kind] = tuple(out)
    return found


def _unit_field(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidOrderError(f"{where}: expected a unit id (text)")
    try:
        return unit_word(value, where)
    except InvalidOrderError:
        raise InvalidOrderError(f"{where}: {_short(value)!r} is not a unit id") from None


def _hex_field(value: Any, where: str) -> Hex:
    if not isinstance(value, str) or not value.isascii():  # (digits of other scripts are digits to int())
        raise InvalidOrderError(f"{where}: expected a hex label (text)")
    try:
        return hex_word(value, where)
    except InvalidOrderError:
        raise InvalidOrderError(f"{where}: {_short(value)!r} is not a hex label such as C13") from None


def _short(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "..."


def _int_field(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOrderError(f"{where}: expected a whole number")
    return value


def _list_field(value: Any, where: str, *, nonempty: bool) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise InvalidOrderError(f"{where}: expected a list (of at most {MAX_ITEMS} items)")
    if nonempty and not value:
        raise InvalidOrderError(f"{where}: the list is empty")
    return value
