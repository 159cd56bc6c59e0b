"""The referee behind ``tobruk serve``: running games, their seats, the computer players, the store.

Each game a process has opened is kept in memory as a :class:`Session` (the game replayed from its
stored events) and guarded by its own lock; every request first brings it up to date with the database
(events another server process wrote), so several processes may serve one database.  An order is played
on the game in memory and then stored as new events numbered from the version the sender saw; if the
write fails (the database is locked, read-only, gone) or another process stored that number first, the
game in memory is put back exactly as it was and the order is refused (503 or 409).  Everything here is
plain blocking code: the server calls it from its thread pool, never on the event loop.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError, InvalidOrderError, TobrukError, UndoError
from tobruk.engine.game import Game
from tobruk.engine.offers import offers
from tobruk.engine.sides import Side
from tobruk.engine.system import system_names
from tobruk.loading.scenario import Scenario, load_scenario, scenario_names
from tobruk.players import make_player
from tobruk.players.base import outcomes_for
from tobruk.view import view
from tobruk.web.schemas import OrderQuery, PlayOrder, reason
from tobruk.web.store import ORDER, UNDO, Conflict, Event, Store, StoredGame, StoreError, effective_orders

MAX_COMPUTER_ORDERS = 20_000  # a guard against a computer player that never ends its phase
SEED_BITS = 128


class Refused(Exception):
    """A request the referee turns down: the HTTP status, a one-line reason and the rule clause if any."""

    def __init__(self, status: int, reason: str, clause: str | None = None, version: int | None = None) -> None:
        super().__init__(reason)
        self.status, self.reason, self.clause, self.version = status, reason, clause, version


def server_seed() -> int:
    """A game's seed from the operating system's randomness: nobody can predict the dice or work out the
    face-down counters' anonymous ids (keyed on the seed) before the game is over."""
    return secrets.randbits(SEED_BITS)


class Scenarios:
    """The scenarios a client may name: the packaged ones of a game system that is played, and the
    ``*.toml`` files of the configured folders.  A name is never a path: it must be a registered name."""

    def __init__(self, folders: list[Path] | None = None) -> None:
        self.folders = [f.resolve() for f in folders or []]
        self._packaged = set(scenario_names())
        self._loaded: dict[str, tuple[object, Scenario | Refused]] = {}
        self._lock = threading.Lock()

    def _file(self, name: str) -> Path | None:
        if not name or not all(c.isascii() and (c.isalnum() or c in "-_") for c in name) or not name[0].isalnum():
            return None
        for folder in self.folders:
            path = folder / f"{name}.toml"
            if path.is_file() and path.resolve().parent == folder:
                return path
        return None

    def get(self, name: str) -> Scenario:
        """The scenario registered under ``name``; :class:`Refused` (400) for any other name."""
        path = None if name in self._packaged else self._file(name)  # a user file never shadows a packaged one
        if path is None and name not in self._packaged:
            raise Refused(400, f"no scenario is called {reason(repr(name))}; see /api/scenarios")
        key: object = ("file", str(path), path.stat().st_mtime_ns) if path is not None else "packaged"
        with self._lock:
            known = self._loaded.get(name)
        if known is None or known[0] != key:
            known = (key, self._load(name, path))
            with self._lock:
                self._loaded[name] = known
        if isinstance(known[1], Refused):
            raise known[1]
        return known[1]

    @staticmethod
    def _load(name: str, path: Path | None) -> Scenario | Refused:
        """The scenario, or why it cannot be played (remembered like a scenario, until its file changes)."""
        try:
            scenario = load_scenario(path if path is not None else name)
        except (TobrukError, ValueError, OSError) as exc:
            return Refused(400, f"scenario {name!r} cannot be loaded: {reason(str(exc), 200)}")
        if scenario.system not in system_names(previews=True):
            return Refused(400, f"scenario {name!r}: the rules of {scenario.system!r} are not played yet")
        return scenario

    def listing(self) -> list[Scenario]:
        """The packaged scenarios that are played, then the user folders' ones, each by name."""
        names = sorted(self._packaged)
        for folder in self.folders:
            names += sorted(p.stem for p in folder.glob("*.toml") if p.stem not in names)
        out = []
        for name in names:
            try:
                out.append(self.get(name))
            except Refused:
                continue  # not played yet, or a broken file: not offered
        return out


@dataclass
class Session:
    """A game open in this process: the game in memory and its stored version (one stored order per action of the
    game's history, so the game's own ``deciders`` say who gave each)."""

    stored: StoredGame
    game: Game
    version: int = 0  # the number of stored events the game in memory reflects
    lock: threading.Lock = field(default_factory=threading.Lock)
    listing: tuple[int, dict[str, Any]] | None = None  # the version and the legal actions as the page is sent them
    layers: tuple[tuple[int, str], list[dict[str, Any]]] | None = None  # (version, side) and the system's overlays
    threats: tuple[tuple[int, str], list[dict[str, Any]]] | None = None  # (version, side) and the side's threatened objectives
    score: tuple[tuple[int, str], dict[str, Any] | None] | None = None  # (version, side) and the score as the side knows it
    # where each action of the game's history left the log: ``marks[k]`` is the number of log entries before the k-th
    # action (the last, after the last action), ``owners[k]`` the side whose step the k-th was made in (None: nobody's)
    marks: list[int] = field(default_factory=list)
    owners: list[str | None] = field(default_factory=list)

    def play(self, order: Action | str | int, options: Sequence[Action] = ()) -> None:
        """Play an order (an action, its notation or a listed id; a whole one with its ``options``) and note where it
        left the log."""
        self.noted()
        step = self.game.step.side
        if isinstance(order, int):
            self.game.play_id(order)
        else:
            self.game.play(order, options)
        self.noted(None if step is None else step.value)

    def noted(self, owner: str | None = None) -> tuple[list[int], list[str | None]]:
        """The marks and owners, cut back to the history (after an undo, or a game put back as it was) and extended
        to it (actions played without a note are given the log as it stands and ``owner``)."""
        played, entries = len(self.game.history), len(self.game.state.entries)
        del self.owners[played:]
        del self.marks[played + 1 :]
        if not self.marks:
            self.marks.append(0 if played else entries)
        while len(self.owners) < played:
            self.owners.append(owner)
            self.marks.append(entries)
        return self.marks, self.owners


def other(seat: str) -> str:
    return "allied" if seat == "axis" else "axis"


class Referee:
    """The games of this process, refereed against the database.

    At most ``open_games`` games are kept in memory; the one used longest ago is let go when another is
    opened (never one busy with an order).  A game let go is rebuilt from its stored orders when next opened,
    exactly as after a restart, so a long-running server's memory stays bounded by its busy games, not by
    every game it has ever served.
    """

    def __init__(self, store: Store, scenarios: Scenarios, seeds: Callable[[], int] = server_seed, open_games: int = 256) -> None:
        self.store = store
        self.scenarios = scenarios
        self.seeds = seeds
        self.open_games = open_games
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._tokens: dict[str, tuple[str, str]] = {}  # token -> (game id, seat)
        self._lock = threading.Lock()
        self.on_change: Callable[[str | None], None] = lambda _game_id: None  # a game changed (None: any may have)
        self.on_turn: Callable[[Session, Side], None] = lambda _s, _side: None  # the decision passed to a side (stored)

    # --- opening games ------------------------------------------------------------------------------
    def open(self, token: str) -> tuple[Session, str] | None:
        """The game and seat a token opens, brought up to date with the database; ``None``: no such game."""
        known = self._tokens.get(token)
        if known is None:
            if not 8 <= len(token) <= 64:
                return None
            found = self.store.by_token(token)
            if found is None:
                return None
            stored, seat = found
            known = self._tokens[token] = (stored.id, seat)
        s = self._sessions_get(known[0])
        if s is None:  # let go since (or never opened here): rebuilt from the database
            found = self.store.by_token(token)
            if found is None:
                return None
            s = self._session(found[0])
        with s.lock:
            self.sync(s)
            d = s.game.decision
            if d is not None and d.side in self._computers(s):  # its replies were never stored (a failed write)
                with contextlib.suppress(Refused):
                    self._computers_reply(s)
        return s, known[1]

    def _build(self, stored: StoredGame, stored_events: list[Event]) -> Session:
        game = Game(self.scenarios.get(stored.scenario), seed=stored.seed, options=stored.options)
        s = Session(stored, game)
        for text in effective_orders(stored_events):
            s.play(text)
        s.version = len(stored_events)
        return s

    def sync(self, s: Session) -> None:
        """Apply the events other processes stored since this one last looked (call with ``s.lock`` held), and tell
        this process's watchers of the game: whichever request finds another process's orders first, the pages
        watching the game here hear of them then, not at their stream's next look."""
        new = self.store.events(s.stored.id, s.version)
        if not new:
            return
        try:
            for e in new:
                if e.kind == UNDO:
                    s.game.pop()
                else:
                    s.play(e.text)
                s.version = e.seq + 1
        except (TobrukError, IndexError):
            fresh = self._build(s.stored, self.store.events(s.stored.id))
            s.game, s.version, s.marks, s.owners = fresh.game, fresh.version, fresh.marks, fresh.owners
        self.on_change(s.stored.id)

    def refresh(self, s: Session) -> int:
        """The game's version after looking at the database (for the event stream).  A game busy with an
        order is not waited for (it will announce its own change), and a database error leaves it as is."""
        if not s.lock.acquire(blocking=False):
            return s.version
        try:
            with contextlib.suppress(StoreError):
                self.sync(s)
            return s.version
        finally:
            s.lock.release()

    # --- creating games -----------------------------------------------------------------------------
    def create(
        self,
        scenario: Scenario,
        options: list[str],
        seed: int | None,
        mode: str,
        axis_player: str,
        allied_player: str,
        rematch_of: str | None = None,
    ) -> StoredGame:
        """A new game (its seed the server's own unless given); computer seats that move first play at once."""
        stored = self.store.create(
            scenario.name, options, self.seeds() if seed is None else seed, mode, axis_player, allied_player, rematch_of
        )
        s = self._session(stored)
        with s.lock:
            self.sync(s)
            d = s.game.decision
            if d is not None and d.side in self._computers(s):
                self._computers_reply(s)
        return stored

    def _session(self, stored: StoredGame) -> Session:
        with self._lock:
            s = self._sessions.get(stored.id)
            if s is None:
                s = self._sessions[stored.id] = self._build(stored, [])
                self._let_go()
            self._sessions.move_to_end(stored.id)
            return s

    def _sessions_get(self, game_id: str) -> Session | None:
        with self._lock:
            s = self._sessions.get(game_id)
            if s is not None:
                self._sessions.move_to_end(game_id)
            return s

    def _let_go(self) -> None:
        """Keep at most ``open_games`` games in memory: let go of the ones used longest ago that no thread is
        busy with (call with ``self._lock`` held)."""
        for game_id in list(self._sessions)[: max(0, len(self._sessions) - self.open_games)]:
            s = self._sessions[game_id]
            if s.lock.acquire(blocking=False):
                del self._sessions[game_id]
                s.lock.release()
        if len(self._tokens) > 4 * self.open_games:  # the tokens of games let go are looked up again when used
            self._tokens = {t: known for t, known in self._tokens.items() if known[0] in self._sessions}

    @property
    def games_in_memory(self) -> int:
        return len(self._sessions)

    def rematch(self, s: Session, seat: str) -> tuple[StoredGame, str]:
        """The one rematch of a finished game (made by the first who asks) and the seat the asker takes in it:
        the sides change over."""
        st = s.stored
        if seat == "replay":
            raise Refused(403, "a replay link cannot start games")
        if not s.game.is_over:
            raise Refused(400, "a rematch is offered once the game is over")
        new = self.store.rematch(st.id)
        if new is None:
            new = self.create(
                self.scenarios.get(st.scenario), st.options, None, st.mode, st.allied_player, st.axis_player, rematch_of=st.id
            )
        if new.both_token:
            return new, "both"
        if st.mode == "computer":
            return new, "axis" if new.axis_player == "human" else "allied"
        return new, other(seat)

    # --- orders -------------------------------------------------------------------------------------
    def _computers(self, s: Session) -> dict[Side, str]:
        kinds = {Side.AXIS: s.stored.axis_player, Side.ALLIED: s.stored.allied_player}
        return {side: kind for side, kind in kinds.items() if kind != "human"}

    def _play_computers(self, s: Session) -> list[tuple[str, str]]:
        """Let the computer seats play until a person must decide (or the game ends); the events to store."""
        game = s.game
        kinds = self._computers(s)
        players = {side: make_player(kind, s.stored.seed * 2 + (1 if side is Side.AXIS else 2)) for side, kind in kinds.items()}
        played: list[tuple[str, str]] = []
        for _ in range(MAX_COMPUTER_ORDERS):
            d = game.decision
            if d is None or d.side not in players:
                break
            order = players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side))
            played += self._played(s, order)
        return played

    @staticmethod
    def _played(s: Session, order: Action | str | int, options: Sequence[Action] = ()) -> list[tuple[str, str]]:
        """Play an order (an action, its notation, or a legal action's id; a whole one with its ``options``) and give
        the events to store: one per action it was played as (a whole attack is its target, attackers, options and
        declaration), so the stored orders, the game's history and undo stay one to one."""
        before = len(s.game.history)
        s.play(order, options)
        new = zip(s.game.history[before:], s.game.by_rules[before:], strict=True)  # (the rules' own choices follow anew)
        return [(ORDER, a.notation()) for a, automatic in new if not automatic]

    def _computers_reply(self, s: Session) -> None:
        """The computer seats play until a person decides, and their orders are stored (or none of them)."""
        backup = self._snapshot(s)
        try:
            new = self._play_computers(s)
        except Exception:
            s.game = backup
            raise
        self._commit(s, backup, new)

    @staticmethod
    def _snapshot(s: Session) -> Game:
        return s.game.copy()

    def _commit(self, s: Session, backup: Game, new: list[tuple[str, str]]) -> None:
        """Store the events; if that fails, put the game in memory back as it was and refuse."""
        try:
            s.version = self.store.append(s.stored.id, s.version, new)
        except Conflict:
            s.game = backup
            s.listing = None
            self.sync(s)
            raise Refused(409, "the position has changed since you saw it: look again", version=s.version) from None
        except StoreError:
            s.game = backup
            s.listing = None
            raise Refused(503, "the game could not be saved, so nothing was changed: try again in a moment") from None
        self.on_change(s.stored.id)
        before, after = backup.decision, s.game.decision
        if after is not None and (before is None or before.side is not after.side):
            self.on_turn(s, after.side)  # (only the process that stored the change says so: once per change)

    @contextlib.contextmanager
    def _changing(self, s: Session, seat: str, version: int, what: str) -> Iterator[list[tuple[str, str]]]:
        """The shape every change of a game shares: under the session's lock, refused to a replay link and to a
        page that saw an older version; the body adds the events it made to the list it is given, and they are
        stored (and the game's watchers told) when it ends.  A body refuses (:class:`Refused`) before it changes
        anything; if it fails otherwise (a computer player's error), the game in memory is put back."""
        with s.lock:  # (brought up to date by open(); an order stored since by another process makes the write a 409)
            if seat == "replay":
                raise Refused(403, f"a replay link cannot {what}")
            if version != s.version:
                raise Refused(409, "the position has changed since you saw it: look again", version=s.version)
            backup = self._snapshot(s)
            new: list[tuple[str, str]] = []
            try:
                yield new
            except Refused:
                raise
            except BaseException:
                s.game = backup
                s.listing = None
                raise
            self._commit(s, backup, new)

    def _check_turn(self, s: Session, seat: str) -> Side:
        d = s.game.decision
        if d is None:
            raise Refused(400, "the game is over")
        if seat != "both" and d.side.value != seat:
            raise Refused(403, f"it is not your decision: {d}")
        return d.side

    def play(self, s: Session, seat: str, request: PlayOrder | str, version: int) -> None:
        """Play a seat's order made against ``version`` (a legal action's id, an action's fields, or notation a
        person typed), and the computer's replies; store them all."""
        if isinstance(request, str):
            request = PlayOrder(version, order=request)
        with self._changing(s, seat, version, "play orders") as new:
            self._check_turn(s, seat)
            try:
                order: Action | str | int
                if request.id is not None:
                    order = request.id
                elif request.action is not None:
                    order = s.game.system.vocabulary.from_fields(request.action)
                else:
                    assert request.order is not None
                    order = request.order
                options = [s.game.system.vocabulary.from_fields(f) for f in request.options or ()]
                new += self._played(s, order, options)
            except (InvalidOrderError, IllegalOrderError) as exc:
                raise Refused(400, reason(str(exc), 200), getattr(exc, "clause", None)) from None
            new += self._play_computers(s)

    def undo_refusal(self, s: Session, seat: str) -> str | None:
        """Why ``seat`` may not take back an order now (``None``: it may).

        The hotseat takes back the last order; a remote player only his own last order and only while the
        decision is still his (once it has passed, the opponent may have seen its result); against the
        computer, the player's last order with the computer's replies.  Never past a die roll or a reveal.
        """
        if seat == "replay":
            return "a replay link cannot take back orders"
        game = s.game
        if game.is_over:
            return "the game is over"
        sides = [who.value for who in game.deciders]
        if not sides:
            return "nothing to undo"
        d = game.decision
        if seat != "both":
            if d is not None and d.side.value != seat:
                return f"the decision has passed to the {d.side.display} player"
            if s.stored.mode != "computer" and sides[-1] != seat:
                return "your last order is not the last one played"
            if seat not in sides:
                return "you have given no order yet"
        count = self._undo_count(s, seat)
        if count == 1:
            return None if game.can_undo() else "it would take back a die roll or a reveal"
        probe = game.copy()
        try:
            for _ in range(count):
                probe.pop()
        except UndoError as exc:
            return str(exc)
        return None

    def _undo_count(self, s: Session, seat: str) -> int:
        """How many orders an undo takes back: against the computer, its replies and the player's order."""
        if seat == "both" or s.stored.mode != "computer":
            return 1
        deciders = s.game.deciders
        n = 0
        while n < len(deciders) and deciders[-1 - n].value != seat:
            n += 1
        return n + 1

    def undo(self, s: Session, seat: str, version: int) -> None:
        with self._changing(s, seat, version, "take back orders") as new:
            why = self.undo_refusal(s, seat)
            if why is not None:
                raise Refused(400, f"cannot undo: {why}")
            count = self._undo_count(s, seat)
            for _ in range(count):
                s.game.pop()
            new += [(UNDO, "")] * count

    # --- what a seat is sent ------------------------------------------------------------------------
    def offered(self, s: Session) -> dict[str, Any]:
        """The legal actions as the page is sent them (:func:`~tobruk.engine.offers.offers`: by id, with gestures and
        fields), made once a version.  Call with ``s.lock`` held."""
        if s.listing is not None and s.listing[0] == s.version and s.game.decision is not None:
            return s.listing[1]
        listed = offers(s.game)
        s.listing = (s.version, listed)
        return listed

    def path(self, s: Session, seat: str, asked: OrderQuery) -> list[str]:
        """The route of a listed action (a move's, a retreat's), for the seat whose decision it is: the route the
        listing gives the action's id, asked for by the id, the action's fields or its notation (call with ``s.lock``
        held)."""
        d = s.game.decision
        if seat == "replay" or d is None or (seat != "both" and d.side.value != seat):
            raise Refused(403, "routes are shown to the player whose decision it is")
        game = s.game
        try:
            if asked.id is not None:
                action_id = int(asked.id)
            else:
                fields = asked.fields()
                action = game.system.vocabulary.from_fields(fields) if fields is not None else game.parse(asked.order or "")
                action_id = -1 if action.composite else game.action_space.id_of(action)
        except (InvalidOrderError, KeyError, ValueError) as exc:
            raise Refused(400, reason(f"not an action of this game: {exc}", 200)) from None
        listed = game.legal_ids().get(action_id)
        if listed is None:
            raise Refused(400, "not an action listed for this decision", d.clause)
        return [h.label for h in listed.route()]
