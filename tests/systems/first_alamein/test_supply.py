"""1st Alamein's recovery and supply (steps 3 and 4 of each player-turn, FA-SEQ.2-3), with The Gazala Gallop's
supply line (GG-XV.A) and recovery rule (GG-IX.E) where the charts are silent.

Recovery comes first and reads the status the side's last determination gave; the determination then marks
each unit for the next game-turn (ruling).  Boards are one row: the Axis source in A1."""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import Grid, H, advance_to, game_at, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.control import set_control
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.first_alamein import supply as sp
from tobruk.view import view

SOURCE = '[map.supply]\naxis = ["A1"]\nallied = ["A12"]\n'
ROW: Grid = {"rows": 1, "columns": 12}


def determined(units: str, map_extra: str = "", rules: str = "") -> Game:
    """The position after the Axis supply determination of game-turn 1."""
    game = game_at(units, "axis-movement", map_extra=SOURCE + map_extra, rules=rules, **ROW)
    return advance_to(game, "allied-movement")


def supplied(game: Game, uid: str) -> bool:
    return bool(view(game, family_defs(game)[uid].side)["supply"][uid]["supplied"])


def test_a_line_of_seven_mf_from_the_source() -> None:
    game = determined(unit("Near", "axis", "A8") + unit("Far", "axis", "A9"))
    assert supplied(game, "Near") and not supplied(game, "Far")
    assert family_unit(game, "Far").out_of_supply and not family_unit(game, "Near").out_of_supply


def test_roads_and_tracks_cost_the_line_nothing() -> None:
    road = '[[map.route]]\nkind = "minor-track"\nhexes = ["A1", "A2", "A3", "A4"]\n'
    game = determined(unit("Far", "axis", "A11"), map_extra=road)  # 3 free hexes, then 7 MF
    assert supplied(game, "Far")


def zoc_line(mine: str, spent: bool) -> Game:
    """Two rows, the Axis source in B1, an Allied unit in A2 whose ZOC covers A1, A3, B1 and B2."""
    units = unit("Mine", "axis", mine, factors="1-1-2") + unit("E", "allied", "A2", factors="1-1-2")
    game = game_at(
        units,
        "axis-movement",
        rows=2,
        columns=12,
        map_extra='[map.supply]\naxis = ["B1"]\n',
        rules='spent_at_start = ["E"]' if spent else "",
    )
    return advance_to(game, "allied-movement")


def test_a_spent_enemy_zoc_costs_one_mf_more() -> None:
    # B1-B2 (1 MF and 1 for the ZOC)-B3-B4-B5-B6-A7: 7 MF; A8 one more
    assert supplied(zoc_line("A7", spent=True), "Mine")
    assert not supplied(zoc_line("A8", spent=True), "Mine")


def test_an_unspent_enemy_zoc_blocks_the_line() -> None:
    assert not supplied(zoc_line("A7", spent=False), "Mine")


def test_a_box_supplies_the_allied_units_in_it() -> None:
    units = unit("SA", "allied", "A2", factors="2-2-2") + unit("Pz", "axis", "A11")
    game = game_at(units, "axis-movement", map_extra='[map.fortifications]\nallied = ["A2"]\n', **ROW)
    advance_to(game, "axis-movement", turn=2)  # after the Allied determination (no Allied source on this board)
    assert view(game, Side.ALLIED)["supply"]["SA"]["how"] == "in a box"


def test_a_german_brigade_through_a_german_division() -> None:
    units = (
        unit("Div", "axis", "A8")
        + unit("Recce", "axis", "A9", echelon="subdivisional", type_="recce")
        + unit("It", "axis", "A9", echelon="subdivisional", nationality="italian")
    )
    game = determined(units)
    assert supplied(game, "Recce") and not supplied(game, "It")


def test_an_enemy_village_blocks_the_line() -> None:
    village = '[map.terrain]\nvillage = ["A3"]\n'
    game = determined(unit("Mine", "axis", "A5"), map_extra=village)  # A3 is nobody's and outside any Allied zone
    assert supplied(game, "Mine")  # ... so it starts Axis (ruling)
    game = game_at(unit("Mine", "axis", "A5"), "axis-movement", map_extra=SOURCE + village, **ROW)
    set_control(game, {H("A3"): Side.ALLIED})  # as if an Allied unit had passed through it (GG-XVI)
    advance_to(game, "allied-movement")
    assert not supplied(game, "Mine")


def test_recovery_reads_the_last_determination() -> None:
    units = unit("Cut", "axis", "A10") + unit("Fed", "axis", "A4")
    game = game_at(units, "axis-movement", map_extra=SOURCE, rules='spent_at_start = ["Cut", "Fed"]', **ROW)
    family_unit(game, "Fed").out_of_supply = True  # as a determination left it, though its line is open now
    game.forget_caches()
    advance_to(game, "allied-movement")
    assert family_unit(game, "Fed").disrupted  # out of supply at the recovery step: stays spent ...
    assert not family_unit(game, "Fed").out_of_supply  # ... then the determination finds it in supply
    assert not family_unit(game, "Cut").disrupted  # no determination against it yet: it recovers ...
    assert family_unit(game, "Cut").out_of_supply  # ... and only then is found out of supply
    advance_to(game, "allied-movement", turn=2)
    assert not family_unit(game, "Fed").disrupted  # the next recovery


def test_attacking_out_of_supply_spends_the_attacker() -> None:
    units = unit("A", "axis", "A10", type_="armour", factors="4-4-4") + unit("D", "allied", "A11", factors="1-1-2")
    game = game_at(units, "axis-attacks", map_extra=SOURCE, dice=ForcedDice([3]), **ROW)  # 4:1, die 3: R2
    family_unit(game, "A").out_of_supply = True
    game.play("attack A11 with A")
    game.play("resolve 1")
    game.play("no-retreat none")
    assert family_unit(game, "A").disrupted  # GG-XV.B


# --- what the map and the log show of a determination ----------------------------------------------------
def logged(game: Game, start: str) -> list[tuple[str, str]]:
    return [(e.text, e.kind) for e in game.state.entries if e.text.startswith(start)]


@pytest.mark.rule("GG-XV.A.2")
def test_each_units_line_is_shown_from_the_source() -> None:
    game = determined(unit("Near", "axis", "A3") + unit("Far", "axis", "A10"))
    seen = view(game, Side.AXIS)["supply"]
    assert seen["Near"] == {"supplied": True, "how": "line from A1", "route": ["A1", "A2", "A3"]}
    assert seen["Far"] == {"supplied": False, "how": "out of supply", "route": []}
    assert logged(game, "Axis supply") == [("Axis supply: 1 units in supply, out of supply: Far.", "supply")]


@pytest.mark.rule("GG-XV.A.2")
def test_a_determination_with_every_unit_in_supply_is_a_note() -> None:
    game = determined(unit("Near", "axis", "A3") + unit("Nearer", "axis", "A2"))
    assert logged(game, "Axis supply") == [("Axis supply: 2 units in supply.", "note")]


@pytest.mark.rule("GG-XV.A.2")
def test_the_log_names_every_unit_out_of_supply() -> None:
    game = determined(unit("Far", "axis", "A10") + unit("Farther", "axis", "A11"))
    assert logged(game, "Axis supply") == [("Axis supply: 0 units in supply, out of supply: Far, Farther.", "supply")]


@pytest.mark.rule("GG-XV.A.1")
def test_a_unit_in_its_box_is_in_supply_with_no_line() -> None:
    units = unit("SA", "allied", "A2", factors="2-2-2") + unit("Pz", "axis", "A11")
    game = game_at(units, "axis-movement", map_extra='[map.fortifications]\nallied = ["A2"]\n', **ROW)
    advance_to(game, "axis-movement", turn=2)  # no Allied source on this board
    assert view(game, Side.ALLIED)["supply"]["SA"] == {"supplied": True, "how": "in a box", "route": []}
    assert not family_unit(game, "SA").out_of_supply


@pytest.mark.rule("GG-XV.A.3")
def test_a_german_brigade_is_supplied_only_through_a_supplied_german_division_in_or_next_to_its_hex() -> None:
    def brigade(div: str, bde: str) -> dict[str, object]:
        units = unit("Div", "axis", div) + unit("Bde", "axis", bde, echelon="subdivisional", type_="armour")
        return dict(view(determined(units), Side.AXIS)["supply"]["Bde"])

    # A8 is 7 MF from the source, A9 8: the division in A8 is in supply, the brigade in A9 only through it
    assert brigade("A8", "A9") == {"supplied": True, "how": "through Div", "route": ["A9", "A8"]}
    assert brigade("A3", "A9")["supplied"] is False  # the division is in supply but not next to the brigade
    assert brigade("A10", "A9")["supplied"] is False  # next to it, but out of supply itself (A10: 9 MF)


@pytest.mark.rule("GG-XV.A.2")
def test_each_side_has_its_own_supply_status_in_one_position() -> None:
    game = game_at(unit("Pz", "axis", "A3") + unit("SA", "allied", "A10"), "axis-movement", map_extra=SOURCE, **ROW)
    assert set(sp.status(game, Side.AXIS)) == {"Pz"} and set(sp.status(game, Side.ALLIED)) == {"SA"}
    assert H("A2") in sp.trace(game, Side.AXIS) and H("A2") not in sp.trace(game, Side.ALLIED)  # A12 is 10 MF off


@pytest.mark.rule("GG-XV.A.2")
def test_a_vacant_enemy_box_outside_the_enemys_zoc_does_not_block_the_line() -> None:
    game = determined(unit("Mine", "axis", "A5") + unit("E", "allied", "A11"), map_extra='[map.fortifications]\nallied = ["A3"]\n')
    assert supplied(game, "Mine")  # the line runs A1-A2-A3-A4-A5: the box in A3 is nobody's to hold it


@pytest.mark.rule("GG-IX.E")
def test_the_recovery_log_names_who_recovers_and_who_stays_spent() -> None:
    units = unit("Fed", "axis", "A4") + unit("Fed2", "axis", "A3") + unit("Cut", "axis", "A10") + unit("Cut2", "axis", "A11")
    game = game_at(units, "axis-movement", map_extra=SOURCE, rules='spent_at_start = ["Fed", "Fed2", "Cut", "Cut2"]', **ROW)
    family_unit(game, "Cut").out_of_supply = family_unit(game, "Cut2").out_of_supply = True  # as the last determination left them
    advance_to(game, "allied-movement")
    assert logged(game, "Axis recovery") == [("Axis recovery: Fed, Fed2 recover; still spent (out of supply): Cut, Cut2.", "note")]
    assert not family_unit(game, "Fed").disrupted and family_unit(game, "Cut").disrupted


@pytest.mark.rule("GG-IX.E")
def test_the_recovery_log_when_nobody_recovers() -> None:
    game = game_at(unit("Fresh", "axis", "A4"), "axis-movement", map_extra=SOURCE, **ROW)
    advance_to(game, "allied-movement")
    assert logged(game, "Axis recovery") == [("Axis recovery: no unit recovers.", "note")]
