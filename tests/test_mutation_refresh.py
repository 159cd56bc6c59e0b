"""The mutation run's copy of the project is brought up to date before each run (run.py): mutmut rewrites only the
Python files it mutates, so changed data files and docs are copied in, and the mutated Python files left alone."""

from __future__ import annotations

import json
from pathlib import Path

import run


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_changed_data_and_docs_are_copied_into_the_mutants_and_mutated_python_is_left_alone(tmp_path: Path) -> None:
    _write(tmp_path / "tobruk" / "data" / "map.toml", "new map")
    _write(tmp_path / "tobruk" / "rules.py", "original rules")
    _write(tmp_path / "docs" / "reconstruction.md", "new sources")
    _write(tmp_path / "run.py", "new runner")
    _write(tmp_path / "mutants" / "tobruk" / "data" / "map.toml", "old map")
    _write(tmp_path / "mutants" / "tobruk" / "rules.py", "mutated rules")
    run._refresh_mutants(tmp_path)
    assert (tmp_path / "mutants" / "tobruk" / "data" / "map.toml").read_text() == "new map"
    assert (tmp_path / "mutants" / "docs" / "reconstruction.md").read_text() == "new sources"
    assert (tmp_path / "mutants" / "run.py").read_text() == "new runner"
    assert (tmp_path / "mutants" / "tobruk" / "rules.py").read_text() == "mutated rules"


def test_nothing_is_made_before_mutmut_has_made_its_copy(tmp_path: Path) -> None:
    _write(tmp_path / "tobruk" / "data" / "map.toml", "map")
    run._refresh_mutants(tmp_path)
    assert not (tmp_path / "mutants").exists()


def test_the_mutants_left_alive_are_named_for_a_second_try(tmp_path: Path) -> None:
    """``run.py mutate --again`` tries again the mutants that survived or that no test reached; the caught and the
    unchecked are left out (mutmut's exit codes: 1 killed, 0 survived, 33 no tests, 37 type check, None not run)."""
    from tests.mutation_report import alive

    codes = {"m.x_f__mutmut_1": 1, "m.x_f__mutmut_2": 0, "m.x_f__mutmut_3": 33, "m.x_f__mutmut_4": 37, "m.x_f__mutmut_5": None}
    _write(tmp_path / "tobruk" / "m.py.meta", json.dumps({"exit_code_by_key": codes}))
    assert alive(tmp_path) == ["m.x_f__mutmut_2", "m.x_f__mutmut_3"]
