"""Shared helpers: tiny inline scenarios, so a test can describe a board in a few lines."""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

from tobruk.engine.system import forget_instances
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import Scenario, read_scenario
from tobruk.mechanics.counters import FamilyUnitDef, family_defs, family_unit

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tobruk.engine.dice import Dice
    from tobruk.engine.game import Game

# The mutation run (docs/testing.md) asks the property tests for fewer examples each: every surviving mutant runs
# them all again.
settings.register_profile("mutation", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BASE = """
format = "tobruk-scenario"
version = 1
title = "Test"
system = "gazala-gallop"
turns = {turns}

[map]
name = "test"
grid = {{ rows = {rows}, columns = {columns} }}
{map_extra}

{units}
"""


def unit_toml(
    uid: str, side: str, hex_: str | None, *, echelon: str = "division", type_: str = "armour", factors: str = "4-3-4", extra: str = ""
) -> str:
    where = f'hex = "{hex_}"' if hex_ else "off_map = true"
    return (
        f'[[unit]]\nid = "{uid}"\nname = "{uid}"\nside = "{side}"\nnationality = "test"\n'
        f'echelon = "{echelon}"\ntype = "{type_}"\nfactors = "{factors}"\n{where}\n{extra}\n'
    )


def make_scenario(units: str = "", *, rows: int = 5, columns: int = 5, map_extra: str = "", turns: int = 14, tail: str = "") -> Scenario:
    text = BASE.format(turns=turns, rows=rows, columns=columns, map_extra=map_extra, units=units) + tail
    data: dict[str, Any] = tomllib.loads(text)
    return read_scenario(Table(data, "inline.toml"), "inline")


@pytest.fixture(scope="session")
def gazala() -> Scenario:
    from tobruk.loading.scenario import load_scenario

    return load_scenario("gazala-gallop")


def at_phase(game: Game, key: str) -> Game:
    """Play end-phase (and fixed weather numbers) until the game reaches the phase ``key``."""
    from tobruk.mechanics.actions import EndPhase
    from tobruk.systems.gazala.actions import Weather

    for _ in range(500):
        d = game.decision
        if d is None:
            raise AssertionError(f"the game ended before phase {key}")
        if d.phase == key and d.clause != "GG-XII.B":
            return game
        game.play(Weather(1, 2) if d.phase == "weather" else EndPhase())
    raise AssertionError(f"never reached phase {key}")


def movement_game(
    units: str, map_extra: str = "", *, rows: int = 3, columns: int = 12, side: str = "axis", seed: int = 0, dice: Dice | None = None
) -> Game:
    """A game on a small inline map, at the given side's movement phase of turn 1, Allied units active."""
    from tobruk.engine.game import Game

    game = Game(make_scenario(units, rows=rows, columns=columns, map_extra=map_extra), seed=seed, dice=dice)
    for uid, d in family_defs(game).items():
        if d.side.value == "allied":
            family_unit(game, uid).activated = True
    return jump_to(game, f"{side}-movement")


def jump_to(game: Game, key: str) -> Game:
    """Arrange a test position: go straight to phase ``key`` of this turn, running only the phases that
    decide nothing (so the start-of-player-turn bookkeeping happens) and skipping everybody's decisions."""
    keys = [p.key for p in game.phases]
    target = keys.index(key)
    for i in range(game.state.step, target):
        step = game.phases[i]
        if not step.decides:
            step.finish(game)
    game.state.step = target
    game.step.enter(game)
    game._advance()  # a phase nobody decides runs at once, as in play
    return game


def attack_game(units: str, map_extra: str = "", *, rows: int = 3, columns: int = 8, side: str = "axis", dice: Dice | None = None) -> Game:
    """A game on a small inline map at the given side's attack phase of turn 1, Allied units active."""
    from tobruk.engine.game import Game

    game = Game(make_scenario(units, rows=rows, columns=columns, map_extra=map_extra), dice=dice)
    for uid, d in family_defs(game).items():
        if d.side.value == "allied":
            family_unit(game, uid).activated = True
    return jump_to(game, f"{side}-attacks")


def family(scenario: Scenario) -> list[FamilyUnitDef]:
    """A family scenario's counters, typed as the family's (its system's reader made them so)."""
    units = [u for u in scenario.units if isinstance(u, FamilyUnitDef)]
    assert len(units) == len(scenario.units), f"{scenario.name} has counters of another family"
    return units


def family_def(scenario: Scenario, uid: str) -> FamilyUnitDef:
    d = scenario.unit(uid)
    assert isinstance(d, FamilyUnitDef), f"{uid} is not a family counter"
    return d


@pytest.fixture
def browser() -> Iterator[Browser]:
    """A headless chromium (Debian's package, driven by Playwright) for one test of the page; skipped without it."""
    from tests.web.chromium import CHROMIUM, FLAGS

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _systems_afresh_while_mutmut_maps_the_tests() -> None:
    """In mutmut's mapping run (which records the functions each test calls, so that a mutant meets only the tests
    that call it), every test makes its systems afresh: a system is made once a process and kept, so its
    constructor's work (the charts read into its rules) would be mapped to the first test alone.  So are the other
    answers kept for the whole process (:func:`forget_process_memos`)."""
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        forget_instances()
        forget_process_memos()


def forget_process_memos() -> None:
    """Drop the answers the package keeps for the whole process rather than per game (``functools`` caches of pure
    functions, a dataclass's defaults, the labels of move blocks, the printed fields of counters), so that the next
    test works each out again: a function whose answer was kept would otherwise be mapped to the first test alone, and
    a mutant of it met by no other test that reads it."""
    from tobruk import view
    from tobruk.mechanics import move_blocks, reach

    for name, module in list(sys.modules.items()):
        if name == "tobruk" or name.startswith("tobruk."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                    value.cache_clear()
    for memo in (reach._CONTEXT_DEFAULTS, move_blocks._LABELS, view._PRINTED):
        memo.clear()
