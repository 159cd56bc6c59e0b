"""What each seat is sent: its side's view and the orders it may give, and nothing else.

A seat is 'axis' or 'allied' (a remote player, or the human against the computer), 'both' (the hotseat,
shown the view of the side whose decision it is), or 'replay' (an uploaded record).  Everything here but
:class:`Frames` reads a :class:`Session` and must be called with its lock held.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError, InvalidOrderError
from tobruk.engine.flow import Step
from tobruk.engine.game import Game
from tobruk.engine.information import observed
from tobruk.engine.objectives import threats
from tobruk.engine.offers import declaration_options
from tobruk.engine.sides import Side
from tobruk.engine.system import System
from tobruk.view import summary_data, unit_data, view
from tobruk.web.referee import Referee, Refused, Session
from tobruk.web.schemas import OrderQuery, reason

EXPORT_FORMAT = "tobruk-side-view"
EXPORT_VERSION = 1


def viewer_side(s: Session, seat: str) -> Side:
    if seat in ("axis", "allied"):
        return Side(seat)
    d = s.game.decision
    return d.side if d is not None else Side.AXIS


def has_face_down(game: Game) -> bool:
    return any(game.unit(u).hidden for u in game.unit_ids)


def state_of(referee: Referee, s: Session, seat: str, asked: str | None = None) -> dict[str, Any]:
    """The state a seat is sent: its side's view (without the legal orders in notation: the page is sent them by id,
    with their gestures and fields, as ``legal``) with the layers the system draws over the map for the side
    (``overlays``), and, when the decision is the seat's, its legal actions (:func:`~tobruk.engine.offers.offers`)."""
    if seat == "replay":
        raise Refused(403, "a replay link shows the replay only")
    game = s.game
    side = viewer_side(s, seat)
    d = game.decision
    if seat == "both" and has_face_down(game) and d is not None and asked != d.side.value:
        # Hotseat with face-down units: a side's view only when the page names the side to decide (after
        # the hand-over screen); until then only whose decision it is, so no view sits in the other's page.
        return {
            "game": s.stored.id,
            "seat": seat,
            "side": d.side.value,
            "mode": s.stored.mode,
            "version": s.version,
            "scenario": s.stored.scenario,
            "handover": True,
            "hidden_units": True,
        }
    mine = d is not None and (seat == "both" or d.side.value == seat)
    seen = seen_by(s, side, mine)
    return {
        "game": s.stored.id,
        "seat": seat,
        "side": side.value,
        "mode": s.stored.mode,
        "version": s.version,
        "scenario": s.stored.scenario,
        "view": seen,
        "legal": referee.offered(s) if mine else {"actions": [], "composites": []},
        "my_turn": mine,
        "waited": waited_for(s, side) if mine else [],
        "can_undo": referee.undo_refusal(s, seat) is None,
        "hidden_units": has_face_down(game),
        "players": {"axis": s.stored.axis_player, "allied": s.stored.allied_player},
    }


def waited_for(s: Session, side: Side) -> list[str]:
    """What happened while ``side`` waited, as its log reads it: the log from the end of its last action in a step
    of its own to its next (or now), around the last stretch of steps of the enemy's.  Built from the lines the side
    may read (:meth:`~tobruk.engine.position.LogEntry.seen_by`), so it tells no more than the side's log.  Call with ``s.lock``
    held."""
    marks, owners = s.noted()
    mine, theirs = side.value, side.enemy.value
    last = next((k for k in range(len(owners) - 1, -1, -1) if owners[k] == theirs), None)
    if last is None:
        return []
    first = last
    while first > 0 and owners[first - 1] != mine:
        first -= 1
    after = next((k for k in range(last + 1, len(owners)) if owners[k] == mine), None)
    entries = s.game.state.entries
    lines = entries[marks[first] : len(entries) if after is None else marks[after]]
    if s.game.is_over:
        return [e.text for e in lines]
    return [text for e in lines if (text := e.seen_by(side)) is not None]


def export_of(s: Session, seat: str, asked: str | None) -> dict[str, Any]:
    """A side's own record of the game so far: its view (log and dice included) and its own orders,
    nothing the rules hide from it; any time, for the side's own seat."""
    if seat == "replay":
        raise Refused(403, "a replay link has the whole record: download it instead")
    if seat == "both":
        d = s.game.decision
        side = Side(asked) if asked in ("axis", "allied") else viewer_side(s, seat)
        if has_face_down(s.game) and not s.game.is_over and (d is None or d.side is not side):
            raise Refused(403, "in a hotseat game with face-down units a side's view is given while it decides")
    else:
        side = Side(seat)
        if asked not in (None, seat):
            raise Refused(403, "each side exports its own view")
    d = s.game.decision
    seen = seen_by(s, side, d is not None and d.side is side)
    mine = s.game.orders_of(side)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "scenario": s.stored.scenario,
        "options": sorted(s.stored.options),
        "side": side.value,
        "game_version": s.version,
        "orders": mine,
        "view": seen,
    }


def overlays_of(s: Session, side: Side) -> list[dict[str, Any]]:
    """The system's layers over the map for ``side`` (:meth:`~tobruk.engine.system.System.overlays`), made once a
    version and side (the page asks again at every change and reload).  Call with ``s.lock`` held."""
    key = (s.version, side.value)
    if s.layers is None or s.layers[0] != key:
        s.layers = (key, [o.data() for o in s.game.system.overlays(s.game, side)])
    return s.layers[1]


def score_of(s: Session, side: Side) -> dict[str, Any] | None:
    """Each side's points if the game ended now (:meth:`~tobruk.engine.system.System.score_now`), worked out on the
    position as ``side`` knows it (a dummy scores as the counter it may be), with the title the system gives them; None
    for a system that keeps no score.  Made once a version and side.  Call with ``s.lock`` held."""
    key = (s.version, side.value)
    if s.score is None or s.score[0] != key:
        system = s.game.system
        if type(system).score_now is System.score_now or s.game.is_over:
            s.score = (key, None)
        else:
            known = observed(s.game, side)
            points = system.score_now(known)
            s.score = (key, None if points is None else {"title": system.score_title, **points})
    return s.score[1]


def threats_of(s: Session, side: Side) -> list[dict[str, Any]]:
    """``side``'s objectives the enemy could reach in its next movement (:func:`~tobruk.engine.objectives.threats`,
    worked out from what the side may know), made once a version and side.  Call with ``s.lock`` held."""
    key = (s.version, side.value)
    if s.threats is None or s.threats[0] != key:
        s.threats = (key, [t.data() for t in threats(s.game, side)])
    return s.threats[1]


def seen_by(s: Session, side: Side, deciding: bool) -> dict[str, Any]:
    """What ``side`` sees of the game, as its state and its export both give it: its view (the legal actions aside,
    sent by id with gestures and fields), the system's layers, the threatened objectives, the score if the game
    ended now and, when it decides (``deciding``), why it may not end the step yet.  Call with ``s.lock`` held."""
    seen = view(s.game, side)
    seen.pop("legal_orders", None)
    seen["overlays"] = overlays_of(s, side)
    seen["threats"] = threats_of(s, side)
    seen["score"] = score_of(s, side)
    seen["unended"] = unended_of(s.game) if deciding else None
    return seen


def unended_of(game: Game) -> dict[str, str] | None:
    """Why the decider may not end the step now, as the step says it (:meth:`~tobruk.engine.flow.Step.unended`: its
    clause and words, shown where the end button would be); ``None`` when it may, or inside a nested decision."""
    d = game.decision
    if d is None or game.node is not game.step or type(game.step).unended is Step.unended:
        return None  # (a step that never holds its decider: the position as the side knows it is not made)
    known = observed(game, d.side)  # (asked of what the decider knows: the same words whatever it cannot see)
    why = known.step.unended(known, d.side)
    return None if why is None else {"clause": why.clause, "text": why.reason}


def odds_of(known: Game, asked: OrderQuery, side: Side) -> dict[str, Any]:
    """The odds of an attack (given by its fields, or its notation typed by a person) as ``side`` may know them:
    ``known`` is the position as the side knows it (:func:`~tobruk.engine.information.observed`), so the answer, a
    refusal included, is the same whatever the side cannot see (against face-down counters the system answers that
    the odds are unknown)."""
    if asked.id is not None:
        raise Refused(400, "the odds are asked of a whole attack: give its fields (action) or its notation (order)")
    try:
        fields = asked.fields()
        action = known.system.vocabulary.from_fields(fields) if fields is not None else known.parse(asked.order or "")
        chosen = [known.system.vocabulary.from_fields(f) for f in asked.with_options()]
        more = _options(known, action, chosen)
        odds = known.system.odds(known, action, side, chosen)
    except (InvalidOrderError, IllegalOrderError) as exc:
        raise Refused(400, reason(str(exc), 200), getattr(exc, "clause", None)) from None
    if odds is None:
        raise Refused(400, "no odds for this order: the odds are those of an attack")
    return {
        "odds": odds.column,
        "lines": list(odds.lines),
        "outcomes": [[label, float(p)] for label, p in odds.outcomes],
        "options": more,
    }


def _options(known: Game, action: Action, chosen: list[Action]) -> list[dict[str, Any]]:
    """The options the attack may still be made with (:func:`~tobruk.engine.offers.declaration_options`), found in the
    position as the side knows it.  Those chosen are checked (one not open is refused, naming its rule); with none
    chosen, a whole the rules refuse is left to the system's odds to refuse in its own words."""
    try:
        return declaration_options(known, action, chosen)
    except (InvalidOrderError, IllegalOrderError):
        if chosen:
            raise
        return []


def record_allowed(s: Session, seat: str) -> None:
    """The whole record (every order, every die, the seed) is published once the game is over; an uploaded
    record is its uploader's."""
    if seat != "replay" and not s.game.is_over:
        raise Refused(403, "the record of a game is published when the game is over; until then each side may export its own view")


def frame(game: Game, side: str, label: str) -> dict[str, Any]:
    """One replay frame: what ``side`` saw (or, for 'both', every unit face up), the system's turn notes, and
    the result at the end (the generic summary, and the system's form fields as ``result``)."""
    if side == "both":
        units = [unit_data(game.defs[u], game.unit(u).value()) for u in game.unit_ids]
        log = list(game.state.log)
    else:
        seen = view(game, Side(side))
        units, log = seen["units"], seen["log"]
    summary = game.system.summary(game)
    return {
        "label": label,
        "turn": game.turn,
        "notes": game.system.turn_notes(game),
        "units": units,
        "log": log[-40:],
        "summary": summary_data(game),
        "result": None if summary is None else summary.fields,
    }


def replay_side(s: Session, seat: str, asked: str | None) -> str:
    """Which side's frames a seat may have: its own while the game goes on; any once it is over (or for an
    uploaded record).  The hotseat has no side of its own, so it waits for the end."""
    game_over = s.game.is_over or seat == "replay"
    side = asked or (seat if seat in ("axis", "allied") else "both")
    if game_over or (seat in ("axis", "allied") and side == seat):
        return side
    if seat == "both":
        raise Refused(403, "the replay of a hotseat game opens when the game is over")
    raise Refused(403, "the other side's view is shown once the game is over")


def by_turn(game: Game, side: str, orders: list[str]) -> list[dict[str, Any]]:
    """The frames of a replay by game-turn: the start, then the end of each game-turn (and the end of the game)."""
    out = [frame(game, side, "start")]
    for text in orders:
        turn = game.turn
        game.play(text)
        if game.turn != turn or game.is_over:
            out.append(frame(game, side, f"end of turn {turn}"))
    return out


def by_action(game: Game, side: str, orders: list[str]) -> list[dict[str, Any]]:
    """The frames of a replay action by action: the start, then each action after which what ``side`` sees changed
    (a counter, a line of its log: the odds and dice of each combat are in its lines), and the end of each game-turn
    as the turn's frames give it.  An action the side saw nothing of makes no frame, so the frames tell no more than
    the side saw as the game was played.  Each frame carries the log lines added since the one before (``lines``;
    the start, the whole log then), not the log: the page adds them up."""

    def seen() -> list[str]:
        return list(game.state.log) if side == "both" else game.log_for(Side(side))

    first = frame(game, side, "start")
    del first["log"]
    first["lines"] = seen()
    out, read = [first], len(first["lines"])
    for text in orders:
        turn, where = game.turn, game.step.title
        game.play(text)
        ended = game.turn != turn or game.is_over
        lines = seen()
        f = frame(game, side, f"end of turn {turn}" if ended else f"turn {turn}, {where}")
        del f["log"]
        if not ended and len(lines) == read and f["units"] == out[-1]["units"]:
            continue  # nothing the side sees changed
        f["lines"], read = lines[read:], len(lines)
        out.append(f)
    return out


class Frames:
    """Replay frames by (game, version, side, by turn or action): recomputed whenever the game changes, an undo included,
    since the version counts every stored event; the most recent few are kept."""

    def __init__(self, referee: Referee, keep: int = 32) -> None:
        self.referee = referee
        self.keep = keep
        self._cache: OrderedDict[tuple[str, int, str, str], list[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, s: Session, side: str, by: str = "turn") -> list[dict[str, Any]]:
        """The frames of the game as it stands (``by``: "turn", a frame at the end of each game-turn; "action", after
        each action that changed what the side sees); the game is replayed outside its lock (it may take a while)."""
        with s.lock:
            key = (s.stored.id, s.version, side, by)
            orders = s.game.notation()
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        game = Game(self.referee.scenarios.get(s.stored.scenario), seed=s.stored.seed, options=s.stored.options)
        out = by_action(game, side, orders) if by == "action" else by_turn(game, side, orders)
        with self._lock:
            self._cache[key] = out
            while len(self._cache) > self.keep:
                self._cache.popitem(last=False)
        return out
