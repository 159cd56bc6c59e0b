"""Fortifications and fortress towns in the campaign (CA-F.1, CA-F.2, CA-F.4, CA-F.5), as functions of a position.

* CA-F.1: each side may build one fort (Axis) or box (Allied) a turn, not after combat in the current or the
  previous player-turn, on a hex nearer a friendly unit than an enemy unit; an infantry-type unit of its side there
  defends doubled, the fortification adding 2 factors at most.  A scenario may forbid a side forts (El Agheila II,
  ``CampaignSetup.may_build``).
* CA-F.2: the enemy destroys a fort or box by standing on it with an undisrupted infantry-type unit in the owner's
  supply phase; the owner removes his own whenever he likes.
* CA-F.4: Tobruk (the hexes inside its perimeter) triples the defence of infantry-type units (a scenario may say
  doubles), Bardia doubles it; one unit at the bottom of the stack in Tobruk's centre hex defends the whole
  perimeter; Allied units inside are face down until attacked or disrupted, with one dummy among them.
* CA-F.5: Benghazi and Derna add 1 to the defence of one infantry-type unit there.

Distances are in hexes as the crow flies, as in the supply rules.  Refusals raise :class:`IllegalOrderError`
naming the clause; docs/rulings.md ("North-Africa campaign: reinforcements, strategic movement, fortifications,
special units") gives every reading of the words.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from types import MappingProxyType

from tobruk.board.maps import Map
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import CombatClass, UnitType
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit
from tobruk.systems.campaign.scenario import CampaignSetup
from tobruk.systems.campaign.special import always_two, defence_factor
from tobruk.systems.campaign.terrain import enterable

FORT_MOST = 2  # CA-F.1: the fortification adds 2 factors at most
TOBRUK_INSIDE = "inside Tobruk perimeter"  # the map's zones (CA-F.4)
TOBRUK_CENTRE = "tobruk-centre"
BARDIA = "bardia"
PLUS_ONE_TOWNS = ("benghazi", "derna")  # CA-F.5
BARDIA_MULTIPLIER = 2
FAR = 1 << 30


def _distances(m: Map, starts: Iterable[int]) -> array[int]:
    """Each hex's distance in hexes to the nearest of ``starts`` (FAR if none), across any ground and the sea."""
    out = array("i", [FAR]) * len(m.hexes)
    todo: deque[int] = deque()
    for s in starts:
        if out[s]:
            out[s] = 0
            todo.append(s)
    nb = m.neighbour_table
    while todo:
        i = todo.popleft()
        d = out[i] + 1
        for j in nb[i * 6 : i * 6 + 6]:
            if j >= 0 and out[j] > d:
                out[j] = d
                todo.append(j)
    return out


# ------------------------------------------------------------------------------------------ building (CA-F.1)


def build_sites(position: CampaignPosition, side: Side) -> frozenset[int]:
    """The hexes ``side`` may build its fortification on, where and when nothing else forbids it (CA-F.1): ground a
    unit may enter, no marker there yet, strictly nearer a unit of ``side`` than any enemy unit (a tie is not
    nearer).  Every unit on the map counts, disrupted or not, the Tobruk dummy too."""
    m = position.board
    ours = _distances(m, position.held[side])
    theirs = _distances(m, position.held[side.enemy])
    return frozenset(i for i, h in enumerate(m.hexes) if ours[i] < theirs[i] and i not in position.forts and enterable(m, h))


def check_build(
    position: CampaignPosition,
    side: Side,
    at: int,
    *,
    built: bool,
    combat: bool,
    scenario: CampaignSetup | None = None,
) -> None:
    """Raise :class:`IllegalOrderError` unless ``side`` may build a fort/box on hex ``at`` now: ``built`` it has built
    one this turn; ``combat`` there was combat in the current or the previous player-turn; ``scenario`` the
    scenario's setup, which may allow the side no forts (CA-SC.2's "No forts")."""
    m = position.board
    h = position.hex(at)
    kind = "fort" if side is Side.AXIS else "box"
    if scenario is not None and not scenario.may_build(side):
        raise IllegalOrderError(scenario.clause, f"the scenario allows the {side.display} side no {kind}s")
    if built:
        raise IllegalOrderError("CA-F.1", f"the {side.display} side has built its one {kind} this turn")
    if combat:
        raise IllegalOrderError("CA-F.1", f"no {kind} is built after combat in the current or the previous player-turn")
    if not enterable(m, h):
        raise IllegalOrderError("CA-F.8", f"{h} is {m.terrain[h]}: no unit, and no {kind}, stands there")
    if at in position.forts:
        raise IllegalOrderError("CA-F.1", f"{h} has a fort/box marker already")
    if at not in build_sites(position, side):
        ours = _distances(m, position.held[side])[at]
        theirs = _distances(m, position.held[side.enemy])[at]
        raise IllegalOrderError(
            "CA-F.1",
            f"{h} is {_far(ours)} from the nearest {side.display} unit and {_far(theirs)} from the nearest enemy: "
            f"a {kind} is built only nearer a friendly unit than an enemy one",
        )


def _far(d: int) -> str:
    return "no distance (no unit)" if d >= FAR else f"{d} hex{'es' if d != 1 else ''}"


def build(
    position: CampaignPosition, side: Side, at: int, *, built: bool, combat: bool, scenario: CampaignSetup | None = None
) -> CampaignPosition:
    """The position with ``side``'s new fort/box on ``at`` (checked by :func:`check_build`)."""
    check_build(position, side, at, built=built, combat=combat, scenario=scenario)
    return replace(position, forts=MappingProxyType({**position.forts, at: side}))


# ---------------------------------------------------------------------------------- destruction, removal (CA-F.2)


def remove(position: CampaignPosition, side: Side, at: int) -> CampaignPosition:
    """The position without ``side``'s own fort/box on ``at``: the owner removes his at will (CA-F.2)."""
    if position.forts.get(at) is not side:
        raise IllegalOrderError("CA-F.2", f"{position.hex(at)} has no {side.display} fort/box to remove")
    return replace(position, forts=MappingProxyType({i: s for i, s in position.forts.items() if i != at}))


def destroyed(position: CampaignPosition, owner: Side) -> frozenset[int]:
    """``owner``'s forts/boxes destroyed in his supply phase: those an undisrupted enemy infantry-type unit occupies
    (CA-F.2).  A combined panzer division counts (its base is the infantry-type unit of CA-F.1); armour, the
    special units and the dummy do not."""
    return frozenset(
        i
        for i, s in position.forts.items()
        if s is owner and any(u.side is owner.enemy and u.infantry_type and not u.disrupted for u in position.at(i))
    )


def destroy(position: CampaignPosition, owner: Side) -> CampaignPosition:
    """The position after ``owner``'s supply phase has destroyed the forts/boxes of :func:`destroyed`."""
    gone = destroyed(position, owner)
    if not gone:
        return position
    return replace(position, forts=MappingProxyType({i: s for i, s in position.forts.items() if i not in gone}))


# --------------------------------------------------------------------------------- defence (CA-F.1, F.4, F.5)


def infantry_factor(u: CampaignUnit) -> int:
    """The part of a unit's defence the infantry-type bonuses act on: all of an infantry-type unit's, none of armour's
    or a special unit's; of a combined panzer division (XX+), its base's (the regiment is pure armour)."""
    if u.unit.combat_class is not CombatClass.INFANTRY_TYPE:
        return 0
    return u.unit.defence - sum(p.defence for p in u.parts)


def fortress_multiplier(m: Map, at: int, tobruk: int) -> int:
    """The multiplier of infantry-type defence in hex ``at``: ``tobruk`` (3, or the scenario's 2) inside Tobruk's
    perimeter, 2 in Bardia, else 1 (CA-F.4)."""
    h = m.hexes[at]
    if h in m.zones.get(TOBRUK_INSIDE, frozenset()):
        return tobruk
    if h in m.zones.get(BARDIA, frozenset()):
        return BARDIA_MULTIPLIER
    return 1


def unit_defence(position: CampaignPosition, u: CampaignUnit, tobruk: int) -> int:
    """A unit's defence with its fortress town (CA-F.4): the infantry-type part multiplied; the 8th Army artillery
    always 2 (CA-U.3)."""
    if always_two(u.unit):
        return defence_factor(u.unit)
    part = infantry_factor(u)
    return u.unit.defence + part * (fortress_multiplier(position.board, u.hex, tobruk) - 1)


def fort_extra(position: CampaignPosition, at: int, side: Side) -> int:
    """What ``side``'s own fort/box on ``at`` adds to its defence (CA-F.1): the undisrupted infantry-type units there
    doubled (their printed factors), 2 factors at most for the fortification; a disrupted unit has lost its
    entrenchment (CA-G.15); an enemy marker adds nothing."""
    if position.forts.get(at) is not side:
        return 0
    doubled = sum(infantry_factor(u) for u in position.at(at) if u.side is side and not u.disrupted)
    return min(doubled, FORT_MOST)


def town_extra(position: CampaignPosition, at: int, side: Side) -> int:
    """Benghazi and Derna: +1 to the defence of one infantry-type unit of ``side`` there (CA-F.5), disrupted or not
    (a town is terrain, CA-G.15)."""
    h = position.hex(at)
    if not any(h in position.board.zones.get(z, frozenset()) for z in PLUS_ONE_TOWNS):
        return 0
    return 1 if any(u.side is side and infantry_factor(u) > 0 for u in position.at(at)) else 0


def hex_defence(position: CampaignPosition, at: int, side: Side, tobruk: int, units: Iterable[CampaignUnit] | None = None) -> int:
    """The defence of ``side``'s ``units`` (default: all of its units in ``at``) with the fortress town, the fort/box
    and Benghazi's or Derna's point (CA-F.1, F.4, F.5): each unit's factor multiplied, then the additions (of the
    printed factors).  Hills, ridges, mountains and escarpments (CA-F.7-10) are combat's to add."""
    group = tuple(u for u in position.at(at) if u.side is side) if units is None else tuple(units)
    return sum(unit_defence(position, u, tobruk) for u in group) + fort_extra(position, at, side) + town_extra(position, at, side)


# ------------------------------------------------------------------------------------------------- Tobruk (CA-F.4)


def perimeter(m: Map) -> frozenset[int]:
    """The hexes inside Tobruk's perimeter, its centre among them."""
    return frozenset(m.index[h] for h in m.zones.get(TOBRUK_INSIDE, frozenset()))


def centre(m: Map) -> int | None:
    hexes = m.zones.get(TOBRUK_CENTRE, frozenset())
    return m.index[next(iter(hexes))] if hexes else None


def dummy(u: CampaignUnit) -> bool:
    return u.unit.type is UnitType.DUMMY


def perimeter_defender(position: CampaignPosition, side: Side) -> CampaignUnit | None:
    """The unit of ``side`` at the bottom of the stack in Tobruk's centre hex (the first of its units there that is no
    dummy), which defends the whole perimeter (CA-F.4); None if there is none."""
    c = centre(position.board)
    if c is None:
        return None
    return next((u for u in position.at(c) if u.side is side and not dummy(u)), None)


def defenders(position: CampaignPosition, attacked: int) -> tuple[CampaignUnit, ...]:
    """The units that defend hex ``attacked``: its own (the dummy is no defender), and for a hex inside Tobruk's
    perimeter other than the centre, the bottom unit of the centre hex of the same side as well (CA-F.4)."""
    own = tuple(u for u in position.at(attacked) if not dummy(u))
    if not own or attacked == centre(position.board) or attacked not in perimeter(position.board):
        return own
    extra = perimeter_defender(position, own[0].side)
    return own if extra is None else (*own, extra)


@dataclass(frozen=True)
class AxisSight:
    """What the Axis may see of the Allied units inside Tobruk's perimeter (CA-F.4): the face-up units (id, hex,
    disrupted) and per hex the number of face-down counters, the dummy among them, in no telling order."""

    face_up: tuple[tuple[str, int, bool], ...]
    face_down: tuple[tuple[int, int], ...]


def face_down(position: CampaignPosition, attacked: Collection[int] = ()) -> frozenset[str]:
    """The Allied counters face down inside Tobruk's perimeter: all of them but those disrupted or in a hex being
    attacked (``attacked``: the hexes under attack now); the dummy stays face down until its hex is attacked."""
    inside = perimeter(position.board)
    return frozenset(
        u.id for u in position.side_units(Side.ALLIED) if u.hex in inside and u.hex not in attacked and (dummy(u) or not u.disrupted)
    )


def axis_sight(position: CampaignPosition, attacked: Collection[int] = ()) -> AxisSight:
    """What the Axis sees inside the perimeter: made only of what it may know, so two positions that differ only in
    which face-down counter stands where give the same answer."""
    hidden = face_down(position, attacked)
    inside = perimeter(position.board)
    shown = sorted((u.id, u.hex, u.disrupted) for u in position.side_units(Side.ALLIED) if u.hex in inside and u.id not in hidden)
    counts: dict[int, int] = {}
    for uid in hidden:
        i = position.unit(uid).hex
        counts[i] = counts.get(i, 0) + 1
    return AxisSight(tuple(shown), tuple(sorted(counts.items())))


def dummy_removed(position: CampaignPosition, attacked: Collection[int] = ()) -> bool:
    """Whether the dummy leaves the map: its hex is attacked (it is revealed and has nothing to fight with), it stands
    outside the perimeter, or no Allied unit but it is left inside (CA-F.4)."""
    d = next((u for u in position.side_units(Side.ALLIED) if dummy(u)), None)
    if d is None:
        return False
    inside = perimeter(position.board)
    alone = not any(u.hex in inside and not dummy(u) for u in position.side_units(Side.ALLIED))
    return d.hex in attacked or d.hex not in inside or alone


def check_dummy(position: CampaignPosition, at: int) -> None:
    """Raise :class:`IllegalOrderError` unless the dummy may stand on hex ``at``: inside the perimeter, with an Allied
    unit inside it (CA-F.4)."""
    inside = perimeter(position.board)
    if at not in inside:
        raise IllegalOrderError("CA-F.4", f"the dummy stands only inside Tobruk's perimeter, not in {position.hex(at)}")
    if not any(u.hex in inside and not dummy(u) for u in position.side_units(Side.ALLIED)):
        raise IllegalOrderError("CA-F.4", "the dummy hides among Allied units inside the perimeter, and there are none")
