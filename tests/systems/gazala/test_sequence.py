"""The sequence of play of the 2016 charts (GG-VI), phase by phase, and what each side is asked in it.

GG-VI.A: weather (from turn 2, GG-VIII.0), the Axis player-turn, the Allied player-turn.  GG-VI.B: Axis victory
determination; airstrike; operational movement; attacks; recovery and supply determination.  GG-VI.C: Allied
victory determination; interception of Axis interdiction; operational movement; airstrike; attacks; recovery
and supply.  The Siege of Tobruk comes before the Axis player-turn (GG-XIV.B.6); the set-up opens turn 1
(GG-V.A.1; nonhistorical: the Allies face down first, GG-V.B.1, then the Axis, GG-V.B.3).
"""

from __future__ import annotations

import pytest

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.gazala.actions import Weather

AXIS, ALLIED = Side.AXIS, Side.ALLIED
PLAYER_TURNS = [
    ("axis-victory", "Axis victory determination", "GG-VI.B", None),
    ("axis-airstrike", "Axis airstrike", "GG-VI.B", AXIS),
    ("axis-movement", "Axis operational movement", "GG-VI.B", AXIS),
    ("axis-attacks", "Axis attacks", "GG-VI.B", AXIS),
    ("axis-recovery", "Axis recovery and supply determination", "GG-IX.E", AXIS),
    ("allied-victory", "Allied victory determination", "GG-VI.C", None),
    ("allied-interception", "Allied interception of Axis interdiction", "GG-VI.C", ALLIED),
    ("allied-movement", "Allied operational movement", "GG-VI.C", ALLIED),
    ("allied-airstrike", "Allied airstrike", "GG-VI.C", ALLIED),
    ("allied-attacks", "Allied attacks", "GG-VI.C", ALLIED),
    ("allied-recovery", "Allied recovery and supply determination", "GG-IX.E", ALLIED),
]
SIEGE = ("allied-siege", "Siege of Tobruk", "GG-XIV.B.6", ALLIED)


def phases(game: Game) -> list[tuple[str, str, str, Side | None]]:
    """Each phase with the side that decides in it (``None``: it runs by itself, as a victory determination)."""
    return [(p.key, p.title, p.clause, p.side if p.decides else None) for p in game.phases]


@pytest.mark.rule("GG-VI.A")
@pytest.mark.rule("GG-VI.B")
@pytest.mark.rule("GG-VI.C")
def test_the_phases_of_each_game_turn(gazala: Scenario) -> None:
    game = Game(gazala)
    assert phases(game) == [("axis-setup", "Axis set-up", "GG-V.A.1", AXIS), SIEGE, *PLAYER_TURNS]
    game = Game(gazala, options=["nonhistorical"])
    assert phases(game) == [
        ("allied-setup", "Allied set-up, face down", "GG-V.B.1", ALLIED),
        ("axis-setup", "Axis set-up", "GG-V.B.3", AXIS),
        SIEGE,
        *PLAYER_TURNS,
    ]
    game.state.turn = 2
    assert phases(game) == [("weather", "Weather determination", "GG-VIII.0", ALLIED), SIEGE, *PLAYER_TURNS]


AIR = "send the air unit against a hex (or intercept the enemy's interdiction), or end the phase"
ASKED = [  # (phase, side, clause, prompt) of each decision when every side just ends its phases
    ("axis-airstrike", AXIS, "GG-X.A", AIR),
    ("axis-movement", AXIS, "GG-VI.B", "operational movement"),
    ("axis-attacks", AXIS, "GG-VI.B", "attacks"),
    ("allied-movement", ALLIED, "GG-VI.C", "operational movement"),
    ("allied-airstrike", ALLIED, "GG-X.A", AIR),
    ("allied-attacks", ALLIED, "GG-VI.C", "attacks"),
]


@pytest.mark.rule("GG-VI.A")
@pytest.mark.rule("GG-VIII.0")
def test_what_each_side_is_asked_through_two_turns(gazala: Scenario) -> None:
    # seed 1: the weather die of turn 2 is a 5 (the counter-based dice), neither number named: clear, so turn 2
    # has its airstrike phases as turn 1 does
    game = Game(gazala, seed=1)
    asked = []
    while game.decision is not None and game.turn <= 2:
        d = game.decision
        asked.append((game.turn, d.phase, d.side, d.clause, d.prompt))
        game.play(Weather(1, 2) if d.phase == "weather" else EndPhase())
    setup = (
        1,
        "axis-setup",
        AXIS,
        "GG-V.A.1",
        "place the units on the Axis side of the Gazala Line (or south of it in columns 1-6), then end the phase",
    )
    weather = (  # GG-VIII.A: the sandstorm number, then 4-6 (1/6 x 1/2); GG-VIII.B: the rainstorm number twice (1/6 x 1/6)
        2,
        "weather",
        ALLIED,
        "GG-VIII.0",
        "name two different numbers, then the Axis player rolls a die: your sandstorm number followed by a 4-6 brings a "
        "sandstorm, your rainstorm number twice running brings rain, anything else is clear (any pair gives the same "
        "chances: a sandstorm 1 in 12, rain 1 in 36)",
    )
    assert [(r.purpose, r.value) for r in game.dice.log[:1]] == [("weather", 5)]
    assert asked == [setup, *((1, *a) for a in ASKED), weather, *((2, *a) for a in ASKED)]


@pytest.mark.rule("GG-V.B.1")
def test_the_nonhistorical_set_up_asks_the_allies_first(gazala: Scenario) -> None:
    d = Game(gazala, options=["nonhistorical"]).decision
    assert d is not None and (d.phase, d.side, d.clause, d.prompt) == (
        "allied-setup",
        ALLIED,
        "GG-V.B.1",
        "place every unit and the 2 dummies face down on the Allied side of the "
        "Gazala Line (or south of it in columns 8-18), then end the phase",
    )
