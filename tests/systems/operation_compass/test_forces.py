"""The order of battle of 9 December 1940 (docs/reconstruction.md, "Operation Compass", "The forces"): the scenario
holds exactly the table of the docs, every counter follows the rule stated there (steps from the battalions,
regiments and guns the record gives, typed here from the research with their sources), and the set-up is
legal: each Italian garrison in its camp or town, at most 4 Allied units a hex, every unit in supply."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.systems.operation_compass import moves as mv
from tobruk.systems.operation_compass.counters import CompassUnitDef

DOCS = Path(__file__).resolve().parents[3] / "docs"


@cache
def scenario() -> Scenario:
    return load_scenario("operation-compass")


def counters() -> dict[str, CompassUnitDef]:
    out = {}
    for u in scenario().units:
        assert isinstance(u, CompassUnitDef)
        out[u.id] = u
    return out


@cache
def table() -> dict[str, list[str]]:
    """The forces table of docs/reconstruction.md: id -> its cells."""
    text = (DOCS / "reconstruction.md").read_text(encoding="utf-8")
    section = text[text.index("### The forces, dawn on 9 December 1940") :]
    section = section[: section.index("\n### ")]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| id ")]
    return {cells[0]: cells for cells in ([c.strip() for c in row.strip("|").split("|")] for row in rows)}


def test_the_scenario_holds_exactly_the_table_of_the_docs() -> None:
    defs = counters()
    assert set(table()) == set(defs)
    for uid, cells in table().items():
        d = defs[uid]
        _, name, _, steps, morale, factors, mp, hex_, _, sources = cells
        assert d.name == name and sources, uid
        assert (int(steps), int(morale), int(mp)) == (d.steps, d.morale, d.movement), uid
        att_def = f"{d.attack}-{d.defence}" + (f", support {d.support}" if d.support else "")
        assert factors == att_def, uid
        start = scenario().start[uid]
        assert start is not None and start.label == hex_, uid


# the record's strength of each counter (the research file, its sources in the docs' table) and the steps the rule
# gives: a battalion, an armoured regiment, 16 Matildas, an Italian tank battalion, a field regiment a step; the
# medium regiment 2; three squadrons of armoured cars or cavalry 2
RECORD = {
    "11IndBde": ("battalions", 3),
    "5IndBde": ("battalions", 3),
    "16Bde": ("battalions", 3),
    "7SG": ("battalions", 2),
    "Selby": ("battalions", 2),  # the Coldstream and the garrison's detachments, some 1,800 men
    "7RTR": ("matildas", 48),
    "4ArmdBde": ("regiments", 3),
    "7ArmdBde": ("regiments", 3),
    "11H": ("squadrons", 3),
    "CIH": ("squadrons", 3),
    "4IndDivRA": ("field regiments", 3),
    "7SGRHA": ("field regiments", 2),
    "7MedRA": ("medium regiment", 1),
    "1Lib1R": ("battalions", 3),
    "1Lib2R": ("battalions", 3),
    "2LibTW": ("battalions", 2),
    "2LibTE": ("battalions", 2),
    "2Lib90": ("battalions", 2),
    "MalLib": ("battalions", 3),
    "MalSah": ("battalions", 1),
    "MalTk": ("tank battalions", 1),
    "MalIkt": ("battalions", 1),
    "4CCNN250": ("battalions", 3),
    "4CCNN270": ("battalions", 2),
    "CireneR": ("battalions", 3),
    "CireneS": ("battalions", 3),
    "CatzB": ("battalions", 3),
    "Catz": ("battalions", 3),
    "MarmH": ("battalions", 2),
    "MarmS": ("battalions", 2),
}


def steps_by_rule(what: str, n: int) -> int:
    if what == "matildas":
        return n // 16
    if what == "squadrons":
        return -(-n // 2)
    if what == "medium regiment":
        return 2 * n
    return n


@pytest.mark.parametrize("uid", sorted(RECORD))
def test_each_counters_steps_follow_the_rule(uid: str) -> None:
    assert counters()[uid].steps == steps_by_rule(*RECORD[uid])


def test_every_counter_is_in_the_record_and_none_has_more_than_3_steps() -> None:
    """Ruling R-OC-MC8; the loader refuses a counter of 4 steps."""
    assert set(RECORD) == set(counters())
    assert max(d.steps for d in counters().values()) == 3


def test_the_italian_divisions_are_their_battalions() -> None:
    """The 1st and 2nd Libyan Divisions, the Cirene and the Catanzaro 6 battalions each; Maletti's infantry at Nibeiwa
    and Iktufa 5 (scenari-sahariani); the Blackshirts 5 (two legions of two and the machine-gun battalion)."""
    defs = counters()

    def total(*ids: str) -> int:
        return sum(defs[u].steps for u in ids)

    assert total("1Lib1R", "1Lib2R") == total("2LibTW", "2LibTE", "2Lib90") == 6
    assert total("CireneR", "CireneS") == total("CatzB", "Catz") == 6
    assert total("MalLib", "MalSah", "MalIkt") == 5 and total("4CCNN250", "4CCNN270") == 5


@pytest.mark.parametrize(
    ("zone", "ids"),
    [
        ("maktila", {"1Lib1R", "1Lib2R"}),
        ("tummar-west", {"2LibTW"}),
        ("tummar-east", {"2LibTE"}),
        ("point-90", {"2Lib90"}),
        ("nibeiwa", {"MalLib", "MalSah", "MalTk"}),
        ("alam-el-iktufa", {"MalIkt"}),
        ("sidi-barrani", {"4CCNN250", "4CCNN270"}),
        ("rabia", {"CireneR"}),
        ("sofafi", {"CireneS"}),
        ("sollum", {"MarmS"}),
    ],
)
def test_each_garrison_stands_in_its_place(zone: str, ids: set[str]) -> None:
    s = scenario()
    (h,) = s.map.zone(zone)
    assert {uid for uid, x in s.start.items() if x == h} == ids


def test_the_allied_set_up_keeps_the_stacking_limit_and_every_unit_is_in_supply() -> None:
    """Rulings R-OC-STACK (4) and R-OC-SUPPLY: the range is the least that supplies every unit where it stands."""
    game = Game(scenario())
    assert max(len(units) for units in game.occupants(Side.ALLIED).values()) <= 4
    for side in Side:
        lines = mv.in_supply(game, side)
        assert all(h in lines for _, h in game.placed(side)), side
    everything = mv.supply_paths(game, Side.ALLIED, None)
    farthest = max(everything.cost_to(h) or 0 for _, h in game.placed(Side.ALLIED))
    assert farthest == 31 * 60 + 30  # the 11th Hussars at I12: 31 1/2, under the 32 of the range


def test_morale_follows_the_record() -> None:
    """Base 5 WDF, 4 Selby; base 3 Italian, +1 where the record has them fight, -1 where it has them collapse."""
    morale = {uid: d.morale for uid, d in counters().items()}
    fought = {"2LibTW", "2LibTE", "MalLib", "MalSah", "11H"}
    collapsed = {"Catz"}
    for uid, d in counters().items():
        base = (4 if uid == "Selby" else 5) if d.side is Side.ALLIED else 3
        assert morale[uid] == base + (uid in fought) - (uid in collapsed), uid
    assert re.search(r"\breconstruction\b", scenario().notes.lower())
