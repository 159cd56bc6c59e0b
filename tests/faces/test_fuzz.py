"""The fuzzer's rule-level invariants each catch a deliberately broken position (and pass a sound one).

The positions are arranged by hand past the engine, as a bug would leave them; each check must name what is
wrong.  The limits come from the rules: GG-XII.A (one side a hex, stacking), GG-XIII.A.1 and GG-XIV.A.1 (once a game-turn),
GG-XIV.A.3 (disrupted units do not attack), GG-XIV.D.2 (retreats), GG-XV.A.4 (truck convoys).  The generic
checks are the fuzzer's own; the rule-level ones are the system's (``System.invariants`` after an order,
``System.check_action`` before it), which the fuzzer calls through ``check_rules`` and ``check_order``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import attack_game, movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.flow import Step
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Add, Attack, Move, NoRetreat, Resolve, Retreat, RetreatDistance
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala.actions import Convoy, Weather
from tobruk.systems.gazala.state import gazala_vars
from tobruk.tools.fuzz import InvariantError, after_order, check_hashes, check_ids, check_order, check_rules, check_undo, check_views

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


@pytest.mark.rule("GG-XII.A.1")
def test_both_sides_in_one_hex_is_caught() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Tommy", "allied", "A5"))
    check_rules(game, game.step)
    family_unit(game, "Tommy").hex = H("A1")
    with pytest.raises(InvariantError, match="both sides in A1"):
        check_rules(game, game.step)


def test_an_order_not_listed_under_its_id_or_not_made_again_is_caught() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Tommy", "allied", "A5"))
    listed = next(a for a in game.legal_orders() if isinstance(a, Move))
    check_ids(game, listed)
    with pytest.raises(InvariantError, match="is not listed under its id"):
        check_ids(game, Move("Pz", (H("A1"), H("A5"))))  # into the enemy: no such move is listed
    with pytest.raises(InvariantError, match="is not listed under its id"):
        check_ids(game, Resolve(1))  # nothing to resolve in a movement phase


def crowd(n: int, divisions: int) -> tuple[Game, Step]:
    units = "".join(unit_toml(f"U{i}", "axis", "A1", echelon="division" if i < divisions else "subdivisional") for i in range(n))
    game = movement_game(units + unit_toml("Tommy", "allied", "C12"))
    before = game.step
    game.state.step += 1  # the movement phase ends with nobody thinning the stack
    return game, before


@pytest.mark.rule("GG-XII.A.2")
@pytest.mark.rule("GG-XII.B")
def test_a_stack_over_the_limit_after_its_movement_phase_is_caught() -> None:
    game, before = crowd(3, 2)  # 3 units, 2 of them divisions: the limit exactly
    check_rules(game, before)
    game, before = crowd(4, 0)
    with pytest.raises(InvariantError, match="over the stacking limit in A1 after axis-movement"):
        check_rules(game, before)
    game, before = crowd(3, 3)
    with pytest.raises(InvariantError, match="over the stacking limit"):
        check_rules(game, before)


@pytest.mark.rule("GG-XIII.A.1")
def test_a_unit_moving_twice_in_a_turn_is_caught() -> None:
    game = movement_game(unit_toml("Pz", "axis", "A1"))
    move = Move("Pz", (H("A1"), H("A2")))
    done: dict[int, set[str]] = {}
    check_order(game, move, done)
    after_order(game, move, 1, done)
    with pytest.raises(InvariantError, match="Pz moves twice in turn 1"):
        check_order(game, move, done)


def duel() -> Game:
    return attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2"), dice=ForcedDice([3])
    )


@pytest.mark.rule("GG-XIV.A.1")
@pytest.mark.rule("GG-XIV.A.3")
def test_a_unit_attacking_twice_or_disrupted_is_caught() -> None:
    # an attacker joins an attack by the small action ``add`` (the whole ``attack ... with`` expands into it)
    game = duel()
    add = Add("Att")
    check_order(game, add, {})
    family_unit(game, "Att").attacked = True  # it has attacked this game-turn
    with pytest.raises(InvariantError, match="Att attacks twice in turn 1"):
        check_order(game, add, {})
    family_unit(game, "Att").attacked = False
    family_unit(game, "Att").disrupted = True
    with pytest.raises(InvariantError, match="disrupted Att attacks"):
        check_order(game, add, {})


def at_retreat(extra: str = "") -> Game:
    """Def in B4 has an R1 (3:1, die 3) from Att in B3 and must retreat 1 hex (B4's neighbours: A4, A5, B3, B5,
    C4, C5; A4 and C4 are next to B3)."""
    game: Game = attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4")
        + unit_toml("Def", "allied", "B4", factors="1-2-2")
        + unit_toml("Far", "axis", "C6", factors="1-1-4")
        + unit_toml("Pal", "allied", "C8", factors="1-2-2"),
        extra,
        dice=ForcedDice([3]),
    )
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    game.play(NoRetreat())
    game.play(RetreatDistance(1))
    return game


def check_retreat(game: Game, retreat: Retreat) -> None:
    check_order(game, retreat, {})


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
    family_unit(game, "Far").hex = H("C5")
    with pytest.raises(InvariantError, match="C5, which holds enemy units"):
        check_retreat(game, Retreat("Def", (H("B4"), H("C5"))))
    with pytest.raises(InvariantError, match="does not start where it stands"):
        check_retreat(game, Retreat("Def", (H("B5"), H("B6"))))
    family_unit(game, "Pal").hex = H("B5")  # a friend in the way is no obstacle (GG-XIV.D.2 f only prefers empty hexes)
    check_retreat(game, Retreat("Def", (H("B4"), H("B5"))))


@pytest.mark.rule("GG-XIV.D.2")
def test_a_retreat_into_a_friendly_box_next_to_the_attackers_passes() -> None:
    game = at_retreat('[map.fortifications]\nallied = ["A4"]\n')
    check_retreat(game, Retreat("Def", (H("B4"), H("A4"))))


@pytest.mark.rule("GG-XIV.D.2")
def test_an_enemy_fort_or_a_box_eliminated_next_to_the_attackers_is_caught() -> None:
    game = at_retreat('[map.fortifications]\naxis = ["A4"]\n')  # an Axis fort: not a friendly box to Def
    with pytest.raises(InvariantError, match="next to the attack's hexes"):
        check_retreat(game, Retreat("Def", (H("B4"), H("A4"))))
    game = at_retreat('[map.fortifications]\nallied = ["A4"]\n')
    game.vars.boxes_eliminated = ("A4",)  # a box eliminated (GG-XI.A.5) holds nobody up any more
    with pytest.raises(InvariantError, match="next to the attack's hexes"):
        check_retreat(game, Retreat("Def", (H("B4"), H("A4"))))


def test_a_retreat_outside_a_battle_is_caught() -> None:
    game = duel()
    with pytest.raises(InvariantError, match="outside a battle"):
        check_retreat(game, Retreat("Def", (H("B4"), H("B5"))))
    game = at_retreat()  # Def must retreat; Pal is in no battle
    with pytest.raises(InvariantError, match="Pal retreats outside a battle"):
        check_retreat(game, Retreat("Pal", (H("C8"), H("C7"))))


def convoy_game() -> Game:
    game: Game = movement_game(
        unit_toml("Inf", "axis", "A1", type_="infantry", factors="2-3-2")
        + unit_toml("Inf2", "axis", "C1", type_="infantry", factors="2-3-2")
        + unit_toml("Tommy", "allied", "A9", type_="infantry", factors="2-3-2")
    )
    return game


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.parametrize(("side", "limit"), [(AXIS, 4), (ALLIED, 6)])
def test_truck_convoys_over_a_sides_limit_are_caught(side: Side, limit: int) -> None:
    # the game's own count agrees with the orders (a convoy sent each time), so only the limit is broken
    unit = "Inf" if side is AXIS else "Tommy"
    for used, caught in ((limit, False), (limit + 1, True)):
        game = convoy_game()
        game.history.extend(Convoy(unit) for _ in range(used))
        game.vars.convoys_used = {side.value: used}
        if caught:
            with pytest.raises(InvariantError, match=f"used {used} truck convoys in turn 1, more than {limit}"):
                check_rules(game, game.step)
        else:
            check_rules(game, game.step)


@pytest.mark.rule("GG-XV.A.4")
def test_the_convoys_an_order_uses_are_counted_and_held_to_the_games_count() -> None:
    game = convoy_game()
    game.play(Move("Inf", (H("A1"), H("A2")), trucks=True))  # infantry with 2 attack factors: 2 convoys
    game.play(Move("Inf2", (H("C1"), H("C2")), trucks=True))  # 2 more: 4, the Axis limit
    assert gazala_vars(game).convoys_used == {"axis": 4}
    check_rules(game, game.step)
    game.vars.convoys_used = {"axis": 3}  # a count that went wrong
    with pytest.raises(InvariantError, match="counts 3 truck convoys in turn 1, the orders played 4"):
        check_rules(game, game.step)
    game.vars.convoys_used = {"axis": 4}
    game.history.append(Convoy("Tommy"))  # a convoy played that the game did not count
    with pytest.raises(InvariantError, match="Allied: the game counts 0"):
        check_rules(game, game.step)


@pytest.mark.rule("GG-XV.A.4")
def test_a_convoy_count_not_renewed_with_the_game_turn_is_caught() -> None:
    # every game-turn after the first opens with the weather (GG-VI): the convoys before it were turn 1's
    game = convoy_game()
    game.history.extend([Convoy("Inf"), Convoy("Inf"), Weather(1, 2)])
    game.state.turn = 2
    game.vars.convoys_used = {"axis": 2}  # the count of turn 1 carried into turn 2
    with pytest.raises(InvariantError, match="counts 2 truck convoys in turn 2, the orders played 0"):
        check_rules(game, game.step)
    game.vars.convoys_used = {}
    check_rules(game, game.step)


@pytest.mark.rule("GG-XV.A.4")
def test_in_the_weather_phase_the_new_game_turn_has_used_no_convoys() -> None:
    # turn 2 has begun (the count renewed) but its weather is not named yet: turn 1's convoys are not its own
    game = convoy_game()
    game.history.extend([Convoy("Inf"), Convoy("Inf")])
    game.state.turn = 2
    game.state.step = [p.key for p in game.phases].index("weather")
    game.vars.convoys_used = {}
    check_rules(game, game.step)
    game.vars.convoys_used = {"axis": 2}
    with pytest.raises(InvariantError, match="counts 2 truck convoys in turn 2, the orders played 0"):
        check_rules(game, game.step)


@pytest.mark.rule("GG-XV.B")
def test_a_supply_marker_that_disagrees_with_the_determination_is_caught() -> None:
    game = convoy_game()
    game.vars.supply = {"axis": {"Inf": {"hex": "A1", "supplied": True}}}
    check_rules(game, game.step)
    family_unit(game, "Inf").out_of_supply = True
    with pytest.raises(InvariantError, match="Inf's supply marker disagrees"):
        check_rules(game, game.step)


@pytest.mark.rule("GG-XV.B")
def test_a_missing_supply_marker_is_caught_and_an_eliminated_unit_or_one_moved_since_is_not_checked() -> None:
    game = convoy_game()
    game.vars.supply = {"axis": {"Inf": {"hex": "A1", "supplied": False}}}
    with pytest.raises(InvariantError, match="Inf's supply marker disagrees"):
        check_rules(game, game.step)  # determined out of supply, but no marker
    family_unit(game, "Inf").out_of_supply = True
    check_rules(game, game.step)
    family_unit(game, "Inf").out_of_supply = False
    family_unit(game, "Inf").eliminated = True  # gone: its marker went with it
    check_rules(game, game.step)
    family_unit(game, "Inf").eliminated = False
    family_unit(game, "Inf").hex = H("A2")  # moved since the determination: the marker is the next one's business
    check_rules(game, game.step)


# --- the generic checks on the position as a whole ------------------------------------------------------
def moved_once() -> tuple[Game, Move, str]:
    """A game just after one move, with the state hash from before it."""
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Tommy", "allied", "C12"))
    before = game.state_hash()
    move = Move("Pz", (H("A1"), H("A2")))
    game.play(move)
    return game, move, before


def test_an_undo_that_does_not_restore_the_position_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game, move, before = moved_once()
    after = game.state_hash()
    assert check_undo(game, move, before) == after == game.state_hash()  # a sound undo passes and says where it is
    pop = game.pop

    def leaky_pop() -> Any:
        undone = pop()
        family_unit(game, "Tommy").disrupted = True  # something the action did stays behind
        return undone

    monkeypatch.setattr(game, "pop", leaky_pop)
    with pytest.raises(InvariantError, match=r"undo of .*Pz.* did not restore the position"):
        check_undo(game, move, before)


def test_a_replay_after_undo_that_gives_another_position_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game, move, before = moved_once()
    play = game.play

    def other_play(action: Any) -> None:
        play(action)
        family_unit(game, "Tommy").moved = True

    monkeypatch.setattr(game, "play", other_play)
    with pytest.raises(InvariantError, match="after undo gave another position"):
        check_undo(game, move, before)


def test_a_view_that_changes_the_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from tobruk.view import view

    game, _, _ = moved_once()
    known = game.state_hash()
    assert check_views(game)[0] == known
    assert check_views(game, None, known)[0] == known  # the hash worked out before is taken as it is

    def meddling_view(g: Game, side: Side) -> Any:
        family_unit(g, "Tommy").out_of_supply = True
        return view(g, side)

    monkeypatch.setattr("tobruk.tools.fuzz.view", meddling_view)
    with pytest.raises(InvariantError, match="looking at a view changed the game"):
        check_views(game)
    monkeypatch.undo()
    family_unit(game, "Tommy").out_of_supply = False
    known = game.state_hash()
    family_unit(game, "Tommy").attacked = True  # changed since the hash handed in was worked out: caught as well
    with pytest.raises(InvariantError, match=r"looking at the position \(the listing, the checks or a view\) changed the game"):
        check_views(game, None, known)


def test_incremental_hashes_that_disagree_with_fresh_ones_are_caught() -> None:
    game, _, _ = moved_once()
    check_hashes(game)
    game.state.units.z ^= 1  # a write past the hash
    with pytest.raises(InvariantError, match="unit arrays' incremental hash"):
        check_hashes(game)
    game.state.units.z ^= 1
    check_hashes(game)
    game.vars.__dict__["_z"] = game.vars.key() ^ 1  # a variable changed behind its hash
    with pytest.raises(InvariantError, match="variables' incremental hash"):
        check_hashes(game)


@pytest.mark.rule("GG-XIII.A.2")
@pytest.mark.rule("GG-XIII.C")
def test_a_move_past_the_units_movement_factors_is_caught() -> None:
    # Pz has 4 MF and the bonus MF (GG-XIII.C) off road on an open board: five hexes east, a sixth is too many
    game = movement_game(unit_toml("Pz", "axis", "A1", type_="armour", factors="4-3-4") + unit_toml("Tommy", "allied", "C12"))
    path = tuple(H(f"A{c}") for c in range(1, 7))
    check_order(game, Move("Pz", path[:5]), {})  # 4 hexes entered: within the MF (and the bonus MF)
    check_order(game, Move("Pz", path), {})  # 5 hexes: the bonus MF (GG-XIII.C) pays for the fifth
    with pytest.raises(InvariantError, match=r"is refused step by step: not enough movement to enter A7 .*\[GG-XIII\.A\.2\]"):
        check_order(game, Move("Pz", (*path, H("A7"))), {})
