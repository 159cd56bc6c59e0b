"""A person playing at the terminal (``tobruk play --axis human``), driven through ``main`` with a scripted standard
input and judged on the printed text: the results of his orders and the other side's turn are printed as his side may
read them, and never anything the fog of war hides from him."""

from __future__ import annotations

import io
import re
import tomllib
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.engine.cases import CASES
from tobruk import players
from tobruk.cli import main
from tobruk.engine.actions import Action
from tobruk.engine.game import Game
from tobruk.engine.objectives import threats
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import family_defs
from tobruk.players import base
from tobruk.record import load, replay


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: Sequence[str], typed: Sequence[str]) -> str:
    """What ``tobruk play ARGS`` prints to a person who types ``typed``, one line each, each prompt on a line of its own."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in typed)))
    capsys.readouterr()
    assert main(["play", *args]) == 0
    return capsys.readouterr().out.replace(" > ", " >\n")  # (a prompt ends " > ", the reply not echoed from a pipe)


def gazala_charts() -> dict[str, Any]:
    return tomllib.loads((Path(__file__).parents[2] / "tobruk" / "systems" / "gazala" / "charts.toml").read_text(encoding="utf-8"))


def block_after(out: str, line: str) -> list[str]:
    """The printed lines after ``line`` up to the next prompt."""
    lines = out.splitlines()
    start = lines.index(line) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].endswith(" >"))
    return lines[start:end]


# --- the results of his orders, the other side's turn ---------------------------------------------------------------
def test_the_results_of_the_persons_air_strike_and_attack_are_printed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = [
        "end-phase",  # the set-up as printed
        "airstrike G8",  # the Luftwaffe against 1ATB in its box; the passive Allied player intercepts
        "move 15Pz G3-G4-G5-G6-H6-H7",
        "move 21Pz G3-G4-G5-G6-H6-H7",
        "end-phase",
        "attack G8 with 15Pz,21Pz",
        "resolve 1",
        "end-phase",
        "quit",
    ]
    out = play(capsys, monkeypatch, ["gazala-gallop", "--axis", "human", "--allied", "passive", "--seed", "3"], typed)
    charts = gazala_charts()
    lines = out.splitlines()
    # the air strike: said at once, and the interception's die and result before the next decision, as the air table has it
    assert "  Axis: Luftwaffe attacks G8." in lines
    after_strike = block_after(out, "  Axis: Luftwaffe attacks G8.")
    assert after_strike[0] == "Axis, since your last order:"
    die, result = re.fullmatch(r"  DAF intercepts Luftwaffe: die (\d): (\S+)\.", after_strike[1]).groups()  # type: ignore[union-attr]
    air = charts["air"]
    assert result == air["rows"][int(die) - 1][air["columns"].index("german-air")]
    # the moves and the declaration, each at once with its odds
    assert "  Axis: 15Pz moves G3-G4-G5-G6-H6-H7." in lines and "  Axis: 21Pz moves G3-G4-G5-G6-H6-H7." in lines
    declared = next(x for x in lines if x.startswith("  Axis declares attack 1: attack G8 with 15Pz,21Pz ("))
    # the attack: its factors from the counters, its odds column from them, its die and the table's result, the loss
    battle = next(x for x in lines if x.startswith("  Attack on G8 by 15Pz,21Pz: "))
    m = re.fullmatch(r"  Attack on G8 by 15Pz,21Pz: (\d+) to (\d+), (\d+:\d+); die (\d): (\S+) \((.*)\)", battle)
    assert m is not None
    attack, defence, odds, die, result = int(m[1]), int(m[2]), m[3], int(m[4]), m[5]
    defs = family_defs(Game(load_scenario("gazala-gallop")))
    assert attack == defs["15Pz"].attack + defs["21Pz"].attack and defence == defs["1ATB"].defence
    gcrt = charts["gcrt"]
    column = max(c for c in gcrt["columns"] if Fraction(attack, defence) >= Fraction(*map(int, c.split(":"))))
    assert odds == column and declared.endswith(f"({column}).")
    assert result == gcrt["rows"][die - 1][gcrt["columns"].index(column)]
    assert result == "DE"  # (this seed's die: the defender is eliminated)
    assert "  Allied: 1ATB eliminated in G8 (combat result DE)." in lines
    # the order that ended the attacks: its supply determination at once; then the Allied turn, before the next prompt
    supply = lines.index("  Axis supply: 13 units in supply.")
    assert lines[supply + 1] == "Axis, since your last order:" and "  Turn 2." in block_after(out, lines[supply])


def test_the_other_sides_turn_is_summarised_before_the_persons_next_decision(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    typed = ["intercept", "hold 1ATB", "no-retreat", "quit"]  # the Allied answers to the greedy Axis player's turn
    out = play(capsys, monkeypatch, ["gazala-gallop", "--allied", "human", "--seed", "3", "--record", str(record)], typed)
    game = replay(load(record))
    lines = out.splitlines()
    # his interception: its die and the air table's result, at once
    strike = lines.index("Allied: intercept Luftwaffe's mission over F10, or not >")
    die, result = re.fullmatch(r"  DAF intercepts Luftwaffe: die (\d): (\S+)\.", lines[strike + 1]).groups()  # type: ignore[union-attr]
    air = gazala_charts()["air"]
    assert result == air["rows"][int(die) - 1][air["columns"].index("german-air")]
    # then the Axis turn, before his next decision: every Axis unit's move, from the hex it set up in to the hex it is in
    assert lines[strike + 2] == "Allied, since your last order:"
    summary = block_after(out, lines[strike + 1])[1:]
    told = {m[1]: (m[2], m[3]) for x in summary if (m := re.fullmatch(r"  Axis: (\S+) moves ([A-Z]+\d+)-\S*?([A-Z]+\d+)\.", x))}
    axis = [uid for uid, d in game.defs.items() if d.side is Side.AXIS and game.unit(uid).hex is not None]
    moved = {uid for uid in axis if game.unit(uid).hex != game.scenario.start.get(uid)}
    assert moved and set(told) == moved  # (the greedy Axis set up as printed: every unit elsewhere moved)
    for uid, (start, end) in told.items():
        printed, now = game.scenario.start.get(uid), game.unit(uid).hex
        assert printed is not None and printed.label == start and now is not None and now.label == end
    assert summary[-1] == "  Axis declares attack 1: attack G8 with 15Pz,21Pz (4:1)."  # the attack he must answer
    # his answer, and the battle's result at once: the table's result for the die at those odds, and what it did
    asked = (  # GG-XIV.B.5: R1 becomes D, R2 becomes DE for the units under orders
        "Allied: attack 1 on G8 (4:1) is about to be rolled: give No Retreat! orders (or none) to your defending units: units "
        "under orders do not retreat: an R1 leaves them disrupted where they stand (D), an R2 eliminates them (DE); the orders "
        "must go to units holding at least half the hex's terrain-modified defence factors >"
    )
    answer = lines.index(asked, strike + 2) + 1  # (hold 1ATB)
    assert lines[answer] == asked  # (no-retreat: the answer)
    assert lines[answer + 1] == "  No Retreat! orders for 1ATB."
    battle = re.fullmatch(r"  Attack on G8 by 15Pz,21Pz: 14 to 3, (4:1); die (\d): (\S+) \(1ATB (\S+)\)", lines[answer + 2])
    assert battle is not None
    gcrt = gazala_charts()["gcrt"]
    assert battle[3] == gcrt["rows"][int(battle[2]) - 1][gcrt["columns"].index(battle[1])]
    if battle[3] == "DE":  # (this seed's die)
        assert "  Allied: 1ATB eliminated in G8 (combat result DE)." in lines[answer + 3 : answer + 5]
        assert game.unit("1ATB").eliminated


@pytest.mark.parametrize("case", [c for c in CASES if c.scenario != "toy-full"], ids=lambda c: c.id)
@pytest.mark.parametrize("human", ["axis", "allied"])
def test_every_line_the_persons_side_may_read_is_printed_once_in_order_and_nothing_else(
    case: Any, human: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """On every playable system: the log lines printed to the person are exactly his side's reading of the log, in order,
    each once; and an unknown unit and hex in a typed order are named."""
    record = tmp_path / "game.json"
    other = "allied" if human == "axis" else "axis"
    options = [a for o in case.options for a in ("--option", o)]
    typed = ["move Nobody9 ZZ999", *["1"] * 15, "quit"]  # then the first legal order, 15 times
    out = play(
        capsys,
        monkeypatch,
        [case.scenario, f"--{human}", "human", f"--{other}", "greedy", "--seed", "2", *options, "--record", str(record)],
        typed,
    )
    game = replay(load(record))
    side = Side(human)
    printed = [x[2:] for x in out.splitlines() if x.startswith("  ")]
    if side in game.system.ruled_sides(game):  # the rules play his side (a solitaire game): he watches it to its end
        assert out.splitlines()[0] == f"The rules play the {side.display} side in this game: you watch what it may see."
        assert game.is_over and "refused" not in out and printed == game.log_for(side)
        return
    assert any(
        x.startswith("refused: 'move Nobody9 ZZ999': 'Nobody9' is not a unit of this game; 'ZZ999' is not a hex of this map")
        for x in out.splitlines()
    )
    # he quit at a decision of his own, or the game ended first (a side that decides little: the Compass Italians)
    assert (game.decision is not None and game.decision.side is side) or game.is_over
    assert printed == game.log_for(side)


# --- the fog of war ---------------------------------------------------------------------------------------------------
DUMMY_IN_E6 = ["place Dummy1 E6", "place Dummy2 B5"]  # 1ATB stays in its printed box, G8
UNIT_IN_E6 = ["place 1ATB E6", "place Dummy1 G8", "place Dummy2 B5"]  # the same counters per hex, other identities


class HiddenSetUp:
    """An Allied player that places its face-down counters as told, then ends each step as soon as it may."""

    name = "passive"

    def __init__(self, placements: list[str]) -> None:
        self.todo = list(placements)

    def choose(self, seen: dict[str, Any], legal: list[Action], advice: base.Advice) -> Action:
        if self.todo:
            text = self.todo.pop(0)
            return next(o for o in legal if o.notation() == text)
        return next((o for o in legal if o.ends_step), legal[0])


def test_two_games_that_differ_only_in_what_the_axis_may_not_know_print_the_same_to_the_axis(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    typed = ["end-phase", "show", "legal", *["end-phase"] * 7, "move 15Pz Z99", "show", "quit"]
    record = tmp_path / "game.json"  # (the same file each time: the line that says where it went is the same)
    args = ["gazala-gallop", "--axis", "human", "--allied", "passive", "--option", "nonhistorical", "--seed", "5"]
    args += ["--record", str(record), "--verbose"]  # (--verbose writes no computer player's order beside a person)
    outs, records = [], []
    for placements in (DUMMY_IN_E6, UNIT_IN_E6):
        monkeypatch.setattr(players, "make_player", lambda _name, _seed, p=placements: HiddenSetUp(p))
        outs.append(play(capsys, monkeypatch, args, typed))
        records.append(load(record))
    assert records[0].orders[:3] != records[1].orders[:3]  # the games differ: another Allied set-up, of another length
    games = [replay(r) for r in records]
    assert games[0].turn == games[1].turn >= 2 and "Allied sets up 1ATB in E6." in games[1].log_for(Side.ALLIED)  # (what the Allied read)
    assert outs[0] == outs[1]  # and the Axis at the terminal was told the same, byte for byte
    assert "Allied has set up, face down." in outs[0] and "sets up" not in outs[0]


def test_an_order_taken_back_and_given_again_is_told_again(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    typed = ["end-phase", "end-phase", "move 15Pz G3-G4", "undo", "move 15Pz G3-G4-G5", "quit"]
    out = play(capsys, monkeypatch, ["gazala-gallop", "--axis", "human", "--allied", "passive", "--seed", "3"], typed)
    lines = out.splitlines()
    first = lines.index("  Axis: 15Pz moves G3-G4.")
    assert lines[first + 2] == "undone: move 15Pz G3-G4"  # (after the next prompt)
    assert lines[first + 4] == "  Axis: 15Pz moves G3-G4-G5."


# --- the threatened objectives ----------------------------------------------------------------------------------------
def test_the_threatened_objectives_are_printed_once_a_player_turn_as_the_page_words_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Gazala Gallop's printed set-up leaves A5 (an Allied unit there wins at once, GG-IV.A.1) within an Allied move:
    the Axis at the terminal is told so, in the page's words, at its set-up and again as its player-turn opens (its
    airstrike), not at its movement in the same player-turn."""
    typed = ["end-phase", "end-phase", "quit"]  # the set-up as printed, no airstrike, then quit at the movement
    out = play(capsys, monkeypatch, ["gazala-gallop", "--axis", "human", "--allied", "passive", "--seed", "3"], typed)
    expected = [f"Threatened: {t.describe()}" for t in threats(Game(load_scenario("gazala-gallop"), seed=3), Side.AXIS)]
    assert any(x.startswith("Threatened: A5 (Allied sudden victory hex, GG-IV.A.1) could be reached ") for x in expected)
    lines = out.splitlines()
    prompts = [i for i, x in enumerate(lines) if x.endswith(" >")]  # what was printed before each decision
    told = [[x for x in lines[a:b] if x.startswith("Threatened: ")] for a, b in zip([0, *(p + 1 for p in prompts)], prompts, strict=False)]
    assert len(told) == 3 and told[0] == told[1] == expected and told[2] == []
