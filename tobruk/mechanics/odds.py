"""Combat tables read from a system's charts: ratio CRTs (odds columns attacker:defender) and result tables
indexed by a named column and a die roll.

The numbers live in each system's ``charts.toml``; what a result code does is the system's rules.
Strengths are counted in halves (``2`` is one factor) so that halved units stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from tobruk.datafile import Table


@dataclass(frozen=True)
class RatioTable:
    """A ground combat results table by odds ratio: ``rows[die - 1][column]``."""

    columns: tuple[str, ...]
    ratios: tuple[tuple[int, int], ...]
    rows: tuple[tuple[str, ...], ...]

    def result(self, die: int, column: int) -> str:
        return self.rows[die - 1][column]

    def column_for(self, attack2: int, defence2: int) -> int | None:
        """The column nearest to but not above attack:defence, the last column at most; ``None`` below the
        first (an attack the table does not allow)."""
        if defence2 <= 0:
            return len(self.ratios) - 1
        best = None
        for i, (a, d) in enumerate(self.ratios):
            if attack2 * d >= a * defence2:
                best = i
        return best

    def shifted(self, column: int, shift: int) -> int:
        """A column moved ``shift`` columns to the right, kept on the table."""
        return max(0, min(column + shift, len(self.columns) - 1))


def read_ratio_table(g: Table, dice_faces: int = 6) -> RatioTable:
    columns = tuple(g.strings("columns"))
    ratios = []
    for i, c in enumerate(columns):
        a, _, d = c.partition(":")
        if not (a.isdigit() and d.isdigit()):
            raise g.error(f"columns[{i}]", f"expected an odds ratio like 3:2, got {c!r}")
        ratios.append((int(a), int(d)))
    rows = tuple(tuple(str(x) for x in r) for r in g.list("rows"))
    if len(rows) != dice_faces or any(len(r) != len(columns) for r in rows):
        raise g.error("rows", f"expected {dice_faces} rows of {len(columns)} results")
    g.done()
    return RatioTable(columns, tuple(ratios), rows)


@dataclass(frozen=True)
class ColumnTable:
    """Results by a named column and a die roll (an air table, a weather table ...)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def result(self, die: int, column: str) -> str:
        return self.rows[die - 1][self.columns.index(column)]


def read_column_table(t: Table, dice_faces: int = 6) -> ColumnTable:
    columns = tuple(t.strings("columns"))
    rows = tuple(tuple(str(x) for x in r) for r in t.list("rows"))
    if len(rows) != dice_faces or any(len(r) != len(columns) for r in rows):
        raise t.error("rows", f"expected {dice_faces} rows of {len(columns)} results")
    t.done()
    return ColumnTable(columns, rows)
