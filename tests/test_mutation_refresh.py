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


def _meta(codes: dict[str, int | None], hashes: dict[str, str]) -> str:
    return json.dumps(
        {
            "exit_code_by_key": codes,
            "hash_by_function_name": hashes,
            "type_check_error_by_key": {},
            "durations_by_key": {},
            "estimated_durations_by_key": {},
        }
    )


def test_the_record_brings_a_run_s_results_into_a_fresh_clone(tmp_path: Path) -> None:
    """A run's results are kept in the project (tests/mutation-record.json) and written back as mutmut's own files in a
    clone that has none: mutmut then keeps each result whose function is unchanged and checks only the rest."""
    from tests.mutation_record import restore, save

    codes: dict[str, int | None] = {
        "tobruk.rules.x_f__mutmut_1": 1,
        "tobruk.rules.x_f__mutmut_2": 0,
        "tobruk.rules.x_f__mutmut_3": None,
        "tobruk.rules.xǁUnitǁmove__mutmut_1": 37,
        "tobruk.rules.xǁUnitǁmove__mutmut_2": 33,
    }
    hashes = {"x_f": "0123456789ab", "xǁUnitǁmove": "ba9876543210", "x_g": "00000000000"}  # (x_g: a function with no mutants)
    run_folder, clone = tmp_path / "run" / "mutants", tmp_path / "clone" / "mutants"
    _write(run_folder / "tobruk" / "rules.py.meta", _meta(codes, hashes))
    record = tmp_path / "record.json"
    assert save(run_folder, record) == 5
    assert restore(clone, record) == 5
    restored = json.loads((clone / "tobruk" / "rules.py.meta").read_text())
    assert restored["exit_code_by_key"] == codes
    assert restored["hash_by_function_name"] == {"x_f": "0123456789ab", "xǁUnitǁmove": "ba9876543210"}
    # a clone whose run has results of its own keeps them: they are newer than the record
    _write(clone / "tobruk" / "rules.py.meta", _meta({"tobruk.rules.x_f__mutmut_1": 0}, {"x_f": "fedcba987654"}))
    assert restore(clone, record) == 0
    assert json.loads((clone / "tobruk" / "rules.py.meta").read_text())["exit_code_by_key"] == {"tobruk.rules.x_f__mutmut_1": 0}


def test_a_record_of_another_mutmut_is_not_restored(tmp_path: Path) -> None:
    """Another mutmut may number a function's mutants otherwise: its results would be read for other mutants."""
    from tests.mutation_record import restore

    record = tmp_path / "record.json"
    record.write_text(json.dumps({"mutmut": "0.1", "files": {"tobruk/rules.py": {"module": "tobruk.rules", "functions": {}}}}))
    assert restore(tmp_path / "mutants", record) == 0
    assert not (tmp_path / "mutants").exists()
    assert restore(tmp_path / "mutants", tmp_path / "none.json") == 0  # (no record yet)


def test_the_mutants_not_checked_yet_are_named_for_a_run_that_goes_on(tmp_path: Path) -> None:
    """``run.py mutate --unchecked PATTERN`` runs only the mutants not checked yet of those the pattern names: mutmut
    would try every mutant named to it again, checked or not."""
    from tests.mutation_report import unchecked

    rules = {"tobruk.rules.x_f__mutmut_1": 1, "tobruk.rules.x_f__mutmut_2": None, "tobruk.rules.x_g__mutmut_1": None}
    _write(tmp_path / "tobruk" / "rules.py.meta", json.dumps({"exit_code_by_key": rules}))
    _write(tmp_path / "tobruk" / "other.py.meta", json.dumps({"exit_code_by_key": {"tobruk.other.x_h__mutmut_1": None}}))
    assert unchecked(tmp_path) == ["tobruk.other.x_h__mutmut_1", "tobruk.rules.x_f__mutmut_2", "tobruk.rules.x_g__mutmut_1"]
    assert unchecked(tmp_path, ["tobruk.rules.*"]) == ["tobruk.rules.x_f__mutmut_2", "tobruk.rules.x_g__mutmut_1"]
    assert unchecked(tmp_path, ["tobruk.rules.x_g*", "tobruk.other.*"]) == ["tobruk.other.x_h__mutmut_1", "tobruk.rules.x_g__mutmut_1"]


def test_the_score_is_summed_per_package(tmp_path: Path) -> None:
    """docs/testing.md gives the figures per game system: each package's mutants, how many were checked and how many
    caught (a failed test, the type check or a time-out; a survivor or a mutant no test reaches is not)."""
    from tests.mutation_report import by_part

    gazala = {"a_1": 1, "a_2": 0, "a_3": 37, "a_4": None, "a_5": 36}
    _write(tmp_path / "tobruk" / "systems" / "gazala" / "moves.py.meta", json.dumps({"exit_code_by_key": gazala}))
    _write(tmp_path / "tobruk" / "systems" / "gazala" / "air.py.meta", json.dumps({"exit_code_by_key": {"b_1": 33, "b_2": 3}}))
    _write(tmp_path / "tobruk" / "mechanics" / "reach.py.meta", json.dumps({"exit_code_by_key": {"c_1": None}}))
    assert by_part(tmp_path) == {"mechanics": (1, 0, 0), "systems/gazala": (7, 6, 4)}
