"""Reinforcements and replacements (CA-R.1-5) on the order of battle, the turn track and the campaign map.

CA-R.1: arrivals, force levels and tank types by the track.  CA-R.2: the irreplaceable nationalities.  CA-R.3: one
British division until an Axis unit is within 5 hexes of El Alamein.  CA-R.4: one a player-turn, the Axis's ending
II Oct 42, entering on the owner's coastal-road edge hex.  CA-R.5: the Axis additions from the same approach.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.systems.campaign.boards import board, ix, position
from tests.systems.campaign.campaign_data import forces
from tests.systems.campaign.maps import campaign
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.systems.campaign.position import CampaignPosition, position_from_scenario
from tobruk.systems.campaign.reinforcements import (
    Choice,
    Pool,
    alamein_reached,
    check,
    choices,
    enter,
    legal,
    pool_from_scenario,
    starting_arrivals,
)
from tobruk.systems.campaign.strategic import rear_hex

M = board(1, 6)


def allowed(
    p: CampaignPosition, side: Side, turn: str, pool: Pool, *, alamein: bool = False, taken: bool = False, entry: str = "A1"
) -> dict[str, Choice]:
    """The first choice of each unit, by id."""
    out: dict[str, Choice] = {}
    for c in choices(p, forces(), side, turn, pool, ix(p, entry), alamein=alamein, taken=taken):
        out.setdefault(c.unit, c)
    return out


def refusal(p: CampaignPosition, side: Side, turn: str, pool: Pool, unit: str, tank: str | None = None, **kw: bool) -> str:
    entry = ix(p, "A6" if side is Side.ALLIED else "A1")
    with pytest.raises(IllegalOrderError) as err:
        check(p, forces(), side, turn, pool, entry, unit, tank, alamein=kw.get("alamein", False), taken=kw.get("taken", False))
    return err.value.clause


# --------------------------------------------------------------------------------------------- Alamein (R.3, R.5)


@pytest.mark.rule("CA-R.3")
@pytest.mark.rule("CA-R.5")
@pytest.mark.parametrize(("where", "reached"), [("V71", True), ("V70", True), ("V69", False)])
def test_the_alamein_level_comes_within_5_hexes(where: str, reached: bool) -> None:
    # V71, V70 and V69 are 4, 5 and 6 hexes from El Alamein (V75)
    p = position(campaign(), f"90Lt@{where}", "NZDiv@V79")
    assert alamein_reached(p, forces()) is reached
    # an Allied unit near El Alamein is no approach
    assert not alamein_reached(position(campaign(), "NZDiv@V74", "90Lt@V60"), forces())


@pytest.mark.rule("CA-R.3")
def test_one_british_division_until_the_alamein_level() -> None:
    p = position(M, "50Div@A3")
    pool = Pool({"44Div": "", "4IndDiv": "", "AusDiv": ""})
    assert refusal(p, Side.ALLIED, "II May 42", pool, "44Div") == "CA-R.3"
    seen = allowed(p, Side.ALLIED, "II May 42", pool)
    assert seen["4IndDiv"].allowed and seen["AusDiv"].allowed  # Indian and Australian divisions are not British
    assert allowed(p, Side.ALLIED, "II May 42", pool, alamein=True)["44Div"].allowed
    assert allowed(position(M, "4IndDiv@A3"), Side.ALLIED, "II May 42", pool)["44Div"].allowed  # the first British division


@pytest.mark.rule("CA-R.5")
@pytest.mark.parametrize("uid", ("Littorio", "Pistoia", "Folgore", "164Div", "Ramcke"))
def test_the_axis_additions_come_with_the_approach(uid: str) -> None:
    p = position(M, "90Lt@A3")
    pool = Pool({uid: ""})
    assert refusal(p, Side.AXIS, "I Aug 42", pool, uid) == "CA-R.5"
    assert check(p, forces(), Side.AXIS, "I Aug 42", pool, ix(p, "A1"), uid, alamein=True).kind == "reinforcement"


# --------------------------------------------------------------------------------------------- the track (R.1)


@pytest.mark.rule("CA-R.1")
def test_axis_arrivals_by_the_track() -> None:
    p = position(M, "90Lt@A3")
    pool = Pool({"21Pz": forces().track.arrival("21Pz").when.turn})  # type: ignore[union-attr]
    assert pool.waiting["21Pz"] == "I Aug 41"
    assert refusal(p, Side.AXIS, "II Jul 41", pool, "21Pz") == "CA-R.1"
    assert check(p, forces(), Side.AXIS, "I Aug 41", pool, ix(p, "A1"), "21Pz", alamein=False).allowed


@pytest.mark.rule("CA-R.1")
def test_the_allied_force_level() -> None:
    # II Mar 41: 4 units; the dummy does not count, the 8th Army artillery does
    pool = Pool({"GdsBde": ""})
    three = position(M, "3ArmBde@A3", "1ArmSpt@A3", "AusDiv@A4", "TobrukDummy@A5")
    assert allowed(three, Side.ALLIED, "II Mar 41", pool)["GdsBde"].allowed
    four = position(M, "3ArmBde@A3", "1ArmSpt@A3", "AusDiv@A4", "8ArmyArty@A5")
    assert refusal(four, Side.ALLIED, "II Mar 41", pool, "GdsBde") == "CA-R.1"
    assert allowed(four, Side.ALLIED, "I Jun 41", pool)["GdsBde"].allowed  # 7 from I Jun 41
    assert allowed(four, Side.ALLIED, "II Mar 41", pool, alamein=True)["GdsBde"].allowed  # the Alamein level, 18


@pytest.mark.rule("CA-R.1")
@pytest.mark.rule("CA-R.4")
def test_allied_armour_enters_with_a_tank_type_of_the_date() -> None:
    p = position(M, "GdsBde@A3")
    pool = Pool({"8ArmBde": ""})
    entry = ix(p, "A6")

    def tanks(turn: str) -> set[str | None]:
        return {c.tank for c in legal(p, forces(), Side.ALLIED, turn, pool, entry, alamein=True)}

    assert tanks("II Mar 41") == {"A13", "Matilda"}
    assert "Sherman" not in tanks("I Sep 42") and "Sherman" in tanks("II Sep 42")
    assert "Crusader III" not in tanks("II Sep 42") and "Crusader III" in tanks("I Oct 42")
    assert refusal(p, Side.ALLIED, "I Sep 42", pool, "8ArmBde", "Sherman", alamein=True) == "CA-R.4"
    c = check(p, forces(), Side.ALLIED, "II Sep 42", pool, entry, "8ArmBde", "Sherman", alamein=True)
    after = enter(p, forces(), c, entry, "II Sep 42")
    u = after.unit("8ArmBde")
    assert u.unit.tank == "Sherman" and u.hex == entry and not u.disrupted
    # an infantry-type unit takes the anti-tank gun of the date (CA-T.5: 2pdr from I Apr 42, 6pdr from I Oct 42)
    gds = Pool({"GdsBde": ""})
    q = position(M, "NZDiv@A3")
    for turn, gun in (("II Mar 42", "none"), ("I Apr 42", "2pdr"), ("I Oct 42", "6pdr")):
        c = check(q, forces(), Side.ALLIED, turn, gds, entry, "GdsBde", alamein=True)
        assert enter(q, forces(), c, entry, turn).unit("GdsBde").unit.anti_tank.value == gun


# --------------------------------------------------------------------------------------- replacements (R.2)


@pytest.mark.rule("CA-R.2")
@pytest.mark.parametrize("uid", ("AusDiv", "NZDiv", "1SADiv", "2SADiv", "1PolBde", "GreekBde", "1FFBde"))
def test_the_irreplaceable_nationalities(uid: str) -> None:
    p = position(M, "GdsBde@A3")
    pool = Pool({}, frozenset({uid}))
    assert refusal(p, Side.ALLIED, "II May 42", pool, uid, alamein=True) == "CA-R.2"


@pytest.mark.rule("CA-R.2")
@pytest.mark.parametrize(("side", "uid"), [(Side.ALLIED, "GdsBde"), (Side.ALLIED, "4IndDiv"), (Side.AXIS, "90Lt"), (Side.AXIS, "Ariete")])
def test_other_units_are_replaced(side: Side, uid: str) -> None:
    p = position(M, "NZDiv@A3", "15MotBde@A4")
    pool = Pool({}, frozenset({uid}))
    entry = ix(p, "A6" if side is Side.ALLIED else "A1")
    assert check(p, forces(), side, "II May 42", pool, entry, uid, alamein=True).kind == "replacement"


# ---------------------------------------------------------------------------------------- one a player-turn (R.4)


@pytest.mark.rule("CA-R.4")
def test_one_a_player_turn() -> None:
    p = position(M, "GdsBde@A3")
    pool = Pool({"NZDiv": "", "4IndDiv": ""}, frozenset({"7ArmBde"}))
    assert len({c.unit for c in legal(p, forces(), Side.ALLIED, "II May 42", pool, ix(p, "A6"), alamein=False)}) == 3
    assert refusal(p, Side.ALLIED, "II May 42", pool, "NZDiv", taken=True) == "CA-R.4"
    assert not legal(p, forces(), Side.ALLIED, "II May 42", pool, ix(p, "A6"), alamein=False, taken=True)


@pytest.mark.rule("CA-R.4")
@pytest.mark.parametrize(("turn", "ok"), [("II Sep 42", True), ("I Oct 42", True), ("II Oct 42", False), ("I Nov 42", False)])
def test_the_axis_reinforcements_end_ii_oct_42(turn: str, ok: bool) -> None:
    p = position(M, "90Lt@A3")
    pool = Pool({"Littorio": ""}, frozenset({"15MotBde"}))
    seen = allowed(p, Side.AXIS, turn, pool, alamein=True)
    assert seen["Littorio"].allowed is ok and seen["15MotBde"].allowed is ok
    if not ok:
        assert seen["Littorio"].clause == "CA-R.4"
    # the Allies go on
    assert allowed(position(M, "GdsBde@A3"), Side.ALLIED, turn, Pool({"NZDiv": ""}), alamein=True, entry="A6")["NZDiv"].allowed


@pytest.mark.rule("CA-R.4")
def test_entry_on_the_owners_coastal_road_edge_hex() -> None:
    m = campaign()
    assert m.hexes[rear_hex(m, Side.AXIS)].label == "AA1"
    assert m.hexes[rear_hex(m, Side.ALLIED)].label == "V79"


@pytest.mark.rule("CA-R.4")
def test_an_entry_hex_held_by_the_enemy_or_full_refuses_entry() -> None:
    pool = Pool({"Trieste": ""})
    p = position(M, "GdsBde@A1")
    assert refusal(p, Side.AXIS, "I Sep 41", pool, "Trieste") == "CA-M.1"
    full = position(M, "90Lt@A1", "XXICorps@A1")  # two division-level units already
    assert refusal(full, Side.AXIS, "I Sep 41", pool, "Trieste") == "CA-K.1"
    assert not legal(full, forces(), Side.AXIS, "I Sep 41", pool, ix(full, "A1"), alamein=False)
    # an enemy zone over the entry hex does not stop entry: the unit stands in it as any unit may
    zoc = position(M, "NZDiv@A2")
    assert check(zoc, forces(), Side.AXIS, "I Sep 41", pool, ix(zoc, "A1"), "Trieste", alamein=False).allowed


@pytest.mark.rule("CA-R.1")
@pytest.mark.rule("CA-R.4")
def test_the_campaign_games_pool() -> None:
    s = load_scenario("na-campaign")
    p = position_from_scenario(s)
    pools = pool_from_scenario(s, p)
    axis, allied = pools[Side.AXIS], pools[Side.ALLIED]
    assert axis.waiting["15Pz"] == "I May 41" and axis.waiting["Trieste"] == "I Sep 41" and axis.waiting["Littorio"] == ""
    assert set(starting_arrivals(s)) == {"5PzRgt", "RecceGp", "15MotBde", "Ariete", "XXICorps"}
    assert not set(starting_arrivals(s)) & set(axis.waiting)
    assert allied.waiting["2ArmBde"] == "" and "3ArmBde" not in allied.waiting and "TobrukDummy" not in allied.waiting
    entry = rear_hex(s.map, Side.AXIS)
    # on I May 41 the Axis chooses between the 15th Panzer Division and its regiment, one of them
    may = {c.unit for c in legal(p, forces(), Side.AXIS, "I May 41", axis, entry, alamein=False)}
    assert may == {"15Pz", "8PzRgt"}


PACKAGED = (
    *("na-el-agheila-1", "na-el-agheila-2", "na-el-agheila-3", "na-crusader", "na-gazala", "na-mersa-matruh"),
    *("na-1st-alamein", "na-alam-halfa", "na-alamein", "na-campaign"),
)


@pytest.mark.rule("CA-R.1")
@pytest.mark.parametrize("name", PACKAGED)
def test_every_scenarios_pool_holds_only_counters_off_the_map(name: str) -> None:
    s = load_scenario(name)
    p = position_from_scenario(s)
    pools = pool_from_scenario(s, p)
    on_map = {u.id for u in p.units} | {x.id for u in p.units for x in u.parts}
    for side, pool in pools.items():
        assert not set(pool.waiting) & on_map
        assert "TobrukDummy" not in pool.waiting and not pool.eliminated
        assert all(forces().units[uid].side is side for uid in pool.waiting)
        assert not set(pool.waiting) & set(starting_arrivals(s))


def test_the_edges_of_the_reinforcement_rules() -> None:
    p = position(M, "GdsBde@A3")
    entry = ix(p, "A6")
    with pytest.raises(IllegalOrderError) as err:
        check(p, forces(), Side.ALLIED, "II May 42", Pool({"NZDiv": ""}), entry, "90Lt", alamein=False)  # not the side's
    assert err.value.clause == "CA-R.4"
    with pytest.raises(IllegalOrderError, match="Shermans"):
        check(p, forces(), Side.ALLIED, "II May 42", Pool({"NZDiv": ""}), entry, "NZDiv", "Sherman", alamein=False)
    # a track on which no tank type has come yet: an armour brigade cannot enter (CA-R.1)
    late = replace(forces().track, tank_types=tuple(replace(t, when=replace(t.when, turn="I Jan 43")) for t in forces().track.tank_types))
    later = replace(forces(), track=late)
    found = choices(p, later, Side.ALLIED, "II May 42", Pool({"7ArmBde": ""}), entry, alamein=False)
    assert [(c.allowed, c.clause, c.tank) for c in found] == [(False, "CA-R.1", None)]
    # a map without El Alamein has no approach to it
    assert not alamein_reached(position(M, "90Lt@A1"), forces())
    # the pieces of a combined panzer division on the map are in play: neither is a reinforcement
    q = position(M, "15Pz+@A3")
    assert not choices(q, forces(), Side.AXIS, "I Jun 41", Pool({"15Pz": "", "8PzRgt": ""}), ix(q, "A1"), alamein=False)


# --------------------------------------------------------------------------------------- the reasons given


def reason(p: CampaignPosition, side: Side, turn: str, pool: Pool, unit: str, tank: str | None = None, **kw: bool) -> str:
    entry = ix(p, "A6" if side is Side.ALLIED else "A1")
    with pytest.raises(IllegalOrderError) as err:
        check(p, forces(), side, turn, pool, entry, unit, tank, alamein=kw.get("alamein", False), taken=kw.get("taken", False))
    return err.value.reason


@pytest.mark.rule("CA-R.4")
def test_a_side_is_offered_only_its_own_counters_and_never_the_dummy() -> None:
    p = position(M, "GdsBde@A3", "90Lt@A2")
    pool = Pool({"15MotBde": "", "NZDiv": "", "TobrukDummy": ""}, frozenset({"Ariete", "4IndDiv"}))
    seen = choices(p, forces(), Side.ALLIED, "II May 42", pool, ix(p, "A6"), alamein=False)
    assert [c.unit for c in seen] == ["NZDiv", "4IndDiv"]  # an Axis counter sorted first does not end the list


@pytest.mark.rule("CA-R.4")
def test_an_allowed_entry_says_what_enters_and_as_what() -> None:
    p = position(M, "NZDiv@A3", "90Lt@A2")
    armour = check(p, forces(), Side.ALLIED, "II Jun 42", Pool({"8ArmBde": ""}), ix(p, "A6"), "8ArmBde", "Grant", alamein=True)
    assert (armour.clause, armour.reason) == ("CA-R.4", "8th Armoured Brigade with Grants may enter as this player-turn's reinforcement")
    foot = check(p, forces(), Side.ALLIED, "II Jun 42", Pool({}, frozenset({"GdsBde"})), ix(p, "A6"), "GdsBde", alamein=True)
    assert foot.reason == "22nd (201st) Guards Brigade may enter as this player-turn's replacement"
    axis = check(p, forces(), Side.AXIS, "II Jun 42", Pool({}, frozenset({"Ariete"})), ix(p, "A1"), "Ariete", alamein=True)
    assert axis.reason == "132a Divisione corazzata Ariete may enter as this player-turn's replacement"  # its own tanks, unnamed
    after = enter(p, forces(), armour, ix(p, "A6"), "II Jun 42")
    assert after.unit("8ArmBde").unit.tank == "Grant"  # the type chosen, not the counter's printed Sherman


@pytest.mark.rule("CA-R.1")
@pytest.mark.rule("CA-R.2")
@pytest.mark.rule("CA-R.3")
@pytest.mark.rule("CA-R.4")
def test_each_refusal_gives_its_reason() -> None:
    p = position(M, "GdsBde@A3")
    assert reason(p, Side.ALLIED, "II May 42", Pool({"NZDiv": ""}), "NZDiv", taken=True) == (
        "one reinforcement or replacement a player-turn, and it has entered"
    )
    assert reason(p, Side.ALLIED, "II May 42", Pool({}, frozenset({"1SADiv"})), "1SADiv", alamein=True) == (
        "1st South African Division is South African: irreplaceable"
    )
    four = position(M, "3ArmBde@A3", "1ArmSpt@A3", "AusDiv@A4", "8ArmyArty@A5")
    assert reason(four, Side.ALLIED, "II Mar 41", Pool({"GdsBde": ""}), "GdsBde") == (
        "4 Allied units are on the map, and the force level of II Mar 41 is 4"
    )
    allied = sorted(u.id for u in forces().units.values() if u.side is Side.ALLIED and u.id not in ("TobrukDummy", "GdsBde"))
    full = position(board(4, 6), *(f"{uid}@{'ABCD'[k // 6]}{k % 6 + 1}" for k, uid in enumerate(allied[:18])))
    assert reason(full, Side.ALLIED, "II Oct 42", Pool({"GdsBde": ""}), "GdsBde", alamein=True) == (
        "18 Allied units are on the map, and the Alamein force level is 18"
    )
    two = position(M, "50Div@A3", "51Div@A4")
    assert reason(two, Side.ALLIED, "II May 42", Pool({"44Div": ""}), "44Div") == (
        "50Div, 51Div is the one British division allowed before the Allied Alamein Force Level"
    )


@pytest.mark.rule("CA-T.5")
def test_an_armoured_support_group_enters_with_the_support_groups_gun() -> None:
    p = position(M, "GdsBde@A3")
    entry = ix(p, "A6")
    c = check(p, forces(), Side.ALLIED, "II Mar 41", Pool({}, frozenset({"1ArmSpt"})), entry, "1ArmSpt", alamein=True)
    assert enter(p, forces(), c, entry, "II Mar 41").unit("1ArmSpt").unit.anti_tank.value == "2pdr"  # the infantry: none yet


def test_the_pool_is_made_only_from_a_campaign_scenario() -> None:
    other = load_scenario("gazala-gallop")
    with pytest.raises(TypeError) as err:
        starting_arrivals(other)
    assert str(err.value) == f"{other.name} is not a campaign scenario"
    with pytest.raises(TypeError) as err:
        pool_from_scenario(other, position(M))
    assert str(err.value) == f"{other.name} is not a campaign scenario"
