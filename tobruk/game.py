"""The game: state, decisions, legal orders, play and undo (python-chess's Board, as a state machine).

``game.decision`` says who must decide what now; ``game.legal_orders()`` lists what they
may order; ``game.play(order)`` checks and applies it or raises
:class:`IllegalOrderError` naming the rule clause, leaving the state untouched.
``game.pop()`` undoes the last order, never across a die roll or a reveal of hidden units.
Phases that need no decision run by themselves between orders.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tobruk.dice import Dice
from tobruk.errors import IllegalOrderError, UndoError
from tobruk.hexes import Hex
from tobruk.orders import Order, format_order, parse_order
from tobruk.scenario import Scenario
from tobruk.sides import Side
from tobruk.systems import Decision, Phase, System, find_system
from tobruk.units import UnitDef, UnitState


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the game log: the whole truth, and what a side sees instead where it may not see it.

    ``private`` pairs a side (its value) with the text that side is shown in place of ``text``, or
    ``None`` when it is shown nothing; a side not named sees ``text``.  The view gives each side only
    its own reading (:meth:`seen_by`), so a line about face-down units never reaches the other side.
    """

    text: str
    private: tuple[tuple[str, str | None], ...] = ()

    def seen_by(self, side: Side) -> str | None:
        for who, instead in self.private:
            if who == side.value:
                return instead
        return self.text


@dataclass
class GameState:
    """Everything that changes during a game (the scenario and the dice live beside it)."""

    turn: int
    phase_index: int
    units: dict[str, UnitState]
    weather: str = "clear"
    over: bool = False
    data: dict[str, Any] = field(default_factory=dict)
    entries: list[LogEntry] = field(default_factory=list)
    reveals: int = 0
    private_rolls: dict[int, str] = field(default_factory=dict)  # die roll index -> the only side that sees it

    @property
    def log(self) -> list[str]:
        """The whole log as text (the referee's; a side's own reading is :meth:`Game.log_for`)."""
        return [e.text for e in self.entries]

    def copy(self) -> GameState:
        return GameState(self.turn, self.phase_index, {k: u.copy() for k, u in self.units.items()}, self.weather,
                         self.over, json.loads(json.dumps(self.data)), list(self.entries), self.reveals,
                         dict(self.private_rolls))


@dataclass(frozen=True, slots=True)
class _Snapshot:
    state: GameState
    dice: tuple[Any, int]
    reveals: int


class Game:
    def __init__(self, scenario: Scenario, *, seed: int = 0, options: Iterable[str] = (),
                 dice: Dice | None = None) -> None:
        self.scenario = scenario
        self.seed = seed
        known = {o.name for o in scenario.options}
        self.options = frozenset(options)
        unknown = self.options - known
        if unknown:
            raise ValueError(f"scenario {scenario.name!r} has no option {sorted(unknown)[0]!r}; "
                             f"it offers: {', '.join(sorted(known)) or 'none'}")
        self.system: System = find_system(scenario.system)()
        self.dice = dice if dice is not None else Dice(seed)
        self.defs: dict[str, UnitDef] = {u.id: u for u in scenario.units}
        self._sides = {side: tuple(uid for uid, d in self.defs.items() if d.side is side) for side in Side}
        self.state = GameState(1, 0, {u.id: UnitState(hex=scenario.start.get(u.id)) for u in scenario.units})
        self.history: list[Order] = []
        self._stack: list[_Snapshot] = []
        self._memo: dict[Any, Any] = {}
        self._legal: tuple[Any, list[Any]] | None = None
        # answers of searches whose key holds everything they read (e.g. a unit's reach), kept across
        # positions; unlike ``memo`` it is never keyed on the position, so only content-complete keys go in
        self.search_cache: dict[Any, Any] = {}
        self._notation: dict[int, tuple[Order, str]] = {}
        self.system.setup(self)
        self.system.enter_phase(self, self.phase)
        self._advance()

    # --- the sequence of play ----------------------------------------------------------------
    @property
    def phases(self) -> Sequence[Phase]:
        return self.system.phases(self)

    @property
    def phase(self) -> Phase:
        return self.phases[self.state.phase_index]

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def decision(self) -> Decision | None:
        """Who must decide what now; ``None`` once the game is over."""
        if self.state.over:
            return None
        return self.system.decision(self, self.phase)

    @property
    def is_over(self) -> bool:
        return self.state.over

    def _next_phase(self) -> None:
        self.state.phase_index += 1
        if self.state.phase_index >= len(self.phases):
            self.state.phase_index = 0
            self.state.turn += 1
            if self.state.turn > self.scenario.turns:
                self.state.over = True
                self.state.turn = self.scenario.turns
                self.state.phase_index = len(self.phases) - 1
                self.log(f"End of the game after turn {self.scenario.turns}.")
                self.system.end_game(self)
                return
            self.system.begin_turn(self)
        self.system.enter_phase(self, self.phase)

    def _advance(self) -> None:
        """Run phases that need nobody's decision until one does, or the game ends."""
        while not self.state.over and self.system.decision(self, self.phase) is None:
            self.system.run_phase(self, self.phase)
            if self.state.over:
                return
            self._next_phase()

    # --- orders ------------------------------------------------------------------------------
    def legal_orders(self) -> list[Order]:
        """Every legal order at the current decision (the last listing is kept for its position).

        The listing is asked for several times per decision (the player, the view, the referee), and
        it is the costliest question in the engine; the key covers every field of every unit, the phase
        and all the system's data, so a position changed by any means gets a fresh listing.
        """
        return list(self._listing()[0])

    def legal_notation(self) -> list[str]:
        """The legal orders in notation, in the order of :meth:`legal_orders` (kept with the listing)."""
        listing = self._listing()
        if listing[1] is None:
            listing[1] = tuple(self._notation_of(o) for o in listing[0])
        return list(listing[1])

    def _notation_of(self, order: Order) -> str:
        """An order's notation, remembered for order objects the system hands out again (cached listings)."""
        entry = self._notation.get(id(order))
        if entry is None or entry[0] is not order:
            if len(self._notation) >= 20_000:
                self._notation.clear()
            entry = self._notation[id(order)] = (order, format_order(order))  # the order kept alive: its id stays its own
        return entry[1]

    def _listing(self) -> list[Any]:
        """[orders, notation or None] for the current position, listed once per position."""
        d = self.decision
        if d is None:
            return [(), ()]
        s = self.state
        key = (s.turn, s.phase_index, s.weather, s.over, s.reveals, repr(s.data),
               tuple((u.hex, u.disrupted, u.newly_disrupted, u.activated, u.hidden, u.eliminated, u.moved, u.attacked,
                      u.out_of_supply, repr(u.extra)) for u in s.units.values()))
        if self._legal is None or self._legal[0] != key:
            self._legal = (key, [tuple(self.system.legal_orders(self, d)), None])
        return self._legal[1]

    def is_legal(self, order: Order) -> bool:
        d = self.decision
        if d is None:
            return False
        try:
            self.system.check(self, d, order)
        except IllegalOrderError:
            return False
        return True

    def play(self, order: Order | str) -> None:
        """Check and carry out one order of the current decider; the state is untouched if it is illegal."""
        if isinstance(order, str):
            order = parse_order(order)
        d = self.decision
        if d is None:
            raise IllegalOrderError("GG-VII.A" if self.scenario.system == "gazala-gallop" else "end",
                                    "the game is over")
        self.system.check(self, d, order)
        snap = _Snapshot(self.state.copy(), self.dice.snapshot(), self.state.reveals)
        played = len(self.history)
        try:
            ends_phase = self.system.apply(self, d, order)
            self.history.append(order)
            if ends_phase:
                self.system.run_phase(self, self.phase)
                self._next_phase()
            self._advance()
        except Exception:
            self.state = snap.state  # a refused or failed order leaves no trace
            self.dice.restore(snap.dice)
            del self.history[played:]
            raise
        self._stack.append(snap)

    def pop(self) -> Order:
        """Undo the last order.  Refused past a die roll or a reveal, which the other side has seen."""
        if not self._stack:
            raise UndoError("nothing to undo")
        snap = self._stack[-1]
        if len(self.dice.log) > snap.dice[1]:
            raise UndoError("cannot undo past a die roll")
        if self.state.reveals > snap.reveals:
            raise UndoError("cannot undo past the reveal of hidden units")
        self._stack.pop()
        self.state = snap.state
        self.dice.restore(snap.dice)
        return self.history.pop()

    def can_undo(self) -> bool:
        if not self._stack:
            return False
        snap = self._stack[-1]
        return len(self.dice.log) == snap.dice[1] and self.state.reveals == snap.reveals

    def copy(self) -> Game:
        """An independent game in the same position (for search); history and undo stack included."""
        other = object.__new__(Game)
        other.scenario, other.seed, other.options, other.system = self.scenario, self.seed, self.options, self.system
        other.defs, other._sides = self.defs, self._sides
        other.dice = self.dice.copy()
        other.state = self.state.copy()
        other.history = list(self.history)
        other._stack = list(self._stack)
        other._memo = {}
        other.search_cache = {}
        other._notation = {}
        other._legal = None if self._legal is None else (self._legal[0], list(self._legal[1]))
        return other

    def forget_caches(self) -> None:
        """Drop every remembered answer (listings, searches, notation): the next question is worked out
        afresh.  Nothing observable changes; tests use it to prove the caches never serve a stale answer."""
        self._memo.clear()
        self._legal = None
        self.search_cache.clear()
        self._notation.clear()

    def memo(self, key: Any, factory: Any) -> Any:
        """A value derived from the position, computed once per position (e.g. a side's ZOC).

        The cache is keyed on a fingerprint of everything rules read from the position, so a
        position changed by any means (an order, undo, or a test arranging units) is never served a
        stale value.
        """
        full = (self._fingerprint(), key)
        if full not in self._memo:
            if len(self._memo) > 256:
                self._memo.clear()
            self._memo[full] = factory()
        return self._memo[full]

    def _fingerprint(self) -> tuple[Any, ...]:
        s = self.state
        return (s.turn, s.phase_index, s.weather,
                tuple((u.hex, u.disrupted, u.eliminated, u.hidden, u.activated, u.moved, u.attacked, u.out_of_supply)
                      for u in s.units.values()),
                self.system.position_data(self))

    # --- questions about the position ----------------------------------------------------------
    def unit(self, unit_id: str) -> UnitState:
        return self.state.units[unit_id]

    def units_of(self, side: Side) -> list[str]:
        return list(self._sides[side])  # the order of battle never changes during a game

    def units_at(self, h: Hex, side: Side | None = None) -> list[str]:
        """Ids of units (dummies included) in a hex, in order of the order of battle."""
        return [uid for uid, u in self.state.units.items()
                if u.hex is not None and u.hex == h and not u.eliminated and (side is None or self.defs[uid].side is side)]

    def occupants(self, side: Side | None = None) -> dict[Hex, list[str]]:
        """Every occupied hex with its units (as :meth:`units_at` gives them), for asking about many hexes at once."""
        out: dict[Hex, list[str]] = {}
        for uid, u in self.state.units.items():
            if u.hex is not None and not u.eliminated and (side is None or self.defs[uid].side is side):
                out.setdefault(u.hex, []).append(uid)
        return out

    def log(self, line: str, *, hidden_from: Side | None = None, instead: str | None = None) -> None:
        """Add a line to the log; ``hidden_from`` that side, which is shown ``instead`` (or nothing)."""
        private = () if hidden_from is None else ((hidden_from.value, instead),)
        self.state.entries.append(LogEntry(line, private))

    def log_for(self, side: Side) -> list[str]:
        """The log as ``side`` may read it; once the game is over, all of it."""
        if self.state.over:
            return self.state.log
        return [t for e in self.state.entries if (t := e.seen_by(side)) is not None]

    def roll(self, purpose: str, *, seen_only_by: Side | None = None) -> int:
        """Roll a die; ``seen_only_by``: a roll about face-down units, which the other side is not shown."""
        if seen_only_by is not None:
            self.state.private_rolls[len(self.dice.log)] = seen_only_by.value
        return self.dice.roll(purpose)

    def rolls_for(self, side: Side) -> list[Any]:
        """The die rolls ``side`` may see (every one once the game is over)."""
        private = {} if self.state.over else self.state.private_rolls
        return [r for i, r in enumerate(self.dice.log) if private.get(i, side.value) == side.value]

    def secret_mac(self, message: str) -> str:
        """A keyed hash of ``message`` under a key only the seed gives (e.g. face-down counters' anonymous ids).

        The seed is kept from the players until the game is over, so nobody can work these out or
        predict them; a replay of the record reproduces them.
        """
        key = hashlib.sha256(f"tobruk-secret:{self.seed}".encode()).digest()
        return hmac.new(key, message.encode(), hashlib.sha256).hexdigest()

    # --- identity -----------------------------------------------------------------------------
    def state_data(self) -> dict[str, Any]:
        """The whole position as plain data: the input of :meth:`state_hash` and of save files."""
        return {
            "turn": self.state.turn,
            "phase": self.phase.key,
            "weather": self.state.weather,
            "over": self.state.over,
            "units": {uid: u.to_data() for uid, u in sorted(self.state.units.items())},
            "data": self.state.data,
            "dice": self.dice.fingerprint(),
        }

    def state_hash(self) -> str:
        text = json.dumps(self.state_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def notation(self) -> list[str]:
        return [format_order(o) for o in self.history]
