"""The Italian Retreat Phase (OC-RET.1-4), from turn 3.

Each Italian unit on the map, in order of battle, checks morale (OC-RET.1): +1 a step it has lost, +1 cut off from
supply, -1 in Sidi Barrani or Sollum, -1 in a fort with no Allied combat unit next to a side of it that is not
fortified, minus the hexes between it and the nearest Allied armour or motorized infantry in supply (ruling
R-OC-BETWEEN: the range less one), -1 for each Allied unit eliminated so far.  A unit that fails retreats: step by
step toward its supply source, each step into a hex nearer to it than the last (the cost of the cheapest supply
line), within its movement allowance, never across the escarpment nor into a hex the Allies hold (OC-RET.3); each
hex it enters next to an Allied combat unit costs it a check and a step if it fails (RET.2); a unit that cannot get
nearer at all stays and checks, losing a step if it fails (RET.4).  Which hex when several are as near is the
Italian player's choice, or, when the rules play the Italians, :func:`choose_withdrawal`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, on
from tobruk.engine.sides import Side
from tobruk.mechanics.reach import MF
from tobruk.systems.operation_compass.actions import Withdraw
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.morale import Checks, MoraleRoll, steps_lost_so_far
from tobruk.systems.operation_compass.moves import combat_units_near, cut_off, in_supply, supply_distance
from tobruk.systems.operation_compass.state import compass_vars
from tobruk.systems.operation_compass.terrain import fortified_against, impassable, step_table

if TYPE_CHECKING:
    from tobruk.engine.game import Game

ALLIED, ITALIAN = Side.ALLIED, Side.AXIS
NO_THREAT = 10  # the hexes "between" when no Allied armour or motorized infantry in supply is on the map


def threat_distance(game: Game, h: Hex) -> int:
    """OC-RET.1 (ruling R-OC-BETWEEN): the hexes between ``h`` and the nearest Allied armour or motorized infantry unit
    in supply (the range less one)."""
    charts, defs = chart(game), compass_defs(game)
    ranges = [
        h.distance(x)
        for uid, x in game.placed(ALLIED)
        if defs[uid].kind in charts.threat_kinds and not compass_unit(game, uid).out_of_supply
    ]
    return max(0, min(ranges) - 1) if ranges else NO_THREAT


def unthreatened_fort(game: Game, h: Hex) -> bool:
    """OC-RET.1: a fort with no Allied combat unit next to a side of it that is not fortified."""
    m, t = game.scenario.map, chart(game).terrain
    if not any(f.inside == h for n in m.neighbours(h) if (f := m.feature(n, h, t.fortified_side)) is not None):
        return False  # not a fort
    defs = compass_defs(game)
    for uid, x in game.placed(ALLIED):
        if not defs[uid].is_support and x.is_adjacent(h) and not fortified_against(m, t, x, h):
            return False
    return True


def retreat_drm(game: Game, uid: str) -> tuple[int, list[str]]:
    """OC-RET.1: the retreat check's DRM for an Italian unit, with a line for each modifier."""
    charts = chart(game)
    h = compass_unit(game, uid).hex
    assert h is not None
    drm, lines = 0, []
    lost = steps_lost_so_far(game, uid)
    if lost:
        drm += charts.retreat_per_step_lost * lost
        lines.append(f"+{charts.retreat_per_step_lost * lost} steps lost")
    if cut_off(game, uid):
        drm += charts.retreat_cut_off
        lines.append(f"+{charts.retreat_cut_off} cut off")
    zones = game.scenario.map.zones
    if any(h in zones.get(z, frozenset()) for z in charts.strongholds):
        drm += charts.stronghold_drm
        lines.append(f"{charts.stronghold_drm:+d} Sidi Barrani or Sollum")
    if unthreatened_fort(game, h):
        drm += charts.fort_unthreatened_drm
        lines.append(f"{charts.fort_unthreatened_drm:+d} in a fort no Allied unit threatens from an open side")
    between = threat_distance(game, h)
    if between:
        drm -= between
        lines.append(f"-{between} hexes between it and the nearest Allied armour or motorized infantry in supply")
    gone = compass_vars(game).allied_eliminated
    if gone:
        drm += charts.per_allied_unit_eliminated * gone
        lines.append(f"{charts.per_allied_unit_eliminated * gone:+d} Allied units eliminated")
    return drm, lines


def begin(game: Game) -> None:
    """The Retreat Phase begins: every Italian unit on the map is to check, from turn 3 on (OC-RET.1)."""
    if game.turn < chart(game).retreat_from_turn:
        return
    compass_vars(game).to_check = tuple(uid for uid, _ in game.placed(ITALIAN))
    if compass_vars(game).to_check:
        game.push_frame(RetreatChecks())


@dataclass(frozen=True)
class RetreatChecks(Checks, Frame):
    """The Retreat Phase's checks, unit by unit (``vars.to_check``)."""

    def settle(self, game: Game) -> None:
        waiting = [u for u in compass_vars(game).to_check if not compass_unit(game, u).eliminated]
        if not waiting:
            compass_vars(game).to_check = ()
            game.pop_frame()
            return
        uid = waiting[0]
        drm, lines = retreat_drm(game, uid)
        game.log(f"Italian Retreat Phase, {uid}: DRM {drm:+d}" + (f" ({', '.join(lines)})" if lines else "") + ".", kind="note")
        game.push_frame(MoraleRoll(uid, drm, "whether it retreats", costs=False))

    def checked(self, game: Game, uid: str, failed_by: int, steps_taken: int) -> None:
        compass_vars(game).to_check = tuple(u for u in compass_vars(game).to_check if u != uid)
        if failed_by == 0:
            game.log(f"{uid} stands.", kind="note")
            return
        compass_unit(game, uid).retreating = True
        options = withdrawals(game, uid, compass_defs(game)[uid].movement * MF)
        if options:
            game.log(f"{uid} retreats.", kind="move")
            game.push_frame(Withdrawal(uid, compass_defs(game)[uid].movement * MF))
        else:
            game.log(f"{uid} would retreat but cannot get nearer to its supply source: it stays (OC-RET.4).", kind="move")
            game.push_frame(MoraleRoll(uid, steps_lost_so_far(game, uid), "unable to retreat", cap=1))


def withdrawals(game: Game, uid: str, mp_left: int) -> list[tuple[Hex, int]]:
    """The hexes the retreating unit may step into next (nearer to its supply source, within ``mp_left``, not across
    the escarpment, into no hex the Allies hold), with what each step costs."""
    m, t = game.scenario.map, chart(game).terrain
    here = compass_unit(game, uid).hex
    if here is None:
        return []
    distance = supply_distance(game, ITALIAN)
    now = distance.cost_to(here)
    if now is None:
        return []
    steps = step_table(m, t, supply=False)
    allied = set(game.occupants(ALLIED))
    out = []
    for n in m.neighbours(here):
        cost = steps[m.index[here] * 6 + here.direction_to(n)]
        d = distance.cost_to(n)
        if cost < 0 or cost > mp_left or n in allied or impassable(m, t, here, n) or d is None or d >= now:
            continue
        out.append((n, cost))
    return out


@dataclass(frozen=True)
class Withdrawal(Checks, Frame):
    """A retreating Italian unit on its way back (``mp_left``: the sixtieths of an MP it has left)."""

    unit: str
    mp_left: int

    def decision(self, game: Game) -> Decision | None:
        if compass_unit(game, self.unit).eliminated or not withdrawals(game, self.unit, self.mp_left):
            return None
        return Decision(ITALIAN, game.step.key, f"retreat {self.unit} a hex nearer to its supply source", "OC-RET.1")

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Withdraw(self.unit, h) for h, _ in withdrawals(game, self.unit, self.mp_left)]

    @on(Withdraw)
    def withdraw(self, game: Game, decision: Decision, action: Withdraw) -> None:
        found = dict(withdrawals(game, self.unit, self.mp_left))
        if action.unit != self.unit or action.hex not in found:
            raise IllegalOrderError(
                "OC-RET.3", f"{self.unit} retreats into a hex nearer to its supply source: {', '.join(h.label for h in found)}"
            )
        u = compass_unit(game, self.unit)
        was = u.hex
        u.hex = action.hex
        game.replace_frame(replace(self, mp_left=self.mp_left - found[action.hex]))
        game.log(f"Italian: {self.unit} retreats {was}-{action.hex}.", kind="move")
        if action.hex in combat_units_near(game, ALLIED):
            game.push_frame(MoraleRoll(self.unit, steps_lost_so_far(game, self.unit), "retreating next to the enemy", cap=1))


def choose_withdrawal(game: Game, options: list[Withdraw]) -> Withdraw:
    """When the rules play the Italians (ruling R-OC-POLICY): the hex nearest to the supply source, then one next to no
    Allied combat unit, then the cheaper step, then the first in hex order; a unit in supply range is preferred too."""
    distance = supply_distance(game, ITALIAN)
    near = combat_units_near(game, ALLIED)
    lines = in_supply(game, ITALIAN)
    here = {o: compass_unit(game, o.unit).hex for o in options}

    def rank(o: Withdraw) -> tuple[int, bool, bool, int, int]:
        h = o.hex
        a = here[o]
        m = game.scenario.map
        cost = step_table(m, chart(game).terrain, supply=False)[m.index[a] * 6 + a.direction_to(h)] if a is not None else 0
        return (distance.cost_to(h) or 0, h in near, h not in lines, cost, m.index[h])

    return min(options, key=rank)
