"""The Gazala Gallop's objectives (GG-IV) as the faces mark them, and the warning when the enemy could reach one.

An Allied unit on A5 or G1 at the Allied victory determination wins at once (GG-IV.A.1): the Axis must keep the
Allies off them, and is warned when an Allied unit could drive onto one in its next move.  Distances below are
worked out from GG-XIII: off road a hex costs 1 MF, a move entering no enemy ZOC has 1 MF more (GG-XIII.C), a
motorized unit has 3 MF, infantry 2, and infantry on a truck convoy moves at the motorized rate with 3 MF
(GG-XIII.A.2c).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.conftest import jump_to, make_scenario, unit_toml
from tests.systems.gazala.test_fog import twins
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.objectives import threats
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Reinforcement, Scenario
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED
SUDDEN_A6 = '\n[rules]\nallied_sudden_victory = ["A6"]\n'
SUDDEN_A7 = '\n[rules]\nallied_sudden_victory = ["A7"]\n'


def scenario_objectives(gazala: Scenario) -> dict[str, set[tuple[str, str]]]:
    game = Game(gazala, seed=1)
    out: dict[str, set[tuple[str, str]]] = {}
    for o in game.system.objectives(gazala):
        out.setdefault(o.clause, set()).add((o.hex.label, o.defender.value))
    return out


@pytest.mark.rule("GG-IV.A.1")
def test_the_sudden_victory_hexes_are_the_axiss_to_guard(gazala: Scenario) -> None:
    assert scenario_objectives(gazala)["GG-IV.A.1"] == {("A5", "axis"), ("G1", "axis")}  # the rule names A5 and G1


@pytest.mark.rule("GG-IV.B.1")
def test_tobruk_the_dump_and_the_east_edge_sources_are_the_allies_to_hold(gazala: Scenario) -> None:
    found = scenario_objectives(gazala)
    tobruk = {p.name: h for h in gazala.map.hexes for p in gazala.map.places_in(h)}["Tobruk"]
    assert found["GG-IV.B.1-2"] == {(tobruk.label, "allied")}
    east = {h for h in gazala.map.supply_sources[ALLIED] if h in gazala.map.edge("east")}
    assert found["GG-IV.B.3"] == {(h.label, "allied") for h in east} and len(east) == 3
    assert found["GG-IV.B.4"] == {(h.label, "allied") for h in gazala.map.zones["supply-dump"]}
    boxes = {(h.label, "allied") for h in gazala.map.zones["gazala-line"] if gazala.map.fortifications.get(h) is ALLIED}
    assert found["GG-IV.A.3"] == boxes and boxes


def movement_game(units: str, *, rows: int) -> Game:
    """A game on a small map whose sudden victory hex is A6, at the Axis movement phase of turn 1 (the Allies move next)."""
    return jump_to(Game(make_scenario(units, rows=rows, columns=12, tail=SUDDEN_A6), seed=0), "axis-movement")


def warned(game: Game, side: Side) -> dict[str, tuple[str, ...]]:
    return {t.objective.hex.label: t.units for t in threats(game, side)}


@pytest.mark.rule("GG-IV.A.1")
def test_a_motorized_unit_four_hexes_from_a_sudden_victory_hex_threatens_it_five_do_not() -> None:
    near = movement_game(unit_toml("Mot", "allied", "A2", type_="motorized", factors="2-3-3"), rows=1)
    assert warned(near, AXIS) == {"A6": ("Mot",)}  # A2 to A6: 4 hexes, 3 MF and the bonus
    far = movement_game(unit_toml("Mot", "allied", "A1", type_="motorized", factors="2-3-3"), rows=1)
    assert warned(far, AXIS) == {}  # 5 hexes
    assert warned(near, ALLIED) == {}  # the Allies have nothing to guard here


@pytest.mark.rule("GG-XIII.C")
def test_an_armoured_unit_threatens_on_its_own_movement_never_a_convoy_s() -> None:
    # 4 MF and the bonus: from A1, a sudden victory hex in A6 (5 hexes) is threatened, one in A7 (6 hexes) is not; a
    # truck convoy's 3 MF (GG-XIII.A.2c, infantry only) would carry it but 4 hexes
    near = movement_game(unit_toml("Arm", "allied", "A1", type_="armour", factors="4-3-4"), rows=1)
    assert warned(near, AXIS) == {"A6": ("Arm",)}
    far = jump_to(
        Game(make_scenario(unit_toml("Arm", "allied", "A1", type_="armour", factors="4-3-4"), rows=1, columns=12, tail=SUDDEN_A7), seed=0),
        "axis-movement",
    )
    assert {t.objective.hex.label for t in threats(far, AXIS)} == set()


@pytest.mark.rule("GG-XIII.A.2c")
def test_infantry_threatens_as_far_as_a_truck_convoy_would_carry_it() -> None:
    game = movement_game(unit_toml("Inf", "allied", "A2", type_="infantry", factors="2-3-2"), rows=1)
    assert warned(game, AXIS) == {"A6": ("Inf",)}  # on foot 3 MF (3 hexes), on trucks 4


@pytest.mark.rule("GG-XIII.A.2c")
@pytest.mark.rule("GG-XI.C")
def test_infantry_threatens_as_far_as_it_could_walk_too() -> None:
    """On foot an escarpment costs infantry 1 MF more, on trucks (a vehicle) 2 (GG-XI.C): infantry of 3 MF three hexes
    from A6 with an escarpment to climb on the way walks there (3 hexes + 1 = 4 MF with the bonus) but would not be
    carried there (3 + 2 = 5 MF, a convoy's 3 and the bonus 4)."""
    infantry = unit_toml("Inf", "allied", "A3", type_="infantry", factors="2-3-3")
    climb = '[map.hexsides]\nescarpment = [{ side = "A4|A5", high = "A5" }]\n'
    game = jump_to(Game(make_scenario(infantry, rows=1, columns=12, map_extra=climb, tail=SUDDEN_A6), seed=0), "axis-movement")
    assert warned(game, AXIS) == {"A6": ("Inf",)}


@pytest.mark.rule("GG-XIII.B.1")
def test_an_axis_screen_whose_zoc_stops_the_drive_lifts_the_threat() -> None:
    units = unit_toml("Mot", "allied", "A2", type_="motorized", factors="2-3-3") + unit_toml("Pz", "axis", "B4")
    game = movement_game(units, rows=2)  # the Panzer's ZOC covers A4 and A5: the Allied unit stops there
    assert warned(game, AXIS) == {}


def test_the_warning_names_no_face_down_counter_and_is_the_same_whoever_it_is(gazala: Scenario) -> None:
    """A face-down counter in B5, next to A5, is a dummy in one game and a brigade in the other: the Axis is warned
    the same in both, counting the counter as whatever could move furthest."""
    dummy = ["place Dummy1 B5", "place Dummy2 E6"]
    unit = ["place 1ATB B5", "place Dummy1 G8", "place Dummy2 E6"]
    a, b = twins(gazala, dummy, unit)
    assert [t.data() for t in threats(a, AXIS)] == [t.data() for t in threats(b, AXIS)]
    a5 = next(t for t in threats(a, AXIS) if t.objective.hex == H("A5"))
    assert a5.unseen >= 1 and all(not a.unit(u).hidden for u in a5.units)


@pytest.mark.rule("GG-XIV.B.6")
def test_a_face_down_counter_counts_as_free_to_move_whether_or_not_it_was_activated() -> None:
    """Two face-down motorized Allied counters (3 MF and the bonus) in A2 (4 hexes from A6) and A1 (5): exactly the
    one in A2 is counted, as free to move.  A counter turned face down after it was activated (the Siege of Tobruk)
    looks like any other, so the warning never counts a face-down counter as one that must first be activated."""
    mot = unit_toml("Mot1", "allied", "A2", type_="motorized", factors="2-3-3")
    game = movement_game(mot + unit_toml("Mot2", "allied", "A1", type_="motorized", factors="2-3-3"), rows=1)
    family_unit(game, "Mot2").activated = True
    for uid in ("Mot1", "Mot2"):
        family_unit(game, uid).hidden = True
    game.forget_caches()
    (a6,) = threats(game, AXIS)
    assert (a6.units, a6.unseen, a6.conditional) == ((), 1, ())
    assert a6.describe() == "A6 (Allied sudden victory hex, GG-IV.A.1) could be reached by a face-down counter"


@pytest.mark.rule("GG-V.B.2")
@pytest.mark.rule("GG-V.A.4")
def test_in_the_nonhistorical_game_the_allies_activate_freely_so_no_condition_is_named() -> None:
    """An inactive motorized unit 4 hexes from A6: in the historical game it could come only if activated, by one of
    the 2 activations of a turn (GG-V.A.4); in the nonhistorical game the Allies may activate any unit at any time
    (GG-V.B.2), so it is named as free to move."""
    game = movement_game(unit_toml("Mot", "allied", "A2", type_="motorized", factors="2-3-3"), rows=1)
    (a6,) = threats(game, AXIS)
    assert [(c.condition.clause, c.condition.most, c.units) for c in a6.conditional] == [("GG-V.A.4", 2, ("Mot",))]
    gazala_vars(game).nonhistorical = True
    game.forget_caches()
    (a6,) = threats(game, AXIS)
    assert (a6.units, a6.conditional) == (("Mot",), ())
    assert a6.describe() == "A6 (Allied sudden victory hex, GG-IV.A.1) could be reached by Mot"


@pytest.mark.rule("GG-XI.A.5")
def test_a_box_already_eliminated_is_no_longer_warned_of(gazala: Scenario) -> None:
    game = Game(gazala, seed=1)
    before = {t.objective.hex.label for t in threats(game, ALLIED)}
    assert "D5" in before  # the Axis's printed positions lie within a move of the D5 box
    gazala_vars(game).boxes_eliminated = ("D5",)
    game.forget_caches()
    assert {t.objective.hex.label for t in threats(game, ALLIED)} == before - {"D5"}


# --- the Allied reinforcement (GG-VII.B): it enters in the Allied movement phase and may move in it (R-REINF) --------
def arriving_game(entry: str, turn: int, phase: str = "axis-movement") -> Game:
    """A motorized Allied brigade (3 MF) the track brings in on ``turn`` on ``entry``, the Allied sudden victory hex A6,
    at ``phase`` of turn 1."""
    units = unit_toml("Arm", "allied", None, type_="motorized", factors="2-3-3", extra=f'arrives = {{ turn = {turn}, zone = "entry" }}')
    tail = SUDDEN_A6 + f'\n[zones.entry]\nhexes = ["{entry}"]\n'
    return jump_to(Game(make_scenario(units, rows=1, columns=12, tail=tail), seed=0), phase)


def arriving(game: Game, side: Side) -> dict[str, list[tuple[str, str]]]:
    return {t.objective.hex.label: [(a.unit, a.when) for a in t.arriving] for t in threats(game, side)}


@pytest.mark.rule("GG-VII.B")
def test_a_reinforcement_due_in_the_coming_allied_movement_threatens_from_its_entry_hex_four_hexes_yes_five_no() -> None:
    """Entering costs nothing of its movement (R-REINF): from A2, A6 is 4 hexes (3 MF and the bonus); from A1, 5."""
    near = arriving_game("A2", 1)
    assert arriving(near, AXIS) == {"A6": [("Arm", "turn 1")]}
    (threat,) = threats(near, AXIS)
    assert threat.units == () and threat.unseen == 0
    assert threat.describe() == "A6 (Allied sudden victory hex, GG-IV.A.1) could be reached by Arm (arriving turn 1)"
    assert threat.data()["arriving"] == [{"unit": "Arm", "when": "turn 1"}]
    assert arriving(arriving_game("A1", 1), AXIS) == {}


@pytest.mark.rule("GG-VII.B")
def test_a_reinforcement_counts_from_the_turn_of_the_allied_movement_to_come() -> None:
    """At the Axis movement of turn 1 the Allies move next in turn 1: a unit due on turn 2 cannot come in yet.  Once
    the Allied movement of turn 1 is over, their next one is turn 2's, and it can."""
    assert arriving(arriving_game("A2", 2), AXIS) == {}
    assert arriving(arriving_game("A2", 2, "allied-recovery"), AXIS) == {"A6": [("Arm", "turn 2")]}
    assert arriving(arriving_game("A2", 3, "allied-recovery"), AXIS) == {}


@pytest.mark.rule("GG-VII.B")
def test_an_entry_hex_an_axis_unit_holds_is_closed_to_the_reinforcement() -> None:
    """It enters only on a hex free of enemy units (R-REINF): with an Axis unit on A2, its only entry, it cannot come."""
    units = unit_toml("Arm", "allied", None, type_="motorized", factors="2-3-3", extra='arrives = { turn = 1, zone = "entry" }')
    units += unit_toml("Pz", "axis", "A2")
    tail = SUDDEN_A6 + '\n[zones.entry]\nhexes = ["A2"]\n'
    game = jump_to(Game(make_scenario(units, rows=1, columns=12, tail=tail), seed=0), "axis-movement")
    assert arriving(game, AXIS) == {}


def test_the_warning_of_a_reinforcement_is_the_same_whatever_the_face_down_counters_are(gazala: Scenario) -> None:
    """The schedule is public, the face-down set-up is not: two nonhistorical set-ups differing only in which counter
    stands where warn the Axis the same, the 1st Armoured Brigade brought forward to turn 1 with a sudden victory hex
    next to its entry hex G18."""
    sudden = next(n for n in H("G18").neighbours() if gazala.map.is_land(n) and n not in gazala.zone("allied-east-sources"))
    early = replace(
        gazala,
        rules={**gazala.rules, "allied_sudden_victory": [sudden.label]},
        reinforcements={**gazala.reinforcements, "1ArmdBde": Reinforcement(1, "allied-east-sources")},
    )
    a, b = twins(early, ["place Dummy1 B5", "place Dummy2 E6"], ["place 1ATB B5", "place Dummy1 G8", "place Dummy2 E6"])
    assert [t.data() for t in threats(a, AXIS)] == [t.data() for t in threats(b, AXIS)]
    assert ("1ArmdBde", "turn 1") in arriving(a, AXIS)[sudden.label]


@pytest.mark.rule("GG-V.A.4")
def test_an_inactive_allied_unit_threatens_only_if_activated_and_not_at_all_with_no_activation_left() -> None:
    game = movement_game(unit_toml("Mot", "allied", "A2", type_="motorized", factors="2-3-3"), rows=1)
    (threat,) = threats(game, AXIS)
    assert threat.units == ("Mot",) and [
        (c.condition.words, c.condition.clause, c.condition.most, c.units) for c in threat.conditional
    ] == [("if activated", "GG-V.A.4", 2, ("Mot",))]
    assert threat.describe() == "A6 (Allied sudden victory hex, GG-IV.A.1) could be reached if activated (GG-V.A.4) by Mot"
    gazala_vars(game).activations = {"1": 2}  # both of this turn's activations used: the Allied movement to come has none
    game.forget_caches()
    assert threats(game, AXIS) == []
    gazala_vars(game).activations = {}
    family_unit(game, "Mot").activated = True  # an active unit is free to move: named plainly
    game.forget_caches()
    (threat,) = threats(game, AXIS)
    assert threat.conditional == () and threat.describe() == "A6 (Allied sudden victory hex, GG-IV.A.1) could be reached by Mot"
