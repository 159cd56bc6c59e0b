"""The scenario's set-up before its first player-turn (CA-SC.1-9): the owner moves a unit that has a set-up zone to
any hex of the zone it may stand on, or leaves it on its listed hex; the starting forces enter on their zone's hexes.

Expected hexes come from the scenario files and the rules' words: 1st Alamein's Allies set up on its section
(columns 53-80) "not on westernmost mapboard edge hexes", so column 53 is out and 54 in; CA-K.1 allows two
division-level units a hex; a face-down Tobruk counter tells the Axis nothing of itself (CA-F.4)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.datafile import packaged_path
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import EndPhase, Place
from tobruk.systems.campaign import setup as su
from tobruk.systems.campaign.state import campaign_vars
from tobruk.systems.campaign.terrain import enterable
from tobruk.view import view

from .kit import SYSTEM, H, lines_since, new_game, scenario, unit

ALLIED_1ST_ALAMEIN = ("1SADiv", "5IndDiv", "NZDiv", "1ArmBde", "4LtArmBde", "1ArmSpt", "7ArmSpt")  # the listing's
AXIS_1ST_ALAMEIN = ("15Pz", "21Pz", "90Lt", "RecceGp", "Ariete", "Trieste", "XXICorps")  # "entering from west"


def refused(game: Game, order: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


def places(game: Game, uid: str) -> set[str]:
    return {o.hex.label for o in game.legal_orders() if isinstance(o, Place) and o.unit == uid}


@pytest.mark.rule("CA-SC.7")
def test_1st_alamein_allies_set_up_off_the_sections_westernmost_column() -> None:
    game = new_game("na-1st-alamein")
    d = game.decision
    assert d is not None and d.side is Side.ALLIED and d.phase == "allied-set-up"  # the Axis moves first
    m = game.scenario.map
    assert all(enterable(m, H(h)) for h in ("X53", "X54", "O53", "O54"))
    offered = places(game, "NZDiv")
    assert "X54" in offered and "O54" in offered and "X53" not in offered and "O53" not in offered
    assert all(int("".join(c for c in h if c.isdigit())) >= 54 for h in offered)
    e = refused(game, "place NZDiv X53")
    assert e.clause == "CA-SC.7" and "X53 is outside NZDiv's set-up zone 'allied-setup'" in e.reason
    n = len(game.state.entries)
    order = Place("NZDiv", H("X54"))
    space, ids = game.action_space, game.legal_id_list()
    assert space.id_of(order) in ids and space.id_of(Place("NZDiv", H("X53"))) not in ids
    assert game.play_id(space.id_of(order)) == order  # through the engine's integer ids
    assert unit(game, "NZDiv").hex == H("X54")
    assert lines_since(game, n) == ["Allied: NZDiv is set up at X54 from X73 (CA-SC.7)."]
    assert unit(game, "NZDiv").disrupted  # set up, not moved: it keeps the listing's Disrupted


@pytest.mark.rule("CA-SC.7")
@pytest.mark.rule("CA-F.8")
def test_the_qattara_floor_and_the_sand_sea_are_not_offered() -> None:
    game = new_game("na-1st-alamein")
    m = game.scenario.map
    floor = sorted(h for h in game.scenario.zone("allied-setup") if not enterable(m, h))
    assert floor  # the section's south reaches the depression
    assert not {h.label for h in floor} & places(game, "5IndDiv")
    assert refused(game, f"place 5IndDiv {floor[0]}").clause == "CA-F.8"


@pytest.mark.rule("CA-SC.7")
def test_1st_alamein_allies_start_one_to_a_hex() -> None:
    game = new_game("na-1st-alamein")
    taken = {h.label for h in (unit(game, u).hex for u in ALLIED_1ST_ALAMEIN) if h is not None}
    assert len(taken) == len(ALLIED_1ST_ALAMEIN)
    assert not taken & places(game, "1ArmBde")
    e = refused(game, "place 1ArmBde Y75")  # 4th Light Armoured Brigade's hex
    assert e.clause == "CA-SC.7" and "one to a hex" in e.reason
    game.play("place 4LtArmBde Y76")  # the hex freed, it may be taken
    game.play("place 1ArmBde Y75")
    assert unit(game, "1ArmBde").hex == H("Y75")


@pytest.mark.rule("CA-K.1")
@pytest.mark.rule("CA-SC.5")
def test_the_set_up_keeps_to_the_stacking_limits() -> None:
    game = new_game("na-gazala")
    hq = unit(game, "50Div").hex
    assert hq == H("L35") and [u for u in game.unit_ids if unit(game, u).hex == hq] == ["50Div"]
    game.play("place 1SADiv L35")  # two divisions: the limit (CA-K.1)
    assert "L35" not in places(game, "5IndDiv")
    e = refused(game, "place 5IndDiv L35")
    assert e.clause == "CA-K.1" and "3 division-level units" in e.reason
    game.play("place GdsBde L35")  # a brigade is the third unit
    assert refused(game, "place 1FFBde L35").clause == "CA-K.1"  # a fourth is not


@pytest.mark.rule("CA-SC.5")
def test_a_unit_is_set_up_once_and_not_onto_the_enemy_nor_out_of_its_zone() -> None:
    game = new_game("na-gazala")
    game.play("place GdsBde L37")
    assert places(game, "GdsBde") == set()
    e = refused(game, "place GdsBde L36")
    assert e.clause == "CA-SC.5" and "set up already" in e.reason
    game.pop()  # undone: it may go elsewhere
    assert unit(game, "GdsBde").hex == H("L36") and "L37" in places(game, "GdsBde")
    assert refused(game, "place XCorps L37").clause == "CA-SC.5"  # not the Allied player's unit
    assert refused(game, "place GdsBde I32").clause == "CA-SC.5"  # the Axis set-up zone
    unit(game, "Trieste").hex = H("L37")  # an Axis unit inside the Allied zone (put there by hand)
    game.advance()
    assert "L37" not in places(game, "GdsBde")
    assert refused(game, "place GdsBde L37").clause == "CA-M.1"


@pytest.mark.rule("CA-SC.5")
@pytest.mark.rule("CA-SC.4")
def test_the_side_moving_first_sets_up_second() -> None:
    game = new_game("na-gazala")  # the Axis moves first
    assert game.step.key == "allied-set-up"
    game.play(EndPhase())
    assert game.step.key == "axis-set-up" and game.decision is not None and game.decision.side is Side.AXIS
    game.play(EndPhase())
    assert game.step.key == "axis-reinforcements"
    crusader = new_game("na-crusader")  # "begins with Allied player-turn"
    assert crusader.step.key == "axis-set-up"
    crusader.play(EndPhase())
    assert crusader.step.key == "allied-set-up"
    crusader.play(EndPhase())
    assert crusader.step.key == "allied-reinforcements"


@pytest.mark.rule("CA-SC.5")
def test_end_phase_keeps_every_unit_on_its_listed_hex() -> None:
    game = new_game("na-gazala")
    game.play("place GdsBde L37")
    game.play(EndPhase())
    game.play(EndPhase())
    sc = game.scenario
    riding = {p for parts in campaign_vars(game).combined.values() for p in parts}  # in their division (CA-U.1)
    for uid in sc.setup_zone:
        want = None if uid in riding else H("L37") if uid == "GdsBde" else sc.start[uid]
        assert unit(game, uid).hex == want, uid


@pytest.mark.rule("CA-SC.7")
@pytest.mark.rule("CA-R.1")
def test_1st_alamein_axis_enters_on_the_west_edge_of_the_section_before_its_first_turn() -> None:
    game = new_game("na-1st-alamein")
    game.play(EndPhase())  # the Allies keep their listed hexes
    d = game.decision
    assert d is not None and d.side is Side.AXIS and d.phase == "axis-set-up"
    m = game.scenario.map
    column_53 = {h.label for h in m.hexes if h.label.endswith("53") and h.label[:-2].isalpha() and enterable(m, h)}
    assert column_53 and all(unit(game, u).hex is None for u in AXIS_1ST_ALAMEIN)
    assert places(game, "90Lt") == column_53
    assert EndPhase() not in game.legal_orders()
    e = refused(game, "end-phase")
    assert e.clause == "CA-SC.7" and "15Pz starts on the map: set it up on a hex of 'sheet-west-edge' first" in e.reason
    assert refused(game, "place 90Lt X54").clause == "CA-SC.7"
    rows = sorted(column_53, key=lambda h: (len(h), h))
    for uid, label in zip(AXIS_1ST_ALAMEIN, rows, strict=False):
        game.play(f"place {uid} {label}")
    assert all(unit(game, u).hex is not None for u in AXIS_1ST_ALAMEIN)
    assert unit(game, "8PzRgt").hex is None  # carried by 15. Panzer (XX+)
    game.play(EndPhase())
    assert game.step.key == "axis-reinforcements"
    assert campaign_vars(game).waiting == {"2ArmBde": "II Jul 42", "AusDiv": "I Aug 42"}  # not the starting forces


# ---------------------------------------------------------------- the face-down garrison (CA-F.4)


def twins() -> tuple[Game, Game]:
    """Two Gazala games that differ only in which face-down counter stands where: the dummy and 2 SA Division swap."""
    sc = scenario("na-gazala")
    start = dict(sc.start)
    start["2SADiv"], start["TobrukDummy"] = start["TobrukDummy"], start["2SADiv"]
    return new_game("na-gazala", seed=3), Game(replace(sc, start=start), seed=3, system=SYSTEM)


def axis_reads(game: Game) -> tuple[object, ...]:
    d = game.decision
    orders = [o.notation() for o in game.legal_orders()] if d is not None and d.side is Side.AXIS else []
    ids = game.legal_id_list() if orders else []
    return view(game, Side.AXIS), game.log_for(Side.AXIS), orders, ids


def at(game: Game, label: str) -> str:
    return next(u for u in game.unit_ids if unit(game, u).hex == H(label))


@pytest.mark.rule("CA-F.4")
def test_the_axis_learns_nothing_from_the_set_up_inside_the_perimeter() -> None:
    a, b = twins()
    assert (at(a, "K39"), at(b, "K39")) == ("TobrukDummy", "2SADiv")
    assert axis_reads(a) == axis_reads(b)
    for g in (a, b):  # the counter in K39 goes to J38, inside the perimeter
        g.play(f"place {at(g, 'K39')} J38")
    assert unit(a, "TobrukDummy").hidden and unit(b, "2SADiv").hidden
    assert axis_reads(a) == axis_reads(b)
    assert a.log_for(Side.AXIS)[-1] == "Allied: a face-down unit is set up at J38 from K39 (CA-SC.5)."
    assert a.log_for(Side.ALLIED)[-1] == "Allied: TobrukDummy is set up at J38 from K39 (CA-SC.5)."
    for g in (a, b):
        g.play(EndPhase())
    assert axis_reads(a) == axis_reads(b)  # the Axis set-up: its orders and their ids the same
    assert str(refused(a, "place 90Lt J38")) == str(refused(b, "place 90Lt J38"))  # and its refusals
    seen = [u for u in view(a, Side.AXIS)["units"] if u.get("hidden")]
    assert sorted(u["hex"] for u in seen) == ["J38", "J39"]


@pytest.mark.rule("CA-F.4")
def test_a_face_down_unit_set_up_outside_the_perimeter_turns_face_up_and_the_dummy_may_not_leave() -> None:
    game = new_game("na-gazala")
    assert unit(game, "2SADiv").hidden and unit(game, "TobrukDummy").hidden
    assert places(game, "TobrukDummy") <= {"J38", "J39", "K39", "K40"}  # its zone is the perimeter
    assert refused(game, "place TobrukDummy L37").clause == "CA-SC.5"
    game.play("place 2SADiv L37")
    assert not unit(game, "2SADiv").hidden
    assert "The face-down counter in J39 is revealed (set up outside the perimeter): 2SADiv." in game.log_for(Side.AXIS)
    game.play("place 5IndDiv K40")  # a face-up unit set up inside goes face down when the Allies are done
    assert not unit(game, "5IndDiv").hidden
    game.play(EndPhase())
    assert unit(game, "5IndDiv").hidden and unit(game, "TobrukDummy").hidden
    assert su.zones(game, Side.ALLIED)["TobrukDummy"] == "inside Tobruk perimeter"


@pytest.mark.rule("CA-SC.7")
def test_a_unit_with_a_set_up_zone_and_no_listed_hex_is_set_up_before_the_end(tmp_path: Path) -> None:
    text = (packaged_path("scenarios", "na-1st-alamein") or Path()).read_text(encoding="utf-8")
    nz = 'unit = "NZDiv"\nhex = "X73"\nsetup_zone = "allied-setup"'
    assert text.count(nz) == 1
    # a user's zone of two depression hexes and one of open desert: the NZ Division may stand only on the last
    path = tmp_path / "user.toml"
    path.write_text(text.replace(nz, 'unit = "NZDiv"\nsetup_zone = "floor"') + '\n[zones.floor]\nhexes = ["AC72", "AC73", "AB73"]\n')
    game = Game(load_scenario(path), system=SYSTEM)
    assert unit(game, "NZDiv").hex is None and places(game, "NZDiv") == {"AB73"}
    assert EndPhase() not in game.legal_orders()
    assert refused(game, "end-phase").clause == "CA-SC.7"
    game.play("place NZDiv AB73")
    game.play(EndPhase())
    assert game.step.key == "axis-set-up"


@pytest.mark.rule("CA-SC.7")
@pytest.mark.rule("CA-R.4")
def test_starting_forces_a_zone_has_no_room_for_wait_off_the_map_and_the_set_up_ends(tmp_path: Path) -> None:
    text = (packaged_path("scenarios", "na-1st-alamein") or Path()).read_text(encoding="utf-8")
    arrival = 'arrives = { turn = "I Jul 42", zone = "sheet-west-edge" }'
    assert text.count(arrival) == len(AXIS_1ST_ALAMEIN)
    path = tmp_path / "user.toml"  # a user's zone of one hex for the seven Axis units
    path.write_text(text.replace(arrival, arrival.replace("sheet-west-edge", "one-hex")) + '\n[zones.one-hex]\nhexes = ["X53"]\n')
    game = Game(load_scenario(path), system=SYSTEM)
    game.play(EndPhase())
    assert places(game, "90Lt") == {"X53"} and EndPhase() not in game.legal_orders()
    for uid in ("90Lt", "Ariete", "RecceGp"):  # three units, two of them divisions: X53 is full (CA-K.1)
        game.play(f"place {uid} X53")
    assert [o.notation() for o in game.legal_orders()] == ["end-phase"]
    n = len(game.state.entries)
    game.play(EndPhase())
    late = ("15Pz", "21Pz", "Trieste", "XXICorps")
    assert campaign_vars(game).waiting == {**{u: "" for u in late}, "2ArmBde": "II Jul 42", "AusDiv": "I Aug 42"}
    said = [line for line in lines_since(game, n) if "finds no room" in line]
    assert said == [f"Axis: {u} finds no room in its zone and waits off the map to enter as a reinforcement (CA-R.4)." for u in late]
    assert game.step.key == "axis-reinforcements"
    e = refused(game, "enter Trieste X53")  # still full
    assert e.clause == "CA-K.1"


@pytest.mark.rule("CA-F.4")
def test_the_dummy_is_set_up_only_within_the_perimeter_whatever_its_zone(tmp_path: Path) -> None:
    text = (packaged_path("scenarios", "na-gazala") or Path()).read_text(encoding="utf-8")
    dummy = 'unit = "TobrukDummy"\nhex = "K39"\nsetup_zone = "inside Tobruk perimeter"'
    assert text.count(dummy) == 1
    path = tmp_path / "user.toml"  # a user's file gives the dummy the whole Allied set-up zone
    path.write_text(text.replace(dummy, dummy.replace('"inside Tobruk perimeter"', '"allied-setup"')))
    game = Game(load_scenario(path), system=SYSTEM)
    assert game.scenario.setup_zone["TobrukDummy"] == "allied-setup"
    assert places(game, "TobrukDummy") <= {"J38", "J39", "K39", "K40"} and "J38" in places(game, "TobrukDummy")
    e = refused(game, "place TobrukDummy L37")
    assert e.clause == "CA-F.4" and "within the perimeter" in e.reason
    assert unit(game, "TobrukDummy").hex == H("K39") and unit(game, "TobrukDummy").hidden


# ---------------------------------------------------------------- fortifications the listing gives in a zone


def builds(game: Game) -> set[str]:
    return {a.split()[1] for a in game.legal_notation() if a.startswith("build ")}


@pytest.mark.rule("CA-SC.8")
@pytest.mark.rule("CA-F.1")
def test_alam_halfas_three_axis_forts_are_set_up_in_the_axis_zone() -> None:
    game = new_game("na-alam-halfa")
    assert builds(game) == set()  # the Allied boxes stand on their named hexes from the start
    assert campaign_vars(game).forts["V75"] == "allied"  # El Alamein
    game.play(EndPhase())
    assert game.step.key == "axis-set-up"
    sites = builds(game)
    zone = {h.label for h in game.scenario.zone("axis-setup") if enterable(game.scenario.map, h)}
    axis_held = {h.label for h in (unit(game, u).hex for u in game.units_of(Side.AXIS)) if h is not None}
    assert sites == zone and axis_held <= sites  # a fort may go where Axis units stand
    assert "V75" not in sites and refused(game, "build V75").clause == "CA-SC.8"  # the Allied zone
    n = len(game.state.entries)
    for label in ("U73", "W73", "X73"):  # "3 forts"
        game.play(f"build {label}")
    assert lines_since(game, n) == [f"Axis: a fort is set up at {h} (CA-SC.8)." for h in ("U73", "W73", "X73")]
    assert builds(game) == set()
    e = refused(game, "build Y73")
    assert e.clause == "CA-SC.8" and "no fort of the scenario is left" in e.reason
    game.play(EndPhase())
    assert game.step.key == "axis-reinforcements"
    assert {h for h, s in campaign_vars(game).forts.items() if s == "axis"} == {"U73", "W73", "X73"}


@pytest.mark.rule("CA-SC.4")
@pytest.mark.rule("CA-F.2")
def test_crusaders_two_boxes_one_a_hex_and_the_owner_may_leave_them_unbuilt() -> None:
    game = new_game("na-crusader")
    game.play(EndPhase())  # the Axis set-up (its forts stand on their named hexes)
    assert game.step.key == "allied-set-up" and builds(game)
    site = sorted(builds(game))[0]
    game.play(f"build {site}")
    assert site not in builds(game)
    assert refused(game, f"build {site}").clause == "CA-F.1"  # one marker a hex
    game.play(EndPhase())  # the second box left unbuilt: the owner may remove his own at will (CA-F.2)
    assert [h for h, s in campaign_vars(game).forts.items() if s == "allied"] == [site]


@pytest.mark.rule("CA-K.1")
@pytest.mark.rule("CA-U.1")
def test_a_combined_panzer_division_is_set_up_with_its_regiment_as_one_division() -> None:
    game = new_game("na-gazala")
    game.play(EndPhase())  # the Allies keep their hexes
    assert (unit(game, "15Pz").hex, unit(game, "21Pz").hex) == (H("N33"), H("N34"))
    assert unit(game, "8PzRgt").hex is None and "8PzRgt" not in su.zones(game, Side.AXIS)  # it rides in 15Pz (XX+)
    game.play("place 15Pz N34")  # two divisions, two pure armour units: on the limits
    assert unit(game, "15Pz").hex == H("N34") and unit(game, "8PzRgt").hex is None
    e = refused(game, "place Ariete N34")  # a third division-level unit
    assert e.clause == "CA-K.1" and "3 division-level units (15Pz, 21Pz, Ariete)" in e.reason


@pytest.mark.rule("CA-SC.6")
def test_mersa_matruhs_1st_south_african_division_stays_in_the_alamein_box() -> None:
    game = new_game("na-mersa-matruh")
    assert game.step.key == "allied-set-up"
    el_alamein = unit(game, "1SADiv").hex
    assert el_alamein == H("V75") and campaign_vars(game).forts["V75"] == "allied"
    assert places(game, "1SADiv") == set() and places(game, "50Div")  # the others are free in their zone
    e = refused(game, "place 1SADiv V76")
    assert e.clause == "CA-SC.6" and "no set-up zone" in e.reason


def kinds_since(game: Game, n: int) -> list[tuple[str, str]]:
    return [(e.text, e.kind) for e in game.state.entries[n:]]


@pytest.mark.rule("CA-SC.4")
def test_crusaders_axis_forts_all_stand_on_their_hexes_and_the_allies_set_up_two_boxes_and_no_third() -> None:
    game = new_game("na-crusader")  # the listing: 3 Axis forts on P48, O48, Q47; 2 Allied boxes in the Allied zone
    assert game.step.key == "axis-set-up"
    assert builds(game) == set()  # all 3 forts are on their named hexes: none is left to set up
    assert "K36" in {h.label for h in game.scenario.zone("axis-setup")}
    e = refused(game, "build K36")
    assert (e.clause, e.reason) == ("CA-SC.4", "no fort of the scenario is left to set up on K36")
    game.play(EndPhase())
    assert game.step.key == "allied-set-up"
    first, second, third = sorted(builds(game))[:3]
    assert su.forts_left(game, Side.AXIS) == {} and su.forts_left(game, Side.ALLIED) == {0: 2}  # by listing entry
    n = len(game.state.entries)
    game.play(f"build {first}")
    assert su.forts_left(game, Side.ALLIED) == {0: 1}
    game.play(f"build {second}")
    assert kinds_since(game, n) == [
        (f"Allied: a box is set up at {first} (CA-SC.4).", "move"),
        (f"Allied: a box is set up at {second} (CA-SC.4).", "move"),
    ]
    assert builds(game) == set()
    e = refused(game, f"build {third}")
    assert (e.clause, e.reason) == ("CA-SC.4", f"no box of the scenario is left to set up on {third}")


@pytest.mark.rule("CA-SC.5")
@pytest.mark.rule("CA-F.1")
def test_no_fort_is_set_up_on_a_hex_the_enemy_holds() -> None:
    game = new_game("na-gazala")
    game.play(EndPhase())
    assert game.step.key == "axis-set-up" and "V31" in builds(game)
    unit(game, "50Div").hex = H("V31")  # (an Allied unit in the Axis zone)
    assert "V31" not in builds(game)
    e = refused(game, "build V31")
    assert (e.clause, e.reason) == ("CA-F.1", "V31 holds enemy units")
    assert "V31" not in campaign_vars(game).forts


@pytest.mark.rule("CA-F.11")
def test_no_unit_is_set_up_off_the_map() -> None:
    game = new_game("na-gazala")
    e = su.refusal(game, Side.ALLIED, "50Div", H("ZZ99"))  # (the notation refuses such a hex before the rules see it)
    assert e is not None and (e.clause, e.reason) == ("CA-F.11", "ZZ99 is not on the map")


@pytest.mark.rule("CA-SC.7")
def test_a_unit_set_up_from_off_the_map_is_a_move_from_no_hex() -> None:
    game = new_game("na-1st-alamein")
    game.play(EndPhase())  # the Allies keep their listed hexes
    n = len(game.state.entries)
    game.play("place 90Lt N53")
    assert kinds_since(game, n) == [("Axis: 90Lt is set up at N53 (CA-SC.7).", "move")]


@pytest.mark.rule("CA-F.4")
def test_a_face_down_unit_set_up_is_a_move_each_side_reads_its_own_way() -> None:
    game = new_game("na-gazala")
    assert unit(game, "TobrukDummy").hidden and unit(game, "TobrukDummy").hex == H("K39")
    n = len(game.state.entries)
    game.play("place TobrukDummy J38")
    assert kinds_since(game, n) == [("Allied: TobrukDummy is set up at J38 from K39 (CA-SC.5).", "move")]
    assert game.log_for(Side.AXIS)[-1] == "Allied: a face-down unit is set up at J38 from K39 (CA-SC.5)."
