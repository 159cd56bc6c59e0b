"""Morale checks (OC-MC) and step losses: the arithmetic, and the chance node that rolls a check.

A check rolls one die; it passes when the die plus its modifiers is at most the unit's morale rating (a check
"failed by" 1 or more costs steps, OC-MC.2, so a total equal to the rating passes: ruling R-OC-MC), and fails by the
amount it exceeds it; failing costs steps by OC-MC.2's table (:meth:`Charts.steps_lost`).  A unit with no steps
left is eliminated.  Each check is a chance node (:class:`MoraleRoll`) that carries its modifiers by name, so the
log shows the die and every DRM that went into it; what follows the check is the frame beneath it
(:meth:`Checks.checked`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.engine import chance
from tobruk.engine.chance import Chance, Outcome, labelled
from tobruk.engine.sides import Side
from tobruk.systems.operation_compass.charts import Charts, chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.state import compass_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

Modifiers = tuple[tuple[str, int], ...]  # each DRM of a check by name ("Italian number of the table", 2)


def failed_by(die: int, drm: int, morale: int) -> int:
    """How far a check failed (0: it passed): the die plus its modifiers above the morale rating."""
    return max(0, die + drm - morale)


def steps_lost(charts: Charts, die: int, drm: int, morale: int, cap: int | None = None) -> int:
    """OC-MC.2: the steps a check costs; ``cap`` limits them (OC-RET.2 and RET.4: 1 step, not more)."""
    lost = charts.steps_lost(failed_by(die, drm, morale))
    return lost if cap is None else min(lost, cap)


def lose_steps(game: Game, uid: str, steps: int, why: str) -> int:
    """Take ``steps`` from a unit (at most what it has: 0 takes nothing and says nothing); a unit left with none is
    eliminated, an Allied one counted for OC-RET.1.  The steps taken."""
    u = compass_unit(game, uid)
    taken = min(steps, u.steps)
    if not taken:
        return taken
    u.steps -= taken
    plural = "s" if taken != 1 else ""
    if u.steps == 0:
        u.hex = None
        u.eliminated = True
        game.log(f"{uid} loses {taken} step{plural} ({why}) and is eliminated.", kind="loss")
        if compass_defs(game)[uid].side is Side.ALLIED:
            compass_vars(game).allied_eliminated += 1
    else:
        game.log(f"{uid} loses {taken} step{plural} ({why}): {u.steps} left.", kind="loss")
    return taken


def steps_lost_so_far(game: Game, uid: str) -> int:
    """Steps the unit has lost (OC-MC.1, OC-RET: +1 DRM each)."""
    return compass_defs(game)[uid].steps - compass_unit(game, uid).steps


def lost_modifier(game: Game, uid: str) -> Modifiers:
    """OC-MC.1, OC-RET.1-4: +1 for each step ``uid`` has lost, as a named modifier (none when it has lost none)."""
    lost = steps_lost_so_far(game, uid)
    return ((f"{lost} step{'s' if lost != 1 else ''} lost", lost),) if lost else ()


def spelled(mods: Modifiers) -> str:
    """The DRM and its parts as the log writes them: "+3 (Italian number of the table +2, 1 step lost +1)"."""
    total = sum(v for _, v in mods)
    parts = ", ".join(f"{name} {value:+d}" for name, value in mods)
    return f"{total:+d} ({parts or 'no modifier'})"


@dataclass(frozen=True)
class MoraleRoll(Chance):
    """A morale check of ``unit`` with its modifiers ``mods`` (each named: the table's number, the steps it has lost
    ...), for ``reason``: the die, each face labelled with the steps it costs (``cap``: at most that many).  The frame
    beneath it carries the check's result on (:class:`Checks`)."""

    unit: str
    mods: Modifiers
    reason: str
    cap: int = 0  # the most steps it may cost (0: no cap)
    costs: bool = True  # False: the check decides something else (OC-RET.1: whether the unit retreats), costing no step

    @property
    def drm(self) -> int:
        return sum(v for _, v in self.mods)

    def purpose(self, game: Game) -> str:
        return f"morale check, {self.unit} ({self.reason}, morale {compass_defs(game)[self.unit].morale}, DRM {spelled(self.mods)})"

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        morale = compass_defs(game)[self.unit].morale
        charts = chart(game)
        labels = []
        for face in range(1, 7):
            lost = steps_lost(charts, face, self.drm, morale, self.cap or None)
            labels.append("passes" if failed_by(face, self.drm, morale) == 0 else f"fails, loses {lost}" if self.costs else "fails")
        return labelled(chance.die(6), labels)

    def resolve(self, game: Game, value: int) -> None:
        morale = compass_defs(game)[self.unit].morale
        by = failed_by(value, self.drm, morale)
        lost = steps_lost(chart(game), value, self.drm, morale, self.cap or None) if self.costs else 0
        verdict = "passes" if by == 0 else f"fails by {by}"
        game.log(
            f"Morale check, {self.unit} ({self.reason}): die {value}, DRM {spelled(self.mods)}: {value + self.drm} "
            f"against morale {morale}, {verdict}.",
            kind="battle",
        )
        taken = lose_steps(game, self.unit, lost, self.reason)
        below = game.state.stack[-1]  # the frame that asked for the check (this roll, popped, was on top of it)
        if isinstance(below, Checks):
            below.checked(game, self.unit, by, taken)


class Checks:
    """A frame that asks morale checks and carries their results on (a mix-in of the frames of this package)."""

    def checked(self, game: Game, uid: str, failed_by: int, steps_taken: int) -> None:
        """A check of ``uid`` has been rolled: it failed by ``failed_by`` (0: passed), costing ``steps_taken``."""
