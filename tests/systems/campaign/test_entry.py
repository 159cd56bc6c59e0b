"""Reinforcements and replacements through the game (CA-R.1-5 at CA-Q.1-2 step 1): one unit of the owner's choice a
player-turn, entering on its side's coastal-road edge hex, refused with the clause that keeps it out."""

from __future__ import annotations

import pytest

from tobruk.engine.errors import IllegalOrderError, InvalidOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.systems.campaign import live
from tobruk.systems.campaign import start_of_turn as st
from tobruk.systems.campaign.actions import TANKS, Enter
from tobruk.systems.campaign.state import campaign_vars
from tobruk.systems.campaign.terrain import enterable

from .kit import H, arrange, lines_since, new_game, past_set_up, to_step, unit

EAST_SHEET_ALLIED_ENTRY = "O53"  # Gazala's section (the centre sheet): the east end of its coastal road


def entries(game: Game) -> list[str]:
    """The entries listed now (the step lists the fortifications to build besides, CA-F.1)."""
    return [a for a in game.legal_notation() if a.startswith("enter ")]


def refused(game: Game, order: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


def eliminate(game: Game, *ids: str) -> None:
    for uid in ids:
        c = unit(game, uid)
        c.hex = None
        c.eliminated = True


@pytest.mark.rule("CA-R.1")
@pytest.mark.rule("CA-R.4")
def test_gazalas_1st_armoured_brigade_enters_when_due_and_not_before() -> None:
    game = to_step(new_game("na-gazala"), "allied-reinforcements")  # II May 42; the track has it from II Jun 42
    assert entries(game) == []
    assert refused(game, "enter 1ArmBde O53 Grant").clause == "CA-R.1"
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # I Jun 42: still not due
    assert game.scenario.turn_name(game.turn) == "I Jun 42"
    assert refused(game, "enter 1ArmBde O53 Grant").clause == "CA-R.1"
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # II Jun 42
    # an armour brigade with any tank type the track has introduced by then (Sherman only from II Sep 42), "in east":
    # on any hex of the section's east column (the scenario's zone), north to south
    types = ("A13", "Matilda", "Crusader-I", "Stuart", "Valentine", "Grant")
    east = sorted((h for h in game.scenario.map.hexes if h.label.endswith("53") and h.label[:-2].isalpha()), key=lambda h: h.row)
    east = [h for h in east if enterable(game.scenario.map, h)]
    assert EAST_SHEET_ALLIED_ENTRY in [h.label for h in east]
    assert entries(game) == [f"enter 1ArmBde {h} {t}" for h in east for t in types]
    assert refused(game, "enter 1ArmBde O53 Sherman").clause == "CA-R.4"
    e = refused(game, "enter 1ArmBde O52 Grant")  # not in the zone
    assert e.clause == "CA-SC.5" and "its zone 'sheet-east-edge'" in e.reason
    n = len(game.state.entries)
    game.play("enter 1ArmBde O53 Grant")
    c = unit(game, "1ArmBde")
    assert c.hex is not None and c.hex.label == EAST_SHEET_ALLIED_ENTRY and not c.disrupted
    assert "Allied: 1ArmBde enters at O53 as the player-turn's reinforcement with Grants (CA-R.4)." in lines_since(game, n)
    assert entries(game) == []  # one a player-turn
    assert live.position(game).unit("1ArmBde").unit.tank == "Grant"
    game.pop()  # undone: back off the map
    assert unit(game, "1ArmBde").hex is None and campaign_vars(game).waiting == {"1ArmBde": "II Jun 42"}


@pytest.mark.rule("CA-R.4")
def test_one_reinforcement_or_replacement_a_player_turn() -> None:
    game = new_game("na-gazala")
    eliminate(game, "50Div", "5IndDiv")  # British and Indian: replaceable (CA-R.2)
    to_step(game, "allied-reinforcements")
    assert entries(game) == ["enter 50Div O53", "enter 5IndDiv O53"]
    game.play("enter 5IndDiv O53")
    assert game.step.key == "allied-reinforcements"
    assert entries(game) == []
    e = refused(game, "enter 50Div O53")
    assert e.clause == "CA-R.4" and "one reinforcement or replacement a player-turn" in e.reason
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # the next player-turn: one more
    assert entries(game) == ["enter 50Div O53"]


@pytest.mark.rule("CA-R.2")
def test_an_eliminated_south_african_division_never_comes_back() -> None:
    game = new_game("na-gazala")
    eliminate(game, "1SADiv")
    to_step(game, "allied-reinforcements")
    assert refused(game, "enter 1SADiv O53").clause == "CA-R.2"


@pytest.mark.rule("CA-R.4")
@pytest.mark.parametrize(
    ("name", "turns", "when", "allowed"),
    [("na-alam-halfa", 2, "I Oct 42", True), ("na-alamein", 0, "II Oct 42", False), ("na-alamein", 1, "I Nov 42", False)],
)
def test_the_axis_last_replacement_is_on_i_oct_42(name: str, turns: int, when: str, allowed: bool) -> None:
    game = past_set_up(new_game(name))
    assert game.step.key == "axis-reinforcements"  # asked: a fort may be built
    eliminate(game, "90Lt")
    for _ in range(turns):
        to_step(game, "axis-early-attacks")
        game.play("end-phase")
        to_step(game, "axis-reinforcements")
    assert game.scenario.turn_name(game.turn) == when
    entry = st.entry_hex(game, Side.AXIS)
    order = f"enter 90Lt {game.scenario.map.hexes[entry]}"
    if allowed:
        game.play(order)
        assert unit(game, "90Lt").hex == game.scenario.map.hexes[entry]
    else:
        e = refused(game, order)
        assert e.clause == "CA-R.4" and "II Oct 42" in e.reason


@pytest.mark.rule("CA-R.3")
@pytest.mark.rule("CA-R.5")
@pytest.mark.parametrize(("to", "within"), [("V70", True), ("W71", True), ("V69", False), ("W70", False)])
def test_an_axis_move_within_5_hexes_of_el_alamein_activates_the_alamein_level(to: str, within: bool) -> None:
    game = arrange(new_game("na-mersa-matruh"), {"21Pz": "V67", "1SADiv": "V79"})
    assert not campaign_vars(game).alamein
    to_step(game, "axis-movement")
    n = len(game.state.entries)
    game.play(f"move 21Pz {to}")  # 5 hexes from V75 (El Alamein), or 6
    assert campaign_vars(game).alamein is within
    assert any("Allied Alamein Force Level" in line for line in lines_since(game, n)) is within
    game.play("end-phase")
    assert campaign_vars(game).alamein is within  # for the rest of the game


# ---------------------------------------------------------------- entries by the scenario's zone (CA-SC, CA-R.4)

AXIS_FROM_WEST = ("15Pz", "21Pz", "90Lt", "RecceGp", "Ariete", "Trieste", "XXICorps")  # 1st Alamein, "entering from west"


def alamein_at_allied_entry() -> Game:
    """1st Alamein at the Allied step 1 of II Jul 42: the Allies kept their listed hexes, the Axis came in on the
    section's west column, north to south."""
    game = new_game("na-1st-alamein")
    game.play("end-phase")  # the Allied set-up: every unit on its listed hex
    m = game.scenario.map
    west = sorted((h for h in m.hexes if h.label.endswith("53") and h.label[:-2].isalpha() and enterable(m, h)), key=lambda h: h.row)
    for uid, h in zip(AXIS_FROM_WEST, west, strict=False):
        game.play(f"place {uid} {h}")
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # I Jul 42: nothing due; the next player-turn
    game.play("end-phase")
    to_step(game, "allied-reinforcements")
    assert game.scenario.turn_name(game.turn) == "II Jul 42"
    return game


def east_edge(game: Game) -> list[str]:
    """The east edge's hexes a unit may stand on: the map's own edge zone, its impassable hexes apart."""
    m = game.scenario.map
    return [h.label for h in sorted(m.zones["east-edge"], key=lambda h: (h.row, h.col)) if enterable(m, h)]


@pytest.mark.rule("CA-SC.7")
@pytest.mark.rule("CA-R.4")
def test_1st_alameins_2nd_armoured_brigade_enters_on_any_hex_of_the_east_edge_and_nowhere_else() -> None:
    game = alamein_at_allied_entry()
    edge = east_edge(game)
    assert "V79" in edge and "U80" in edge and len(edge) > 2  # the coastal road's end and the hexes beside it
    offered = {a.split()[2] for a in entries(game) if a.startswith("enter 2ArmBde ")}
    assert offered == set(edge)
    for label in edge:  # each hex of the zone takes it
        n = len(game.state.entries)
        game.play(f"enter 2ArmBde {label} Crusader-I")
        c = unit(game, "2ArmBde")
        assert c.hex is not None and c.hex.label == label and not c.disrupted
        said = f"Allied: 2ArmBde enters at {label} as the player-turn's reinforcement with Crusader Is (CA-R.4)."
        assert lines_since(game, n)[-1] == said
        game.pop()
    for label in ("V78", "U79", "X75"):  # beside the edge, one hex in, the front
        e = refused(game, f"enter 2ArmBde {label} Crusader-I")
        assert e.clause == "CA-SC.7" and "its zone 'allied-entry'" in e.reason


@pytest.mark.rule("CA-R.4")
@pytest.mark.rule("CA-SC.7")
def test_a_replacement_enters_on_the_coastal_road_edge_hex_even_where_the_scenario_has_an_entry_zone() -> None:
    game = alamein_at_allied_entry()
    eliminate(game, "5IndDiv")  # Indian: replaceable (CA-R.2)
    assert [a for a in entries(game) if a.startswith("enter 5IndDiv ")] == ["enter 5IndDiv V79"]  # the road's end
    e = refused(game, "enter 5IndDiv U80")  # on the east edge, off the road
    assert e.clause == "CA-R.4" and "coastal road at V79" in e.reason
    game.play("enter 2ArmBde U80 Crusader-I")  # its listing's zone, while it has not been in play
    game.play("end-phase")
    to_step(game, "allied-reinforcements")
    assert game.scenario.turn_name(game.turn) == "I Aug 42"
    eliminate(game, "2ArmBde")  # back as a replacement: the coastal road, as any other (CA-R.4)
    assert {a.split()[2] for a in entries(game) if a.startswith("enter 2ArmBde ")} == {"V79"}
    assert refused(game, "enter 2ArmBde U80 Crusader-I").clause == "CA-R.4"
    assert st.entry_hexes(game, Side.ALLIED, "2ArmBde") == (st.entry_hex(game, Side.ALLIED),)


@pytest.mark.rule("CA-R.4")
@pytest.mark.rule("CA-R.1")
@pytest.mark.rule("CA-SC.1")
def test_the_campaign_games_turn_track_arrivals_enter_on_the_axis_coastal_road_edge_hex() -> None:
    game = new_game("na-campaign")
    m = game.scenario.map
    road_end = m.hexes[st.entry_hex(game, Side.AXIS)]
    assert road_end.label == "AA1"  # the coastal road at the west edge (docs/rulings.md, CA-R.4)
    game.play("end-phase")  # the Allied set-up
    # the starting forces of II Mar 41 are El Agheila I's, "entering on western mapboard edge" (CA-SC.1)
    west = {h.label for h in m.zones["west-edge"] if enterable(m, h)}
    assert game.step.key == "axis-set-up" and "AA1" in west and len(west) > 1
    assert {o.split()[2] for o in game.legal_notation() if o.startswith("place 5PzRgt ")} == west
    for uid, label in (("5PzRgt", "AA1"), ("RecceGp", "AA1"), ("15MotBde", "AB1"), ("Ariete", "AB1"), ("XXICorps", "AC1")):
        game.play(f"place {uid} {label}")
    game.play("end-phase")
    while not (game.scenario.turn_name(game.turn) == "I May 41" and game.step.key == "axis-reinforcements"):
        game.play("end-phase")
    # the track's arrivals of I May 41 come in on the coastal road's west end, and nowhere else on the edge
    assert entries(game) == ["enter 15Pz AA1", "enter 8PzRgt AA1"]
    e = refused(game, "enter 15Pz AB1")
    assert e.clause == "CA-R.4" and "its zone 'axis-entry'" in e.reason
    game.play("enter 15Pz AA1")
    assert unit(game, "15Pz").hex == road_end


@pytest.mark.rule("CA-SC.3")
def test_el_agheila_iiis_allies_come_in_at_agedabia_or_on_the_sections_east_edge() -> None:
    game = new_game("na-el-agheila-3")  # the Axis moves first: the Allied starting forces are set up first
    m = game.scenario.map
    agedabia = {h.label for h in m.zones["agedabia"]}
    column_27 = {h.label for h in m.hexes if h.label.endswith("27") and h.label[:-2].isalpha() and enterable(m, h)}
    assert agedabia == {"W12"} and "W27" in column_27
    assert game.step.key == "allied-set-up"
    assert {o.split()[2] for o in game.legal_notation() if o.startswith("place 51Div ")} == agedabia | column_27
    assert refused(game, "place 51Div W26").clause == "CA-SC.3"  # one hex in from the edge
    assert refused(game, "place 51Div W13").clause == "CA-SC.3"  # beside Agedabia
    for uid, label in (("51Div", "W12"), ("NZDiv", "W27"), ("4LtArmBde", "W12"), ("22ArmBde", "X27"), ("1ArmSpt", "W12")):
        game.play(f"place {uid} {label}")
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # I Dec 42: the 8th Armoured Brigade is not due
    assert entries(game) == []
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # II Dec 42
    offered = {a.split()[2] for a in entries(game) if a.startswith("enter 8ArmBde ")}
    assert offered == column_27  # Agedabia holds three units already, the most a hex may (CA-K.1)
    assert refused(game, "enter 8ArmBde W12 Sherman").clause == "CA-K.1"
    assert refused(game, "enter 8ArmBde W26 Sherman").clause == "CA-SC.3"
    game.play("enter 8ArmBde Y27 Sherman")
    assert unit(game, "8ArmBde").hex == H("Y27")


@pytest.mark.rule("CA-R.4")
def test_a_side_brings_in_only_its_own_units() -> None:
    game = new_game("na-gazala")
    eliminate(game, "90Lt")  # an Axis unit off the map
    to_step(game, "allied-reinforcements")
    e = refused(game, "enter 90Lt O53")
    assert (e.clause, e.reason) == ("CA-R.4", "'90Lt' is not one of your units")
    assert unit(game, "90Lt").hex is None


@pytest.mark.rule("CA-R.4")
@pytest.mark.rule("CA-T.5")
def test_an_armour_brigade_names_its_tank_type_and_an_infantry_division_names_none() -> None:
    game = new_game("na-gazala")
    eliminate(game, "50Div")
    to_step(game, "allied-reinforcements")
    game.play("end-phase")
    to_step(game, "allied-reinforcements")
    game.play("end-phase")
    to_step(game, "allied-reinforcements")  # II Jun 42: the 1st Armoured Brigade is due (CA-R.1)
    e = refused(game, "enter 1ArmBde O53")
    assert (e.clause, e.reason) == ("CA-R.4", "1ArmBde names the tank type it enters with")
    e = refused(game, "enter 50Div O53 Grant")
    assert (e.clause, e.reason) == ("CA-R.4", "50Div enters with its own equipment, naming no tank type")
    n = len(game.state.entries)
    game.play("enter 50Div O53")
    # a replacement, said without a tank type; it enters with no tanks, and the anti-tank gun of the date
    assert lines_since(game, n) == ["Allied: 50Div enters at O53 as the player-turn's replacement (CA-R.4)."]
    assert live.position(game).unit("50Div").unit.tank is None


@pytest.mark.rule("CA-R.4")
def test_the_step_offers_entries_to_a_side_with_a_counter_of_its_own_off_the_map() -> None:
    game = past_set_up(new_game("na-gazala"))  # only the Allied 1st Armoured Brigade waits off the map
    assert st.offered(game, Side.ALLIED)
    assert not st.offered(game, Side.AXIS)  # the Allied counter waiting is not the Axis'
    eliminate(game, "Trieste")
    assert st.offered(game, Side.AXIS)  # an eliminated unit, with nothing waiting, is offered (CA-R.2)


def test_an_entry_order_in_the_wrong_form_or_with_an_unknown_tank_type_says_so() -> None:
    with pytest.raises(InvalidOrderError) as e:
        Enter.parse(["1ArmBde"], "enter 1ArmBde")
    assert str(e.value) == "'enter 1ArmBde': the form is enter UNIT HEX [TANK-TYPE]"
    with pytest.raises(InvalidOrderError) as e:
        Enter.parse(["1ArmBde", "O53", "Tiger"], "enter 1ArmBde O53 Tiger")
    types = ", ".join(t.replace(" ", "-") for t in TANKS)
    assert str(e.value) == f"'enter 1ArmBde O53 Tiger': 'Tiger' is not a tank type (the types: {types})"
