"""The bugout through the game (CA-S.4 in the operational movement step): any unit, disrupted or not, at least 16
hexes back toward its side's edge hex, a 1-in-6 die for each hex entered under a movement-stopping enemy zone
(chance nodes), arriving disrupted with a Newly Disrupted marker, or leaving the map through the edge hex."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign.actions import Allocate, Bugout, Sea
from tobruk.systems.campaign.state import campaign_vars, counter_defs

from .kit import H, arrange, lines_since, new_game, to_step, unit

# Gazala (II May 42), the Axis movement step: the centre sheet's Axis edge hex is C27 (the coastal road's west end).
# 90 Lt at L45 is 23 hexes from it; J30 is 7 from it (16 back), J31 8 (15 back).
EDGE = H("C27")
START = H("L45")
FAR = {"50Div": "O50"}  # an Allied unit far from the way


def axis_movement(placed: dict[str, str], **statuses: tuple[str, ...]) -> Game:
    game = to_step(new_game("na-gazala"), "axis-movement")
    arrange(game, {"90Lt": START.label, **FAR, **placed}, **statuses)
    return game


def refused(game: Game, order: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


def bugouts(game: Game, uid: str) -> set[str]:
    return {str(a) for a in game.legal_orders() if isinstance(a, Bugout) and a.unit == uid}


@pytest.mark.rule("CA-S.4")
def test_a_bugout_ends_at_least_16_hexes_back_and_15_is_refused() -> None:
    back16, back15 = H("J30"), H("J31")
    assert START.distance(EDGE) - back16.distance(EDGE) == 16 and START.distance(EDGE) - back15.distance(EDGE) == 15
    game = axis_movement({})
    listed = bugouts(game, "90Lt")
    assert "bugout 90Lt J30" in listed and "bugout 90Lt J31" not in listed
    assert "bugout 90Lt C27 off-map" in listed  # as far as the player wishes: off the map through the edge hex
    for order in listed:  # every end listed is 16 hexes back or more
        end = H(order.split()[2])
        assert order.endswith("off-map") or START.distance(EDGE) - end.distance(EDGE) >= 16
    e = refused(game, "bugout 90Lt J31")
    assert e.clause == "CA-S.4" and "15 hexes back" in e.reason
    game.play("bugout 90Lt J30")  # no enemy zone on the way: no die
    assert unit(game, "90Lt").hex == back16


@pytest.mark.rule("CA-S.4")
@pytest.mark.parametrize(("division", "risky"), [("M43", 0), ("N43", 1), ("N42", 2)])
def test_each_hex_entered_under_an_enemy_zone_is_a_die_and_the_unit_arrives_with_five_sixths_to_the_k(division: str, risky: int) -> None:
    """90 Lt bugs out from O44 to H31 (23 and 7 hexes from the edge hex: 16 back) on open ground, where an Allied
    division stops movement in all six hexes around it (CA-Z.1).  The hexes one step nearer the edge than O44 are O43
    and N43, two steps O42, N42 and M43.  A division at N43 holds one first step and stands beside the other, O43,
    from which O42 is clear: one die.  At N42 it stands beside both first steps, and beside O42 and M43 too: two.  At
    M43, O43 then O42 pass clear of it: none."""
    game = to_step(new_game("na-gazala"), "axis-movement")
    arrange(game, {"90Lt": "O44", "1SADiv": division, **FAR})
    assert H("O44").distance(EDGE) - H("H31").distance(EDGE) == 16
    rolls = len(game.dice.log)
    game.explicit_chance = True
    n = len(game.state.entries)
    game.play("bugout 90Lt H31")
    nodes, arrives = 0, Fraction(1)
    while game.chance is not None:
        outcomes = game.chance_outcomes()
        assert [o.value for o in outcomes if o.label == "eliminated"] == [1]  # a die: a 1 eliminates (the 17%)
        assert sum(o.probability for o in outcomes if o.label == "eliminated") == Fraction(1, 6)
        assert "bugout of 90Lt" in game.chance.purpose(game)
        passing = [o for o in outcomes if o.label == "passes"]
        arrives *= sum(o.probability for o in passing)
        game.play_chance(outcomes.index(passing[0]))
        nodes += 1
    assert nodes == risky and arrives == Fraction(5, 6) ** risky
    assert len(game.dice.log) == rolls + risky  # each die recorded, none outside a node
    line = lines_since(game, n)[-1]
    way = [H(x) for x in line.split("bugs out ")[1].split(",")[0].split("-")]
    assert way[0] == H("O44") and way[-1] == H("H31") and len(way) == 17  # one hex nearer the edge a step
    assert sum(h.is_adjacent(H(division)) for h in way[1:]) == risky  # the dice: the zone hexes the way entered
    c = unit(game, "90Lt")
    assert c.hex == H("H31") and c.disrupted and c.newly_disrupted


@pytest.mark.rule("CA-S.4")
def test_the_unit_is_eliminated_at_the_first_one_and_rolls_no_more() -> None:
    game = axis_movement({"1SADiv": "L43"})
    game.explicit_chance = True
    n = len(game.state.entries)
    game.play("bugout 90Lt J30")
    game.play_chance([o.value for o in game.chance_outcomes()].index(1))
    assert game.chance is None
    c = unit(game, "90Lt")
    assert c.eliminated and c.hex is None
    assert lines_since(game, n)[-1].startswith("Axis: 90Lt bugs out from L45 and is eliminated in")


@pytest.mark.rule("CA-S.4")
@pytest.mark.rule("CA-S.1")
def test_a_disrupted_unit_may_bug_out_and_arrives_with_a_newly_disrupted_marker() -> None:
    game = axis_movement({}, disrupted=("90Lt",))
    assert not [a for a in game.legal_orders() if isinstance(a, Move) and a.unit == "90Lt"]  # CA-G.15
    assert "bugout 90Lt J30" in bugouts(game, "90Lt")
    game.play("bugout 90Lt J30")
    c = unit(game, "90Lt")
    assert c.hex == H("J30") and c.disrupted and c.newly_disrupted and c.moved


@pytest.mark.rule("CA-S.4")
def test_the_bugout_takes_the_place_of_the_units_move() -> None:
    game = axis_movement({"Trieste": "L44", "1FFBde": "M45"})
    game.play("bugout 90Lt J30")
    assert not [a for a in game.legal_orders() if getattr(a, "unit", None) == "90Lt"]
    assert refused(game, "bugout 90Lt I30").clause == "CA-S.4"
    game.play(Move("Trieste", (H("L43"),)))
    e = refused(game, "bugout Trieste J30")
    assert e.clause == "CA-S.4" and "moved already" in e.reason
    game = axis_movement({"1FFBde": "L46"})
    game.play(Allocate("90Lt", H("L46")))
    e = refused(game, "bugout 90Lt J30")
    assert e.clause == "CA-Q.1" and "allocated" in e.reason


@pytest.mark.rule("CA-S.4")
@pytest.mark.rule("CA-M.5")
def test_no_bugout_in_the_breakthrough() -> None:
    game = axis_movement({"15Pz": "L44"})
    game.play(EndPhase())
    assert game.step.key == "axis-breakthrough"
    assert not [a for a in game.legal_orders() if isinstance(a, Bugout)]
    e = refused(game, "bugout 90Lt J30")
    assert e.clause == "CA-S.4" and "operational movement step" in e.reason


@pytest.mark.rule("CA-S.4")
@pytest.mark.rule("CA-SC.3")
def test_el_agheila_iii_a_unit_leaves_the_map_through_its_edge_hex_out_of_play() -> None:
    game = to_step(new_game("na-el-agheila-3"), "axis-movement")
    arrange(game, {"90Lt": "Z3", "51Div": "Z20"})
    assert "bugout 90Lt AA1 off-map" in bugouts(game, "90Lt")
    assert refused(game, "bugout 90Lt Z2 off-map").clause == "CA-S.4"  # only through the edge hex
    n = len(game.state.entries)
    game.play("bugout 90Lt AA1 off-map")
    c = unit(game, "90Lt")
    assert c.hex is None and not c.eliminated and not c.disrupted
    assert campaign_vars(game).evacuated == ("90Lt",)
    assert lines_since(game, n)[-1].endswith("and leaves the map (CA-S.4).")
    to_step(game, "axis-reinforcements")
    assert not [a for a in game.legal_orders() if getattr(a, "unit", None) == "90Lt"]  # out of play, no replacement


@pytest.mark.rule("CA-S.4")
@pytest.mark.rule("CA-F.4")
def test_the_dummy_never_bugs_out() -> None:
    game = to_step(new_game("na-crusader"), "allied-movement")
    dummy = next(uid for uid in game.units_of(Side.ALLIED) if counter_defs(game)[uid].type == "dummy")
    assert not bugouts(game, dummy)
    assert refused(game, f"bugout {dummy} O53").clause == "CA-F.4"


@pytest.mark.rule("CA-S.4")
@pytest.mark.rule("CA-S.3")
def test_the_new_orders_read_back_from_their_notation_and_fields() -> None:
    game = axis_movement({})
    listed = [a for a in game.legal_orders() if isinstance(a, Bugout)]
    assert any(a.off for a in listed) and any(not a.off for a in listed)
    for order in listed:
        assert game.parse(order.notation()) == order
        assert game.system.vocabulary.from_fields(order.fields()) == order
    assert game.parse("bugout 90Lt C27 off-map") == Bugout("90Lt", EDGE, True)
    assert game.parse("sea 90Lt C30") == Sea("90Lt", H("C30"))
    assert Bugout("90Lt", EDGE, True).group() == "bugout off-map"
    ids = game.legal_id_list()
    assert len(ids) == len(set(ids))  # each bugout its own id, the off-map one apart from a bugout to the edge hex
