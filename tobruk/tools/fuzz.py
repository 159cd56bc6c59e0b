"""Random games with every invariant checked after every order (``tobruk fuzz``).

A failing game is saved as a record that reproduces it.  The fuzzer holds the engine to its own invariants, which no
game system states: looking at a view changes nothing; a side's view holds nothing of the other side's face-down
units (no id or name in the view, the legal orders or the log lines written while they are face down; every
face-down counter shown with the same fields and a well-formed anonymous id, listed last by hex and id; an anonymous
id never stands for two counters and never comes back once gone); every order played is listed under its id and
made again from its id, its fields and its notation; undo restores the exact position, and playing the order again
gives the same position and log lines (whole positions compared part by part, :func:`position_of`: all the state
hash covers and more); the position's incremental hashes (the unit arrays' Zobrist hash, the variables' hash) equal
the hashes worked out afresh; and a decision always has a legal order.  (The state hash, what a record holds after
each order, is worked out by :func:`~tobruk.record.record_of` when a failing game is saved; its text is held to its
definition through whole random games by the tests.)

Everything the rules say is the system's: its invariants after each order (:meth:`System.invariants`: for the
family's systems one side's units a hex, the stacking limit once a phase has ended, the supply markers as the last
determination left them, the truck convoys within the side's limit ...), its checks of each order before it is played
(:meth:`System.check_action`: no move spends more MF than the unit has, no disrupted unit attacks, every retreat moves
away from the hex it leaves ...) and what it allows a unit once a game-turn (:meth:`System.once_per_turn`).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import operator
import random
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action as Order
from tobruk.engine.caching import FIXED, Cache
from tobruk.engine.dice import DieRoll
from tobruk.engine.flow import Step
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.state import Units
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.players.base import outcomes_for
from tobruk.record import record_of, save
from tobruk.view import look_of, seen_by_enemy, view

_SPACES = str.maketrans(",:", "  ")  # the separators inside an order's notation, for splitting it into words
_LOG_SPACES = str.maketrans(",:.;()", "      ")  # the same for a log line
# JSON text as UTF-8 bytes: a view's text, and a name as it would stand in it (quoted and escaped the same way)
_JSON = msgspec.json.Encoder().encode


class InvariantError(AssertionError):
    """A rule the engine must never break was broken."""


@dataclass
class FuzzResult:
    seed: int
    orders: int
    turn: int
    failure: str | None = None
    record: Path | None = None


class Position(NamedTuple):
    """Everything a position is made of, as values to compare with ``==`` (see :func:`position_of`)."""

    turn: int
    step: int
    step_key: str
    over: bool
    stack: tuple[Any, ...]
    unit_hexes: list[int]
    unit_status: list[int]
    unit_steps: list[int]
    variables: tuple[Any, ...]
    dice: tuple[int, list[DieRoll]]  # the rolls made, and the last eight
    log_length: int
    reveals: int
    private_rolls: dict[int, str]


_FIELDS: dict[type, Callable[[Any], Any]] = {}  # a Vars type -> the getter of all its fields at once, as a tuple


def _fields_of(kind: type) -> Callable[[Any], Any]:
    getter = _FIELDS.get(kind)
    if getter is None:
        names = [f.name for f in dataclasses.fields(kind)]
        one = operator.attrgetter(*names)
        getter = _FIELDS[kind] = (lambda v: (one(v),)) if len(names) == 1 else one
    return getter


def position_of(game: Game) -> Position:
    """The whole position, for the fuzzer's checks that a view changed nothing and that undo and replay restore
    the exact position: everything the state hash is made of (:meth:`Game.state_data`: the turn, the step, the
    end, the decision stack, every unit's hex, status bits and steps, every variable, the dice: what their
    fingerprint holds, the number of rolls and the last eight, as the rolls themselves) and
    what it leaves out but undo must restore too (the log's length, the reveals, the marks of private rolls).

    The parts are the position's own values, copied where they are lists (the unit arrays, the private rolls'
    marks): two looks are equal exactly when the parts are (``==``: frames and variables by value, so a replay's
    new but equal objects are equal), without the canonical text's encoding and SHA-256 (a few µs against tens).
    It reads the arrays themselves, not their incremental hash, so a write past the hash is seen too.
    """
    s = game.state
    units = s.units
    rolls = game.dice.log
    return Position(
        s.turn,
        s.step,
        game.step.key,
        s.over,
        s.stack,
        units.hex.copy(),
        units.flags.copy(),
        units.steps.copy(),
        _fields_of(type(s.vars))(s.vars),
        (len(rolls), rolls[-8:]),
        len(s.entries),
        s.reveals,
        s.private_rolls.copy(),
    )


def differences(before: object, after: object) -> str:
    """The parts two looks at a position differ in, for a failure's message (nothing to add for state hashes)."""
    if not (isinstance(before, Position) and isinstance(after, Position)):
        return ""
    parts = [name.replace("_", " ") for name, a, b in zip(Position._fields, before, after, strict=True) if a != b]
    return f" ({', '.join(parts)})"


Look = Callable[[Game], object]  # how a check looks at the whole position: the state hash or position_of


def check_ids(game: Game, order: Order) -> None:
    """Before an order is played: it is the action listed under its id (the same shape: type and coordinates), and its
    fields and its notation make it again (what the page and a person send back)."""
    space = game.action_space
    i = space.id_of(order)
    listed = game.legal_action(i)
    if space.kind_of(i) is not type(order) or listed is None or type(listed) is not type(order) or listed.key() != order.key():
        raise InvariantError(f"{order.notation()} is not listed under its id {i}")
    vocabulary = game.system.vocabulary
    if vocabulary.from_fields(order.fields()) != order or vocabulary.parse(order.notation()) != order:
        raise InvariantError(f"{order.notation()} is not made again from its fields and its notation")


def check_rules(game: Game, before: Step) -> None:
    """The system's own invariants after an action played in step ``before`` (stacking, supply markers ...)."""
    problems = game.system.invariants(game, before)
    if problems:
        raise InvariantError(problems[0])


ANON = re.compile(r"[0-9a-f]{12}")


@dataclass
class FogWatch:
    """What the fuzzer remembers across one game about the anonymous ids and the log each side was shown."""

    owners: dict[str, str]  # anonymous id -> the counter it stood for
    gone: set[str]  # ids shown once and no longer shown
    shown: dict[Side, set[str]]
    log_seen: dict[Side, int]

    @classmethod
    def new(cls) -> FogWatch:
        return cls({}, set(), {s: set() for s in Side}, {s: 0 for s in Side})


def _face_down_truth(game: Game, side: Side) -> tuple[list[str], dict[str, str]]:
    """From ``side``'s counters as its enemy sees them (:func:`seen_by_enemy`): the face-down ones not eliminated,
    and the anonymous ids of those on the map with the counter each stands for; kept under that answer's look (the
    same while the side's counters look the same: through the enemy's whole phase)."""
    seen = seen_by_enemy(game, side)

    def work() -> tuple[list[str], dict[str, str]]:
        face_down: list[str] = []
        truth: dict[str, str] = {}
        for uid, (h, hidden, eliminated, anon) in seen.items():
            if hidden and not eliminated:
                face_down.append(uid)
                if h is not None and anon is not None:
                    truth[anon] = uid
        return face_down, truth

    return _FACE_DOWN.get(game, side, work)


def check_face_down(game: Game, side: Side, seen: dict[str, object], watch: FogWatch | None, truth: dict[str, str] | None = None) -> None:
    """The enemy's face-down counters in ``side``'s view: nothing that tells one from another.  ``truth``: the
    anonymous ids of the enemy's face-down counters on the map, each with the counter it stands for, when the
    caller has them (see :func:`_face_down_truth`)."""
    units = seen["units"]
    assert isinstance(units, list)
    mine = side.value
    face_down = [u for u in units if u.get("hidden") and u.get("side") != mine]
    if units[len(units) - len(face_down) :] != face_down:
        raise InvariantError(f"the {side.display} view lists face-down counters among the other units")
    for entry in face_down:
        if set(entry) != {"side", "hex", "hidden", "anon"} or not ANON.fullmatch(str(entry["anon"])):
            raise InvariantError(f"the {side.display} view shows a face-down counter with other fields: {entry}")
    keys = [(Hex.parse(e["hex"]), e["anon"]) for e in face_down]
    if keys != sorted(keys) or len({a for _, a in keys}) != len(keys):
        raise InvariantError(f"the {side.display} view's face-down counters are not in (hex, id) order, or repeat an id")
    if truth is None:
        truth = _face_down_truth(game, side.enemy)[1]
    if set(truth) != {a for _, a in keys}:
        raise InvariantError(f"the {side.display} view's anonymous ids are not those of the face-down counters")
    if watch is None:
        return
    for anon, uid in truth.items():
        if watch.owners.setdefault(anon, uid) != uid:
            raise InvariantError(f"the anonymous id {anon} stood for {watch.owners[anon]} and now for {uid}")
        if anon in watch.gone:
            raise InvariantError(f"the anonymous id {anon} ({uid}) came back after it was gone")
    watch.gone |= watch.shown[side] - set(truth)
    watch.shown[side] = set(truth)


def _needles(game: Game) -> dict[str, tuple[bytes, bytes]]:
    """Each counter's id and name as they would stand in a view's JSON text (quoted, escaped), once per game."""
    return _NEEDLES.get(game, None, lambda: {uid: (_JSON(uid), _JSON(d.name)) for uid, d in game.defs.items()})


_FACE_DOWN: Cache[tuple[list[str], dict[str, str]]] = Cache("fuzz.face-down", look_of())
_NEEDLES: Cache[dict[str, tuple[bytes, bytes]]] = Cache("fuzz.needles", FIXED)


SCAN_AT_MOST = 6  # face-down counters looked for one by one in a view's JSON text; more, and its strings are cut out


def _shown(game: Game, face_down: list[str], text: bytes, orders: str, new_lines: str) -> str | None:
    """The first of the ``face_down`` counters a view shows, or ``None``: its id or name as a string of the view's
    JSON ``text``, or its id as a word of a legal order or of a new log line.

    A few counters are looked for in the text one by one; many (a face-down set-up) among the text's strings, cut
    out once: the pieces between its quotes (a quoted needle stands in the text exactly when a piece, neither the
    first nor the last, equals it unquoted, as long as it holds no quote).  The orders (thousands in a set-up) and
    the log lines are cut into words only when an id stands in them at all."""
    needles = _needles(game)
    strings = set(text.split(b'"')[1:-1]) if len(face_down) > SCAN_AT_MOST else None
    for uid in face_down:
        for quoted in needles[uid]:
            bare = quoted[1:-1]
            if (quoted in text) if strings is None or b'"' in bare else (bare in strings):
                return uid
        if (uid in orders and uid in orders.translate(_SPACES).split()) or (
            uid in new_lines and uid in new_lines.translate(_LOG_SPACES).split()
        ):
            return uid
    return None


def check_views(
    game: Game, watch: FogWatch | None = None, before: object = None, look: Look = Game.state_hash
) -> tuple[object, dict[Side, dict[str, object]]]:
    """Check both views; return the position as ``look`` sees it (unchanged by looking) and the views.

    ``look``: the state hash, or :func:`position_of` (the fuzzer's loop: all the hash covers, and more, for less).
    ``before``: the position's look when the caller has just worked it out (after the undo check of the last
    action); whatever changed the game since, the listing and the checks included, is then caught here too.
    """
    handed_in = before is not None
    if before is None:
        before = look(game)
    views = {}
    for side in Side:
        seen = views[side] = view(game, side)
        log = seen["log"]
        assert isinstance(log, list)
        face_down, truth = _face_down_truth(game, side.enemy)
        if face_down:  # the view and the words it holds are read only when there is something they must not show
            text = _JSON({k: v for k, v in seen.items() if k not in ("log", "legal_orders")})
            orders = " ".join(seen["legal_orders"])
            # the log may name a unit from before it was turned face down: only the lines written since the last
            # look (while it was face down) are read
            new_lines = " ".join(log[watch.log_seen[side] :]) if watch is not None else ""
            shown = _shown(game, face_down, text, orders, new_lines)
            if shown is not None:
                raise InvariantError(f"the {side.display} view shows the face-down {shown}")
        check_face_down(game, side, seen, watch, truth)
        if watch is not None:
            watch.log_seen[side] = len(log)
    now = look(game)
    if now != before:
        if handed_in:
            raise InvariantError(f"looking at the position (the listing, the checks or a view) changed the game{differences(before, now)}")
        raise InvariantError(f"looking at a view changed the game{differences(before, now)}")
    return before, views


class ArraysKey:
    """The unit arrays' Zobrist hash worked out afresh from the arrays themselves, as :meth:`Units.key_afresh` does,
    but from the arrays it was last worked out for (copies): XOR takes a key out as it put it in, so taking out
    the old keys of the rows changed since and putting in their new ones gives the same number as every row's
    keys, for the rows a game changes from one order to the next (usually one) instead of all of them."""

    __slots__ = ("flags", "hexes", "steps", "z")

    def __init__(self) -> None:
        self.hexes: list[int] | None = None
        self.flags: list[int] = []
        self.steps: list[int] = []
        self.z = 0

    def of(self, units: Units) -> int:
        hexes, flags, steps = units.hex, units.flags, units.steps
        if self.hexes is None or len(self.hexes) != len(hexes):
            z = units.key_afresh()
        elif hexes == self.hexes and flags == self.flags and steps == self.steps:
            return self.z
        else:
            z, keys, old_hexes, old_flags, old_steps = self.z, units.keys, self.hexes, self.flags, self.steps
            for i, (j, f, n) in enumerate(zip(hexes, flags, steps, strict=True)):
                if j != old_hexes[i]:
                    z ^= keys.of_hex(i, old_hexes[i]) ^ keys.of_hex(i, j)
                if f != old_flags[i]:
                    z ^= keys.of_flags(i, old_flags[i]) ^ keys.of_flags(i, f)
                if n != old_steps[i]:
                    z ^= keys.of_steps(i, old_steps[i]) ^ keys.of_steps(i, n)
        self.hexes, self.flags, self.steps, self.z = hexes.copy(), flags.copy(), steps.copy(), z
        return z


def check_hashes(game: Game, arrays_key: ArraysKey | None = None) -> None:
    """The position's incremental hashes (kept by every write, the key of every position cache) equal the same
    hashes worked out afresh from the unit arrays and the variables (``arrays_key``: the fuzzer's loop works the
    arrays' hash out from the rows changed since the last check, see :class:`ArraysKey`)."""
    s = game.state
    afresh = s.units.key_afresh() if arrays_key is None else arrays_key.of(s.units)
    if s.units.z != afresh:
        raise InvariantError("the unit arrays' incremental hash differs from the one worked out afresh")
    if s.vars.key() != s.vars.key_afresh():
        raise InvariantError("the variables' incremental hash differs from the one worked out afresh")


def check_order(game: Game, order: Order, done: dict[int, set[str]]) -> None:
    """Checks made just before an order is played: the system's own (:meth:`System.check_action`), and what it allows a
    unit once a game-turn (:meth:`System.once_per_turn`) not done twice."""
    problems = game.system.check_action(game, order)
    if problems:
        raise InvariantError(problems[0])
    once = game.system.once_per_turn(game, order)
    if once is not None and once in done.setdefault(game.turn, set()):
        raise InvariantError(f"{once} twice in turn {game.turn}")


def after_order(game: Game, order: Order, turn: int, done: dict[int, set[str]]) -> None:
    """Note what the order did that the rules allow once a game-turn (in the turn it was played)."""
    once = game.system.once_per_turn(game, order)
    if once is not None:
        done.setdefault(turn, set()).add(once)


def check_undo(game: Game, order: Order, before: object, look: Look = Game.state_hash) -> object | None:
    """Undo the order just played (when it may be undone): the position must be ``before``'s (``look``'s view of it
    before the order: the state hash, or :func:`position_of`), and playing it again must give the same position
    and write the same log lines.  Returns the position as ``look`` sees it now, or ``None`` when the order
    cannot be undone."""
    if not game.can_undo():
        return None
    after = look(game)
    entries = game.state.entries
    written = entries.copy()
    undone = game.pop()
    now = look(game)
    if undone != order or now != before:
        raise InvariantError(f"undo of {order.notation()} did not restore the position{differences(before, now)}")
    kept = len(entries)
    game.play(order)
    now = look(game)
    if now != after:
        raise InvariantError(f"replaying {order.notation()} after undo gave another position{differences(after, now)}")
    if entries[kept:] != written[kept:]:
        raise InvariantError(f"replaying {order.notation()} after undo wrote other log lines")
    return after


def fuzz_game(
    scenario: Scenario, seed: int, *, options: tuple[str, ...] = (), save_to: Path | None = None, max_orders: int = 100_000
) -> FuzzResult:
    """One random game with every invariant checked after every order; a failure of any kind comes back in the
    result (and as a record in ``save_to``).

    Python's cyclic garbage collector is paused for the game: a game in progress keeps hundreds of thousands of
    objects in its caches, and the collector's full passes over them (several a game, set off by the allocations
    of the listings and views, about 70 ms each) found nothing to collect: a game leaves no cyclic garbage, it
    is freed by reference counting when it ends (should one ever leave some, the collector, running again
    between games, takes it)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _fuzz_game(scenario, seed, options=options, save_to=save_to, max_orders=max_orders)
    finally:
        if collecting:
            gc.enable()


def _fuzz_game(scenario: Scenario, seed: int, *, options: tuple[str, ...], save_to: Path | None, max_orders: int) -> FuzzResult:
    game = Game(scenario, seed=seed, options=options)
    # each side picks uniformly among the legal orders, as the random player does (the same generators, the same
    # picks), from the listing as a sequence: only the order picked is made, not the hundreds of moves
    players = {Side.AXIS: random.Random(seed * 2 + 1), Side.ALLIED: random.Random(seed * 2 + 2)}
    done: dict[int, set[str]] = {}  # by game-turn: what units did that the rules allow once a turn
    watch = FogWatch.new()
    arrays_key = ArraysKey()
    known: object = None  # the whole position (position_of), when the last undo check has just looked at it
    try:
        for _ in range(max_orders):
            decision = game.decision
            if decision is None:
                break
            legal = game.legal_sequence()
            if not legal:
                raise InvariantError(f"dead end: no legal order at {decision}")
            before, _views = check_views(game, watch, known, position_of)
            outcomes_for(game, decision.side)  # (what a player is given: worked out, as for any player)
            order = players[decision.side].choice(legal)
            check_ids(game, order)
            check_order(game, order, done)
            step, turn = game.step, game.turn
            game.play(order)
            check_hashes(game, arrays_key)
            known = check_undo(game, order, before, position_of)
            after_order(game, order, turn, done)
            check_rules(game, step)
        else:
            raise InvariantError(f"no end after {max_orders} orders")
    except Exception as exc:  # a failure of any kind is kept as a record that reproduces it
        path = None
        if save_to is not None:
            save_to.mkdir(parents=True, exist_ok=True)
            path = save_to / f"fuzz-{scenario.name}-{seed}.json"
            save(record_of(game, {"axis": "random", "allied": "random"}), path)
        return FuzzResult(seed, len(game.history), game.turn, f"{type(exc).__name__}: {exc}", path)
    return FuzzResult(seed, len(game.history), game.turn)


@functools.cache
def _scenario(name: str) -> Scenario:
    return load_scenario(name)  # once per worker process


def _one(task: tuple[str, int, tuple[str, ...], Path | None]) -> FuzzResult:
    name, seed, options, save_to = task
    return fuzz_game(_scenario(name), seed, options=options, save_to=save_to)


def fuzz_many(
    scenario: str, seeds: range, *, options: tuple[str, ...] = (), save_to: Path | None = None, jobs: int = 1
) -> Iterator[FuzzResult]:
    """Fuzz one game per seed, in seed order, over ``jobs`` local processes; failures come back as results."""
    tasks = [(scenario, seed, options, save_to) for seed in seeds]
    if jobs <= 1:
        yield from map(_one, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_one, tasks, chunksize=4)
