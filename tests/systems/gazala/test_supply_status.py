"""How each unit is in supply, as the map overlay and the log tell it (GG-XV.A.1-3, IX.E).

A one-row map unless said; the Axis source is A1 with a track to A5: a unit is in supply up to 7 hexes beyond A5.
"""

from __future__ import annotations

import pytest

from tests.conftest import unit_toml
from tests.systems.gazala.test_supply import SOURCE, game_with, recovery, track
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.gazala import supply as sp

AXIS, ALLIED = Side.AXIS, Side.ALLIED
GERMAN = (
    '[[unit]]\nid = "{id}"\nname = "{id}"\nside = "axis"\nnationality = "german"\necheLon = "{ech}"\n'
    'type = "armour"\nfactors = "4-3-4"\nhex = "{hex}"\n'
).replace("echeLon", "echelon")


@pytest.mark.rule("GG-XV.A.2")
@pytest.mark.rule("GG-XV.A.3")
def test_how_each_unit_is_in_supply() -> None:
    units = (
        GERMAN.format(id="Div", ech="division", hex="A12")
        + GERMAN.format(id="Bde", ech="subdivisional", hex="A13")
        + unit_toml("Lost", "axis", "A18")
    )
    status = sp.status(game_with(units, SOURCE + track(1, 5), rows=1, columns=20), AXIS)
    assert status["Div"] == {
        "hex": "A12",
        "supplied": True,
        "how": "line from A1",
        "route": ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12"],
    }
    assert status["Bde"] == {"hex": "A13", "supplied": True, "how": "through Div", "route": ["A13", "A12"]}
    assert status["Lost"] == {"hex": "A18", "supplied": False, "how": "out of supply", "route": []}


@pytest.mark.rule("GG-XV.A.1")
def test_a_box_supplies_its_units_whatever_the_lines() -> None:
    units = unit_toml("Boxed", "allied", "A9", type_="infantry")
    game = game_with(units, SOURCE + track(1, 5) + '[map.fortifications]\nallied = ["A9"]\n', rows=1, columns=20)
    assert sp.status(game, ALLIED)["Boxed"] == {"hex": "A9", "supplied": True, "how": "in a box", "route": []}


@pytest.mark.rule("GG-XV.A.1")
def test_tobruk_cut_off_says_why_a_unit_is_out() -> None:
    wall = "".join(unit_toml(f"W{r}", "axis", f"{r}8", type_="infantry", factors="1-1-2") for r in "ABC")
    allied = "".join(
        unit_toml(f"U{i}", "allied", f"{'AB'[i % 2]}{1 + i // 2}", echelon="subdivisional", type_="infantry", factors="1-1-2")
        for i in range(9)
    )
    game = game_with(wall + allied, '[map.supply]\naxis = ["C14"]\nallied = ["A1", "C16"]\n', rows=3)
    status = sp.status(game, ALLIED)
    assert status["U8"] == {"hex": "A5", "supplied": False, "how": "Tobruk, cut off from the east, supplies 7 units at most", "route": []}
    assert status["U0"]["how"] == "line from A1"


@pytest.mark.rule("GG-IX.E")
def test_the_determination_is_logged() -> None:
    units = unit_toml("In", "axis", "A6") + unit_toml("Out", "axis", "A15") + unit_toml("Tired", "axis", "A7")
    game = game_with(units, SOURCE + track(1, 5), rows=1, columns=20, phase="axis-attacks")
    game.unit("Tired").disrupted = True
    recovery(game)
    game.play(EndPhase())  # no convoy
    assert "Axis supply: 2 units in supply, out of supply: Out; recovered: Tired." in game.state.log
    assert not game.unit("Tired").disrupted and game.unit("Out").out_of_supply and not game.unit("In").out_of_supply
    assert game.vars.supply["axis"]["Out"]["supplied"] is False


@pytest.mark.rule("GG-XV.A.3")
def test_only_german_brigades_draw_supply_from_a_german_division() -> None:
    # Div in supply in A12 (7 hexes beyond the track); beside it in B12 or A13, out of their own lines: a German
    # brigade is helped; an Italian brigade and a German division are not (GG-XV.A.3 names German brigades only)
    div = GERMAN.format(id="Div", ech="division", hex="A12")
    cases = (
        (GERMAN.format(id="X", ech="subdivisional", hex="B12"), True),
        (GERMAN.format(id="X", ech="division", hex="A13"), False),
        (unit_toml("X", "axis", "B12", echelon="subdivisional", type_="infantry", factors="1-1-2"), False),
    )
    for unit, helped in cases:
        status = sp.status(game_with(div + unit, SOURCE + track(1, 5), rows=3, columns=20), AXIS)
        assert status["Div"]["supplied"] and status["X"]["supplied"] == helped
        assert status["X"]["how"] == ("through Div" if helped else "out of supply")


@pytest.mark.rule("GG-XV.A.4")
def test_a_convoy_to_a_face_up_unit_is_seen_by_both_sides() -> None:
    from tests.systems.gazala.test_supply_convoys import at_axis_recovery
    from tobruk.systems.gazala.actions import Convoy

    game = at_axis_recovery(GERMAN.format(id="Pz", ech="division", hex="A15"), [4])
    game.play(Convoy("Pz"))
    line = "Axis: truck convoy to Pz, line 11 MF (rolled 4): in supply."
    assert line in game.log_for(ALLIED) and line in game.log_for(AXIS)
    assert [r.value for r in game.rolls_for(ALLIED)] == [4]


@pytest.mark.rule("GG-XV.A.1")
def test_tobruks_seven_are_the_nearest_with_ties_in_order_of_battle() -> None:
    # the wall in column 8 cuts the fortress A1 off from C16; eight units draw on it: two in A1 (0 MF), one in each
    # of A2-A5 (1-4 MF), and Zed then Abe (in that order of battle) in A6 (5 MF): the eighth, left out, is Abe
    wall = "".join(unit_toml(f"W{r}", "axis", f"{r}8", type_="infantry", factors="1-1-2") for r in "ABC")
    near = "".join(
        unit_toml(f"U{i}", "allied", h, echelon="subdivisional", type_="infantry", factors="1-1-2")
        for i, h in enumerate(["A1", "A1", "A2", "A3", "A4", "A5"])
    )
    last = "".join(unit_toml(u, "allied", "A6", echelon="subdivisional", type_="infantry", factors="1-1-2") for u in ("Zed", "Abe"))
    game = game_with(wall + near + last, '[map.supply]\naxis = ["C14"]\nallied = ["A1", "C16"]\n', rows=3)
    status = sp.status(game, ALLIED)
    assert {u for u, e in status.items() if not e["supplied"]} == {"Abe"}
