"""The canonical text of a position, the input of :meth:`Game.state_hash`, put together from cached pieces.

The definition is :meth:`Game.state_data`: the position as plain data, written by ``json.dumps`` with sorted
keys and no spaces.  That text is stored in every game record and checked by every replay, so it may never
change by one byte; but working it out afresh (the plain form of every variable, every unit's fields, the
JSON encoding of the whole) cost about a millisecond, and the fuzzer asks for it several times an action.

JSON text is compositional: an object's text is its sorted keys, each followed by its value's own text.  So
the text is assembled here from the texts of its parts, each worked out once with the same ``plain`` and
``json.dumps`` as the definition and kept:

* a unit's entry under its row and the values of its hex index, status bits and steps (everything its entry
  is made of), and the entries of all units together under copies of the unit arrays;
* a variable's value under the value object itself: the variables' values are immutable
  (:mod:`tobruk.engine.vars`), so a field that still holds the same object still has the same text; the
  object is kept alive with its text, so its id cannot be reused by another value while the entry exists;
* a frame of the decision stack the same way (frames are frozen values).

Only strings are kept and handed out, never plain data a caller could change.  ``tests/engine/test_state_text.py``
compares this text with the definition's through whole random games of every system.
"""

from __future__ import annotations

import dataclasses
import json
import json.encoder
from typing import TYPE_CHECKING, Any

from tobruk.engine.plain import plain

if TYPE_CHECKING:
    from tobruk.engine.game import Game

_LIMIT = 4096  # entries of one kind kept before they are dropped and worked out again (a bound on memory)


def canonical_json(value: Any) -> str:
    """The state hash's JSON encoding of plain data (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# a string's JSON text: the function ``json.dumps`` itself calls for a string (ASCII output, its default), without
# the call's overhead (the text has a few strings that change every action: the dice's fingerprint, the step)
_string = json.encoder.encode_basestring_ascii


class StateText:
    """The pieces of one game's canonical text (one per game and its copies: every piece is keyed on all it is
    made of, so a copy in another position can share them)."""

    __slots__ = ("_fields", "_frames", "_order", "_units", "_units_whole", "_vars_type")

    def __init__(self, game: Game) -> None:
        rows = {uid: i for i, uid in enumerate(game.unit_ids)}
        # (row, the entry's key with its colon) in the sorted order of the unit ids
        self._order: tuple[tuple[int, str], ...] = tuple((rows[uid], canonical_json(uid) + ":") for uid in sorted(game.unit_ids))
        self._units: dict[tuple[int, int, int, int], str] = {}
        # the arrays' Zobrist hash -> (copies of the arrays, their text): looked up by the hash, used only when
        # the arrays are equal to the copies, so a hash that failed to keep up could never give a wrong text
        self._units_whole: dict[int, tuple[list[int], list[int], list[int], str]] = {}
        self._vars_type: type | None = None
        self._fields: tuple[tuple[str, str, dict[int, tuple[Any, str]]], ...] = ()
        self._frames: dict[int, tuple[Any, str]] = {}

    def text(self, game: Game) -> str:
        """``canonical_json(game.state_data())``, byte for byte."""
        s = game.state
        return "".join(
            (
                '{"dice":',
                _string(game.dice.fingerprint()),
                f',"ending":{s.ending}' if s.ending else "",
                ',"over":',
                "true" if s.over else "false",
                ',"stack":[',
                ",".join(self._frame(f) for f in s.stack),
                '],"step":',
                _string(game.step.key),
                ',"turn":',
                str(s.turn) if type(s.turn) is int else canonical_json(s.turn),
                ',"units":{',
                self._units_text(game),
                '},"vars":',
                self._vars_text(s.vars),
                "}",
            )
        )

    def _units_text(self, game: Game) -> str:
        units = game.state.units
        hexes, flags, steps = units.hex, units.flags, units.steps
        whole = self._units_whole.get(units.z)
        if whole is not None and whole[0] == hexes and whole[1] == flags and whole[2] == steps:
            return whole[3]
        cache = self._units
        parts = []
        for i, key_text in self._order:
            key = (i, hexes[i], flags[i], steps[i])
            piece = cache.get(key)
            if piece is None:
                if len(cache) >= _LIMIT:
                    cache.clear()
                piece = cache[key] = key_text + canonical_json(game.unit(game.unit_ids[i]).to_data())
            parts.append(piece)
        text = ",".join(parts)
        if len(self._units_whole) >= _LIMIT:
            self._units_whole.clear()
        self._units_whole[units.z] = (hexes.copy(), flags.copy(), steps.copy(), text)
        return text

    def _vars_text(self, v: Any) -> str:
        if type(v) is not self._vars_type:
            self._vars_type = type(v)
            names = sorted(f.name for f in dataclasses.fields(v))
            self._fields = tuple((name, canonical_json(name) + ":", {}) for name in names)
        parts = []
        for name, key_text, seen in self._fields:
            value = getattr(v, name)
            entry = seen.get(id(value))
            if entry is None or entry[0] is not value:
                if len(seen) >= _LIMIT:
                    seen.clear()
                entry = seen[id(value)] = (value, key_text + canonical_json(plain(value)))
            parts.append(entry[1])
        return "{" + ",".join(parts) + "}"

    def _frame(self, frame: Any) -> str:
        entry = self._frames.get(id(frame))
        if entry is None or entry[0] is not frame:
            if len(self._frames) >= _LIMIT:
                self._frames.clear()
            entry = self._frames[id(frame)] = (frame, canonical_json({"frame": type(frame).__name__, **plain(frame)}))
        return entry[1]
