"""The victory lines as a player reads them (GG-IV): what counts for whom, the defaults of the rules, the text.

Positions are the Gazala scenario's or small inline ones; every number comes from GG-IV's lists.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from tests.conftest import make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.systems.gazala import victory as vp
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse


def lines(result: dict[str, Any], side: str) -> dict[str, Fraction]:
    return {text: Fraction(p) for text, p in result[side]}


@pytest.mark.rule("GG-IV.A.2")
def test_german_divisions_score_5_without_a_scenario_value() -> None:
    # a scenario that names no special values: a German division 5 GVP (GG-IV.A.2), any other unit 1
    german = unit_toml("Pz", "axis", "A1").replace('nationality = "test"', 'nationality = "german"')
    units = german + unit_toml("Ital", "axis", "A2") + unit_toml("Tommy", "allied", "A5")
    game = Game(make_scenario(units, rows=1, columns=6))
    for uid in ("Pz", "Ital"):
        game.unit(uid).eliminated, game.unit(uid).hex = True, None
    result = vp.score(game)
    assert lines(result, "allied") == {"Pz destroyed": 5, "Ital destroyed": 1}
    assert vp.tobruk_state(game) == "held" and lines(result, "axis") == {}  # no Tobruk in this scenario
    assert result["allied_total"] == "6" and result["winner"] == "allied" and result["level"] == "Tactical Victory"


@pytest.mark.rule("GG-IV.B.3")
@pytest.mark.rule("GG-IV.B.4")
def test_only_axis_units_take_sources_and_the_dump_and_only_east_edge_sources_count(gazala: Scenario) -> None:
    game = Game(gazala)
    game.unit("7MotBde").hex = H("G18")  # Allied units on their own source and dump take nothing
    game.unit("22ArmdBde").hex = H("F15")
    game.unit("15Pz").hex = H("F17")  # the east edge, but no source
    axis = lines(vp.score(game), "axis")
    assert not any("source" in t or "Dump" in t for t in axis)


@pytest.mark.rule("GG-IV.B.2")
def test_tobruk_is_taken_when_its_box_is_eliminated(gazala: Scenario) -> None:
    game = Game(gazala)
    game.unit("2SA").hex = H("F17")  # nobody in C13, and its box eliminated (GG-XI.A.5)
    game.vars.boxes_eliminated = ("C13",)
    assert vp.tobruk_state(game) == "taken"
    axis = lines(vp.score(game), "axis")
    assert axis["Tobruk taken"] == 6 and "Allied supply source C13 taken" not in axis


@pytest.mark.rule("GG-IV.A.3")
def test_the_gazala_position_line_names_each_box_held_once(gazala: Scenario) -> None:
    game = Game(gazala)
    held = sorted(
        h.label for h in game.scenario.map.zones["gazala-line"] if h in game.scenario.map.fortifications and game.units_at(h, Side.ALLIED)
    )
    allied = lines(vp.score(game), "allied")
    assert allied[f"Gazala position held in supply ({', '.join(held)})"] == 3


def result(winner: str | None, adjustment: str = "") -> dict[str, Any]:
    return {
        "winner": winner,
        "level": "Major Victory" if winner else "no victory (a draw)",
        "difference": "10" if winner else "0",
        "adjustment": adjustment,
        "allied": [["15. Panzer-Division destroyed", "5"]],
        "axis": [["Tobruk taken", "6"], ["1 SA destroyed", "2"]],
        "allied_total": "5",
        "axis_total": "8",
        "sudden": False,
    }


@pytest.mark.rule("GG-IV.C")
def test_the_result_as_text() -> None:
    assert vp.describe(result("axis", "doubled (nonhistorical set-up, Axis advantage)")) == [
        "Axis: Major Victory (difference 10 GVP, doubled (nonhistorical set-up, Axis advantage))",
        "Allied GVP: 5",
        "    5  15. Panzer-Division destroyed",
        "Axis GVP: 8",
        "    6  Tobruk taken",
        "    2  1 SA destroyed",
        "The levels, by the difference in GVP (GG-IV.C): more than 4 Tactical Victory, more than 9 Major Victory, "
        "more than 14 Strategic Victory, more than 20 Crushing Strategic Victory; 4 or less, no victory.",
    ]
    assert vp.describe(result("allied"))[0] == "Allied: Major Victory (difference 10 GVP)"
    assert vp.describe(result(None))[0] == "Nobody: no victory (a draw) (difference 0 GVP)"


@pytest.mark.rule("GG-IV.D")
def test_the_nonhistorical_adjustment_is_named(gazala: Scenario) -> None:
    game = Game(gazala, options=["nonhistorical"])
    game.vars.nonhistorical = True
    for uid in ("15Pz", "21Pz", "90Lt"):  # 15 GVP more for the Allies
        game.unit(uid).eliminated, game.unit(uid).hex = True, None
    score = vp.score(game)
    margin = Fraction(score["allied_total"]) - Fraction(score["axis_total"])
    assert score["adjustment"] == "halved (nonhistorical set-up, Allied advantage)"
    assert margin > 0 and Fraction(score["difference"]) == margin / 2
    game = Game(gazala, options=["nonhistorical"])
    game.vars.nonhistorical = True
    for uid in ("1SA", "2SA", "50Div"):  # Axis 6, Allies 5: doubled to 2
        game.unit(uid).eliminated, game.unit(uid).hex = True, None
    score = vp.score(game)
    assert score["adjustment"] == "doubled (nonhistorical set-up, Axis advantage)"
    assert vp.score(Game(gazala))["adjustment"] == ""


@pytest.mark.rule("GG-IV.A.2")
@pytest.mark.parametrize(("winner", "difference", "margin"), [("allied", "7", 7), ("axis", "5/2", -2.5), (None, "0", 0)])
def test_the_summary_margin_is_the_gvp_difference_counted_for_the_allies(winner: str | None, difference: str, margin: float) -> None:
    """The summary's margin (the arena's and the balance figures' measure) is the winner's lead in Game Victory
    Points, positive for an Allied win, negative for an Axis one, nothing for a draw."""
    game = Game(load_scenario("gazala-gallop"), seed=3)
    rng = random.Random(3)
    while game.decision is not None:
        game.play(rng.choice(game.legal_orders()))
    v = gazala_vars(game)
    assert v.result is not None
    v.result = {**v.result, "winner": winner, "difference": difference}
    found = game.system.summary(game)
    assert found is not None and found.winner == winner and found.margin == Fraction(margin)


@pytest.mark.rule("GG-IV.A.2")
@pytest.mark.rule("GG-IV.A.3")
@pytest.mark.rule("GG-IV.B.1")
@pytest.mark.rule("GG-IV.B.3")
@pytest.mark.rule("GG-IV.B.4")
@pytest.mark.rule("GG-IV.B.5")
def test_what_each_side_did_not_score_is_said_at_0(gazala: Scenario) -> None:
    """At the start nothing is destroyed, Tobruk is held with its supply line, no Allied source or dump is taken: the
    result says each objective that scored nothing, at 0, under its side, so a player sees what he missed."""
    game = Game(gazala)
    result = vp.missed(game)
    m = game.scenario.map
    sources = sorted(set(m.supply_sources[Side.ALLIED]) & m.edge("east"))
    dumps = sorted(m.zones["supply-dump"])
    assert sources and dumps  # (the scenario has both)
    assert result["allied"] == ["no Axis unit destroyed (GG-IV.A.2)"]  # the position and Tobruk's line are held
    assert result["axis"] == [
        "Tobruk neither surrounded (3 GVP) nor taken (6 GVP) (GG-IV.B.1-2)",
        *(f"Allied supply source {h} not taken: 2 GVP (GG-IV.B.3)" for h in sources),
        *(f"Allied Supply Dump ({h}) not occupied: 5 GVP (GG-IV.B.4)" for h in dumps),
        "no Allied unit destroyed (GG-IV.B.5)",
    ]
    scored = vp.score(game)
    text = vp.describe(scored, result)
    assert "    0  no Axis unit destroyed (GG-IV.A.2)" in text  # said under the Allies' lines, before the Axis's
    assert text.index("    0  no Axis unit destroyed (GG-IV.A.2)") < text.index(f"Axis GVP: {scored['axis_total']}")
    assert text[-2] == "    0  no Allied unit destroyed (GG-IV.B.5)"
    # an Axis unit on a source: it is scored, no longer said as missed
    axis_unit = next(u for u in game.units_of(Side.AXIS) if game.unit(u).hex is not None)
    game.unit(axis_unit).hex = sources[0]
    assert f"Allied supply source {sources[0]} not taken: 2 GVP (GG-IV.B.3)" not in vp.missed(game)["axis"]
    assert lines(vp.score(game), "axis")[f"Allied supply source {sources[0]} taken"] == 2


@pytest.mark.rule("GG-IV.A.3")
def test_without_the_gazala_position_its_3_and_tobruks_2_are_said_missed(gazala: Scenario) -> None:
    game = Game(gazala)
    line = game.scenario.map.zones["gazala-line"]
    for uid in game.units_of(Side.ALLIED):  # every Allied unit off the Gazala line's boxes
        at = game.unit(uid).hex
        if at is not None and at in line:
            game.unit(uid).eliminated, game.unit(uid).hex = True, None
    assert "no Gazala position held in supply: 3 GVP, and 2 more with a supply line into Tobruk (GG-IV.A.3)" in vp.missed(game)["allied"]
    assert not any(text.startswith("Gazala position held") for text in lines(vp.score(game), "allied"))


@pytest.mark.rule("GG-IV.A.3")
def test_the_position_held_without_a_line_into_tobruk_says_its_2_missed(gazala: Scenario) -> None:
    game = Game(gazala)
    game.unit("2SA").hex = H("F17")  # Tobruk taken (its box eliminated): no supply line into it
    game.vars.boxes_eliminated = ("C13",)
    allied = lines(vp.score(game), "allied")
    assert any(text.startswith("Gazala position held in supply") for text in allied)
    assert "supply line into Tobruk from the east edge" not in allied
    assert "no supply line into Tobruk from the east edge: 2 GVP (GG-IV.A.3)" in vp.missed(game)["allied"]


@pytest.mark.rule("GG-IV.A.1")
def test_after_a_sudden_victory_nothing_is_said_missed(gazala: Scenario) -> None:
    game = Game(gazala)
    gazala_vars(game).result = vp.score(game, sudden="A5")
    assert vp.missed(game) == {"allied": [], "axis": []}
