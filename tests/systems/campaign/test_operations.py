"""Operational movement, attack allocation and the breakthrough through the game (CA-M, CA-Q.1-2 steps 2, 3 and 6,
CA-K.1 at the end of the step), on the real map: a patch of open desert south of the Trigh Capuzzo (rows S-W,
columns 28-39: clear, no escarpment, road or track), with every other unit off the map.

Along a row the hexes are neighbours (V30, V31 ...), so a move along row V spends 1 MF a hex."""

from __future__ import annotations

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign import combat
from tobruk.systems.campaign.actions import Allocate, Bugout
from tobruk.systems.campaign.combat import CombatNotPlayed

from .kit import H, arrange, lines_since, new_game, to_step, unit


def row(first: int, last: int, r: str = "V") -> tuple[Hex, ...]:
    return tuple(H(f"{r}{c}") for c in range(first, last + 1))


def axis_movement(placed: dict[str, str], **statuses: tuple[str, ...]) -> Game:
    game = to_step(new_game("na-gazala"), "axis-movement")
    return arrange(game, placed, **statuses)


def refusal(game: Game, order: object) -> IllegalOrderError:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)  # type: ignore[arg-type]
    assert game.state_hash() == before  # a refused order changes nothing
    return e.value


@pytest.mark.rule("CA-M.2")
@pytest.mark.rule("CA-M.3")
def test_a_german_mobile_division_moves_its_4_mf_and_the_4_mf_bonus() -> None:
    game = axis_movement({"90Lt": "V30"})
    game.play(Move("90Lt", (H("V38"),)))  # 8 hexes: 4 MF and the bonus of 4
    assert unit(game, "90Lt").hex == H("V38")
    game = axis_movement({"90Lt": "V30"})
    err = refusal(game, Move("90Lt", row(30, 39)))
    assert err.clause == "CA-M.2" and "9 MF away, more than the 8 MF" in err.reason


@pytest.mark.rule("CA-M.2")
def test_an_italian_division_moves_3_mf_and_the_bonus() -> None:
    game = axis_movement({"Trieste": "V30"})
    assert H("V37") in {m.path[-1] for m in game.legal_orders() if isinstance(m, Move) and m.unit == "Trieste"}
    err = refusal(game, Move("Trieste", (H("V38"),)))
    assert err.clause == "CA-M.2"


@pytest.mark.rule("CA-M.1")
def test_the_listed_moves_are_the_reach_and_a_move_goes_along_the_listed_way() -> None:
    game = axis_movement({"90Lt": "V30", "1FFBde": "V33"})
    moves = [m for m in game.legal_orders() if isinstance(m, Move)]
    assert all(H("V33") not in m.path for m in moves)  # never into nor through the enemy's hex
    err = refusal(game, Move("90Lt", (H("V33"),)))
    assert err.clause == "CA-M.1"
    game.play(Move("90Lt", (H("V34"),)))  # around the brigade (a lone infantry brigade has no ZOC, CA-Z.1)
    assert unit(game, "90Lt").hex == H("V34") and unit(game, "90Lt").moved


@pytest.mark.rule("CA-G.15")
def test_a_disrupted_unit_does_not_move_nor_attack() -> None:
    game = axis_movement({"90Lt": "V30", "1FFBde": "V31"}, disrupted=("90Lt",))
    # (only the bugout, which disrupted units may make too, CA-S.4)
    assert not [a for a in game.legal_orders() if getattr(a, "unit", None) == "90Lt" and not isinstance(a, Bugout)]
    assert refusal(game, Move("90Lt", (H("V29"),))).clause == "CA-G.15"
    assert refusal(game, Allocate("90Lt", H("V31"))).clause == "CA-G.15"


@pytest.mark.rule("CA-Q.1")
def test_a_unit_moves_once_in_the_step_and_not_after_its_allocation() -> None:
    game = axis_movement({"90Lt": "V30", "Trieste": "V35", "1FFBde": "V36"})
    game.play(Move("90Lt", (H("V31"),)))
    err = refusal(game, Move("90Lt", (H("V32"),)))
    assert err.clause == "CA-Q.1" and "moved already" in err.reason
    game.play(Allocate("Trieste", H("V36")))
    err = refusal(game, Move("Trieste", (H("V34"),)))
    assert err.clause == "CA-Q.1" and "allocated" in err.reason


@pytest.mark.rule("CA-M.3")
def test_a_unit_that_took_the_movement_bonus_may_not_be_allocated_to_an_attack() -> None:
    # at its basic 4 MF: it may attack
    game = axis_movement({"90Lt": "V34", "1FFBde": "V39"})
    game.play(Move("90Lt", row(34, 38)))
    assert Allocate("90Lt", H("V39")) in game.legal_orders()
    game.play(Allocate("90Lt", H("V39")))
    assert unit(game, "90Lt").attacking and unit(game, "1FFBde").targeted
    # one hex more, into the bonus: it may not
    game = axis_movement({"90Lt": "V33", "1FFBde": "V39"})
    game.play(Move("90Lt", row(33, 38)))
    assert Allocate("90Lt", H("V39")) not in game.legal_orders()
    err = refusal(game, Allocate("90Lt", H("V39")))
    assert err.clause == "CA-M.3" and "spent 5 MF, more than its 4 basic MF" in err.reason


@pytest.mark.rule("CA-G.12")
def test_an_allocation_is_against_an_adjacent_hex_of_enemy_units() -> None:
    game = axis_movement({"90Lt": "V34", "1FFBde": "V36"})
    err = refusal(game, Allocate("90Lt", H("V36")))
    assert err.clause == "CA-G.12" and "not a hex of enemy units next to 90Lt" in err.reason
    assert refusal(game, Allocate("1FFBde", H("V34"))).clause == "CA-G.12"  # not the Axis's unit


@pytest.mark.rule("CA-Z.1")
def test_an_allocation_takes_the_zone_of_a_lone_armour_brigade() -> None:
    # the undisrupted 22 Armd Bde alone stops a unit entering its zone; once attacked it does not
    game = axis_movement({"90Lt": "V30", "Trieste": "T32", "22ArmBde": "U32"})  # U32 touches V31 and V32
    err = refusal(game, Move("90Lt", row(30, 33)))
    assert err.clause == "CA-Z.1"
    game.play(Allocate("Trieste", H("U32")))
    game.play(Move("90Lt", row(30, 33)))
    assert unit(game, "90Lt").hex == H("V33")


@pytest.mark.rule("CA-K.1")
def test_stacking_is_checked_at_the_end_of_the_movement_step() -> None:
    placed = {"Trieste": "V34", "15MotBde": "V34", "RecceGp": "V34", "90Lt": "V32"}
    game = axis_movement(placed)
    game.play(Move("90Lt", (H("V34"),)))  # four units: allowed while the step lasts
    err = refusal(game, EndPhase())
    assert err.clause == "CA-K.1" and "V34" in err.reason
    game = axis_movement(placed)
    game.play(Move("90Lt", (H("V33"),)))
    game.play(EndPhase())  # three a hex: the step ends
    assert game.step.key != "axis-movement"


@pytest.mark.rule("CA-M.5")
def test_the_german_breakthrough_moves_unmoved_german_units_with_2_mf_less_and_a_bonus_of_3() -> None:
    game = axis_movement({"90Lt": "V30", "15MotBde": "T30", "Trieste": "U28"})
    game.play(Move("15MotBde", (H("T31"),)))  # moved in step 3: no breakthrough
    game.play(EndPhase())
    assert game.step.key == "axis-breakthrough"
    d = game.decision
    assert d is not None and d.phase == "axis-breakthrough"
    movers = {a.unit for a in game.legal_orders() if isinstance(a, Move)}
    assert movers == {"90Lt"}  # German and unmoved; Trieste is Italian, 15 Mot Bde has moved
    assert refusal(game, Move("Trieste", (H("U29"),))).clause == "CA-M.5"
    assert refusal(game, Move("15MotBde", (H("T32"),))).clause == "CA-M.5"
    err = refusal(game, Move("90Lt", row(30, 36)))  # 6 hexes: more than (4 - 2) + 3
    assert err.clause == "CA-M.2" and "more than the 5 MF" in err.reason
    game.play(Move("90Lt", row(30, 35)))  # 5 hexes
    assert unit(game, "90Lt").hex == H("V35")


@pytest.mark.rule("CA-M.5")
@pytest.mark.rule("CA-Q.2")
def test_the_allied_breakthrough_moves_unmoved_allied_units() -> None:
    game = to_step(new_game("na-gazala"), "allied-movement")
    arrange(game, {"1FFBde": "V30", "GdsBde": "T30", "Trieste": "P28"})
    game.play(Move("GdsBde", (H("T31"),)))
    game.play(EndPhase())
    assert game.step.key == "allied-breakthrough"
    assert {a.unit for a in game.legal_orders() if isinstance(a, Move)} == {"1FFBde"}
    err = refusal(game, Move("1FFBde", row(30, 35)))  # 5 hexes: more than (3 - 2) + 3
    assert err.clause == "CA-M.2"
    game.play(Move("1FFBde", row(30, 34)))


@pytest.mark.rule("CA-Q.1")
def test_the_breakthrough_passes_when_no_unit_may_take_part() -> None:
    game = axis_movement({"Trieste": "V30"})  # no German unit on the map
    game.play(EndPhase())
    assert game.step.key == "allied-reinforcements"  # the next decision: the Allies' 1st Armd Bde waits (CA-R.4)


@pytest.mark.rule("CA-Q.1")
def test_attacks_before_movement_are_by_unmoved_units_and_their_resolution_is_combat_to_come() -> None:
    game = to_step(new_game("na-gazala"), "axis-early-attacks")
    arrange(game, {"90Lt": "V30", "1FFBde": "V31"})
    assert game.legal_orders() == [Allocate("90Lt", H("V31")), EndPhase()]
    game.play(Allocate("90Lt", H("V31")))
    before = game.state_hash()
    with pytest.raises(CombatNotPlayed, match="90Lt on V31 is to be resolved"):
        game.play(EndPhase())
    assert game.state_hash() == before
    # an allocated unit has attacked: it is not "as yet unused" in the movement step
    game = to_step(new_game("na-gazala"), "axis-early-attacks")
    arrange(game, {"90Lt": "V30", "1FFBde": "V31"})
    game.play(Allocate("90Lt", H("V31")))
    assert refusal(game, Allocate("90Lt", H("V31"))).clause == "CA-G.12"


@pytest.mark.rule("CA-F.4")
def test_the_tobruk_dummy_neither_moves_nor_attacks() -> None:
    game = to_step(new_game("na-gazala"), "allied-movement")
    arrange(game, {"TobrukDummy": "V30", "Trieste": "V31"})
    assert [a for a in game.legal_orders() if getattr(a, "unit", None) == "TobrukDummy"] == []
    assert refusal(game, Move("TobrukDummy", (H("V29"),))).clause == "CA-F.4"
    assert refusal(game, Allocate("TobrukDummy", H("V31"))).clause == "CA-F.4"


@pytest.mark.rule("CA-F.11")
def test_a_unit_does_not_leave_the_scenarios_section_of_the_map() -> None:
    game = axis_movement({"90Lt": "V28"})  # Gazala is played on the centre sheet, columns 27-53
    dests = {m.path[-1] for m in game.legal_orders() if isinstance(m, Move)}
    assert H("V27") in dests and H("V26") not in dests
    err = refusal(game, Move("90Lt", (H("V26"),)))
    assert err.clause == "CA-F.11" and "outside the scenario's section of the map" in err.reason


ROAD = [
    "C27",
    "C28",
    "C29",
    "C30",
    "D30",
    "E31",
    "F31",
    "G32",
    "H32",
    "I33",
    "I34",
    "I35",
    "I36",
    "I37",
    "J37",
    "J38",
    "J39",
    "K40",
    "K41",
    "K42",
    "K43",
    "L43",
    "L44",
    "L45",
    "M46",
    "M47",
]


@pytest.mark.rule("CA-M.4")
def test_along_the_coastal_road_a_unit_moves_three_times_its_mf_and_bonus() -> None:
    # the Via Balbia from the centre sheet's west edge (C27) past Tobruk: (4 + 4) x 3 = 24 road hexes for 90 Lt
    game = to_step(new_game("na-crusader"), "axis-movement")
    arrange(game, {"90Lt": "C27"})
    n = len(game.state.entries)
    game.play(Move("90Lt", tuple(H(x) for x in ROAD[:25])))
    assert unit(game, "90Lt").hex == H("M46")
    assert lines_since(game, n)[-1] == "Axis: 90Lt moves C27-M46 (8 MF)."  # (after the ports it takes, CA-S.3)
    game = to_step(new_game("na-crusader"), "axis-movement")
    arrange(game, {"90Lt": "C27"})
    err = refusal(game, Move("90Lt", tuple(H(x) for x in ROAD)))
    assert err.clause == "CA-M.2"


@pytest.mark.rule("CA-G.12")
def test_an_attack_of_several_units_to_be_resolved_names_each() -> None:
    game = new_game("na-gazala")
    with pytest.raises(CombatNotPlayed) as e:
        combat.resolve_attack(game, Side.AXIS, "V31", ("90Lt", "21Pz"))
    assert str(e.value).startswith("the attack of 90Lt, 21Pz on V31 is to be resolved")
