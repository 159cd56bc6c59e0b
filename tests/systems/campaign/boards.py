"""Small worked maps and positions for the campaign's movement, ZOC and stacking tests.

A board is ``rows`` x ``cols`` clear hexes (row A first; rows B, D ... sit half a hex to the east, so B3 touches
A3 and A4), with the features a test names: other terrain by hex, escarpments (the high hex named), roads, and
the coastal-road zone where a road is the coastal road.  Units are the order of battle's own counters, placed as
``"90Lt@A1"`` with status letters after a colon: ``d`` disrupted, ``n`` Newly Disrupted, ``a`` an attack is
allocated against it; ``"15Pz+@A1"`` is the panzer division combined with its regiment (XX+).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from tests.systems.campaign.campaign_data import forces
from tobruk.board.hexes import Hex, Hexside
from tobruk.board.maps import Feature, Map, RouteLine, SideFeature, build_map
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import FamilyUnitDef
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit

H = Hex.parse


def board(
    rows: int,
    cols: int,
    *,
    terrain: Mapping[str, str] | None = None,
    escarpments: Iterable[tuple[str, str, str]] = (),
    roads: Iterable[Sequence[str]] = (),
    coastal: bool = False,
    passes: Iterable[tuple[str, str]] = (),
) -> Map:
    """A small board; ``escarpments`` as (hex, hex, the high one) or (hex, hex, "!high") for an impassable one."""
    hexes = {Hex.from_offset(r, c): "clear" for r in range(rows) for c in range(cols)}
    for label, kind in (terrain or {}).items():
        hexes[H(label)] = kind
    sides: dict[Hexside, list[SideFeature]] = {}
    for a, b, high in escarpments:
        kind = Feature.IMPASSABLE_ESCARPMENT if high.startswith("!") else Feature.ESCARPMENT
        sides.setdefault(Hexside.between(H(a), H(b)), []).append(SideFeature(kind, high=H(high.lstrip("!"))))
    for a, b in passes:
        sides.setdefault(Hexside.between(H(a), H(b)), []).append(SideFeature(Feature.PASS))
    lines = [RouteLine("road", f"road {n}", tuple(H(x) for x in line)) for n, line in enumerate(roads)]
    zones = {"coastal-road": [h for line in lines for h in line.hexes]} if coastal else {}
    return build_map("test", hexes, hexsides=sides, routes=lines, zones=zones)


def counter(uid: str) -> FamilyUnitDef:
    return forces().units[uid]


def position(
    m: Map,
    *placed: str | CampaignUnit,
    forts: Mapping[str, Side] | None = None,
    broken_down: Iterable[str] = (),
) -> CampaignPosition:
    """The counters ``placed`` (``"ID@HEX[:dna]"``, or a unit made by hand) and the fort/box markers on ``m``."""
    units: list[CampaignUnit] = []
    for p in placed:
        if isinstance(p, CampaignUnit):
            units.append(p)
            continue
        spec, _, flags = p.partition(":")
        uid, _, where = spec.partition("@")
        i = m.index[H(where)]
        if uid.endswith("+"):
            base = uid[:-1]
            parts = tuple(forces().units[x] for x in forces().divisions[base].parts)
            unit = CampaignUnit(forces().combined(base), i, parts=parts)
        else:
            unit = CampaignUnit(forces().units[uid], i)
        units.append(replace(unit, disrupted="d" in flags or "n" in flags, newly_disrupted="n" in flags, attacked="a" in flags))
    subunits = {base: d.parts for base, d in forces().divisions.items()}
    return CampaignPosition(m, tuple(units), {m.index[H(h)]: s for h, s in (forts or {}).items()}, frozenset(broken_down), subunits)


def labels(p: CampaignPosition, indices: Iterable[int]) -> set[str]:
    return {p.hex(i).label for i in indices}


def ix(p: CampaignPosition, label: str) -> int:
    return p.index(H(label))
