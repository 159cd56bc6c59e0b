"""Operational movement in The Gazala Gallop: known answers on small maps, worked out from the rules.

Costs are in movement factors (MF). Armour MF 4, motorized MF 3, infantry MF 2; +1 MF bonus for a
move that enters no enemy ZOC (GG-XIII.C).
"""

from __future__ import annotations

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Eliminate, EndPhase, Move
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.actions import Activate, Gallop
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse


def row(*labels: str) -> set[Hex]:
    return {H(x) for x in labels}


def a_row(first: int, last: int, letter: str = "A") -> set[Hex]:
    return {H(f"{letter}{c}") for c in range(first, last + 1)}


def road(kind: str, first: int, last: int, letter: str = "A") -> str:
    hexes = ", ".join(f'"{letter}{c}"' for c in range(first, last + 1))
    return f'[[map.route]]\nkind = "{kind}"\nhexes = [{hexes}]\n'


ARMOUR = unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4")
MOTOR = unit_toml("Mot", "axis", "A1", type_="motorized", factors="2-3-3")
FOOT = unit_toml("Inf", "axis", "A1", type_="infantry", factors="2-3-2")


def dests(game: Game, uid: str, trucks: bool = False) -> set[Hex]:
    return set(mv.destinations(game, uid, trucks))


@pytest.mark.rule("GG-XIII.A.2a")
def test_armour_on_a_road_goes_a_quarter_mf_a_hex() -> None:
    # 4 MF + 1 bonus = 5 MF = 20 road hexes at 1/4 MF
    game = movement_game(ARMOUR, road("road", 1, 25), rows=1, columns=25)
    assert dests(game, "Pz") == a_row(2, 21)


@pytest.mark.rule("GG-XIII.A.2a")
def test_armour_track_rates() -> None:
    game = movement_game(ARMOUR, road("major-track", 1, 25), rows=1, columns=25)
    assert dests(game, "Pz") == a_row(2, 16)  # 5 MF / (1/3) = 15 hexes
    game = movement_game(ARMOUR, road("minor-track", 1, 25), rows=1, columns=25)
    assert dests(game, "Pz") == a_row(2, 11)  # 5 MF / (1/2) = 10 hexes


@pytest.mark.rule("GG-XIII.A.2b")
@pytest.mark.rule("GG-XIII.A.2d")
def test_motorized_mixes_road_and_track() -> None:
    # 4 road hexes at 1/5 (0.8 MF), then major track at 1/4: (4 - 0.8) / 0.25 = 12.8 -> 12 more hexes
    game = movement_game(MOTOR, road("road", 1, 5) + road("major-track", 5, 25), rows=1, columns=25)
    assert dests(game, "Mot") == a_row(2, 17)
    game = movement_game(MOTOR, road("minor-track", 1, 25), rows=1, columns=25)
    assert dests(game, "Mot") == a_row(2, 13)  # 4 MF / (1/3) = 12 hexes


@pytest.mark.rule("GG-XIII.A.2c")
def test_walking_infantry_gets_half_an_mf_on_any_road_or_track() -> None:
    for kind in ("road", "major-track", "minor-track"):
        game = movement_game(FOOT, road(kind, 1, 25), rows=1, columns=25)
        assert dests(game, "Inf") == a_row(2, 7), kind  # 3 MF / (1/2) = 6 hexes


@pytest.mark.rule("GG-XIII.A.2")
def test_cross_country_is_one_mf_a_hex() -> None:
    game = movement_game(ARMOUR, rows=1, columns=25)
    assert dests(game, "Pz") == a_row(2, 6)  # 5 MF
    game = movement_game(FOOT, rows=1, columns=25)
    assert dests(game, "Inf") == a_row(2, 4)  # 3 MF


@pytest.mark.rule("GG-XIII.A.2d")
def test_leaving_the_road_loses_the_fractions() -> None:
    # road A1-A2 (1/4 MF), off road A2-A6 (the 1/4 is lost: 1 + 4 = 5 MF), then road again from A6:
    # with the fraction kept it would be 4.25 MF at A6 and 3 more road hexes (A9) would fit.
    game = movement_game(ARMOUR, road("road", 1, 2) + road("road", 6, 12), rows=1, columns=12)
    assert dests(game, "Pz") == a_row(2, 6)
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Pz", (H("A1"), H("A2"), H("A3"), H("A4"), H("A5"), H("A6"), H("A7"))))
    assert err.value.clause == "GG-XIII.A.2"


ENEMY_B5 = unit_toml("Tommy", "allied", "B5", type_="infantry", factors="2-3-2")


@pytest.mark.rule("GG-XIII.B.1")
def test_a_unit_stops_on_entering_an_enemy_zoc() -> None:
    # B5 (row B is shifted east) has A5 and A6 above it: the ZOC in row A is A5, A6.
    # From A1, A5 is 4 hexes away: entering the ZOC there costs the bonus, so 4 MF is just enough;
    # A6 (5 hexes, also in the ZOC) is out of reach, and so is everything beyond the ZOC in row A.
    game = movement_game(ARMOUR + ENEMY_B5, rows=3, columns=12)
    reach = mv.destinations(game, "Pz")
    assert H("A5") in reach and reach[H("A5")].entered_zoc and reach[H("A5")].spent == 4 * 60
    assert H("A6") not in reach and H("A7") not in reach
    assert H("C4") in reach  # round the ZOC by B3, 4 MF
    assert H("C5") not in reach  # in the ZOC, 5 hexes away: the bonus is lost on entering it
    # with a road the unit reaches the ZOC with MF to spare but still stops there
    game = movement_game(ARMOUR + ENEMY_B5, road("road", 1, 12), rows=3, columns=12)
    reach = mv.destinations(game, "Pz")
    assert H("A5") in reach and H("A6") not in reach and H("A7") not in reach
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Pz", tuple(H(f"A{c}") for c in range(1, 8))))
    assert err.value.clause == "GG-XIII.B.1"


@pytest.mark.rule("GG-XIII.C")
def test_bonus_mf_only_without_entering_a_zoc() -> None:
    # armour at A1 with an enemy at C9: its ZOC includes C8; C8 is 5 hexes away (needs the bonus)
    enemy = unit_toml("Tommy", "allied", "C9", type_="infantry", factors="2-3-2")
    game = movement_game(ARMOUR + enemy, rows=3, columns=12)
    reach = mv.destinations(game, "Pz")
    assert H("A6") in reach and reach[H("A6")].spent == 5 * 60  # 5 MF with the bonus, no ZOC
    # C5: distance A1 -> C5 is 5; C5 is not in the enemy ZOC: reachable with the bonus
    assert H("C5") in reach
    # B7 is in C9's ZOC? no (C9's neighbours: B8, B9, C8, C10, D8, D9); C8 is at distance 8: out of reach
    assert H("C8") not in reach


@pytest.mark.rule("GG-XIII.B.4")
def test_no_road_rate_on_the_move_into_a_zoc() -> None:
    game = movement_game(ARMOUR + ENEMY_B5, road("road", 1, 12), rows=3, columns=12)
    reach = mv.destinations(game, "Pz")
    # A2-A4 by road (3 x 1/4 = 3/4 MF), A5 in ZOC: fractions rounded up and 1 MF paid: 2 MF
    assert reach[H("A5")].spent == 2 * 60
    assert reach[H("A4")].spent == 45


@pytest.mark.rule("GG-XIII.B.2")
@pytest.mark.rule("GG-XIII.B.3")
def test_zoc_to_zoc_of_the_same_unit_is_refused() -> None:
    # Pz starts in A5, in the ZOC of B5; A6 is also in B5's ZOC: refused; A4 (out of ZOC) is fine
    pz = unit_toml("Pz", "axis", "A5", type_="armour", factors="4-3-4")
    game = movement_game(pz + ENEMY_B5, rows=3, columns=12)
    reach = mv.destinations(game, "Pz")
    assert H("A4") in reach and H("A6") not in reach
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Pz", (H("A5"), H("A6"))))
    assert err.value.clause == "GG-XIII.B.3"
    # leaving the ZOC and coming back two hexes later is allowed (A5-A4-B4: B4 is in B5's ZOC)
    assert H("B4") in reach


@pytest.mark.rule("GG-XIII.B.3")
def test_zoc_to_zoc_of_a_different_unit_or_into_a_friend_is_allowed() -> None:
    pz = unit_toml("Pz", "axis", "A5", type_="armour", factors="4-3-4")
    other = unit_toml("Kiwi", "allied", "B7", type_="infantry", factors="2-3-2")  # ZOC: A7, A8, B6, B8, C7, C8
    game = movement_game(pz + ENEMY_B5 + other, rows=3, columns=12)
    # A5 (ZOC of B5 only) -> B6? B6 is in the ZOC of B5 and B7: shares B5, refused
    assert H("B6") not in mv.destinations(game, "Pz")
    # start A5 -> A4 ... A6 is in B5's ZOC (same unit): refused, as above.  Now a friend in A6:
    friend = unit_toml("Friend", "axis", "A6", type_="infantry", factors="1-1-2")
    game = movement_game(pz + ENEMY_B5 + friend, rows=3, columns=12)
    assert H("A6") in mv.destinations(game, "Pz")
    # a different enemy unit's ZOC: Pz at A4 is in B5's ZOC? no (B5's ZOC: A5, A6, B4, B6, C5, C6)
    # Pz in B4 (ZOC of B5). C3's ZOC is B2, B3, C2, C4, D2, D3; C5 is in B5's ZOC.
    pz3 = unit_toml("Pz", "axis", "B4", type_="armour", factors="4-3-4")
    third = unit_toml("Aussie", "allied", "C3", type_="infantry", factors="1-1-2")
    game = movement_game(pz3 + ENEMY_B5 + third, rows=4, columns=12)
    reach = mv.destinations(game, "Pz")
    assert H("B3") in reach and H("C4") in reach  # into C3's ZOC: a different unit
    assert H("C5") not in reach  # B5's ZOC again


@pytest.mark.rule("GG-XIII.A.3")
def test_no_entry_into_enemy_units() -> None:
    pz = unit_toml("Pz", "axis", "A2", type_="armour", factors="4-3-4")
    game = movement_game(pz + unit_toml("Tommy", "allied", "A3", type_="infantry", factors="1-1-2"), rows=1, columns=12)
    assert H("A3") not in dests(game, "Pz")
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Pz", (H("A2"), H("A3"))))
    assert err.value.clause == "GG-XIII.A.3"


ESCARPMENT = '[map.hexsides]\nescarpment = [{ side = "A1|A2", high = "A2" }]\n'


@pytest.mark.rule("GG-XI.C")
def test_escarpment_ascent_costs_by_type() -> None:
    for unit, uid, extra in ((ARMOUR, "Pz", 2), (MOTOR, "Mot", 2), (FOOT, "Inf", 1)):
        game = movement_game(unit, ESCARPMENT, rows=1, columns=12)
        assert mv.destinations(game, uid)[H("A2")].spent == (1 + extra) * 60, uid
    # descending costs nothing extra
    down = unit_toml("Pz", "axis", "A2", type_="armour", factors="4-3-4")
    game = movement_game(down, ESCARPMENT, rows=1, columns=12)
    assert mv.destinations(game, "Pz")[H("A1")].spent == 60
    # on a road or track: no extra cost either way
    game = movement_game(ARMOUR, ESCARPMENT + road("minor-track", 1, 3), rows=1, columns=12)
    assert mv.destinations(game, "Pz")[H("A2")].spent == 30


@pytest.mark.rule("GG-XI.D")
def test_towering_escarpment_only_by_road_or_track() -> None:
    towering = '[map.hexsides]\n"towering-escarpment" = [{ side = "A1|A2", high = "A2" }, { side = "A1|B1", high = "B1" }]\n'
    game = movement_game(ARMOUR, towering, rows=2, columns=6)
    assert mv.destinations(game, "Pz") == {}  # A1's only neighbours, A2 and B1, are behind the escarpment
    game = movement_game(ARMOUR, towering + road("road", 1, 3), rows=2, columns=6)
    assert H("A2") in mv.destinations(game, "Pz")
    with pytest.raises(IllegalOrderError) as err:
        movement_game(ARMOUR, towering, rows=2, columns=6).play(Move("Pz", (H("A1"), H("B1"))))
    assert err.value.clause == "GG-XI.D"


BOX = '[map.fortifications]\nallied = ["A3"]\n'


@pytest.mark.rule("GG-XI.A.4")
def test_stop_on_entering_an_empty_enemy_box() -> None:
    game = movement_game(ARMOUR, BOX, rows=1, columns=12)
    reach = mv.destinations(game, "Pz")
    assert H("A3") in reach and H("A4") not in reach


@pytest.mark.rule("GG-XI.A.3")
def test_enemy_zoc_does_not_reach_into_a_box_held_at_the_start_of_the_turn() -> None:
    # Allied units in their box A3 with an Axis unit in A5 (ZOC A4, A6, B4, B5): Kiwi in A3 moves to A2;
    # Tommy starts in A4 (not a box): A4 is in the Axis ZOC.
    units = unit_toml("Pz", "axis", "A5", type_="armour", factors="4-3-4") + unit_toml(
        "Kiwi", "allied", "A3", type_="motorized", factors="2-3-3"
    )
    game = movement_game(units, '[map.fortifications]\nallied = ["A3", "A4"]\n', rows=1, columns=12, side="allied")
    # A4 is an Allied box but it was empty at the start of the Allied player-turn: the ZOC reaches it,
    # so Kiwi stops there and cannot go on (A5 holds the enemy anyway).
    reach = mv.destinations(game, "Kiwi")
    assert reach[H("A4")].entered_zoc
    # now a box held at the start of the turn: Kiwi starts in A4 (box, held): not in the enemy ZOC,
    # so the move A4 -> A3 is a plain move that may use the bonus
    units = unit_toml("Pz", "axis", "A6", type_="armour", factors="4-3-4") + unit_toml(
        "Kiwi", "allied", "A5", type_="motorized", factors="2-3-3"
    )
    game = movement_game(units, '[map.fortifications]\nallied = ["A5"]\n', rows=1, columns=12, side="allied")
    ctx = mv.move_context(game, "Kiwi")
    assert H("A5") not in ctx.zoc
    assert mv.destinations(game, "Kiwi")[H("A1")].spent == 4 * 60  # 3 MF + bonus


@pytest.mark.rule("GG-XI.A.2")
def test_a_box_gives_nothing_to_the_other_side() -> None:
    # an Axis unit standing in an Allied box is not sheltered from Allied ZOC by it
    units = unit_toml("Pz", "axis", "A3", type_="armour", factors="4-3-4") + unit_toml(
        "Tommy", "allied", "A4", type_="infantry", factors="2-3-2"
    )
    game = movement_game(units, BOX, rows=1, columns=12)
    assert H("A3") in mv.move_context(game, "Pz").zoc


@pytest.mark.rule("GG-XI.A.3n")
def test_never_straight_from_one_enemy_box_zoc_to_another() -> None:
    # Allied boxes at A3 (Tommy) and A6 (Kiwi); Pz in A4 (ZOC of A3) -> A5 (ZOC of A6, and of A4? no):
    units = (
        unit_toml("Pz", "axis", "B4", type_="armour", factors="4-3-4")
        + unit_toml("Tommy", "allied", "A3", type_="infantry", factors="2-3-2")
        + unit_toml("Kiwi", "allied", "A6", type_="infantry", factors="2-3-2")
    )
    # B4 (shifted) touches A4 and A5: A4 is in Tommy's ZOC? A3's neighbours: A2, A4, B2, B3 -> B4 is not.
    # so start at B3 (in Tommy's ZOC) and step to B4? B4 is next to A4, A5, B3, B5, C4, C5: not in Kiwi's ZOC.
    # The clean case: C-shaped row map. Tommy at A3, Kiwi at A5: A4 is in both ZOCs (different units);
    # Pz in B3 (Tommy's ZOC) -> B4 (Kiwi's ZOC: A5's neighbours are A4, A6, B4, B5): boxes -> refused.
    units = (
        unit_toml("Pz", "axis", "B3", type_="armour", factors="4-3-4")
        + unit_toml("Tommy", "allied", "A3", type_="infantry", factors="2-3-2")
        + unit_toml("Kiwi", "allied", "A5", type_="infantry", factors="2-3-2")
    )
    boxes = '[map.fortifications]\nallied = ["A3", "A5"]\n'
    game = movement_game(units, boxes, rows=3, columns=8)
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Pz", (H("B3"), H("B4"))))
    assert err.value.clause == "GG-XI.A.3n"
    # without the boxes the same step is allowed (different enemy units)
    game = movement_game(units, rows=3, columns=8)
    game.play(Move("Pz", (H("B3"), H("B4"))))
    assert family_unit(game, "Pz").hex == H("B4")


@pytest.mark.rule("GG-IX.A")
def test_disrupted_units_move_1_mf_or_2_with_the_bonus() -> None:
    game = movement_game(ARMOUR, road("road", 1, 12), rows=1, columns=12)
    family_unit(game, "Pz").disrupted = True
    assert dests(game, "Pz") == a_row(2, 9)  # 2 MF of road at 1/4: 8 hexes
    game = movement_game(ARMOUR, rows=1, columns=12)
    family_unit(game, "Pz").disrupted = True
    assert dests(game, "Pz") == a_row(2, 3)


@pytest.mark.rule("GG-XIII.A.1")
@pytest.mark.rule("GG-VI.D")
def test_a_unit_moves_once_per_turn() -> None:
    game = movement_game(ARMOUR, rows=1, columns=12)
    game.play(Move("Pz", (H("A1"), H("A2"))))
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Pz", (H("A2"), H("A3"))))
    assert err.value.clause == "GG-XIII.A.1"
    assert all(not (isinstance(o, Move) and o.unit == "Pz") for o in game.legal_orders())


def test_destination_only_order_takes_the_cheapest_route() -> None:
    game = movement_game(ARMOUR, road("road", 1, 2) + road("road", 2, 6, "B"), rows=2, columns=8)
    game.play("move Pz B5")
    assert family_unit(game, "Pz").hex == H("B5")
    assert game.history[-1] == Move("Pz", (H("B5"),))
    assert "A1-A2-B2" in game.state.log[-1] or "A1-B1" in game.state.log[-1]


@pytest.mark.rule("GG-V.A.2")
def test_inactive_allied_units_cannot_move() -> None:
    game = movement_game(unit_toml("Tommy", "allied", "A1", type_="infantry", factors="2-3-2"), rows=1, columns=6, side="allied")
    family_unit(game, "Tommy").activated = False
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Tommy", (H("A1"), H("A2"))))
    assert err.value.clause == "GG-V.A.2"
    game.play(Activate("Tommy"))
    game.play(Move("Tommy", (H("A1"), H("A2"))))
    assert family_unit(game, "Tommy").hex == H("A2")


@pytest.mark.rule("GG-V.A.2")
def test_only_an_inactive_allied_ground_unit_on_the_map_is_activated() -> None:
    from tobruk.systems.gazala.sequence import activation_problem

    units = unit_toml("Tommy", "allied", "A1", type_="infantry", factors="2-3-2") + unit_toml("Kiwi", "allied", "A2", type_="infantry")
    units += unit_toml("Pz", "axis", "A6")
    game = movement_game(units, rows=1, columns=6, side="allied")
    for uid in ("Tommy", "Kiwi"):
        family_unit(game, uid).activated = False
    family_unit(game, "Kiwi").hex = None  # (off the map)
    found = {uid: activation_problem(game, uid) for uid in ("Tommy", "Kiwi", "Pz", "Nobody")}
    assert found["Tommy"] is None
    assert {uid: (e.clause, e.reason) for uid, e in found.items() if e is not None} == {
        "Kiwi": ("GG-V.A.2", "Kiwi is not on the map"),
        "Pz": ("GG-V.A.2", "'Pz' is not an Allied ground unit"),
        "Nobody": ("GG-V.A.2", "'Nobody' is not an Allied ground unit"),
    }
    game.play(Activate("Tommy"))
    assert (e := activation_problem(game, "Tommy")) is not None and (e.clause, e.reason) == ("GG-V.A.2", "Tommy is already active")


@pytest.mark.rule("GG-V.A.4")
def test_two_activations_a_turn_plus_one_per_loss(gazala: Scenario) -> None:
    from tests.conftest import at_phase
    from tobruk.engine.game import Game

    game = at_phase(Game(gazala), "allied-movement")
    assert family_unit(game, "1SA").activated is False
    game.play(Activate("1SA"))
    game.play(Activate("50Div"))
    with pytest.raises(IllegalOrderError) as err:
        game.play(Activate("1FF"))
    assert err.value.clause == "GG-V.A.4"
    assert Activate("1FF") not in game.legal_orders()
    # an Allied unit eliminated in the Axis player-turn of this game-turn gives one more
    game.vars.allied_losses = {str(game.turn): 1}
    game.play(Activate("1FF"))
    assert family_unit(game, "1FF").activated
    # and the count starts again next turn
    game.play(EndPhase())
    game = at_phase(game, "allied-movement")
    assert game.turn == 2
    game.play(Activate("7MotBde"))
    game.play(Activate("29IndBde"))
    assert mv.activations_left(game) == 0


@pytest.mark.rule("GG-V.A.4")
def test_a_loss_in_the_axis_player_turn_is_counted() -> None:
    units = unit_toml("Pz", "axis", "A1") + unit_toml("Tommy", "allied", "C5", type_="infantry")
    game = movement_game(units, rows=3, columns=8)
    mv.eliminate(game, "Tommy", "test")
    assert gazala_vars(game).allied_losses == {"1": 1}


@pytest.mark.rule("GG-VII.B")
def test_reinforcement_enters_on_its_turn_at_an_east_source(gazala: Scenario) -> None:
    from tests.conftest import at_phase
    from tobruk.engine.game import Game
    from tobruk.mechanics.actions import Place

    game = at_phase(Game(gazala), "allied-movement")
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("1ArmdBde", H("G18")))
    assert err.value.clause == "GG-VII.B"
    while game.turn < 7:
        game.play(EndPhase())
        game = at_phase(game, "allied-movement")
    assert Place("1ArmdBde", H("K18")) in game.legal_orders()
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("1ArmdBde", H("F17")))  # on the east edge, but not a supply source
    assert err.value.clause == "GG-VII.B"
    game.play(Place("1ArmdBde", H("K18")))
    assert family_unit(game, "1ArmdBde").hex == H("K18") and family_unit(game, "1ArmdBde").activated
    assert any(isinstance(o, Move) and o.unit == "1ArmdBde" for o in game.legal_orders())


@pytest.mark.rule("GG-XII.B")
def test_over_stacked_at_the_end_of_movement_the_owner_eliminates() -> None:
    units = "".join(unit_toml(f"U{i}", "axis", f"A{i}", echelon="subdivisional", type_="armour") for i in range(1, 5))
    game = movement_game(units, rows=1, columns=8)
    for i in (2, 3, 4):
        game.play(Move(f"U{i}", (H("A1"),)))
    assert len(game.units_at(H("A1"))) == 4  # moving through or into a crowded hex is allowed
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.clause == "GG-XII.B" and d.phase == "axis-movement"
    assert set(game.legal_orders()) == {Eliminate(f"U{i}") for i in range(1, 5)}
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-XII.B"
    game.play(Eliminate("U3"))
    assert family_unit(game, "U3").eliminated and game.decision is not None and game.decision.phase == "axis-attacks"


@pytest.mark.rule("GG-XII.A.2")
def test_two_divisions_at_most_after_movement() -> None:
    units = "".join(unit_toml(f"D{i}", "axis", f"A{i}") for i in range(1, 4))
    game = movement_game(units, rows=1, columns=8)
    game.play(Move("D2", (H("A2"), H("A1"))))
    game.play(Move("D3", (H("A3"), H("A2"), H("A1"))))
    game.play(EndPhase())
    assert game.decision is not None and game.decision.clause == "GG-XII.B"


@pytest.mark.rule("GG-XIII.D")
def test_crusader_breakdown_stops_the_brigade_disrupted_at_the_rolled_mf() -> None:
    crusader = unit_toml("22Armd", "allied", "A1", echelon="subdivisional", extra='flags = ["crusader"]')
    # 5 MF off road (A1-A6): a die against 4; a 2 breaks it down at the 2nd hex (A3)
    game = movement_game(crusader, rows=1, columns=10, side="allied", dice=ForcedDice([2]))
    game.play(Move("22Armd", (H("A1"), H("A2"), H("A3"), H("A4"), H("A5"), H("A6"))))
    u = family_unit(game, "22Armd")
    assert u.hex == H("A3") and u.disrupted and u.moved
    assert [r.value for r in game.dice.log] == [2]
    # a 5 is over 4: no breakdown
    game = movement_game(crusader, rows=1, columns=10, side="allied", dice=ForcedDice([5]))
    game.play(Move("22Armd", (H("A1"), H("A2"), H("A3"), H("A4"), H("A5"), H("A6"))))
    assert family_unit(game, "22Armd").hex == H("A6") and not family_unit(game, "22Armd").disrupted
    assert game.state.log[-1] == "Allied: 22Armd moves A1-A2-A3-A4-A5-A6; no breakdown (rolled 5)."
    # one MF used: no roll at all
    game = movement_game(crusader, rows=1, columns=10, side="allied", dice=ForcedDice([]))
    game.play(Move("22Armd", (H("A1"), H("A2"))))
    assert game.dice.log == []


@pytest.mark.rule("GG-XIII.D")
def test_crusader_breakdown_on_a_road_happens_at_the_end_of_that_mf() -> None:
    crusader = unit_toml("2Armd", "allied", "A1", echelon="subdivisional", extra='flags = ["crusader"]')
    # 12 road hexes = 3 MF: die against 2; a 1 breaks down at the end of the 1st MF: 4 hexes along (A5)
    game = movement_game(crusader, road("road", 1, 16), rows=1, columns=16, side="allied", dice=ForcedDice([1]))
    game.play(Move("2Armd", tuple(H(f"A{c}") for c in range(1, 14))))
    assert family_unit(game, "2Armd").hex == H("A5") and family_unit(game, "2Armd").disrupted
    assert not game.can_undo()  # the die was rolled


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.rule("GG-XIII.A.2c")
def test_truck_convoys_carry_infantry_at_the_motorized_rate() -> None:
    # a 2-3-2 infantry unit needs 2 convoys (one per attack factor) and moves 3 MF (+1) at 1/5 on a road
    game = movement_game(FOOT, road("road", 1, 25), rows=1, columns=25)
    assert dests(game, "Inf", trucks=True) == a_row(2, 21)  # 4 MF / (1/5) = 20 hexes
    game.play(Move("Inf", (H("A1"), H("A21")), trucks=True) if False else Move("Inf", (H("A21"),), trucks=True))
    assert family_unit(game, "Inf").hex == H("A21")
    assert mv.convoys_left(game, family_defs(game)["Inf"].side) == 2  # 4 Axis convoys, 2 used
    big = unit_toml("Big", "axis", "A1", type_="infantry", factors="3-3-2")
    game = movement_game(FOOT.replace('"Inf"', '"Inf2"') + big.replace('"A1"', '"A2"'), rows=1, columns=8)
    game.play(Move("Inf2", (H("A3"),), trucks=True))
    with pytest.raises(IllegalOrderError) as err:  # 3 more would be needed, 2 are left
        game.play(Move("Big", (H("A5"),), trucks=True))
    assert (err.value.clause, err.value.reason) == ("GG-XV.A.4", "Big needs 3 truck convoys; 2 left this turn")
    with pytest.raises(IllegalOrderError) as err:
        movement_game(ARMOUR, rows=1, columns=8).play(Move("Pz", (H("A3"),), trucks=True))
    assert (err.value.clause, err.value.reason) == ("GG-XV.A.4", "truck convoys carry only non-motorized infantry, not Pz")


GALLOP_MAP = '[map.zones]\n"gazala-line" = ["A2", "B2", "C2"]\n'


@pytest.mark.rule("GG-XIII.E")
def test_the_gazala_gallop() -> None:
    units = (
        unit_toml("SA", "allied", "B3", type_="infantry", factors="2-3-2")
        + unit_toml("Far", "allied", "B9", type_="infantry", factors="2-3-2")
        + unit_toml("Pz", "axis", "C1", type_="armour")
    )
    game = movement_game(units, GALLOP_MAP, rows=3, columns=20, side="allied")
    family_unit(game, "SA").activated = False
    family_unit(game, "Far").activated = False
    game.play(Gallop())
    assert family_unit(game, "SA").activated and not family_unit(game, "Far").activated  # only within 1 hex of the line
    reach = mv.destinations(game, "SA")
    # twice the MF and bonus: (2 + 1) x 2 = 6 MF; each hex NE, E or SE; must end east of column 13 when it
    # can; from B3 six hexes east reach B9 only: no hex east of 13 is in reach, so it may end anywhere
    assert max(h.col + 1 for h in reach) == 9
    assert all(h.col >= H("B3").col for h in reach)
    assert H("B2") not in reach and H("A2") not in reach  # never west
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("SA", (H("B3"), H("B2"))))
    assert err.value.clause == "GG-XIII.E"
    with pytest.raises(IllegalOrderError) as err:
        game.play(Gallop())  # once a game
    assert err.value.clause == "GG-XIII.E"


@pytest.mark.rule("GG-XIII.E")
def test_galloping_units_must_end_east_of_column_13_when_they_can() -> None:
    units = unit_toml("Arm", "allied", "B2", echelon="subdivisional", type_="armour")
    game = movement_game(units + "", GALLOP_MAP + road("road", 2, 20, "B"), rows=3, columns=20, side="allied")
    game.play(Gallop())
    reach = mv.destinations(game, "Arm")
    assert reach and all(h.col + 1 > 13 for h in reach)
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Arm", tuple(H(f"B{c}") for c in range(2, 8))))
    assert err.value.clause == "GG-XIII.E"
    game.play(Move("Arm", tuple(H(f"B{c}") for c in range(2, 16))))
    assert "Arm" not in mv.galloping(game)


@pytest.mark.rule("GG-VIII.A.2")
@pytest.mark.rule("GG-VIII.B.2")
def test_storms_cap_the_basic_mf_at_1() -> None:
    for weather in ("sandstorm", "rainstorm"):
        game = movement_game(ARMOUR, road("road", 1, 20), rows=1, columns=20)
        game.vars.weather = weather
        assert dests(game, "Pz") == a_row(2, 9), weather  # (1 + 1) MF along the road at 1/4


@pytest.mark.rule("GG-VIII.B.2")
def test_rain_doubles_the_major_track_fraction_and_removes_the_minor_track_boost() -> None:
    game = movement_game(ARMOUR, road("major-track", 1, 20), rows=1, columns=20)
    game.vars.weather = "rainstorm"
    assert dests(game, "Pz") == a_row(2, 4)  # 2 MF at 2/3: 3 hexes
    game = movement_game(ARMOUR, road("minor-track", 1, 20), rows=1, columns=20)
    game.vars.weather = "rainstorm"
    assert dests(game, "Pz") == a_row(2, 3)  # 2 MF, 1 a hex


@pytest.mark.rule("GG-VIII.A.4")
def test_sandstorm_zocs_do_not_stop_except_across_minefields() -> None:
    # ruling R-SAND: in a sandstorm enemy ZOCs do not affect movement, unless entered across an enemy
    # minefield hexside. Tommy in B3 has A3 and A4 in its ZOC; the road runs along row A.
    units = ARMOUR + unit_toml("Tommy", "allied", "B3", type_="infantry", factors="1-1-2")
    game = movement_game(units, road("road", 1, 12), rows=2, columns=12)
    game.vars.weather = "sandstorm"
    assert a_row(2, 9) <= dests(game, "Pz")  # 2 MF along the road at 1/4, straight through A3 and A4
    mined = '[map.hexsides]\nminefield = [{ side = "A2|A3", owner = "allied" }]\n'
    game = movement_game(units, road("road", 1, 12) + mined, rows=2, columns=12)
    game.vars.weather = "sandstorm"
    reach = mv.destinations(game, "Pz")
    assert H("A5") not in reach  # across the mines into A3: the ZOC counts, no road rate, no bonus
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move("Pz", (H("A1"), H("A2"), H("A3"), H("A4"))))
    # A1-A2 along the road is 1/4 MF; into A3 across the mines is an off-road step into the ZOC: the 1/4 rounded
    # up, then 1 MF, 2 MF in all against the sandstorm's 1 (no bonus when entering a ZOC)
    assert err.value.clause == "GG-XIII.A.2" and "enter A3" in err.value.reason


@pytest.mark.rule("GG-XIII.E")
def test_no_gallop_on_a_map_without_the_gazala_line() -> None:
    game = movement_game(unit_toml("Tommy", "allied", "A1", type_="infantry"), rows=1, columns=6, side="allied")
    legal = game.legal_orders()
    assert Gallop() not in legal and EndPhase() in legal
