"""The rules' help (each system's ``help.toml``, :mod:`tobruk.loading.helpfile`): a short page for every clause of each
system's clause index and for no other, every clause id the program cites covered, each page a few plain sentences,
and none of them copied from the designer's texts.

The clause indexes and the rule texts are not in the project (the texts are the designer's): the tests that read them
read the folder the ``TOBRUK_RULES`` environment variable names, and are skipped without it, as the browser tests are
without chromium.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tobruk.engine.errors import ScenarioError
from tobruk.engine.system import registered_systems
from tobruk.loading.helpfile import MOST_SENTENCES, all_help, clause_help, read_help, section_help, sentences, system_help

ROOT = Path(__file__).resolve().parents[1]
INDEXES = {
    "GG": "gazala-gallop-clauses.md",
    "FA": "first-alamein-clauses.md",
    "OC": "operation-compass-clauses.md",
    "CA": "desert-campaign-clauses.md",
}
INDEX_LINE = re.compile(r"^- ((?:GG|FA|OC|CA)-\S+)\s+(.+)$")
RUN = 8  # words: a run this long in common with the designer's text is a copied sentence, not a shared phrase


def _rules_dir() -> Path | None:
    named = os.environ.get("TOBRUK_RULES")
    folder = Path(named) if named else None
    return folder if folder is not None and all((folder / name).is_file() for name in INDEXES.values()) else None


RULES = _rules_dir()
needs_rules = pytest.mark.skipif(RULES is None, reason="TOBRUK_RULES names no folder of the clause indexes and rule texts")


def index_lines(prefix: str) -> dict[str, str]:
    """A clause index's lines, by clause id (the index's one form: ``- ID  paraphrase``)."""
    assert RULES is not None
    out: dict[str, str] = {}
    for line in (RULES / INDEXES[prefix]).read_text(encoding="utf-8").splitlines():
        m = INDEX_LINE.match(line)
        if m:
            assert m.group(1) not in out, f"{INDEXES[prefix]}: {m.group(1)} twice"
            out[m.group(1)] = m.group(2)
    return out


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def runs(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + RUN]) for i in range(len(w) - RUN + 1)}


def test_every_system_has_help() -> None:
    packaged = {kind.prefix for kind in registered_systems() if kind.__module__.startswith("tobruk.systems.")}
    assert packaged == set(all_help()) == set(INDEXES)


@needs_rules
@pytest.mark.parametrize("prefix", sorted(INDEXES))
def test_every_clause_of_the_index_has_help_and_no_other(prefix: str) -> None:
    listed = index_lines(prefix)
    written = [c.clause for c in all_help()[prefix].clauses]
    assert sorted(set(listed) - set(written)) == [], "clauses of the index with no help"
    assert sorted(set(written) - set(listed)) == [], "help for clauses the index does not have"
    assert written == list(listed), "the help follows the index's order (its pages link to their neighbours)"


@needs_rules
def test_no_help_copies_the_designers_words() -> None:
    assert RULES is not None
    theirs: set[tuple[str, ...]] = set()
    for path in sorted(RULES.glob("*.txt")):
        theirs |= runs(path.read_text(encoding="utf-8", errors="replace"))
    for prefix in INDEXES:
        for line in index_lines(prefix).values():
            theirs |= runs(line)
    copied = []
    for system in all_help().values():
        for c in system.clauses:
            for part in (c.title, c.text, c.ruling or ""):
                copied += [(c.clause, " ".join(r)) for r in runs(part) & theirs]
    assert copied == []


def test_every_clause_the_program_cites_has_help() -> None:
    """A refusal, a prompt or a log line names its clause by a literal id in the code, a scenario's option in its file:
    each opens a page (a section's id, such as an option's GG-V.B, the page of the clauses under it)."""
    cited = set()
    for path in [*(ROOT / "tobruk").rglob("*.py"), *(ROOT / "tobruk").rglob("*.toml")]:
        if path.name != "help.toml":
            cited |= set(re.findall(r"[\"']((?:GG|FA|OC|CA)-[A-Za-z0-9.]*[A-Za-z0-9])[\"']", path.read_text(encoding="utf-8")))
    assert len(cited) > 50 and "GG-V.B" in cited
    assert sorted(c for c in cited if clause_help(c) is None and section_help(c) is None) == []


def test_each_page_is_short_and_plain() -> None:
    for system in all_help().values():
        for c in system.clauses:
            assert 1 <= sentences(c.text) <= MOST_SENTENCES, c.clause
            assert len(c.text) <= 400 and len(c.title) <= 60, c.clause
            assert c.ruling is None or (sentences(c.ruling) <= 2 and len(c.ruling) <= 300), c.clause
            assert "<" not in c.text + c.title + (c.ruling or ""), c.clause  # plain text: the pages escape it anyway


def test_unknown_clauses_have_no_help() -> None:
    for clause in ("GG-XIII.Z.9", "GG-XIII", "XX-I.1", "gg-xiii.a.1", "", "FA-CRT.9", "CA-SC.10"):
        assert clause_help(clause) is None, clause
    assert clause_help("GG-XIII.A.1") is not None
    assert section_help("GG-XIII.A.1") is None and section_help("GG-XIII.Z") is None
    assert [c.clause for c in (section_help("GG-V.B") or (None, ()))[1]] == ["GG-V.B.1", "GG-V.B.2", "GG-V.B.3"]
    assert system_help("no-such-system") is None
    system, entry = clause_help("FA-CRT.4") or (None, None)
    assert system is not None and entry is not None and system.system == "first-alamein" and system.neighbours("FA-CRT.4")[0]


def _file(system: str = "gazala-gallop", **clauses: dict[str, str]) -> dict[str, object]:
    return {"format": "tobruk-help", "version": 1, "system": system, "clauses": {k.replace("_", "-"): v for k, v in clauses.items()}}


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (_file(FA_CRT_1={"title": "t", "text": "x."}), "FA-CRT-1"),
        (_file("first-alamein"), "system"),
        (_file(GG_IV={"title": "t"}), "text"),
        (_file(GG_IV={"title": "t", "text": "x.", "rule": "y"}), "rule"),
        (_file(GG_IV={"title": "t", "text": "A. B. C. D."}), "sentences"),
        (_file(GG_IV={"title": " ", "text": "x."}), "empty"),
    ],
)
def test_a_malformed_help_file_is_refused(data: dict[str, object], problem: str) -> None:
    with pytest.raises(ScenarioError, match=re.escape(problem)):
        read_help(data, "help.toml", "gazala-gallop", "GG")
