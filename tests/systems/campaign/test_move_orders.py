"""Move orders checked in a running game (CA-Q.1-2 steps 3 and 6, CA-M.5): who may move, the clause a refusal
names (the movement step's own, or the breakthrough's), orders that leave the map (CA-F.11), and the hexes a unit
may be allocated against (CA-G.12)."""

from __future__ import annotations

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.systems.campaign import moves
from tobruk.systems.campaign.state import campaign_vars

from .kit import H, arrange, new_game, to_step, unit


def refused(game: Game, side: Side, uid: str, *path: str, breakthrough: bool = False) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        moves.move(game, side, Move(uid, tuple(H(p) for p in path)), breakthrough=breakthrough)
    return e.value


def allied_movement() -> Game:
    return arrange(to_step(new_game("na-gazala"), "allied-movement"), {"90Lt": "V30", "50Div": "P52", "1FFBde": "P50"})


@pytest.mark.rule("CA-Q.2")
def test_an_allied_unit_moves_once_in_its_movement_step() -> None:
    game = allied_movement()
    moves.move(game, Side.ALLIED, Move("50Div", (H("P53"),)), breakthrough=False)
    e = refused(game, Side.ALLIED, "50Div", "P52")
    assert (e.clause, e.reason) == ("CA-Q.2", "50Div has moved already in this step")
    unit(game, "1FFBde").moved = True  # moved in an earlier step, though it spent nothing in this one
    assert refused(game, Side.ALLIED, "1FFBde", "P49").clause == "CA-Q.2"


@pytest.mark.rule("CA-Q.2")
def test_a_unit_off_the_map_or_eliminated_does_not_move() -> None:
    game = allied_movement()
    assert unit(game, "1ArmBde").hex is None  # waiting off the map, not eliminated
    assert refused(game, Side.ALLIED, "1ArmBde", "P51").reason == "1ArmBde is not on the map"
    unit(game, "50Div").eliminated = True  # (its hex not yet cleared)
    assert refused(game, Side.ALLIED, "50Div", "P53").reason == "50Div is not on the map"


@pytest.mark.rule("CA-F.11")
def test_an_order_to_a_hex_or_by_a_path_off_the_map_is_refused() -> None:
    game = allied_movement()
    e = refused(game, Side.ALLIED, "50Div", "ZZ99")
    assert (e.clause, e.reason) == ("CA-F.11", "ZZ99 is not on the map")
    e = refused(game, Side.ALLIED, "50Div", "P52", "ZZ99")
    assert (e.clause, e.reason) == ("CA-F.11", "the path leaves the map")


@pytest.mark.rule("CA-M.5")
@pytest.mark.parametrize(("side", "who"), [(Side.AXIS, "German units"), (Side.ALLIED, "units")])
def test_the_breakthrough_refuses_a_unit_not_eligible_naming_who_takes_part(side: Side, who: str) -> None:
    game = allied_movement()
    campaign_vars(game).eligible = ()
    uid = "90Lt" if side is Side.AXIS else "50Div"
    e = refused(game, side, uid, "Q30", breakthrough=True)
    assert e.clause == "CA-M.5"
    assert e.reason == f"only {who} that have not yet moved or attacked take part in the breakthrough; {uid} may not"


@pytest.mark.rule("CA-M.5")
def test_a_breakthrough_move_is_once_and_its_reach_is_the_breakthroughs() -> None:
    game = allied_movement()
    campaign_vars(game).eligible = ("90Lt",)
    # 90Lt: 4 - 2 MF and a bonus of 3 in the breakthrough; V37 is 7 hexes east of V30
    e = refused(game, Side.AXIS, "90Lt", "V37", breakthrough=True)
    assert e.reason.endswith("more than the 5 MF of 90Lt")
    moves.move(game, Side.AXIS, Move("90Lt", (H("V31"),)), breakthrough=True)
    assert refused(game, Side.AXIS, "90Lt", "V32", breakthrough=True).clause == "CA-M.5"


@pytest.mark.rule("CA-G.12")
def test_a_unit_may_be_allocated_against_enemy_hexes_next_to_it_and_no_other() -> None:
    game = to_step(new_game("na-campaign"), "axis-movement")
    arrange(game, {"90Lt": "X10", "Trieste": "W10", "50Div": "X9", "1FFBde": "X11"})
    assert moves.allocation_targets(game, Side.AXIS, "90Lt") == [H("X11"), H("X9")]  # by their labels; not W10
