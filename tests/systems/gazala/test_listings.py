"""What The Gazala Gallop's legal orders list in each kind of decision, and small bookkeeping the rules imply.

Every listing is checked against what the clause allows; the refusals name the clause.  (That every system's
listing agrees with its ids and never goes stale is the engine's part: tests/engine/test_caches.py.)
"""

from __future__ import annotations

import pytest

from tests.conftest import at_phase, attack_game, unit_toml
from tests.systems.gazala.test_air import game_at
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.actions import Airstrike, Attack, EndPhase, Intercept, NoIntercept, NoRetreat, Place, Resolve
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala.actions import Activate, Gallop, Weather
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


@pytest.mark.rule("GG-X.B.3")
def test_an_air_mission_is_answered_by_intercepting_or_not_only() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-airstrike", [])
    game.play(Airstrike(H("B4")))
    assert game.decision is not None and game.decision.side is ALLIED
    assert game.legal_orders() == [Intercept(), NoIntercept()]


@pytest.mark.rule("GG-VI.C")
def test_the_allied_interception_phase_offers_only_the_interception() -> None:
    game = game_at(unit_toml("Tommy", "allied", "C4", type_="infantry"), "axis-airstrike", [2])
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    while game.phase.key != "allied-interception":
        game.play(EndPhase())
    assert game.legal_orders() == [Intercept(), EndPhase()]


@pytest.mark.rule("GG-V.A.4")
@pytest.mark.rule("GG-XIII.E")
def test_activations_and_the_gallop_are_allied_orders_of_the_allied_operations(gazala: Scenario) -> None:
    game = at_phase(Game(gazala), "axis-movement")
    assert not any(isinstance(o, (Activate, Gallop)) for o in game.legal_orders())
    for phase in ("allied-movement", "allied-airstrike", "allied-attacks"):
        game = at_phase(game, phase)
        legal = game.legal_orders()
        assert Activate("1SA") in legal and Gallop() in legal, phase


@pytest.mark.rule("GG-V.A.1")
def test_the_set_up_lists_each_unit_once_and_never_its_own_hex() -> None:
    game = Game(load_scenario("gazala-gallop"))
    here = family_unit(game, "15Pz").hex
    places = [o for o in game.legal_orders() if isinstance(o, Place) and o.unit == "15Pz"]
    assert places and here is not None and Place("15Pz", here) not in places
    game.play(Place("15Pz", H("K2")))
    assert not any(isinstance(o, Place) and o.unit == "15Pz" for o in game.legal_orders())
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("15Pz", H("K3")))
    assert (err.value.clause, err.value.reason) == ("GG-V.A.1", "15Pz has been placed already; undo to place it elsewhere")


@pytest.mark.rule("GG-V.B.1")
def test_units_left_in_the_pool_take_their_printed_positions_unseen_by_the_axis() -> None:
    game = Game(load_scenario("gazala-gallop"), options=["nonhistorical"])
    game.play(Place("Dummy1", H("C5")))
    game.play(Place("Dummy2", H("E6")))
    game.play(EndPhase())
    line = next(t for t in game.log_for(ALLIED) if t.startswith("Allied: the units not placed set up"))
    assert line.startswith("Allied: the units not placed set up in their printed positions: 1SA C5, ")
    assert line.endswith(".") and not any("not placed" in t for t in game.log_for(AXIS))
    assert "Allied has set up, face down." in game.log_for(AXIS)


@pytest.mark.rule("GG-V.B.1")
@pytest.mark.rule("GG-XII.A.2")
def test_the_set_up_ends_only_when_the_pool_s_printed_positions_can_take_it() -> None:
    """Units left in the pool go to their printed positions (ruling R-POOL): with three units placed on 1SA's C5 the
    set-up cannot end; a pool unit a (user-made) scenario gives no printed position must be placed."""
    from dataclasses import replace

    scenario = load_scenario("gazala-gallop")

    def face_down(s: Scenario) -> Game:
        game = Game(s, options=["nonhistorical"])
        game.play(Place("Dummy1", H("E6")))
        game.play(Place("Dummy2", H("B5")))
        return game

    game = face_down(scenario)
    for uid in ("201Gds", "2ArmdBde", "22ArmdBde"):
        game.play(Place(uid, H("C5")))
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert (err.value.clause, err.value.reason) == ("GG-XII.A.2", "place 1SA: its printed position C5 is taken (at most 3 units in a hex)")
    game = face_down(replace(scenario, start={uid: h for uid, h in scenario.start.items() if uid != "1SA"}))
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert (err.value.clause, err.value.reason) == ("GG-V.B.1", "place 1SA: it has no printed position")
    game.play(Place("1SA", H("C5")))
    game.play(EndPhase())
    assert game.decision is not None and game.decision.phase != "allied-setup"


@pytest.mark.rule("GG-VIII.A")
@pytest.mark.rule("GG-VIII.B")
@pytest.mark.parametrize(
    ("rolls", "purposes"),
    [([2, 5], ["weather", "sandstorm confirmation (4-6)"]), ([5, 4], ["weather", "rainstorm confirmation (same number)"])],
)
def test_the_weather_dice_are_named(gazala: Scenario, rolls: list[int], purposes: list[str]) -> None:
    game = Game(gazala, dice=ForcedDice(rolls))
    while game.decision is not None and game.decision.phase != "weather":
        game.play(EndPhase())
    game.play(Weather(2, 5))
    assert [r.purpose for r in game.dice.log] == purposes


@pytest.mark.rule("GG-XIV.A.1")
def test_a_unit_may_attack_again_the_next_game_turn() -> None:
    game = attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4") + unit_toml("Def", "allied", "B4", factors="1-9-2"), dice=ForcedDice([3])
    )
    game.play(Attack((H("B4"),), ("Att",), (("Att", 3),)))  # 3 to 9: 1:3, die 3: AR
    game.play(Resolve(1))
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(NoRetreat())
    assert family_unit(game, "Att").attacked
    family_unit(game, "Def").hex = H("C8")  # out of the way
    game.state.turn = 1
    while game.turn == 1 and game.decision is not None:
        d = game.decision
        game.play(Weather(1, 2) if d.phase == "weather" else game.legal_orders()[-1])
    assert game.turn == 2 and not family_unit(game, "Att").attacked


@pytest.mark.rule("GG-XIII.E")
@pytest.mark.rule("GG-V.A.4")
def test_the_gallop_uses_no_activation(gazala: Scenario) -> None:
    game = at_phase(Game(gazala), "allied-movement")
    game.play(Gallop())
    from tobruk.systems.gazala import moves as mv

    assert mv.activations_left(game) == 2


@pytest.mark.rule("GG-XII.B")
def test_each_unit_over_the_limit_is_eliminated_one_order_at_a_time() -> None:
    from tests.conftest import movement_game
    from tobruk.mechanics.actions import Eliminate

    units = "".join(unit_toml(f"U{i}", "axis", "A1", echelon="subdivisional") for i in range(5))
    game = movement_game(units + unit_toml("T", "allied", "C8"))
    game.play(EndPhase())
    game.play(Eliminate("U4"))
    assert game.state.log[-1] == "Axis: U4 eliminated in A1 (over the stacking limit)."
    d = game.decision
    assert d is not None and d.clause == "GG-XII.B"
    assert d.prompt == "eliminate units over the stacking limit (3 units, only 2 of them division-level): 1 of the 4 in A1"
    game.play(Eliminate("U3"))  # three left: the limit; the movement phase is over
    assert game.phase.key == "axis-attacks"


@pytest.mark.rule("GG-VI.B")
@pytest.mark.rule("GG-X.B.3")
def test_the_axis_may_intercept_the_allied_interdiction_in_its_airstrike_phase() -> None:
    # the DAF strikes B4 (die 2 on the Axis column: Flak, no dedicated AA there: no effect) and stays over it
    game = game_at(unit_toml("Pz", "axis", "B4"), "allied-airstrike", [2, 3])  # then the weather: 3, clear
    game.play(Airstrike(H("B4")))
    game.play(NoIntercept())
    interdiction = gazala_vars(game).interdiction
    assert interdiction is not None and interdiction.side == "allied"
    while game.phase.key != "axis-airstrike":
        game.play(Weather(1, 2) if game.decision is not None and game.decision.phase == "weather" else EndPhase())
    legal = game.legal_orders()
    assert Intercept() in legal and EndPhase() in legal


@pytest.mark.rule("GG-V.A.2")
def test_the_listed_activations_are_the_units_the_activation_check_accepts_through_random_games() -> None:
    import random

    from tobruk.systems.gazala import moves as mv
    from tobruk.systems.gazala import sequence as sq

    checked = 0
    for seed in (1, 2):
        game = Game(load_scenario("gazala-gallop"), seed=seed)
        rng = random.Random(seed)
        while game.decision is not None and game.turn <= 4:
            if game.decision.side is ALLIED:
                assert sq.activatable(game) == [u for u in game.units_of(ALLIED) if sq.activation_problem(game, u) is None]
                line = game.scenario.map.zones["gazala-line"]  # GG-XIII.E: on or within 1 hex of the line
                near = [uid for uid, h in mv.on_map(game, ALLIED) if any(h.distance(x) <= 1 for x in line)]
                assert mv.gallop_candidates(game) == near
                checked += 1
            game.play_id(rng.choice(game.legal_id_list()))
    assert checked > 100


@pytest.mark.rule("GG-V.B.1")
@pytest.mark.parametrize("options", [(), ("nonhistorical",)])
def test_the_set_up_listing_is_every_placement_the_check_accepts_through_random_set_ups(options: tuple[str, ...]) -> None:
    import random

    from tobruk.mechanics.actions import Place as PlaceAction
    from tobruk.systems.gazala import setup as su

    checked = 0
    for seed in (1, 2, 3):
        game = Game(load_scenario("gazala-gallop"), seed=seed, options=options)
        rng = random.Random(seed)
        while game.decision is not None and type(game.node).__name__ == "SetupStep":
            side = game.decision.side
            zones, occupants = su.setup_zones(game, side), game.occupants()
            expected = [
                PlaceAction(uid, h)
                for uid, zone in zones.items()
                for h in sorted(game.scenario.zone(zone))
                if h != family_unit(game, uid).hex and su.placement_problem(game, uid, h, zones, occupants) is None
            ]
            assert [a for a in game.legal_orders() if isinstance(a, PlaceAction)] == expected  # the answers kept agree
            checked += 1
            game.play_id(rng.choice(game.legal_id_list()))
            if rng.random() < 0.3 and game.can_undo():
                game.pop()
    assert checked >= 10


@pytest.mark.rule("GG-V.B.1")
def test_a_dummy_goes_with_a_real_unit_only_once_that_unit_is_set_up_there_kept_answers_included() -> None:
    from tobruk.mechanics.actions import Place as PlaceAction
    from tobruk.systems.gazala import hidden as hd

    game = Game(load_scenario("gazala-gallop"), seed=1, options=("nonhistorical",))
    while not (type(game.node).__name__ == "SetupStep" and game.decision is not None and game.decision.side is ALLIED):
        game.play_id(game.legal_id_list()[-1])
    boxes = set(game.scenario.map.fortifications)
    place = next(
        a for a in game.legal_orders() if isinstance(a, PlaceAction) and not family_defs(game)[a.unit].is_dummy and a.hex not in boxes
    )
    dummy = next(u for u in hd.pool_units(game, ALLIED) if family_defs(game)[u].is_dummy)
    game.play(place)  # a real unit set up outside the boxes: a dummy may join it
    assert PlaceAction(dummy, place.hex) in game.legal_orders()
    game.vars.placed = ()  # arranged by hand: the unit stands there, but not as set up in this phase
    assert PlaceAction(dummy, place.hex) not in game.legal_orders()


@pytest.mark.rule("GG-XIII.A.1")
def test_the_set_up_and_movement_steps_list_the_same_orders_whole_or_in_blocks(gazala: Scenario) -> None:
    """The set-up and movement steps list their orders in blocks (each unit's placements or moves, made on demand);
    their whole listing is those blocks in order: the same orders, the same ids."""
    from tests.conftest import jump_to

    for game in (Game(gazala, seed=1), jump_to(Game(gazala, seed=1), "axis-movement")):
        d = game.decision
        assert d is not None
        whole = game.step.actions(game, d)
        assert whole == [a for block in game.step.action_blocks(game, d) for a in block] == list(game.legal_orders())
        assert whole[-1] == EndPhase() and len(whole) > 1


@pytest.mark.rule("GG-XIV.C.1")
@pytest.mark.rule("GG-XIV.A.2")
def test_the_attack_step_says_why_it_may_not_end_yet() -> None:
    """Declared attacks still to be resolved (GG-XIV.C.1), then attacks still owed (GG-XIV.A.2): the page says it
    beside the end-phase button."""
    units = unit_toml("Att", "axis", "B3", type_="armour", factors="6-1-4")
    units += unit_toml("Def", "allied", "B4", type_="armour", factors="1-2-2")
    game = attack_game(units, dice=ForcedDice([6]))
    unended = game.step.unended(game, AXIS)
    assert unended is not None and unended.clause == "GG-XIV.A.2"
    assert unended.reason == (
        "attacks still owed: B4 by Att (every hex of undisrupted, or face-down, enemy units next to yours must be attacked)"
    )
    game.play(Attack((H("B4"),), ("Att",)))
    unended = game.step.unended(game, AXIS)
    assert unended is not None and unended.clause == "GG-XIV.C.1"
    assert unended.reason == "the declared attacks (1) are still to be resolved or cancelled"
    game.play(Resolve(1))
    game.play(NoRetreat())  # 3:1 die 6: DE
    assert family_unit(game, "Def").eliminated and game.step.unended(game, AXIS) is None
