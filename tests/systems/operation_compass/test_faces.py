"""Operation Compass through the faces: the command line (a solitaire game against the rules' Italians and a
two-player game, each played to its result), the fuzzer, the views, the odds shown before an assault, the
computer player's hooks and the fuzzer's own invariants."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.operation_compass.kit import H, allied, declare, due, game_at, italian, no_chits, roll
from tobruk.cli import main
from tobruk.engine.flow import Decision
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Add, Attack, Declare, EndPhase, Move
from tobruk.players.base import Advice, make_player, play_game
from tobruk.record import record_of, replay
from tobruk.render.board import board_data
from tobruk.systems.operation_compass.actions import Bombard, Lose, Naval, Withdraw
from tobruk.systems.operation_compass.advisor import whole_assaults
from tobruk.systems.operation_compass.counters import compass_unit
from tobruk.systems.operation_compass.retreat import choose_withdrawal
from tobruk.tools.fuzz import check_rules, fuzz_game
from tobruk.view import view

LEVELS = ("Allied decisive victory", "Allied victory", "Allied marginal victory", "Italian marginal victory", "Italian victory")


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", [1, 2])
def test_a_solitaire_game_from_the_command_line(seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    """The WDF played by the computer against the Italians the rules play (no --axis player is asked anything)."""
    assert main(["play", "operation-compass", "--allied", "greedy", "--axis", "human", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    verdicts = [x for x in out.splitlines() if x.startswith(tuple(level + ": the WDF " for level in LEVELS))]
    assert "Turn 4/4" in out and len(verdicts) == 1  # (the result once as the game's verdict; the log's line is indented)


@pytest.mark.whole_game
def test_a_two_player_game_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "operation-compass", "--option", "two-players", "--allied", "greedy", "--axis", "greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Turn 4/4" in out and any(level + ": the WDF " in out for level in LEVELS)


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
    assert odds.lines[:2] == ("led by U", "strength 6 - 6 = 0: column 0-1 (OC-CRT.5)")
    assert odds.lines[2].startswith("the WDF steps it may cost: ")  # (tests/systems/operation_compass/test_odds_options.py)
    assert sum(p for _, p in odds.outcomes) == 1
    assert dict(game.system.outcomes(game, attack, Side.ALLIED)) == dict(odds.outcomes)
    assert game.system.outcomes(game, Attack((H("A4"),), ("U",)), Side.ALLIED) == []
    assert game.system.odds(game, Move("U", (H("A1"),)), Side.ALLIED) is None
    assert whole_assaults(game) == [attack]


def test_the_advice_inside_an_assault() -> None:
    """Inside an assault the WDF advances into the hex it emptied, calls the squadron while it may, and takes the
    excess losses from the unit with the most steps first (each Lose valued by the steps it has)."""
    extra = '[map.terrain]\nsea = ["B3"]\n[map.supply]\nallied = ["A1"]\n'
    units = allied("U", "A2", kind="motorized-infantry") + allied("V", "A2", kind="armour", steps=2) + italian("I", "A3")
    game = game_at(units, turn=2, rows=2, columns=5, map_extra=extra)
    game.play("target A3")
    game.play("add U")
    game.play("add V")
    advice = game.system.advisor(game, Side.ALLIED)
    assert advice is not None and list(advice.candidates()) == [Naval()]
    game.play("naval")
    advice = game.system.advisor(game, Side.ALLIED)
    assert advice is not None and list(advice.candidates()) == [Declare()]


def test_the_advice_takes_excess_losses_from_the_strongest() -> None:
    """A one-step leader of morale 1 rolls a 6: it fails by 5 or more, 2 steps (OC-MC.2), one more than it has; the
    excess is offered from the rest of the stack, each valued by its steps, and the greedy player takes the 3-step
    unit's."""
    units = (
        allied("U", "A2", kind="motorized-infantry", steps=1, morale=1)
        + allied("V", "A2", steps=2)
        + allied("W", "A2", steps=3)
        + italian("I", "A3", morale=6)
    )
    game = game_at(units, turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    declare(game, "A3", "U", "V", "W")
    no_chits(game)
    while "leading" not in due(game):
        game.play_chance(0)
    roll(game, 6, "leading")
    advice = game.system.advisor(game, Side.ALLIED)
    assert advice is not None
    listed = list(advice.candidates())
    assert {a: advice.value(a) for a in listed} == {Lose("V"): 2.0, Lose("W"): 3.0}
    assert make_player("greedy", 0).choose(view(game, Side.ALLIED), game.legal_orders(), Advice(game, Side.ALLIED)) == Lose("W")


def test_the_advice_bombards_the_most_steps_then_ends() -> None:
    """Two Italian hexes under the guns: each a candidate valued by the Italian steps in it, the end of the phase at
    nothing; the Italians' advisor, in a game the rules play for them, has nothing to say in a WDF phase."""
    units = allied("G", "A3", kind="support", steps=2) + italian("I", "A2", steps=1) + italian("J", "A4", steps=3)
    game = game_at(units, "allied-bombardment", turn=2, rows=2, columns=6, map_extra='[map.supply]\nallied = ["B6"]\n')
    advice = game.system.advisor(game, Side.ALLIED)
    assert advice is not None
    listed = list(advice.candidates())
    assert {a: advice.value(a) for a in listed} == {Bombard(H("A2")): 1.0, Bombard(H("A4")): 3.0, EndPhase(): 0.0}
    assert make_player("greedy", 0).choose(view(game, Side.ALLIED), game.legal_orders(), Advice(game, Side.ALLIED)) == Bombard(H("A4"))


def test_the_advice_moves_toward_the_nearest_goal_within_supply() -> None:
    """A unit four hexes from the Italians: a move is worth the hexes it gains toward them, nothing beyond the supply
    range (here the source's own hex only reaches a few supply points), and none that gains nothing is listed."""
    units = allied("U", "A1", kind="motorized-infantry", movement=2) + italian("I", "A6")
    game = game_at(units, "allied-movement", turn=2, rows=2, columns=6, map_extra='[map.supply]\nallied = ["A1"]\n')
    advice = game.system.advisor(game, Side.ALLIED)
    assert advice is not None
    listed = list(advice.candidates())
    assert listed[-1] == EndPhase() and advice.value(EndPhase()) == 0.0
    moves = [a for a in listed if isinstance(a, Move)]
    assert moves and all(advice.value(m) == H("A1").distance(H("A6")) - m.path[-1].distance(H("A6")) for m in moves)
    assert all((advice.value(m) or 0) > 0 for m in moves)
    legal_moves = [a for a in game.legal_orders() if isinstance(a, Move)]
    assert {m.path[-1] for m in moves} == {m.path[-1] for m in legal_moves if m.path[-1].distance(H("A6")) < 5}


def test_the_advice_assaults_with_each_hexs_whole_stack_by_expected_points() -> None:
    """The whole stacks beside an Italian hex, each valued by its expected points (an Italian step at 1, a WDF step
    at 3): the Italian steps the odds table expects less three times the WDF steps the assault costs (the leader's
    check, :func:`~tobruk.systems.operation_compass.combat.allied_losses`, proven above); the end of the phase at
    nothing."""
    units = allied("U", "A2", kind="motorized-infantry", steps=1, morale=6) + italian("I", "A3", steps=3, defence=2, morale=6)
    game = game_at(units, turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    attack = Attack((H("A3"),), ("U",))
    advice = game.system.advisor(game, Side.ALLIED)
    assert advice is not None and list(advice.candidates()) == [attack, EndPhase()]
    odds = game.system.odds(game, attack, Side.ALLIED)
    assert odds is not None
    from tobruk.systems.operation_compass import combat as cb

    italian_steps = sum(int(label.split()[0]) * p for label, p in odds.outcomes)
    wdf_steps = sum(n * p for n, p in cb.allied_losses(game, cb.assess(game, H("A3"), ("U",), "U")).items())
    assert advice.value(attack) == pytest.approx(float(italian_steps - 3 * wdf_steps))


def played_out_losses(game: Game) -> dict[int, Fraction]:
    """The oracle: the declared assault played out along every branch of its chance nodes (each outcome's exact
    probability), the excess losses taken from the first unit offered: the WDF steps lost, with their probabilities."""
    from tobruk.systems.operation_compass.assault import Assault

    out: dict[int, Fraction] = {}

    def go(g: Game, p: Fraction) -> None:
        if not any(isinstance(f, Assault) for f in g.state.stack):
            lost = sum(g.defs[u].steps - g.unit(u).steps for u in g.units_of(Side.ALLIED))
            out[lost] = out.get(lost, Fraction(0)) + p
        elif g.chance is not None:
            for i, o in enumerate(g.chance_outcomes()):
                branch = g.copy()
                branch.play_chance(i)
                go(branch, p * o.probability)
        else:
            g.play(g.legal_orders()[0])
            go(g, p)

    go(game, Fraction(1))
    return out


@pytest.mark.parametrize(("morale", "out_of_supply"), [(1, False), (3, False), (6, False), (3, True)])
def test_the_wdfs_losses_are_the_assault_played_out(morale: int, out_of_supply: bool) -> None:
    """The distribution of the WDF's losses the advice counts (the leader's check, its excess taken from the stack, a
    red entry's checks of the guns) is exactly what the assault costs when played out along every branch."""
    from tobruk.systems.operation_compass import combat as cb

    units = (
        allied("U", "A2", kind="motorized-infantry", steps=2, morale=morale)
        + allied("G", "A2", kind="support", steps=2, morale=2)
        + italian("I", "A3", steps=3, defence=4, morale=6)
    )
    game = game_at(units, turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    if out_of_supply:  # (both units: +2 to the leader's check, OC-MC.1)
        compass_unit(game, "U").out_of_supply = compass_unit(game, "G").out_of_supply = True
    a = cb.assess(game, H("A3"), ("U", "G"), "U")
    assert a.oos == (2 if out_of_supply else 0)
    expected = cb.allied_losses(game, a)
    declare(game, "A3", "U", "G")
    assert {n: p for n, p in played_out_losses(game).items() if p} == {n: p for n, p in expected.items() if p}


def test_the_italians_advisor_retreats_as_the_rules_would() -> None:
    """In a two-player game the Italian player's advice is the retreat the rules choose when they play the Italians."""
    game = Game(load_scenario("operation-compass"), seed=5, options=["two-players"])
    while not any(isinstance(a, Withdraw) for a in game.legal_orders()):
        assert not game.is_over
        game.play(EndPhase() if game.decision and game.decision.side is Side.ALLIED else game.legal_orders()[0])
    advice = game.system.advisor(game, Side.AXIS)
    assert advice is not None
    withdrawals = [a for a in game.legal_orders() if isinstance(a, Withdraw)]
    assert list(advice.candidates()) == [choose_withdrawal(game, withdrawals)]


def test_the_overlays() -> None:
    """What the map shows each side: the hexes a WDF supply line may not enter (the Italian hex and those next to its
    combat unit, but one a WDF unit stands in), the WDF's supply lines for the WDF only; the places that score are the
    objectives the map rings (R-OC-VICTORY), each with its points and rule in the legend, and no layer repeats them."""
    units = allied("U", "A2", kind="motorized-infantry") + italian("I", "A3") + italian("G", "A5", kind="support")
    game = game_at(units, "allied-movement", turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    layers = {o.key: o for o in game.system.overlays(game, Side.ALLIED)}
    board = {h.label for h in game.scenario.map.hexes}
    assert set(layers["supply-closed"].hexes) == {"A3", "A4", "B2", "B3", "A5"} & board  # (A2 held by the WDF)
    assert "supply" in layers and "supply" not in {o.key for o in game.system.overlays(game, Side.AXIS)}
    real = Game(load_scenario("operation-compass"), seed=1)
    assert all("objectives" not in {o.key for o in real.system.overlays(real, side)} for side in Side)
    drawn = board_data(real.scenario.map, real.system.rendering(), size=28.0, title="", objectives=real.system.objectives(real.scenario))
    assert "C18" in {o["hex"] for o in drawn["objectives"]}  # Sidi Barrani (5 points)
    assert any(k["mark"].startswith("objective:R-OC-VICTORY:") for k in drawn["key"])


def test_the_once_per_turn_hook() -> None:
    game = Game(load_scenario("operation-compass"), seed=1)
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
    assert whole_assaults(game) == [Attack((H("A3"),), ("U", "V"))]
    # the guns first in the order of battle, alone in A2: their hex, which no one may lead, does not end the search
    guns_first = allied("G", "A2", kind="support", steps=2) + allied("U", "A4", kind="motorized-infantry") + italian("I", "A3")
    game = game_at(guns_first, turn=2, rows=2, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    assert whole_assaults(game) == [Attack((H("A3"),), ("U",))]
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


@pytest.mark.whole_game
def test_the_arena_names_the_rules_as_the_italians_player() -> None:
    """In a solitaire arena the Italians are the rules', whatever player the arena put on their side: each of the two
    players plays the WDF once, and the results count the rules as the Italian player."""
    from tobruk.tools.arena import RULES, run, tally

    outcomes = run("operation-compass", "greedy", "random", 2)
    assert [(o.axis, o.allied) for o in outcomes] == [(RULES, "random"), (RULES, "greedy")]
    assert set(tally(outcomes)) == {(RULES, "axis"), ("random", "allied"), ("greedy", "allied")}


def test_a_place_the_wdf_holds_is_no_longer_a_goal() -> None:
    """The advice's goals: the Italian-held hexes and the places that score not yet the WDF's; once the WDF has
    entered a place (the last side to enter it holds it), it is no goal."""
    from tobruk.systems.operation_compass.advisor import goals
    from tobruk.systems.operation_compass.state import compass_vars

    game = Game(load_scenario("operation-compass"), seed=1)
    assert H("C18") in goals(game)  # a camp the Italians hold
    compass_vars(game).held = {**compass_vars(game).held, "K12": "allied"}
    assert H("K12") in goals(game)  # (an Italian unit stands in it: still a goal)
    compass_unit(game, "MarmS").eliminated = True  # Sollum's garrison gone: E3 empty
    game.unit("MarmS").hex = None
    empty = H("E3")
    compass_vars(game).held = {**compass_vars(game).held, empty.label: "axis"}
    assert empty in goals(game)
    compass_vars(game).held = {**compass_vars(game).held, empty.label: "allied"}
    assert empty not in goals(game)
