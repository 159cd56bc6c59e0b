"""The engine's tests are about the engine, for whatever system: no file here imports a system's package, the
family's mechanics, or the tests and helpers of either (an engine test reaches a system through the registry,
``tobruk.engine.system``, and the games of :mod:`tests.engine.cases`; the toy system, ``tests/toy_system.py``, is the
test-only one it may name), and none names a packaged system or scenario.  Rule-level tests of a system belong under
``tests/systems/<system>/``, of the family's mechanics under ``tests/mechanics/``.

Every import counts (at module level, inside functions, relative ones resolved), as in ``tests/test_layering.py``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.engine.cases import CASES, packaged
from tests.test_layering import SYSTEM_NAMES
from tests.toy_system import NAME as TOY_SYSTEM
from tobruk.engine.system import forget_instances, system_for, system_names

HERE = Path(__file__).resolve().parent
PACKAGE = "tests.engine"
# what an engine test may not import (a module or anything under it)
FORBIDDEN = ("tobruk.systems", "tobruk.mechanics", "tests.systems", "tests.mechanics", "tests.conftest")


def imports_of(source: str, package: str = PACKAGE) -> list[tuple[int, str]]:
    """Every module a source imports, with the line (``from a import b`` gives ``a`` and ``a.b``: ``b`` may be a
    module); relative imports are resolved against ``package``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = (
                ".".join([*parts[: len(parts) - node.level + 1], *([node.module] if node.module else [])])
                if node.level
                else node.module or ""
            )
            found += [(node.lineno, base), *((node.lineno, f"{base}.{a.name}") for a in node.names)]
    return sorted(found)


def forbidden(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN)


def sources() -> list[Path]:
    return sorted(HERE.glob("*.py"))


def names() -> re.Pattern[str]:
    """A system's name (the words the layering test keeps out of the engine), a packaged system's or scenario's."""
    words = {*SYSTEM_NAMES.values(), *(n for n in system_names(playable=False) if n != TOY_SYSTEM), *packaged()}
    for scenarios in packaged().values():
        words |= {name for name, _ in scenarios}
    return re.compile("|".join(sorted(map(re.escape, words), key=len, reverse=True)), re.IGNORECASE)


def test_every_playable_system_has_a_case() -> None:
    assert {c.system for c in CASES} == set(system_names()), "give each playable system a packaged scenario"
    for case in CASES:
        scenario = case.load()
        assert scenario.system == case.system and set(case.options) <= {o.name for o in scenario.options}


def test_no_engine_test_imports_a_system_or_the_mechanics() -> None:
    found = [
        f"tests/engine/{path.name}:{line} imports {module}"
        for path in sources()
        for line, module in imports_of(path.read_text(encoding="utf-8"))
        if forbidden(module)
    ]
    assert not found, "move the test to tests/systems/ or tests/mechanics/, or reach the system through the registry:\n" + "\n".join(found)


def test_no_engine_test_names_a_system_or_a_packaged_scenario() -> None:
    pattern = names()
    found = [
        f"tests/engine/{path.name}:{n}: {m.group(0)!r}"
        for path in sources()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for m in pattern.finditer(line)
    ]
    assert not found, "an engine test runs on tests.engine.cases.CASES, naming no system:\n" + "\n".join(found)


# --- the checks themselves, on small made-up sources (a check that finds nothing proves nothing) ------------------


def test_the_walk_finds_each_kind_of_import_and_the_forbidden_ones() -> None:
    source = (
        "import tobruk.mechanics.reach\nfrom tobruk.systems import made_up\nfrom tests.conftest import movement_game\n"
        "def f():\n    from ..systems.made_up import kit\n    from . import cases\n    from tobruk.engine.system import system_for\n"
    )
    found = imports_of(source)
    assert found == [
        (1, "tobruk.mechanics.reach"),
        (2, "tobruk.systems"),
        (2, "tobruk.systems.made_up"),
        (3, "tests.conftest"),
        (3, "tests.conftest.movement_game"),
        (5, "tests.systems.made_up"),
        (5, "tests.systems.made_up.kit"),
        (6, "tests.engine"),
        (6, "tests.engine.cases"),
        (7, "tobruk.engine.system"),
        (7, "tobruk.engine.system.system_for"),
    ]
    assert sorted({line for line, module in found if forbidden(module)}) == [1, 2, 3, 5]
    assert not forbidden("tobruk.engine.system") and not forbidden("tests.toy_system") and not forbidden("tobruk.mechanicsx")


def test_the_names_are_found_in_any_case() -> None:
    pattern = names()
    every = [name for name, _ in (s for scenarios in packaged().values() for s in scenarios)]
    assert every and all(pattern.search(name.upper()) for name in every)
    assert all(pattern.search(name) for name in SYSTEM_NAMES.values())
    assert not pattern.search("a toy skirmish on a map of a scenario, its units and its sides")


def test_a_system_is_made_once_a_process_until_its_instances_are_forgotten() -> None:
    """The one instance per system (its charts read once); the mutation run's mapping forgets them before each test
    (tests/conftest.py), so that every test that uses a system runs its constructor."""
    kept = system_for(TOY_SYSTEM)
    assert system_for(TOY_SYSTEM) is kept
    forget_instances()
    again = system_for(TOY_SYSTEM)
    assert again is not kept and type(again) is type(kept)
