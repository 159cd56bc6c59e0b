"""Checked reading of data tables loaded from TOML/JSON (maps, scenarios, geography).

Every loader walks its data through a :class:`Table`, which knows the file and the dotted
path of each field, so a malformed file gets exactly one :class:`ScenarioError` naming the
file, the field and what was expected, and unknown keys (usually typos) are refused.
"""

from __future__ import annotations

import builtins
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

from tobruk.board.hexes import Hex, Hexside
from tobruk.engine.errors import ScenarioError

T = TypeVar("T")
DATA = Path(__file__).resolve().parent.parent / "data"  # the package's own data files (tobruk/data)
_MISSING = object()
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class Table:
    """A mapping read from a data file, with the file name and the path to it for errors."""

    def __init__(self, data: Mapping[str, Any], source: builtins.str, path: builtins.str = "") -> None:
        self.data = data
        self.source = source
        self.path = path
        self._seen: set[builtins.str] = set()

    def field(self, key: builtins.str) -> builtins.str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: builtins.str, problem: builtins.str) -> ScenarioError:
        return ScenarioError(self.source, self.field(key), problem)

    def has(self, key: builtins.str) -> bool:
        return key in self.data

    def keys(self) -> builtins.list[builtins.str]:
        return list(self.data)

    def _get(self, key: builtins.str, default: object) -> Any:
        self._seen.add(key)
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise ScenarioError(self.source, self.field(key), "missing (required)")
        return default

    def typed(self, key: builtins.str, kind: type[T] | tuple[type, ...], what: builtins.str, default: object = _MISSING) -> Any:
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) and kind is not bool and not (isinstance(kind, tuple) and bool in kind):
            raise self.error(key, f"expected {what}, got {value!r}")
        if not isinstance(value, kind):
            raise self.error(key, f"expected {what}, got {value!r}")
        return value

    def str(self, key: builtins.str, default: object = _MISSING) -> Any:
        return self.typed(key, str, "a string", default)

    def int(self, key: builtins.str, default: object = _MISSING) -> Any:
        return self.typed(key, int, "an integer", default)

    def number(self, key: builtins.str, default: object = _MISSING) -> Any:
        value = self.typed(key, (int, float), "a number", default)
        return float(value) if value is not None else None

    def bool(self, key: builtins.str, default: object = _MISSING) -> Any:
        return self.typed(key, bool, "true or false", default)

    def choice(self, key: builtins.str, choices: Mapping[builtins.str, T], default: object = _MISSING) -> Any:
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str) or value not in choices:
            raise self.error(key, f"expected one of {', '.join(sorted(choices))}, got {value!r}")
        return choices[value]

    def name(self, key: builtins.str, default: object = _MISSING) -> Any:
        """A name from an open vocabulary (a terrain, route or feature kind): lowercase words joined by '-'."""
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str) or not _NAME.match(value):
            raise self.error(key, f"expected a name of lowercase words joined by '-' (like major-track), got {value!r}")
        return value

    def table(self, key: builtins.str, default: object = _MISSING) -> Any:
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value if value is None else Table(cast(Mapping[builtins.str, Any], value), self.source, self.field(key))
        if not isinstance(value, Mapping):
            raise self.error(key, f"expected a table, got {value!r}")
        return Table(value, self.source, self.field(key))

    def list(self, key: builtins.str, default: object = _MISSING) -> Any:
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, list):
            raise self.error(key, f"expected a list, got {value!r}")
        return value

    def tables(self, key: builtins.str, default: object = _MISSING) -> builtins.list[Table]:
        items = self.list(key, default)
        if items is None:
            return []
        out: builtins.list[Table] = []
        for i, item in enumerate(items):
            if not isinstance(item, Mapping):
                raise self.error(f"{key}[{i}]", f"expected a table, got {item!r}")
            out.append(Table(item, self.source, f"{self.field(key)}[{i}]"))
        return out

    def strings(self, key: builtins.str, default: object = _MISSING) -> builtins.list[builtins.str]:
        items = self.list(key, default)
        if items is None:
            return []
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise self.error(f"{key}[{i}]", f"expected a string, got {item!r}")
        return list(items)

    def hex(self, key: builtins.str, default: object = _MISSING) -> Any:
        value = self.str(key, default)
        if value is default and default is not _MISSING:
            return value
        return self.parse_hex(key, value)

    def parse_hex(self, key: builtins.str, text: builtins.str) -> Hex:
        try:
            return Hex.parse(text)
        except ValueError as exc:
            raise self.error(key, str(exc)) from None

    def hexes(self, key: builtins.str, default: object = _MISSING) -> builtins.list[Hex]:
        return [self.parse_hex(f"{key}[{i}]", s) for i, s in enumerate(self.strings(key, default))]

    def parse_hexside(self, key: builtins.str, text: builtins.str) -> Hexside:
        try:
            return Hexside.parse(text)
        except ValueError as exc:
            raise self.error(key, str(exc)) from None

    def items(self) -> Iterator[tuple[builtins.str, Any]]:
        for key, value in self.data.items():
            self._seen.add(key)
            yield key, value

    def done(self) -> None:
        """Refuse keys nobody read: they are almost always misspellings."""
        unknown = sorted(set(self.data) - self._seen)
        if unknown:
            raise self.error(unknown[0], "unknown field (misspelt?)")


def read_toml(path: Path) -> Table:
    """Parse a TOML file; a syntax error becomes a :class:`ScenarioError` naming the file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(str(path), "(syntax)", str(exc)) from None
    except OSError as exc:
        raise ScenarioError(str(path), "(file)", exc.strerror or str(exc)) from None
    except UnicodeDecodeError:
        raise ScenarioError(str(path), "(file)", "not a text file (a scenario is TOML in UTF-8)") from None
    return Table(data, str(path))


def data_roots() -> builtins.list[Path]:
    """Where packaged data files live: ``tobruk/data`` and each game system's package (``tobruk/systems/<name>``),
    which holds its own charts, scenarios and maps."""
    systems = DATA.parent / "systems"
    return [DATA, *sorted(p for p in systems.iterdir() if p.is_dir() and (p / "__init__.py").exists())]


def packaged_path(folder: builtins.str, name: builtins.str) -> Path | None:
    """The packaged file ``<folder>/<name>.toml`` in the first data root that has it."""
    for root in data_roots():
        ref = root / folder / f"{name}.toml"
        if ref.is_file():
            return ref
    return None


def read_packaged_toml(folder: builtins.str, name: builtins.str) -> Table:
    """A TOML file shipped with the program: ``<folder>/<name>.toml`` under a data root."""
    shown = f"data/{folder}/{name}.toml"
    ref = packaged_path(folder, name) if name and "/" not in name and "\\" not in name and name not in (".", "..") else None
    if ref is None:
        raise ScenarioError(shown, "(file)", "no such packaged file")
    try:
        return Table(tomllib.loads(ref.read_text(encoding="utf-8")), shown)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(shown, "(syntax)", str(exc)) from None


def packaged_names(folder: builtins.str) -> builtins.list[builtins.str]:
    names: set[builtins.str] = set()
    for root in data_roots():
        base = root / folder
        if base.is_dir():
            names.update(p.name[: -len(".toml")] for p in base.iterdir() if p.name.endswith(".toml"))
    return sorted(names)
