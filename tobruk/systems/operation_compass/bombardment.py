"""Bombardment (OC-BMB.1): the WDF's support units fire on a hex the Italians hold, and each unit there checks morale
with the DRM the bombardment table gives.

The support units next to the hex that have not fired this turn bombard together; the strength is their steps
(ruling R-OC-BS: a bombardment needs 2, and 4 or more reads the BS 3 column); on turn 1 every bombardment reads the
"WDF Turn 1" column, the opening barrage of 9 December.  A die on the table gives the DRM, or "no MC": then nothing
happens.  Each support unit that fired may not support an assault this turn (ruling R-OC-BS).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine import chance
from tobruk.engine.chance import Chance, Outcome, labelled
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Frame
from tobruk.engine.sides import Side
from tobruk.systems.operation_compass.charts import Charts, chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.morale import Checks, MoraleRoll, lost_modifier
from tobruk.systems.operation_compass.terrain import impassable

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def gunners(game: Game, target: Hex) -> list[str]:
    """The support units that would bombard ``target``: next to it (not across the escarpment), not fired this turn."""
    m, t, defs = game.scenario.map, chart(game).terrain, compass_defs(game)
    out = []
    for uid, h in game.placed(Side.ALLIED):
        u = compass_unit(game, uid)
        if defs[uid].is_support and not u.fired and h.is_adjacent(target) and not impassable(m, t, h, target):
            out.append(uid)
    return out


def strength(game: Game, units: list[str]) -> int:
    return sum(compass_unit(game, u).steps for u in units)


def column(charts: Charts, turn: int, bs: int) -> int:
    """The table's column: the opening barrage on turn 1, else BS 2 or BS 3 (and above)."""
    if turn == 1:
        return charts.bombardment_columns.index("WDF turn 1")
    return charts.bombardment_columns.index("BS 3" if bs >= 3 else "BS 2")


def targets(game: Game) -> list[Hex]:
    """The hexes the Italians hold that support units could bombard now."""
    charts = chart(game)
    out = []
    for h in sorted(game.occupants(Side.AXIS)):
        if strength(game, gunners(game, h)) >= charts.least_bombardment:
            out.append(h)
    return out


def words(game: Game, target: Hex) -> str:
    """A bombardment of ``target`` in words: the support units that fire (:func:`gunners`), their strength and what
    firing costs them (OC-BMB.1, ruling R-OC-BS)."""
    units = gunners(game, target)
    return (
        f"Bombard {target} with {', '.join(units)} (bombardment strength {strength(game, units)}): each Italian unit there "
        f"may check morale (OC-BMB.1); {'they' if len(units) > 1 else 'it'} may not support an assault this turn (ruling R-OC-BS)"
    )


def bombard(game: Game, target: Hex) -> None:
    units = gunners(game, target)
    bs = strength(game, units)
    if not game.units_at(target, Side.AXIS):
        raise IllegalOrderError("OC-BMB.1", f"{target} holds no Italian unit")
    if bs < chart(game).least_bombardment:
        raise IllegalOrderError(
            "OC-BMB.1", f"the support units next to {target} that have not fired this turn bombard with {bs}: 2 at least (ruling R-OC-BS)"
        )
    for uid in units:
        compass_unit(game, uid).fired = True
    game.log(f"Allied: {', '.join(units)} bombard {target} (strength {bs}).", kind="battle")
    game.push_frame(Bombardment(target, bs))


@dataclass(frozen=True)
class Bombardment(Checks, Frame):
    """A bombardment of ``target`` at strength ``bs``: its die, then each Italian unit's morale check."""

    target: Hex
    bs: int
    drm: int | None = None
    rolled: bool = False
    to_check: tuple[str, ...] = ()

    def settle(self, game: Game) -> None:
        if not self.rolled:
            game.push_frame(BombardmentRoll())
        elif self.to_check:
            uid = self.to_check[0]
            assert self.drm is not None
            name = chart(game).bombardment_columns[column(chart(game), game.turn, self.bs)]
            mods = ((f"bombardment table, {name}", self.drm), *lost_modifier(game, uid))
            game.push_frame(MoraleRoll(uid, mods, f"bombardment of {self.target}"))
        else:
            game.pop_frame()

    def checked(self, game: Game, uid: str, failed_by: int, steps_taken: int) -> None:
        game.replace_frame(replace(self, to_check=self.to_check[1:]))


@dataclass(frozen=True)
class BombardmentRoll(Chance):
    """OC-BMB.1: the die on the bombardment table, each face labelled with the DRM it gives (or no check)."""

    def _bombardment(self, game: Game) -> Bombardment:
        """The bombardment beneath (asked while the roll is on top of the stack)."""
        below = game.state.stack[-2]
        assert isinstance(below, Bombardment)
        return below

    def purpose(self, game: Game) -> str:
        return f"bombardment of {self._bombardment(game).target}"

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        charts, b = chart(game), self._bombardment(game)
        col = column(charts, game.turn, b.bs)
        return labelled(chance.die(6), ["no check" if row[col] is None else f"checks at {row[col]:+d}" for row in charts.bombardment])

    def resolve(self, game: Game, value: int) -> None:
        b = game.top(Bombardment)
        assert b is not None
        charts = chart(game)
        col = column(charts, game.turn, b.bs)
        drm = charts.bombardment[value - 1][col]
        name = charts.bombardment_columns[col]
        if drm is None:
            game.log(f"Bombardment of {b.target} ({name}): die {value}: no morale check.", kind="battle")
            game.replace_frame(replace(b, rolled=True))
            return
        game.log(f"Bombardment of {b.target} ({name}): die {value}: morale checks at {drm:+d}.", kind="battle")
        game.replace_frame(replace(b, rolled=True, drm=drm, to_check=tuple(game.units_at(b.target))))  # (all Italian)
