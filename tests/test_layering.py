"""The code's layering, proved on the source: imports point down, nothing but a system's own package imports it,
and no file outside a system's package names a game system.

The layers, bottom to top (a module may import its own layer and the layers below it):

* **engine**: the ``tobruk`` package root; ``tobruk/engine/`` (the game, the flow of steps and decisions, actions
  and their ids, the state arrays, variables, the ``System`` base and its registry, dice, errors, sides, the
  settings for many games); ``tobruk/systems/__init__.py`` (the namespace in which the registry looks for system
  packages); the model every system shares (``board/``: hexes, layout, maps, units); and the **data loading**: every
  module that turns a data file into validated values (``loading/``: datafile, mapfile, unitfile, scenario;
  ``geography/``: the geographic datasets and the map build).  Data loading is part of the engine layer, as in the
  design: a game is made from a ``Scenario`` (the engine imports the loader) and the loaders raise the engine's
  errors and ask the system registry what a system knows (the loader imports the engine), so the two cannot be
  ordered. What they share is that neither knows any game: data loading reads the formats, a system's package reads
  its own fields through the scenario loader's extensions.
* **mechanics**: ``tobruk/mechanics/``, the rules' library parameterised by data (reach, ZOC, supply,
  odds tables, the family's actions).
* **systems**: ``tobruk/systems/<name>/``, one package per game system with its code and packaged data.
  A system may import the layers below and its own package, never another system's package nor a face.
* **faces**: ``cli``, ``view``, ``record``, ``tools/`` (fuzz, arena, form), ``players/``, ``render/``, ``web/``.
  They rank above the systems but reach them only through the registry and the hooks, so a face imports
  no ``tobruk.systems.<name>`` module either.

A new module must be placed in a layer here (an unplaced one fails): that is the decision this test asks for.

The names: each system package's entry in ``SYSTEM_NAMES`` (``gazala``, ``campaign``, and ``alamein`` for the
system announced next), in any case, in the code and page files under ``tobruk/`` outside the system
packages.  Data files are not read: the shared geography names Gazala and El Alamein as places, which they
are.  Clause ids cited in a docstring are not names either (the model still cites the rules it was made for).

Why an AST walk rather than import-linter: the layers are sets of top-level modules more than packages
(the model and the loaders sit beside ``engine/``), the same test also checks the names in the text files
(Python, JavaScript, HTML, CSS) that no import graph sees, and forty lines of ``ast`` need no dependency.
Every import counts: at module level, inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tobruk"
SYSTEMS = PACKAGE / "systems"

ENGINE, MECHANICS, SYSTEM, FACES = "engine", "mechanics", "systems", "faces"
RANK = {ENGINE: 0, MECHANICS: 1, SYSTEM: 2, FACES: 3}

# modules and packages by layer (a package stands for every module under it, except those in ALONE)
LAYERS = {
    "tobruk": ENGINE,
    "tobruk.engine": ENGINE,
    "tobruk.systems": ENGINE,
    "tobruk.board": ENGINE,
    "tobruk.loading": ENGINE,
    "tobruk.geography": ENGINE,
    "tobruk.mechanics": MECHANICS,
    "tobruk.cli": FACES,
    "tobruk.view": FACES,
    "tobruk.record": FACES,
    "tobruk.tools": FACES,
    "tobruk.players": FACES,
    "tobruk.render": FACES,
    "tobruk.web": FACES,
}
# the root package and the systems' namespace stand for their __init__ alone (each package under
# tobruk/systems/ is a system)
ALONE = {"tobruk", "tobruk.systems"}

# what no file outside a system's package may say, by the package's directory; a package added under
# tobruk/systems/ needs its entry here (a test checks), and a system announced before its package has one too
SYSTEM_NAMES = {
    "gazala": "gazala",  # The Gazala Gallop, gazala-gallop
    "campaign": "campaign",  # the North-Africa campaign, north-africa-campaign
    "first_alamein": "alamein",  # 1st Alamein, first-alamein
    "operation_compass": "operation.compass",  # Operation Compass, operation-compass (not the geography's COMPASS points)
}
TEXT_SUFFIXES = (".py", ".js", ".html", ".css")

# known mentions outside a system package, each to be reworded when its file is next edited: (file, line)
KNOWN_MENTIONS: dict[tuple[str, str], str] = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def system_package(module: str) -> str | None:
    """The system package a module belongs to (``tobruk.systems.gazala``), if any."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["tobruk", "systems"] and (SYSTEMS / parts[2]).is_dir():
        return ".".join(parts[:3])
    return None


def layer(module: str) -> str | None:
    if system_package(module):
        return SYSTEM
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in LAYERS and (n == len(parts) or name not in ALONE):
            return LAYERS[name]
    return None


SOURCES = sorted(PACKAGE.rglob("*.py"))
MODULES = {module_name(p): p for p in SOURCES}


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every ``tobruk`` module a source imports, with the line: ``from a.b import c`` gives ``a.b`` and, if ``c``
    is a module, ``a.b.c``; relative imports are resolved against ``module``."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (
                ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
                if node.level
                else (node.module or "")
            )
            names = [base, *(f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES)]
        else:
            continue
        found += [(node.lineno, name) for name in names if name == "tobruk" or name.startswith("tobruk.")]
    return sorted(found)


def breach(importer: str, target: str) -> str | None:
    """What is wrong with ``importer`` importing ``target``, or None."""
    mine, theirs = layer(importer), layer(target)
    home, target_home = system_package(importer), system_package(target)
    if mine is None or theirs is None:
        return None  # an unplaced module: test_every_module_is_placed_in_a_layer names it
    if target_home is not None and target_home != home:
        return f"only {target_home}'s own modules may import it"
    if RANK[theirs] > RANK[mine]:
        return f"{mine} may not import {theirs}"
    return None


def test_every_module_is_placed_in_a_layer() -> None:
    unplaced = [name for name in MODULES if layer(name) is None]
    assert not unplaced, f"place these modules in a layer in this test's LAYERS: {unplaced}"


def test_every_system_package_has_its_name_to_check() -> None:
    packages = sorted(p.name for p in SYSTEMS.iterdir() if (p / "__init__.py").is_file())
    assert packages, "no system package found"
    assert not [p for p in packages if p not in SYSTEM_NAMES], "add each system's name to SYSTEM_NAMES"


def layering_breaches() -> list[str]:
    found = []
    for name, path in MODULES.items():
        for line, target in imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py"):
            problem = breach(name, target)
            if problem:
                found.append(f"{path.relative_to(ROOT)}:{line} imports {target}: {problem}")
    return found


def test_imports_point_down_and_no_one_but_a_system_imports_it() -> None:
    breaches = layering_breaches()
    assert not breaches, "\n".join(breaches)


NAMES = re.compile("|".join(SYSTEM_NAMES.values()), re.IGNORECASE)


def names_in(text: str) -> list[str]:
    return [m.group(0).lower() for m in NAMES.finditer(text)]


def mentions() -> list[tuple[str, int, str, str]]:
    """(file, line number, line, name) of every system name in a text file outside the system packages."""
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(ROOT)
        if path.suffix not in TEXT_SUFFIXES or (len(rel.parts) > 3 and system_package(".".join(rel.parts[:3]))):
            continue  # a system package's own code and packaged data may name it (and the places it shares names with)
        for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [(rel.as_posix(), i, text.strip(), word) for word in names_in(text)]
    return found


def test_no_file_outside_a_system_package_names_a_system() -> None:
    unexpected = [f"{f}:{i}: {word!r} in {text}" for f, i, text, word in mentions() if KNOWN_MENTIONS.get((f, text)) != word]
    assert not unexpected, "reword these so they name no system, or move the code into its package:\n" + "\n".join(unexpected)


def test_every_known_mention_is_still_there() -> None:
    """A reworded line leaves the list of known mentions (so the list only shrinks)."""
    seen = {(f, text) for f, _, text, _ in mentions()}
    assert not [k for k in KNOWN_MENTIONS if k not in seen], "remove these from KNOWN_MENTIONS: they are gone"


# --- the checks themselves, on small made-up sources (a check that finds nothing proves nothing) -------------


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("tobruk", ENGINE),
        ("tobruk.engine.game", ENGINE),
        ("tobruk.loading.scenario", ENGINE),
        ("tobruk.systems", ENGINE),
        ("tobruk.mechanics.reach", MECHANICS),
        ("tobruk.systems.gazala", SYSTEM),
        ("tobruk.systems.campaign.show", SYSTEM),
        ("tobruk.cli", FACES),
        ("tobruk.web.server", FACES),
        ("tobruk.render.svg", FACES),
        ("tobruk.novel", None),
        ("tobruk.systems.novel", None),  # a module beside the packages is no system's
    ],
)
def test_layer_of_a_module(module: str, expected: str | None) -> None:
    assert layer(module) == expected


def test_the_walk_finds_each_kind_of_import() -> None:
    source = (
        "from typing import TYPE_CHECKING\nimport tobruk.view\nfrom tobruk.systems import gazala\n"
        "if TYPE_CHECKING:\n    from tobruk.mechanics.reach import walk\n"
        "def f():\n    from .game import Game\n    from .. import cli\n"
    )
    assert imports_of(source, "tobruk.engine.made_up", False) == [
        (2, "tobruk.view"),
        (3, "tobruk.systems"),
        (3, "tobruk.systems.gazala"),
        (5, "tobruk.mechanics.reach"),
        (7, "tobruk.engine.game"),
        (8, "tobruk"),
        (8, "tobruk.cli"),
    ]
    # a package's relative imports start from the package itself
    assert imports_of("from . import show\n", "tobruk.systems.campaign", True) == [
        (1, "tobruk.systems.campaign"),
        (1, "tobruk.systems.campaign.show"),
    ]


@pytest.mark.parametrize(
    ("importer", "target", "refused"),
    [
        ("tobruk.engine.game", "tobruk.loading.scenario", False),  # the engine layer among itself, both ways
        ("tobruk.loading.scenario", "tobruk.engine.system", False),
        ("tobruk.engine.game", "tobruk.mechanics.odds", True),  # the engine imports nothing above it
        ("tobruk.loading.scenario", "tobruk.view", True),
        ("tobruk.mechanics.reach", "tobruk.board.maps", False),
        ("tobruk.mechanics.reach", "tobruk.cli", True),
        ("tobruk.mechanics.reach", "tobruk.systems.gazala.moves", True),
        ("tobruk.systems.gazala.moves", "tobruk.mechanics.reach", False),
        ("tobruk.systems.gazala.moves", "tobruk.systems.gazala.combat", False),  # its own package
        ("tobruk.systems.gazala", "tobruk.systems.campaign.track", True),  # another system's
        ("tobruk.systems.campaign.show", "tobruk.render.svg", True),  # a face
        ("tobruk.cli", "tobruk.engine.system", False),
        ("tobruk.cli", "tobruk.systems", False),  # the namespace, not a system
        ("tobruk.cli", "tobruk.systems.campaign.show", True),
        ("tobruk.web.server", "tobruk.systems.gazala.combat", True),
        ("tobruk.tools.form", "tobruk.render.svg", False),
    ],
)
def test_the_rule_for_one_import(importer: str, target: str, refused: bool) -> None:
    assert (breach(importer, target) is not None) is refused


def test_the_names_are_found_in_any_case() -> None:
    assert names_in("The Gazala Gallop; na-1st-alamein; CAMPAIGN_VIEW") == ["gazala", "alamein", "campaign"]
    assert names_in("a scenario's map, its order of battle, a system's package") == []


ROLLING = re.compile(r"\.dice\.(roll|draw|record|value)\(|\bDice\(|\bForcedDice\(")


def test_only_the_engine_rolls_dice() -> None:
    """Every roll is a chance node the engine resolves (tobruk.engine.chance): no rule, mechanic or face rolls a die or
    reads one before it falls.  (The engine's own modules, and what a side may know, which gives a drawn position
    dice of its own, are the exceptions.)"""
    found = []
    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("tobruk/engine/"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if ROLLING.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


# --- the faces that choose and referee actions name none -------------------------------------------------------
# The players choose through the systems' advisors and the web referee plays ids and fields: neither imports the rules
# (mechanics, systems) nor names an action type or a verb of any system, so a new system's actions need nothing of
# them.  A docstring may speak of moves and attacks; code may not name them.
NAMELESS = ("tobruk/players", "tobruk/web")


def action_names() -> tuple[set[str], set[str]]:
    """Every action type's class name and verb, of every registered system's vocabulary."""
    from tobruk.engine.system import registered_systems

    kinds = [t for system in registered_systems() for t in system.vocabulary]
    return {t.__name__ for t in kinds}, {t.verb for t in kinds}


def names_of_actions(source: str, classes: set[str], verbs: set[str]) -> list[str]:
    """The action classes a source names (as a name or an attribute) and the verbs it holds as strings outside
    docstrings (a verb alone, or at the head of notation: ``"move "``), with the line: words of a message that happen
    to be verbs ("another move was stored") are not the notation."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in classes:
            found.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in classes:
            found.append(f"{node.lineno}: {node.attr}")
        elif isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in classes:
            found.append(f"{node.lineno}: {node.name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            head = node.value.strip().split(" ", 1)[0]
            if head in verbs and (node.value.strip() == head or node.value.startswith(head + " ")):
                found.append(f"{node.lineno}: {head!r}")
    return found


def test_the_players_and_the_referee_import_no_rules_and_name_no_action() -> None:
    classes, verbs = action_names()
    assert {"Move", "Attack", "EndPhase"} <= classes and {"move", "end-phase", "target"} <= verbs
    found = []
    for folder in NAMELESS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = module_name(path)
            source = path.read_text(encoding="utf-8")
            found += [
                f"{path.relative_to(ROOT)}:{line} imports {target}"
                for line, target in imports_of(source, name, path.name == "__init__.py")
                if layer(target) in (MECHANICS, SYSTEM)
            ]
            found += [f"{path.relative_to(ROOT)}:{where}" for where in names_of_actions(source, classes, verbs)]
    assert not found, "\n".join(found)


def test_the_check_finds_action_names_in_code_not_in_docstrings() -> None:
    source = (
        '"""Moves toward the objectives."""\nfrom x import EndPhase\ndef f(a):\n    """end-phase when it may"""\n'
        '    return a.verb == "end-phase" or isinstance(a, m.Move) or f"move {a}" or "no move was stored"\n'
    )
    found = names_of_actions(source, {"EndPhase", "Move"}, {"end-phase", "move"})
    assert sorted(found) == ["2: EndPhase", "5: 'end-phase'", "5: 'move'", "5: Move"]
