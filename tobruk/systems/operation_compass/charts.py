"""Operation Compass's charts (``charts.toml``) read into typed values: the terrain effects, the bombardment table,
the ground support chits and naval support, the combat results table, the morale losses, the retreat DRMs, supply,
stacking and victory.  A typo in the file is one error naming the field (:class:`~tobruk.loading.datafile.Table`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from tobruk.engine.system import ResultTable
from tobruk.loading.datafile import Table
from tobruk.mechanics.reach import MF

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass(frozen=True, slots=True)
class Terrain:
    """OC-TER.1 and TER.2: costs in sixtieths of an MP (movement) or of a supply point, and the combat effects."""

    move: dict[str, int]
    supply: dict[str, int]
    hexside_move: dict[str, int]
    hexside_supply: dict[str, int]
    route_move: dict[str, int]
    route_supply: dict[str, int]
    impassable: tuple[str, ...]
    combat_drm: dict[str, int]
    fort_drm: int
    fortified_side: str
    sidi_barrani_drm: int
    sidi_barrani_zone: str
    halve_down: tuple[str, ...]
    halve_up: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CrtEntry:
    """One entry of the combat results table: the Allied and the Italian number, and whether it is red."""

    allied: int
    italian: int
    red: bool

    def __str__(self) -> str:
        return f"{self.allied}/{self.italian}" + (" (red)" if self.red else "")


@dataclass(frozen=True, slots=True)
class Crt:
    """OC-CRT.5: rows by net DRM (the first row for it and below, the last for it and above), columns by strength."""

    column_names: tuple[str, ...]
    column_from: tuple[int, ...]
    row_from: int
    rows: tuple[tuple[CrtEntry, ...], ...]

    def column(self, strength: int) -> int:
        """The column of a strength (the Allied attack strength less the Italian defence strength)."""
        found = 0
        for i, low in enumerate(self.column_from):
            if strength >= low:
                found = i
        return found

    def row(self, drm: int) -> int:
        return min(max(drm - self.row_from, 0), len(self.rows) - 1)

    def meanings(self) -> dict[str, str]:
        """What each entry the table holds means, for people, by the entry as the log writes it ("2/1"; a red one is
        written "3/1 (red)", so its numbers carry the red note too, ruling R-OC-RED making red the same numbers)."""
        out: dict[str, str] = {}
        for row in self.rows:
            for e in row:
                text = (
                    f"the Allied attack leader checks morale with +{e.allied}, each Italian defender with +{e.italian}"
                    " (OC-MC.1; failing by 1-4 costs 1 step, 5-7 two, 8 or more three, OC-MC.2)"
                )
                if e.red:
                    text += "; red: each Allied support unit in the stack also checks morale, with no modifier (OC-CRT.5)"
                out[f"{e.allied}/{e.italian}"] = text
        return out

    def table(self) -> ResultTable:
        """The table as the charts print it, for people: a row a net DRM (the first and the last open-ended), a red
        entry marked "*" (ruling R-OC-RED)."""
        last = self.row_from + len(self.rows) - 1

        def label(drm: int) -> str:
            return f"<= {drm}" if drm == self.row_from else f">= {drm}" if drm == last else str(drm)

        rows = tuple(
            (label(self.row_from + i), tuple(f"{e.allied}/{e.italian}" + ("*" if e.red else "") for e in row))
            for i, row in enumerate(self.rows)
        )
        title = "Combat results table (OC-CRT.5): rows by net DRM, columns by Allied less Italian strength; * a red entry"
        return ResultTable("crt", title, "DRM", self.column_names, rows)

    def entry(self, drm: int, strength: int) -> CrtEntry:
        return self.rows[self.row(drm)][self.column(strength)]


@dataclass(frozen=True, slots=True)
class Charts:
    terrain: Terrain
    bombardment_columns: tuple[str, ...]
    bombardment: tuple[tuple[int | None, ...], ...]  # by die 1-6, by column; None: no morale check
    least_bombardment: int
    chits: tuple[tuple[int, int], ...]  # by die 1-6: (Allied, Italian) chits drawn
    allied_cup: tuple[int, ...]
    italian_cup: tuple[int, ...]
    naval_zones: tuple[str, ...]
    naval_drm: tuple[int, ...]  # by modified roll 1-7
    naval_per_turn: int
    crt: Crt
    support_unit_drm: int
    retreating_drm: int
    surprise_drm: int
    surprise_turns: tuple[int, ...]
    armour_kinds: tuple[str, ...]
    infantry_kinds: tuple[str, ...]
    losses: tuple[tuple[int, int], ...]  # (failed by at least, steps lost), ascending
    retreat_from_turn: int
    retreat_cut_off: int
    strongholds: tuple[str, ...]
    stronghold_drm: int
    fort_unthreatened_drm: int
    per_allied_unit_eliminated: int
    threat_kinds: tuple[str, ...]
    supply_range: int  # in sixtieths of a supply point
    allied_stack: int
    italian_step_points: int
    allied_step_points: int
    place_points: dict[str, int]
    levels: tuple[tuple[int, str], ...]

    def steps_lost(self, failed_by: int) -> int:
        """OC-MC.2: the steps a unit loses for failing a morale check by ``failed_by`` (0 when it passed)."""
        out = 0
        for at_least, steps in self.losses:
            if failed_by >= at_least:
                out = steps
        return out


def _sixtieths(t: Table, key: str) -> dict[str, int]:
    table = t.table(key)
    out = {}
    for name, value in table.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0 or Fraction(value) * MF % 1:
            raise table.error(name, f"expected a cost of 0 or more in sixtieths, got {value!r}")
        out[name] = int(Fraction(value) * MF)
    return out


def _ints(t: Table, key: str) -> tuple[int, ...]:
    values = t.list(key)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise t.error(key, "expected whole numbers")
    return tuple(values)


def _pairs(t: Table, key: str) -> tuple[tuple[int, int], ...]:
    values = t.list(key)
    if not all(isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v) for v in values):
        raise t.error(key, "expected pairs of whole numbers")
    return tuple((v[0], v[1]) for v in values)


def _entry(t: Table, key: str, text: object) -> CrtEntry:
    if not isinstance(text, str):
        raise t.error(key, f"expected an entry such as '1/3' or '3/1*', got {text!r}")
    red = text.endswith("*")
    allied, _, italian = text.rstrip("*").partition("/")
    if not (allied.isdigit() and italian.isdigit()):
        raise t.error(key, f"expected an entry such as '1/3' or '3/1*', got {text!r}")
    return CrtEntry(int(allied), int(italian), red)


def read_charts(t: Table) -> Charts:
    if t.str("format") != "tobruk-charts" or t.int("version") != 1:
        raise t.error("format", "expected format 'tobruk-charts', version 1")
    te = t.table("terrain")
    terrain = Terrain(
        _sixtieths(te, "move"),
        _sixtieths(te, "supply"),
        _sixtieths(te, "hexside_move"),
        _sixtieths(te, "hexside_supply"),
        _sixtieths(te, "route_move"),
        _sixtieths(te, "route_supply"),
        tuple(te.strings("impassable")),
        {k: int(v) for k, v in te.table("combat_drm").items()},
        te.int("fort_drm"),
        te.str("fortified_side"),
        te.int("sidi_barrani_drm"),
        te.str("sidi_barrani_zone"),
        tuple(te.strings("halve_down")),
        tuple(te.strings("halve_up")),
    )
    bt = t.table("bombardment")
    columns = tuple(bt.strings("columns"))
    rows = bt.list("rows")
    if len(rows) != 6 or any(not isinstance(r, list) or len(r) != len(columns) for r in rows):
        raise bt.error("rows", f"expected 6 rows (die 1-6) of {len(columns)} entries")
    bombardment = tuple(tuple(None if v == "none" else int(v) for v in row) for row in rows)
    gs = t.table("ground_support")
    chits = _pairs(gs, "chits")
    if len(chits) != 6:
        raise gs.error("chits", "expected 6 pairs (die 1-6)")
    nt = t.table("naval")
    ct = t.table("crt")
    names = tuple(ct.strings("column_names"))
    starts = _ints(ct, "column_from")
    if len(starts) != len(names) or list(starts) != sorted(starts):
        raise ct.error("column_from", "expected one ascending lowest strength per column")
    crt_rows = ct.list("rows")
    if any(not isinstance(r, list) or len(r) != len(names) for r in crt_rows):
        raise ct.error("rows", f"expected rows of {len(names)} entries")
    crt = Crt(
        names,
        starts,
        ct.int("row_from"),
        tuple(tuple(_entry(ct, f"rows[{i}][{j}]", text) for j, text in enumerate(row)) for i, row in enumerate(crt_rows)),
    )
    at = t.table("assault")
    mt = t.table("morale")
    rt = t.table("retreat")
    vt = t.table("victory")
    levels = vt.list("levels")
    charts = Charts(
        terrain,
        columns,
        bombardment,
        bt.int("least_strength"),
        chits,
        _ints(gs, "allied_cup"),
        _ints(gs, "italian_cup"),
        tuple(nt.strings("bonus_zones")),
        _ints(nt, "drm_by_roll"),
        nt.int("assaults_per_turn"),
        crt,
        at.int("support_unit_drm"),
        at.int("retreating_drm"),
        at.int("surprise_drm"),
        _ints(at, "surprise_turns"),
        tuple(at.strings("armour_kinds")),
        tuple(at.strings("infantry_kinds")),
        _pairs(mt, "losses"),
        rt.int("from_turn"),
        rt.int("cut_off"),
        tuple(rt.strings("strongholds")),
        rt.int("stronghold"),
        rt.int("fort_unthreatened"),
        rt.int("per_allied_unit_eliminated"),
        tuple(rt.strings("threat_kinds")),
        t.table("supply").int("range") * MF,
        t.table("stacking").int("allied_units"),
        vt.int("italian_step"),
        vt.int("allied_step"),
        {k: int(v) for k, v in vt.table("places").items()},
        tuple((int(a), str(b)) for a, b in levels),
    )
    if len(charts.naval_drm) != 7:
        raise nt.error("drm_by_roll", "expected 7 DRMs (modified rolls 1-7)")
    return charts


def chart(game: Game) -> Charts:
    """The charts of the game's system (read once per system instance)."""
    charts = getattr(game.system, "charts", None)
    if not isinstance(charts, Charts):
        raise TypeError(f"{game.system.name} has no Operation Compass charts")
    return charts
