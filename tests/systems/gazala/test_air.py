"""Air power in The Gazala Gallop (GG-X, VIII.A.1, VIII.B.1, XV.A.5), with forced dice."""

from __future__ import annotations

import pytest

from tests.conftest import jump_to, make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Airstrike, EndPhase, Intercept, Move, NoIntercept
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala import air as air
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala.actions import Airlift
from tobruk.systems.gazala.state import Interdiction, gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED
LW = (
    '[[unit]]\nid = "LW"\nname = "Luftwaffe"\nside = "axis"\nnationality = "german"\necheLon = "division"\n'
    'type = "air"\nfactors = "0-0-0"\noff_map = true\n'
).replace("echeLon", "echelon")
DAF = (
    '[[unit]]\nid = "DAF"\nname = "Desert Air Force"\nside = "allied"\nnationality = "british"\n'
    'echelon = "division"\ntype = "air"\nfactors = "0-0-0"\noff_map = true\n'
)

# The 2016 air table typed in from the charts: die 1..6 by target column.
AIR = {
    "allied-box": ["4thAA/Flak", "-", "-", "-", "D", "D"],
    "allied": ["4thAA", "-", "D", "D", "D", "D"],
    "axis": ["AAg", "Flak", "-", "D", "D", "D"],
    "british-air": ["AA", "-", "Int", "Int", "EAX", "EAX"],
    "german-air": ["AA", "AA", "-", "Int", "Int", "EAX"],
}


def game_at(units: str, phase: str, dice: list[int], extra: str = "", rows: int = 3, columns: int = 8) -> Game:
    game = Game(make_scenario(units + LW + DAF, rows=rows, columns=columns, map_extra=extra), dice=ForcedDice(dice))
    for uid, d in family_defs(game).items():
        if d.side is ALLIED:
            family_unit(game, uid).activated = True
    return jump_to(game, phase)


def test_the_chart_data_is_the_2016_air_table() -> None:
    from tobruk.engine.system import system_for
    from tobruk.systems.gazala import GazalaGallop

    system = system_for("gazala-gallop")
    assert isinstance(system, GazalaGallop)
    charts = system.charts
    for column, results in AIR.items():
        assert [charts.air_result(die, column) for die in range(1, 7)] == results


@pytest.mark.rule("GG-X.C")
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize(("target", "column"), [("allied-box", "allied-box"), ("allied", "allied"), ("axis", "axis")])
def test_every_ground_attack_cell(die: int, target: str, column: str) -> None:
    box = '[map.fortifications]\nallied = ["B4"]\n' if target == "allied-box" else ""
    if target == "axis":
        units = unit_toml("Ital", "axis", "B4", type_="infantry", factors="2-3-2")  # not German, no AA unit there
        game = game_at(units, "allied-airstrike", [die], box)
        game.play(Airstrike(H("B4")))  # the Luftwaffe is available to intercept: decline
        game.play(NoIntercept())
        victim, flyer = "Ital", "DAF"
    else:
        units = unit_toml("Tommy", "allied", "B4", type_="infantry", factors="2-3-2")
        game = game_at(units, "axis-airstrike", [die], box)
        game.play(Airstrike(H("B4")))
        game.play(NoIntercept())
        victim, flyer = "Tommy", "LW"
    code = AIR[column][die - 1]
    if code in ("4thAA/Flak", "4thAA", "Flak", "AAg"):
        code = "-"  # no AA unit in the hex, no German division attacked
    assert family_unit(game, victim).disrupted == (code == "D")
    assert gazala_vars(game).interdiction == Interdiction(flyer, "B4", "allied" if target == "axis" else "axis")


@pytest.mark.rule("GG-X.C")
@pytest.mark.rule("GG-X.B.1b")
def test_aa_results_knock_the_attacker_out_for_this_turn_and_the_next() -> None:
    # an Axis stack with the Flak Gruppe: die 2 on the Axis column is "Flak": AA
    units = unit_toml("Flak", "axis", "B4", echelon="subdivisional", type_="aa", factors="3-3-3", extra='aa = "anywhere"') + unit_toml(
        "Pz", "axis", "B4", type_="armour", factors="6-5-4"
    )
    game = game_at(units, "allied-airstrike", [2])
    game.play(Airstrike(H("B4")))
    game.play(NoIntercept())
    assert air.record(game, "DAF")[1] == 2
    assert gazala_vars(game).interdiction is None
    assert not family_unit(game, "Pz").disrupted  # the mission ended at the AA result
    # "AAg": a German division level unit shoots back on a 1
    units = (
        '[[unit]]\nid = "15Pz"\nname = "15Pz"\nside = "axis"\nnationality = "german"\necheLon = "division"\n'
        'type = "armour"\nfactors = "7-6-4"\nhex = "B4"\naa = "anywhere"\n'.replace("echeLon", "echelon")
    )
    game = game_at(units, "allied-airstrike", [1])
    game.play(Airstrike(H("B4")))
    game.play(NoIntercept())
    assert air.record(game, "DAF")[1] == 2
    assert air.aa_capable(game, "15Pz")


@pytest.mark.rule("GG-X.B.1")
def test_units_are_attacked_one_by_one_aa_units_first() -> None:
    units = unit_toml("Pz", "axis", "B4", type_="armour", factors="6-5-4") + unit_toml(
        "Flak", "axis", "B4", echelon="subdivisional", type_="aa", factors="3-3-3"
    )
    game = game_at(units, "allied-airstrike", [5, 6])
    assert air.attack_order(game, H("B4"), ALLIED) == ["Flak", "Pz"]
    game.play(Airstrike(H("B4")))
    game.play(NoIntercept())
    assert [r.purpose for r in game.dice.log] == ["DAF attacks Flak", "DAF attacks Pz"]
    assert family_unit(game, "Flak").disrupted and family_unit(game, "Pz").disrupted
    # disrupted units are not attacked
    game = game_at(units, "allied-airstrike", [5])
    family_unit(game, "Flak").disrupted = True
    game.play(Airstrike(H("B4")))
    game.play(NoIntercept())
    assert [r.purpose for r in game.dice.log] == ["DAF attacks Pz"]


@pytest.mark.rule("GG-X.C")
@pytest.mark.parametrize("with_aa", [True, False])
def test_the_strike_s_die_reads_the_4th_aa_code_by_whether_an_aa_unit_is_in_the_hex(with_aa: bool) -> None:
    """The chance node of the Luftwaffe's strike on B4: each face as the Allied column gives it, the 4th AA code (face
    1) an AA result only where an AA unit stands in the hex (GG-X.C)."""
    units = unit_toml("Tommy", "allied", "B4", type_="infantry")
    if with_aa:
        units += unit_toml("AA4", "allied", "B4", type_="aa", factors="2-2-3", extra='aa = "anywhere"')
    game = game_at(units, "axis-airstrike", [])
    node = air.GroundAttack("axis", "LW", "B4", ("Tommy",))
    read = {"4thAA": "AA" if with_aa else "-"}
    assert [o.label for o in node.chances(game, "Tommy")] == [read.get(code, code) for code in AIR["allied"]]


@pytest.mark.rule("GG-X.B.1a")
def test_air_disruption_brings_no_retreat() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-airstrike", [6])
    game.play(Airstrike(H("B4")))
    game.play(NoIntercept())
    assert family_unit(game, "Tommy").disrupted and family_unit(game, "Tommy").hex == H("B4")
    assert game.decision is not None and game.decision.side is AXIS and game.decision.phase == "axis-movement"


@pytest.mark.rule("GG-X.B.1")
def test_interdiction_of_units_moving_through_the_hex() -> None:
    units = unit_toml("Tommy", "allied", "C4", type_="infantry") + unit_toml("Kiwi", "allied", "A1", type_="armour")
    game = game_at(units, "axis-airstrike", [2, 5])  # the strike on Tommy: 2 ("-"); then Kiwi interdicted: 5 (D)
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    interdiction = gazala_vars(game).interdiction
    assert interdiction is not None and interdiction.hex == "C4"
    while game.phase.key != "allied-movement":
        game.play(EndPhase())
    game.play(Move("Kiwi", (H("A1"), H("B1"), H("C2"), H("C3"))))  # C3 is not the interdicted hex
    assert not family_unit(game, "Kiwi").disrupted
    game = game_at(units, "axis-airstrike", [2, 5])
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    family_unit(game, "Tommy").hex = None  # out of the way: Kiwi goes through its hex
    while game.phase.key != "allied-movement":
        game.play(EndPhase())
    game.play(Move("Kiwi", (H("A1"), H("B1"), H("B2"), H("C3"), H("C4"), H("C5"))))
    assert family_unit(game, "Kiwi").disrupted and family_unit(game, "Kiwi").hex == H("C4")  # stopped where it was caught
    assert [r.purpose for r in game.dice.log] == ["LW attacks Tommy", "LW interdicts Kiwi in C4"]
    assert game.state.log[-1] == "Allied: Kiwi moves A1-B1-B2-C3-C4; disrupted by air interdiction in C4, stops."
    # a "-" (die 2): it goes on through the hex, attacked once
    game = game_at(units, "axis-airstrike", [2, 2])
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    family_unit(game, "Tommy").hex = None
    while game.phase.key != "allied-movement":
        game.play(EndPhase())
    game.play(Move("Kiwi", (H("A1"), H("B1"), H("B2"), H("C3"), H("C4"), H("C5"))))
    assert family_unit(game, "Kiwi").hex == H("C5") and not family_unit(game, "Kiwi").disrupted
    assert [r.purpose for r in game.dice.log] == ["LW attacks Tommy", "LW interdicts Kiwi in C4"]
    assert game.state.log[-1] == "Allied: Kiwi moves A1-B1-B2-C3-C4-C5."


@pytest.mark.rule("GG-X.B.1")
@pytest.mark.rule("GG-XIII.D")
def test_a_crusader_stopped_by_interdiction_after_1_mf_rolls_no_breakdown() -> None:
    """The breakdown die is rolled for a Crusader unit that used 2 MF or more (GG-XIII.D): stopped by the interdiction
    in the first hex it entered, it used 1, whatever it meant to use."""
    crusader = unit_toml("Kiwi", "allied", "C3", type_="armour", extra='flags = ["crusader"]')
    game = game_at(unit_toml("Tommy", "allied", "C4", type_="infantry") + crusader, "axis-airstrike", [2, 5])
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    family_unit(game, "Tommy").hex = None
    while game.phase.key != "allied-movement":
        game.play(EndPhase())
    game.play(Move("Kiwi", (H("C3"), H("C4"), H("C5"), H("C6"))))  # 3 MF meant, 1 used
    assert family_unit(game, "Kiwi").hex == H("C4") and family_unit(game, "Kiwi").disrupted
    assert [r.purpose for r in game.dice.log] == ["LW attacks Tommy", "LW interdicts Kiwi in C4"]


@pytest.mark.rule("GG-X.B.3")
@pytest.mark.parametrize(("die", "result"), [(1, "AA"), (2, "AA"), (3, "-"), (4, "Int"), (5, "Int"), (6, "EAX")])
def test_interception_of_the_luftwaffe(die: int, result: str) -> None:
    # the DAF intercepts the Luftwaffe's strike: roll on the German air unit's column
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-airstrike", [die, 6])
    game.play(Airstrike(H("B4")))
    assert game.decision is not None and game.decision.side is ALLIED
    game.play(Intercept())
    lw, daf = air.record(game, "LW"), air.record(game, "DAF")
    assert daf[0] == 1
    assert (lw[1] == 2) == (result == "EAX")
    assert (daf[1] == 2) == (result == "AA")
    attacked = result in ("AA", "-")  # the mission goes on
    assert family_unit(game, "Tommy").disrupted == attacked
    assert (gazala_vars(game).interdiction is not None) == attacked


@pytest.mark.rule("GG-X.B.3")
@pytest.mark.parametrize(("die", "result"), [(1, "AA"), (2, "-"), (3, "Int"), (4, "Int"), (5, "EAX"), (6, "EAX")])
def test_interception_of_the_desert_air_force(die: int, result: str) -> None:
    game = game_at(unit_toml("Ital", "axis", "B4", type_="infantry"), "allied-airstrike", [die, 6])
    game.play(Airstrike(H("B4")))
    game.play(Intercept())
    assert (air.record(game, "DAF")[1] == 2) == (result == "EAX")
    assert (air.record(game, "LW")[1] == 2) == (result == "AA")
    assert family_unit(game, "Ital").disrupted == (result in ("AA", "-"))


@pytest.mark.rule("GG-X.A")
def test_once_per_game_turn_and_off_the_map() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry") + unit_toml("Ital", "axis", "B2"), "axis-airstrike", [3, 3])
    assert family_unit(game, "LW").hex is None and family_unit(game, "DAF").hex is None
    game.play(Airstrike(H("B4")))
    game.play(Intercept())  # the DAF flies now ...
    while game.phase.key != "allied-movement":
        game.play(EndPhase())
    game.play(EndPhase())
    assert game.phase.key != "allied-airstrike"  # ... so it has no airstrike of its own this turn
    assert "flown already" in str(air.why_unavailable(game, ALLIED))


@pytest.mark.rule("GG-X.C")
def test_knocked_out_through_the_next_turn() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-airstrike", [1, 3])
    game.play(Airstrike(H("B4")))
    game.play(Intercept())  # die 1 on the German column: AA, the DAF is knocked out (the strike goes on)
    assert air.record(game, "DAF")[1] == 2
    game.state.turn = 2
    assert "knocked out" in str(air.why_unavailable(game, ALLIED))
    game.state.turn = 3
    assert air.why_unavailable(game, ALLIED) is None


@pytest.mark.rule("GG-VIII.A.1")
def test_no_air_in_a_sandstorm_and_no_repair() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-airstrike", [])
    game.vars.weather = "sandstorm"
    assert "[GG-VIII.A.1]" in str(air.why_unavailable(game, AXIS))
    assert game.step.decision(game) is None  # the airstrike phase has nothing to decide
    gazala_vars(game).air = gazala_vars(game).air | {"DAF": (0, 2)}
    game.state.turn = 2
    air.weather_turn(game)
    assert air.record(game, "DAF")[1] == 3


@pytest.mark.rule("GG-VIII.B.1")
def test_rain_a_fifty_percent_roll_per_player_turn() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-movement", [3, 4])
    game.vars.weather = "rainstorm"
    air.start_of_player_turn(game)
    game.advance()  # (the two dice are chance nodes, drawn when the game goes on)
    assert gazala_vars(game).air_ok == {"axis": False, "allied": True}
    assert "waterlogged" in str(air.why_unavailable(game, AXIS))
    assert air.available(game, ALLIED)


@pytest.mark.rule("GG-X.B.2")
@pytest.mark.rule("GG-XV.A.5")
def test_aerial_resupply_of_an_isolated_axis_stack() -> None:
    # Cut stands 10 hexes from the only Axis source, with no road: out of supply
    units = unit_toml("Cut", "axis", "B11", type_="armour") + unit_toml("Tommy", "allied", "A1", type_="infantry")
    game = game_at(units, "axis-attacks", [], '[map.supply]\naxis = ["C1"]\n', columns=12)
    family_unit(game, "Cut").disrupted = True
    game.play(EndPhase())  # on to the Axis supply determination
    assert game.phase.key == "axis-recovery"
    assert Airlift(H("B11")) in game.legal_orders()
    game.play(Airlift(H("B11")))
    game.play(NoIntercept())
    assert sp.status(game, AXIS)["Cut"]["how"] == "aerial resupply"
    game.play(EndPhase())  # no convoy either
    assert not family_unit(game, "Cut").out_of_supply and not family_unit(game, "Cut").disrupted


@pytest.mark.rule("GG-X.B.2")
@pytest.mark.rule("GG-X.B.3")
@pytest.mark.parametrize(("die", "supplied"), [(3, True), (1, True), (4, False), (6, False)])
def test_an_intercepted_airlift_still_supplies_unless_turned_back_or_shot_down(die: int, supplied: bool) -> None:
    # the DAF goes up against the Luftwaffe's airlift, German air column: 3 "-", 1 AA (the DAF knocked out): the
    # airlift goes on; 4 Int, 6 EAX: it does not
    units = unit_toml("Cut", "axis", "B11", type_="armour") + unit_toml("Tommy", "allied", "A1", type_="infantry")
    game = game_at(units, "axis-attacks", [die], '[map.supply]\naxis = ["C1"]\n', columns=12)
    game.play(EndPhase())
    game.play(Airlift(H("B11")))
    game.play(Intercept())
    assert (sp.status(game, AXIS)["Cut"]["how"] == "aerial resupply") is supplied
    assert ("LW supplies the Axis units in B11." in game.state.log) is supplied


@pytest.mark.rule("GG-X.B.3")
@pytest.mark.parametrize(("die", "ends", "knocked_out"), [(6, True, "LW"), (4, True, None), (3, False, None), (1, False, "DAF")])
def test_an_interdiction_ends_when_its_air_unit_is_knocked_out(die: int, ends: bool, knocked_out: str | None) -> None:
    # the Luftwaffe stays over C4 after its strike (die 2 on the Allied column: "-"); at the start of the Allied
    # player-turn the DAF goes up against it. German air column: 6 EAX (the Luftwaffe knocked out, the interdiction
    # over), 4 Int (the interdiction over), 3 "-" (it stays), 1 AA (the DAF knocked out, the interdiction stays)
    game = game_at(unit_toml("Tommy", "allied", "C4", type_="infantry"), "axis-airstrike", [2, die])
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    while game.phase.key != "allied-interception":
        game.play(EndPhase())
    game.play(Intercept())
    assert (gazala_vars(game).interdiction is None) == ends
    assert {u for u in ("LW", "DAF") if air.record(game, u)[1] == 2} == ({knocked_out} - {None})


@pytest.mark.rule("GG-X.B.1")
def test_interdiction_spares_disrupted_units_and_ends_on_an_aa_result() -> None:
    # the Luftwaffe over C4 (die 2 on Tommy: "-"); Kiwi, disrupted, goes through C4 untouched (only undisrupted
    # units are attacked)
    units = unit_toml("Tommy", "allied", "D4", type_="infantry") + unit_toml("Kiwi", "allied", "C3", type_="armour")
    game = game_at(units, "axis-airstrike", [2], rows=5)
    family_unit(game, "Tommy").hex = H("C4")
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    family_unit(game, "Tommy").hex = H("D4")
    family_unit(game, "Kiwi").disrupted = True
    while game.phase.key != "allied-movement":
        game.play(EndPhase())
    game.play(Move("Kiwi", (H("C3"), H("C4"), H("C5"))))
    assert family_unit(game, "Kiwi").hex == H("C5") and len(game.dice.log) == 1
    # the 4th AA Brigade goes through: die 1 on the Allied column is "4thAA", an AA result with the brigade there:
    # the Luftwaffe is knocked out, the interdiction ends and the brigade moves on
    aa = unit_toml("AA4", "allied", "C3", type_="aa", factors="2-2-3", extra='aa = "anywhere"')
    game = game_at(unit_toml("Tommy", "allied", "C4", type_="infantry") + aa, "axis-airstrike", [2, 1], rows=5)
    game.play(Airstrike(H("C4")))
    game.play(NoIntercept())
    family_unit(game, "Tommy").hex = H("D4")
    while game.phase.key != "allied-movement":
        game.play(EndPhase())
    game.play(Move("AA4", (H("C3"), H("C4"), H("C5"))))
    assert family_unit(game, "AA4").hex == H("C5") and not family_unit(game, "AA4").disrupted
    assert gazala_vars(game).interdiction is None and air.record(game, "LW")[1] == 2
