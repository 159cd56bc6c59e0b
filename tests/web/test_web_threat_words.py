"""The page and the terminal word a threat alike: the page's ``describe`` (threats.js, run under node) on the data the
server sends for a threat gives the line :meth:`~tobruk.engine.system.Threat.describe` prints at the terminal."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.engine.system import Arriving, Condition, Conditional, Objective, Threat

CHECK = Path(__file__).resolve().parent / "js" / "threats_check.mjs"
NODE = shutil.which("node")

ACTIVATED = Condition("if activated", "GG-V.A.4", 2)
A5 = Objective(Hex.parse("A5"), "Allied sudden victory hex", "GG-IV.A.1", Side.AXIS)
THREATS = [
    Threat(A5, ("1ATB",), 0),
    Threat(A5, (), 1),
    Threat(A5, ("1SA", "2SA"), 3, (Arriving("1ArmdBde", "turn 7"),)),
    Threat(A5, (), 0, (Arriving("Pavia", "3 July 1942"), Arriving("Trento", "turn 4"))),
    Threat(A5, ("1ATB", "1SA", "2SA", "3SA"), 0, (), (Conditional(ACTIVATED, ("1SA", "2SA", "3SA")),)),
    Threat(A5, ("1SA",), 0, (), (Conditional(ACTIVATED, ("1SA",)),)),
    Threat(A5, ("1SA", "2SA"), 0, (), (Conditional(Condition("if activated", "GG-V.A.4"), ("1SA", "2SA")),)),
]


def test_the_terminal_words_a_threat_with_its_reinforcements_and_face_down_counters() -> None:
    assert THREATS[2].describe() == (
        "A5 (Allied sudden victory hex, GG-IV.A.1) could be reached by 1SA, 2SA, 1ArmdBde (arriving turn 7), 3 face-down counters"
    )
    assert THREATS[1].describe() == "A5 (Allied sudden victory hex, GG-IV.A.1) could be reached by a face-down counter"


def test_the_units_that_could_come_only_under_a_condition_are_worded_under_it_with_how_many_could() -> None:
    assert (
        THREATS[4].describe()
        == "A5 (Allied sudden victory hex, GG-IV.A.1) could be reached by 1ATB; if activated (GG-V.A.4) by 2 of 1SA, 2SA, 3SA"
    )
    assert THREATS[5].describe() == "A5 (Allied sudden victory hex, GG-IV.A.1) could be reached if activated (GG-V.A.4) by 1SA"
    assert THREATS[6].describe() == "A5 (Allied sudden victory hex, GG-IV.A.1) could be reached if activated (GG-V.A.4) by 1SA, 2SA"


@pytest.mark.skipif(NODE is None, reason="node is not installed (.ci/run installs Debian's nodejs): the JavaScript checks are skipped")
def test_the_page_words_each_threat_as_the_terminal_does(tmp_path: Path) -> None:
    fixture = tmp_path / "threats.json"
    fixture.write_text(json.dumps([t.data() for t in THREATS]))
    assert NODE is not None
    ran = subprocess.run([NODE, str(CHECK), str(fixture)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == [t.describe() for t in THREATS]
