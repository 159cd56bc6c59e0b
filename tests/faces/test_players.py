"""Players, the arena's statistics, the terminal player and the fuzzer."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.system import Advisor
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Attack, EndPhase
from tobruk.players import make_player, play_game
from tobruk.players.base import Advice, outcomes_for
from tobruk.record import load, replay
from tobruk.systems.gazala.state import gazala_vars
from tobruk.tools.arena import GameOutcome, tally, wilson
from tobruk.tools.fuzz import fuzz_game
from tobruk.view import view

H = Hex.parse


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)
    lo, hi = wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)


def test_tally_counts_each_player_on_each_side() -> None:
    # margins are the Allied points minus the Axis points: 2 - 12, 7 - 1, 3 - 3
    games = [
        GameOutcome(0, "greedy", "random", "axis", "Major Victory", Fraction(-10), 10),
        GameOutcome(1, "random", "greedy", "allied", "Tactical Victory", Fraction(6), 10),
        GameOutcome(2, "greedy", "random", None, "no victory (a draw)", Fraction(0), 10),
    ]
    t = tally(games)
    assert (t[("greedy", "axis")].games, t[("greedy", "axis")].wins, t[("greedy", "axis")].draws) == (2, 1, 1)
    assert t[("greedy", "axis")].margin == 10
    assert t[("greedy", "allied")].wins == 1 and t[("greedy", "allied")].margin == 6
    assert t[("random", "allied")].margin == -10


def test_random_player_is_seeded(gazala: Scenario) -> None:
    def orders(seed: int) -> list[str]:
        game = Game(gazala, seed=seed)
        players = {Side.AXIS: make_player("random", seed), Side.ALLIED: make_player("random", seed + 1)}
        for _ in range(40):
            d = game.decision
            assert d is not None
            game.play(players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side)))
        return game.notation()

    assert orders(5) == orders(5)
    assert orders(5) != orders(6)


def test_greedy_attacks_at_good_odds_and_declines_bad_ones() -> None:
    greedy = make_player("greedy")
    weak = attack_game(unit_toml("Att", "axis", "B3", factors="8-1-4") + unit_toml("Def", "allied", "A1", factors="1-2-2"))
    assert greedy.choose(view(weak, Side.AXIS), weak.legal_orders(), outcomes_for(weak, Side.AXIS)) == EndPhase()
    game = attack_game(unit_toml("Att", "axis", "B3", factors="8-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2"))
    choice = greedy.choose(view(game, Side.AXIS), game.legal_orders(), outcomes_for(game, Side.AXIS))
    assert choice == Attack((H("B4"),), ("Att",))


def test_a_whole_game_between_computer_players_ends_with_a_result(gazala: Scenario) -> None:
    game = play_game(Game(gazala, seed=1), {Side.AXIS: make_player("greedy", 1), Side.ALLIED: make_player("greedy", 2)})
    result = gazala_vars(game).result
    assert game.is_over and result is not None and result["level"]


def test_human_at_the_terminal(gazala: Scenario) -> None:
    from tobruk.players.terminal import human_turn

    game = Game(gazala)
    lines = iter(["help", "legal", "fly away", "place 15Pz K2", "undo", "end-phase"])
    out: list[str] = []
    assert human_turn(game, read=lambda _p: next(lines), write=out.append)  # help, legal, refused, placed
    assert game.unit("15Pz").hex == H("K2")
    assert any("Type an order" in x for x in out) and any("place 15Pz" in x for x in out)
    assert any(x.endswith("  end-phase  (End this phase)") for x in out)  # the listing gives the buttons' words too
    assert any("move UNIT HEX-HEX-... [by-trucks]" in x and "weather N N" in x for x in out)  # the system's own forms
    assert any(x.startswith("refused:") for x in out)
    assert human_turn(game, read=lambda _p: next(lines), write=out.append)  # undo
    assert game.unit("15Pz").hex == H("G3")
    assert human_turn(game, read=lambda _p: next(lines), write=out.append)  # end-phase
    assert game.phase.key != "axis-setup"
    assert not human_turn(game, read=lambda _p: "quit", write=out.append)


def test_a_failing_fuzzed_game_is_saved_as_a_record_that_reproduces_it(gazala: Scenario, tmp_path: Path) -> None:
    # an order limit far below any whole game makes the run fail ("no end"), after 40 real orders
    result = fuzz_game(gazala, 4, save_to=tmp_path, max_orders=40)
    assert result.failure is not None and "no end after 40 orders" in result.failure
    assert result.record is not None and result.record.exists()
    rec = load(result.record)
    assert rec.seed == 4 and len(rec.orders) == 40
    replayed = replay(rec)  # every state hash checked on the way
    again = Game(gazala, seed=4)
    players = {Side.AXIS: make_player("random", 4 * 2 + 1), Side.ALLIED: make_player("random", 4 * 2 + 2)}
    for _ in range(40):
        d = again.decision
        assert d is not None
        again.play(players[d.side].choose(view(again, d.side), again.legal_orders(), outcomes_for(again, d.side)))
    assert replayed.state_hash() == again.state_hash()


def test_fuzz_command_runs_games_in_parallel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tobruk.cli import main

    assert main(["fuzz", "gazala-gallop", "--games", "2", "--seed", "3", "--jobs", "2", "--out", str(tmp_path)]) == 0
    assert "2/2 games, 0 failing" in capsys.readouterr().out
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("seed", "options"), [(3, ()), (11, ("nonhistorical",))])
def test_fuzzed_games_keep_every_invariant(gazala: Scenario, seed: int, options: tuple[str, ...], tmp_path: Path) -> None:
    result = fuzz_game(gazala, seed, options=options, save_to=tmp_path)
    assert result.failure is None, f"{result.failure} (record {result.record})"
    assert result.turn >= 1 and result.orders > 10


class Given(Advice):
    """A side's advice with the advisor a test gives (``None``: a system that gives none)."""

    def __init__(self, advisor: Advisor | None) -> None:
        self._given = advisor

    def advisor(self) -> Advisor | None:
        return self._given


def test_without_the_systems_advice_the_greedy_player_plays_its_generic_rule(gazala: Scenario) -> None:
    game = Game(gazala, seed=3)
    greedy, random_player = make_player("greedy", 7), make_player("random", 7)
    for _ in range(6):  # uniformly at random from its own seeded generator: what the random player picks
        d = game.decision
        assert d is not None
        seen, legal = view(game, d.side), game.legal_orders()
        choice = greedy.choose(seen, legal, Given(None))
        assert choice == random_player.choose(seen, legal, outcomes_for(game, d.side))
        game.play(choice)


def test_the_greedy_player_takes_the_advisors_best_value_the_first_listed_among_equals() -> None:
    from collections.abc import Sequence

    from tobruk.engine.actions import Action
    from tobruk.players.greedy import GreedyPlayer

    class Fixed(Advisor):
        def __init__(self, scored: list[tuple[Action, float | None]]) -> None:
            self.scored = scored

        def candidates(self) -> Sequence[Action]:
            return [a for a, _ in self.scored]

        def value(self, action: Action) -> float | None:
            return next(v for a, v in self.scored if a == action)

    a, b, c = Attack((H("B4"),), ("A",)), Attack((H("B4"),), ("B",)), EndPhase()
    choose = GreedyPlayer(1).choose
    assert choose({}, [c], Given(Fixed([(a, 1.0), (b, 3.0), (c, 2.0)]))) == b
    assert choose({}, [c], Given(Fixed([(a, 3.0), (b, 3.0), (c, None)]))) == a  # a tie: the first listed
    assert choose({}, [c], Given(Fixed([(a, None)]))) == c  # no value at all: the generic rule, among the legal


def test_the_family_advice_makes_a_declaration_it_did_not_start_with_its_strongest_attacker() -> None:
    from tobruk.mechanics.actions import Add, Declare, Target

    units = unit_toml("Weak", "axis", "B3", factors="1-1-4") + unit_toml("Strong", "axis", "C3", factors="8-4-4")
    game = attack_game(units + unit_toml("Def", "allied", "C4", factors="1-2-2"))
    game.play(Target(H("C4")))  # opened by someone else (a person at the page, say)
    advisor = game.system.advisor(game, Side.AXIS)
    assert advisor is not None
    adds = list(advisor.candidates())
    assert set(adds) == {Add("Weak"), Add("Strong")} and advisor.value(Add("Strong")) == 12.0 and advisor.value(Add("Weak")) == 2.0
    greedy = make_player("greedy")
    game.play(greedy.choose(view(game, Side.AXIS), game.legal_orders(), outcomes_for(game, Side.AXIS)))
    assert game.history[-1] == Add("Strong")
    assert greedy.choose(view(game, Side.AXIS), game.legal_orders(), outcomes_for(game, Side.AXIS)) == Declare()


def test_a_person_at_the_terminal_picks_a_listed_order_by_its_number(gazala: Scenario) -> None:
    from tobruk.players.terminal import human_turn

    game = Game(gazala)
    legal = game.legal_orders()
    out: list[str] = []
    assert human_turn(game, read=lambda _p: "3", write=out.append)
    assert game.history == [legal[2]] and out == []  # the listed action itself, not text made of it
