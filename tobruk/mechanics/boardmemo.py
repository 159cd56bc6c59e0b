"""Answers about the board kept while only the decision stack changes (the attack phase's odds, duties and routes).

:meth:`Game.memo` keeps an answer per position, and the decision stack is part of the position: while an attack is
put together (``target``, ``add``, ``add``, ``declare``) every small action makes a new position, though the units
and the variables stay as they were, and the odds, the duties and the checks asked at each of them are the same.
The play of an action asks again what its listing has just worked out, after the frame has changed too.
:func:`board_memo` keeps such answers under everything :meth:`Game.position_key` holds but the stack: the turn,
the step, the reveals, the units' hash and the variables' hash.  An answer kept here must read nothing of the stack.

:func:`board_check` keeps a check that may refuse: the refusal is kept as its clause and reason and raised afresh
each time (never the same exception object twice), so a kept refusal reads as the first did.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, TypeVar

from tobruk.engine.errors import IllegalOrderError

if TYPE_CHECKING:
    from tobruk.engine.game import Game

T = TypeVar("T")

BOARD_MEMO = "board-memo"  # its entry in Game.search_cache (dropped with it by copy and forget_caches)
BOARD_MEMO_SIZE = 4096  # answers kept for the boards of the last few actions, then dropped


def board_key(game: Game) -> tuple[int, int, bool, int, int, int]:
    """What the board's answers are kept under: the position's key without the decision stack."""
    s = game.state
    return (s.turn, s.step, s.over, s.reveals, s.units.z, s.vars.key())


def board_memo(game: Game, key: Hashable, factory: Callable[[], T]) -> T:
    """A value derived from the board (the units, the variables, the turn and step, never the decision stack),
    worked out once per board."""
    kept: dict[Hashable, object] | None = game.search_cache.get(BOARD_MEMO)
    if kept is None:
        kept = game.search_cache[BOARD_MEMO] = {}
    full = (board_key(game), key)
    try:
        found: T = kept[full]  # type: ignore[assignment]
    except KeyError:
        if len(kept) >= BOARD_MEMO_SIZE:
            kept.clear()
        found = factory()
        kept[full] = found
    return found


class _Refused:
    """A kept refusal: its clause and reason."""

    __slots__ = ("clause", "reason")

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason


def _outcome(work: Callable[[], T]) -> T | _Refused:
    try:
        return work()
    except IllegalOrderError as e:
        return _Refused(e.clause, e.reason)


def board_check(game: Game, key: Hashable, work: Callable[[], T]) -> T:
    """:func:`board_memo` for work that may raise :class:`IllegalOrderError`: the answer, or the same refusal
    (clause and reason) raised afresh."""
    found = board_memo(game, key, lambda: _outcome(work))
    if isinstance(found, _Refused):
        raise IllegalOrderError(found.clause, found.reason)
    return found
