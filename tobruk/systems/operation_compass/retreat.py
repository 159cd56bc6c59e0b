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
from tobruk.mechanics.paths import BLOCKED
from tobruk.mechanics.reach import MF
from tobruk.systems.operation_compass.actions import Withdraw
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.morale import Checks, Modifiers, MoraleRoll, lost_modifier
from tobruk.systems.operation_compass.moves import combat_units_near, cut_off, hold, supply_distance
from tobruk.systems.operation_compass.state import compass_vars
from tobruk.systems.operation_compass.terrain import fortified_against, impassable, step_table

if TYPE_CHECKING:
    from tobruk.engine.game import Game

ALLIED, ITALIAN = Side.ALLIED, Side.AXIS


def threat_distance(game: Game, h: Hex) -> int | None:
    """OC-RET.1 (ruling R-OC-BETWEEN): the hexes between ``h`` and the nearest Allied armour or motorized infantry unit
    in supply (the range less one), or ``None`` when there is none on the map."""
    charts, defs = chart(game), compass_defs(game)
    ranges = [
        h.distance(x)
        for uid, x in game.placed(ALLIED)
        if defs[uid].kind in charts.threat_kinds and not compass_unit(game, uid).out_of_supply
    ]
    return min(ranges) - 1 if ranges else None


def farthest(game: Game, h: Hex) -> int:
    """The hexes between ``h`` and the map's farthest hex from it: what OC-RET.1 counts when no Allied armour or
    motorized infantry in supply is on the map (ruling R-OC-BETWEEN: as if it stood as far away as the map allows)."""
    return max(h.distance(x) for x in game.scenario.map.hexes) - 1


def unthreatened_fort(game: Game, h: Hex) -> bool:
    """OC-RET.1: a fort with no Allied combat unit next to a side of it that is not fortified."""
    m, t = game.scenario.map, chart(game).terrain
    if not any(f.inside == h for n in m.neighbours(h) if (f := m.feature(n, h, t.fortified_side)) is not None):
        return False  # not a fort
    defs = compass_defs(game)
    return not any(not defs[uid].is_support and x.is_adjacent(h) and not fortified_against(m, t, x, h) for uid, x in game.placed(ALLIED))


def retreat_drm(game: Game, uid: str) -> Modifiers:
    """OC-RET.1: the retreat check's modifiers for an Italian unit, each named."""
    charts = chart(game)
    h = compass_unit(game, uid).hex
    assert h is not None
    mods: list[tuple[str, int]] = list(lost_modifier(game, uid))
    if cut_off(game, uid):
        mods.append(("cut off", charts.retreat_cut_off))
    zones = game.scenario.map.zones
    if any(h in zones.get(z, frozenset()) for z in charts.strongholds):
        mods.append(("in Sidi Barrani or Sollum", charts.stronghold_drm))
    if unthreatened_fort(game, h):
        mods.append(("in a fort no Allied combat unit threatens from an open side", charts.fort_unthreatened_drm))
    between = threat_distance(game, h)
    if between is None:
        none = farthest(game, h)
        mods.append((f"no Allied armour or motorized infantry in supply on the map (as if {none} hexes away)", -none))
    elif between:
        hexes = "hex" if between == 1 else "hexes"
        mods.append((f"{between} {hexes} between it and the nearest Allied armour or motorized infantry in supply", -between))
    gone = compass_vars(game).allied_eliminated
    if gone:
        mods.append((f"{gone} Allied unit{'s' if gone != 1 else ''} eliminated", charts.per_allied_unit_eliminated * gone))
    return tuple(mods)


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
        game.push_frame(MoraleRoll(uid, retreat_drm(game, uid), "Italian Retreat Phase: whether it retreats", costs=False))

    def checked(self, game: Game, uid: str, failed_by: int, steps_taken: int) -> None:
        if uid not in compass_vars(game).to_check:
            return  # OC-RET.4's check of a unit that could not get nearer: its step is all it costs
        compass_vars(game).to_check = tuple(u for u in compass_vars(game).to_check if u != uid)
        if failed_by == 0:
            game.log(f"{uid} stands.")  # (a note)
            return
        compass_unit(game, uid).retreating = True
        options = withdrawals(game, uid, compass_defs(game)[uid].movement * MF)
        if options:
            game.log(f"{uid} retreats.", kind="move")
            game.push_frame(Withdrawal(uid, compass_defs(game)[uid].movement * MF))
        else:
            game.log(f"{uid} would retreat but cannot get nearer to its supply source: it stays (OC-RET.4).", kind="move")
            game.push_frame(MoraleRoll(uid, lost_modifier(game, uid), "unable to get nearer to its supply source", cap=1))


def withdrawals(game: Game, uid: str, mp_left: int) -> list[tuple[Hex, int, int]]:
    """The hexes the retreating unit may step into next (nearer to its supply source, within ``mp_left``, not across
    the escarpment, into no hex the Allies hold), each with what the step costs and how far the hex is from the
    supply source (ruling R-OC-RETREAT)."""
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
        if cost == BLOCKED or cost > mp_left or n in allied or d is None or d >= now:
            continue
        out.append((n, cost, d))
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
        return [Withdraw(self.unit, h) for h, _, _ in withdrawals(game, self.unit, self.mp_left)]

    @on(Withdraw)
    def withdraw(self, game: Game, decision: Decision, action: Withdraw) -> None:
        found = {h: cost for h, cost, _ in withdrawals(game, self.unit, self.mp_left)}
        if action.unit != self.unit or action.hex not in found:
            raise self._refusal(game, action, found)
        u = compass_unit(game, self.unit)
        was = u.hex
        u.hex = action.hex
        game.replace_frame(replace(self, mp_left=self.mp_left - found[action.hex]))
        hold(game, ITALIAN, (action.hex,))
        game.log(f"Italian: {self.unit} retreats {was}-{action.hex}.", kind="move")
        if action.hex in combat_units_near(game, ALLIED):
            game.push_frame(MoraleRoll(self.unit, lost_modifier(game, self.unit), "retreating next to an Allied combat unit", cap=1))

    def _refusal(self, game: Game, action: Withdraw, found: dict[Hex, int]) -> IllegalOrderError:
        """Why a step of retreat is refused: an Allied-held hex or the escarpment (OC-RET.3), else not nearer to the
        supply source or beyond the movement left (OC-RET.1, ruling R-OC-RETREAT)."""
        m, t = game.scenario.map, chart(game).terrain
        here = compass_unit(game, self.unit).hex
        options = ", ".join(h.label for h in sorted(found))
        if action.unit != self.unit:
            return IllegalOrderError("OC-RET.1", f"{self.unit} is the unit retreating now")
        if action.hex in game.occupants(ALLIED):
            return IllegalOrderError("OC-RET.3", f"{self.unit} may not retreat into {action.hex}, which the Allies hold")
        if here is not None and here.is_adjacent(action.hex) and impassable(m, t, here, action.hex) and m.route(here, action.hex) is None:
            return IllegalOrderError("OC-RET.3", f"{self.unit} may not retreat across the escarpment from {here} to {action.hex}")
        return IllegalOrderError(
            "OC-RET.1",
            f"{self.unit} retreats a hex at a time, each nearer to its supply source, within the MP it has left: {options}",
        )


def choose_withdrawal(game: Game, options: list[Withdraw]) -> Withdraw:
    """When the rules play the Italians (ruling R-OC-POLICY): of the retreating unit's next hexes, the nearest to its
    supply source, then one next to no Allied combat unit, then the cheaper step, then the first in hex order."""
    frame = game.top(Withdrawal)
    assert frame is not None
    near = combat_units_near(game, ALLIED)
    index = game.scenario.map.index
    found = {h: (d, h in near, cost, index[h]) for h, cost, d in withdrawals(game, frame.unit, frame.mp_left)}
    return min(options, key=lambda o: found[o.hex])
