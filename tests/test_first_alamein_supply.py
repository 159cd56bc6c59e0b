"""1st Alamein's recovery and supply (steps 3 and 4 of each player-turn, FA-SEQ.2-3), with The Gazala Gallop's
supply line (GG-XV.A) and recovery rule (GG-IX.E) where the charts are silent.

Recovery comes first and reads the status the side's last determination gave; the determination then marks
each unit for the next game-turn (ruling).  Boards are one row: the Axis source in A1."""

from __future__ import annotations

from tests.first_alamein_kit import H, advance_to, game_at, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.control import set_control
from tobruk.view import view

SOURCE = '[map.supply]\naxis = ["A1"]\nallied = ["A12"]\n'
ROW = {"rows": 1, "columns": 12}


def determined(units: str, map_extra: str = "", rules: str = "") -> Game:
    """The position after the Axis supply determination of game-turn 1."""
    game = game_at(units, "axis-movement", map_extra=SOURCE + map_extra, rules=rules, **ROW)
    return advance_to(game, "allied-movement")


def supplied(game: Game, uid: str) -> bool:
    return bool(view(game, game.defs[uid].side)["supply"][uid]["supplied"])


def test_a_line_of_seven_mf_from_the_source() -> None:
    game = determined(unit("Near", "axis", "A8") + unit("Far", "axis", "A9"))
    assert supplied(game, "Near") and not supplied(game, "Far")
    assert game.unit("Far").out_of_supply and not game.unit("Near").out_of_supply


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
    game.unit("Fed").out_of_supply = True  # as a determination left it, though its line is open now
    game.forget_caches()
    advance_to(game, "allied-movement")
    assert game.unit("Fed").disrupted  # out of supply at the recovery step: stays spent ...
    assert not game.unit("Fed").out_of_supply  # ... then the determination finds it in supply
    assert not game.unit("Cut").disrupted  # no determination against it yet: it recovers ...
    assert game.unit("Cut").out_of_supply  # ... and only then is found out of supply
    advance_to(game, "allied-movement", turn=2)
    assert not game.unit("Fed").disrupted  # the next recovery


def test_attacking_out_of_supply_spends_the_attacker() -> None:
    units = unit("A", "axis", "A10", type_="armour", factors="4-4-4") + unit("D", "allied", "A11", factors="1-1-2")
    game = game_at(units, "axis-attacks", map_extra=SOURCE, dice=ForcedDice([3]), **ROW)  # 4:1, die 3: R2
    game.unit("A").out_of_supply = True
    game.play("attack A11 with A")
    game.play("resolve 1")
    game.play("no-retreat none")
    assert game.unit("A").disrupted  # GG-XV.B
