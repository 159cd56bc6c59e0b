"""1st Alamein's objectives: the Axis wins holding El Alamein in supply or the north-east coastal road hex at the
end (CA-SC.7), so both are the Allies' to hold, and the Allies are warned when an Axis unit could reach one."""

from __future__ import annotations

import pytest

from tobruk.engine.game import Game
from tobruk.engine.objectives import threats
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import family_defs

AXIS, ALLIED = Side.AXIS, Side.ALLIED


@pytest.mark.rule("CA-SC.7")
def test_el_alamein_and_the_road_hex_are_the_allies_to_hold() -> None:
    scenario = load_scenario("first-alamein")
    game = Game(scenario, seed=1)
    found = {(o.hex.label, o.clause, o.defender) for o in game.system.objectives(scenario)}
    alamein = {h for h in scenario.map.hexes if "El Alamein" in [p.name for p in scenario.map.places_in(h)]}
    road = scenario.zone("ne-coast-road-hex")
    assert found == {(h.label, "CA-SC.7", ALLIED) for h in alamein | road} and len(alamein) == len(road) == 1
    assert all(h in {a for s in scenario.map.routes for a in s.hexes} for h in road)  # a road hex


@pytest.mark.rule("CA-SC.7")
def test_an_axis_unit_next_to_el_alamein_threatens_it() -> None:
    game = Game(load_scenario("first-alamein"), seed=1)
    (alamein,) = [o.hex for o in game.system.objectives(game.scenario) if "El Alamein" in o.name]
    mover = next(u for u in game.units_of(AXIS) if not family_defs(game)[u].is_air)
    for uid in game.units_of(ALLIED):  # the Allies off the map: nothing between the Axis and its objective
        game.unit(uid).hex = None
    game.unit(mover).hex = next(n for n in alamein.neighbours() if game.scenario.map.is_land(n) and n != alamein)
    game.forget_caches()
    warned = {t.objective.hex: t.units for t in threats(game, ALLIED)}
    assert mover in warned[alamein]
    assert threats(game, AXIS) == []  # the Axis has nothing to hold
