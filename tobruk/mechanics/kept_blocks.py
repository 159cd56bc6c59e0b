"""A side's per-unit blocks of actions (its units' moves) kept from one position to the next.

In a movement phase the player moves one unit at a time, and the listing after each move would ask every unit of
the side for its moves again: a context, a search key and a cache look-up each, tens of microseconds in all, though
almost none of them can have changed.  What a unit's moves read is its own row (its hex and status), what the whole
side shares (the enemy's units, the weather, the rules' variables: the system's ``context``), and, for a unit
whose start is in a stopping enemy ZOC, the friendly units next to it (the ZOC-to-ZOC exemption, GG-XIII.B.3).  So
the blocks made for one position are kept, and the next position with the same context asks again only:

* the units whose row changed (the one that moved, one that was revealed, activated, disrupted ...);
* the units that said their blocks read their neighbours and stand next to where a changed unit was or is now.

Everything else is handed out as it was.  Whatever the kept blocks were made for (a later position, after an
undo; another line of play), the comparison is with the rows they were made from, so they cannot be stale as long
as the system's context holds everything side-wide its blocks read; the tests list every movement decision of
random games both ways (kept, and worked out afresh) and compare.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.caching import Carried
from tobruk.engine.sides import Side

if TYPE_CHECKING:
    from tobruk.engine.game import Game

UnitBlocks = tuple[Sequence[Action], ...]
# what a system makes for a unit: its blocks (none, if it may not act) and whether they read its neighbours' rows
Made = tuple[UnitBlocks, bool]
Maker = Callable[[Sequence[str]], Sequence[Made]]


@dataclass(frozen=True, slots=True)
class _Kept:
    context: Hashable
    hexes: tuple[int, ...]  # every unit's hex and status bits when the blocks were made
    flags: tuple[int, ...]
    blocks: dict[int, UnitBlocks]  # by the unit's row
    near_readers: dict[int, int]  # row -> hex index, of the units whose blocks read their neighbours


def in_order(game: Game, side: Side, blocks: Mapping[int, UnitBlocks]) -> list[Sequence[Action]]:
    """The side's units' blocks (as :func:`kept` gives them, by row) in order of battle."""
    return [block for i, _ in game.rows_of(side) for block in blocks[i]]


def kept(game: Game, side: Side, name: str, context: Hashable, make: Maker) -> dict[int, UnitBlocks]:
    """Each of the side's units' blocks now (in the order ``make`` gives them), by the unit's row.

    ``name`` tells one kind of listing from another (a system may keep more than one); ``context``: everything
    side-wide the blocks read (compared whole: any change and every unit is asked again); ``make(units)``: each
    unit's blocks and whether they read the rows of the units next to it, for the units asked (all at once, so
    the system prepares what they share once).
    """
    units = game.state.units
    hexes, flags = units.hex, units.flags
    rows = game.rows_of(side)
    key = (name, side)
    found = _KEPT.last(game, key)
    if found is None or found.context != context:
        redo = list(rows)
        blocks: dict[int, UnitBlocks] = {}
        near_readers: dict[int, int] = {}
    else:
        old_hexes, old_flags = found.hexes, found.flags
        changed = [i for i, _ in rows if hexes[i] != old_hexes[i] or flags[i] != old_flags[i]]
        if not changed:
            return found.blocks
        touched = {h for i in changed for h in (old_hexes[i], hexes[i]) if h >= 0}
        nb = game.scenario.map.neighbour_table
        near = {n for h in touched for n in nb[h * 6 : h * 6 + 6]} | touched
        again = set(changed) | {i for i, h in found.near_readers.items() if h in near}
        redo = [(i, uid) for i, uid in rows if i in again]
        blocks = dict(found.blocks)
        near_readers = {i: h for i, h in found.near_readers.items() if i not in again}
    for (i, _), (made, reads_near) in zip(redo, make([uid for _, uid in redo]), strict=True):
        blocks[i] = made
        if reads_near:
            near_readers[i] = hexes[i]
    _KEPT.keep(game, key, _Kept(context, tuple(hexes), tuple(flags), blocks, near_readers))
    return blocks


_KEPT: Carried[_Kept] = Carried("kept-blocks")  # by the listing's name and side: checked against the rows above
