"""The Python side of the compiled search kernels: a map's tables as the kernels read them, and the searches'
answers as read-only mappings built over the kernels' flat arrays.

The kernels (``_kernels.c``) take integer hex indices and return int32 arrays: the hexes reached in the order
the search first reached them, a cost and one more figure per hex, and every hex's path as hex indices. A
:class:`SearchResult` wraps them: hot callers read the arrays (``ends``, ``cost_of``, ``path_indices``); every
other caller uses it as the ``dict[Hex, ...]`` the searches always returned, whose entries (with their paths
as :class:`Hex` tuples) are built only when read.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.mechanics import _kernels

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

V = TypeVar("V")


def grid(m: Map) -> _kernels.Grid:
    """The map's neighbour, route-kind and land tables, checked once by the kernel and kept with the map."""
    cached: _kernels.Grid | None = m.__dict__.get("_kernel_grid")
    if cached is None:
        cached = _kernels.Grid(
            array("i", m.neighbour_table).tobytes(), array("b", m.route_table).tobytes(), bytes(m.land_table), len(m.route_kinds)
        )
        m.__dict__["_kernel_grid"] = cached
    return cached


def int32s(data: bytes) -> memoryview:
    return memoryview(data).cast("i")


class SearchResult(dict[Hex, V], Generic[V]):
    """A search's answer: a read-only ``dict[Hex, V]`` whose entries are built from the kernel's arrays on demand.

    It is a ``dict`` so that the callers typed for the dictionary the searches returned before keep working;
    the dictionary's own storage is filled only when a caller reads every entry at once (``items()``,
    ``values()``, ``dict(...)``, ``==``), and refuses changes.
    """

    __slots__ = ("_costs", "_hexes", "_index", "_lists", "_make", "_more", "_offsets", "_paths", "_where", "ends")

    def __init__(
        self,
        hexes: tuple[Hex, ...],
        answer: tuple[bytes, bytes, bytes, bytes, bytes],
        make: Callable[[Hex, int, int, tuple[Hex, ...]], V],
        index: Mapping[Hex, int],
    ) -> None:
        """``make(hex, cost, more, path)``: the entry for an end, from its figures; ``index``: each hex's index."""
        super().__init__()
        ends, costs, more, offsets, paths = answer
        self._hexes, self._index = hexes, index
        self.ends: tuple[int, ...] = tuple(int32s(ends))
        self._costs, self._more = int32s(costs), int32s(more)
        self._offsets, self._paths = int32s(offsets), int32s(paths)
        self._make = make
        self._where: dict[int, int] | None = None
        self._lists: tuple[list[int], list[int]] | None = None  # offsets and paths as lists, once a path is asked for

    # the arrays
    def cost_of(self, j: int) -> int:
        """The cost (MF spent, or the supply line's cost) of the ``j``-th end."""
        return int(self._costs[j])

    def path_indices(self, j: int) -> tuple[int, ...]:
        """The hex indices of the ``j``-th end's path, from the start."""
        return tuple(self._paths[self._offsets[j] : self._offsets[j + 1]])

    def _entry(self, j: int) -> V:
        return self._make(self._hexes[self.ends[j]], self._costs[j], self._more[j], self.path(j))

    def entry(self, j: int, path: tuple[Hex, ...] | None = None) -> V:
        """The ``j``-th end's entry (as ``self[hex]`` gives it); ``path``: its path if the caller holds it already
        (a listed move's), so it is not made again."""
        if path is None:
            return self._entry(j)
        return self._make(self._hexes[self.ends[j]], self._costs[j], self._more[j], path)

    def hex_of(self, j: int) -> Hex:
        """The ``j``-th end's hex."""
        return self._hexes[self.ends[j]]

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """The board's hexes, by the index the arrays hold."""
        return self._hexes

    def path_lists(self) -> tuple[list[int], list[int]]:
        """Every path as hex indices: end ``j``'s is ``paths[offsets[j]:offsets[j + 1]]``."""
        if self._lists is None:
            self._lists = (self._offsets.tolist(), self._paths.tolist())
        return self._lists

    def path(self, j: int) -> tuple[Hex, ...]:
        """The ``j``-th end's path, from the start, as hexes."""
        offsets, paths = self.path_lists()
        hexes = self._hexes
        return tuple([hexes[i] for i in paths[offsets[j] : offsets[j + 1]]])

    def position(self, h: Hex) -> int | None:
        """Where ``h`` is among the ends, or ``None``."""
        if self._where is None:
            self._where = dict(zip(self.ends, range(len(self.ends)), strict=True))
        i = self._index.get(h)
        return None if i is None else self._where.get(i)

    # the mapping
    def _full(self) -> None:
        if dict.__len__(self) != len(self.ends):
            hexes, make, costs, more = self._hexes, self._make, self._costs.tolist(), self._more.tolist()
            if self._lists is None:
                self._lists = (self._offsets.tolist(), self._paths.tolist())
            offsets, paths = self._lists
            for j, i in enumerate(self.ends):
                h = hexes[i]
                dict.__setitem__(self, h, make(h, costs[j], more[j], tuple([hexes[x] for x in paths[offsets[j] : offsets[j + 1]]])))

    def __getitem__(self, h: Hex) -> V:
        if dict.__len__(self):
            return dict.__getitem__(self, h)
        j = self.position(h)
        if j is None:
            raise KeyError(h)
        return self._entry(j)

    def get(self, h: Hex, default: Any = None) -> Any:
        j = self.position(h) if isinstance(h, Hex) else None
        return default if j is None else self._entry(j)

    def __contains__(self, h: object) -> bool:
        return isinstance(h, Hex) and self.position(h) is not None

    def __iter__(self) -> Iterator[Hex]:
        hexes = self._hexes
        return (hexes[i] for i in self.ends)

    def keys(self) -> dict_keys[Hex, V]:
        return dict.fromkeys(self).keys()  # type: ignore[return-value]  # the hexes, no entry built

    def values(self) -> dict_values[Hex, V]:
        self._full()
        return dict.values(self)

    def items(self) -> dict_items[Hex, V]:
        self._full()
        return dict.items(self)

    def __reversed__(self) -> Iterator[Hex]:
        hexes = self._hexes
        return (hexes[i] for i in reversed(self.ends))

    def __or__(self, other: Any) -> dict[Hex, V]:  # type: ignore[override]  # a plain dict, as dict | dict
        return self.copy() | other  # type: ignore[no-any-return]

    def __ror__(self, other: Any) -> dict[Hex, V]:  # type: ignore[override]
        return other | self.copy()  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return len(self.ends)

    def __bool__(self) -> bool:
        return bool(self.ends)

    def __eq__(self, other: object) -> bool:
        self._full()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._full()
        return f"{type(self).__name__}({dict.__repr__(self)})"

    def copy(self) -> dict[Hex, V]:
        self._full()
        return dict(dict.items(self))

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles are plain dictionaries
        return (dict, (self.copy(),))

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a search result is read-only: copy it with dict(...) to change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only
