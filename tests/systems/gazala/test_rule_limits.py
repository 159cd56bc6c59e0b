"""Both sides of the rules' thresholds, and the guards a mutation run found untested.

Each expected value is worked out in the comments from the clause it names.
"""

from __future__ import annotations

import pytest

from tests.conftest import at_phase, attack_game, movement_game, unit_toml
from tests.systems.gazala.test_air import game_at
from tests.systems.gazala.test_supply import SOURCE, game_with, track
from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Airstrike, Attack, EndPhase, EndRetreat, Move, NoIntercept, NoRetreat, Place, Resolve
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala.actions import Gallop
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


def refused(game: Game, order: Action | str, clause: str) -> IllegalOrderError:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as err:
        game.play(order)
    assert err.value.clause == clause and game.state_hash() == before
    return err.value


# --- attacks -------------------------------------------------------------------------------------------------------


def duel(more: str = "", side: str = "axis", dice: list[int] | None = None) -> Game:
    att, dfn = ("axis", "allied") if side == "axis" else ("allied", "axis")
    units = unit_toml("Att", att, "B3", factors="6-1-4") + unit_toml("Def", dfn, "B4", factors="1-2-2") + more
    game: Game = attack_game(units, side=side, dice=ForcedDice(dice or []))
    return game


@pytest.mark.rule("GG-XIV.C.1")
def test_the_attack_phase_cannot_end_with_a_declared_attack_unresolved() -> None:
    game = duel(dice=[1])  # 6 to 2, 3:1, die 1: D
    game.play(Attack((H("B4"),), ("Att",)))
    err = refused(game, EndPhase(), "GG-XIV.C.1")
    assert "1" in err.reason
    game.play(Resolve(1))
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(NoRetreat())
    game.play(EndRetreat())  # the D's voluntary retreat: none
    game.play(EndPhase())  # resolved: the phase may end (Def was attacked, GG-XIV.A.2)
    assert game.phase.key != "axis-attacks"


@pytest.mark.rule("GG-XIV.A.2")
def test_a_disrupted_unit_beside_an_undisrupted_one_does_not_lift_the_duty() -> None:
    game = duel(unit_toml("Def2", "allied", "B4", factors="1-1-2"))
    family_unit(game, "Def").disrupted = True  # Def2 in the same hex is still undisrupted: the hex must be attacked
    refused(game, EndPhase(), "GG-XIV.A.2")
    family_unit(game, "Def2").disrupted = True  # now every unit there is disrupted: no duty, and Att is not disrupted
    game.play(EndPhase())
    assert game.phase.key != "axis-attacks"


@pytest.mark.rule("GG-XIV.A.2")
def test_a_disrupted_attacker_creates_no_duty() -> None:
    # a disrupted unit may not attack (GG-XIV.A.3), so its neighbours need not be attacked; it takes GG-IX.B's AR
    game = duel()
    family_unit(game, "Att").disrupted = True
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.clause == "GG-XIV.D.1" and d.side is ALLIED  # the AR's distance, not a refusal


@pytest.mark.rule("GG-V.A.2")
def test_an_inactive_allied_unit_may_not_attack_and_owes_no_attack() -> None:
    game = duel(side="allied")
    family_unit(game, "Att").activated = False
    refused(game, Attack((H("B4"),), ("Att",)), "GG-V.A.2")
    game.play(EndPhase())  # nobody able to attack Def: no duty
    assert game.phase.key != "allied-attacks"
    game = duel(side="allied")
    refused(game, EndPhase(), "GG-XIV.A.2")  # the same unit active must attack


@pytest.mark.rule("GG-V.A.3")
def test_an_allied_unit_attacked_from_the_air_is_activated() -> None:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry", factors="1-1-2"), "axis-airstrike", [3])
    family_unit(game, "Tommy").activated = False
    game.play(Airstrike(H("B4")))
    if game.decision is not None and game.decision.clause == "GG-X.B.3":
        game.play(NoIntercept())
    assert family_unit(game, "Tommy").activated


# --- reinforcements, convoys ---------------------------------------------------------------------------------------


@pytest.mark.rule("GG-VII.B")
def test_the_reinforcement_never_enters_on_enemy_units(gazala: Scenario) -> None:
    game = at_phase(Game(gazala), "allied-movement")
    while game.turn < 7:
        game.play(EndPhase())
        game = at_phase(game, "allied-movement")
    family_unit(game, "15Pz").hex = H("K18")  # an Axis unit on one of the east-edge sources
    legal = game.legal_orders()
    assert Place("1ArmdBde", H("K18")) not in legal and Place("1ArmdBde", H("G18")) in legal
    refused(game, Place("1ArmdBde", H("K18")), "GG-VII.B")


def infantry(uid: str, side: str, hex_: str, attack: int) -> str:
    return unit_toml(uid, side, hex_, type_="infantry", factors=f"{attack}-3-2")


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.parametrize(("side", "limit"), [("axis", 4), ("allied", 6)])
def test_a_convoy_carries_as_many_attack_factors_as_convoys_are_left(side: str, limit: int) -> None:
    # one convoy per attack factor: exactly the side's convoys is enough, one factor more is not
    game = movement_game(infantry("Inf", side, "A1", limit) + infantry("Big", side, "B1", limit + 1), side=side)
    refused(game, Move("Big", (H("B2"),), trucks=True), "GG-XV.A.4")
    game.play(Move("Inf", (H("A2"),), trucks=True))
    assert mv.convoys_left(game, Side(side)) == 0


@pytest.mark.rule("GG-XV.A.4")
def test_the_convoys_are_there_again_each_game_turn() -> None:
    game = movement_game(infantry("Inf", "axis", "A1", 4) + infantry("Inf2", "axis", "C1", 4))
    game.play(Move("Inf", (H("A2"),), trucks=True))
    assert mv.convoys_left(game, AXIS) == 0
    game.play(EndPhase())
    game = at_phase(game, "axis-movement")
    assert game.turn == 2 and mv.convoys_left(game, AXIS) == 4
    game.play(Move("Inf2", (H("C2"),), trucks=True))


# --- supply ----------------------------------------------------------------------------------------------------------


@pytest.mark.rule("GG-XV.A.1")
def test_an_axis_fort_is_no_source() -> None:
    # the box rule is the Allies': an Axis unit in its own fort with no line is out of supply
    fort = '[map.fortifications]\naxis = ["A12"]\n'
    game = game_with(unit_toml("Pz", "axis", "A12"), SOURCE + track(1, 2) + fort, rows=1)
    assert not sp.status(game, AXIS)["Pz"]["supplied"]


GERMAN = (
    '[[unit]]\nid = "{id}"\nname = "{id}"\nside = "axis"\nnationality = "german"\n'
    'echelon = "{echelon}"\ntype = "{type}"\nfactors = "{factors}"\nhex = "{hex}"\n'
)


@pytest.mark.rule("GG-XV.A.3")
def test_a_subdivisional_unit_is_not_supplied_through_a_division_out_of_supply() -> None:
    # the track ends in A5: A12 is 7 hexes on (in supply), A13 8 and A14 9 (out). Recce out of its own line, next
    # to the division: supplied through it in A12-A13, not through it in A13-A14
    for div_hex, recce_hex, supplied in (("A12", "A13", True), ("A13", "A14", False)):
        div = GERMAN.format(id="21Pz", echelon="division", type="armour", factors="7-6-4", hex=div_hex)
        recce = GERMAN.format(id="Recce", echelon="subdivisional", type="recce", factors="1-1-5", hex=recce_hex)
        status = sp.status(game_with(div + recce, SOURCE + track(1, 5), rows=1), AXIS)
        assert status["21Pz"]["supplied"] == supplied and status["Recce"]["supplied"] == supplied


# --- movement limits -----------------------------------------------------------------------------------------------

CRUSADER = unit_toml("22Armd", "allied", "A1", echelon="subdivisional", extra='flags = ["crusader"]')
ROAD = '[[map.route]]\nkind = "road"\nhexes = [' + ", ".join(f'"A{c}"' for c in range(1, 21)) + "]\n"


@pytest.mark.rule("GG-XIII.D")
def test_crusader_breakdown_is_rolled_from_2_mf_used() -> None:
    # 4 road hexes at 1/4 MF: exactly 1 MF used, no roll
    game = movement_game(CRUSADER, ROAD, rows=1, columns=20, side="allied", dice=ForcedDice([]))
    game.play(Move("22Armd", tuple(H(f"A{c}") for c in range(1, 6))))
    assert game.dice.log == [] and family_unit(game, "22Armd").hex == H("A5")
    # 5 road hexes: 1 1/4 MF, rounded up to 2 MF used: a die against 1; a 1 breaks it down after the first MF (A5)
    game = movement_game(CRUSADER, ROAD, rows=1, columns=20, side="allied", dice=ForcedDice([1]))
    game.play(Move("22Armd", tuple(H(f"A{c}") for c in range(1, 7))))
    assert [r.value for r in game.dice.log] == [1]
    assert family_unit(game, "22Armd").hex == H("A5") and family_unit(game, "22Armd").disrupted
    game = movement_game(CRUSADER, ROAD, rows=1, columns=20, side="allied", dice=ForcedDice([2]))
    game.play(Move("22Armd", tuple(H(f"A{c}") for c in range(1, 7))))
    assert family_unit(game, "22Armd").hex == H("A6") and not family_unit(game, "22Armd").disrupted


GALLOP_LINE = '[map.zones]\n"gazala-line" = ["A2", "B2", "C2"]\n'


@pytest.mark.rule("GG-XIII.E")
def test_a_galloping_unit_that_can_reach_column_14_must_end_there() -> None:
    # twice (4 + 1) MF = 10 MF cross-country from B4: B14 is 10 hexes east, the first column "east of column 13"
    units = unit_toml("Arm", "allied", "B4", echelon="subdivisional", type_="armour")
    game = movement_game(units, GALLOP_LINE.replace('"A2", "B2", "C2"', '"A3", "B3", "C3"'), rows=3, columns=20, side="allied")
    game.play(Gallop())
    reach = mv.destinations(game, "Arm")
    assert {h.col + 1 for h in reach} == {14}
    refused(game, Move("Arm", tuple(H(f"B{c}") for c in range(4, 14))), "GG-XIII.E")  # ends in column 13
    game.play(Move("Arm", tuple(H(f"B{c}") for c in range(4, 15))))
    assert family_unit(game, "Arm").hex == H("B14") and "Arm" not in mv.galloping(game)


@pytest.mark.rule("GG-XIII.E")
def test_a_galloping_unit_that_cannot_pass_column_13_may_end_anywhere_on_its_way() -> None:
    # from B5, 10 MF reach B15; from B3 they reach B13 only: nothing east of 13, so no hex is forced
    units = unit_toml("Arm", "allied", "B3", echelon="subdivisional", type_="armour")
    game = movement_game(units, GALLOP_LINE, rows=3, columns=20, side="allied")
    game.play(Gallop())
    reach = mv.destinations(game, "Arm")
    assert max(h.col + 1 for h in reach) == 13 and H("B4") in reach


# --- the siege of Tobruk -------------------------------------------------------------------------------------------


@pytest.mark.rule("GG-XIV.B.6")
@pytest.mark.parametrize(("distance", "offered"), [(6, True), (7, False)])
def test_the_siege_is_offered_with_an_axis_unit_within_6_hexes(gazala: Scenario, distance: int, offered: bool) -> None:
    from tobruk.systems.gazala import hidden as hd

    game = Game(gazala)
    perimeter = hd.siege_zone(game)
    m = game.scenario.map
    spot = next(h for h in sorted(m.hexes) if m.is_land(h) and min(h.distance(z) for z in perimeter) == distance and not game.units_at(h))
    for uid in game.units_of(AXIS):
        if family_unit(game, uid).hex is not None:
            family_unit(game, uid).hex = H("A1") if uid != "15Pz" else spot  # the rest far away in the west
    game.play(EndPhase())  # the end of the Axis set-up: the siege phase comes next
    d = game.decision
    assert (d is not None and d.phase == "allied-siege") == offered


# --- activation (GG-V.A.4) ------------------------------------------------------------------------------------------


@pytest.mark.rule("GG-V.A.4")
def test_two_activations_at_the_start_of_each_game_turn(gazala: Scenario) -> None:
    game = at_phase(Game(gazala), "allied-movement")
    assert mv.activations_left(game) == 2


@pytest.mark.rule("GG-V.A.4")
def test_only_allied_losses_in_the_axis_player_turn_count() -> None:
    units = (
        unit_toml("Pz", "axis", "A1")
        + unit_toml("Pz2", "axis", "A2")
        + "".join(unit_toml(f"T{i}", "allied", f"C{i + 4}", type_="infantry") for i in range(3))
    )
    game = movement_game(units, rows=3, columns=8)
    mv.eliminate(game, "Pz", "test")  # an Axis loss: no extra Allied activation
    assert mv.activations_left(game) == 2
    mv.eliminate(game, "T0", "test")
    mv.eliminate(game, "T1", "test")  # two Allied losses in the Axis player-turn: two more
    assert gazala_vars(game).allied_losses == {"1": 2} and mv.activations_left(game) == 4
    game = at_phase(game, "allied-attacks")
    mv.eliminate(game, "T2", "test")  # in the Allied player-turn: not counted
    assert gazala_vars(game).allied_losses == {"1": 2}


# --- the siege of Tobruk: who is redeployed (GG-XIV.B.6) -------------------------------------------------------------


@pytest.mark.rule("GG-XIV.B.6")
def test_the_siege_redeploys_the_garrison_and_the_dummies_once_each(gazala: Scenario) -> None:
    game = Game(gazala)
    family_unit(game, "15Pz").hex = H("E12")  # within 6 hexes of the perimeter
    game.play(EndPhase())
    inside = {u for u in game.units_of(ALLIED) if family_unit(game, u).hex in {H("C12"), H("C13"), H("D12"), H("D13")}}
    movers = {o.unit for o in game.legal_orders() if isinstance(o, Place)}
    assert movers == inside | {"Dummy1", "Dummy2"}  # not the units outside, nor the air unit
    game.play(Place("Dummy1", H("D12")))
    movers = {o.unit for o in game.legal_orders() if isinstance(o, Place)}
    assert "Dummy1" not in movers and "Dummy2" in movers
    refused(game, Place("Dummy1", H("C12")), "GG-XIV.B.6")


@pytest.mark.rule("GG-XIII.D")
def test_a_breakdown_never_stops_short_of_the_first_hex_entered() -> None:
    # A1-A2 climbs an escarpment: 1 + 2 = 3 MF; A3 1 more: 4 MF used, a die against 3. A 1 breaks it down within
    # its first MF, which no hex fits in: it stops in the first hex it entered (ruling R-CRUSADER)
    esc = '[map.hexsides]\nescarpment = [{ side = "A1|A2", high = "A2" }]\n'
    game = movement_game(CRUSADER, esc, rows=1, columns=8, side="allied", dice=ForcedDice([1]))
    game.play(Move("22Armd", (H("A1"), H("A2"), H("A3"))))
    assert family_unit(game, "22Armd").hex == H("A2") and family_unit(game, "22Armd").disrupted


@pytest.mark.rule("GG-XIII.E")
def test_the_gallop_takes_units_on_or_within_1_hex_of_the_line_only() -> None:
    # the line is B2: B3 is 1 hex from it, B4 2
    units = unit_toml("Near", "allied", "B3", type_="infantry") + unit_toml("Two", "allied", "B4", type_="infantry")
    game = movement_game(units, GALLOP_LINE.replace('"A2", "B2", "C2"', '"B2"'), rows=3, columns=20, side="allied")
    for uid in ("Near", "Two"):
        family_unit(game, uid).activated = False
    game.play(Gallop())
    assert family_unit(game, "Near").activated and not family_unit(game, "Two").activated


@pytest.mark.rule("GG-XIII.E")
def test_a_unit_already_east_of_column_13_is_activated_but_does_not_gallop() -> None:
    units = unit_toml("East", "allied", "B15", type_="infantry")
    game = movement_game(units, GALLOP_LINE.replace('"A2", "B2", "C2"', '"B14"'), rows=3, columns=20, side="allied")
    family_unit(game, "East").activated = False
    game.play(Gallop())
    assert family_unit(game, "East").activated and "East" not in mv.galloping(game)
    assert H("B14") in mv.destinations(game, "East")  # it may go west


@pytest.mark.rule("GG-XIII.E")
def test_a_galloping_unit_sent_short_of_column_14_is_refused_by_the_gallop_rule() -> None:
    units = unit_toml("Arm", "allied", "B4", echelon="subdivisional", type_="armour")
    game = movement_game(units, GALLOP_LINE.replace('"A2", "B2", "C2"', '"A3", "B3", "C3"'), rows=3, columns=20, side="allied")
    game.play(Gallop())
    refused(game, Move("Arm", (H("B5"),)), "GG-XIII.E")  # one hex east: a legal step, but it can reach column 14


@pytest.mark.rule("GG-XV.A.4")
def test_a_trucked_move_along_its_whole_path() -> None:
    # trucked infantry moves at the motorized rate with 3 MF (+1): 1/5 MF a road hex, 20 hexes; on foot only 6
    road = '[[map.route]]\nkind = "road"\nhexes = [' + ", ".join(f'"A{c}"' for c in range(1, 26)) + "]\n"
    game = movement_game(infantry("Inf", "axis", "A1", 2), road, rows=1, columns=25)
    game.play(Move("Inf", tuple(H(f"A{c}") for c in range(1, 22)), trucks=True))
    assert family_unit(game, "Inf").hex == H("A21")
    assert game.state.log[-1] == "Axis: Inf moves " + "-".join(f"A{c}" for c in range(1, 22)) + "; by truck convoy (2 used)."


@pytest.mark.rule("GG-XV.B")
def test_out_of_supply_exactly_half_the_mf_does_not_disrupt_a_quarter_more_does() -> None:
    road = '[[map.route]]\nkind = "road"\nhexes = [' + ", ".join(f'"A{c}"' for c in range(1, 16)) + "]\n"
    game = movement_game(unit_toml("Pz", "axis", "A1") + unit_toml("Pz2", "axis", "A15"), road, rows=1, columns=16)
    for uid in ("Pz", "Pz2"):
        family_unit(game, uid).out_of_supply = True
    game.play(Move("Pz", tuple(H(f"A{c}") for c in range(1, 10))))  # 8 road hexes: 2 MF of a printed 4
    assert not family_unit(game, "Pz").disrupted and game.state.log[-1] == "Axis: Pz moves A1-A2-A3-A4-A5-A6-A7-A8-A9."
    game.play(Move("Pz2", tuple(H(f"A{c}") for c in range(15, 5, -1))))  # 9 road hexes: 2 1/4 MF
    assert family_unit(game, "Pz2").disrupted
    assert game.state.log[-1].endswith("; out of supply and over half its MF: disrupted.")


@pytest.mark.rule("GG-XIII.D")
@pytest.mark.rule("GG-XVI")
def test_a_brigade_broken_down_takes_no_village_beyond_where_it_stopped() -> None:
    # 5 MF off road A1-A6, a die against 4: a 2 stops it in A3; the village A5 on its declared route stays Axis
    village = '[map.terrain]\nvillage = ["A5"]\n'
    game = movement_game(CRUSADER, village, rows=1, columns=10, side="allied", dice=ForcedDice([2]))
    game.vars.villages = {"A5": "axis"}
    game.play(Move("22Armd", tuple(H(f"A{c}") for c in range(1, 7))))
    assert family_unit(game, "22Armd").hex == H("A3") and gazala_vars(game).villages["A5"] == "axis"
    assert game.state.log[-1] == "Allied: 22Armd moves A1-A2-A3-A4-A5-A6; breaks down in A3 (rolled 2) and is disrupted."
    assert game.dice.log[-1].purpose == "Crusader breakdown, 22Armd (4 or less breaks down)"
