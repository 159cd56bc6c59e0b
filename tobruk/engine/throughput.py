"""Settings for a process that plays many games in a row: the fuzzer, an arena, the benchmarks, a search.

Playing a game allocates a great many small containers that live for one position (tuples of keys, lists of
ids, blocks of actions).  CPython's cyclic garbage collector runs a young collection every 700 container
allocations net of frees and an older one every tenth of those; in a game loop they free almost nothing (the
engine's objects form few reference cycles: a game's memory goes when its last reference does), yet they cost
about a tenth of the time (``benchmarks/run.py`` before and after).  :func:`for_many_games` freezes what is loaded
so far (scenarios, maps, tables: kept for the whole run, no use scanning them again) and collects fifty times less
often; what few cycles there are are still collected, a little later.  A process that plays one game for people
(the server, the terminal) keeps Python's defaults.
"""

from __future__ import annotations

import gc

# the collector's thresholds for a run of many games: young collections every 50,000 container allocations,
# older ones every 20 of those, the oldest every 20 of those (memory stays flat over hundreds of games)
THRESHOLDS = (50_000, 20, 20)


def for_many_games() -> None:
    """Set this process up for playing many games: what is loaded so far frozen, fewer collections (see above).
    Worker processes forked afterwards inherit the settings."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
