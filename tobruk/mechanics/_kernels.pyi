"""Typed interface of the compiled search kernels (tobruk/mechanics/_kernels.c)."""

from typing_extensions import Buffer

class Grid:
    """A map's neighbour (int32, 6 a hex), route-kind (int8, 6 a hex, -1 none) and land (a byte a hex) tables."""

    def __init__(self, nb: Buffer, route: Buffer, land: Buffer, kinds: int) -> None: ...
    @property
    def size(self) -> int: ...

Answer = tuple[bytes, bytes, bytes, bytes, bytes]

def entry_steps(grid: Grid, state: Buffer, not_across: Buffer, cost: int, /) -> tuple[bytes, bytes]: ...
def supply(grid: Grid, blocked: Buffer, extra: Buffer, sources: Buffer, limit: int, /) -> Answer: ...
def reach(
    grid: Grid,
    eflags: Buffer,
    hflags: Buffer,
    zoc_mask: Buffer,
    zoc_words: int,
    fort_mask: Buffer,
    fort_words: int,
    start: int,
    budget: int,
    bonus: int,
    ascent: int,
    vehicle: int,
    zoc_stops: int,
    dirmask: int,
    cc: int,
    rates: Buffer,
    free_total: int,
    marks: Buffer,
    low: int,
    /,
) -> Answer: ...
