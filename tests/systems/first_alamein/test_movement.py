"""1st Alamein's operational movement: free hexes along roads and tracks (FA-TER.1), Allied boxes stopping the
Axis (FA-TER.2-3), stacking (FA-STK.1), once a game-turn (FA-SEQ.1), with The Gazala Gallop's 1 MF a hex, bonus
MF and ZOC rules where the charts are silent.  Most boards are one row of hexes, A1 to A12, so a move's
length is easy to count."""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import Grid, H, advance_to, game_at, unit
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Eliminate, EndPhase, Move
from tobruk.mechanics.control import controllers
from tobruk.mechanics.counters import family_unit
from tobruk.systems.first_alamein import moves as mv
from tobruk.systems.first_alamein import position as pos

ROW: Grid = {"rows": 1, "columns": 12}


def route(kind: str, first: int, last: int) -> str:
    hexes = ", ".join(f'"A{i}"' for i in range(first, last + 1))
    return f'[[map.route]]\nkind = "{kind}"\nhexes = [{hexes}]\n'


def reach(game: Game, uid: str) -> set[str]:
    return {m.path[-1].label for m in game.legal_orders() if isinstance(m, Move) and m.unit == uid}


def farthest(game: Game, uid: str) -> int:
    return max(int(h[1:]) for h in reach(game, uid))


def mover(hex_: str = "A1", *, factors: str = "2-2-2", type_: str = "infantry") -> str:
    return unit("M", "axis", hex_, factors=factors, type_=type_)


def spent_rule(uids: str = '"M"') -> str:
    return f"spent_at_start = [{uids}]"


# --- FA-TER.1: free hexes --------------------------------------------------------------------------------
def test_off_the_road_one_mf_a_hex_and_the_bonus() -> None:
    game = game_at(mover(), "axis-movement", **ROW)
    assert farthest(game, "M") == 4  # 2 MF and the bonus MF (GG-XIII.C): three hexes


@pytest.mark.rule("FA-TER.1")
def test_road_to_road_four_free_hexes() -> None:
    game = game_at(mover(), "axis-movement", map_extra=route("road", 1, 12), **ROW)
    assert farthest(game, "M") == 8  # four free hexes, then 2 MF and the bonus: A8, not A9
    spent = game_at(mover(), "axis-movement", map_extra=route("road", 1, 12), rules=spent_rule(), **ROW)
    assert farthest(spent, "M") == 7  # a spent unit's single MF (GG-IX.A) keeps the free hexes


@pytest.mark.rule("FA-TER.1")
@pytest.mark.parametrize("kind", ["major-track", "minor-track"])
def test_track_to_track_two_free_hexes(kind: str) -> None:
    game = game_at(mover(), "axis-movement", map_extra=route(kind, 1, 12), **ROW)
    assert farthest(game, "M") == 6  # two free hexes, then three: A6, not A7


@pytest.mark.rule("FA-TER.1")
def test_road_and_track_bonuses_do_not_add_up() -> None:
    # two free track hexes A1-A3, then the road: two more free hexes, four in all (ruling), then three hexes
    game = game_at(mover(), "axis-movement", map_extra=route("major-track", 1, 3) + route("road", 3, 12), **ROW)
    assert farthest(game, "M") == 8
    # the road's four first: the track adds none
    game = game_at(mover(), "axis-movement", map_extra=route("road", 1, 5) + route("major-track", 5, 12), **ROW)
    assert farthest(game, "M") == 8


@pytest.mark.rule("FA-TER.1")
def test_the_free_hexes_may_come_anywhere_in_the_move() -> None:
    # off the road first (A1-A2, 1 MF), then four free road hexes, then the last MF and the bonus
    game = game_at(mover(), "axis-movement", map_extra=route("road", 2, 12), **ROW)
    assert farthest(game, "M") == 8
    game.play("move M A1-A2-A3-A4-A5-A6-A7-A8")
    assert family_unit(game, "M").hex == H("A8")


@pytest.mark.rule("FA-TER.1")
def test_no_free_hex_on_the_step_into_an_enemy_zoc() -> None:
    # a spent unit (1 MF) steps off the road to A2 and then along the road into the ZOC of the unit in A4:
    # that step costs its MF (GG-XIII.B.4), so it is out of reach; with the enemy far away it is free
    near = mover(factors="2-2-2") + unit("E", "allied", "A4", factors="1-1-2")
    game = game_at(near, "axis-movement", map_extra=route("road", 2, 12), rules=spent_rule(), **ROW)
    assert reach(game, "M") == {"A2"}
    with pytest.raises(IllegalOrderError) as exc:
        game.play("move M A1-A2-A3")
    assert exc.value.clause == "GG-XIII.A.2"
    far = mover(factors="2-2-2") + unit("E", "allied", "A12", factors="1-1-2")
    game = game_at(far, "axis-movement", map_extra=route("road", 2, 12), rules=spent_rule(), **ROW)
    assert "A3" in reach(game, "M")


# --- FA-TER.2-3: boxes stop Axis operational movement ------------------------------------------------------
BOX = '[map.fortifications]\nallied = ["A4"]\n'


@pytest.mark.rule("FA-TER.2")
def test_axis_units_stop_on_entering_an_allied_box() -> None:
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra=route("road", 1, 12) + BOX, **ROW)
    assert reach(game, "M") == {"A2", "A3", "A4"}
    with pytest.raises(IllegalOrderError) as exc:
        game.play("move M A1-A2-A3-A4-A5")
    assert exc.value.clause == "FA-TER.2"
    game.play("move M A1-A2-A3-A4")
    assert family_unit(game, "M").hex == H("A4")


@pytest.mark.rule("FA-TER.2")
def test_allied_units_move_through_their_own_box() -> None:
    units = unit("M", "allied", "A1", factors="3-3-4", type_="armour")
    game = game_at(units, "allied-movement", map_extra=route("road", 1, 12) + BOX, **ROW)
    assert {"A5", "A9"} <= reach(game, "M")


@pytest.mark.rule("FA-TER.3")
def test_the_el_alamein_box_stops_the_axis_too() -> None:
    extra = route("road", 1, 12) + BOX + '[map.zones]\nalamein = ["A4"]\n'
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra=extra, rules='el_alamein_box = "alamein"', **ROW)
    assert max(int(h[1:]) for h in reach(game, "M")) == 4


def test_an_eliminated_box_stops_nobody() -> None:
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra=route("road", 1, 12) + BOX, **ROW)
    game.vars.boxes_eliminated = ("A4",)
    game.forget_caches()
    assert "A5" in reach(game, "M")


# --- FA-SEQ.1: once a game-turn --------------------------------------------------------------------------
@pytest.mark.rule("FA-SEQ.1")
def test_a_unit_moves_once_a_game_turn() -> None:
    game = game_at(mover(), "axis-movement", **ROW)
    game.play("move M A1-A2")
    assert reach(game, "M") == set()
    with pytest.raises(IllegalOrderError) as exc:
        game.play("move M A2-A3")
    assert exc.value.clause == "FA-SEQ.1" and family_unit(game, "M").hex == H("A2")
    game.play(EndPhase())
    advance_to(game, "axis-movement")  # the next game-turn
    assert game.turn == 2 and "A3" in reach(game, "M")


# --- FA-STK.1: stacking --------------------------------------------------------------------------------
def stack(extra_unit: str) -> str:
    return (
        unit("D1", "axis", "A1", factors="1-1-2")
        + unit("D2", "axis", "A1", factors="1-1-2")
        + unit("B1", "axis", "A1", echelon="subdivisional", type_="recce", factors="1-1-5")
        + extra_unit
    )


@pytest.mark.rule("FA-STK.1")
def test_three_units_two_of_them_divisions_may_stack() -> None:
    game = game_at(stack(""), "axis-movement", **ROW)
    game.play(EndPhase())  # two divisions and the Recce Gruppe (a brigade): within the limit
    assert game.step.key != "axis-movement" and all(not family_unit(game, u).eliminated for u in ("D1", "D2", "B1"))


@pytest.mark.rule("FA-STK.1")
def test_a_fourth_unit_is_over_the_limit_at_the_end_of_the_movement_step() -> None:
    game = game_at(stack(unit("B2", "axis", "A2", echelon="subdivisional", factors="1-1-2")), "axis-movement", **ROW)
    game.play("move B2 A2-A1")  # moving into or through a crowded hex is allowed (GG-XII.B)
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.clause == "FA-STK.1" and d.phase == "axis-movement"
    assert set(game.legal_orders()) == {Eliminate(u) for u in ("D1", "D2", "B1", "B2")}
    with pytest.raises(IllegalOrderError) as exc:
        game.play(EndPhase())
    assert exc.value.clause == "FA-STK.1"
    game.play(Eliminate("B2"))
    assert family_unit(game, "B2").eliminated and game.step.key != "axis-movement"


@pytest.mark.rule("FA-STK.1")
@pytest.mark.rule("GG-XII.B")
def test_a_move_over_the_limit_and_the_step_ending_so_say_what_it_will_cost() -> None:
    from tobruk.engine.offers import ending_costs, offers

    game = game_at(stack(unit("B2", "axis", "A2", echelon="subdivisional", factors="1-1-2")), "axis-movement", **ROW)
    move = next(a for a in offers(game)["actions"] if a["verb"] == "move" and a["unit"] == "B2" and a["hex"] == "A1")
    limit = "over the stacking limit (3 units, only 2 of them division-level)"
    assert move["warning"] == (
        f"A1 would then hold 4 units, 2 of them division-level, {limit}: unless units leave it, 1 must be eliminated at the end "
        "of the phase (FA-STK.1)"
    )
    assert ending_costs(game) == ""  # three units, two of them divisions: the limit
    game.play("move B2 A2-A1")
    assert ending_costs(game) == f"A1 holds 4 units, 2 of them division-level, {limit}: 1 must be eliminated (FA-STK.1)"


@pytest.mark.rule("FA-STK.1")
def test_a_third_division_is_over_the_limit() -> None:
    game = game_at(unit("D1", "axis", "A1") + unit("D2", "axis", "A1") + unit("D3", "axis", "A2"), "axis-movement", **ROW)
    game.play("move D3 A2-A1")
    game.play(EndPhase())
    assert game.decision is not None and game.decision.clause == "FA-STK.1"
    game.play(Eliminate("D1"))
    assert game.step.key != "axis-movement"


@pytest.mark.rule("FA-STK.1")
def test_a_reinforcement_does_not_enter_over_the_limit() -> None:
    arrival = unit("R", "axis", None, factors="1-1-2", extra='arrives = { turn = 1, zone = "entry" }')
    units = unit("D1", "axis", "A1") + unit("D2", "axis", "A1") + arrival
    game = game_at(units, "axis-reinforcement", tail='[zones.entry]\nhexes = ["A1", "A2"]\n', **ROW)
    assert [str(a) for a in game.legal_orders()] == ["place R A2"]
    with pytest.raises(IllegalOrderError) as exc:
        game.play("place R A1")
    assert exc.value.clause == "FA-STK.1"


# --- the Gazala Gallop's ZOC rules, which 1st Alamein keeps -------------------------------------------------
def test_a_unit_stops_on_entering_an_enemy_zoc() -> None:
    game = game_at(mover(factors="3-3-4", type_="armour") + unit("E", "allied", "A5", factors="1-1-2"), "axis-movement", **ROW)
    assert reach(game, "M") == {"A2", "A3", "A4"}
    with pytest.raises(IllegalOrderError) as exc:
        game.play("move M A1-A2-A3-A4-A3")
    assert exc.value.clause == "GG-XIII.B.1"


def test_no_step_from_one_zoc_of_a_unit_into_another() -> None:
    units = unit("M", "axis", "B2", factors="3-3-4", type_="armour") + unit("E", "allied", "B3", factors="1-1-2")
    game = game_at(units, "axis-movement", rows=3, columns=6)
    with pytest.raises(IllegalOrderError) as exc:
        game.play(Move("M", (H("B2"), H("C3"))))
    assert exc.value.clause == "GG-XIII.B.3"


def test_impassable_escarpments_are_crossed_only_by_road() -> None:
    side = '[map.hexsides]\n"impassable-escarpment" = [{ side = "A3|A4", high = "A3" }]\n'
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra=side, **ROW)
    assert reach(game, "M") == {"A2", "A3"}
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra=side + route("road", 1, 12), **ROW)
    assert "A4" in reach(game, "M")


def test_out_of_supply_and_more_than_half_its_mf_a_unit_is_spent() -> None:
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", **ROW)
    family_unit(game, "M").out_of_supply = True
    game.play("move M A1-A2-A3")  # 2 MF of 4: not more than half
    assert not family_unit(game, "M").disrupted
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", **ROW)
    family_unit(game, "M").out_of_supply = True
    game.play("move M A1-A2-A3-A4")  # 3 MF of 4: spent (GG-XV.B)
    assert family_unit(game, "M").disrupted


# --- what a move says and refuses, word for word -------------------------------------------------------------
def refusal(game: Game, order: str | Move) -> tuple[str, str]:
    with pytest.raises(IllegalOrderError) as exc:
        game.play(order)
    return exc.value.clause, exc.value.reason


def test_the_escarpment_refusal_names_the_impassable_escarpment() -> None:
    side = '[map.hexsides]\n"impassable-escarpment" = [{ side = "A3|A4", high = "A3" }]\n'
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra=side, **ROW)
    assert refusal(game, "move M A1-A2-A3-A4") == ("GG-XI.D", "the impassable escarpment A3|A4 is impassable off road and track")


@pytest.mark.rule("GG-XIII.A.1")
def test_only_ones_own_ground_units_on_the_map_move() -> None:
    units = mover() + unit("E", "allied", "A8") + unit("LW", "axis", None, type_="air", factors="0-0-0")
    game = game_at(units, "axis-movement", **ROW)
    assert refusal(game, "move E A8-A7") == ("GG-XIII.A.1", "'E' is not one of your units")
    assert refusal(game, Move("LW", (H("A1"), H("A2")))) == ("GG-XIII.A.1", "LW is not a ground unit on the map")


@pytest.mark.rule("GG-XIII.A.2")
def test_no_truck_convoys() -> None:
    game = game_at(mover(), "axis-movement", **ROW)
    assert refusal(game, Move("M", (H("A1"), H("A2")), trucks=True)) == (
        "GG-XIII.A.2",
        "1st Alamein has no truck convoys: a unit moves by itself",
    )


def test_a_move_to_a_destination_takes_the_route_leaving_the_most_mf_and_is_logged() -> None:
    game = game_at(mover(), "axis-movement", **ROW)
    game.play("move M A3")
    assert family_unit(game, "M").hex == H("A3")
    assert [(e.text, e.kind) for e in game.state.entries if e.kind == "move"] == [("Axis: M moves A1-A2-A3.", "move")]


@pytest.mark.rule("GG-XV.B")
def test_the_log_says_why_a_unit_out_of_supply_is_spent_by_its_move() -> None:
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", **ROW)
    family_unit(game, "M").out_of_supply = True
    game.play("move M A1-A2-A3-A4")
    assert "Axis: M moves A1-A2-A3-A4; out of supply and over half its MF: spent." in game.state.log


@pytest.mark.rule("GG-XVI")
def test_a_move_through_a_village_takes_it() -> None:
    village = '[map.terrain]\nvillage = ["A2"]\n'
    game = game_at(unit("M", "allied", "A1") + unit("E", "axis", "A12"), "allied-movement", map_extra=village, **ROW)
    game.play("move M A1-A2-A3")
    assert controllers(game)[H("A2")] is Side.ALLIED


def test_the_moves_are_listed_row_by_row() -> None:
    game = game_at(mover("A2", factors="1-1-1"), "axis-movement", rows=2, columns=4)
    listed = [m.path[-1].label for m in game.legal_orders() if isinstance(m, Move)]
    assert listed == ["A1", "A3", "A4", "B1", "B2", "B3"]


@pytest.mark.rule("FA-TER.2")
def test_an_axis_unit_stops_on_entering_a_box_the_first_rule_broken_named() -> None:
    box = '[map.fortifications]\nallied = ["A2"]\n'
    game = game_at(mover(factors="3-3-4", type_="armour") + unit("E", "allied", "A12"), "axis-movement", map_extra=box, **ROW)
    assert refusal(game, "move M A1-A2-A3") == ("FA-TER.2", "M must stop on entering the box in A2")
    # entering E's ZOC in A2 stops it there (GG-XIII.B.1), before the box in A3: that rule is named
    box = '[map.fortifications]\nallied = ["A3"]\n'
    units = mover(factors="3-3-4", type_="armour") + unit("E", "allied", "B2")
    game = game_at(units, "axis-movement", rows=2, columns=12, map_extra=box)
    assert refusal(game, "move M A1-A2-A3-A4")[0] == "GG-XIII.B.1"


@pytest.mark.rule("GG-XI.A.3")
def test_in_its_own_player_turn_a_box_held_at_its_start_keeps_the_enemy_zoc_out() -> None:
    box = '[map.fortifications]\nallied = ["A3"]\n'
    units = unit("SA", "allied", "A3") + unit("T", "allied", "A1", factors="1-1-1") + unit("Pz", "axis", "A8")
    game = game_at(units, "allied-movement", map_extra=box, **ROW)  # SA held the box as the player-turn began
    family_unit(game, "Pz").hex = H("A4")  # as if it had come up in the Axis player-turn: its ZOC would cover A3
    game.forget_caches()
    game.play("move SA A3-A2")  # the box is empty now, but held at the start of the player-turn ...
    game.play("move T A1-A2-A3")  # ... so T enters no ZOC there and keeps the bonus MF (GG-XIII.C)
    assert family_unit(game, "T").hex == H("A3")


def test_each_side_reads_its_own_enemys_zoc_in_one_position() -> None:
    game = game_at(unit("Pz", "axis", "A2") + unit("SA", "allied", "A8"), "axis-movement", **ROW)
    axis_sees, allied_sees = pos.enemy_zoc(game, Side.AXIS), pos.enemy_zoc(game, Side.ALLIED)
    assert H("A7") in axis_sees and H("A3") not in axis_sees  # SA's ZOC
    assert H("A3") in allied_sees and H("A7") not in allied_sees  # Pz's ZOC
    assert mv.side_parts(game, Side.AXIS)[1] == frozenset({H("A8")}) and mv.side_parts(game, Side.ALLIED)[1] == frozenset({H("A2")})
