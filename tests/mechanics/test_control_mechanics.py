"""The control of places as a mechanic: set at the start, taken by the last side to pass through, logged."""

from __future__ import annotations

from tests.conftest import make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.control import controllers, pass_through, set_control

H = Hex.parse


def test_a_unit_passing_through_takes_control_once() -> None:
    scenario = make_scenario(unit_toml("A", "axis", "A1"), map_extra='[[map.place]]\nname = "Acroma"\nhex = "B2"\n')
    game = Game(scenario)
    set_control(game, {H("B2"): Side.ALLIED, H("C3"): Side.ALLIED})
    before = len(game.state.log)
    pass_through(game, Side.AXIS, [H("A2"), H("B2"), H("B3")])
    assert controllers(game) == {H("B2"): Side.AXIS, H("C3"): Side.ALLIED}
    assert game.state.log[before:] == ["Axis takes control of Acroma."]
    pass_through(game, Side.AXIS, [H("B2")])  # already its own: nothing happens
    assert len(game.state.log) == before + 1


def test_a_copy_keeps_its_own_controllers() -> None:
    game = Game(make_scenario(unit_toml("A", "axis", "A1")))
    set_control(game, {H("B2"): Side.ALLIED})
    other = game.copy()
    pass_through(other, Side.AXIS, [H("B2")])
    assert controllers(game) == {H("B2"): Side.ALLIED} and controllers(other) == {H("B2"): Side.AXIS}
