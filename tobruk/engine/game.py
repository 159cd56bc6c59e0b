"""The game: a position, its decision, the legal actions, play and undo (python-chess's Board, as a state machine).

``game.decision`` says who must decide what now; ``game.legal_orders()`` lists what they may do;
``game.play(action)`` checks and carries it out or raises :class:`IllegalOrderError` naming the rule
clause, leaving the position untouched; ``game.pop()`` undoes the last action, never across a die roll
or a reveal of hidden units.  Steps nobody decides run by themselves between actions.  The engine names
no game: the :class:`~tobruk.engine.system.System` of the scenario supplies the steps, the actions and
the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from tobruk.board.hexes import Hex
from tobruk.board.units import UnitDef
from tobruk.engine._mask import mark
from tobruk.engine.actions import Action, ActionSpace, shared_space
from tobruk.engine.caching import POSITION, Cache, Carried, side_units
from tobruk.engine.chance import Chance, Outcome, check
from tobruk.engine.dice import Dice, DieRoll
from tobruk.engine.errors import IllegalOrderError, UndoError
from tobruk.engine.fields import known_names
from tobruk.engine.flow import Decision, Frame, Node, Step
from tobruk.engine.game_record import GameRecord
from tobruk.engine.listing import BlockMemory, Listing
from tobruk.engine.position import STEP_FINISHING, STEP_LEAVING, GameState, LogEntry, Reading, Snapshot
from tobruk.engine.sides import SIDE_GROUP, Side, SideTrail
from tobruk.engine.state import Units, UnitView, ZobristKeys
from tobruk.engine.system import System, system_for
from tobruk.engine.vars import Vars
from tobruk.loading.scenario import Scenario

T = TypeVar("T")

_DECISION: Cache[Decision | None] = Cache("decision", POSITION)
_NO_DECISIONS: tuple[tuple[int, Decision | None], tuple[int, Decision | None]] = ((-1, None), (-1, None))
_PLACED: Cache[tuple[tuple[str, Hex], ...]] = Cache("placed", side_units())
_UNITS_BY_HEX: Cache[dict[Hex, tuple[str, ...]]] = Cache("units-by-hex", side_units())


class Game(GameRecord):
    def __init__(
        self,
        scenario: Scenario,
        *,
        seed: int = 0,
        options: Iterable[str] = (),
        dice: Dice | None = None,
        system: System | None = None,
    ) -> None:
        """A game of ``scenario`` from its start.  ``system``: the instance of the scenario's system to play it with,
        given by the tests of a system whose rules are still being written (registered ``playable = False``, which
        :func:`system_for` refuses to the faces); by default the registered, playable one."""
        self.scenario = scenario
        self.seed = seed
        known = {o.name for o in scenario.options}
        self.options = frozenset(options)
        unknown = self.options - known
        if unknown:
            raise ValueError(
                f"scenario {scenario.name!r} has no option {sorted(unknown)[0]!r}; it offers: {', '.join(sorted(known)) or 'none'}"
            )
        if system is not None and system.name != scenario.system:
            raise ValueError(f"scenario {scenario.name!r} is of the system {scenario.system!r}, not {system.name!r}")
        self.system: System = system if system is not None else system_for(scenario.system)
        self.dice = dice if dice is not None else Dice(seed)
        self.defs: dict[str, UnitDef] = {u.id: u for u in scenario.units}
        self.unit_ids: tuple[str, ...] = tuple(self.defs)
        self._row = {uid: i for i, uid in enumerate(self.unit_ids)}
        self._sides = {side: tuple(uid for uid, d in self.defs.items() if d.side is side) for side in Side}
        self._side_rows = {side: tuple((self._row[uid], uid) for uid in self._sides[side]) for side in Side}
        m = scenario.map
        start = [m.index[h] if (h := scenario.start.get(uid)) is not None else -1 for uid in self.unit_ids]
        sides = list(Side)
        self.unit_view = self.system.unit_view  # the class of its units' views: the system's statuses and numbers
        units = Units(
            start,
            [0] * len(start),
            [d.steps for d in self.defs.values()],
            ZobristKeys.for_size(len(start), len(m.hexes)),
            tuple(sides.index(d.side) for d in self.defs.values()),
            len(sides),
            numbers=tuple([0] * len(start) for _ in self.unit_view.numbers),
        )
        self.state = GameState(1, 0, units, self.system.new_vars(self))
        self.history: list[Action] = []
        self._deciders = bytearray()  # the side that decided each action of the history, as its place (sides.SIDE_GROUP)
        # the places in the history of the actions the rules chose themselves (not a player): few, often none, so a copy
        # for a search costs nothing (see by_rules)
        self.rules_played: set[int] = set()
        self._undo: list[Snapshot] = []
        self._shared_undo = 0  # the undo stack's first snapshots that another game (a copy) holds too
        self._read: dict[Side, Reading[LogEntry, str]] = {}  # each side's reading of the log, kept
        self._rolls_read: dict[Side, Reading[DieRoll, DieRoll]] = {}
        self._listing: Listing | None = None
        # the last two positions' decisions with their keys (the last first); -1 is no position's key
        self._decided: tuple[tuple[int, Decision | None], tuple[int, Decision | None]] = _NO_DECISIONS
        self._stack_hash: tuple[tuple[Frame, ...], int] = ((), 0)  # the last decision stack hashed, and its hash
        self._caches: dict[Cache[Any] | Carried[Any], dict[Any, Any]] = {}  # each cache's answers (engine/caching.py)
        self._fixed_caches: dict[Cache[Any] | Carried[Any], dict[Any, Any]] = {}  # the FIXED ones: shared with copies
        self._space: ActionSpace | None = None
        self._views: dict[str, UnitView | Units] = {}
        self._blocks = BlockMemory()  # the ids and notation of listing blocks handed out again
        # False: chance nodes are resolved at once from the dice (play); True: the game stops at them and a search
        # chooses the outcomes (:meth:`chance_outcomes`, :meth:`play_chance`)
        self.explicit_chance = False
        self._ruled = self.system.ruled_sides(self)  # the sides whose decisions the rules' own procedures make
        self.system.setup(self)
        self.step.enter(self)
        self._advance()

    # --- the sequence of play ------------------------------------------------------------------
    @property
    def vars(self) -> Vars:
        """The system's variables, as the engine knows them; a system reads its own through the typed accessor of its
        :class:`Vars` subclass, so that every field it reads is checked."""
        return self.state.vars

    @property
    def steps(self) -> Sequence[Step]:
        return self.system.sequence(self)

    phases = steps

    @property
    def step(self) -> Step:
        return self.steps[self.state.step]

    phase = step

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def node(self) -> Node:
        """What asks now: the frame on top of the decision stack, or the current step."""
        return self.state.stack[-1] if self.state.stack else self.step

    @property
    def decision(self) -> Decision | None:
        """Who must decide what now; ``None`` once the game is over, or while chance decides (:attr:`chance`)."""
        if self.state.over:
            return None
        key = self.position_key()
        last, before = self._decided
        if last[0] == key:  # (asked several times an action: by play, the listing and the faces)
            return last[1]
        if before[0] == key:  # (the position before: a search plays and takes back)
            self._decided = (before, last)
            return before[1]
        found: Decision | None = _DECISION.at_position(self, key, lambda: self.node.decision(self))
        self._decided = ((key, found), last)
        return found

    @property
    def chance(self) -> Chance | None:
        """The chance node the game stands at (only with :attr:`explicit_chance`: in play the dice resolve it at once)."""
        stack = self.state.stack
        top = stack[-1] if stack and not self.state.over else None
        return top if isinstance(top, Chance) else None

    def chance_outcomes(self) -> tuple[Outcome, ...]:
        """The outcomes of the chance node the game stands at, with their exact probabilities (empty if none)."""
        node = self.chance
        return () if node is None else node.outcomes(self)

    def play_chance(self, index: int) -> Outcome:
        """Choose outcome ``index`` of the chance node the game stands at (a search's move for chance); returns it.
        Recorded as the roll, so the game goes on exactly as if the dice had given it."""
        node = self.chance
        if node is None:
            raise IllegalOrderError(self.decision.clause if self.decision else self.system.game_over_clause, "no roll is due now")
        outcomes = node.outcomes(self)
        outcome = outcomes[index]
        snap, self.state = Snapshot.take(self.state, self.dice.snapshot())
        try:
            self._resolve(node, outcome.value, outcome)
            self._advance()
        except BaseException:
            self.state = snap.restore(self.state, shared=False)
            self.dice.restore(snap.rolls)
            self._cut_readings()
            raise
        return outcome

    def _resolve(self, node: Chance, value: int | None = None, chosen: Outcome | None = None) -> None:
        """Settle a chance node: the outcome drawn from the dice (or ``chosen``), recorded with its purpose and the
        side that alone may see it, then the rule's work after the roll."""
        purpose = node.purpose(self)
        outcomes = node.outcomes(self)
        check(outcomes, purpose)
        secret = node.seen_only_by(self)
        if secret is not None:
            self.state.private_rolls = self.state.private_rolls | {len(self.dice.log): secret.value}
        if chosen is None:
            value = self.dice.draw(purpose, outcomes)
        else:
            self.dice.record(purpose, chosen.value, max(o.probability.denominator for o in outcomes))
        assert value is not None
        self.pop_frame()
        node.resolve(self, value)

    @property
    def is_over(self) -> bool:
        return self.state.over

    def push_frame(self, frame: Frame) -> None:
        """Open a nested decision (it asks until it is popped)."""
        self.state.stack = (*self.state.stack, frame)

    def replace_frame(self, frame: Frame) -> None:
        """Put a changed copy of the top frame in its place (frames are frozen values)."""
        self.state.stack = (*self.state.stack[:-1], frame)

    def pop_frame(self) -> Frame:
        top = self.state.stack[-1]
        self.state.stack = self.state.stack[:-1]
        return top

    def top(self, kind: type[T]) -> T | None:
        """The frame on top of the stack if it is a ``kind``."""
        stack = self.state.stack
        return stack[-1] if stack and isinstance(stack[-1], kind) else None

    def end_game(self, message: str) -> None:
        """The game is over now (the last turn ended, or a sudden victory)."""
        self.log(message, kind="event")
        self.state.over = True

    def _next_step(self) -> None:
        self.state.step += 1
        if self.state.step >= len(self.steps):
            self.state.step = 0
            self.state.turn += 1
            if self.state.turn > self.scenario.turns:
                self.state.turn = self.scenario.turns
                self.state.step = len(self.steps) - 1
                self.end_game(f"End of the game after turn {self.scenario.turns}.")
                self.system.end_game(self)
                return
            self.system.begin_turn(self)
        self.step.enter(self)

    def advance(self) -> None:
        """Run what needs nobody's decision now (chance nodes, settled frames, automatic steps): for a rule called
        outside play, as a test that arranges a position by hand calls one; play does it after every action."""
        self._advance()

    def _advance(self) -> None:
        """Run what needs no player's decision until a player must decide: chance nodes (drawn from the dice, unless
        a search chooses them), settled frames, the end of a step once the frames it opened are settled, steps that
        decide nothing, and the decisions of a side the rules play (their procedure's choice, played as an action)."""
        while not self.state.over:
            s = self.state
            stack = s.stack
            if stack and isinstance(stack[-1], Chance):
                if self.explicit_chance:
                    return
                self._resolve(stack[-1])
                continue
            if s.ending and not stack:
                step = self.step
                if s.ending == STEP_LEAVING:
                    s.ending = 0
                    self._next_step()
                else:
                    s.ending = STEP_LEAVING  # (its finish may open frames: a roll, a choice; the next step waits)
                    step.finish(self)
                continue
            d = self.decision
            if d is None:
                if stack:
                    stack[-1].settle(self)
                else:
                    s.ending = STEP_LEAVING
                    self.step.finish(self)
                continue
            if d.side not in self._ruled:
                return
            self._apply(self.system.rules_choice(self, d), d, automatic=True)

    # --- actions -----------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        """An action from its notation, in this game's vocabulary, every unit and hex it names one of the scenario's."""
        return known_names(self.system.vocabulary.parse(text), text, self.defs, self.scenario.map)

    def legal_orders(self) -> list[Action]:
        """Every legal action at the current decision (listed once per position: the player, the view and
        the referee all ask)."""
        return list(self._listed().actions)

    legal_actions = legal_orders

    def legal_sequence(self) -> Sequence[Action]:
        """The legal actions in the order of :meth:`legal_orders`, as a read-only sequence whose actions are made only
        when read (for a player that picks one without looking at the others, like a random one)."""
        return self._listed().sequence()

    def legal_notation(self) -> list[str]:
        """The legal actions in notation, in the order of :meth:`legal_orders`."""
        return list(self._listed().texts())

    def _listed(self) -> Listing:
        """This position's listing, made once (the player, the view and the referee all ask)."""
        key = self.position_key()
        listing = self._listing
        if listing is None or listing.key != key:
            d = self.decision
            blocks = () if d is None else tuple(self.node.action_blocks(self, d))
            listing = self._listing = Listing(key, blocks, self._blocks, self.action_space)
        return listing

    @property
    def action_space(self) -> ActionSpace:
        """This scenario's numbering of every action shape (for search and learning)."""
        if self._space is None:
            self._space = shared_space(self.scenario, self.system.vocabulary, self.unit_ids, self.scenario.map.hexes)
        return self._space

    def legal_ids(self) -> dict[int, Action]:
        """The legal actions by id (one representative per shape), in the order of :meth:`legal_orders`."""
        return dict(self._listed().by_id)

    def legal_id_list(self) -> list[int]:
        """The ids of the legal actions, ascending: the forward model's listing (no notation, no copies)."""
        return list(self._listed().ids)

    def legal_mask(self) -> bytearray:
        """One byte per action id of the scenario's space: 1 where an action of that shape is legal now."""
        mask = bytearray(self.action_space.size)
        mark(mask, self._listed().block_ids())  # (in C, tobruk/engine/_mask.c: a movement phase lists thousands)
        return mask

    def legal_action(self, action_id: int) -> Action | None:
        """The legal action listed with this id (the representative of its shape), or ``None`` if none is legal now."""
        return self._listed().action_of(action_id)

    def play_id(self, action_id: int) -> Action:
        """Play the legal action with this id; returns it."""
        action = self._listed().action_of(action_id)
        if action is None:
            raise IllegalOrderError(self.decision.clause if self.decision else "end", f"action {action_id} is not legal now")
        self.play(action)
        return action

    def play(self, action: Action | str, options: Sequence[Action] = ()) -> None:
        """Check and carry out one action of the current decider; the position is untouched if it is illegal.

        A whole choice (``attack G8 with 15Pz,21Pz``) is played as its small actions, all or none; each is
        kept in the history (and undone) on its own.  ``options``: the choices a whole one is made with besides its
        parts (:meth:`Action.with_options`: a leader named, naval support called), each checked as it is played.
        """
        if isinstance(action, str):
            action = self.parse(action)
        parts = action.with_options(options)
        if len(parts) == 1:
            self._play(parts[0])
            return
        played = len(self.history)
        try:
            for part in parts:
                self._play(part)
        except BaseException:
            while len(self.history) > played:
                self._undo_last()
            raise

    def _play(self, action: Action) -> None:
        d = self.decision
        if d is None:
            raise IllegalOrderError(self.system.game_over_clause, "the game is over")
        played, undo = len(self.history), len(self._undo)
        try:
            self._apply(action, d, automatic=False)
            self._advance()
        except BaseException:
            if len(self._undo) > undo:  # a refused or failed action leaves no trace (nor the rules' replies to it)
                snap = self._undo[undo]
                self.state = snap.restore(self.state, shared=False)
                self.dice.restore(snap.rolls)
                self._cut_readings()
            del self._undo[undo:]
            del self.history[played:]
            del self._deciders[played:]
            if self.rules_played:
                self._forget_rules_played(played)
            raise

    def _apply(self, action: Action, d: Decision, *, automatic: bool) -> None:
        """Check and carry out one action of the decider ``d`` (the position untouched if it is refused) and note it in
        the history: a player's action keeps the position before it for undo; a choice of the rules is undone with the
        player's action it followed."""
        snap = None
        if not automatic:
            snap, self.state = Snapshot.take(self.state, len(self.dice.log), len(self.history))  # (Dice.snapshot inlined)
        node = self.node
        try:
            ends_step = node.handle(self, d, action)
        except BaseException:
            if snap is not None:
                self.state = snap.restore(self.state, shared=False)
                self.dice.restore(snap.rolls)
                self._cut_readings()
            raise
        self.history.append(action)
        self._deciders.append(SIDE_GROUP[d.side])
        if automatic:
            self.rules_played.add(len(self.history) - 1)
        if snap is not None:
            self._undo.append(snap)
            if len(self._undo) <= self._shared_undo:
                self._shared_undo = len(self._undo) - 1
        if ends_step and isinstance(node, Step):
            self.state.ending = STEP_FINISHING  # (once the frames the action opened are settled)

    def pop(self) -> Action:
        """Undo the last player's action (and the rules' choices that followed it).  Refused past a die roll or a
        reveal, which the other side has seen."""
        if not self._undo:
            raise UndoError("nothing to undo")
        snap = self._undo[-1]
        if len(self.dice.log) > snap.rolls:
            raise UndoError("cannot undo past a die roll")
        if self.state.reveals > snap.state.reveals:
            raise UndoError("cannot undo past the reveal of hidden units")
        return self._undo_last()

    def _undo_last(self) -> Action:
        snap = self._undo.pop()
        self.state = snap.restore(self.state, shared=len(self._undo) < self._shared_undo)
        del self.dice.log[snap.rolls :]  # (Dice.restore inlined: a search takes back thousands of actions)
        if self._read or self._rolls_read:
            self._cut_readings()
        played = snap.played
        action = self.history[played]
        del self.history[played:]
        del self._deciders[played:]
        if self.rules_played:
            self._forget_rules_played(played)
        return action

    def can_undo(self) -> bool:
        if not self._undo:
            return False
        snap = self._undo[-1]
        return len(self.dice.log) == snap.rolls and self.state.reveals == snap.state.reveals

    def copy(self) -> Game:
        """An independent game in the same position (for search); history and undo stack included."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.dice = self.dice.copy()
        other.state = self.state.copy()
        other.history = self.history.copy()
        other._deciders = self._deciders[:]
        other.rules_played = self.rules_played.copy()
        other._undo = self._undo.copy()
        other._shared_undo = self._shared_undo = len(self._undo)  # both games' snapshots so far are also the other's
        other._caches = {}
        other._views = {}
        other._read = {}
        other._rolls_read = {}
        other._blocks = BlockMemory()
        return other

    @property
    def deciders(self) -> SideTrail:
        """The side that decided each action of the history (a read-only view, kept as bytes: a copy for search copies
        bytes)."""
        return SideTrail(self._deciders)

    @property
    def by_rules(self) -> list[bool]:
        """Whether each action of the history was the rules' own choice (a side the rules play), not a player's."""
        played = self.rules_played
        return [i in played for i in range(len(self.history))]

    def _forget_rules_played(self, played: int) -> None:
        """The history cut back to its first ``played`` actions: the rules' choices past it forgotten."""
        if self.rules_played and max(self.rules_played) >= played:
            self.rules_played = {i for i in self.rules_played if i < played}

    def forget_caches(self) -> None:
        """Drop every remembered answer (listings, searches): the next question is worked out afresh.
        Nothing observable changes; tests use it to prove the caches never serve a stale answer."""
        self._caches.clear()
        self._fixed_caches.clear()
        self._views = {}
        self._read = {}
        self._rolls_read = {}
        self._listing = None
        self._decided = _NO_DECISIONS
        self._blocks.clear()

    def position_key(self) -> int:
        """Everything the rules may read from the position, as one 64-bit hash: the one key of every position
        cache (the listing, :meth:`memo`), so a position changed by any means is never served a stale answer.

        The units and the system's variables enter as their hashes, which every write keeps up to date (a
        Zobrist hash of the unit arrays; the variables' field hashes), so the key costs the same however big
        the position is; two different positions share a key with odds of about 2^-64.
        """
        s = self.state
        stack = s.stack
        if stack:  # (its frames hash field by field: the hash is kept while the stack is the same tuple)
            kept = self._stack_hash
            if kept[0] is not stack:
                kept = self._stack_hash = (stack, hash(stack))
            frames = kept[1]
        else:
            frames = 0
        return hash((s.turn, s.step, s.over, s.reveals, frames, s.ending, s.units.z, s.vars.__dict__.get("_z", 0)))  # (Vars.key())

    def side_key(self, side: Side) -> int:
        """A hash of ``side``'s unit rows alone (kept by every write, like the position's): what depends only on one
        side's units may be kept under it while the other side's move."""
        return self.state.units.group_z[SIDE_GROUP[side]]

    def cache_store(self, cache: Cache[Any] | Carried[Any]) -> dict[Any, Any]:
        """Where ``cache`` keeps its answers for this game (see :mod:`tobruk.engine.caching`: its keys are made there)."""
        stores = self._fixed_caches if cache.fixed else self._caches
        store = stores.get(cache)
        if store is None:
            store = stores[cache] = {}
        return store

    # --- questions about the position ----------------------------------------------------------
    def unit(self, unit_id: str) -> UnitView:
        units = self.state.units
        views = self._views
        if views.get("") is not units:  # the arrays were replaced (undo, a refused action): new handles
            views = self._views = {"": units}
        view = views.get(unit_id)
        if view is None:
            m = self.scenario.map
            view = views[unit_id] = self.unit_view(units, self._row[unit_id], m.hexes, m.index)
        assert isinstance(view, UnitView)
        return view

    def units_of(self, side: Side) -> list[str]:
        return list(self._sides[side])  # the order of battle never changes during a game

    def row_of(self, unit_id: str) -> int | None:
        """The unit's row in the unit arrays (``None`` for an id no unit has)."""
        return self._row.get(unit_id)

    def rows_of(self, side: Side) -> tuple[tuple[int, str], ...]:
        """The side's units as (row in the unit arrays, id), in order of battle."""
        return self._side_rows[side]

    def placed(self, side: Side) -> tuple[tuple[str, Hex], ...]:
        """The side's units on the map and not eliminated (dummies and all), with their hexes, in order of battle;
        kept while the side's rows stay as they are (:meth:`side_key`: through the whole of the enemy's phase)."""

        def work() -> tuple[tuple[str, Hex], ...]:
            units, hexes = self.state.units, self.scenario.map.hexes
            at, flags = units.hex, units.flags
            return tuple((uid, hexes[at[i]]) for i, uid in self._side_rows[side] if at[i] >= 0 and not flags[i] & 1)

        return _PLACED.get(self, side, work)

    def units_at(self, h: Hex, side: Side | None = None) -> list[str]:
        """Ids of units (dummies included) in a hex, in order of the order of battle."""
        return list(self._by_hex(side).get(h, ()))

    def occupants(self, side: Side | None = None) -> dict[Hex, list[str]]:
        """Every occupied hex with its units (as :meth:`units_at` gives them), for asking about many hexes at once."""
        return {h: list(ids) for h, ids in self._by_hex(side).items()}

    def _by_hex(self, side: Side | None) -> dict[Hex, tuple[str, ...]]:
        """The units (not eliminated) of a side, or of both, in every hex they occupy, kept while the rows it reads
        stay as they are (:meth:`side_key`: a side's through the whole of the enemy's phase)."""

        def work() -> dict[Hex, tuple[str, ...]]:
            hexes = self.scenario.map.hexes
            units = self.state.units
            flags = units.flags
            defs = self.defs
            out: dict[Hex, list[str]] = {}
            for i, j in enumerate(units.hex):
                if j >= 0 and not flags[i] & 1:
                    uid = self.unit_ids[i]
                    if side is None or defs[uid].side is side:
                        out.setdefault(hexes[j], []).append(uid)
            return {h: tuple(ids) for h, ids in out.items()}

        return _UNITS_BY_HEX.get(self, side, work)

    def played(self) -> list[Action]:
        """The players' actions, in the order they were played: what a record keeps and a replay plays (the rules'
        own choices follow from them)."""
        return [a for a, automatic in zip(self.history, self.by_rules, strict=True) if not automatic]

    def notation(self) -> list[str]:
        """The notation of the players' actions (:meth:`played`)."""
        return [a.notation() for a in self.played()]

    def orders_of(self, side: Side) -> list[str]:
        """The notation of the actions ``side``'s player decided, in the order they were played (its own record)."""
        return [
            a.notation()
            for a, who, automatic in zip(self.history, self.deciders, self.by_rules, strict=True)
            if who is side and not automatic
        ]
