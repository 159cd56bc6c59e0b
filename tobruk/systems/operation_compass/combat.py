"""An assault (OC-CRT, OC-MC, OC-TER.2): what an attacking stack may do, its strength and modifiers, and the exact
distribution of what it costs the defenders.

An assault is made by Allied units of one hex against a next hex the Italians hold, led by one of its combat units
(OC-CRT.6).  Its column is the Allied attack strength (halved across a ridge or a wadi, OC-TER.2) less the Italian
defence strength; its row the net DRM: the terrain, a fort across its fortified side and Sidi Barrani (OC-TER.2),
the ground support chits (OC-CRT.1), the armour's support (CRT.2), the Inshore Squadron's (CRT.3), the full-strength
support units and Selby Force's support factor, the Italians' retreat and turn 1's surprise (CRT.4).  The entry
gives a number to each side; every defender then checks morale with the Italian number, the leader with the
Allied one (CRT.6, MC.1).  The frames that play it out are in :mod:`.assault`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.systems.operation_compass.charts import Charts, CrtEntry, chart
from tobruk.systems.operation_compass.counters import CompassUnitDef, compass_defs, compass_unit
from tobruk.systems.operation_compass.morale import failed_by, steps_lost_so_far
from tobruk.systems.operation_compass.state import compass_vars
from tobruk.systems.operation_compass.terrain import fortified_against, halving, hex_drm, impassable

if TYPE_CHECKING:
    from tobruk.engine.game import Game

ALLIED, ITALIAN = Side.ALLIED, Side.AXIS


@dataclass(frozen=True, slots=True)
class Assessment:
    """An assault before its dice: the units, the strengths and column, the DRMs known before the dice (``drm``), a
    line for each modifier, and the units of the stack out of supply (the leader's check)."""

    target: Hex
    attackers: tuple[str, ...]
    leader: str
    defenders: tuple[str, ...]
    attack: int
    defence: int
    column: int
    column_name: str
    drm: int
    lines: tuple[str, ...]
    oos: int  # Allied units out of supply in the stack (OC-MC.1)


def italians_in(game: Game, h: Hex) -> list[str]:
    return game.units_at(h, ITALIAN)


def default_leader(game: Game, attackers: Sequence[str]) -> str | None:
    """The stack's first combat unit (not a support unit) as the order names them: the leader unless one is named."""
    defs = compass_defs(game)
    return next((u for u in attackers if not defs[u].is_support), None)


def armour_support(charts: Charts, stack: Sequence[tuple[CompassUnitDef, int]], leader: CompassUnitDef) -> int:
    """OC-CRT.2 (ruling R-OC-ARMOUR): when armour leads, the stack's armour steps (``stack``: each unit's counter and
    its steps now), halved rounding down where they outnumber its infantry steps; none when anything else leads."""
    if leader.kind not in charts.armour_kinds:
        return 0
    armour = sum(n for d, n in stack if d.kind in charts.armour_kinds)
    infantry = sum(n for d, n in stack if d.kind in charts.infantry_kinds)
    return armour if armour <= infantry else armour // 2


def check(game: Game, target: Hex, attackers: Sequence[str], leader: str | None) -> None:
    """Refuse (naming the clause) an assault the rules do not allow now: its stack (:func:`check_stack`) and its leader.
    (The navy is checked when it is called: :meth:`Declaring.call_navy`.)"""
    check_stack(game, target, attackers)
    if leader is None or leader not in attackers or compass_defs(game)[leader].is_support:
        raise IllegalOrderError("OC-CRT.6", "the assault is led by one of the stack's combat units (not a support unit)")


def check_stack(game: Game, target: Hex, attackers: Sequence[str]) -> None:
    """Refuse (naming the clause) a stack that may not assault ``target`` now, whoever leads it: the units of one hex
    next to it, not across the escarpment, each assaulting and firing once a turn."""
    m, defs = game.scenario.map, compass_defs(game)
    if target not in m or not italians_in(game, target):
        raise IllegalOrderError("OC-CRT.5", f"{target} holds no Italian unit to assault")
    if not attackers:
        raise IllegalOrderError("OC-CRT.6", "an assault needs an attacking stack")
    if len(set(attackers)) != len(attackers):
        raise IllegalOrderError("OC-CRT.6", "a unit is named twice")
    hexes = set()
    for uid in attackers:
        d = defs.get(uid)
        if d is None or d.side is not ALLIED:
            raise IllegalOrderError("OC-CRT.6", f"{uid!r} is not a unit of the Western Desert Force")
        u = compass_unit(game, uid)
        if u.hex is None:
            raise IllegalOrderError("OC-CRT.6", f"{uid} is not on the map")
        if u.assaulted:
            raise IllegalOrderError("OC-CRT.6", f"{uid} has assaulted this turn (once a turn, ruling R-OC-SEQ)")
        if d.is_support and u.fired:
            raise IllegalOrderError(
                "OC-CRT.4", f"{uid} has fired this turn (a support unit bombards or supports once a turn, ruling R-OC-BS)"
            )
        hexes.add(u.hex)
    if len(hexes) > 1:
        raise IllegalOrderError("OC-CRT.6", "the attacking stack is the units of one hex")
    (there,) = hexes
    if not there.is_adjacent(target):
        raise IllegalOrderError("OC-CRT.6", f"the stack in {there} is not next to {target}")
    if impassable(m, chart(game).terrain, there, target):
        raise IllegalOrderError("OC-TER.1", f"no assault across the escarpment between {there} and {target}")


def naval_allowed(game: Game, target: Hex) -> bool:
    """OC-CRT.3 (ruling R-OC-NAVAL): the Inshore Squadron supports an assault on a hex next to the sea, so many a turn."""
    m = game.scenario.map
    return any(not m.is_land(n) for n in m.neighbours(target)) and compass_vars(game).naval_used < chart(game).naval_per_turn


def assess(game: Game, target: Hex, attackers: Sequence[str], leader: str | None) -> Assessment:
    """The assault's strengths, column and modifiers known before its dice (refused as :func:`check` refuses it)."""
    check(game, target, attackers, leader)
    assert leader is not None
    charts, m, defs = chart(game), game.scenario.map, compass_defs(game)
    there = compass_unit(game, attackers[0]).hex
    assert there is not None
    lines: list[str] = []
    attack = sum(defs[u].attack * compass_unit(game, u).steps for u in attackers)
    halved = halving(m, charts.terrain, there, target)
    if halved == "down":
        lines.append(f"attack {attack} halved rounding down across the ridge (OC-TER.2)")
        attack //= 2
    elif halved == "up":
        lines.append(f"attack {attack} halved rounding up across the wadi (OC-TER.2)")
        attack = -(-attack // 2)
    defenders = tuple(italians_in(game, target))
    defence = sum(defs[u].defence * compass_unit(game, u).steps for u in defenders)
    column = charts.crt.column(attack - defence)
    name = charts.crt.column_names[column]
    lines.insert(0, f"strength {attack} - {defence} = {attack - defence}: column {name} (OC-CRT.5)")
    drm, terrain_lines = hex_drm(m, charts.terrain, target)
    lines.extend(terrain_lines)
    if fortified_against(m, charts.terrain, there, target):
        drm += charts.terrain.fort_drm
        lines.append(f"+{charts.terrain.fort_drm} fort, across its fortified side (OC-TER.2)")
    armour = armour_support(charts, [(defs[u], compass_unit(game, u).steps) for u in attackers], defs[leader])
    if armour:
        drm -= armour
        lines.append(f"-{armour} armour support (OC-CRT.2)")
    full = [u for u in attackers if defs[u].is_support and compass_unit(game, u).steps == defs[u].steps]
    if full:
        drm -= charts.support_unit_drm * len(full)
        lines.append(f"-{charts.support_unit_drm * len(full)} support units at full strength: {', '.join(full)} (OC-CRT.4)")
    for uid in attackers:
        d = defs[uid]
        if d.support:
            factor = max(0, d.support - steps_lost_so_far(game, uid))  # ruling R-OC-SELBY: a point less a step lost, not below 0
            if factor:
                drm -= factor
                lines.append(f"-{factor} {uid}'s support factor (OC-CRT.4)")
    if any(compass_unit(game, u).retreating for u in defenders):
        drm -= charts.retreating_drm
        lines.append(f"-{charts.retreating_drm} against retreating Italian units (OC-CRT.4)")
    if game.turn in charts.surprise_turns:
        drm -= charts.surprise_drm
        lines.append(f"-{charts.surprise_drm} surprise, turn {game.turn} (OC-CRT.4)")
    oos = sum(1 for u in attackers if compass_unit(game, u).out_of_supply)
    if oos:
        lines.append(f"+{oos} to the leader's morale check: units out of supply (OC-MC.1)")
    return Assessment(
        target,
        tuple(attackers),
        leader,
        defenders,
        attack,
        defence,
        column,
        name,
        drm,
        tuple(lines),
        oos,
    )


# --- the exact distribution, before the dice ------------------------------------------------------------------
def _draws(cup: Sequence[int], count: int) -> dict[int, Fraction]:
    """The sum of ``count`` chits drawn without replacement from ``cup``: each total with its probability."""
    out: dict[int, Fraction] = {}

    def go(left: list[int], n: int, total: int, p: Fraction) -> None:
        if n == 0 or not left:
            out[total] = out.get(total, Fraction(0)) + p
            return
        for i, value in enumerate(left):
            go(left[:i] + left[i + 1 :], n - 1, total + value, p / len(left))

    go(list(cup), count, 0, Fraction(1))
    return out


def naval_bonus(game: Game, target: Hex) -> int:
    """OC-CRT.3: +1 to the naval die against a hex of the zones the chart names."""
    charts = chart(game)
    return 1 if any(target in game.scenario.map.zones.get(z, frozenset()) for z in charts.naval_zones) else 0


def naval_drm(game: Game, target: Hex, die: int) -> int:
    """OC-CRT.3: the DRM the Inshore Squadron takes off an assault on ``target`` for its die (a 6 +1 reads the chart's
    7)."""
    return chart(game).naval_drm[die + naval_bonus(game, target) - 1]


def naval_drms(game: Game, target: Hex) -> dict[int, Fraction]:
    """The naval support's DRM before its die: each value with its probability."""
    out: dict[int, Fraction] = {}
    for die in range(1, 7):
        drm = naval_drm(game, target, die)
        out[drm] = out.get(drm, Fraction(0)) + Fraction(1, 6)
    return out


def drm_distribution(charts: Charts, fixed: int, naval: Mapping[int, Fraction] | None = None) -> dict[int, Fraction]:
    """The net DRM's distribution before the dice: the fixed part, the ground support chits (OC-CRT.1) and, when the
    navy is called, its DRM (``naval``: :func:`naval_drms`, taken off)."""
    out: dict[int, Fraction] = {}
    for allied_n, italian_n in charts.chits:
        allied = _draws(charts.allied_cup, allied_n)
        italian = _draws(charts.italian_cup, italian_n)
        for a, pa in allied.items():
            for i, pi in italian.items():
                for n, pn in (naval or {0: Fraction(1)}).items():
                    drm = fixed - a + i - n
                    out[drm] = out.get(drm, Fraction(0)) + pa * pi * pn / len(charts.chits)
    return out


def _losses(charts: Charts, number: int, lost: int, morale: int, steps: int) -> dict[int, Fraction]:
    """One unit's steps lost in its morale check: die 1-6 with the CRT number and the steps it has lost."""
    out: dict[int, Fraction] = {}
    for die in range(1, 7):
        n = min(charts.steps_lost(failed_by(die, number + lost, morale)), steps)
        out[n] = out.get(n, Fraction(0)) + Fraction(1, 6)
    return out


def _add(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def italian_losses(game: Game, a: Assessment, naval: bool = False) -> list[tuple[str, Fraction]]:
    """The exact probability of each number of Italian steps lost to the assault (the defenders' morale checks, OC-
    CRT.6, over every draw of the chits and, ``naval`` when the navy is called, every naval die), as "N Italian steps"
    labels, the likeliest first."""
    charts, defs = chart(game), compass_defs(game)
    total: dict[int, Fraction] = {}
    for drm, p in drm_distribution(charts, a.drm, naval_drms(game, a.target) if naval else None).items():
        entry: CrtEntry = charts.crt.entry(drm, a.attack - a.defence)
        lost: dict[int, Fraction] = {0: Fraction(1)}
        for uid in a.defenders:
            u = compass_unit(game, uid)
            lost = _add(lost, _losses(charts, entry.italian, steps_lost_so_far(game, uid), defs[uid].morale, u.steps))
        for n, q in lost.items():
            total[n] = total.get(n, Fraction(0)) + p * q
    return sorted(((f"{n} Italian steps", q) for n, q in total.items()), key=lambda kv: (-kv[1], kv[0]))


def allied_losses(game: Game, a: Assessment, naval: bool = False) -> dict[int, Fraction]:
    """The exact probability of each number of WDF steps the assault costs (``naval``: with the navy called): the leader's check with
    the Allied number (its losses past its own steps taken from the rest of the stack, OC-CRT.6), and on a red entry
    each support unit's check, which nothing modifies (as :class:`~.assault.Assault` makes it); at most the steps the
    stack has."""
    charts, defs = chart(game), compass_defs(game)
    leader = defs[a.leader]
    stack_steps = sum(compass_unit(game, u).steps for u in a.attackers)
    support = [u for u in a.attackers if defs[u].is_support]
    total: dict[int, Fraction] = {}
    for drm, p in drm_distribution(charts, a.drm, naval_drms(game, a.target) if naval else None).items():
        entry: CrtEntry = charts.crt.entry(drm, a.attack - a.defence)
        number = entry.allied + steps_lost_so_far(game, a.leader) + a.oos
        lost: dict[int, Fraction] = {}
        for die in range(1, 7):
            n = charts.steps_lost(failed_by(die, number, leader.morale))
            lost[n] = lost.get(n, Fraction(0)) + Fraction(1, 6)
        if entry.red:
            for uid in support:
                lost = _add(lost, _losses(charts, 0, 0, defs[uid].morale, compass_unit(game, uid).steps))  # (no modifier)
        for n, q in lost.items():
            total[min(n, stack_steps)] = total.get(min(n, stack_steps), Fraction(0)) + p * q
    return total
