"""What a side may know of a position, as a game: every answer the program gives a side is worked out from it.

A side knows its own units, the enemy's counters as it sees them (:meth:`System.seen_units`: where they stand as
far as it can follow them, which are face down), the log and the die rolls it was shown, and the variables the
rules let it know.  :func:`observed` makes that into a game: a copy of the position in which the enemy's counters
stand where the side sees them, the face-down ones taken by the enemy's unseen counters in an order the side can
work out itself, the log and the dice as the side read them and nothing of the dice to come.  A question asked of
that game (the odds of an attack, the ground a move would cross) can only answer from what the side knows, so two
positions the side cannot tell apart get the same answer, byte for byte.

:func:`resample` gives a full position the side cannot tell from the real one, for search by determinization: the
enemy's unseen counters shuffled among the face-down places, the system refusing placements its rules forbid.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.engine.dice import Dice, DieRoll
from tobruk.engine.position import LogEntry
from tobruk.engine.sides import Side

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.engine.game import Game

UNKNOWN_DICE = -1  # the seed of the dice an observed game rolls with: not the game's, so no answer reads its future
RESAMPLE_TRIES = 200  # placements drawn before a resample settles for the last one the system accepted (or the canonical)


@dataclass(frozen=True, slots=True)
class Place:
    """Where the side sees one face-down enemy counter: its hex (``None``: off the map, in a pool), whether it is
    gone, and the anonymous id it is shown by."""

    hex: Hex | None
    eliminated: bool
    anon: str

    def order(self) -> tuple[bool, Hex | None, str]:
        return (self.hex is None, self.hex, self.anon)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What ``side`` knows of the enemy's counters: the ones it sees face up (hex, eliminated), the places of the
    face-down ones, and the enemy's unseen counters that fill them (in order of battle: which fills which it cannot
    tell)."""

    side: Side
    face_up: Mapping[str, tuple[Hex | None, bool]]
    places: tuple[Place, ...]
    unseen: tuple[str, ...]


def knowledge(game: Game, side: Side) -> Knowledge:
    """What ``side`` knows of the enemy's counters now (from the system's :meth:`~System.seen_units`)."""
    face_up: dict[str, tuple[Hex | None, bool]] = {}
    places: list[Place] = []
    unseen: list[str] = []
    for uid, (h, hidden, eliminated, anon) in game.system.seen_units(game, side.enemy).items():
        if hidden:
            unseen.append(uid)
            places.append(Place(h, eliminated, anon or ""))
        else:
            face_up[uid] = (h, eliminated)
    return Knowledge(side, face_up, tuple(sorted(places, key=Place.order)), tuple(unseen))


def observed(game: Game, side: Side) -> Game:
    """The position as ``side`` may know it, as a game of its own (see the module's text): questions asked of it
    answer the same whatever the side cannot see.  The face-down places are filled in order of battle."""
    known = knowledge(game, side)
    return _arranged(game, known, dict(zip(known.unseen, known.places, strict=True)))


def resample(game: Game, side: Side, rng: random.Random) -> Game:
    """A full position ``side`` cannot tell from this one, drawn with ``rng``: the enemy's unseen counters shuffled
    among the face-down places (the system's :meth:`~System.placement_allowed` refusing placements its rules
    forbid), the dice of the future drawn anew."""
    known = knowledge(game, side)
    fill = dict(zip(known.unseen, known.places, strict=True))
    order = list(known.unseen)
    for _ in range(RESAMPLE_TRIES if len(order) > 1 else 0):
        rng.shuffle(order)
        trial = dict(zip(order, known.places, strict=True))
        if game.system.placement_allowed(game, side.enemy, {uid: p.hex for uid, p in trial.items()}):
            fill = trial
            break
    sample = _arranged(game, known, fill)
    sample.dice = Dice(rng.getrandbits(64))
    sample.dice.log = list(_seen_rolls(game, side))
    return sample


def _arranged(game: Game, known: Knowledge, fill: Mapping[str, Place]) -> Game:
    """A copy of ``game`` with the enemy's counters placed as ``known`` and ``fill`` say, and nothing of what the side
    may not read: the other side's log lines and private rolls as the side was shown them, no history to undo into,
    the dice of an unknown seed."""
    side = known.side
    out = game.copy()
    out._undo = []
    out._shared_undo = 0
    out.history = []
    out._deciders = bytearray()
    out.rules_played = set()
    out.dice = Dice(UNKNOWN_DICE)
    out.dice.log = list(_seen_rolls(game, side))
    s = out.state
    s.private_rolls = {}
    s.entries = [LogEntry(text) for e in game.state.entries if (text := e.seen_by(side)) is not None]
    for uid, (h, eliminated) in known.face_up.items():
        u = out.unit(uid)
        u.hex, u.eliminated, u.hidden = h, eliminated, False
    for uid, place in fill.items():
        u = out.unit(uid)
        for name in out.unit_view.statuses:
            u.set_flag(name, False)
        for name in out.unit_view.numbers:
            u.set_number(name, 0)
        u.hex, u.hidden, u.eliminated = place.hex, True, place.eliminated
        u.steps = game.defs[uid].steps
    game.system.observe(out, side, {uid: p.anon for uid, p in fill.items()})
    out.forget_caches()
    return out


def _seen_rolls(game: Game, side: Side) -> list[DieRoll]:
    """The die rolls as ``side`` was shown them, with the rolls it was not shown in their places (their values
    blanked), so the count of rolls made is kept."""
    private = game.state.private_rolls
    return [r if private.get(i, side.value) == side.value else DieRoll("hidden", 0, r.sides) for i, r in enumerate(game.dice.log)]
