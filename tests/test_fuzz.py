"""The fuzzer's rule-level invariants each catch a deliberately broken position (and pass a sound one).

The positions are arranged by hand past the engine, as a bug would leave them; each check must name what is
wrong.  The limits come from the rules: GG-XII.A (stacking), GG-XIII.A.1 and GG-XIV.A.1 (once a game-turn),
GG-XIV.A.3 (disrupted units do not attack), GG-XIV.D.2 (retreats), GG-XV.A.4 (truck convoys).
"""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, movement_game, unit_toml
from tobruk.dice import ForcedDice
from tobruk.fuzz import (
    Counts,
    InvariantError,
    after_order,
    check_order,
    check_position,
    check_retreat,
    check_stacking_after,
    count_convoys,
)
from tobruk.hexes import Hex
from tobruk.orders import Attack, Convoy, EndPhase, Move, NoRetreat, Resolve, Retreat, RetreatDistance
from tobruk.sides import Side

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


def test_both_sides_in_one_hex_is_caught() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Tommy", "allied", "A5"))
    check_position(game)
    game.unit("Tommy").hex = H("A1")
    with pytest.raises(InvariantError, match="both sides in A1"):
        check_position(game)


def crowd(n: int, divisions: int):  # type: ignore[no-untyped-def]
    units = "".join(unit_toml(f"U{i}", "axis", "A1", echelon="division" if i < divisions else "subdivisional")
                    for i in range(n))
    game = movement_game(units + unit_toml("Tommy", "allied", "C12"))
    before = game.phase
    game.state.phase_index += 1  # the movement phase ends with nobody thinning the stack
    return game, before


@pytest.mark.rule("GG-XII.A.2")
@pytest.mark.rule("GG-XII.B")
def test_a_stack_over_the_limit_after_its_movement_phase_is_caught() -> None:
    game, before = crowd(3, 2)  # 3 units, 2 of them divisions: the limit exactly
    check_stacking_after(game, before)
    game, before = crowd(4, 0)
    with pytest.raises(InvariantError, match="over the stacking limit in A1 after axis-movement"):
        check_stacking_after(game, before)
    game, before = crowd(3, 3)
    with pytest.raises(InvariantError, match="over the stacking limit"):
        check_stacking_after(game, before)


@pytest.mark.rule("GG-XIII.A.1")
def test_a_unit_moving_twice_in_a_turn_is_caught() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1"))
    move = Move("Pz", (H("A1"), H("A2")))
    counts = Counts()
    check_order(game, move, counts)
    after_order(game, move, counts)
    with pytest.raises(InvariantError, match="Pz moves twice in turn 1"):
        check_order(game, move, counts)


def duel():  # type: ignore[no-untyped-def]
    return attack_game(unit_toml("Att", "axis", "B3", factors="6-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2"),
                       dice=ForcedDice([3]))


@pytest.mark.rule("GG-XIV.A.1")
@pytest.mark.rule("GG-XIV.A.3")
def test_a_unit_attacking_twice_or_disrupted_is_caught() -> None:
    game = duel()
    attack = Attack((H("B4"),), ("Att",))
    counts = Counts()
    check_order(game, attack, counts)
    counts.attacked[1] = {"Att"}
    with pytest.raises(InvariantError, match="Att attacks twice in turn 1"):
        check_order(game, attack, counts)
    game.unit("Att").disrupted = True
    with pytest.raises(InvariantError, match="disrupted Att attacks"):
        check_order(game, attack, Counts())


def at_retreat(extra: str = ""):  # type: ignore[no-untyped-def]
    """Def in B4 has an R1 (3:1, die 3) from Att in B3 and must retreat 1 hex (B4's neighbours: A4, A5, B3, B5,
    C4, C5; A4 and C4 are next to B3)."""
    game = attack_game(unit_toml("Att", "axis", "B3", factors="6-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2")
                       + unit_toml("Far", "axis", "C6", factors="1-1-4"), extra, dice=ForcedDice([3]))
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    game.play(NoRetreat())
    game.play(RetreatDistance(1))
    return game


@pytest.mark.rule("GG-XIV.D.2")
def test_a_retreat_toward_or_next_to_the_attackers_or_into_the_enemy_is_caught() -> None:
    game = at_retreat()
    check_retreat(game, Retreat("Def", (H("B4"), H("B5"))))
    with pytest.raises(InvariantError, match="next to the attack's hexes"):
        check_retreat(game, Retreat("Def", (H("B4"), H("A4"))))
    with pytest.raises(InvariantError, match="not away from B4"):
        check_retreat(game, Retreat("Def", (H("B4"), H("B5"), H("B4"))))
    with pytest.raises(InvariantError, match="not away from B4"):
        check_retreat(game, Retreat("Def", (H("B4"), H("B5"), H("C5"))))  # C5 is as near B4 as B5 is
    game.unit("Far").hex = H("C5")
    with pytest.raises(InvariantError, match="C5, which holds enemy units"):
        check_retreat(game, Retreat("Def", (H("B4"), H("C5"))))
    with pytest.raises(InvariantError, match="does not start where it stands"):
        check_retreat(game, Retreat("Def", (H("B5"), H("B6"))))


@pytest.mark.rule("GG-XIV.D.2")
def test_a_retreat_into_a_friendly_box_next_to_the_attackers_passes() -> None:
    game = at_retreat('[map.fortifications]\nallied = ["A4"]\n')
    check_retreat(game, Retreat("Def", (H("B4"), H("A4"))))


def test_a_retreat_outside_a_battle_is_caught() -> None:
    game = duel()
    with pytest.raises(InvariantError, match="outside a battle"):
        check_retreat(game, Retreat("Def", (H("B4"), H("B5"))))


def convoy_game():  # type: ignore[no-untyped-def]
    return movement_game(unit_toml("Inf", "axis", "A1", type_="infantry", factors="2-3-2")
                         + unit_toml("Tommy", "allied", "A9", type_="infantry", factors="2-3-2"))


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.parametrize(("side", "limit"), [(AXIS, 4), (ALLIED, 6)])
def test_truck_convoys_over_a_sides_limit_are_caught(side: Side, limit: int) -> None:
    game = convoy_game()
    for used, caught in ((limit, False), (limit + 1, True)):
        game.state.data["convoys_used"] = {side.value: used}
        counts = Counts(convoys={(1, side): used})
        if caught:
            with pytest.raises(InvariantError, match=f"used {used} truck convoys in turn 1, more than {limit}"):
                count_convoys(game, EndPhase(), counts, 1)
        else:
            count_convoys(game, EndPhase(), counts, 1)


@pytest.mark.rule("GG-XV.A.4")
def test_the_convoys_an_order_uses_are_counted_and_held_to_the_games_count() -> None:
    game = convoy_game()
    counts = Counts()
    move = Move("Inf", (H("A1"), H("A2")), trucks=True)
    game.play(move)  # infantry with 2 attack factors: 2 convoys
    after_order(game, move, counts, 1)
    assert counts.convoys == {(1, AXIS): 2}
    game.state.data["convoys_used"] = {"axis": 3}  # a count that went wrong
    with pytest.raises(InvariantError, match="counts 3 truck convoys in turn 1, the orders played 2"):
        count_convoys(game, EndPhase(), counts, 1)
    counts.convoys[1, ALLIED] = 1  # a convoy the fuzzer saw and the game did not count
    game.state.data["convoys_used"] = {"axis": 2}
    with pytest.raises(InvariantError, match="Allied: the game counts 0"):
        count_convoys(game, Convoy("Tommy"), counts, 1)


@pytest.mark.rule("GG-XV.A.4")
def test_a_convoy_count_not_renewed_with_the_game_turn_is_caught() -> None:
    game = convoy_game()
    counts = Counts(convoys={(1, AXIS): 2})
    game.state.turn = 2
    game.state.data["convoys_used"] = {"axis": 2}  # the count of turn 1 carried into turn 2
    with pytest.raises(InvariantError, match="counts 2 truck convoys in turn 2, the orders played 0"):
        count_convoys(game, EndPhase(), counts, 2)
    game.state.data["convoys_used"] = {}
    count_convoys(game, EndPhase(), counts, 2)


@pytest.mark.rule("GG-XV.B")
def test_a_supply_marker_that_disagrees_with_the_determination_is_caught() -> None:
    game = convoy_game()
    game.state.data["supply"] = {"axis": {"Inf": {"hex": "A1", "supplied": True}}}
    after_order(game, EndPhase(), Counts())
    game.unit("Inf").out_of_supply = True
    with pytest.raises(InvariantError, match="Inf's supply marker disagrees"):
        after_order(game, EndPhase(), Counts())
