"""Why a hex is refused as the end of an operational move: each reason in the player's words with the clause that
gives it (CA-M.1-3, CA-Z.1-2, CA-F.8, CA-F.11), and the figures it quotes, on the small boards of test_movement.py.

The Guards Brigade (an infantry-type brigade) has 3 MF and a bonus of 4 (CA-M.2, CA-M.3); one hex of clear costs
1 MF.  A row-B hex is half a hex east of the row-A hex of the same number, so B6 touches A6 and A7, B5 and B7, C6
and C7.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.systems.campaign.boards import board, ix, position
from tobruk.engine.errors import IllegalOrderError
from tobruk.systems.campaign.movement import reach, walk
from tobruk.systems.campaign.position import CampaignPosition


def refusal(p: CampaignPosition, unit: str, to: str, **how: bool) -> str:
    why = reach(p, unit, **how).refusal(ix(p, to))
    assert why is not None, f"{to} is reachable"
    return why


@pytest.mark.rule("CA-M.1")
def test_the_hex_it_stands_in_is_no_move() -> None:
    p = position(board(1, 8), "GdsBde@A1")
    assert refusal(p, "GdsBde", "A1") == "[CA-M.1] GdsBde already stands in A1"


@pytest.mark.rule("CA-F.11")
def test_the_sea_and_the_ground_outside_the_scenarios_section_are_named_apart() -> None:
    p = position(board(1, 8, terrain={"A4": "sea"}), "GdsBde@A1")
    assert refusal(p, "GdsBde", "A4") == "[CA-F.11] A4 is sea: no unit moves into the sea or off the map"
    q = position(board(1, 8), "GdsBde@A1")
    section = replace(q, area=frozenset(ix(q, f"A{k}") for k in range(1, 6)))  # A1-A5 in play
    assert reach(section, "GdsBde").refusal(ix(section, "A5")) is None  # the section's last hex
    assert refusal(section, "GdsBde", "A6") == (
        "[CA-F.11] A6 is outside the scenario's section of the map: no unit moves into the sea or off the map"
    )


@pytest.mark.rule("CA-F.8")
def test_impassable_ground_is_named_with_its_kind_and_so_is_a_way_it_bars() -> None:
    p = position(board(1, 8, terrain={"A4": "depression"}), "GdsBde@A1")
    assert refusal(p, "GdsBde", "A4") == "[CA-F.8] A4 is depression, ground no unit may enter"
    assert refusal(p, "GdsBde", "A6") == "[CA-F.8] impassable ground or escarpments bar every way to A6"


@pytest.mark.rule("CA-M.1")
def test_an_enemy_hex_and_a_hex_only_an_enemy_hex_leads_to() -> None:
    p = position(board(1, 8), "GdsBde@A1", "15MotBde@A4")  # a lone brigade: no zone that stops, but its hex is barred
    assert refusal(p, "GdsBde", "A4") == "[CA-M.1] A4 holds enemy units: opposing units never share or pass through a hex"
    assert refusal(p, "GdsBde", "A6") == "[CA-M.1] enemy units bar every way to A6: opposing units never pass through a hex"


@pytest.mark.rule("CA-Z.1")
def test_a_hex_beyond_a_divisions_zone_on_every_way() -> None:
    p = position(board(3, 12), "GdsBde@B3", "90Lt@B6")  # rows A and C pass through A6/A7 and C6/C7, in its zone
    assert refusal(p, "GdsBde", "B9") == ("[CA-Z.1] every way to B9 passes a hex of enemy zone of control, where GdsBde must stop")
    assert reach(p, "GdsBde").refusal(ix(p, "A6")) is None  # the zone itself may be entered, 3 MF away (the move ends)


@pytest.mark.rule("CA-Z.2")
def test_straight_from_one_zone_hex_into_another_of_the_same_division() -> None:
    p = position(board(3, 10), "GdsBde@A5", "90Lt@B5")  # A5 and A6 both touch B5; every other way to A6 is in the zone
    assert refusal(p, "GdsBde", "A6") == "[CA-Z.2] A5-A6 moves straight from one enemy zone of control into another of the same enemy"
    with pytest.raises(IllegalOrderError) as err:
        walk(p, "GdsBde", [ix(p, "A5"), ix(p, "A6")])
    assert err.value.clause == "CA-Z.2"


@pytest.mark.rule("CA-M.3")
@pytest.mark.rule("CA-M.2")
def test_a_zone_hex_the_bonus_would_reach_names_the_bonus_and_one_hex_further_the_mf() -> None:
    # 90Lt's zone takes in A8 (7 MF away: exactly the 3 + 4 the bonus would have given) ...
    near = position(board(1, 12), "GdsBde@A1", "90Lt@A9")
    assert refusal(near, "GdsBde", "A8") == (
        "[CA-M.3] entering A8, in the zone of an undisrupted enemy division or corps, gives no movement bonus (3 MF)"
    )
    # ... or A9 (8 MF: beyond the bonus too)
    far = position(board(1, 12), "GdsBde@A1", "90Lt@A10")
    assert refusal(far, "GdsBde", "A9") == "[CA-M.2] A9 is 8 MF away, more than the 7 MF of GdsBde"


@pytest.mark.rule("CA-M.3")
@pytest.mark.rule("CA-M.2")
def test_a_unit_that_will_attack_is_told_the_bonus_is_withheld_while_the_bonus_would_have_reached() -> None:
    p = position(board(1, 12), "GdsBde@A1")
    attack = {"will_attack": True}
    assert reach(p, "GdsBde", **attack).refusal(ix(p, "A4")) is None  # 3 MF: its own
    assert refusal(p, "GdsBde", "A5", **attack) == (
        "[CA-M.3] a unit that will attack gets no movement bonus: A5 is 4 MF away, more than the 3 MF left"
    )
    assert refusal(p, "GdsBde", "A8", **attack).startswith("[CA-M.3] a unit that will attack gets no movement bonus: A8 is 7 MF")
    assert refusal(p, "GdsBde", "A9", **attack) == "[CA-M.2] A9 is 8 MF away, more than the 3 MF of GdsBde"


def walked(p: CampaignPosition, unit: str, *path: int) -> tuple[str, str]:
    with pytest.raises(IllegalOrderError) as e:
        walk(p, unit, list(path))
    return e.value.clause, e.value.reason


@pytest.mark.rule("CA-M.1")
def test_a_path_starts_where_the_unit_stands_and_enters_at_least_one_hex() -> None:
    p = position(board(1, 8), "GdsBde@A3")
    a = {k: ix(p, f"A{k}") for k in range(1, 9)}
    assert walked(p, "GdsBde") == ("CA-M.1", "the path must start where GdsBde stands, A3")
    assert walked(p, "GdsBde", a[2], a[1]) == ("CA-M.1", "the path must start where GdsBde stands, A3")
    assert walked(p, "GdsBde", a[3]) == ("CA-M.1", "a move enters at least one hex")
    assert walk(p, "GdsBde", [a[3], a[4]]) > 0  # one hex entered: a move


@pytest.mark.rule("CA-M.1")
def test_each_step_of_a_path_is_to_an_adjacent_hex_named_even_off_the_board() -> None:
    p = position(board(1, 8), "GdsBde@A3")
    a = {k: ix(p, f"A{k}") for k in range(1, 9)}
    assert a[1] == 0 and len(p.board.hexes) == 8  # (A1 is the board's first hex)
    assert walked(p, "GdsBde", a[3], a[1]) == ("CA-M.1", "A3 and A1 are not adjacent")
    assert walked(p, "GdsBde", a[3], a[5]) == ("CA-M.1", "A3 and A5 are not adjacent")
    assert walked(p, "GdsBde", a[3], a[4], a[6]) == ("CA-M.1", "A4 and A6 are not adjacent")
    assert walked(p, "GdsBde", a[3], 8) == ("CA-M.1", "A3 and hex index 8 are not adjacent")
    # a hex at the board's edge has no neighbour there (the board lists it as -1): -1 is no hex either
    assert walked(p, "GdsBde", a[3], -1) == ("CA-M.1", "A3 and hex index -1 are not adjacent")
    q1 = position(board(1, 8), "GdsBde@A1")
    assert walked(q1, "GdsBde", a[1], -1) == ("CA-M.1", "A1 and hex index -1 are not adjacent")
    q = position(board(3, 8), "GdsBde@B3")  # row B sits half a hex east: B3 touches A3 and A4, not A5
    assert walked(q, "GdsBde", ix(q, "B3"), ix(q, "A5")) == ("CA-M.1", "B3 and A5 are not adjacent")


@pytest.mark.rule("CA-F.8")
def test_a_path_into_impassable_ground_is_refused_with_its_kind() -> None:
    p = position(board(1, 8, terrain={"A4": "depression"}), "GdsBde@A3")
    assert walked(p, "GdsBde", ix(p, "A3"), ix(p, "A4")) == ("CA-F.8", "A4 is depression, ground no unit may enter")


@pytest.mark.rule("CA-Z.1")
@pytest.mark.rule("CA-Z.2")
@pytest.mark.parametrize("start", ["A1", "A3"])
def test_a_zone_hex_that_is_not_the_next_hex_is_barred_by_the_zones_on_the_way_not_zoc_to_zoc(start: str) -> None:
    # 90th Light in B3 holds A3, A4, B2, B4, C3, C4 under its zone, 164th in B6 A6 and A7: every way east from A1 or
    # from A3 (itself under the zone) stops in a zone hex first
    p = position(board(3, 8), f"GdsBde@{start}", "90Lt@B3", "164Div@B6")
    why = "every way to A6 passes a hex of enemy zone of control, where GdsBde must stop"
    assert refusal(p, "GdsBde", "A6") == f"[CA-Z.1] {why}"


@pytest.mark.rule("CA-M.1")
def test_an_enemy_division_bars_every_way_even_beyond_the_units_movement() -> None:
    p = position(board(1, 20), "GdsBde@A1", "90Lt@A4")  # its zone and its hex on the one way east
    assert refusal(p, "GdsBde", "A20") == "[CA-M.1] enemy units bar every way to A20: opposing units never pass through a hex"


@pytest.mark.rule("CA-Z.1")
@pytest.mark.rule("CA-Z.2")
def test_a_zone_hex_two_steps_away_is_refused_for_the_stop_not_as_a_straight_zone_to_zone_step() -> None:
    # B1 (the start) is in 90Lt's zone, A3 in 21Pz's; A3 is not next to B1 (B1 touches A1 and A2)
    p = position(board(4, 6), "GdsBde@B1", "90Lt@A1", "21Pz@B3")
    assert refusal(p, "GdsBde", "A3").startswith("[CA-Z.1] every way to A3 passes a hex of enemy zone of control")
