"""Operation Compass through the faces: the command line (a solitaire game against the rules' Italians and a
two-player game, each played to its result), the fuzzer, the views, the odds shown before an assault, the
computer player's hooks and the fuzzer's own invariants."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.operation_compass.kit import H, allied, game_at, italian, roll
from tobruk.cli import main
from tobruk.engine.flow import Decision
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Add, Attack, EndPhase, Move
from tobruk.players.base import make_player, play_game
from tobruk.record import record_of, replay
from tobruk.systems.operation_compass.actions import Advance, Bombard, Lose, Naval, Withdraw
from tobruk.systems.operation_compass.counters import compass_unit
from tobruk.tools.fuzz import check_rules, fuzz_game
from tobruk.view import view

LEVELS = ("Allied decisive victory", "Allied victory", "Allied marginal victory", "Italian marginal victory", "Italian victory")


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", [1, 2])
def test_a_solitaire_game_from_the_command_line(seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    """The WDF played by the computer against the Italians the rules play (no --axis player is asked anything)."""
    assert main(["play", "operation-compass", "--allied", "greedy", "--axis", "human", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "Turn 4/4" in out and any(out.count(level + " (") == 1 for level in LEVELS)


@pytest.mark.whole_game
def test_a_two_player_game_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "operation-compass", "--option", "two-players", "--allied", "greedy", "--axis", "greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Turn 4/4" in out and any(level + " (" in out for level in LEVELS)


@pytest.mark.whole_game
def test_fuzzed_games_break_no_invariant() -> None:
    scenario = load_scenario("operation-compass")
    for seed in range(16):
        result = fuzz_game(scenario, seed)
        assert result.failure is None, result.failure
        assert result.turn == 4
    for seed in range(4):
        result = fuzz_game(scenario, 100 + seed, options=("two-players",))
        assert result.failure is None, result.failure


@pytest.mark.whole_game
def test_a_recorded_game_replays() -> None:
    game = Game(load_scenario("operation-compass"), seed=7, options=["two-players"])
    done = play_game(game, {Side.ALLIED: make_player("greedy", 1), Side.AXIS: make_player("random", 2)})
    assert replay(record_of(done), scenario=done.scenario).state_hash() == done.state_hash()


def test_the_scenario_is_a_reconstruction_and_says_so() -> None:
    s = load_scenario("operation-compass")
    assert s.turns == 4 and "reconstruction" in s.notes.lower()
    assert [o.name for o in s.options] == ["two-players"]


def test_the_views() -> None:
    game = Game(load_scenario("operation-compass"), seed=1)
    allied_view, axis_view = view(game, Side.ALLIED), view(game, Side.AXIS)
    assert allied_view["date"] == "9 December 1940" and allied_view["naval_left"] == 2 and allied_view["result"] is None
    assert axis_view["supply"] == {} and axis_view["legal_orders"] == []
    unit = next(u for u in allied_view["units"] if u["id"] == "7RTR")
    assert (unit["type"], unit["full_steps"], unit["morale"], unit["attack"], unit["defence"], unit["movement"]) == (
        "armour",
        3,
        5,
        4,
        4,
        6,
    )
    assert game.system.turn_notes(game) == {"date": "9 December 1940"}
    game.play(EndPhase())
    game.play(EndPhase())
    game.play(EndPhase())  # the first supply determination
    assert view(game, Side.ALLIED)["supply"]["7RTR"]["supplied"] is True
    assert view(game, Side.AXIS)["supply"] == {}  # the WDF's lines are its own


def test_the_odds_before_an_assault() -> None:
    """Turn 2, 7 against 6 ... the 0-1 column, DRM 0: the Italian unit (morale 6, 1 step) fails only on the 1/2 and
    1/3 rows' ... its steps lost by every draw of chits; the table sums to one."""
    units = allied("U", "A2", kind="motorized-infantry") + italian("I", "A3", steps=3, defence=2, morale=6)
    game = game_at(units, turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    attack = Attack((H("A3"),), ("U",))
    odds = game.system.odds(game, attack, Side.ALLIED)
    assert odds is not None and odds.column == "0-1, DRM +0 before the chits"
    assert odds.lines == ("strength 6 - 6 = 0: column 0-1 (OC-CRT.5)",)
    assert sum(p for _, p in odds.outcomes) == 1
    assert dict(game.system.outcomes(game, attack, Side.ALLIED)) == dict(odds.outcomes)
    assert game.system.outcomes(game, Attack((H("A4"),), ("U",)), Side.ALLIED) == []
    assert game.system.odds(game, Move("U", (H("A1"),)), Side.ALLIED) is None
    assert game.system.suggestions(game, Side.ALLIED) == [attack] and game.system.suggestions(game, Side.AXIS) == []


def test_the_players_hooks() -> None:
    game = Game(load_scenario("operation-compass"), seed=1)
    features = game.system.features(game, Side.ALLIED)
    assert features["stacking"] == (4, 4) and H("C18") in features["objectives"]
    assert game.system.features(game, Side.AXIS)["objectives"] == []
    assert features["result_values"]["4"] == (1.0, 0.05) and features["result_values"]["2"] == (0.5, 0.05)
    seen = view(game, Side.ALLIED)
    assert game.system.prefer(seen, [Bombard(H("I17")), EndPhase()], "other") == Bombard(H("I17"))
    assert game.system.prefer(seen, [Bombard(H("I17"))], "other") is None
    assert game.system.prefer(seen, [Advance(), Naval()], "first") == Advance()
    assert game.system.prefer(seen, [Naval()], "first") == Naval()
    assert game.system.prefer(seen, [Lose("CIH"), Lose("7RTR")], "first") == Lose("7RTR")  # the one with more steps
    assert game.system.prefer(seen, [EndPhase()], "first") is None
    assert game.system.once_per_turn(game, Move("7RTR", (H("H17"),))) == "7RTR moves"
    assert game.system.once_per_turn(game, Withdraw("1Lib1R", H("D21"))) is None


def test_the_fuzzers_checks_catch_a_broken_position() -> None:
    game = Game(load_scenario("operation-compass"), seed=1)
    assert game.system.check_action(game, Add("7RTR")) == []
    compass_unit(game, "7RTR").assaulted = True
    assert game.system.check_action(game, Add("7RTR")) == ["7RTR assaults twice in turn 1"]
    compass_unit(game, "7MedRA").fired = True
    assert game.system.check_action(game, Add("7MedRA")) == ["7MedRA fires twice in turn 1"]
    before = game.step
    for uid in ("11IndBde", "5IndBde", "16Bde", "CIH", "7RTR"):
        game.unit(uid).hex = H("H16")
    with pytest.raises(AssertionError, match="5 Allied units in H16"):
        check_rules(game, before)
    game = Game(load_scenario("operation-compass"), seed=1)
    game.unit("CIH").steps = 0
    assert game.system.invariants(game, before) == ["CIH: eliminated False with 0 steps in J14"]


def test_the_view_counts_the_navys_assaults_left() -> None:
    extra = '[map.terrain]\nsea = ["B3"]\n[map.supply]\nallied = ["A1"]\n'
    units = allied("U", "A2", kind="motorized-infantry") + italian("I", "A3", morale=6, defence=5)
    game = game_at(units, turn=2, rows=2, columns=5, map_extra=extra)
    game.play("target A3")
    game.play("add U")
    game.play("naval")
    game.play("declare")
    roll(game, 3)
    assert view(game, Side.ALLIED)["naval_left"] == 1


def test_the_summary_once_the_game_is_over() -> None:
    game = Game(load_scenario("operation-compass"), seed=4)
    assert game.system.summary(game) is None and game.system.result_lines(game) == []
    while not game.is_over:
        game.play(EndPhase() if game.decision and game.decision.side is Side.ALLIED else game.legal_orders()[0])
    summary = game.system.summary(game)
    assert summary is not None and summary.level in LEVELS and summary.margin == Fraction(summary.fields["difference"])
    assert game.system.result_lines(game) == list(summary.lines)
    assert view(game, Side.AXIS)["result"]["level"] == summary.level


def test_the_features_a_computer_player_reads() -> None:
    """What a share of the defence lost is worth: a quarter a step, all of it from 4 steps on; the guns hold their
    ground (they are placed by the player, not sent forward); no guards and no set-up."""
    game = Game(load_scenario("operation-compass"), seed=1)
    f = game.system.features(game, Side.ALLIED)
    assert set(f["result_values"]) == {str(n) for n in range(13)}
    assert [f["result_values"][str(n)] for n in (0, 1, 4, 12)] == [(0.0, 0.05), (0.25, 0.05), (1.0, 0.05), (1.0, 0.05)]
    assert (f["guards"], f["holding_types"], f["setup_steps"]) == ([], ["support"], [])


def test_the_suggestions_are_each_hexs_whole_stack() -> None:
    """Two stacks next to A3 (A2, and B2 with a gun only, which cannot lead) and one next to nothing: one suggestion."""
    units = (
        allied("U", "A2", kind="motorized-infantry")
        + allied("V", "A2", kind="armour")
        + allied("G", "B2", kind="support", steps=2)
        + allied("W", "A5", kind="motorized-infantry")
        + italian("I", "A3")
    )
    game = game_at(units, turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    assert game.system.suggestions(game, Side.ALLIED) == [Attack((H("A3"),), ("U", "V"))]
    # the guns first in the order of battle, alone in A2: their hex, which no one may lead, does not end the search
    guns_first = allied("G", "A2", kind="support", steps=2) + allied("U", "A4", kind="motorized-infantry") + italian("I", "A3")
    game = game_at(guns_first, turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    assert game.system.suggestions(game, Side.ALLIED) == [Attack((H("A3"),), ("U",))]
    assert [a.notation() for a in game.legal_orders() if a.notation().startswith("target")] == ["target A3"]


def test_the_invariants_of_a_sound_position_and_the_stacking_limit() -> None:
    game = Game(load_scenario("operation-compass"), seed=1)
    before = game.step
    assert game.system.invariants(game, before) == []
    for uid in ("11IndBde", "5IndBde", "16Bde"):
        game.unit(uid).hex = H("H16")  # with 7RTR: 4, the limit
    for uid in ("2LibTW", "2LibTE", "2Lib90", "MalLib", "MalSah"):
        game.unit(uid).hex = H("G17")  # the Italians have none
    assert game.system.invariants(game, before) == []
    compass_unit(game, "CIH").eliminated = True
    game.unit("CIH").steps = 0
    assert game.system.invariants(game, before) == ["CIH: eliminated True with 0 steps in J14"]
    game.unit("CIH").hex = None
    assert game.system.invariants(game, before) == []


def test_a_system_and_a_step_made_afresh() -> None:
    """What the registry made at import, made again in a test: the charts read, a step's key, title, clause and side."""
    from tobruk.systems.operation_compass import OperationCompass
    from tobruk.systems.operation_compass.sequence import MovementStep

    game = Game(load_scenario("operation-compass"), seed=1)
    assert OperationCompass().charts == game.system.charts  # type: ignore[attr-defined]
    step = MovementStep("k", "T", "OC-TER.1", Side.ALLIED)
    assert (step.key, step.title, step.clause, step.side, step.prompt) == ("k", "T", "OC-TER.1", Side.ALLIED, "")
    assert step.decision(game) == Decision(Side.ALLIED, "k", "", "OC-TER.1")


def test_the_first_and_last_lines_of_a_game() -> None:
    game = Game(load_scenario("operation-compass"), seed=2)
    assert game.state.entries[0].text == "Turn 1, 9 December 1940. Operation Compass."
    while not game.is_over:
        game.play(EndPhase() if game.decision and game.decision.side is Side.ALLIED else game.legal_orders()[0])
    assert [e.kind for e in game.state.entries[-3:]] == ["event", "event", "event"]
    assert "Turn 4, 12 December 1940." in [e.text for e in game.state.entries]


def test_a_withdraw_order_in_the_wrong_form_is_named() -> None:
    from tobruk.engine.errors import InvalidOrderError

    game = Game(load_scenario("operation-compass"), seed=2)
    with pytest.raises(InvalidOrderError) as e:
        game.parse("withdraw 1Lib1R")
    assert str(e.value) == "'withdraw 1Lib1R': the form is withdraw UNIT HEX"
