"""A position as the game keeps it: the state that changes, the log's lines, the snapshot an action leaves for
undo, and what each side has read of the log and the dice.

The log and the dice only grow but for undo, so undo cuts them back to a length instead of copying them, and a
side's reading of them (``Reading``) is kept and extended by what was written since, cut back with them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from tobruk.engine.flow import Frame
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitRows, Units
from tobruk.engine.vars import Vars


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the game log: the whole truth, and what a side sees instead where it may not see it.

    ``private`` pairs a side (its value) with the text that side is shown in place of ``text``, or
    ``None`` when it is shown nothing; a side not named sees ``text``.
    """

    text: str
    private: tuple[tuple[str, str | None], ...] = ()
    kind: str = "note"  # what the line is about, for forms and filters: move, battle, loss, supply, event, note

    def seen_by(self, side: Side) -> str | None:
        for who, instead in self.private:
            if who == side.value:
                return instead
        return self.text


@dataclass(slots=True)
class GameState:
    """Everything that changes during a game (the scenario and the dice live beside it)."""

    turn: int
    step: int
    units: Units
    vars: Vars
    stack: tuple[Frame, ...] = ()
    over: bool = False
    entries: list[LogEntry] = field(default_factory=list)
    reveals: int = 0
    private_rolls: dict[int, str] = field(default_factory=dict)  # die roll index -> the only side that sees it
    # the end of the current step under way (:data:`STEP_FINISHING`, :data:`STEP_LEAVING`): it waits for the frames
    # its last action or its own end opened (a roll, a player's choice) to be settled; 0 between steps' decisions
    ending: int = 0

    @property
    def log(self) -> list[str]:
        """The whole log as text (the referee's; a side's own reading is :meth:`Game.log_for`)."""
        return [e.text for e in self.entries]

    def copy(self) -> GameState:
        return GameState(
            self.turn,
            self.step,
            self.units.copy(),
            self.vars.copy(),
            self.stack,
            self.over,
            self.entries.copy(),
            self.reveals,
            self.private_rolls.copy(),
            self.ending,
        )


STEP_FINISHING = 1  # an action ended the step: its finish runs once the frames it opened are settled
STEP_LEAVING = 2  # the step has finished: the game goes on to the next once the frames its finish opened are settled


class Snapshot:
    """What undoing one action needs: the position object before it, kept as it was (the game goes on in a new one
    made from it, :meth:`take`), with its unit rows saved (the unit arrays are the game's own and written in place,
    see :meth:`Units.restore`), the log's length (the log only grows) and the dice's roll count.  Shared by a game and
    its copies once the game is copied, so then only ever read.

    The position before is kept rather than copied into the snapshot's own fields: an action played and taken back
    (a search does so thousands of times) then builds one position object, not two."""

    __slots__ = ("log_length", "played", "rolls", "rows", "state")

    def __init__(self, state: GameState, rows: UnitRows, log_length: int, rolls: int, played: int) -> None:
        self.state, self.rows, self.log_length, self.rolls, self.played = state, rows, log_length, rolls, played

    @classmethod
    def take(cls, state: GameState, rolls: int, played: int = 0) -> tuple[Snapshot, GameState]:
        """The snapshot of ``state`` and the position the game goes on in: the same but for its own variables (the
        unit arrays and the log are the game's own, kept by :meth:`restore`; the private rolls and the stack are
        replaced, never changed in place, so both positions may hold the same ones)."""
        s = state
        go_on = GameState(s.turn, s.step, s.units, s.vars.copy(), s.stack, s.over, s.entries, s.reveals, s.private_rolls, s.ending)
        return cls(s, s.units.saved(), len(s.entries), rolls, played), go_on

    def restore(self, now: GameState, *, shared: bool) -> GameState:
        """The position of the snapshot, in the game whose position is ``now``: its log cut back to its length then,
        its unit arrays written back in place.  ``shared``: the snapshot is also another game's (a copy's), so the
        position is built afresh from copies; else it is the kept object itself (the snapshot is dropped)."""
        entries, units = now.entries, now.units
        del entries[self.log_length :]
        units.restore(self.rows)
        s = self.state
        if shared:
            return GameState(s.turn, s.step, units, s.vars.copy(), s.stack, s.over, entries, s.reveals, s.private_rolls, s.ending)
        s.units, s.entries = units, entries  # (the same objects already, unless the game was copied since: then its own)
        return s


Item = TypeVar("Item")
Seen = TypeVar("Seen")


class Reading(Generic[Item, Seen]):
    """What one side may see of a list that only grows but for undo (the log, the dice): the items read so far
    (``upto``), what the side was shown of them and where each came from, so a cut drops exactly the rest."""

    __slots__ = ("items", "seen", "sources", "upto")

    def __init__(self, items: list[Item]) -> None:
        self.items, self.upto = items, 0
        self.seen: list[Seen] = []
        self.sources: list[int] = []

    def cut(self, length: int) -> None:
        if self.upto > length:
            while self.sources and self.sources[-1] >= length:
                self.sources.pop()
                self.seen.pop()
            self.upto = length


def extend_reading(
    readings: dict[Side, Reading[Item, Seen]], side: Side, items: list[Item], shown: Callable[[int, Item], Seen | None]
) -> list[Seen]:
    """A side's reading of ``items``, extended by the items added since it last read (afresh for another list)."""
    reading = readings.get(side)
    if reading is None or reading.items is not items or reading.upto > len(items):
        reading = readings[side] = Reading(items)
    for i in range(reading.upto, len(items)):
        seen = shown(i, items[i])
        if seen is not None:
            reading.seen.append(seen)
            reading.sources.append(i)
    reading.upto = len(items)
    return reading.seen
