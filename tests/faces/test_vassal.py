"""``tobruk export-vassal`` (issue 35, docs/vassal.md): the module of a scenario opened with pywargame's reader (its
buildFile parses, its pictures are in the file, every counter of the order of battle is placed where the scenario
sets it up, with its values), and the same read back with the standard library where that reader cannot run.

pywargame's VASSAL part needs Python 3.12 or newer, so its reader runs in ``.venv/vassal-reader`` (run.py makes it
from any Python 3.12+ on the machine; ``TOBRUK_VASSAL_READER`` names another interpreter that has pywargame)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.counters import FamilyUnitDef
from tobruk.render.svg import map_layout

ROOT = Path(__file__).resolve().parents[2]
READER = Path(os.environ.get("TOBRUK_VASSAL_READER") or ROOT / ".venv" / "vassal-reader" / "bin" / "python")
SCENARIOS = ["gazala-gallop", "first-alamein", "na-gazala"]  # both played systems, and a campaign scenario (data only)
HEX_SIZE = 40.0  # the map picture's hex radius the module is drawn at (docs/vassal.md)


@cache
def module(name: str, folder: Path) -> Path:
    out = folder / f"{name}.vmod"
    r = subprocess.run([sys.executable, "-m", "tobruk.cli", "export-vassal", name, str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("vassal")


def expected_places(scenario: Scenario) -> dict[str, tuple[int, int] | None]:
    """Each unit's starting point on the map picture: its start hex's centre, or None (it waits off the map)."""
    layout = map_layout(HEX_SIZE)
    out: dict[str, tuple[int, int] | None] = {}
    for d in scenario.units:
        h = scenario.start.get(d.id)
        out[d.id] = None if h is None else (round(layout.centre(h)[0]), round(layout.centre(h)[1]))
    return out


@pytest.mark.skipif(not READER.exists(), reason="no Python 3.12+ with pywargame (run.py makes .venv/vassal-reader where it can)")
@pytest.mark.parametrize("name", SCENARIOS)
def test_pywargames_reader_finds_every_counter_placed_with_its_values(name: str, folder: Path) -> None:
    path = module(name, folder)
    r = subprocess.run([str(READER), str(ROOT / "tests" / "faces" / "vassal_reader.py"), str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    read: dict[str, Any] = json.loads(r.stdout)
    scenario = load_scenario(name)
    assert read["name"] == f"tobruk: {scenario.title}"
    boards = {b: info for m in read["maps"].values() for b, info in m["boards"].items()}
    assert all(f"images/{info['image']}" in read["files"] for info in boards.values())
    pieces = [p for m in read["maps"].values() for p in m["pieces"]]
    assert sorted(p["piece"] for p in pieces) == sorted(d.id for d in scenario.units)  # every counter, once
    places = expected_places(scenario)
    for p in pieces:
        d = scenario.unit(p["piece"])
        where = places[d.id]
        if where is not None:
            start = scenario.start[d.id]
            assert p["board"] == scenario.title and (int(p["x"]), int(p["y"])) == where and start is not None and p["stack"] == start.label
        else:
            assert p["board"] == "Set-up and reinforcements"
        # pywargame leaves VASSAL's escapes in the values; VASSAL's sequence decoder reads "\\/" as "/"
        marks = {t[1][0]: t[2][0].replace("\\/", "/") for t in p["traits"] if t[0] == "mark"}
        printed = {name.capitalize(): str(value) for name, value in d.printed().items() if value is not None}
        assert marks == {"Side": d.side.value, **printed, "Name": d.name}
        if isinstance(d, FamilyUnitDef):  # the family's counters: their factors among them
            assert (marks["Attack"], marks["Defence"], marks["Movement"]) == (str(d.attack), str(d.defence), str(d.movement))
        basic = p["traits"][-1]
        assert basic[0] == "piece" and basic[1][3] == d.id and f"images/{basic[1][2]}" in read["files"]
    assert read["windows"]["Counters"] == sorted(d.id for d in scenario.units)
    assert read["turns"]["Turn"] == [",".join(scenario.turn_name(n) for n in range(1, scenario.turns + 1))]


def test_the_module_read_with_the_standard_library(folder: Path) -> None:
    """What VASSAL reads first, without pywargame: a ZIP with buildFile.xml, moduledata and every picture named."""
    scenario = load_scenario("first-alamein")
    with zipfile.ZipFile(io.BytesIO(module("first-alamein", folder).read_bytes())) as z:
        names = set(z.namelist())
        assert {"buildFile.xml", "moduledata", "images/map.png", "images/pool.png"} <= names
        root = ET.fromstring(z.read("buildFile.xml"))
        assert root.tag == "VASSAL.build.GameModule" and ET.fromstring(z.read("moduledata")).findtext("name") == root.get("name")
        for image in {*(b.get("image") for b in root.iter("VASSAL.build.module.map.boardPicker.Board"))}:
            assert f"images/{image}" in names and z.read(f"images/{image}")[:8] == b"\x89PNG\r\n\x1a\n"
        slots = [str(s.get("entryName")) for s in root.iter("VASSAL.build.module.map.SetupStack") for s in s]
        assert sorted(slots) == sorted(d.id for d in scenario.units)


def test_a_scenario_that_is_not_there_is_refused_in_one_line(folder: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "tobruk.cli", "export-vassal", "nowhere", str(folder / "x.vmod")], capture_output=True, text=True
    )
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and not (folder / "x.vmod").exists()


def test_a_campaign_modules_turn_track_names_the_half_months(folder: Path) -> None:
    """The campaign's turn track as its scenario file dates it (na-gazala: II May 42 to II Jul 42), read from the
    module with the standard library (the pywargame test above checks every system the same way where it runs)."""
    with zipfile.ZipFile(io.BytesIO(module("na-gazala", folder).read_bytes())) as z:
        root = ET.fromstring(z.read("buildFile.xml"))
    levels = [str(e.get("list")) for e in root.iter() if e.tag.endswith("turn.ListTurnLevel")]
    assert levels == ["II May 42,I Jun 42,II Jun 42,I Jul 42,II Jul 42"]
