"""The layers the family's systems draw over the map for a side (``System.overlays``): the enemy's zones of control by
the rules' own definition, the side's supply lines at the last determination; the victory hexes the scenario names
are no layer but the rings the map draws round the system's objectives."""

from __future__ import annotations

import random

import pytest

from tests.toy_system import toy_scenario
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.system import Overlay
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.supply import supply_markers
from tobruk.render.board import board_data
from tobruk.render.marks import legend_marks, objective_key
from tobruk.render.palette import Palette

AXIS, ALLIED = Side.AXIS, Side.ALLIED


def layers(game: Game, side: Side) -> dict[str, Overlay]:
    return {o.key: o for o in game.system.overlays(game, side)}


def zoc_by_the_rules(game: Game, side: Side) -> set[str]:
    """GG-XIII.B (and FA's, the same): each enemy ground unit on the map exerts a ZOC into the six land hexes around it
    (an air unit none, a dummy only while face down), except into a box or fort of ``side``'s that its units hold
    (GG-XI.A.3: in ``side``'s own player-turn those held at its start, in the enemy's those held now)."""
    m = game.scenario.map
    defs = family_defs(game)
    if game.step.key.startswith(side.value + "-"):  # (a movement step: the player-turn is the step's side's)
        remembered: dict[str, tuple[str, ...]] = getattr(game.vars, "boxes_held")  # noqa: B009 (both systems' variables)
        held = {Hex.parse(h) for h in remembered.get(side.value, ())}
    else:
        mine = {family_unit(game, u).hex for u in game.units_of(side) if not defs[u].is_dummy and not family_unit(game, u).eliminated}
        held = {h for h, owner in m.fortifications.items() if owner is side and h in mine}
    out: set[str] = set()
    for uid in game.units_of(side.enemy):
        u, d = family_unit(game, uid), defs[uid]
        if u.hex is None or u.eliminated or d.is_air or (d.is_dummy and not u.hidden):
            continue
        out |= {n.label for n in u.hex.neighbours() if n in m.index and m.is_land(n) and n not in held}
    return out


@pytest.mark.parametrize(("name", "options"), [("gazala-gallop", ()), ("gazala-gallop", ("nonhistorical",)), ("first-alamein", ())])
def test_the_zoc_layer_is_the_rules_zoc_of_the_enemy(name: str, options: tuple[str, ...]) -> None:
    game = Game(load_scenario(name), seed=3, options=options)
    rng = random.Random(3)
    checked = 0
    while checked < 12 and game.decision is not None:
        if game.step.key.endswith("-movement") and rng.random() < 0.1:  # each side, at movement positions along the game
            for side in Side:
                zoc = layers(game, side)["zoc"]
                assert zoc.kind == "hexes" and set(zoc.hexes) == zoc_by_the_rules(game, side)
                assert zoc.hexes
            checked += 1
        game.play(rng.choice(game.legal_orders()))
    assert checked == 12


def test_the_supply_layer_is_the_sides_lines_at_the_last_determination() -> None:
    game = Game(load_scenario("gazala-gallop"), seed=2)
    rng = random.Random(2)
    while not any(supply_markers(game).supply.values()):
        game.play(rng.choice(game.legal_orders()))  # up to the first supply determination
    for side in Side:
        determined = supply_markers(game).supply.get(side.value, {})
        expected = sorted(tuple(e["route"]) for e in determined.values() if len(e["route"]) > 1)
        supply = layers(game, side)["supply"]
        assert supply.kind == "lines" and sorted(supply.lines) == expected
    assert any(layers(game, s)["supply"].lines for s in Side)


def test_the_victory_hexes_are_ringed_as_objectives_and_sent_as_no_layer() -> None:
    """GG-IV's hexes and CA-SC.7's are each an objective the map rings from the start, its rule in the legend (the
    board data the page draws from lists them); no layer repeats them."""
    gazala = load_scenario("gazala-gallop")
    game = Game(gazala)
    # GG-IV: the sudden victory hexes A5 and G1, Tobruk (C13), the Supply Dump (F15), the Allied supply sources on the
    # east edge and the Gazala position's boxes, as the scenario and its map name them
    sources = {h.label for h in gazala.map.supply_sources[ALLIED] if h in gazala.map.edge("east")}
    boxes = {h.label for h in gazala.map.zones["gazala-line"] if h in gazala.map.fortifications}
    alamein = load_scenario("first-alamein")
    cases = [
        (gazala, {"A5", "G1", "C13", "F15"} | sources | boxes),
        (alamein, {h.label for h in alamein.zone("el-alamein") | alamein.zone("ne-coast-road-hex")}),
    ]
    for scenario, expected in cases:
        game = Game(scenario)
        objectives = game.system.objectives(scenario)
        board = board_data(scenario.map, game.system.rendering(), size=28.0, title=scenario.title, objectives=objectives)
        assert {o["hex"] for o in board["objectives"]} == expected and expected
        assert {k.key for k in legend_marks(scenario.map, Palette(game.system.rendering()), objectives, 28.0)} >= {
            objective_key(o) for o in objectives
        }
        for side in Side:
            assert "objectives" not in layers(game, side)


def test_a_system_without_zones_of_control_or_supply_draws_neither() -> None:
    game = Game(toy_scenario())
    assert layers(game, AXIS) == {}


def test_the_layers_draw_on_the_map_only(gazala: Scenario) -> None:
    game = Game(gazala)
    hexes = {h.label for h in gazala.map.hexes}
    for o in layers(game, AXIS).values():
        assert set(o.hexes) <= hexes and o.colour
