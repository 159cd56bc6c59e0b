"""A campaign scenario a user writes is held to the rules when it is loaded (CA-R.1, CA-R.3, CA-R.5, CA-K.1).

Each refusal is proven on a copy of a packaged scenario changed by one step past the rule's limit, and each
limit from the other side too: the packaged file, or a copy changed to sit exactly on the limit, loads.  The
limits are the rules' (3 units, 1 corps, 2 divisions, 2 pure armour units a hex; 1 British division; 5 hexes
of El Alamein) and the turn track's dates, read from the rules text, not from the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import family
from tests.systems.campaign.campaign_data import forces, setup
from tobruk.board.hexes import Hex
from tobruk.engine.errors import ScenarioError
from tobruk.engine.sides import Side
from tobruk.loading.datafile import packaged_path
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import UnitType


def _edit(tmp_path: Path, name: str, *changes: tuple[str, str], append: str = "") -> Path:
    """A copy of a packaged scenario with each (old, new) replaced once and ``append`` added at the end."""
    packaged = packaged_path("scenarios", name)
    assert packaged is not None
    text = packaged.read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    out = tmp_path / f"{name}.toml"
    out.write_text(text + append, encoding="utf-8")
    return out


def _refused(path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.source == str(path)
    return err.value


def _force(unit: str, hex_: str, extra: str = "") -> str:
    return f'\n[[force]]\nunit = "{unit}"\nhex = "{hex_}"\n{extra}'


# ---------------------------------------------------------------- CA-SC.2: "No forts"


@pytest.mark.rule("CA-SC.2")
@pytest.mark.rule("CA-F.1")
def test_el_agheila_ii_has_no_axis_forts_and_the_allies_keep_their_box() -> None:
    s = setup(load_scenario("na-el-agheila-2"))
    assert s.no_forts == {Side.AXIS}
    assert not s.may_build(Side.AXIS) and s.may_build(Side.ALLIED)
    assert [f.side for f in s.fortifications] == [Side.ALLIED]  # "1 box anywhere east of el Agheila"
    for name in ("na-el-agheila-1", "na-crusader", "na-gazala", "na-alamein", "na-campaign"):
        assert setup(load_scenario(name)).may_build(Side.AXIS), name  # the other listings say nothing of the kind


@pytest.mark.rule("CA-SC.2")
@pytest.mark.rule("CA-F.1")
def test_a_fort_in_a_no_forts_scenario_is_refused(tmp_path: Path) -> None:
    path = _edit(tmp_path, "na-el-agheila-2", append='\n[[fortification]]\nside = "axis"\nplaces = ["el-agheila"]\n')
    err = _refused(path)
    assert err.field == "fortification[1].side" and "(CA-F.1)" in err.problem
    bad = _edit(tmp_path, "na-el-agheila-2", ('no_forts = ["axis"]', 'no_forts = ["germans"]'))
    assert _refused(bad).field == "no_forts[0]"


# ---------------------------------------------------------------- CA-F.4: the Tobruk dummy


@pytest.mark.rule("CA-F.4")
def test_the_order_of_battle_has_one_dummy_and_it_stands_inside_tobruk_with_the_garrison() -> None:
    dummies = [u for u in forces().units.values() if u.type is UnitType.DUMMY]
    assert [(u.side, u.attack, u.defence, u.movement, u.combat_class) for u in dummies] == [(Side.ALLIED, 0, 0, 0, None)]
    dummy = dummies[0].id
    for name in ("na-crusader", "na-gazala"):  # the listings with Allied units in Tobruk
        s = load_scenario(name)
        inside = s.map.zones["inside Tobruk perimeter"]
        assert s.start[dummy] in inside and s.zone(s.setup_zone[dummy]) <= inside, name
        assert any(s.start[u.id] in inside for u in family(s) if u.side is Side.ALLIED and u.id != dummy), name
    campaign = load_scenario("na-campaign")
    assert campaign.start[dummy] is None and dummy not in campaign.reinforcements
    for name in ("na-el-agheila-1", "na-mersa-matruh", "na-alamein"):  # no garrison in Tobruk: no dummy
        assert dummy not in {u.id for u in family(load_scenario(name))}, name


@pytest.mark.rule("CA-F.4")
@pytest.mark.rule("CA-R.1")
def test_the_dummy_is_not_counted_against_the_force_level(tmp_path: Path) -> None:
    """Crusader lists 13 Allied units, exactly the II Nov 41 force level, and the dummy beside them."""
    s = load_scenario("na-crusader")
    allied = [u for u in family(s) if u.side is Side.ALLIED]
    assert len(allied) == 14 and forces().track.force_level("II Nov 41") == 13
    # a fourteenth real unit is one too many
    err = _refused(_edit(tmp_path, "na-crusader", append=_force("3IndMotBde", "P50")))
    assert err.field == "force[21].unit" and "(CA-R.1)" in err.problem and "force level of II Nov 41 (13)" in err.problem


# ---------------------------------------------------------------- CA-R.1: arrivals and force levels


@pytest.mark.rule("CA-R.1")
def test_an_axis_unit_before_the_track_brings_it_is_refused(tmp_path: Path) -> None:
    # the track brings 15. Panzer on I May 41: arriving then loads (the packaged campaign), a turn earlier not
    assert setup(load_scenario("na-campaign")).arrivals["15Pz"] == "I May 41"
    early = 'unit = "15Pz"\narrives = { turn = "II Apr 41", zone = "axis-entry" }'
    path = _edit(tmp_path, "na-campaign", ('unit = "15Pz"\narrives = { turn = "I May 41", zone = "axis-entry" }', early))
    err = _refused(path)
    assert err.field == "force[2].arrives.turn" and "(CA-R.1)" in err.problem and "from I May 41" in err.problem
    # on the map at the start of El Agheila I (II Mar 41), months before it landed
    err = _refused(_edit(tmp_path, "na-el-agheila-1", append=_force("90Lt", "AB4")))
    assert err.field.endswith("].unit") and err.field.startswith("force[") and "(CA-R.1)" in err.problem


@pytest.mark.rule("CA-R.1")
def test_the_allied_force_level_counts_arrivals_on_their_turn(tmp_path: Path) -> None:
    """1st Alamein: 7 Allied units on the map, 2 arriving (II Jul, I Aug 42), under the level of 14."""
    level = forces().track.force_level("I Jul 42")
    assert level == 14
    s = load_scenario("na-1st-alamein")
    assert len([u for u in family(s) if u.side is Side.ALLIED]) == 9
    extra = "".join(
        f'\n[[force]]\nunit = "{u}"\narrives = {{ turn = "I Aug 42", zone = "allied-entry" }}\n'
        for u in ("44Div", "1FFBde", "GreekBde", "23TkBde", "GdsBde")
    )
    assert load_scenario(_edit(tmp_path, "na-1st-alamein", append=extra)).extra is not None  # 14: on the level
    err = _refused(_edit(tmp_path, "na-1st-alamein", append=extra + _force("3IndMotBde", "X78")))
    # the unit on the map from the start fits; the last to arrive (the Guards, I Aug 42) is the fifteenth
    assert err.field == "force[20].unit" and "(CA-R.1)" in err.problem
    assert "GdsBde would be Allied unit 15 in play, over the force level of I Aug 42 (14)" in err.problem


# ---------------------------------------------------------------- CA-R.3 and CA-R.5: the Alamein force level


@pytest.mark.rule("CA-R.3")
def test_a_second_british_division_before_the_alamein_force_level_is_refused(tmp_path: Path) -> None:
    # Mersa Matruh: 50th Division is the one British division; a second is refused
    assert not setup(load_scenario("na-mersa-matruh")).alamein_active
    err = _refused(_edit(tmp_path, "na-mersa-matruh", append=_force("44Div", "R64")))
    assert err.field == "force[16].unit" and "(CA-R.3)" in err.problem and "beside 50Div" in err.problem
    # Alamein: the Axis stands within 5 hexes of El Alamein, so the level is on and three British divisions stand
    alamein = load_scenario("na-alamein")
    assert setup(alamein).alamein_active
    assert {u.id for u in family(alamein) if u.nationality == "british" and u.is_division} == {"44Div", "50Div", "51Div"}


@pytest.mark.rule("CA-R.5")
@pytest.mark.rule("CA-R.3")
def test_the_alamein_additions_need_an_axis_unit_within_5_hexes_of_el_alamein(tmp_path: Path) -> None:
    """Littorio (an addition) without the listing's word: on only when some Axis unit is within 5 hexes of V75."""
    m = load_scenario("na-mersa-matruh").map
    el_alamein = m.place("El Alamein").hex
    assert (Hex.parse("V70").distance(el_alamein), Hex.parse("V69").distance(el_alamein)) == (5, 6)
    note = "# the listing names Littorio, an Alamein addition (CA-R.5), though no Axis unit is yet near El Alamein"
    listed = f'hex = "R56"\nsetup_zone = "axis-setup"\n{note}\nlisting = "CA-SC.6"\n'
    err = _refused(_edit(tmp_path, "na-mersa-matruh", (listed, 'hex = "R56"\n')))
    assert err.field == "force[14].unit" and "(CA-R.5)" in err.problem
    far = _refused(_edit(tmp_path, "na-mersa-matruh", (listed, 'hex = "V69"\n')))
    assert far.field == "force[14].unit" and "(CA-R.5)" in far.problem
    near = load_scenario(_edit(tmp_path, "na-mersa-matruh", (listed, 'hex = "V70"\n')))
    assert setup(near).alamein_active
    # with the level on, the dated level gives way to the Alamein level: 18 units where II Jun 42 allows 14
    assert forces().track.force_level("II Jun 42", alamein=True) == 18 and forces().track.force_level("II Jun 42") == 14
    bad = _refused(_edit(tmp_path, "na-mersa-matruh", ('listing = "CA-SC.6"', 'listing = "the designer"')))
    assert bad.field == "force[14].listing"


# ---------------------------------------------------------------- CA-K.1: stacking at the start


def _move(unit: str, old: str, new: str) -> tuple[str, str]:
    """Move a force of the file: ``old`` is its position line as written (``hex = "L36"`` or ``place = "..."``)."""
    return (f'unit = "{unit}"\n{old}', f'unit = "{unit}"\nhex = "{new}"')


@pytest.mark.rule("CA-K.1")
@pytest.mark.parametrize(
    ("moves", "field", "what"),
    [
        # four units: the Guards, 7th Support and 3rd Indian Motor brigades join 1st Free French at Bir Hakeim (O36)
        (
            (
                _move("GdsBde", 'place = "Knightsbridge"', "O36"),
                _move("7ArmSpt", 'hex = "P37"', "O36"),
                _move("3IndMotBde", 'hex = "P36"', "O36"),
            ),
            "force[13].hex",
            "4 units",
        ),
        # two corps: X Corps joins XXI Corps
        ((_move("XCorps", 'hex = "K32"', "I32"),), "force[16].hex", "2 corps"),
        # three division-level units: Trieste and Ariete join XXI Corps
        (
            (_move("Trieste", 'hex = "L33"', "I32"), _move("Ariete", 'place = "Rotonda Segnali"', "I32")),
            "force[18].hex",
            "3 division-level units",
        ),
        # three pure armour units: the 22nd and 4th Light armoured brigades join the 2nd
        (
            (_move("22ArmBde", 'hex = "M38"', "M37"), _move("4LtArmBde", 'tank = "Grant"\nhex = "O38"', "M37")),
            "force[10].hex",
            "3 pure armour units",
        ),
    ],
)
def test_stacking_over_the_limits_at_the_start_is_refused(
    tmp_path: Path, moves: tuple[tuple[str, str], ...], field: str, what: str
) -> None:
    err = _refused(_edit(tmp_path, "na-gazala", *moves))
    assert err.field == field and "(CA-K.1)" in err.problem and what in err.problem, str(err)


@pytest.mark.rule("CA-K.1")
def test_stacking_on_the_limits_loads(tmp_path: Path) -> None:
    # three units (1st Free French with the Guards and 3rd Indian Motor brigades); two pure armour units; a corps
    # with a division (two division-level units, one corps)
    path = _edit(
        tmp_path,
        "na-gazala",
        _move("GdsBde", 'place = "Knightsbridge"', "O36"),
        _move("3IndMotBde", 'hex = "P36"', "O36"),
        _move("22ArmBde", 'hex = "M38"', "M37"),
        _move("Trieste", 'hex = "L33"', "I32"),
    )
    s = load_scenario(path)
    assert [u.id for u in family(s) if s.start[u.id] == Hex.parse("O36")] == ["GdsBde", "1FFBde", "3IndMotBde"]
    assert [u.id for u in family(s) if s.start[u.id] == Hex.parse("M37")] == ["2ArmBde", "22ArmBde"]
    assert [u.id for u in family(s) if s.start[u.id] == Hex.parse("I32")] == ["XXICorps", "Trieste"]
    # the 8th Army artillery does not count: with the New Zealanders on W76, two more units may join them there
    alamein = load_scenario(_edit(tmp_path, "na-alamein", _move("4IndDiv", 'hex = "W77"', "W76"), _move("GreekBde", 'hex = "X77"', "W76")))
    assert [u.id for u in family(alamein) if alamein.start[u.id] == Hex.parse("W76")] == ["NZDiv", "8ArmyArty", "4IndDiv", "GreekBde"]


# ---------------------------------------------------------------- CA-SC: set-up and entry zones

NZ_AT_X73 = 'unit = "NZDiv"\nhex = "X73"\nsetup_zone = "allied-setup"'
ARMOUR_ARRIVES = 'unit = "2ArmBde"\ntank = "Crusader I"\narrives = { turn = "II Jul 42", zone = "allied-entry" }'
# hexes of the Qattara Depression's floor inside 1st Alamein's section (the map's terrain, impassable: CA-F.8)
FLOOR = '\n[zones.floor]\nhexes = ["AC72", "AC73"]\n'


def _force_index(path: Path, unit: str) -> int:
    """The index of ``unit``'s ``[[force]]`` table in a scenario file (as the loader's field names count them)."""
    blocks = path.read_text(encoding="utf-8").split("[[force]]")[1:]
    return next(i for i, b in enumerate(blocks) if f'unit = "{unit}"' in b)


@pytest.mark.rule("CA-SC.7")
def test_a_listed_hex_outside_its_set_up_zone_is_refused_and_one_inside_loads(tmp_path: Path) -> None:
    # "not on westernmost mapboard edge hexes": column 53 of the section is out, 54 in
    path = _edit(tmp_path, "na-1st-alamein", (NZ_AT_X73, NZ_AT_X73.replace("X73", "X53")))
    err = _refused(path)
    assert err.field == f"force[{_force_index(path, 'NZDiv')}].hex"
    assert "X53 is outside its set-up zone 'allied-setup' (CA-SC.7)" in err.problem
    s = load_scenario(_edit(tmp_path, "na-1st-alamein", (NZ_AT_X73, NZ_AT_X73.replace("X73", "X54"))))
    assert s.start["NZDiv"] == Hex.parse("X54")


@pytest.mark.rule("CA-SC.7")
def test_an_unknown_set_up_or_entry_zone_is_refused(tmp_path: Path) -> None:
    path = _edit(tmp_path, "na-1st-alamein", (NZ_AT_X73, NZ_AT_X73.replace('"allied-setup"', '"allied-set-up"')))
    err = _refused(path)
    assert err.field == f"force[{_force_index(path, 'NZDiv')}].setup_zone"
    assert "'allied-set-up'" in err.problem and "set-up zone is unknown (CA-SC.7)" in err.problem
    path = _edit(tmp_path, "na-1st-alamein", (ARMOUR_ARRIVES, ARMOUR_ARRIVES.replace('"allied-entry"', '"allied-entrance"')))
    err = _refused(path)
    assert err.field == f"force[{_force_index(path, '2ArmBde')}].arrives.zone"
    assert "'allied-entrance'" in err.problem and "entry zone is unknown (CA-SC.7)" in err.problem


@pytest.mark.rule("CA-SC.7")
@pytest.mark.rule("CA-F.8")
def test_a_set_up_or_entry_zone_with_no_hex_a_unit_may_stand_on_is_refused(tmp_path: Path) -> None:
    m = load_scenario("na-1st-alamein").map
    assert all(str(m.terrain[Hex.parse(h)]) == "depression" for h in ("AC72", "AC73"))
    nz = NZ_AT_X73.replace('hex = "X73"\nsetup_zone = "allied-setup"', 'setup_zone = "floor"')
    path = _edit(tmp_path, "na-1st-alamein", (NZ_AT_X73, nz), append=FLOOR)
    err = _refused(path)
    assert err.field == f"force[{_force_index(path, 'NZDiv')}].setup_zone"
    assert err.problem == "the set-up zone 'floor' holds no hex a unit may stand on (CA-SC.7, CA-F.8)"
    path = _edit(tmp_path, "na-1st-alamein", (ARMOUR_ARRIVES, ARMOUR_ARRIVES.replace('"allied-entry"', '"floor"')), append=FLOOR)
    err = _refused(path)
    assert err.field == f"force[{_force_index(path, '2ArmBde')}].arrives.zone"
    assert err.problem == "the entry zone 'floor' holds no hex a unit may stand on (CA-SC.7, CA-F.8)"
    # one hex of open desert beside them is enough
    fine = FLOOR.replace('"AC73"]', '"AC73", "AB73"]')
    assert str(m.terrain[Hex.parse("AB73")]) == "clear"
    s = load_scenario(_edit(tmp_path, "na-1st-alamein", (NZ_AT_X73, nz), append=fine))
    assert s.setup_zone["NZDiv"] == "floor" and s.start["NZDiv"] is None


@pytest.mark.rule("CA-SC.8")
def test_a_fortification_zone_unknown_or_without_ground_is_refused(tmp_path: Path) -> None:
    forts = '[[fortification]]\nside = "axis"\ncount = 3\nzone = "axis-setup"'
    path = _edit(tmp_path, "na-alam-halfa", (forts, forts.replace('"axis-setup"', '"axis-set-up"')))
    err = _refused(path)
    assert err.field == "fortification[1].zone" and "the fortification zone is unknown (CA-SC.8)" in err.problem
    path = _edit(tmp_path, "na-alam-halfa", (forts, forts.replace('"axis-setup"', '"floor"')), append=FLOOR)
    err = _refused(path)
    assert err.field == "fortification[1].zone"
    assert err.problem == "the fortification zone 'floor' holds no hex a unit may stand on (CA-SC.8, CA-F.8)"


@pytest.mark.rule("CA-R.1")
@pytest.mark.rule("CA-R.3")
def test_with_the_alamein_level_on_a_19th_allied_unit_is_refused_naming_that_level(tmp_path: Path) -> None:
    """Alamein lists the 18 Allied units of the Alamein force level (CA-SC.9); one more is over it."""
    alamein = load_scenario("na-alamein")
    assert setup(alamein).alamein_active and forces().track.force_level("II Oct 42", alamein=True) == 18
    assert len([u for u in family(alamein) if u.side is Side.ALLIED]) == 18
    err = _refused(_edit(tmp_path, "na-alamein", append=_force("1PolBde", "V78")))
    assert (err.field, err.problem) == (
        "force[31].unit",
        "1PolBde would be Allied unit 19 in play, over the Alamein force level (18) (CA-R.1)",
    )


@pytest.mark.rule("CA-R.3")
def test_a_second_british_division_is_refused_in_the_listings_words(tmp_path: Path) -> None:
    err = _refused(_edit(tmp_path, "na-mersa-matruh", append=_force("44Div", "R64")))
    assert err.problem == "44Div would be a second British division beside 50Div before the Allied Alamein Force Level (CA-R.3)"
