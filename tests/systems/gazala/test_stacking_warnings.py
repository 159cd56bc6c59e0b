"""The stacking limit said before it costs units (GG-XII.A.2, XII.B): a newcomer moved 15Pz and 21Pz into a hex that
already held 90Lt, the Recce Gruppe and KG Hecker, and lost 90Lt, Ariete and Trieste with nothing said before.  A
move that would put its hex over the limit says so (the move is allowed: the limit is checked as the phase ends,
ruling R-STACK); ending the phase so says which hexes are over it and how many units will go; the elimination says
how many must go and what counts, and offers only the units whose loss brings the hex nearer the limit."""

from __future__ import annotations

import random

import pytest

from tests.conftest import at_phase, movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.information import resample
from tobruk.engine.offers import ending_costs, offers
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Eliminate, EndPhase, Move
from tobruk.mechanics.counters import family_unit

H = Hex.parse
LIMIT = "over the stacking limit (3 units, only 2 of them division-level)"


def warned(game: Game) -> dict[str, str]:
    """The offered moves with a warning: "unit hex" and the warning."""
    return {f"{a['unit']} {a['hex']}": a["warning"] for a in offers(game)["actions"] if a["verb"] == "move" and "warning" in a}


def game_with(*units: tuple[str, str, str]) -> Game:
    """Axis units (id, hex, echelon) on a one-row map at the Axis movement phase; an Allied unit far off."""
    text = "".join(unit_toml(uid, "axis", h, echelon=echelon) for uid, h, echelon in units)
    return movement_game(text + unit_toml("T", "allied", "C12"), rows=3)


@pytest.mark.rule("GG-XII.B")
@pytest.mark.rule("GG-XII.A.2")
def test_a_move_to_the_limit_says_nothing_one_over_says_what_it_will_cost() -> None:
    game = game_with(("D1", "A1", "division"), ("B1", "A1", "subdivisional"), ("D2", "A3", "division"), ("B2", "A4", "subdivisional"))
    assert "D2 A1" not in warned(game)  # 3 units, 2 of them division-level: the limit, not over it
    game.play(Move("D2", (H("A3"), H("A2"), H("A1"))))
    assert ending_costs(game) == ""  # at the limit: ending the phase costs nothing
    assert warned(game)["B2 A1"] == (
        f"A1 would then hold 4 units, 2 of them division-level, {LIMIT}: unless units leave it, 1 must be eliminated at the end "
        "of the phase (GG-XII.B)"
    )
    game.play(Move("B2", (H("A4"), H("A3"), H("A2"), H("A1"))))  # the move is allowed (ruling R-STACK)
    assert len(game.units_at(H("A1"))) == 4
    assert ending_costs(game) == f"A1 holds 4 units, 2 of them division-level, {LIMIT}: 1 must be eliminated (GG-XII.B)"
    end = next(a for a in offers(game)["actions"] if a["verb"] == "end-phase")
    assert end["warning"] == ending_costs(game)  # the page asks for a second press


@pytest.mark.rule("GG-XII.B")
@pytest.mark.rule("GG-XII.A.2")
def test_a_third_division_is_over_the_limit_in_a_hex_of_three_units() -> None:
    game = game_with(("D1", "A1", "division"), ("D2", "A1", "division"), ("D3", "A3", "division"))
    assert warned(game)["D3 A1"] == (
        f"A1 would then hold 3 units, 3 of them division-level, {LIMIT}: unless units leave it, 1 division-level unit must be "
        "eliminated at the end of the phase (GG-XII.B)"
    )
    game.play(Move("D3", (H("A3"), H("A2"), H("A1"))))
    assert ending_costs(game) == f"A1 holds 3 units, 3 of them division-level, {LIMIT}: 1 division-level unit must be eliminated (GG-XII.B)"


@pytest.mark.rule("GG-XII.B")
def test_the_elimination_says_how_many_must_go_and_only_the_excess_goes() -> None:
    # the newcomer's stack: three division-level units and two that are not, in one hex
    game = game_with(
        ("90Lt", "A1", "division"), ("Recce", "A1", "subdivisional"), ("Hecker", "A1", "subdivisional"),
        ("15Pz", "A2", "division"), ("21Pz", "A3", "division"),
    )  # fmt: skip
    game.play(Move("15Pz", (H("A2"), H("A1"))))
    game.play(Move("21Pz", (H("A3"), H("A2"), H("A1"))))
    assert "2 must be eliminated, at least 1 of them division-level" in ending_costs(game)
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.clause == "GG-XII.B"
    assert d.prompt == (
        "eliminate units over the stacking limit (3 units, only 2 of them division-level): 2 of the 5 in A1, at least 1 of its 3 "
        "division-level ones"
    )
    says = {a["unit"]: a["says"] for a in offers(game)["actions"]}
    assert says["Recce"] == (
        "Eliminate Recce (not division-level): A1 then holds 4 units, 3 of them division-level: 1 more division-level unit must go"
    )
    assert says["90Lt"] == "Eliminate 90Lt (division-level): A1 then holds 4 units, 2 of them division-level: 1 more must go"
    game.play(Eliminate("Recce"))
    d = game.decision
    assert d is not None and d.prompt.endswith("): 1 of the 3 division-level units in A1")
    # 4 units, 3 division-level: only a division-level unit brings A1 within the limit; Hecker is not lost for nothing
    assert set(game.legal_orders()) == {Eliminate(u) for u in ("90Lt", "15Pz", "21Pz")}
    with pytest.raises(IllegalOrderError) as err:
        game.play(Eliminate("Hecker"))
    assert err.value.clause == "GG-XII.B"
    assert err.value.reason == (
        "only the units in excess are eliminated; losing Hecker would not bring its hex nearer the limit: eliminate a division-level unit"
    )
    assert {a["says"] for a in offers(game)["actions"]} >= {
        "Eliminate 21Pz (division-level): A1 then holds 3 units, 2 of them division-level: within the limit"
    }
    game.play(Eliminate("21Pz"))
    assert not family_unit(game, "Hecker").eliminated and game.phase.key == "axis-attacks"


@pytest.mark.rule("GG-XII.B")
def test_two_hexes_over_the_limit_are_said_and_asked_for_together() -> None:
    game = game_with(
        ("S1", "A1", "subdivisional"), ("S2", "A1", "subdivisional"), ("S3", "A1", "subdivisional"), ("S4", "A1", "subdivisional"),
        ("D1", "A3", "division"), ("D2", "A3", "division"), ("D3", "A3", "division"),
    )  # fmt: skip
    assert ending_costs(game) == (
        f"A1 holds 4 units, 0 of them division-level, {LIMIT}: 1 must be eliminated; A3 holds 3 units, 3 of them division-level, "
        f"{LIMIT}: 1 division-level unit must be eliminated (GG-XII.B)"
    )
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.prompt == (
        "eliminate units over the stacking limit (3 units, only 2 of them division-level): 1 of the 4 in A1; 1 of the 3 "
        "division-level units in A3"
    )
    assert set(game.legal_orders()) == {Eliminate(u) for u in ("S1", "S2", "S3", "S4", "D1", "D2", "D3")}


@pytest.mark.rule("GG-XII.B")
def test_over_the_limit_at_the_end_of_the_attacks_is_said_too() -> None:
    game = game_with(("D1", "A1", "division"), ("D2", "A1", "division"), ("D3", "A1", "division"))
    game.play(EndPhase())  # (the movement phase's elimination)
    game.play(Eliminate("D3"))
    family_unit(game, "D3").eliminated, family_unit(game, "D3").hex = False, H("A1")  # as an advance after combat would
    assert game.phase.key == "axis-attacks"
    assert ending_costs(game) == f"A1 holds 3 units, 3 of them division-level, {LIMIT}: 1 division-level unit must be eliminated (GG-XII.B)"


@pytest.mark.rule("GG-XII.B")
def test_the_warnings_are_the_same_in_every_position_the_side_cannot_tell_apart(gazala: Scenario) -> None:
    game = at_phase(Game(gazala, seed=3), "axis-movement")  # the Allied counters face down
    d = game.decision
    assert d is not None and d.side is Side.AXIS
    moves = [a for a in game.legal_orders() if isinstance(a, Move)]
    truth = [game.node.warns(game, d, a) for a in moves]
    assert any(truth)  # some move would put an Axis hex over the limit
    for k in range(3):
        drawn = resample(game, Side.AXIS, random.Random(k))
        decision = drawn.decision
        assert decision is not None
        assert [drawn.node.warns(drawn, decision, a) for a in moves] == truth
        assert drawn.step.ending_costs(drawn, Side.AXIS) == game.step.ending_costs(game, Side.AXIS)


@pytest.mark.rule("GG-XII.B")
def test_the_terminal_lists_the_warnings_with_the_orders() -> None:
    from tobruk.players.terminal import human_turn

    def listed(game: Game) -> list[str]:
        out: list[str] = []
        lines = iter(["legal", "quit"])
        human_turn(game, read=lambda _p: next(lines), write=out.append)
        return out

    game = game_with(("D1", "A1", "division"), ("D2", "A1", "division"), ("D3", "A3", "division"))
    out = listed(game)
    into = next(line for line in out if "move D3 A3-A2-A1  " in line)
    assert into.endswith(
        f"[beware: A1 would then hold 3 units, 3 of them division-level, {LIMIT}: unless units leave it, 1 division-level unit "
        "must be eliminated at the end of the phase (GG-XII.B)]"
    )
    assert not any("beware" in line for line in out if "move D3 A3-A2  " in line or "end-phase" in line)
    game.play(Move("D3", (H("A3"), H("A2"), H("A1"))))
    end = next(line for line in listed(game) if "end-phase" in line)
    assert end.endswith(f"[beware: {ending_costs(game)}]")


@pytest.mark.rule("GG-XII.B")
def test_the_terminal_makes_an_order_that_costs_units_only_when_given_twice() -> None:
    """As the page asks a second press: the move into the full hex, typed, is told its cost and not made; typed
    again, made.  Ending the phase over-stacked the same (by its number the second time); a move that costs nothing
    is made at once."""
    from tobruk.players.terminal import human_turn

    def typed(game: Game, *orders: str) -> list[str]:
        out: list[str] = []
        lines = iter(orders)
        human_turn(game, read=lambda _p: next(lines), write=out.append)
        return out

    game = game_with(("D1", "A1", "division"), ("D2", "A1", "division"), ("D3", "A3", "division"), ("D4", "A3", "division"))
    step = game.step.key
    out = typed(game, "move D3 A3-A2-A1", "move D3 A3-A2-A1")
    assert out[0].startswith("beware: A1 would then hold 3 units, 3 of them division-level") and len(out) == 1
    assert game.unit("D3").hex == H("A1")  # made the second time only
    assert typed(game, "move D4 A3-A2") == [] and game.unit("D4").hex == H("A2")  # no cost: made at once
    number = next(i for i, a in enumerate(game.legal_orders(), 1) if a.ends_step)
    cost = ending_costs(game)
    assert cost and game.step.key == step
    beware = f"beware: {cost}.  Give the order again to make it anyway, or another."
    out = typed(game, "end-phase", "show", "end-phase", "quit")  # (anything between: the cost is told again)
    assert out.count(beware) == 2 and game.step.key == step
    assert typed(game, "end-phase", str(number)) == [beware]
    assert game.history[-1].verb == "end-phase"


@pytest.mark.rule("GG-XII.B")
@pytest.mark.rule("GG-VII.B")
def test_a_reinforcement_entering_a_full_hex_is_warned_too() -> None:
    zone = '[zones.east]\nhexes = ["A8"]\n'
    arrives = 'arrives = { turn = 1, zone = "east" }'
    units = (
        unit_toml("D1", "allied", "A8")
        + unit_toml("D2", "allied", "A8")
        + unit_toml("New", "allied", None, extra=arrives)
        + unit_toml("B", "allied", None, echelon="subdivisional", extra=arrives)
        + unit_toml("T", "axis", "C1")
    )
    game = movement_game(units, zone, rows=3, columns=8, side="allied")
    d = game.decision
    assert d is not None
    said = {a["unit"]: a.get("warning", "") for a in offers(game)["actions"] if a["verb"] == "place"}
    assert said["New"].startswith("A8 would then hold 3 units, 3 of them division-level, over the stacking limit")
    assert said["B"] == ""  # a brigade: 3 units, 2 of them division-level
