"""The start of a 1st Alamein game and of its reinforcement steps: who holds each village and town at the start
(GG-XVI, by ruling), the end of the Allied set-up (CA-SC.7), and the question the reinforcement step asks
(FA-UNIT.1)."""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import H, advance_to, scenario, unit
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.mechanics.control import controllers
from tobruk.systems.first_alamein.state import alamein_vars

SETUP = 'setup_zone = "setup"'


@pytest.mark.rule("GG-XVI")
def test_each_village_and_town_starts_with_the_side_in_it_else_the_allies_in_their_zone_else_the_axis() -> None:
    places = '[map.terrain]\nvillage = ["A2", "A5", "A6", "B2", "B6"]\ntown = ["B7"]\n'
    units = (
        unit("It", "axis", "A2")
        + unit("Pz", "axis", "A6")  # inside the Allied set-up zone, but the Axis stands in it
        + unit("SA", "allied", "A5", extra=SETUP)
    )
    game = Game(scenario(units, rows=2, columns=8, map_extra=places, tail='[zones.setup]\ncolumns = "5-8"\n'))
    assert controllers(game) == {
        H("A2"): Side.AXIS,
        H("A5"): Side.ALLIED,
        H("A6"): Side.AXIS,
        H("B2"): Side.AXIS,  # empty, outside the zone
        H("B6"): Side.ALLIED,  # empty, in the zone
        H("B7"): Side.ALLIED,
    }


@pytest.mark.rule("CA-SC.7")
def test_the_allied_set_up_ends_with_a_note() -> None:
    game = Game(scenario(unit("SA", "allied", "A5", extra=SETUP) + unit("Pz", "axis", "A1"), tail='[zones.setup]\ncolumns = "3-8"\n'))
    game.play(EndPhase())
    assert "Allied set-up complete." in game.state.log and alamein_vars(game).placed == ()


@pytest.mark.rule("FA-UNIT.1")
def test_the_reinforcement_step_names_the_units_due() -> None:
    due = 'arrives = { turn = 1, zone = "west" }'
    units = unit("Pz", "axis", None, extra=due) + unit("Pz2", "axis", None, extra=due) + unit("SA", "allied", "C8")
    game = advance_to(Game(scenario(units, tail='[zones.west]\nhexes = ["A1", "C1"]\n')), "axis-reinforcement")
    d = game.decision
    assert d is not None and (d.clause, d.prompt) == ("FA-UNIT.1", "bring in the reinforcements due (Pz, Pz2)")
