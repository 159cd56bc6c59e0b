"""The Allied rail movement through the game (CA-S.2 after CA-Q.2 step 1): undisrupted Allied units along the line
from the east edge to the turn's railhead, cut by enemy zones no friendly unit occupies, arriving undisrupted."""

from __future__ import annotations

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign import rail

from .kit import H, arrange, lines_since, new_game, past_set_up, to_step, unit

# Mersa Matruh (II Jun 42): the railhead is Belhamed, the line V79-V78-V77-V76-V75-V74-U74-...-T70-...-R53 on the
# east sheet; 21st Panzer at W77 puts V76 to V79 under its zone
ENEMY = {"21Pz": "W77"}


def at_rail(placed: dict[str, str], **statuses: tuple[str, ...]) -> Game:
    game = arrange(new_game("na-mersa-matruh"), {**ENEMY, **placed}, **statuses)
    return to_step(game, "allied-rail")


def ends(game: Game, uid: str) -> set[str]:
    return {a.path[-1].label for a in game.legal_orders() if isinstance(a, Move) and a.unit == uid}


def refused(game: Game, order: str | Move) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


@pytest.mark.rule("CA-S.2")
def test_rail_along_the_line_up_to_an_enemy_zone_no_friend_occupies() -> None:
    game = at_rail({"50Div": "T70"})
    assert {"T71", "V75", "Q64", "R53"} <= ends(game, "50Div")
    assert not {"V76", "V77", "V79"} & ends(game, "50Div")
    e = refused(game, "move 50Div V79")
    assert e.clause == "CA-S.2" and "V76 is in an enemy zone of control" in e.reason
    assert refused(game, "move 50Div T60").clause == "CA-S.2"  # off the railway


@pytest.mark.rule("CA-S.2")
def test_a_friendly_unit_in_the_zone_keeps_the_line_open_there() -> None:
    game = at_rail({"50Div": "T70", "3IndMotBde": "V76"})
    assert "V76" in ends(game, "50Div")


@pytest.mark.rule("CA-S.2")
def test_a_unit_moved_by_rail_arrives_undisrupted_and_moves_as_from_there() -> None:
    game = at_rail({"50Div": "T70"})
    n = len(game.state.entries)
    game.play("move 50Div Q64")
    c = unit(game, "50Div")
    assert c.hex == H("Q64") and not c.disrupted and not c.moved
    assert "Allied: 50Div moves by rail T70-Q64 (CA-S.2)." in lines_since(game, n)
    assert game.step.key == "allied-early-attacks"  # once in the step: no unit is left to go, the step passes
    to_step(game, "allied-movement")
    assert any(isinstance(a, Move) and a.unit == "50Div" for a in game.legal_orders())


@pytest.mark.rule("CA-S.2")
def test_a_disrupted_unit_does_not_move_by_rail_and_the_step_passes_when_none_may() -> None:
    game = arrange(new_game("na-mersa-matruh"), {**ENEMY, "50Div": "T70", "5IndDiv": "T68"}, disrupted=("50Div",))
    game = to_step(game, "allied-rail")
    assert "50Div" not in {a.unit for a in game.legal_orders() if isinstance(a, Move)}
    e = refused(game, "move 50Div Q64")
    assert e.clause == "CA-S.2" and "disrupted" in e.reason
    game = arrange(new_game("na-mersa-matruh"), {**ENEMY, "50Div": "P60"})  # off the line
    while game.step.key != "allied-early-attacks":
        assert game.step.key != "allied-rail" or game.decision is None
        game.play(EndPhase())


@pytest.mark.rule("CA-S.2")
def test_any_number_of_units_move_by_rail_each_once() -> None:
    game = at_rail({"50Div": "T70", "5IndDiv": "T68"})
    game.play("move 50Div Q64")
    assert game.step.key == "allied-rail"  # 5th Indian may still go
    e = refused(game, "move 50Div R53")
    assert e.clause == "CA-S.2" and "has moved by rail" in e.reason
    game.play("move 5IndDiv V75")
    assert unit(game, "5IndDiv").hex == H("V75")


@pytest.mark.rule("CA-F.3")
@pytest.mark.rule("CA-F.1")
@pytest.mark.parametrize("fort", [True, False])
def test_an_empty_fort_built_by_the_axis_on_the_line_cuts_it(fort: bool) -> None:
    game = arrange(past_set_up(new_game("na-mersa-matruh")), {"21Pz": "R50", "50Div": "T70"})  # 21st Panzer 6 hexes off R56
    assert game.step.key == "axis-reinforcements" and H("R50").distance(H("R56")) == 6
    if fort:
        game.play("build R56")
    to_step(game, "allied-rail")
    assert {"R57", "V79"} <= ends(game, "50Div")
    assert ({"R56", "R55", "R53"} <= ends(game, "50Div")) is not fort


@pytest.mark.rule("CA-S.2")
def test_rail_refusals_name_the_unit_the_map_and_the_railway() -> None:
    game = at_rail({"50Div": "T70", "5IndDiv": "T68"})
    e = refused(game, Move("21Pz", (H("T71"),)))
    assert (e.clause, e.reason) == ("CA-S.2", "'21Pz' is not one of your units")
    e = refused(game, Move("NZDiv", (H("T71"),)))  # (every unit not placed is off the map)
    assert (e.clause, e.reason) == ("CA-S.2", "NZDiv is not on the map")
    # a way given hex by hex (the hexes entered) must be the railway's: from T70 to T72 it is T71 then T72
    game.play(Move("50Div", (H("T71"), H("T72"))))
    assert unit(game, "50Div").hex == H("T72")
    e = refused(game, Move("5IndDiv", (H("U69"), H("T70"))))
    assert (e.clause, e.reason) == ("CA-S.2", "a rail move runs along the railway (T69-T70)")


@pytest.mark.rule("CA-S.2")
def test_a_rail_move_west_runs_hex_by_hex_along_the_railway_and_is_a_move() -> None:
    game = at_rail({"50Div": "T70"})
    # from T70 the railway runs west T69, T68, ... to the railhead: the order to T68 enters T69 then T68
    assert Move("50Div", (H("T69"), H("T68"))) in game.legal_orders()
    n = len(game.state.entries)
    game.play(Move("50Div", (H("T69"), H("T68"))))
    assert unit(game, "50Div").hex == H("T68")
    assert next((e.text, e.kind) for e in game.state.entries[n:]) == ("Allied: 50Div moves by rail T70-T68 (CA-S.2).", "move")


@pytest.mark.rule("CA-S.2")
def test_no_rail_move_before_the_tracks_first_railhead() -> None:
    game = arrange(new_game("na-el-agheila-1"), {"3ArmBde": "W12"})  # Mar 41: no railhead yet
    with pytest.raises(IllegalOrderError) as e:
        rail.move(game, Move("3ArmBde", (H("W12"), H("W13"))))
    assert e.value.clause == "CA-S.2" and e.value.reason.startswith("the turn track has no railhead on ")


@pytest.mark.rule("CA-F.11")
def test_a_rail_order_to_a_hex_off_the_map_names_that_hex() -> None:
    game = at_rail({"50Div": "T70"})
    with pytest.raises(IllegalOrderError) as e:
        rail.move(game, Move("50Div", (H("T70"), H("T69"), H("ZZ99"))))
    assert (e.value.clause, e.value.reason) == ("CA-F.11", "ZZ99 is not on the map")


@pytest.mark.rule("CA-S.2")
def test_the_rail_orders_are_listed_along_the_line_from_the_east_edge() -> None:
    game = at_rail({"50Div": "T70"})
    line = [game.scenario.map.hexes[i].label for i in rail.line(game)]
    ends = [a.path[-1].label for a in game.legal_orders() if isinstance(a, Move) and a.unit == "50Div"]
    assert ends == [h for h in line if h in ends] and {"V75", "R53"} <= set(ends)
