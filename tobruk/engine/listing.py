"""A position's listing of legal actions: the blocks a node handed out, and what is made of them on demand (the
flat list, the notation, the ids); a block's ids and notation are kept with the block, across positions.

A node hands out its actions in blocks (``Node.action_blocks``); a block handed out again unchanged (a unit's moves,
kept with its search) keeps its ids and notation, so a listing after a move works out only the new blocks'.
An :class:`~tobruk.engine.actions.ActionBlock` gives its ids from the actions' keys without making the actions.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from typing import overload

from tobruk.engine.actions import Action, ActionBlock, ActionSpace


class BlockMemory:
    """Each block's ids and notation, remembered by the block object (kept alive
    with its entry, so its id stays its own), for the blocks a system hands out again."""

    __slots__ = ("ids", "notation")

    LIMIT = 4096  # blocks remembered, then forgotten all at once

    def __init__(self) -> None:
        self.ids: dict[int, tuple[Sequence[Action], tuple[int, ...]]] = {}
        self.notation: dict[int, tuple[Sequence[Action], tuple[str, ...]]] = {}

    def clear(self) -> None:
        self.ids.clear()
        self.notation.clear()

    def ids_of(self, block: Sequence[Action], space: ActionSpace) -> tuple[int, ...]:
        """A block's action ids, in the block's order."""
        entry = self.ids.get(id(block))
        if entry is None or entry[0] is not block:
            if len(self.ids) >= self.LIMIT:
                self.ids.clear()
            ids = block.ids(space) if isinstance(block, ActionBlock) else tuple(space.id_of(a) for a in block)
            entry = self.ids[id(block)] = (block, ids)
        return entry[1]

    def place_of(self, block: Sequence[Action], space: ActionSpace, action_id: int) -> int | None:
        """The first place of ``action_id`` in the block, ``None`` if it is not there (a scan of the ids: a listing is
        looked into once an action, for the one played)."""
        ids = self.ids_of(block, space)
        return ids.index(action_id) if action_id in ids else None

    def notation_of(self, block: Sequence[Action]) -> tuple[str, ...]:
        """A block's actions in notation."""
        entry = self.notation.get(id(block))
        if entry is None or entry[0] is not block:
            if len(self.notation) >= self.LIMIT:
                self.notation.clear()
            texts = block.texts() if isinstance(block, ActionBlock) else tuple(a.notation() for a in block)
            entry = self.notation[id(block)] = (block, texts)
        return entry[1]


class ListedActions(Sequence[Action]):
    """A position's legal actions as a read-only sequence over its blocks: an action is made only when it is read
    (a player picking one of a movement phase's hundreds of moves makes that one)."""

    __slots__ = ("_blocks", "_starts")

    def __init__(self, blocks: tuple[Sequence[Action], ...]) -> None:
        self._blocks = blocks
        self._starts = list(itertools.accumulate((len(b) for b in blocks), initial=0))

    def __len__(self) -> int:
        return self._starts[-1]

    @overload
    def __getitem__(self, k: int) -> Action: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[Action]: ...

    def __getitem__(self, k: int | slice) -> Action | Sequence[Action]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = len(self)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("legal action index out of range")
        b = bisect.bisect_right(self._starts, k) - 1
        return self._blocks[b][k - self._starts[b]]


class Listing:
    """One position's legal actions, as the node handed them out (blocks), and what is made of them on demand:
    the flat list, the notation, the ids (a block's ids are kept with the block across positions)."""

    __slots__ = ("_actions", "_by_id", "_ids", "_memory", "_space", "blocks", "key", "notation")

    def __init__(self, key: int, blocks: tuple[Sequence[Action], ...], memory: BlockMemory, space: ActionSpace) -> None:
        self.key, self.blocks, self._memory, self._space = key, blocks, memory, space
        self._actions: tuple[Action, ...] | None = None
        self.notation: tuple[str, ...] | None = None
        self._ids: list[int] | None = None
        self._by_id: dict[int, Action] | None = None

    def texts(self) -> tuple[str, ...]:
        """The actions in notation, in listing order."""
        if self.notation is None:
            memory = self._memory
            self.notation = tuple(itertools.chain.from_iterable(memory.notation_of(block) for block in self.blocks))
        return self.notation

    def sequence(self) -> Sequence[Action]:
        """The actions in listing order, each made when read (see :class:`ListedActions`)."""
        return self._actions if self._actions is not None else ListedActions(self.blocks)

    @property
    def actions(self) -> tuple[Action, ...]:
        if self._actions is None:
            blocks = self.blocks
            self._actions = tuple(blocks[0]) if len(blocks) == 1 else tuple(itertools.chain.from_iterable(blocks))
        return self._actions

    def block_ids(self) -> list[tuple[int, ...]]:
        """Each block's ids, in listing order (an id may be in more than one)."""
        memory, space = self._memory, self._space
        return [memory.ids_of(block, space) for block in self.blocks]

    @property
    def ids(self) -> list[int]:
        """The distinct ids, ascending."""
        if self._ids is None:
            ids = list(itertools.chain.from_iterable(self.block_ids()))
            ids.sort()  # (fast: a block's ids mostly come in order already, a unit's moves in the map's order)
            if len(set(ids)) != len(ids):  # an id listed twice (several actions of one shape)
                ids = sorted(set(ids))
            self._ids = ids
        return self._ids

    @property
    def by_id(self) -> dict[int, Action]:
        """Each id with its first action in listing order (one representative per shape)."""
        if self._by_id is None:
            out: dict[int, Action] = {}
            for block in self.blocks:
                for i, a in zip(self._memory.ids_of(block, self._space), block, strict=True):
                    if i not in out:
                        out[i] = a
            self._by_id = out
        return self._by_id

    def action_of(self, action_id: int) -> Action | None:
        """The first listed action with this id (without building :attr:`by_id`)."""
        if self._by_id is not None:
            return self._by_id.get(action_id)
        for block in self.blocks:
            j = self._memory.place_of(block, self._space, action_id)
            if j is not None:
                return block[j]
        return None
