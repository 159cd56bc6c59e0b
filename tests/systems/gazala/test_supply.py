"""Supply in The Gazala Gallop: known answers on small maps (GG-XV, IX.E, XVI)."""

from __future__ import annotations

import pytest

from tests.conftest import jump_to, make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala.actions import Convoy
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


def track(first: int, last: int, letter: str = "A", kind: str = "minor-track") -> str:
    hexes = ", ".join(f'"{letter}{c}"' for c in range(first, last + 1))
    return f'[[map.route]]\nkind = "{kind}"\nhexes = [{hexes}]\n'


def game_with(
    units: str, extra: str = "", *, rows: int = 3, columns: int = 16, dice: list[int] | None = None, phase: str = "axis-movement"
) -> Game:
    scenario = make_scenario(units, rows=rows, columns=columns, map_extra=extra)
    game = Game(scenario, dice=ForcedDice(dice or []))
    for uid, d in family_defs(game).items():
        if d.side is ALLIED:
            family_unit(game, uid).activated = True
    return jump_to(game, phase)


SOURCE = '[map.supply]\naxis = ["A1"]\n'


def supplied(game: Game, uid: str) -> bool:
    side = family_defs(game)[uid].side
    return bool(sp.status(game, side)[uid]["supplied"])


@pytest.mark.rule("GG-XV.A.2")
def test_seven_mf_from_the_end_of_the_track() -> None:
    # track A1-A5 from the source; then 7 hexes cross-country: A12 is the last hex in supply
    units = unit_toml("In", "axis", "A12") + unit_toml("Out", "axis", "A13")
    game = game_with(units, SOURCE + track(1, 5))
    assert supplied(game, "In") and not supplied(game, "Out")
    assert sp.status(game, AXIS)["In"]["route"][0] == "A1"


@pytest.mark.rule("GG-XV.A.2")
@pytest.mark.rule("GG-VIII.B")
def test_rain_shortens_the_line_to_5() -> None:
    units = unit_toml("In", "axis", "A10") + unit_toml("Out", "axis", "A11")
    game = game_with(units, SOURCE + track(1, 5))
    game.vars.weather = "rainstorm"
    assert supplied(game, "In") and not supplied(game, "Out")


def test_sandstorm_line_is_3_plus_a_die() -> None:
    units = unit_toml("In", "axis", "A10") + unit_toml("Out", "axis", "A11")
    game = game_with(units, SOURCE + track(1, 5))
    game.vars.weather = "sandstorm"
    game.vars.supply_die = {"axis": 2}  # the die rolled for this determination: 3 + 2 = 5 MF
    assert supplied(game, "In") and not supplied(game, "Out")


@pytest.mark.rule("GG-XV.A.2")
def test_undisrupted_enemy_zoc_blocks() -> None:
    # two rows; Tommy in B7 has A7 and A8 (and B6, B8) in its ZOC: every way east from the track is shut
    enemy = unit_toml("Tommy", "allied", "B7", type_="infantry", factors="1-1-2")
    game = game_with(unit_toml("Pz", "axis", "A9") + enemy, SOURCE + track(1, 6), rows=2)
    assert not supplied(game, "Pz")
    assert sp.status(game, AXIS)["Pz"]["route"] == []


@pytest.mark.rule("GG-XV.A.2")
def test_through_a_disrupted_zoc_at_one_mf_more_and_through_friends_free() -> None:
    # a one-row map: enemy in C? Use rows=3: enemy in C8 has ZOC B7, B8, C7, C9, D? - row A is clear.
    # Row A only: the enemy in B7 covers A7 and A8 (B7's NW and NE).
    enemy = unit_toml("Tommy", "allied", "B7", type_="infantry", factors="1-1-2")
    units = unit_toml("Pz", "axis", "A11") + enemy  # A6 is the end of the track: A7..A11 is 5 hexes
    game = game_with(units, SOURCE + track(1, 6), rows=2)
    assert not supplied(game, "Pz")  # A7 and A8 in the ZOC of an undisrupted unit; row B is worse
    family_unit(game, "Tommy").disrupted = True
    assert supplied(game, "Pz")
    assert sp.status(game, AXIS)["Pz"]["route"][-5:] == ["A7", "A8", "A9", "A10", "A11"]
    game = game_with(unit_toml("Pz", "axis", "A13") + enemy, SOURCE + track(1, 6), rows=2)
    family_unit(game, "Tommy").disrupted = True
    assert not supplied(game, "Pz")  # 7 hexes + 2 extra = 9 MF > 7
    friend = unit_toml("Pal", "axis", "A7", type_="infantry") + unit_toml("Pal2", "axis", "A8", type_="infantry")
    game = game_with(unit_toml("Pz", "axis", "A13") + enemy + friend, SOURCE + track(1, 6), rows=2)
    assert supplied(game, "Pz")  # friendly-occupied hexes: always, and at no extra cost


@pytest.mark.rule("GG-VIII.A")
def test_sandstorm_lets_lines_through_undisrupted_zoc_at_one_more() -> None:
    enemy = unit_toml("Tommy", "allied", "B7", type_="infantry", factors="1-1-2")
    game = game_with(unit_toml("Pz", "axis", "A9") + enemy, SOURCE + track(1, 6), rows=2)
    game.vars.weather = "sandstorm"
    game.vars.supply_die = {"axis": 2}  # 5 MF: A7 (2), A8 (2), A9 (1)
    assert supplied(game, "Pz")


@pytest.mark.rule("GG-XV.A.2")
def test_not_through_a_disrupted_zoc_across_an_enemy_minefield() -> None:
    enemy = unit_toml("Tommy", "allied", "B7", type_="infantry", factors="1-1-2")
    # the belt closes every way into Tommy's ZOC from the track's end (A6-A7, A6-B6, B5-B6)
    mines = (
        '[map.hexsides]\nminefield = [{ side = "A6|A7", owner = "allied" }, { side = "A6|B6", owner = "allied" },'
        ' { side = "B5|B6", owner = "allied" }]\n'
    )
    game = game_with(unit_toml("Pz", "axis", "A9") + enemy, SOURCE + track(1, 6) + mines, rows=2)
    family_unit(game, "Tommy").disrupted = True
    assert not supplied(game, "Pz")


@pytest.mark.rule("GG-XI.A.4")
def test_not_through_an_enemy_box_under_enemy_control() -> None:
    box = '[map.fortifications]\nallied = ["A7"]\n'
    game = game_with(unit_toml("Pz", "axis", "A9"), SOURCE + track(1, 6) + box, rows=1)
    assert supplied(game, "Pz")  # vacant and in no enemy ZOC: no enemy control
    game = game_with(
        unit_toml("Pz", "axis", "A9") + unit_toml("Tommy", "allied", "A8", type_="infantry"), SOURCE + track(1, 6) + box, rows=1
    )
    assert not supplied(game, "Pz")
    game = game_with(unit_toml("Pz", "axis", "A9") + unit_toml("Held", "axis", "A7"), SOURCE + track(1, 6) + box, rows=1)
    assert supplied(game, "Pz")  # a friendly unit in it


@pytest.mark.rule("GG-XVI")
def test_villages_under_enemy_control_block_and_change_hands_by_passing_through() -> None:
    village = '[map.terrain]\nvillage = ["A7"]\n'
    game = game_with(unit_toml("Pz", "axis", "A9"), SOURCE + track(1, 6) + village, rows=1)
    game.vars.villages = {"A7": "allied"}
    assert not supplied(game, "Pz")
    game.play(Move("Pz", (H("A9"), H("A8"), H("A7"), H("A6"))))
    assert gazala_vars(game).villages["A7"] == "axis"
    assert supplied(game, "Pz")


@pytest.mark.rule("GG-XV.A.1")
def test_a_box_supplies_the_allied_units_on_it() -> None:
    box = '[map.fortifications]\nallied = ["A3"]\n'
    units = unit_toml("Boxed", "allied", "A3", type_="infantry") + unit_toml("Loose", "allied", "A4", type_="infantry")
    game = game_with(units, '[map.supply]\naxis = ["C1"]\nallied = ["C16"]\n' + box, rows=3)
    status = sp.status(game, ALLIED)
    assert status["Boxed"]["supplied"] and not status["Loose"]["supplied"]


@pytest.mark.rule("GG-XV.A.1")
def test_tobruk_cut_off_supplies_seven_units() -> None:
    # Allied sources: A1 (a fortress inside the map) and C16 on the east edge; enemy units wall them apart
    wall = "".join(unit_toml(f"W{r}", "axis", f"{r}8", type_="infantry", factors="1-1-2") for r in "ABC")
    allied = "".join(
        unit_toml(f"U{i}", "allied", f"{'AB'[i % 2]}{1 + i // 2}", echelon="subdivisional", type_="infantry", factors="1-1-2")
        for i in range(9)
    )
    game = game_with(wall + allied, '[map.supply]\naxis = ["C14"]\nallied = ["A1", "C16"]\n', rows=3)
    status = sp.status(game, ALLIED)
    inside = [u for u in status if u.startswith("U")]
    assert sum(status[u]["supplied"] for u in inside) == 7
    # the two left out are the farthest from the fortress
    left_out = {u for u in inside if not status[u]["supplied"]}
    assert left_out == {"U7", "U8"}


@pytest.mark.rule("GG-XV.A.3")
def test_german_subdivisional_units_through_a_german_division() -> None:
    div = (
        '[[unit]]\nid = "21Pz"\nname = "21Pz"\nside = "axis"\nnationality = "german"\n'
        'echelon = "division"\ntype = "armour"\nfactors = "7-6-4"\nhex = "A12"\n'
    )
    recce = (
        '[[unit]]\nid = "Recce"\nname = "Recce"\nside = "axis"\nnationality = "german"\n'
        'echelon = "subdivisional"\ntype = "recce"\nfactors = "1-1-5"\nhex = "A13"\n'
    )
    game = game_with(div + recce, SOURCE + track(1, 5), rows=1)
    status = sp.status(game, AXIS)
    assert status["21Pz"]["supplied"] and status["Recce"]["supplied"] and "21Pz" in status["Recce"]["how"]
    # an Italian division does not do it
    ital = div.replace('nationality = "german"', 'nationality = "italian"')
    game = game_with(ital + recce, SOURCE + track(1, 5), rows=1)
    assert not sp.status(game, AXIS)["Recce"]["supplied"]


def recovery(game: Game) -> Game:
    """Play on to the Axis recovery and supply determination phase."""
    while game.decision is not None and game.phase.key != "axis-recovery":
        game.play(EndPhase())
    return game


@pytest.mark.rule("GG-XV.A.4")
def test_truck_convoy_extends_the_line_by_a_die() -> None:
    far = unit_toml("15Pz", "axis", "A14")  # 9 hexes from the end of the track: needs 7 + 2 or more
    game = recovery(game_with(far, SOURCE + track(1, 5), rows=1, dice=[2], phase="axis-attacks"))
    assert game.decision is not None and game.decision.clause == "GG-XV.A.4"
    assert Convoy("15Pz") in game.legal_orders()
    game.play(Convoy("15Pz"))  # the only candidate: the phase then ends by itself
    assert [r.value for r in game.dice.log] == [2]
    assert game.phase.key != "axis-recovery" and not family_unit(game, "15Pz").out_of_supply
    game = recovery(game_with(far, SOURCE + track(1, 5), rows=1, dice=[1], phase="axis-attacks"))
    game.play(Convoy("15Pz"))
    assert family_unit(game, "15Pz").out_of_supply


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.parametrize(("dice", "supplied"), [([1, 2, 2, 2], True), ([1, 2, 2, 1], False)])
def test_a_convoy_to_a_survivable_axis_unit_in_a_sandstorm_rolls_three_dice(dice: list[int], supplied: bool) -> None:
    """In a sandstorm the line is 3 MF and a convoy rolls 2 dice; a survivable Axis unit's convoy rolls one more. 9 hexes
    past the track's end: 3 + 2 + 2 + 2 reaches it, 3 + 2 + 2 + 1 does not (the first die is the line's own)."""
    far = unit_toml("Recce", "axis", "A14", type_="recce", factors="1-1-5", extra='flags = ["survivable"]')
    game = game_with(far, SOURCE + track(1, 5), rows=1, dice=dice, phase="axis-attacks")
    gazala_vars(game).weather = "sandstorm"
    game.forget_caches()
    recovery(game).play(Convoy("Recce"))
    assert [r.purpose for r in game.dice.log] == ["Axis supply line in a sandstorm", *["convoy to Recce"] * 3]
    assert family_unit(game, "Recce").out_of_supply is not supplied


@pytest.mark.rule("GG-XV.A.4")
def test_british_armoured_brigades_within_2_hexes_of_the_convoy_recipient() -> None:
    bde = (
        '[[unit]]\nid = "{id}"\nname = "{id}"\nside = "allied"\nnationality = "british"\n'
        'echelon = "subdivisional"\ntype = "armour"\nfactors = "5-4-4"\nformation = "1st Armd"\nhex = "{h}"\n'
    )
    units = bde.format(id="2Armd", h="C3") + bde.format(id="22Armd", h="C5") + bde.format(id="Far", h="A1")
    game = game_with(
        units, '[map.supply]\naxis = ["A16"]\nallied = ["C16"]\n' + track(11, 16, "C"), rows=3, dice=[6], phase="allied-attacks"
    )
    while game.phase.key != "allied-recovery":
        game.play(EndPhase())
    game.play(Convoy("2Armd"))  # C3 to C11: 8 hexes, 7 + 6 MF is enough
    status = sp.status(game, ALLIED)
    assert status["2Armd"]["supplied"] and status["22Armd"]["supplied"] and not status["Far"]["supplied"]


@pytest.mark.rule("GG-IX.E")
def test_recovery_only_in_supply_in_the_own_recovery_phase() -> None:
    units = (
        unit_toml("In", "axis", "A6")
        + unit_toml("Out", "axis", "A15", type_="infantry")
        + unit_toml("Tommy", "allied", "C16", type_="infantry")
    )
    game = game_with(units, SOURCE + track(1, 5), rows=3, phase="axis-attacks")
    for uid in ("In", "Out", "Tommy"):
        family_unit(game, uid).disrupted = True
    recovery(game)
    game.play(EndPhase())  # "Out" could get a convoy: decline
    assert not family_unit(game, "In").disrupted and family_unit(game, "Out").disrupted and family_unit(game, "Out").out_of_supply
    assert family_unit(game, "Tommy").disrupted  # not the Allied recovery phase yet


@pytest.mark.rule("GG-XV.B")
def test_out_of_supply_moving_over_half_the_mf_or_attacking_disrupts() -> None:
    game = game_with(unit_toml("Pz", "axis", "A1") + unit_toml("Pz2", "axis", "A10"), rows=1)
    family_unit(game, "Pz").out_of_supply = True
    family_unit(game, "Pz2").out_of_supply = True
    game.play(Move("Pz", (H("A1"), H("A2"), H("A3"))))  # 2 MF of a printed 4: not over half
    assert not family_unit(game, "Pz").disrupted
    game.play(Move("Pz2", (H("A10"), H("A11"), H("A12"), H("A13"))))  # 3 MF: over half
    assert family_unit(game, "Pz2").disrupted
    from tests.conftest import attack_game
    from tobruk.mechanics.actions import Attack, NoRetreat, Resolve

    game = attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4") + unit_toml("Def", "allied", "B4", type_="armour", factors="1-2-2"),
        dice=ForcedDice([3]),
    )
    family_unit(game, "Att").out_of_supply = True
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(NoRetreat())
    assert family_unit(game, "Att").disrupted  # GG-XIV.A.3: it could attack, and is disrupted for it
