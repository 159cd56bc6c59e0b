"""What a refused move says: the clause and the reason a player reads, for each rule of GG-XIII and XI.

Small inline maps; B3's neighbours are A3, A4, B2, B4, C3, C4.  Armour has 4 MF, +1 entering no enemy ZOC.
"""

from __future__ import annotations

import pytest

from tests.conftest import movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.mechanics.actions import Move
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.actions import Gallop

H = Hex.parse
PZ = unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4")


def refusal(game: Game, *path: str, uid: str = "Pz") -> tuple[str, str]:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as err:
        game.play(Move(uid, tuple(H(h) for h in path)))
    assert game.state_hash() == before
    return err.value.clause, err.value.reason


def enemy(uid: str, hex_: str) -> str:
    return unit_toml(uid, "allied", hex_, type_="infantry", factors="1-1-2")


@pytest.mark.rule("GG-XIII.A.2")
def test_off_the_map() -> None:
    assert refusal(movement_game(PZ, rows=1, columns=4), "A1", "B1") == ("GG-XIII.A.2", "B1 is off the map or in the sea")
    sea = '[map.terrain]\nsea = ["A2"]\n'
    assert refusal(movement_game(PZ, sea, rows=1, columns=4), "A1", "A2") == ("GG-XIII.A.2", "A2 is off the map or in the sea")


@pytest.mark.rule("GG-XIII.A.3")
def test_into_enemy_units() -> None:
    assert refusal(movement_game(PZ + enemy("E", "A2"), rows=1, columns=4), "A1", "A2") == ("GG-XIII.A.3", "A2 holds enemy units")


@pytest.mark.rule("GG-XI.D")
def test_across_a_towering_escarpment() -> None:
    tow = '[map.hexsides]\n"towering-escarpment" = [{ side = "A1|A2", high = "A2" }]\n'
    assert refusal(movement_game(PZ, tow, rows=1, columns=4), "A1", "A2") == (
        "GG-XI.D",
        "the towering escarpment A1|A2 is impassable off road and track",
    )


@pytest.mark.rule("GG-XIII.A.2")
def test_not_enough_movement_says_how_much_is_left() -> None:
    # 5 hexes cost all 5 MF (4 + the bonus): the 6th finds 0 MF left of 5
    game = movement_game(PZ, rows=1, columns=10)
    assert refusal(game, *[f"A{c}" for c in range(1, 8)]) == ("GG-XIII.A.2", "not enough movement to enter A7 (0 MF left of 5)")
    # entering a ZOC (E in A7 covers A6) the bonus is gone: 4 MF spent on A2-A5, 0 left of 4 for A6
    game = movement_game(PZ + enemy("E", "A7"), rows=1, columns=10)
    assert refusal(game, *[f"A{c}" for c in range(1, 7)]) == ("GG-XIII.A.2", "not enough movement to enter A6 (0 MF left of 4)")
    # A2-A4 cost 3 of the 5 MF; climbing the escarpment into A5 costs armour 1 + 2 (GG-XI.C): 2 MF are not enough
    esc = '[map.hexsides]\n"escarpment" = [{ side = "A4|A5", high = "A5" }]\n'
    game = movement_game(PZ, esc, rows=1, columns=10)
    assert refusal(game, *[f"A{c}" for c in range(1, 6)]) == ("GG-XIII.A.2", "not enough movement to enter A5 (2 MF left of 5)")
    # not adjacent
    assert refusal(movement_game(PZ, rows=1, columns=10), "A1", "A3") == ("GG-XIII.A.2", "A1 and A3 are not adjacent")


@pytest.mark.rule("GG-XIII.B.3")
def test_from_one_zoc_of_a_unit_into_another() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A3") + enemy("E", "B3"), rows=3, columns=6)
    assert refusal(game, "A3", "A4") == ("GG-XIII.B.3", "A3-A4 moves from one ZOC of the enemy in B3 into another")


@pytest.mark.rule("GG-XI.A.3n")
def test_from_one_enemy_box_zoc_into_another() -> None:
    # A2 is in the ZOC of the unit in the box A1, A3 in that of the unit in the box A4 only
    boxes = '[map.fortifications]\nallied = ["A1", "A4"]\n'
    game = movement_game(unit_toml("Pz", "axis", "A2") + enemy("E1", "A1") + enemy("E2", "A4"), boxes, rows=3, columns=5)
    assert refusal(game, "A2", "A3") == ("GG-XI.A.3n", "A2-A3 moves from the ZOC of one enemy box or fort into that of another")


@pytest.mark.rule("GG-XIII.B.1")
def test_on_past_a_hex_where_it_had_to_stop() -> None:
    game = movement_game(PZ + enemy("E", "A6"), rows=1, columns=8)
    assert refusal(game, "A1", "A2", "A3", "A4", "A5", "A4") == ("GG-XIII.B.1", "the unit had to stop in A5")


@pytest.mark.rule("GG-XI.A.4")
def test_on_past_an_empty_enemy_box_it_had_to_stop_in() -> None:
    # the box A3 holds no unit, so no ZOC: the stop is the box rule's, and the refusal names it
    box = '[map.fortifications]\nallied = ["A3"]\n'
    game = movement_game(PZ, box, rows=1, columns=8)
    assert refusal(game, "A1", "A2", "A3", "A4") == ("GG-XI.A.4", "the unit had to stop in A3")
    game.play(Move("Pz", (H("A1"), H("A2"), H("A3"))))  # into it, and no further, is legal
    assert game.unit("Pz").hex == H("A3")


@pytest.mark.rule("GG-XIII.A.1")
def test_a_path_must_start_where_the_unit_is() -> None:
    game = movement_game(PZ, rows=1, columns=8)
    assert refusal(game, "A2", "A3") == ("GG-XIII.A.1", "the path must start where the unit is, A1")


@pytest.mark.rule("GG-XIII.E")
def test_a_galloping_step_that_is_not_ne_e_or_se() -> None:
    line = '[map.zones]\n"gazala-line" = ["A2", "B2", "C2"]\n'
    game = movement_game(unit_toml("SA", "allied", "B3", type_="infantry", factors="2-3-2"), line, rows=3, columns=20, side="allied")
    game.play(Gallop())
    assert refusal(game, "B3", "B2", uid="SA") == ("GG-XIII.E", "B3-B2 is not a step NE, E, SE")


@pytest.mark.rule("GG-XV.A.4")
def test_armour_is_never_offered_a_truck_convoy() -> None:
    game = movement_game(PZ + unit_toml("Inf", "axis", "C1", type_="infantry", factors="1-3-2"), rows=3, columns=6)
    assert mv.destinations(game, "Pz", trucks=True) == {}
    trucked = {o.unit for o in game.legal_orders() if isinstance(o, Move) and o.trucks}
    assert trucked == {"Inf"}


@pytest.mark.rule("GG-XIII.A.1")
def test_the_walk_of_a_path_needs_a_start_and_one_hex_to_enter() -> None:
    from tobruk.mechanics.reach import walk

    ctx = mv.move_context(movement_game(PZ, rows=1, columns=8), "Pz")
    for path, reason in (((), "the path must start where the unit is, A1"), ((H("A1"),), "a move needs at least one hex to enter")):
        with pytest.raises(IllegalOrderError) as err:
            walk(ctx, path)
        assert (err.value.clause, err.value.reason) == ("GG-XIII.A.1", reason)
