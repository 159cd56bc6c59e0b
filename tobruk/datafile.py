"""Checked reading of data tables loaded from TOML/JSON (maps, scenarios, geography).

Every loader walks its data through a :class:`Table`, which knows the file and the dotted
path of each field, so a malformed file gets exactly one :class:`ScenarioError` naming the
file, the field and what was expected, and unknown keys (usually typos) are refused.
"""

from __future__ import annotations

import builtins
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

from tobruk.errors import ScenarioError
from tobruk.hexes import Hex, Hexside

T = TypeVar("T")
DATA = Path(__file__).resolve().parent / "data"  # the package's own data files
_MISSING = object()


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


def read_packaged_toml(folder: str, name: str) -> Table:
    """A TOML file shipped in ``tobruk/data/<folder>/<name>.toml``."""
    ref = DATA / folder / f"{name}.toml"
    try:
        text = ref.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        raise ScenarioError(f"data/{folder}/{name}.toml", "(file)", "no such packaged file") from None
    try:
        return Table(tomllib.loads(text), f"data/{folder}/{name}.toml")
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"data/{folder}/{name}.toml", "(syntax)", str(exc)) from None


def packaged_names(folder: str) -> list[str]:
    base = DATA / folder
    return sorted(p.name[: -len(".toml")] for p in base.iterdir() if p.name.endswith(".toml"))
