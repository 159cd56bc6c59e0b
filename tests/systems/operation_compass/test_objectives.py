"""Operation Compass's objectives: the places the WDF scores holding them (ruling R-OC-VICTORY: Sidi Barrani 5, each
camp and each town 2), held by the Italians at the start; only the WDF moves in a movement phase (ruling
R-OC-POLICY), so only the Italians are ever warned."""

from __future__ import annotations

from tobruk.engine.game import Game
from tobruk.engine.objectives import threats
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.systems.operation_compass import moves as mv
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.state import compass_vars
from tobruk.systems.operation_compass.terrain import impassable

AXIS, ALLIED = Side.AXIS, Side.ALLIED


def test_the_places_that_score_are_the_italians_to_hold() -> None:
    scenario = load_scenario("operation-compass")
    game = Game(scenario, seed=1)
    named = {p.name: o for o in game.system.objectives(scenario) for p in scenario.map.places_in(o.hex)}
    assert {o.defender for o in named.values()} == {AXIS}
    assert "5 points" in named["Sidi Barrani"].name
    assert all("towns" in named[t].name and "2 points" in named[t].name for t in ("Sollum", "Buq Buq"))
    assert all("camps" in named[c].name for c in ("Nibeiwa", "Tummar West", "Tummar East", "Maktila"))


def test_a_wdf_unit_that_could_move_next_to_a_camp_threatens_it_one_further_does_not() -> None:
    """The assault follows the movement (OC-TER.1's escarpment aside): a camp is threatened by a WDF unit that could
    end its move next to it; the WDF is never warned (the Italians move only in retreat)."""
    game = Game(load_scenario("operation-compass"), seed=1)
    while game.decision is not None and "movement" not in game.phase.key:
        game.play("end-phase")
    m = game.scenario.map
    camp = next(o.hex for o in game.system.objectives(game.scenario) if "Nibeiwa" in [p.name for p in m.places_in(o.hex)])
    for uid, _ in game.placed(ALLIED):  # the WDF off the map but the unit placed
        game.unit(uid).hex = None
    mover = "7RTR"  # an armoured regiment of 6 MP
    held = set(game.occupants(AXIS))
    seen = set()
    for start in sorted(h for h in m.hexes if 2 <= h.distance(camp) <= 9 and m.is_land(h) and h not in held):
        game.unit(mover).hex = start
        game.forget_caches()
        warned = mover in {u for t in threats(game, AXIS) if t.objective.hex == camp for u in t.units}
        ends = mv.reach(game, mover).reached()  # the moves its listing offers
        assert warned == any(h.is_adjacent(camp) and not impassable(m, chart(game).terrain, h, camp) for h in ends)
        seen.add(warned)
    assert seen == {True, False}  # both sides of the threshold were walked
    # once the WDF holds the camp (the last side to enter it), it is no longer the Italians' to lose
    game.unit(mover).hex = next(h for h in m.hexes if h.is_adjacent(camp) and m.is_land(h) and h not in held)
    game.forget_caches()
    assert camp in {t.objective.hex for t in threats(game, AXIS)}
    compass_vars(game).held = {**compass_vars(game).held, camp.label: ALLIED.value}
    game.forget_caches()
    assert camp not in {t.objective.hex for t in threats(game, AXIS)}
    assert threats(game, ALLIED) == []


def test_no_reinforcement_is_warned_of_the_order_of_battle_is_on_the_map_from_the_start() -> None:
    """The scenario brings in no unit later (every counter stands on the map from the start), so neither side has
    arrivals to be warned of (ruling R-REINF-WARN)."""
    game = Game(load_scenario("operation-compass"), seed=1)
    assert game.scenario.reinforcements == {}
    assert [a for side in Side for a in game.system.arrivals(game, side)] == []
    assert all(t.arriving == () for t in threats(game, AXIS))
