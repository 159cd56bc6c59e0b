"""1st Alamein's charts (``charts.toml`` in this package), read and checked once per system instance.

The ground combat results table with Spent (FA-CRT.1), what each result does (FA-CRT.2-6) and its
conversions (FA-CRT.7-8), the air table (FA-AIR.1), the terrain effects (FA-TER.1-4), the stacking
numbers (FA-STK.1) and the few numbers the charts leave to The Gazala Gallop's basic rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.loading.datafile import Table
from tobruk.mechanics.odds import ColumnTable, RatioTable, read_column_table, read_ratio_table

if TYPE_CHECKING:
    from tobruk.engine.game import Game

BLOCKED = ("eliminated", "stays")
AIR_CODES = frozenset({"S", "-", "EAX", "Int", "AA", "AAg"})  # FA-AIR.2: the air table's results, as air.py reads them


@dataclass(frozen=True, slots=True)
class Effect:
    """What a unit's result code does to it (FA-CRT.2-6).

    ``distance``: the most hexes the winner may make the unit retreat; ``voluntary``: the hexes it may add
    of its own accord; ``blocked``: what becomes of it when it cannot retreat the distance.
    """

    eliminated: bool = False
    spent: bool = False
    distance: int = 0
    voluntary: int = 0
    blocked: str = "eliminated"

    @property
    def moves(self) -> bool:
        """Whether the units may have to, or may choose to, retreat."""
        return self.distance > 0 or self.voluntary > 0


@dataclass(frozen=True)
class Charts:
    gcrt: RatioTable
    results: dict[str, tuple[str, str]]  # GCRT result -> (the defenders' code, the attackers' code)
    effects: dict[str, Effect]  # a unit's code -> what it does
    no_retreat: dict[str, str]
    survivable: dict[str, str]
    air: ColumnTable
    road_free_hexes: int
    track_free_hexes: int
    track_kinds: tuple[str, ...]
    box_bonus: int
    el_alamein_box_bonus: int
    infantry_plus_one: int
    infantry_plus_one_terrain: frozenset[str]
    infantry_plus_one_zones: tuple[str, ...]
    barriers: tuple[str, ...]
    stack_units: int
    stack_divisions: int
    movement_bonus: int
    spent_movement: int
    supply_line: int

    def split(self, result: str) -> tuple[str, str]:
        """A GCRT result as the codes of the defending and of the attacking units (SAR: S and AR)."""
        return self.results[result]

    def effect(self, code: str) -> Effect:
        return self.effects[code]


def _effect(t: Table) -> Effect:
    effect = Effect(
        t.bool("eliminated", False), t.bool("spent", False), t.int("distance", 0), t.int("voluntary", 0), t.str("blocked", "eliminated")
    )
    if effect.blocked not in BLOCKED:
        raise t.error("blocked", f"expected one of {', '.join(BLOCKED)}, got {effect.blocked!r}")
    for key, hexes in (("distance", effect.distance), ("voluntary", effect.voluntary)):
        if hexes < 0:
            raise t.error(key, f"expected hexes from 0, got {hexes}")
    t.done()
    return effect


def _codes(t: Table, key: str, known: dict[str, Effect]) -> dict[str, str]:
    table = t.table(key)
    out = {str(k): str(v) for k, v in table.items()}
    for k, v in out.items():
        if k not in known or v not in known:
            raise table.error(k, f"{k} -> {v}: both must be codes of [effects]")
    return out


def read_charts(t: Table) -> Charts:
    if t.str("format") != "tobruk-charts":
        raise t.error("format", "expected 'tobruk-charts'")
    if t.int("version") != 1:
        raise t.error("version", "this program reads charts version 1")
    et = t.table("effects")
    effects = {code: _effect(et.table(code)) for code in et.keys()}
    et.done()
    rt = t.table("results")
    results: dict[str, tuple[str, str]] = {}
    for code in rt.keys():
        pair = rt.strings(code)
        if len(pair) != 2 or any(c not in effects for c in pair):
            raise rt.error(code, "expected [the defenders' code, the attackers' code], both codes of [effects]")
        results[code] = (pair[0], pair[1])
    rt.done()
    gcrt = read_ratio_table(t.table("gcrt"), codes=frozenset(results))
    conv = t.table("conversions")
    no_retreat, survivable = _codes(conv, "no_retreat", effects), _codes(conv, "survivable", effects)
    conv.done()
    terrain, stacking, movement = t.table("terrain"), t.table("stacking"), t.table("movement")
    charts = Charts(
        gcrt=gcrt,
        results=results,
        effects=effects,
        no_retreat=no_retreat,
        survivable=survivable,
        air=read_column_table(t.table("air"), codes=AIR_CODES),
        road_free_hexes=terrain.int("road_free_hexes"),
        track_free_hexes=terrain.int("track_free_hexes"),
        track_kinds=tuple(terrain.strings("track_kinds")),
        box_bonus=terrain.int("box_bonus"),
        el_alamein_box_bonus=terrain.int("el_alamein_box_bonus"),
        infantry_plus_one=terrain.int("infantry_plus_one"),
        infantry_plus_one_terrain=frozenset(terrain.strings("infantry_plus_one_terrain")),
        infantry_plus_one_zones=tuple(terrain.strings("infantry_plus_one_zones")),
        barriers=tuple(terrain.strings("barriers")),
        stack_units=stacking.int("units"),
        stack_divisions=stacking.int("divisions"),
        movement_bonus=movement.int("bonus"),
        spent_movement=movement.int("spent"),
        supply_line=movement.int("supply_line"),
    )
    for part in (terrain, stacking, movement, t):
        part.done()
    return charts


def chart(game: Game) -> Charts:
    """The charts of the game's system instance."""
    charts: Charts = game.system.charts  # type: ignore[attr-defined]
    return charts
