"""An action's fields: its coordinates as JSON-ready values, and back (:meth:`Action.fields`, :meth:`Action.from_fields`).

A field is written by its declared type: a unit id as text, a hex as its label, a path or a group as a list of them, a
number, a flag.  Reading one back checks it as strictly as the notation does, with a message that names the field,
so a face that sends fields (the browser page) gets the same refusals as a person typing.  The codecs are a closed
list: an action type whose field has another type is a programming error, raised when its fields are first asked for
(a test asks for every vocabulary's).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from tobruk.engine.actions import hex_word, unit_word
from tobruk.engine.errors import InvalidOrderError

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.board.maps import Map
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
A = TypeVar("A", bound="Action")


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


def named(action: Action) -> tuple[list[str], list[Hex]]:
    """The unit ids and the hexes an action names, each in the order of its fields (read through the codecs, which
    know which fields hold units and which hexes, so every action type of every system is read the same way)."""
    units: list[str] = []
    hexes: list[Hex] = []
    for name, codec in codecs(type(action)):
        value, k = getattr(action, name), codec.kind
        if k == "str":
            units.append(value)
        elif k == "tuple[str, ...]":
            units.extend(value)
        elif k == "tuple[tuple[str, int], ...]":
            units.extend(u for u, _ in value)
        elif k == "Hex":
            hexes.append(value)
        elif k == "tuple[Hex, ...]":
            hexes.extend(value)
    return units, hexes


def known_names(action: A, text: str, units: Collection[str], board: Map) -> A:
    """``action``, parsed from ``text``, if every unit it names is one of ``units`` and every hex one of the board's;
    else an :class:`InvalidOrderError` naming each unknown word.  Checked before the rules see the order, so a typo
    ("move 15Pz Z99") is answered as the typo it is, not by a rule about a move that was never meant (the hex not
    being adjacent); a well-formed order of known units and hexes goes on to the rules unchanged."""
    unit_ids, hexes = named(action)
    wrong = [_unknown_unit(u, units) for u in dict.fromkeys(unit_ids) if u not in units]
    off = [h for h in dict.fromkeys(hexes) if h not in board]
    if off:
        wrong.append(_off_board(off, board))
    if wrong:
        shown = text.strip() if len(text.strip()) <= 60 else text.strip()[:57] + "..."
        raise InvalidOrderError(f"{shown!r}: {'; '.join(wrong)}")
    return action


def _unknown_unit(uid: str, units: Collection[str]) -> str:
    """A unit id the game has none of, with the id it has in another case ("15pz": 15Pz) when there is one."""
    alike = [u for u in units if u.lower() == uid.lower()]
    return f"{uid!r} is not a unit of this game" + (f" (did you mean {alike[0]}?)" if alike else "")


def _off_board(hexes: list[Hex], board: Map) -> str:
    """Hexes off the board, with the board's extent (rows from A, columns from 1) for the person to see why."""
    from tobruk.board.hexes import Hex

    first, last = Hex.from_offset(0, 0).label, Hex.from_offset(board.rows - 1, board.columns - 1).label
    words = ", ".join(repr(h.label) for h in hexes)
    return f"{words} {'is not a hex' if len(hexes) == 1 else 'are not hexes'} of this map (its hexes run from {first} to {last})"


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
