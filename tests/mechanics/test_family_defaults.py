"""The family's defaults that a system inherits unless it says otherwise: a phase's prompt from its title, and the
family's ways of drawing a counter (a disrupted unit's edge in red, a star after the factors of a unit out of supply)
under a system's own."""

from __future__ import annotations

from tobruk.engine.sides import Side
from tobruk.engine.system import Rendering
from tobruk.mechanics.counters import FAMILY_SYMBOLS, family_rendering
from tobruk.mechanics.phases import PhaseStep


def test_a_phase_asks_with_the_words_of_its_title_after_the_side_unless_given_a_prompt() -> None:
    assert PhaseStep("axis-airstrike", "Axis air strikes and interdiction", "GG-X.A", Side.AXIS).prompt == "air strikes and interdiction"
    assert PhaseStep("weather", "Weather", "GG-IX.A", None).prompt == "Weather"  # one word: the whole title
    given = PhaseStep("axis-movement", "Axis movement", "GG-XIII", Side.AXIS, prompt="move, then end-phase")
    assert given.prompt == "move, then end-phase"


def test_a_system_without_marks_of_its_own_draws_counters_the_familys_way() -> None:
    drawn = family_rendering(Rendering())
    assert drawn.alarms == ("disrupted",)
    assert drawn.marks == {"out_of_supply": "*"}
    assert drawn.symbols == FAMILY_SYMBOLS


def test_a_systems_own_alarms_marks_and_symbols_come_first() -> None:
    own = Rendering(alarms=("shaken",), marks={"out_of_supply": "°", "newly": "!"}, symbols={"armour": "tank"})
    drawn = family_rendering(own)
    assert drawn.alarms == ("shaken",)
    assert drawn.marks == {"out_of_supply": "°", "newly": "!"}
    assert drawn.symbols["armour"] == "tank" and {k: v for k, v in drawn.symbols.items() if k != "armour"} == {
        k: v for k, v in FAMILY_SYMBOLS.items() if k != "armour"
    }
