"""Reinforcements and replacements in the campaign (CA-R.1-5): what a side may bring onto the map this player-turn.

* CA-R.1: the turn track says when each Axis unit arrives, how many Allied units may be on the map (the force level)
  and from when each Allied tank type is available.
* CA-R.2: Australian, New Zealand, South African, Polish, Greek and French units are irreplaceable: once eliminated
  they never come back (the order of battle marks them, ``FamilyUnitDef.irreplaceable``).
* CA-R.3: until an Axis unit comes within 5 hexes of El Alamein (then for the rest of the game: the Allied Alamein
  Force Level), no more than one British division; from then the Alamein force level holds.
* CA-R.4: one reinforcement or one replacement a player-turn, of any type or size, of the owner's choice, within the
  tank types available; none for the Axis from II Oct 42; it enters on the coastal-road hex at the owner's map edge
  (:func:`~tobruk.systems.campaign.strategic.rear_hex`).
* CA-R.5: from the same approach the Axis may also bring in Littorio, Pistoia, Folgore, 164th and Ramcke.

:func:`choices` lists every counter off the map with whether it may enter now and the clause that decides, so a
player is told why a unit is refused; :func:`check` refuses one choice; :func:`enter` puts it on the map.  What is off
the map is a :class:`Pool` (the counters not yet in play with the turn each may come from, and those eliminated), the
game's record; :func:`pool_from_scenario` makes the one a scenario starts with.  docs/rulings.md ("North-Africa
campaign: reinforcements, strategic movement, fortifications, special units") gives the readings of the words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.counters import CombatClass, Echelon, FamilyUnitDef, UnitType
from tobruk.systems.campaign.forces import Forces
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit
from tobruk.systems.campaign.scenario import CampaignSetup, allied_gun
from tobruk.systems.campaign.stacking import hex_refusal
from tobruk.systems.campaign.track import turn_ordinal

REINFORCEMENT, REPLACEMENT = "reinforcement", "replacement"
BRITISH = "british"  # CA-R.3 counts British divisions: not Indian, Australian, New Zealand or South African ones


@dataclass(frozen=True)
class Pool:
    """A side's counters off the map: ``waiting`` (never yet in play) by id with the turn from which each may enter
    (``""``: from the start), and ``eliminated`` (candidates for replacement)."""

    waiting: Mapping[str, str]
    eliminated: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Choice:
    """One counter the owner might bring in this player-turn: a ``reinforcement`` (never yet in play) or a
    ``replacement`` (eliminated), with the tank type it would enter with (an Allied armour unit, CA-R.4), whether it
    may, and the clause and reason that decide."""

    unit: str
    kind: str
    tank: str | None
    allowed: bool
    clause: str
    reason: str


def alamein_reached(position: CampaignPosition, forces: Forces) -> bool:
    """Whether an Axis unit stands within the track's distance (5 hexes, as the crow flies) of El Alamein: the event
    that activates the Allied Alamein Force Level for the rest of the game (CA-R.3) and brings the Axis additions
    (CA-R.5).  The game keeps the event once it has happened."""
    al = forces.track.alamein
    m = position.board
    try:
        place = m.place(al.place).hex
    except KeyError:
        return False
    return any(m.hexes[u.hex].distance(place) <= al.within for u in position.side_units(Side.AXIS))


def allied_count(position: CampaignPosition) -> int:
    """The Allied units on the map as the force level counts them (CA-R.1): every counter but the dummy (CA-F.4)."""
    return sum(1 for u in position.side_units(Side.ALLIED) if u.unit.type is not UnitType.DUMMY)


def british_division(u: FamilyUnitDef) -> bool:
    return u.nationality == BRITISH and u.echelon is Echelon.DIVISION


def _in_play(position: CampaignPosition) -> set[str]:
    return {u.id for u in position.units} | {p.id for u in position.units for p in u.parts}


def chooses_tank(u: FamilyUnitDef) -> bool:
    """Whether ``u`` enters with a tank type of the owner's choice (an Allied armour unit, CA-R.4)."""
    return u.side is Side.ALLIED and u.combat_class is CombatClass.PURE_ARMOUR


def _tanks(forces: Forces, u: FamilyUnitDef, turn: str) -> tuple[str | None, ...]:
    """The tank types ``u`` may enter with on ``turn``: any Allied type introduced by then for an Allied armour unit
    (the owner's choice, CA-R.4), else its own (None for a unit without tanks)."""
    if not chooses_tank(u):
        return (u.tank,)
    track = forces.track
    return tuple(t.name for t in track.tank_types if track.tank_available(t.name, turn))


def choices(
    position: CampaignPosition,
    forces: Forces,
    side: Side,
    turn: str,
    pool: Pool,
    entry: int,
    *,
    alamein: bool,
    taken: bool = False,
) -> tuple[Choice, ...]:
    """Every counter of ``side`` off the map, each with whether it may enter on ``turn`` at hex ``entry`` and why
    (one choice per tank type an Allied armour unit may take).  ``alamein``: the Alamein force level is in force
    (:func:`alamein_reached`, kept by the game); ``taken``: the side has brought a unit in this player-turn."""
    track = forces.track
    out: list[Choice] = []
    in_play = _in_play(position)
    shared = _shared_refusal(position, forces, side, turn, entry, taken=taken)
    candidates = [(uid, REINFORCEMENT) for uid in sorted(pool.waiting)] + [(uid, REPLACEMENT) for uid in sorted(pool.eliminated)]
    for uid, kind in candidates:
        u = forces.units[uid]
        if u.side is not side or u.type is UnitType.DUMMY or uid in in_play:
            continue
        why = shared or _unit_refusal(position, forces, u, kind, turn, pool, alamein=alamein)
        tanks = _tanks(forces, u, turn)
        if not tanks:
            first = min((t for t in track.tank_types), key=lambda t: turn_ordinal(t.when.turn))
            why = why or ("CA-R.1", f"no Allied tank type is available on {turn} (the first, {first.name}, from {first.when.turn})")
            tanks = (None,)
        for tank in tanks:
            if why:
                out.append(Choice(uid, kind, tank, False, why[0], why[1]))
            else:
                what = f"{u.name}" + (f" with {tank}s" if tank and u.side is Side.ALLIED else "")
                out.append(Choice(uid, kind, tank, True, "CA-R.4", f"{what} may enter as this player-turn's {kind}"))
    return tuple(out)


def _shared_refusal(
    position: CampaignPosition, forces: Forces, side: Side, turn: str, entry: int, *, taken: bool
) -> tuple[str, str] | None:
    """A refusal that holds for every counter of the side this player-turn."""
    end = forces.track.axis_reinforcements_end
    if taken:
        return "CA-R.4", "one reinforcement or replacement a player-turn, and it has entered"
    if side is Side.AXIS and turn_ordinal(turn) >= turn_ordinal(end):
        return "CA-R.4", f"the Axis gets no reinforcements or replacements from {end}"
    if any(u.side is side.enemy for u in position.at(entry)):
        return "CA-M.1", f"the entry hex {position.hex(entry)} holds enemy units"
    return None


def _unit_refusal(
    position: CampaignPosition, forces: Forces, u: FamilyUnitDef, kind: str, turn: str, pool: Pool, *, alamein: bool
) -> tuple[str, str] | None:
    track = forces.track
    if kind == REPLACEMENT and u.irreplaceable:
        return "CA-R.2", f"{u.name} is {u.nationality.replace('-', ' ').title()}: irreplaceable"
    if kind == REINFORCEMENT:
        if u.id in track.alamein.axis_additions and not alamein:
            return "CA-R.5", f"{u.name} comes only once an Axis unit has been within {track.alamein.within} hexes of {track.alamein.place}"
        since = pool.waiting.get(u.id, "")
        if since and turn_ordinal(turn) < turn_ordinal(since):
            return "CA-R.1", f"{u.name} is on the turn track from {since}, not {turn}"
    if u.side is Side.ALLIED:
        level = track.force_level(turn, alamein=alamein)
        have = allied_count(position)
        if have + 1 > level:
            which = "the Alamein force level" if alamein else f"the force level of {turn}"
            return "CA-R.1", f"{have} Allied units are on the map, and {which} is {level}"
        if british_division(u) and not alamein:
            most = track.alamein.british_divisions
            there = [x.id for x in position.side_units(Side.ALLIED) if british_division(x.unit)]
            if len(there) >= most:
                return "CA-R.3", f"{', '.join(there)} is the one British division allowed before the Allied Alamein Force Level"
    return None


def legal(
    position: CampaignPosition,
    forces: Forces,
    side: Side,
    turn: str,
    pool: Pool,
    entry: int,
    *,
    alamein: bool,
    taken: bool = False,
) -> tuple[Choice, ...]:
    """The choices that may enter (see :func:`choices`), with stacking at the entry hex checked (CA-K.1)."""
    out = []
    for c in choices(position, forces, side, turn, pool, entry, alamein=alamein, taken=taken):
        if c.allowed and _stack_refusal(position, forces, c, entry) is None:
            out.append(c)
    return tuple(out)


def _stack_refusal(position: CampaignPosition, forces: Forces, c: Choice, entry: int) -> str | None:
    u = forces.units[c.unit]
    return hex_refusal(position, entry, u.side, (CampaignUnit(u, entry),))


def check(
    position: CampaignPosition,
    forces: Forces,
    side: Side,
    turn: str,
    pool: Pool,
    entry: int,
    unit: str,
    tank: str | None = None,
    *,
    alamein: bool,
    taken: bool = False,
) -> Choice:
    """The choice of ``unit`` (with ``tank``, for an Allied armour unit) if it may enter now, else
    :class:`IllegalOrderError` naming the clause that refuses it."""
    found = [c for c in choices(position, forces, side, turn, pool, entry, alamein=alamein, taken=taken) if c.unit == unit]
    if not found:
        raise IllegalOrderError("CA-R.4", f"{unit} is not a {side.display} unit waiting off the map or eliminated")
    pick = next((c for c in found if c.tank == tank), None)
    if pick is None and tank is not None:
        raise IllegalOrderError("CA-R.4", f"{unit} may not enter with {tank}s on {turn}: the tank types available are limited")
    pick = pick or found[0]
    if not pick.allowed:
        raise IllegalOrderError(pick.clause, pick.reason)
    why = _stack_refusal(position, forces, pick, entry)
    if why is not None:
        raise IllegalOrderError("CA-K.1", f"the entry hex {position.hex(entry)} would hold {why}")
    return pick


def enter(position: CampaignPosition, forces: Forces, choice: Choice, entry: int, turn: str) -> CampaignPosition:
    """The position with ``choice``'s unit on hex ``entry``, undisrupted (entering is no movement), an Allied unit with
    its tank type and the anti-tank gun of the date (CA-T.5)."""
    return position.with_unit(CampaignUnit(entered_def(forces, forces.units[choice.unit], choice.tank, turn), entry))


def entered_def(forces: Forces, u: FamilyUnitDef, tank: str | None, turn: str) -> FamilyUnitDef:
    """``u`` as it enters on ``turn``: an Allied unit with the tank type chosen and the anti-tank gun of the date
    (CA-R.4, CA-T.5); an Axis unit as printed."""
    if u.side is not Side.ALLIED:
        return u
    step = forces.track.anti_tank_at(turn)
    return replace(u, tank=tank or u.tank, anti_tank=allied_gun(u, {"support": step.support, "infantry": step.infantry}, {}))


def pool_from_scenario(scenario: Scenario, position: CampaignPosition) -> dict[Side, Pool]:
    """Each side's pool at the start of a campaign scenario whose start is ``position``: every counter not on the map
    (held off it, or arriving later, with the turn of its arrival), the dummy apart.  Units arriving on the first
    turn are the starting forces (CA-R.1), placed with the set-up, not reinforcements."""
    setup = scenario.extra
    if not isinstance(setup, CampaignSetup):
        raise TypeError(f"{scenario.name} is not a campaign scenario")
    in_play = _in_play(position)
    waiting: dict[Side, dict[str, str]] = {s: {} for s in Side}
    for u in scenario.units:
        if u.id in in_play or u.id in scenario.setup_zone or not isinstance(u, FamilyUnitDef) or u.type is UnitType.DUMMY:
            continue
        since = setup.arrivals.get(u.id, "")
        if since == setup.start:
            continue
        waiting[u.side][u.id] = since
    return {s: Pool(MappingProxyType(w)) for s, w in waiting.items()}


def starting_arrivals(scenario: Scenario) -> tuple[str, ...]:
    """The units a scenario brings in on its first turn (its starting forces, CA-R.1)."""
    setup = scenario.extra
    if not isinstance(setup, CampaignSetup):
        raise TypeError(f"{scenario.name} is not a campaign scenario")
    return tuple(uid for uid, turn in setup.arrivals.items() if turn == setup.start)
