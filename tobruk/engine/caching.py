"""One way to keep an answer: a cache declares what its answers depend on, and the engine builds the keys.

The rules ask the same questions many times over (a side's zones of control, a unit's reach, the odds of an attack
being put together): a listing asks per unit, the play of an action asks again what its listing worked out, and a
search comes back to a position it has seen.  Each such question is a :class:`Cache`, declared once beside the
function that answers it, naming what the answer reads:

* :data:`FIXED`: nothing that changes during a game (the scenario, the options, the map); the answer depends on the
  arguments alone (which must then hold everything else it reads, like a unit's search key).  Kept for the whole
  game and shared with its copies.
* :data:`POSITION`: the whole position (:meth:`Game.position_key`): the turn, the step, the units, the variables,
  the decision stack.
* :data:`BOARD`: the position but the decision stack (:func:`board_key`): the answers of an attack being put
  together (``target``, ``add``, ``declare`` each make a new position on the same board).
* :func:`side_units`: the rows of one side's units (:meth:`Game.side_key`), the side being an argument: kept while
  the other side moves.
* :func:`enemy_units`: the rows of that side's enemy.
* :func:`variable`: one of the system's variables (immutable; compared by value).

The key of an answer is made here, from those and the arguments: no caller builds one, so no caller can forget a
part of what the answer reads.  A cache keeps the answers of several positions (a search goes back and forth) up to
its ``size``, then starts again.  :class:`Carried` is the other kind: a value carried from one position to the next
and brought up to date there, which itself holds what it was made from and checks it (a side's kept move blocks).

:meth:`Game.forget_caches` drops every answer; a copy of a game starts with none but the fixed ones.  Plain
``functools`` caches are for pure functions of their arguments only (a table built from a chart), never for
answers about a game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, cast

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import SIDE_GROUP

if TYPE_CHECKING:
    from tobruk.engine.game import Game

T = TypeVar("T")
P = ParamSpec("P")


class Dependency:
    """Something an answer reads: gives its part of the key, for a game and the answer's arguments."""

    __slots__ = ("enemy", "name", "side_argument", "token")

    def __init__(self, name: str, token: Callable[[Game, Any], Hashable], *, side_argument: int | None = None, enemy: bool = False) -> None:
        self.name = name
        self.token = token
        # the rows of a side (or its enemy's) named by that argument: Cache.get makes this token itself (the commonest)
        self.side_argument, self.enemy = side_argument, enemy

    def __repr__(self) -> str:
        return self.name


def board_key(game: Game) -> tuple[int, int, bool, int, int, int]:
    """What an answer about the board is kept under: the position's key without the decision stack."""
    s = game.state
    return (s.turn, s.step, s.over, s.reveals, s.units.z, s.vars.key())


FIXED = Dependency("fixed", lambda game, args: None)
POSITION = Dependency("position", lambda game, args: game.position_key())
BOARD = Dependency("board", lambda game, args: board_key(game))


def side_units(argument: int = 0) -> Dependency:
    """The rows of the side given as the answer's ``argument``-th argument (the only one if it has one); of every
    unit where that argument is ``None`` (both sides)."""

    def token(game: Game, args: Any) -> Hashable:
        side = args[argument] if isinstance(args, tuple) else args
        return game.state.units.z if side is None else game.side_key(side)

    return Dependency(f"side_units({argument})", token, side_argument=argument)


def enemy_units(argument: int = 0) -> Dependency:
    """The rows of the enemy of the side given as the answer's ``argument``-th argument (the only one if it has one)."""

    def token(game: Game, args: Any) -> Hashable:
        side = args[argument] if isinstance(args, tuple) else args
        return game.side_key(side.enemy)

    return Dependency(f"enemy_units({argument})", token, side_argument=argument, enemy=True)


def variable(name: str) -> Dependency:
    """One of the system's variables (its current value: variables are immutable and hashable)."""

    def token(game: Game, args: Any) -> Hashable:
        value: Hashable = game.state.vars.__dict__[name]
        return value

    return Dependency(f"variable({name!r})", token)


DEFAULT_SIZE = 2048  # answers kept (for the positions of the last few actions: a listing asks per unit), then dropped


class Cache(Generic[T]):
    """The answers to one question about a game, kept under what they are declared to depend on.

    ``cache.get(game, args, work)`` gives the answer for ``args`` (hashable: a side, a unit id, a tuple of them),
    calling ``work()`` only when no answer is kept for what the answer depends on now.  Declared at module level,
    once per question; compared by identity (each declaration is its own cache).
    """

    __slots__ = ("_enemy", "_key", "_position", "_side", "_token", "depends", "fixed", "name", "size")

    def __init__(self, name: str, *depends: Dependency, size: int = DEFAULT_SIZE) -> None:
        if not depends:
            raise ValueError(f"cache {name!r}: say what its answers depend on (FIXED if on the arguments alone)")
        if FIXED in depends and len(depends) > 1:
            raise ValueError(f"cache {name!r}: FIXED answers depend on nothing else")
        self.name, self.depends, self.size = name, depends, size
        self.fixed = depends == (FIXED,)
        self._key = self._keyer(depends)
        # the commonest keys made in get itself, without a call to a key maker (the engine's most frequent call)
        self._position = depends == (POSITION,)
        self._token = depends[0].token if len(depends) == 1 and not self.fixed and not self._position else None
        self._side = depends[0].side_argument if len(depends) == 1 else None
        self._enemy = depends[0].enemy

    @staticmethod
    def _keyer(depends: tuple[Dependency, ...]) -> Callable[[Game, Any], Hashable]:
        """The key maker (the one dependency alone without a loop: a listing asks thousands of times)."""
        if depends == (FIXED,):
            return lambda game, args: args
        if depends == (POSITION,):
            return lambda game, args: (game.position_key(), args)
        if len(depends) == 1:
            (token,) = (d.token for d in depends)
            return lambda game, args: (token(game, args), args)
        tokens = tuple(d.token for d in depends)
        return lambda game, args: (tuple(t(game, args) for t in tokens), args)

    def get(self, game: Game, args: Hashable, work: Callable[[], T]) -> T:
        # (Game.cache_store inlined: this is the engine's most frequent call, several per action played)
        stores = game._fixed_caches if self.fixed else game._caches
        store = stores.get(self)
        if store is None:
            store = stores[self] = {}
        side_argument = self._side
        if side_argument is not None:  # (side_units, enemy_units: Game.side_key inlined)
            side: Any = args[side_argument] if isinstance(args, tuple) else args
            units = game.state.units
            if self._enemy:
                key: Hashable = (units.group_z[SIDE_GROUP[side.enemy]], args)
            else:
                key = (units.z if side is None else units.group_z[SIDE_GROUP[side]], args)
        elif (token := self._token) is not None:
            key = (token(game, args), args)
        elif self._position:
            key = (game.position_key(), args)
        elif self.fixed:
            key = args
        else:
            key = self._key(game, args)
        try:
            found: T = store[key]
        except KeyError:
            if len(store) >= self.size:
                store.clear()
            found = store[key] = work()
        return found

    def at_position(self, game: Game, position: int, work: Callable[[], T]) -> T:
        """:meth:`get` of a position cache (``POSITION``, no arguments) by the position's key, which the caller has
        just made (:attr:`Game.decision` does: making it twice is a tenth of the cost of an action played)."""
        if not self._position:
            raise TypeError(f"cache {self.name!r} does not depend on the position alone")
        store = game._caches.get(self)
        if store is None:
            store = game._caches[self] = {}
        key = (position, None)
        try:
            found: T = store[key]
        except KeyError:
            if len(store) >= self.size:
                store.clear()
            found = store[key] = work()
        return found

    def check(self, game: Game, args: Hashable, work: Callable[[], T]) -> T:
        """:meth:`get` for work that may refuse (:class:`IllegalOrderError`): the answer, or the same refusal (its
        clause and reason) raised afresh each time, so a kept refusal reads as the first did."""
        either = cast("Cache[T | _Refused]", self)  # (the same store holds answers and refusals)
        found = either.get(game, args, lambda: _outcome(work))
        if isinstance(found, _Refused):
            raise IllegalOrderError(found.clause, found.reason)
        return found

    def __repr__(self) -> str:
        return f"Cache({self.name!r}, {', '.join(map(repr, self.depends))})"


def cached(
    *depends: Dependency, size: int = DEFAULT_SIZE
) -> Callable[[Callable[Concatenate[Game, P], T]], Callable[Concatenate[Game, P], T]]:
    """A function of a game and hashable positional arguments, its answers kept by a :class:`Cache` (named after it)
    under ``depends``."""

    def wrap(function: Callable[Concatenate[Game, P], T]) -> Callable[Concatenate[Game, P], T]:
        cache: Cache[T] = Cache(f"{function.__module__}.{function.__qualname__}", *depends, size=size)

        def answer(game: Game, /, *args: P.args, **kwargs: P.kwargs) -> T:
            if kwargs:
                raise TypeError(f"{cache.name}: a cached function takes positional arguments only")
            return cache.get(game, args, lambda: function(game, *args, **kwargs))

        answer.__doc__, answer.__name__, answer.__qualname__ = function.__doc__, function.__name__, function.__qualname__
        answer.__module__ = function.__module__
        answer.cache = cache  # type: ignore[attr-defined]
        return answer

    return wrap


class Carried(Generic[T]):
    """A value carried from one position to the next and brought up to date there (not worked out afresh).

    The value holds what it was made from (the units' rows, the context it read) and its user compares that with
    the position now, asking again only what changed: ``last(game, args)`` is the value kept for ``args`` (or
    ``None``), ``keep(game, args, value)`` replaces it.  The dependency is the value's own, so every user says in
    its docstring what it compares, and the tests list its answers both ways (kept and afresh).
    """

    __slots__ = ("name",)
    fixed = False  # (a copy of the game starts without it)

    def __init__(self, name: str) -> None:
        self.name = name

    def last(self, game: Game, args: Hashable) -> T | None:
        found: T | None = game.cache_store(self).get(args)
        return found

    def keep(self, game: Game, args: Hashable, value: T) -> None:
        game.cache_store(self)[args] = value

    def __repr__(self) -> str:
        return f"Carried({self.name!r})"


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
