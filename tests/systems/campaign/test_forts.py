"""Fortifications and fortress towns (CA-F.1, CA-F.2, CA-F.4, CA-F.5) on worked boards and the campaign map.

CA-F.1: one fort/box a turn, not after combat in this or the last player-turn, nearer a friend than an enemy;
infantry-type units doubled there, 2 extra factors at most.  CA-F.2: destroyed by an undisrupted enemy
infantry-type unit in the owner's supply phase; removed at will.  CA-F.4: Tobruk triples (or doubles), Bardia
doubles; the centre hex's bottom unit defends the perimeter; the garrison face down with a dummy.  CA-F.5:
Benghazi and Derna +1 to one infantry-type unit.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.systems.campaign.boards import H, board, ix, position
from tests.systems.campaign.maps import campaign
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.systems.campaign.forts import (
    axis_sight,
    build,
    build_sites,
    centre,
    check_build,
    check_dummy,
    defenders,
    destroy,
    destroyed,
    dummy_removed,
    face_down,
    fort_extra,
    fortress_multiplier,
    hex_defence,
    perimeter,
    perimeter_defender,
    remove,
    town_extra,
    unit_defence,
)
from tobruk.systems.campaign.position import CampaignPosition
from tobruk.systems.campaign.scenario import CampaignSetup

M = board(1, 12)


def refused(
    p: CampaignPosition, side: Side, at: str, *, built: bool = False, combat: bool = False, scenario: CampaignSetup | None = None
) -> str:
    with pytest.raises(IllegalOrderError) as err:
        check_build(p, side, ix(p, at), built=built, combat=combat, scenario=scenario)
    return err.value.clause


# ------------------------------------------------------------------------------------------------------ building


@pytest.mark.rule("CA-F.1")
def test_a_fort_is_built_nearer_a_friend_than_an_enemy() -> None:
    # the Allies at A1, the Axis at A8: A4 is 3 from the friend and 4 from the enemy, A5 4 and 3
    p = position(M, "GdsBde@A1", "90Lt@A8")
    sites = {p.hex(i).label for i in build_sites(p, Side.ALLIED)}
    assert sites == {"A1", "A2", "A3", "A4"}  # A4: 3 against 4
    assert {p.hex(i).label for i in build_sites(p, Side.AXIS)} == {f"A{c}" for c in range(5, 13)}  # A5: 3 against 4
    p = position(M, "GdsBde@A1", "90Lt@A7")  # A4: 3 and 3, a tie: nobody's
    assert ix(p, "A4") not in build_sites(p, Side.ALLIED) | build_sites(p, Side.AXIS)
    assert refused(p, Side.ALLIED, "A4") == "CA-F.1"
    check_build(p, Side.ALLIED, ix(p, "A3"), built=False, combat=False)


@pytest.mark.rule("CA-F.1")
def test_one_a_turn_and_not_after_combat() -> None:
    p = position(M, "GdsBde@A1", "90Lt@A8")
    assert refused(p, Side.ALLIED, "A2", built=True) == "CA-F.1"
    assert refused(p, Side.ALLIED, "A2", combat=True) == "CA-F.1"
    after = build(p, Side.ALLIED, ix(p, "A2"), built=False, combat=False)
    assert after.forts[ix(p, "A2")] is Side.ALLIED
    assert refused(after, Side.AXIS, "A2") == "CA-F.1"  # one marker a hex


@pytest.mark.rule("CA-F.1")
def test_no_fort_on_impassable_ground() -> None:
    p = position(board(1, 4, terrain={"A2": "depression"}), "GdsBde@A1", "90Lt@A4")
    assert refused(p, Side.ALLIED, "A2") == "CA-F.8"


@pytest.mark.rule("CA-F.1")
@pytest.mark.rule("CA-SC.2")
def test_el_agheila_ii_allows_the_axis_no_forts() -> None:
    s = load_scenario("na-el-agheila-2")
    setup = s.extra
    assert isinstance(setup, CampaignSetup)
    p = position(M, "GdsBde@A1", "90Lt@A8")
    assert refused(p, Side.AXIS, "A9", scenario=setup) == setup.clause == "CA-SC.2"
    check_build(p, Side.ALLIED, ix(p, "A2"), built=False, combat=False, scenario=setup)  # the Allies build boxes


@pytest.mark.rule("CA-F.1")
def test_the_fortification_doubles_up_to_two_extra_factors() -> None:
    fort = {"A1": Side.ALLIED}
    # one 2-factor infantry-type unit: doubled, 4
    p = position(M, "GdsBde@A1", forts=fort)
    assert fort_extra(p, ix(p, "A1"), Side.ALLIED) == 2
    assert hex_defence(p, ix(p, "A1"), Side.ALLIED, 3) == 4
    # two of them: still 2 extra for the fortification, 6 not 8
    p = position(M, "GdsBde@A1", "1PolBde@A1", forts=fort)
    assert hex_defence(p, ix(p, "A1"), Side.ALLIED, 3) == 6
    # an armour brigade alone gets nothing; a disrupted unit has lost its entrenchment (CA-G.15)
    p = position(M, "7ArmBde@A1", forts=fort)
    assert fort_extra(p, ix(p, "A1"), Side.ALLIED) == 0
    p = position(M, "GdsBde@A1:d", forts=fort)
    assert fort_extra(p, ix(p, "A1"), Side.ALLIED) == 0
    # the support group and the base panzer division are infantry-type (CA-F.1's own words)
    p = position(M, "7ArmSpt@A1", forts=fort)
    assert fort_extra(p, ix(p, "A1"), Side.ALLIED) == 2
    p = position(M, "21Pz@A1", forts={"A1": Side.AXIS})
    assert fort_extra(p, ix(p, "A1"), Side.AXIS) == 2
    p = position(M, "21Pz+@A1", forts={"A1": Side.AXIS})  # combined: the base doubled, not the regiment
    assert hex_defence(p, ix(p, "A1"), Side.AXIS, 3) == 4 + 2
    # an enemy's marker under one's units adds nothing
    p = position(M, "GdsBde@A1", forts={"A1": Side.AXIS})
    assert fort_extra(p, ix(p, "A1"), Side.ALLIED) == 0


# ------------------------------------------------------------------------------------------- destruction, removal


@pytest.mark.rule("CA-F.2")
def test_an_undisrupted_enemy_infantry_type_unit_destroys_it_in_the_owners_supply_phase() -> None:
    fort = {"A3": Side.AXIS}
    p = position(M, "GdsBde@A3", forts=fort)
    assert destroyed(p, Side.AXIS) == {ix(p, "A3")}
    assert not destroy(p, Side.AXIS).forts
    assert destroyed(p, Side.ALLIED) == frozenset()  # only in its owner's phase
    for spec in ("GdsBde@A3:d", "7ArmBde@A3", "8ArmyArty@A3", "TobrukDummy@A3"):
        p = position(M, spec, forts=fort)
        assert destroyed(p, Side.AXIS) == frozenset(), spec
        assert destroy(p, Side.AXIS) is p


@pytest.mark.rule("CA-F.2")
def test_the_owner_removes_his_own_at_will() -> None:
    p = position(M, "GdsBde@A1", forts={"A1": Side.ALLIED, "A5": Side.AXIS})
    assert ix(p, "A1") not in remove(p, Side.ALLIED, ix(p, "A1")).forts
    with pytest.raises(IllegalOrderError) as err:
        remove(p, Side.ALLIED, ix(p, "A5"))
    assert err.value.clause == "CA-F.2"


# ---------------------------------------------------------------------------------------------- fortress towns


@pytest.mark.rule("CA-F.4")
def test_tobruk_triples_or_doubles_bardia_doubles_infantry_type_defence() -> None:
    m = campaign()
    assert {m.hexes[i].label for i in perimeter(m)} == {"J38", "J39", "K39", "K40"}
    p = position(m, "AusDiv@J38", "32TkBde@J38", "NZDiv@M47", "GdsBde@L40", "8ArmyArty@K39")
    assert fortress_multiplier(m, ix(p, "J38"), 3) == 3 and fortress_multiplier(m, ix(p, "J38"), 2) == 2
    assert fortress_multiplier(m, ix(p, "M47"), 3) == 2 and fortress_multiplier(m, ix(p, "L40"), 3) == 1
    assert unit_defence(p, p.unit("AusDiv"), 3) == 6
    assert unit_defence(p, p.unit("AusDiv"), 2) == 4  # the Gazala listing's Tobruk
    assert unit_defence(p, p.unit("32TkBde"), 3) == 2  # armour is not multiplied
    assert unit_defence(p, p.unit("NZDiv"), 3) == 4  # Bardia
    assert unit_defence(p, p.unit("GdsBde"), 3) == 2  # outside
    assert unit_defence(p, p.unit("8ArmyArty"), 3) == 2  # always 2 (CA-U.3)


@pytest.mark.rule("CA-F.5")
def test_benghazi_and_derna_add_one_to_one_infantry_type_unit() -> None:
    m = campaign()
    p = position(m, "AusDiv@J10", "GdsBde@J10", "NZDiv@C30", "7ArmBde@J11", "4IndDiv@F16")
    assert town_extra(p, ix(p, "J10"), Side.ALLIED) == 1  # one unit, not each
    assert hex_defence(p, ix(p, "J10"), Side.ALLIED, 3) == 2 + 2 + 1
    assert town_extra(p, ix(p, "C30"), Side.ALLIED) == 1
    assert town_extra(p, ix(p, "F16"), Side.ALLIED) == 0  # Barce is a town without the bonus
    p = position(m, "7ArmBde@J10")
    assert town_extra(p, ix(p, "J10"), Side.ALLIED) == 0  # armour alone gets nothing
    p = position(m, "GdsBde@J10:d")
    assert town_extra(p, ix(p, "J10"), Side.ALLIED) == 1  # terrain: kept when disrupted


@pytest.mark.rule("CA-F.4")
def test_the_centre_hexs_bottom_unit_defends_the_whole_perimeter() -> None:
    m = campaign()
    assert m.hexes[centre(m) or 0].label == "J39"
    p = position(m, "TobrukDummy@J39", "AusDiv@J39", "1PolBde@J39", "GdsBde@K40", "NZDiv@L40")
    assert [u.id for u in defenders(p, ix(p, "K40"))] == ["GdsBde", "AusDiv"]  # the dummy is no defender
    assert [u.id for u in defenders(p, ix(p, "J39"))] == ["AusDiv", "1PolBde"]
    assert [u.id for u in defenders(p, ix(p, "L40"))] == ["NZDiv"]  # outside the perimeter
    p = position(m, "90Lt@J39", "Trieste@J38")  # after its fall the Axis holds it the same way
    assert [u.id for u in defenders(p, ix(p, "J38"))] == ["Trieste", "90Lt"]


@pytest.mark.rule("CA-F.4")
def test_the_garrison_is_face_down_until_attacked_or_disrupted() -> None:
    m = campaign()
    p = position(m, "AusDiv@J39", "GdsBde@J38", "1PolBde@K39:d", "TobrukDummy@K40", "NZDiv@L40")
    assert face_down(p) == {"AusDiv", "GdsBde", "TobrukDummy"}  # not the disrupted Poles, not the New Zealanders outside
    assert face_down(p, {ix(p, "J38")}) == {"AusDiv", "TobrukDummy"}
    assert not dummy_removed(p)
    assert dummy_removed(p, {ix(p, "K40")})  # attacked, the dummy is revealed and leaves


@pytest.mark.rule("CA-F.4")
def test_the_axis_cannot_tell_the_dummy_from_a_unit() -> None:
    m = campaign()
    a = position(m, "AusDiv@J39", "GdsBde@J38", "TobrukDummy@K40")
    b = position(m, "AusDiv@J39", "TobrukDummy@J38", "GdsBde@K40")
    assert axis_sight(a) == axis_sight(b)
    assert axis_sight(a).face_down == ((ix(a, "J38"), 1), (ix(a, "J39"), 1), (ix(a, "K40"), 1))
    assert axis_sight(a, {ix(a, "J38")}) != axis_sight(b, {ix(b, "J38")})  # an attack reveals the hex


@pytest.mark.rule("CA-F.4")
def test_the_dummy_hides_only_inside_among_allied_units() -> None:
    m = campaign()
    p = position(m, "AusDiv@J39")
    check_dummy(p, ix(p, "K40"))
    for at, pos in (("L40", p), ("K40", position(m, "AusDiv@L40"))):
        with pytest.raises(IllegalOrderError) as err:
            check_dummy(pos, ix(pos, at))
        assert err.value.clause == "CA-F.4"
    assert dummy_removed(position(m, "TobrukDummy@K40", "AusDiv@L40"))  # left alone inside


@pytest.mark.rule("CA-F.2")
def test_a_combined_panzer_division_destroys_a_box() -> None:
    p = position(M, "15Pz+@A3", forts={"A3": Side.ALLIED})
    assert destroyed(p, Side.ALLIED) == {ix(p, "A3")}
    p = position(M, "8PzRgt@A3", forts={"A3": Side.ALLIED})  # its regiment alone is armour
    assert destroyed(p, Side.ALLIED) == frozenset()


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9))
@pytest.mark.rule("CA-F.1")
def test_build_sites_against_the_distances(seed: int) -> None:
    """Every hex's distance to the nearest unit of each side measured pair by pair (Hex.distance): the sites are the
    enterable hexes with no marker strictly nearer a friend."""
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 5), rng.randint(1, 7)
    terrain = {f"{chr(65 + r)}{c + 1}": rng.choice(("clear",) * 6 + ("sea", "depression")) for r in range(rows) for c in range(cols)}
    m = board(rows, cols, terrain=terrain)
    spots = list(m.hexes)
    rng.shuffle(spots)
    placed = [f"{uid}@{spots.pop().label}" for uid in rng.sample(("GdsBde", "NZDiv", "7ArmBde"), min(len(spots), rng.randint(0, 3)))]
    placed += [f"{uid}@{spots.pop().label}" for uid in rng.sample(("90Lt", "Trieste"), min(len(spots), rng.randint(0, 2)))]
    forts = {spots.pop().label: Side.AXIS} if spots and rng.random() < 0.5 else {}
    p = position(m, *placed, forts=forts)
    for side in Side:
        ours = [m.hexes[u.hex] for u in p.side_units(side)]
        theirs = [m.hexes[u.hex] for u in p.side_units(side.enemy)]
        expect = set()
        for i, h in enumerate(m.hexes):
            near = min((h.distance(x) for x in ours), default=None)
            far = min((h.distance(x) for x in theirs), default=None)
            if near is None or i in p.forts or m.terrain[h] in ("sea", "depression"):
                continue
            if far is None or near < far:
                expect.add(i)
        assert build_sites(p, side) == expect


@settings(max_examples=60, deadline=None)
@given(st.permutations(("AusDiv", "GdsBde", "1PolBde", "TobrukDummy")), st.permutations(("AusDiv", "GdsBde", "1PolBde", "TobrukDummy")))
@pytest.mark.rule("CA-F.4")
def test_the_axis_sees_the_same_whichever_counter_is_where(a: tuple[str, ...], b: tuple[str, ...]) -> None:
    """Two garrisons that differ only in which face-down counter stands in which of the same places give the Axis the
    same sight (the differential fog test, asked of the one function the answers are made from)."""
    places = ("J38", "J39", "J39", "K40")
    m = campaign()
    one = position(m, *(f"{u}@{h}" for u, h in zip(a, places, strict=True)), "NZDiv@L40")
    two = position(m, *(f"{u}@{h}" for u, h in zip(b, places, strict=True)), "NZDiv@L40")
    assert axis_sight(one) == axis_sight(two)
    sight = axis_sight(one)
    assert sight.face_up == ()  # the New Zealanders outside are no part of it
    assert sight.face_down == ((ix(one, "J38"), 1), (ix(one, "J39"), 2), (ix(one, "K40"), 1))


def test_the_edges_of_the_fortification_rules() -> None:
    p = position(M, "90Lt@A8")  # no Allied unit on the map: nowhere is nearer one
    assert build_sites(p, Side.ALLIED) == frozenset()
    with pytest.raises(IllegalOrderError, match="no distance"):
        check_build(p, Side.ALLIED, ix(p, "A1"), built=False, combat=False)
    assert len(build_sites(p, Side.AXIS)) == 12  # and no enemy: every hex for the Axis
    # a board without Tobruk or Bardia: no multiplier, no perimeter, the hex's own defenders
    q = position(M, "GdsBde@A1", "NZDiv@A2")
    assert fortress_multiplier(M, ix(q, "A1"), 3) == 1 and perimeter(M) == frozenset() and centre(M) is None
    assert [u.id for u in defenders(q, ix(q, "A1"))] == ["GdsBde"]
    assert not dummy_removed(q)  # no dummy at all
    m = campaign()
    assert dummy_removed(position(m, "TobrukDummy@L40", "AusDiv@J39"))  # outside the perimeter
    assert defenders(position(m, "TobrukDummy@K40", "AusDiv@J39"), m.index[H("K40")]) == ()  # the dummy alone: none


def reason(p: CampaignPosition, side: Side, at: str, *, scenario: CampaignSetup | None = None) -> str:
    with pytest.raises(IllegalOrderError) as err:
        check_build(p, side, ix(p, at), built=False, combat=False, scenario=scenario)
    return err.value.reason


@pytest.mark.rule("CA-F.1")
def test_a_site_refused_is_told_with_both_distances() -> None:
    p = position(M, "GdsBde@A1", "90Lt@A7")
    assert reason(p, Side.ALLIED, "A4") == (
        "A4 is 3 hexes from the nearest Allied unit and 3 hexes from the nearest enemy: "
        "a box is built only nearer a friendly unit than an enemy one"
    )
    lone = position(M, "GdsBde@A1")  # no Axis unit on the map: nowhere nearer one
    assert reason(lone, Side.AXIS, "A2") == (
        "A2 is no distance (no unit) from the nearest Axis unit and 1 hex from the nearest enemy: "
        "a fort is built only nearer a friendly unit than an enemy one"
    )


@pytest.mark.rule("CA-SC.2")
def test_building_heeds_the_scenarios_no_forts() -> None:
    setup = load_scenario("na-el-agheila-2").extra
    assert isinstance(setup, CampaignSetup)
    p = position(M, "GdsBde@A1", "90Lt@A8")
    with pytest.raises(IllegalOrderError) as err:
        build(p, Side.AXIS, ix(p, "A9"), built=False, combat=False, scenario=setup)
    assert err.value.clause == "CA-SC.2"


@pytest.mark.rule("CA-F.4")
def test_in_tobruk_only_a_combined_panzer_divisions_base_is_tripled() -> None:
    p = position(campaign(), "15Pz+@J38")  # 4 in all: the base 2, the regiment (armour) 2
    assert unit_defence(p, p.unit("15Pz"), 3) == 2 * 3 + 2


@pytest.mark.rule("CA-F.1")
def test_the_defence_of_some_of_a_hexs_units() -> None:
    p = position(M, "GdsBde@A1", "1PolBde@A1", "7ArmBde@A1")
    assert hex_defence(p, ix(p, "A1"), Side.ALLIED, 3, [p.unit("GdsBde")]) == 2


@pytest.mark.rule("CA-F.4")
def test_no_perimeter_defender_when_the_centre_holds_none_of_the_side() -> None:
    p = position(campaign(), "GdsBde@K40", "90Lt@J39")
    assert perimeter_defender(p, Side.ALLIED) is None
    assert [u.id for u in defenders(p, ix(p, "K40"))] == ["GdsBde"]
    with pytest.raises(IllegalOrderError) as err:
        check_dummy(position(campaign(), "AusDiv@L40"), ix(p, "K40"))
    assert err.value.reason == "the dummy hides among Allied units inside the perimeter, and there are none"
