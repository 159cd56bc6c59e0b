"""A running game's position as the campaign's rule functions read it.

The movement, ZOC, stacking and supply rules (:mod:`.movement`, :mod:`.zoc`, :mod:`.stacking`, :mod:`.supply`) are
functions of an immutable :class:`~.position.CampaignPosition`, so that their tests can set a few counters on a
small map.  The sequence's steps hold a game; this module makes the one from the other, once a board (the units,
the variables; not the decision stack, which no rule of position reads), and traces a side's supply lines the same
way.  A combined panzer division (XX+, CA-U.1) is the base's row carrying its parts, whose own rows stand off the
map while combined (the variables' ``combined``).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, FIXED, Cache
from tobruk.engine.sides import Side
from tobruk.systems.campaign.forces import load_forces
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit
from tobruk.systems.campaign.reinforcements import entered_def
from tobruk.systems.campaign.scenario import CampaignSetup
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs
from tobruk.systems.campaign.supply import SupplyGround, SupplyLines, supply_ground, trace
from tobruk.systems.campaign.terrain import enterable

if TYPE_CHECKING:
    from tobruk.engine.game import Game

_POSITION: Cache[CampaignPosition] = Cache("campaign.position", BOARD)
_LINES: Cache[SupplyLines] = Cache("campaign.supply-lines", BOARD)
_ZONES: Cache[tuple[int, ...]] = Cache("campaign.zone-hexes", FIXED)


def setup_of(game: Game) -> CampaignSetup:
    """The scenario's campaign part (its forces, dates, fortifications, victory)."""
    extra = game.scenario.extra
    assert isinstance(extra, CampaignSetup)
    return extra


def on_map(game: Game, side: Side | None = None) -> list[str]:
    """The ids of the units standing on the map (of ``side``), in order of battle; a combined division's parts not."""
    ids = game.unit_ids if side is None else game.units_of(side)
    return [uid for uid in ids if game.unit(uid).hex_index >= 0 and not game.unit(uid).eliminated]


def position(game: Game) -> CampaignPosition:
    """The position now (kept per board)."""
    return _POSITION.get(game, None, lambda: _position(game))


def _position(game: Game) -> CampaignPosition:
    v = campaign_vars(game)
    defs = counter_defs(game)
    forces = load_forces(setup_of(game).forces)
    units: list[CampaignUnit] = []
    for uid in on_map(game):
        c = counter(game, uid)
        d = defs[uid]
        parts = v.combined.get(uid, ())
        if parts:
            d = replace(forces.combined(uid), anti_tank=d.anti_tank)
        if uid in v.equipped:
            turn, tank = v.equipped[uid]
            d = entered_def(forces, d, tank or None, turn)
        units.append(
            CampaignUnit(
                d,
                c.hex_index,
                c.disrupted,
                c.newly_disrupted,
                c.targeted,
                tuple(defs[p] for p in parts),
                c.hidden,
            )
        )
    index = game.scenario.map.index
    forts = MappingProxyType({index[Hex.parse(h)]: Side(s) for h, s in v.forts.items()})
    subunits = MappingProxyType({base: d.parts for base, d in forces.divisions.items()})
    area = setup_of(game).area
    section = None if area is None else frozenset(index[h] for h in game.scenario.zone(area))
    return CampaignPosition(game.scenario.map, tuple(units), forts, frozenset(), subunits, section)


def zone_indices(game: Game, name: str) -> tuple[int, ...]:
    """The hexes of the scenario's zone ``name`` a unit may stand on, as map indices in order: inside the scenario's
    section of the map (CA-F.11) and not impassable (CA-F.8).  Set-up zones and entry zones are read through it, so a
    unit is never offered a hex the rules would then forbid it."""

    def work() -> tuple[int, ...]:
        m = game.scenario.map
        area = setup_of(game).area
        section = None if area is None else game.scenario.zone(area)
        return tuple(sorted(m.index[h] for h in game.scenario.zone(name) if enterable(m, h) and (section is None or h in section)))

    return _ZONES.get(game, name, work)


def ground(game: Game) -> SupplyGround:
    """The ground the scenario's supply lines run on: its section of the map, if it is played on one."""
    area = setup_of(game).area
    return supply_ground(game.scenario.map, game.scenario.zone(area) if area is not None else None)


def lines(game: Game, side: Side) -> SupplyLines:
    """``side``'s supply lines now (CA-P.1, CA-F.3), kept per board."""
    return _LINES.get(game, side, lambda: _lines(game, side))


def _lines(game: Game, side: Side) -> SupplyLines:
    p = position(game)
    enemy_forts = [i for i, s in p.forts.items() if s is side.enemy]
    return trace(ground(game), side, p.held[side], p.held[side.enemy], enemy_forts)


def supplied(game: Game, uid: str) -> bool:
    """Whether the unit is in supply now, traced at the moment of asking (CA-P.2, docs/rulings.md)."""
    c = counter(game, uid)
    return lines(game, counter_defs(game)[uid].side).supplied(c.hex_index)
