"""1st Alamein's objectives: the Axis wins holding El Alamein in supply or the north-east coastal road hex at the
end (CA-SC.7), so both are the Allies' to hold, and the Allies are warned when an Axis unit could reach one."""

from __future__ import annotations

import pytest

from tests.systems.first_alamein import kit
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


# --- the Axis reinforcements (FA-UNIT.1): they enter in the reinforcement step and may move in the same turn ---------
# One row: the Axis enters on A1; El Alamein in A5 and the road hex in A6 (both the Allies' to hold); an Allied unit
# far off in A10.  Off road an infantry division with movement factor 3 moves 3 hexes, 4 with the bonus (GG-XIII.C).
ONE_ROW = '[map.zones]\nalamein = ["A5"]\nroad-end = ["A6"]\n'
RULES = 'victory_el_alamein = "alamein"\nvictory_road_hex = "road-end"\n'
WEST = '[zones.west]\nhexes = ["A1"]\n'


def arriving_game(turn: int, key: str, *, extra_units: str = "") -> Game:
    units = kit.unit("Trento", "axis", None, factors="1-1-3", nationality="italian", extra=f'arrives = {{ turn = {turn}, zone = "west" }}')
    units += kit.unit("SA", "allied", "A10") + extra_units
    return kit.game_at(units, key, rows=1, columns=10, map_extra=ONE_ROW, rules=RULES, tail=WEST)


def arriving(game: Game) -> dict[str, list[tuple[str, str]]]:
    return {t.objective.hex.label: [(a.unit, a.when) for a in t.arriving] for t in threats(game, ALLIED)}


@pytest.mark.rule("FA-UNIT.1")
def test_an_axis_reinforcement_due_next_threatens_el_alamein_four_hexes_from_its_entry_not_the_road_hex_five() -> None:
    """At the Allied movement of turn 1 the Axis's next reinforcement step is turn 2's: Trento, due then, enters on A1
    and may move at once: A5 is 4 hexes away, A6 is 5."""
    game = arriving_game(2, "allied-movement")
    assert arriving(game) == {"A5": [("Trento", "turn 2")]}
    assert [t.describe() for t in threats(game, ALLIED)] == [
        "A5 (El Alamein (Axis wins holding it in supply), CA-SC.7) could be reached by Trento (arriving turn 2)"
    ]


@pytest.mark.rule("FA-UNIT.1")
def test_a_reinforcement_due_after_the_next_reinforcement_step_is_no_threat_yet() -> None:
    assert arriving(arriving_game(3, "allied-movement")) == {}


@pytest.mark.rule("FA-STK.1")
def test_an_entry_hex_at_the_stacking_limit_is_closed_to_a_reinforcement() -> None:
    """Three Axis brigades in A1 already (3 units a hex at most): Trento cannot enter there."""
    held = "".join(kit.unit(f"I{i}", "axis", "A1", echelon="subdivisional", factors="1-1-0", nationality="italian") for i in range(3))
    assert arriving(arriving_game(2, "allied-movement", extra_units=held)) == {}


def test_the_allies_are_not_warned_of_their_own_reinforcements_nor_the_axis_of_a_side_with_no_objective() -> None:
    game = arriving_game(2, "allied-movement")
    assert threats(game, AXIS) == []
