"""The help a player reads about a rule clause: each system's ``help.toml``, read, checked and indexed by clause id.

Every refusal and prompt names the clause that decides it ("[GG-XIII.A.1] 15Pz has moved"); the browser table turns
each id into a link to a short page saying, in this project's own words, what the clause makes happen in play and
how docs/rulings.md decides its unclear points.  The designer's texts are his copyright, so the help is written
anew, never quoted: the tests check that no run of words is copied from the rules or the clause indexes.

A system's help lives beside its charts (``tobruk/systems/<package>/help.toml``); a clause id's prefix ("GG" of
"GG-XIII.A.1") names the system the clause belongs to, so a system that borrows another's rules, and cites their
clauses in its refusals, opens the other system's pages for them.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tobruk.engine.errors import ScenarioError
from tobruk.loading.datafile import Table

FORMAT = "tobruk-help"
CLAUSE = re.compile(r"^([A-Z]{2})-[A-Za-z0-9.]+$")
MOST_SENTENCES = 3  # a help text says what the clause does in a few plain sentences, no more


@dataclass(frozen=True, slots=True)
class ClauseHelp:
    """One clause's page: its id, a short title, what it makes happen in play, and this program's ruling (or None)."""

    clause: str
    title: str
    text: str
    ruling: str | None


@dataclass(frozen=True, slots=True)
class SystemHelp:
    """A system's help: its name and title as the registry knows them, and its clauses in the order of its rules."""

    system: str
    title: str
    prefix: str
    clauses: tuple[ClauseHelp, ...]

    def find(self, clause: str) -> ClauseHelp | None:
        return next((c for c in self.clauses if c.clause == clause), None)

    def section(self, clause: str) -> tuple[ClauseHelp, ...]:
        """The clauses under a section's id (GG-V.B: GG-V.B.1, GG-V.B.2 ...), which a scenario's option may cite."""
        return tuple(c for c in self.clauses if c.clause.startswith(clause + "."))

    def neighbours(self, clause: str) -> tuple[ClauseHelp | None, ClauseHelp | None]:
        """The clauses before and after ``clause`` in the rules' order (None at either end)."""
        ids = [c.clause for c in self.clauses]
        i = ids.index(clause)
        return (self.clauses[i - 1] if i > 0 else None, self.clauses[i + 1] if i + 1 < len(ids) else None)


def sentences(text: str) -> int:
    """How many sentences a help text has (a full stop, question or exclamation mark followed by a space or the end;
    the stops inside clause ids such as GG-XI.A.1 and figures such as 2.5 do not end one)."""
    return len(re.findall(r"[.!?](?=\s|$)", text.strip()))


def read_help(data: dict[str, object], source: str, system: str, prefix: str) -> tuple[ClauseHelp, ...]:
    """The clauses of one ``help.toml`` (parsed as ``data``), checked: its format, its system's name, every id of the
    system's prefix and written once, a title and a text of at most :data:`MOST_SENTENCES` sentences each."""
    top = Table(data, source)
    if top.str("format") != FORMAT:
        raise top.error("format", f"expected {FORMAT!r}")
    if top.int("version") != 1:
        raise top.error("version", "expected 1")
    if top.str("system") != system:
        raise top.error("system", f"expected {system!r}, the system whose package holds the file")
    clauses = top.table("clauses")
    top.done()
    out: list[ClauseHelp] = []
    for clause, _entry in clauses.items():
        match = CLAUSE.match(clause)
        if match is None or match.group(1) != prefix:
            raise clauses.error(clause, f"not a clause id of this system (expected {prefix}-...)")
        entry = clauses.table(clause)
        title, text = entry.str("title").strip(), entry.str("text").strip()
        ruling = entry.str("ruling", None)
        entry.done()
        for key, value in (("title", title), ("text", text), ("ruling", ruling or "x")):
            if not value:
                raise entry.error(key, "empty")
        for key, value in (("text", text), ("ruling", ruling or "")):
            if sentences(value) > MOST_SENTENCES:
                raise entry.error(key, f"more than {MOST_SENTENCES} sentences: help is a short page")
        out.append(ClauseHelp(clause, title, text, ruling.strip() if ruling else None))
    return tuple(out)


def _package_of(module_name: str) -> str | None:
    module = sys.modules.get(module_name)
    return module.__package__ if module is not None else None


@cache
def all_help() -> dict[str, SystemHelp]:
    """Every registered system's help, by clause prefix ("GG", "FA" ...), read once; a system without ``help.toml``
    has none (the tests require one of each system)."""
    from tobruk.engine.system import registered_systems

    out: dict[str, SystemHelp] = {}
    for kind in registered_systems():
        package = _package_of(kind.__module__)
        if not package:
            continue
        ref = resources.files(package).joinpath("help.toml")
        if not ref.is_file():
            continue
        source = f"{package.replace('.', '/')}/help.toml"
        try:
            data = tomllib.loads(ref.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ScenarioError(source, "(syntax)", str(exc)) from None
        out[kind.prefix] = SystemHelp(kind.name, kind.title, kind.prefix, read_help(data, source, kind.name, kind.prefix))
    return out


def system_help(name: str) -> SystemHelp | None:
    """The help of the system called ``name`` (its registered name), None if it has none."""
    return next((h for h in all_help().values() if h.system == name), None)


def section_help(clause: str) -> tuple[SystemHelp, tuple[ClauseHelp, ...]] | None:
    """The help of the clauses under a section's id, with its system's, None if no clause is under it."""
    match = CLAUSE.match(clause)
    found = all_help().get(match.group(1)) if match else None
    under = found.section(clause) if found else ()
    return (found, under) if found and under else None


def clause_help(clause: str) -> tuple[SystemHelp, ClauseHelp] | None:
    """The help of a clause id, with its system's, None for an id no system's help holds."""
    match = CLAUSE.match(clause)
    found = all_help().get(match.group(1)) if match else None
    entry = found.find(clause) if found else None
    return (found, entry) if found and entry else None
