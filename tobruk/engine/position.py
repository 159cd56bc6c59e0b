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
from tobruk.engine.state import Units
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


@dataclass(slots=True)  # (not frozen: one is made per action, and a frozen dataclass's fields cost more to set)
class Snapshot:
    """What undoing one action needs: the position before it, less the log, which only grows (its length is
    enough), and the dice's roll count.  Shared by a game and its copies, so it is only ever copied from."""

    turn: int
    step: int
    units: Units
    vars: Vars
    stack: tuple[Frame, ...]
    over: bool
    log_length: int
    reveals: int
    private_rolls: dict[int, str]
    rolls: int
    ending: int = 0
    played: int = 0  # the length of the game's history before the action

    @classmethod
    def of(cls, state: GameState, rolls: int, played: int = 0) -> Snapshot:
        s = state
        return cls(
            s.turn,
            s.step,
            s.units.copy(),
            s.vars.copy(),
            s.stack,
            s.over,
            len(s.entries),
            s.reveals,
            s.private_rolls.copy(),
            rolls,
            s.ending,
            played,
        )

    def restore(self, entries: list[LogEntry], *, shared: bool) -> GameState:
        """The position of the snapshot, keeping the game's own log cut back to its length then.  ``shared``: the
        snapshot is also another game's (a copy's), so the position is built from copies of its parts; else it
        takes them over (the snapshot is dropped)."""
        del entries[self.log_length :]
        units, vars_, rolls = (
            (self.units.copy(), self.vars.copy(), self.private_rolls.copy()) if shared else (self.units, self.vars, self.private_rolls)
        )
        return GameState(self.turn, self.step, units, vars_, self.stack, self.over, entries, self.reveals, rolls, self.ending)


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
