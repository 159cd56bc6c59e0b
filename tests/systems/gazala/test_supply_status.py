"""How each unit is in supply, as the map overlay and the log tell it (GG-XV.A.1-3, IX.E).

A one-row map unless said; the Axis source is A1 with a track to A5: a unit is in supply up to 7 hexes beyond A5.
"""

from __future__ import annotations

import pytest

from tests.conftest import unit_toml
from tests.systems.gazala.test_supply import SOURCE, game_with, recovery, track
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.position import LogEntry
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala.state import gazala_vars

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
    family_unit(game, "Tired").disrupted = True
    recovery(game)
    game.play(EndPhase())  # no convoy
    assert "Axis supply: 2 units in supply, out of supply: Out; recovered: Tired." in game.state.log
    assert not family_unit(game, "Tired").disrupted and family_unit(game, "Out").out_of_supply and not family_unit(game, "In").out_of_supply
    assert gazala_vars(game).supply["axis"]["Out"]["supplied"] is False


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


@pytest.mark.rule("GG-XV.A.3")
def test_a_german_division_two_hexes_away_supplies_no_brigade() -> None:
    # Div in supply in A12 (7 hexes beyond the track); Bde in A14 is beyond its own line and two hexes from Div:
    # "in the same hex or adjacent" (GG-XV.A.3) it is not, so it is out of supply
    units = GERMAN.format(id="Div", ech="division", hex="A12") + GERMAN.format(id="Bde", ech="subdivisional", hex="A14")
    status = sp.status(game_with(units, SOURCE + track(1, 5), rows=1, columns=20), AXIS)
    assert status["Div"]["supplied"]
    assert status["Bde"] == {"hex": "A14", "supplied": False, "how": "out of supply", "route": []}


# --- the determination's log entry ------------------------------------------------------------------------------
def determination(game: Game, side: Side) -> LogEntry:
    """The log entry of ``side``'s last supply determination."""
    return next(e for e in reversed(game.state.entries) if e.text.startswith(f"{side.display} supply:"))


def axis_determination(game: Game) -> Game:
    """From the Axis attack phase, through the Axis supply determination (sending no convoy if asked)."""
    game.play(EndPhase())
    d = game.decision
    if d is not None and d.phase == "axis-recovery":
        game.play(EndPhase())
    return game


@pytest.mark.rule("GG-IX.E")
def test_two_units_recovered_are_both_named() -> None:
    units = unit_toml("In", "axis", "A6") + unit_toml("Tired", "axis", "A7") + unit_toml("Worn", "axis", "A8")
    game = game_with(units, SOURCE + track(1, 5), rows=1, columns=20, phase="axis-attacks")
    family_unit(game, "Tired").disrupted = family_unit(game, "Worn").disrupted = True
    axis_determination(game)
    assert determination(game, AXIS).text == "Axis supply: 3 units in supply; recovered: Tired, Worn."


@pytest.mark.rule("GG-XV.A.2")
def test_the_entry_is_about_supply_when_a_unit_is_out_of_it() -> None:
    # the log entry's kind: "supply" when some unit is out of supply (a matter for the game log form), else a note
    for far, kind in (("A12", "note"), ("A13", "supply")):  # A12 is 7 hexes beyond the track, A13 8
        units = unit_toml("In", "axis", "A6") + unit_toml("Far", "axis", far)
        game = axis_determination(game_with(units, SOURCE + track(1, 5), rows=1, columns=20, phase="axis-attacks"))
        assert determination(game, AXIS).kind == kind


ALLIED_SOURCE = '[map.supply]\naxis = ["A20"]\nallied = ["C20"]\n' + track(15, 20, "C")  # Allied lines reach C8


@pytest.mark.rule("GG-V.B.1")
@pytest.mark.rule("GG-XV.A.2")
def test_face_down_units_out_of_supply_do_not_make_the_entry_about_supply() -> None:
    """The kind of entry the enemy reads is judged on the face-up units only: that a face-down counter is out of
    supply (or that a dummy, never in need, is there) must not show (GG-V.B.1)."""
    for up, down, kind in (("C10", "C2", "note"), ("C2", "C10", "supply")):
        units = unit_toml("Up", "allied", up) + unit_toml("Down", "allied", down)
        game = game_with(units, ALLIED_SOURCE, rows=3, columns=20, phase="allied-attacks")
        family_unit(game, "Down").hidden = True
        while game.phase.key != "allied-recovery":
            game.play(EndPhase())
        game.play(EndPhase())  # a side with face-down counters is asked about convoys; it sends none
        assert determination(game, ALLIED).kind == kind


# --- answers kept per position: each side's, and with a unit counted gone --------------------------------------
# One row: the Axis source A1 with a track to A5, the Allied source A20 with a track A15-A20, each line 7 MF beyond.
# Pz (Axis) in A8, Post (Allied) in A9 beside it, Tommy (Allied) in A12.  The Axis line: A6, A7, A8 (its own unit),
# then A9 holds an enemy: A1-A8.  The Allied line: A14 ... A10, then A9, in Pz's ZOC but held by Post (a line goes
# through friendly-occupied hexes, GG-XV.A.2), then A8 holds an enemy: A9-A20.  Counting Post gone (the supply a
# retreating unit finds, ruling R-RETREAT-SUPPLY), A9 is an empty hex in Pz's undisrupted ZOC: A10-A20.
TWO_SOURCES = '[map.supply]\naxis = ["A1"]\nallied = ["A20"]\n' + track(1, 5) + track(15, 20)


def hexes(first: int, last: int) -> frozenset[Hex]:
    return frozenset(Hex.parse(f"A{c}") for c in range(first, last + 1))


@pytest.mark.rule("GG-XV.A.2")
@pytest.mark.rule("GG-XIV.D.2")
def test_each_side_and_each_unit_counted_gone_gets_its_own_answer_in_one_position() -> None:
    units = unit_toml("Pz", "axis", "A8") + unit_toml("Post", "allied", "A9") + unit_toml("Tommy", "allied", "A12")
    for first in (AXIS, ALLIED):  # asked in either order, in the same position
        game = game_with(units, TWO_SOURCES, rows=1, columns=20)
        second = first.enemy
        expected = {AXIS: hexes(1, 8), ALLIED: hexes(9, 20)}
        assert sp.serviced(game, first) == expected[first]
        assert sp.serviced(game, second) == expected[second]
        assert sp.serviced(game, ALLIED, frozenset({"Post"})) == hexes(10, 20)
        assert sp.serviced(game, ALLIED) == hexes(9, 20)
        assert set(sp.status(game, first)) == set(game.units_of(first))
        assert set(sp.status(game, second)) == set(game.units_of(second))
        assert sp.status(game, ALLIED)["Tommy"]["how"] == "line from A20"
