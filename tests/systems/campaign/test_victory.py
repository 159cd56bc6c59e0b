"""Victory determination against the scenario's condition (CA-Q.1 step 7, CA-Q.2 step 8, CA-SC.1-9)."""

from __future__ import annotations

import pytest

from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import live, victory
from tobruk.systems.campaign.scenario import CampaignSetup, Victory, VictoryTest
from tobruk.systems.campaign.state import campaign_vars

from .kit import H, arrange, new_game, scenario, to_step, unit


@pytest.mark.rule("CA-SC.4")
def test_crusader_is_won_with_a_supply_line_into_tobruk_judged_at_the_end() -> None:
    game = new_game("na-crusader")
    test = live.setup_of(game).victory.test
    # with the Axis gone, the garrison's line runs to the east coastal road: met, but only at the end
    arrange(game, {"44Div": "J39", "NZDiv": "R50"})
    assert victory.judge(game, test, Side.ALLIED, final=True)[0] is True
    assert victory.judge(game, test, Side.ALLIED, final=False)[0] is False
    # as the scenario starts, the garrison is cut off: not met
    game = new_game("na-crusader")
    found = victory.judge(game, test, Side.ALLIED, final=True)
    assert found == (False, "a supply line into tobruk: none")


@pytest.mark.rule("CA-SC.5")
@pytest.mark.rule("CA-Q.1")
def test_gazala_is_won_by_taking_tobruk_noted_at_a_victory_determination() -> None:
    game = to_step(new_game("na-gazala"), "axis-movement")
    centre = sorted(game.scenario.zone("tobruk-centre"))[0]
    arrange(game, {"90Lt": centre.label, "1FFBde": "P50"})
    game.play(EndPhase())  # the breakthrough, in which 90Lt (which has not moved) may take part
    assert game.step.key == "axis-breakthrough"
    game.play(EndPhase())  # then the Allied victory determination notes the zones taken
    v = campaign_vars(game)
    assert v.taken["axis"] == ("tobruk-centre",)
    assert v.victory["condition"] == "met"  # "takes Tobruk": the Axis condition, met at any time
    assert v.victory["strategic"] == "not met"  # both Tobruk and the east edge


@pytest.mark.rule("CA-SC.1")
def test_a_zone_held_is_lost_once_the_enemy_has_taken_it() -> None:
    game = new_game("na-el-agheila-1")
    test = live.setup_of(game).victory.test
    assert victory.judge(game, test, Side.ALLIED, final=True) == (True, "hold agedabia against the Axis")
    campaign_vars(game).taken = {"axis": ("agedabia",)}
    assert victory.judge(game, test, Side.ALLIED, final=True)[0] is False


@pytest.mark.rule("CA-SC.6")
def test_mersa_matruh_is_bypassed_by_an_axis_unit_east_of_it_judged_at_the_end() -> None:
    game = new_game("na-mersa-matruh")
    bypass = condition("na-mersa-matruh").test.parts[1]
    zone = game.scenario.zone("mersa-matruh")
    east = max(h.col for h in zone)
    level = next(h for h in zone if h.col == east)
    past = next(h for h in level.neighbours() if h.col == east + 1 and game.scenario.map.is_land(h))
    arrange(game, {"90Lt": past.label, "50Div": "V79"})
    assert victory.judge(game, bypass, Side.AXIS, final=True) == (True, "bypass mersa-matruh to the east: 90Lt")
    assert victory.judge(game, bypass, Side.AXIS, final=False)[0] is False  # judged at the end
    arrange(game, {"90Lt": level.label, "50Div": "V79"})  # level with it is not past it
    assert victory.judge(game, bypass, Side.AXIS, final=True) == (False, "bypass mersa-matruh to the east: no unit")


@pytest.mark.rule("CA-SC.3")
@pytest.mark.rule("CA-S.4")
def test_el_agheila_iii_needs_every_axis_unit_left_by_bugout_and_none_on_the_map() -> None:
    game = new_game("na-el-agheila-3")
    evacuate = condition("na-el-agheila-3").test.parts[1]
    assert evacuate == VictoryTest("evacuate", "nw-bugout-hex", at="end")
    v = campaign_vars(game)
    arrange(game, {"90Lt": "AA6", "51Div": "AA20"})
    v.evacuated = ("15Pz", "21Pz")
    why = "evacuate through nw-bugout-hex: 2 left by bugout, {} still on the map"
    assert victory.judge(game, evacuate, Side.AXIS, final=True) == (False, why.format(1))
    arrange(game, {"51Div": "AA20"})
    assert victory.judge(game, evacuate, Side.AXIS, final=True) == (True, why.format(0))
    assert victory.judge(game, evacuate, Side.AXIS, final=False)[0] is False
    v.evacuated = ()  # none left the map: all eliminated is no evacuation
    assert victory.judge(game, evacuate, Side.AXIS, final=True)[0] is False


def test_a_condition_the_rules_do_not_state_says_so_rather_than_guess() -> None:
    game = new_game("na-mersa-matruh")
    found = victory.judge(game, condition("na-campaign").test, Side.AXIS, final=True)
    assert found == (None, "the rules give this game no victory condition (CA-R.1)")


def condition(name: str) -> Victory:
    setup = scenario(name).extra
    assert isinstance(setup, CampaignSetup)
    return setup.victory


@pytest.mark.rule("CA-SC.5")
def test_gazalas_condition_is_tobruk_taken_at_any_time_or_a_supplied_unit_on_the_east_edge_and_both_strategic() -> None:
    v = condition("na-gazala")
    take, east = VictoryTest("take", "tobruk-centre", at="any-time"), VictoryTest("occupy", "sheet-east-edge", supplied=True, at="end")
    assert v.side is Side.AXIS
    assert v.test == VictoryTest("any", None, at="end", parts=(take, east))
    assert v.strategic == VictoryTest("all", None, at="end", parts=(take, east))


@pytest.mark.rule("CA-SC.4")
@pytest.mark.rule("CA-SC.6")
@pytest.mark.rule("CA-SC.1")
def test_a_bypass_and_a_supply_line_are_judged_toward_the_east_a_hold_at_any_time() -> None:
    assert condition("na-crusader").test == VictoryTest("supply-line", "tobruk", at="end", toward="east")
    bypass = condition("na-mersa-matruh").test.parts[1]
    assert bypass == VictoryTest("bypass", "mersa-matruh", at="end", toward="east")
    agedabia = condition("na-el-agheila-1")
    assert (agedabia.side, agedabia.test, agedabia.strategic) == (Side.ALLIED, VictoryTest("hold", "agedabia", at="any-time"), None)
    assert condition("na-campaign").side is None and condition("na-campaign").test.test == "unstated"


@pytest.mark.rule("CA-SC.1")
def test_the_enemy_standing_in_a_zone_to_be_held_takes_it_and_the_log_says_so() -> None:
    game = arrange(new_game("na-el-agheila-1"), {"Ariete": "W12"})  # W12: Agedabia
    n = len(game.state.entries)
    victory.note_taken(game)
    assert campaign_vars(game).taken == {"axis": ("agedabia",)}  # the Axis takes what the Allies must hold
    assert [(e.text, e.kind) for e in game.state.entries[n:]] == [("Axis takes agedabia.", "event")]


@pytest.mark.rule("CA-SC.3")
def test_el_agheila_iiis_hold_is_lost_to_an_allied_unit_in_el_agheila() -> None:
    game = arrange(new_game("na-el-agheila-3"), {"51Div": "AB4", "90Lt": "AA6"})  # AB4: El Agheila
    victory.note_taken(game)  # the Axis has no zone to take: the Allies' are still noted
    assert campaign_vars(game).taken == {"allied": ("el-agheila",)}


@pytest.mark.rule("CA-SC.1")
def test_all_is_met_when_every_part_is_and_names_each() -> None:
    game = new_game("na-el-agheila-1")
    campaign_vars(game).taken = {"allied": ("agedabia",)}
    both = VictoryTest("all", None, parts=(VictoryTest("hold", "agedabia"), VictoryTest("take", "agedabia")))
    assert victory.judge(game, both, Side.ALLIED, final=True) == (True, "hold agedabia against the Axis; take agedabia")


@pytest.mark.rule("CA-SC.5")
def test_to_occupy_a_zone_counts_the_sides_own_units_there_and_names_them() -> None:
    game = arrange(new_game("na-gazala"), {"90Lt": "O53", "Trieste": "N53", "50Div": "P53"})  # on the east edge
    east = VictoryTest("occupy", "sheet-east-edge")
    assert victory.judge(game, east, Side.AXIS, final=True) == (True, "occupy sheet-east-edge: Trieste, 90Lt")
    arrange(game, {"50Div": "P53", "90Lt": "V30"})
    assert victory.judge(game, east, Side.AXIS, final=True) == (False, "occupy sheet-east-edge: no unit")  # not the enemy's


@pytest.mark.rule("CA-R.1")
def test_a_determination_of_an_unstated_condition_records_and_logs_that_it_cannot_be_judged() -> None:
    game = new_game("na-campaign")
    n = len(game.state.entries)
    victory.determination(game, final=True)
    why = "the rules give this game no victory condition (CA-R.1)"
    assert campaign_vars(game).victory == {"condition": "cannot be judged", "why": why}
    (line,) = game.state.entries[n:]
    assert line.kind == "event" and line.text.endswith(f"Cannot be judged ({why}).")


@pytest.mark.rule("CA-SC.5")
def test_gazalas_strategic_victory_is_met_with_tobruk_taken_and_a_supplied_unit_on_the_east_edge() -> None:
    game = arrange(new_game("na-gazala"), {"90Lt": "O53"})  # no Allied unit to cut its line
    campaign_vars(game).taken = {"axis": ("tobruk-centre",)}
    victory.determination(game, final=True)
    assert campaign_vars(game).victory["strategic"] == "met"


@pytest.mark.rule("CA-SC.5")
def test_a_condition_met_before_the_end_stays_met_and_is_not_judged_again() -> None:
    game = arrange(new_game("na-gazala"), {"90Lt": "V30", "50Div": "P53"})
    campaign_vars(game).taken = {"axis": ("tobruk-centre",)}
    victory.determination(game, final=False)
    assert campaign_vars(game).victory["condition"] == "met"
    n = len(game.state.entries)
    victory.determination(game, final=True)
    assert campaign_vars(game).victory["condition"] == "met" and "strategic" in campaign_vars(game).victory
    assert game.state.entries[n:] == []


@pytest.mark.rule("CA-SC.5")
@pytest.mark.rule("CA-Q.2")
def test_a_test_judged_at_the_end_is_not_met_at_an_earlier_turns_determination() -> None:
    game = arrange(to_step(new_game("na-gazala"), "axis-movement"), {"90Lt": "O53"})  # supplied on the east edge
    assert game.turn < game.scenario.turns
    while game.turn == 1:  # to the German determination that closes the first game-turn
        game.play(EndPhase())
    assert unit(game, "90Lt").hex == H("O53")
    assert campaign_vars(game).victory["condition"] == "not met"  # the east edge is judged at the end only
