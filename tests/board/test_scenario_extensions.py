"""The scenario loader hands a system's own fields to the extension of the system its package registered, by field.

The loader names no system (tests/test_layering.py proves it on the source); these tests prove the hand-over
with an extension made up here, so they hold whatever the packaged systems register.
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

import tobruk.engine.system as system_module
from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.board.units import UnitDef
from tobruk.engine.errors import ScenarioError
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState
from tobruk.engine.system import System
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import (
    Reinforcement,
    Scenario,
    ScenarioExtension,
    ScenarioPart,
    ZoneLookup,
    extension_of,
    load_scenario,
    read_scenario,
)
from tobruk.mechanics.counters import Echelon, FamilyUnitDef, UnitType

TEXT = """
format = "tobruk-scenario"
version = 1
title = "Roster test"
system = "made-up"
roster = ["A", "B"]
{more}

[map]
name = "test"
grid = {{ rows = 3, columns = 3 }}

[zones.entry]
hexes = ["C3"]
"""


def _read_roster(t: Table, m: Map, zone_of: ZoneLookup) -> ScenarioPart:
    """Unit A on A1, unit B entering on turn 2 in the zone named ``entry``; the roster itself kept as extra."""
    ids = t.strings("roster")
    units = tuple(
        FamilyUnitDef(
            id=uid,
            name=uid,
            side=Side.AXIS,
            nationality="test",
            kind="armour",
            echelon=Echelon.DIVISION,
            type=UnitType.ARMOUR,
            attack=1,
            defence=1,
            movement=1,
        )
        for uid in ids
    )
    zone_of(t, "roster", "entry")  # an unknown zone would be refused naming the table's field
    return ScenarioPart(
        units,
        {"A": Hex.parse("A1"), "B": None},
        {},
        {"B": Reinforcement(2, "entry")},
        3,
        extra=tuple(ids),
        files=(("maps", "gazala-gallop"),) if t.bool("with_file", False) else (),
    )


def _counters(s: Scenario) -> list[tuple[UnitDef, UnitState]]:
    return [(u, UnitState(hex=h)) for u in s.units if (h := s.start[u.id]) is not None]


ROSTER = ScenarioExtension(
    "roster",
    "made-up",
    _read_roster,
    lambda s: f"{s.title}: {len(s.units)} units",
    lambda s: {"roster": list(s.extra) if isinstance(s.extra, tuple) else []},
    _counters,
)


def data_only(name: str, extension: ScenarioExtension) -> type[System]:
    """A system registered with its data alone, whose scenario extension is ``extension``."""
    return type(f"DataOnly{name.title().replace('-', '')}", (System,), {"name": name, "playable": False, "scenario_extension": extension})


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, type[System]]:
    """The registry of systems, with the packaged ones, in a copy that one test may add to."""
    system_module.system_names()  # the packaged ones first, so they are not registered into the copy afterwards
    copy = dict(system_module._REGISTRY)
    monkeypatch.setattr(system_module, "_REGISTRY", copy)
    return copy


@pytest.fixture
def roster(registry: dict[str, type[System]]) -> ScenarioExtension:
    """The made-up system and its extension registered beside the packaged ones, for one test."""
    system_module.register(data_only("made-up", ROSTER))
    return ROSTER


def read(more: str = "") -> Scenario:
    data: dict[str, Any] = tomllib.loads(TEXT.format(more=more))
    return read_scenario(Table(data, "roster.toml"), "roster")


def test_a_registered_field_is_read_by_its_extension(roster: ScenarioExtension) -> None:
    s = read()
    assert [u.id for u in s.units] == ["A", "B"] and s.turns == 3
    assert s.start == {"A": Hex.parse("A1"), "B": None} and s.reinforcements == {"B": Reinforcement(2, "entry")}
    assert s.extension == "roster" and s.extra == ("A", "B") and extension_of(s) is roster
    assert roster.summary(s) == "Roster test: 2 units" and roster.data(s) == {"roster": ["A", "B"]}


def test_the_files_an_extension_read_are_part_of_the_digest(roster: ScenarioExtension) -> None:
    assert read().digest == read().digest
    assert read("with_file = true").digest != read().digest


def test_a_scenario_without_an_extension_field_has_none() -> None:
    s = load_scenario("gazala-gallop")
    assert s.extension == "" and s.extra is None and extension_of(s) is None


def test_an_extension_field_in_a_scenario_of_another_system_is_refused(roster: ScenarioExtension) -> None:
    with pytest.raises(ScenarioError) as err:
        read_scenario(Table(tomllib.loads(TEXT.format(more="").replace('"made-up"', '"other"')), "roster.toml"), "r")
    assert err.value.field == "roster" and "read by the made-up system" in err.value.problem
    assert "'other'" in err.value.problem


def test_units_listed_beside_an_extension_are_refused(roster: ScenarioExtension) -> None:
    with pytest.raises(ScenarioError) as err:
        read('unit = [{ id = "C" }]')
    assert err.value.field == "unit" and "has its units from it" in err.value.problem


def test_the_turns_are_the_extensions_not_the_files(roster: ScenarioExtension) -> None:
    """Without an extension ``turns`` is required; with one, the extension reads it (or not) itself."""
    assert read().turns == 3
    data: dict[str, Any] = tomllib.loads(TEXT.format(more="").replace('roster = ["A", "B"]', ""))
    with pytest.raises(ScenarioError) as err:
        read_scenario(Table(data, "plain.toml"), "plain")
    assert err.value.field == "turns" and "missing" in err.value.problem


def test_a_field_has_one_reader(roster: ScenarioExtension) -> None:
    system_module.register(
        data_only("another", ScenarioExtension("roster", "another", _read_roster, roster.summary, roster.data, roster.counters))
    )
    with pytest.raises(ValueError, match=r"scenario field 'roster' is read by (made-up|another) already"):
        read()


def test_two_extension_fields_in_one_scenario_are_refused(roster: ScenarioExtension) -> None:
    system_module.register(
        data_only("mustering", ScenarioExtension("muster", "made-up", _read_roster, roster.summary, roster.data, roster.counters))
    )
    with pytest.raises(ScenarioError) as err:
        read('muster = ["C"]')
    assert err.value.field in ("roster", "muster") and "not several" in err.value.problem


def test_a_game_of_a_data_only_system_is_refused_in_one_line(roster: ScenarioExtension) -> None:
    from tobruk.engine.game import Game
    from tobruk.engine.system import RulesNotPlayed

    with pytest.raises(RulesNotPlayed, match=r"the rules of made-up .* are not played yet"):
        Game(read())
    # the campaign, whose rules are played in part, is no data-only system: the faces play it as a preview
    assert not getattr(Game(load_scenario("na-gazala")).system, "attacks", True)


def test_a_scenario_of_no_registered_system_is_refused_with_the_known_names() -> None:
    from tobruk.engine.system import UnknownSystem, system_for

    with pytest.raises(UnknownSystem, match=r"no game system 'nowhere'; known: .*gazala-gallop"):
        system_for("nowhere")
