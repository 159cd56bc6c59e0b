"""Combat tables read from a system's charts: ratio CRTs (odds columns attacker:defender) and result tables
indexed by a named column and a die roll.

The numbers live in each system's ``charts.toml``; what a result code does is the system's rules.
Strengths are counted in halves (``2`` is one factor) so that halved units stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from tobruk.loading.datafile import Table


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


def _rows(t: Table, key: str, width: int, faces: int, codes: frozenset[str] | None) -> tuple[tuple[str, ...], ...]:
    """One row per die face of ``width`` result codes each; with ``codes``, every one a code the rules define."""
    rows = t.list(key)
    if len(rows) != faces or any(not isinstance(r, list) or len(r) != width for r in rows):
        raise t.error(key, f"expected {faces} rows of {width} results")
    for i, row in enumerate(rows):
        for j, code in enumerate(row):
            if not isinstance(code, str) or (codes is not None and code not in codes):
                expected = f"; expected one of {', '.join(sorted(codes))}" if codes is not None else ""
                raise t.error(f"{key}[{i}][{j}]", f"unknown result {code!r}{expected}")
    return tuple(tuple(r) for r in rows)


def read_ratio_table(g: Table, dice_faces: int = 6, codes: frozenset[str] | None = None) -> RatioTable:
    """A ratio table: its columns (odds rising from column to column) and a row of results per die face."""
    columns = tuple(g.strings("columns"))
    ratios: list[tuple[int, int]] = []
    for i, c in enumerate(columns):
        a, _, d = c.partition(":")
        if not (a.isdigit() and d.isdigit()):
            raise g.error(f"columns[{i}]", f"expected an odds ratio like 3:2, got {c!r}")
        ratio = (int(a), int(d))
        if ratios and ratio[0] * ratios[-1][1] <= ratios[-1][0] * ratio[1]:
            raise g.error(f"columns[{i}]", f"odds must rise from column to column: {c} after {columns[i - 1]}")
        ratios.append(ratio)
    rows = _rows(g, "rows", len(columns), dice_faces, codes)
    g.done()
    return RatioTable(columns, tuple(ratios), rows)


@dataclass(frozen=True)
class ColumnTable:
    """Results by a named column and a die roll (an air table, a weather table ...)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def result(self, die: int, column: str) -> str:
        return self.rows[die - 1][self.columns.index(column)]


def read_column_table(t: Table, dice_faces: int = 6, codes: frozenset[str] | None = None) -> ColumnTable:
    columns = tuple(t.strings("columns"))
    rows = _rows(t, "rows", len(columns), dice_faces, codes)
    t.done()
    return ColumnTable(columns, rows)
