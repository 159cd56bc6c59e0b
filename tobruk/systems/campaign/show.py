"""What ``tobruk show`` prints for a North-Africa campaign scenario.

The campaign's rules are not played yet, so there is no game to ask where the units are: the
counters, set-ups, entries and options come straight from the scenario data (:mod:`.scenario`).
The text lists the turns, options, fortifications, victory condition and each side's forces; the
JSON carries the same; the counters on their starting hexes feed the SVG map, which the command draws.
"""

from __future__ import annotations

from typing import Any

from tobruk.board.units import UnitDef
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.counters import FamilyUnitDef
from tobruk.systems.campaign.forces import load_forces
from tobruk.systems.campaign.scenario import CampaignSetup, VictoryTest


def _setup(scenario: Scenario) -> CampaignSetup:
    if not isinstance(scenario.extra, CampaignSetup):
        raise ValueError(f"{scenario.name} is not a campaign scenario")
    return scenario.extra


def counters(scenario: Scenario) -> list[tuple[UnitDef, UnitState]]:
    """The units that start on the map, on their default hexes (for the SVG)."""
    return [
        (u, UnitState(hex=h, status={"disrupted": u.id in _setup(scenario).disrupted}))
        for u in scenario.units
        if (h := scenario.start.get(u.id)) is not None
    ]


def _family(scenario: Scenario) -> list[FamilyUnitDef]:
    """The scenario's counters, which the campaign's forces file made family counters."""
    return [u for u in scenario.units if isinstance(u, FamilyUnitDef)]


def _where(scenario: Scenario, u: FamilyUnitDef) -> str:
    setup = _setup(scenario)
    if u.id in setup.arrivals:
        text = f"enters {setup.arrivals[u.id]} ({scenario.reinforcements[u.id].zone})"
    elif (h := scenario.start.get(u.id)) is not None:
        text = h.label
    else:
        text = "held off the map"
    if u.id in scenario.setup_zone:
        text += f" (set-up zone {scenario.setup_zone[u.id]})"
    if u.id in setup.disrupted:
        text += ", disrupted"
    return text


def _test_text(t: VictoryTest) -> str:
    if t.parts:
        return f"{t.test}(" + "; ".join(_test_text(p) for p in t.parts) + ")"
    bits = [t.test] + [
        x for x in (t.zone, f"toward {t.toward}" if t.toward else None, "in supply" if t.supplied else None, f"at {t.at}") if x
    ]
    return " ".join(bits)


def unit_line(scenario: Scenario, u: FamilyUnitDef) -> str:
    setup = _setup(scenario)
    size = setup.forms.get(u.id, u.size or "")
    extras = [
        x
        for x in (
            u.combat_class.value if u.combat_class else None,
            f"tank {u.tank}" if u.tank else None,
            f"AT {u.anti_tank.value}" if u.anti_tank.value != "none" else None,
            "irreplaceable" if u.irreplaceable else None,
            "*" if "starred" in u.flags else None,
        )
        if x
    ]
    factors, where = u.factors, _where(scenario, u)
    forces = load_forces(setup.forces)
    if setup.forms.get(u.id) == "XX+":  # the combined counter's factors are its subunits' together (CA-U.1)
        factors = forces.combined(u.id).factors
        where += f"; combined with {', '.join(forces.divisions[u.id].parts)}"
    for base, form in setup.forms.items():
        if form == "XX+" and u.id in forces.divisions[base].parts:
            where += f"; part of {base} (XX+)"
    return f"  {u.id:<11} {size:<4} {factors:<6} {', '.join(extras):<40} {u.name} - {where}"


def summary(scenario: Scenario) -> str:
    """A text summary: turns, first player, options, fortifications, victory and each side's forces."""
    setup = _setup(scenario)
    forces = load_forces(setup.forces)
    m = scenario.map
    first = "the Allied player-turn alone, then full game-turns" if setup.first is Side.ALLIED else "the Axis player-turn"
    lines = [
        f"{scenario.title} ({scenario.name}, {setup.clause}), system {scenario.system}",
        f"Turns: {setup.start} to {setup.end} ({scenario.turns} half-month turns); opens with {first}",
        f"Map: {m.name}, {m.rows} rows x {m.columns} columns; played on "
        + (f"{setup.area} ({len(scenario.zone(setup.area))} land hexes)" if setup.area else "the whole map"),
        f"Tobruk multiplies infantry-type defence by {setup.tobruk_multiplier} (CA-F.4)",
        "Allied anti-tank (" + setup.anti_tank_clause + "): " + ", ".join(f"{k} {v.value}" for k, v in setup.anti_tank.items()),
    ]
    track = forces.track
    # a listing's own amendment holds for its whole scenario; without one the guns follow the date
    if setup.anti_tank_clause == "CA-T.5" and track.anti_tank_at(setup.start) != track.anti_tank_at(setup.end):
        lines[-1] += (
            f" at the start; by date after that (CA-T.5: from {track.anti_tank_at(setup.end).when.turn} "
            f"support {track.anti_tank_at(setup.end).support.value}, infantry {track.anti_tank_at(setup.end).infantry.value})"
        )
    if setup.alone is not None:
        lines.append(f"{setup.alone.display} units start one to a hex")
    for f in setup.fortifications:
        kind = "boxes" if f.side is Side.ALLIED else "forts"
        at = " ".join(h.label for h in f.hexes) or f"built in {f.zone}"
        lines.append(f"{f.side.display} {kind}: {f.count} ({at})")
    v = setup.victory
    lines.append(f"Victory ({v.clause}): {v.text}")
    lines.append(f"  test: {_test_text(v.test)}" + (f"; strategic: {_test_text(v.strategic)}" if v.strategic else ""))
    for side in Side:
        units = [u for u in _family(scenario) if u.side is side]
        lines.append(f"\n{side.display} forces ({len(units)} counters; order of battle {forces.name}):")
        lines.extend(unit_line(scenario, u) for u in units)
    return "\n".join(lines)


def data(scenario: Scenario) -> dict[str, Any]:
    """The same as JSON-ready data."""
    setup = _setup(scenario)
    return {
        "scenario": scenario.name,
        "title": scenario.title,
        "clause": setup.clause,
        "map": scenario.map.name,
        "start": setup.start,
        "end": setup.end,
        "turns": list(setup.turn_names),
        "first": setup.first.value,
        "area": setup.area,
        "alone": setup.alone.value if setup.alone else None,
        "tobruk_multiplier": setup.tobruk_multiplier,
        "anti_tank": {k: v.value for k, v in setup.anti_tank.items()},
        "fortifications": [
            {"side": f.side.value, "count": f.count, "zone": f.zone, "hexes": [h.label for h in f.hexes]} for f in setup.fortifications
        ],
        "victory": {
            "side": setup.victory.side.value if setup.victory.side else None,
            "clause": setup.victory.clause,
            "text": setup.victory.text,
        },
        "zones": {z: sorted(h.label for h in hs) for z, hs in scenario.zones.items()},
        "units": [
            {
                "id": u.id,
                "name": u.name,
                "side": u.side.value,
                "nationality": u.nationality,
                "echelon": u.echelon.value,
                "size": setup.forms.get(u.id, u.size),
                "type": u.type.value,
                "class": u.combat_class.value if u.combat_class else None,
                "factors": u.factors,
                "tank": u.tank,
                "anti_tank": u.anti_tank.value,
                "irreplaceable": u.irreplaceable,
                "hex": h.label if (h := scenario.start.get(u.id)) else None,
                "setup_zone": scenario.setup_zone.get(u.id),
                "enters": setup.arrivals.get(u.id),
                "disrupted": u.id in setup.disrupted,
            }
            for u in _family(scenario)
        ],
    }
