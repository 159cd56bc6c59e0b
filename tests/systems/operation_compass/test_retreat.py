"""The Italian Retreat Phase (OC-RET.1-4), from turn 3: each Italian unit's check and its modifiers, the retreat of
a unit that fails it, the check of a unit retreating next to an Allied combat unit, the hexes closed to a retreat,
the unit that cannot get nearer to its supply source.

The board is two rows, A and B, of 8 (or 12) columns; the Italian supply source is A1, the WDF's A8 (its units in
supply on turn 3).  A supply line costs 2 a clear hex (OC-TER.1), so A(k) is 2(k-1) from A1 and B(k) 2k (B1 touches
A1 and A2).  A retreat goes a hex at a time, each nearer to A1 by that cost (ruling R-OC-RETREAT)."""

from __future__ import annotations

import pytest

from tests.systems.operation_compass.kit import H, allied, due, game_at, italian, lines, play_to, refused, roll
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.systems.operation_compass.counters import compass_unit
from tobruk.systems.operation_compass.retreat import choose_withdrawal
from tobruk.systems.operation_compass.state import compass_vars

SOURCES = '[map.supply]\naxis = ["A1"]\nallied = ["A{east}"{more}]\n'
CHECK = "morale check, I (Italian Retreat Phase: whether it retreats, morale 3, DRM "


def board(units: str, *, extra: str = "", columns: int = 8, rows: int = 2, two_players: bool = False, turn: int = 3) -> Game:
    """The game at the first roll of turn ``turn``'s Retreat Phase (every roll from then on chosen by the test)."""
    extra += SOURCES.format(east=columns, more="")
    return game_at(units, "italian-retreat", turn=turn, rows=rows, columns=columns, map_extra=extra, two_players=two_players)


def before_the_phase(units: str, *, extra: str = "", columns: int = 8, more: str = "") -> Game:
    """The game on turn 2 (to arrange what the Retreat Phase will read), before its movement; ``more``: other Allied
    sources (', "A1"')."""
    extra += SOURCES.format(east=columns, more=more)
    return game_at(units, "allied-movement", turn=2, rows=2, columns=columns, map_extra=extra)


def it(hex_: str = "A5", **kw: object) -> str:
    return italian("I", hex_, **{"steps": 3, "morale": 3, "movement": 2, **kw})


def tank(uid: str, hex_: str, **kw: object) -> str:
    return allied(uid, hex_, **{"kind": "armour", **kw})


# --- OC-RET.1: when, and the modifiers -------------------------------------------------------------------------------
@pytest.mark.rule("OC-RET.1")
def test_no_retreat_phase_before_turn_3() -> None:
    game = game_at(it() + tank("T", "A8"), "allied-bombardment", turn=1, rows=2, columns=8, map_extra=SOURCES.format(east=8, more=""))
    assert due(game) == ""
    play_to(game, "allied-bombardment", 2)
    assert due(game) == "" and game.turn == 2
    play_to(game, "allied-bombardment", 3)
    assert game.turn == 3 and due(game).startswith(CHECK)


@pytest.mark.rule("OC-RET.1")
@pytest.mark.parametrize(
    ("allies", "drm"),
    [
        (tank("T", "A8"), "-2 (2 hexes between it and the nearest Allied armour or motorized infantry in supply -2)"),
        (tank("T", "A7"), "-1 (1 hex between it and the nearest Allied armour or motorized infantry in supply -1)"),
        (tank("T", "A6"), "+0 (no modifier)"),  # next to it: no hex between (ruling R-OC-BETWEEN)
        (tank("T", "A8") + allied("M", "A7", kind="motorized-infantry"), "-1 (1 hex between it"),
        (tank("T", "A8") + allied("R", "A6", kind="recce"), "-2 (2 hexes between it"),  # recce: not tanks
        (tank("T", "A8") + allied("N", "A6", kind="infantry"), "-2 (2 hexes between it"),  # foot infantry
        (tank("T", "A8") + allied("G", "A6", kind="support"), "-2 (2 hexes between it"),
    ],
)
def test_the_hexes_between_it_and_the_nearest_allied_armour_or_motorized_infantry(allies: str, drm: str) -> None:
    game = board(it() + allies)
    assert due(game).startswith(CHECK + drm)


@pytest.mark.rule("OC-RET.1")
def test_allied_armour_out_of_supply_does_not_count() -> None:
    """No Allied source: the tank next to it is out of supply since the end of turn 1, so no Allied armour or motorized
    infantry in supply is on the map: counted as if at the map's farthest hex from A5 (A1, 4 hexes west), less one:
    3 hexes between (ruling R-OC-BETWEEN)."""
    units = it() + tank("T", "A6")
    game = game_at(units, "italian-retreat", turn=3, rows=2, columns=8, map_extra='[map.supply]\naxis = ["A1"]\n')
    assert compass_unit(game, "T").out_of_supply
    assert due(game) == CHECK + "-3 (no Allied armour or motorized infantry in supply on the map (as if 3 hexes away) -3))"


@pytest.mark.rule("OC-RET.1")
def test_plus_one_a_step_lost() -> None:
    game = before_the_phase(it() + tank("T", "A6"))
    game.unit("I").steps = 1
    play_to(game, "italian-retreat", 3)
    assert due(game) == CHECK + "+2 (2 steps lost +2))"


@pytest.mark.rule("OC-RET.1")
@pytest.mark.parametrize(("hex_", "cut"), [("A17", False), ("A18", True)])
def test_plus_one_cut_off_beyond_the_supply_range(hex_: str, cut: bool) -> None:
    """Ruling R-OC-SUPPLY: a line of at most 32 supply points: A17 is 16 clear hexes from A1 (32), A18 17 (34).  The
    tank stands in row C, next to no hex of row A, so nothing but the range cuts the line."""
    game = board(it(hex_) + tank("T", "C17"), columns=18, rows=3)
    assert ("cut off +1" in due(game)) == cut


@pytest.mark.rule("OC-RET.1")
@pytest.mark.parametrize(("kind", "cut"), [("motorized-infantry", True), ("support", False)])
def test_plus_one_cut_off_by_an_allied_combat_unit_beside_the_line(kind: str, cut: bool) -> None:
    """An Allied combat unit in B3 closes A3, A4, B2 and B4 to the Italian line (ruling R-OC-SUPPLY): A5 has none; a
    support unit there closes nothing."""
    game = board(it() + tank("T", "A8") + allied("X", "B3", kind=kind))
    assert ("cut off +1" in due(game)) == cut


@pytest.mark.rule("OC-RET.1")
@pytest.mark.parametrize("zone", ["sidi-barrani", "sollum"])
def test_minus_one_in_sidi_barrani_or_sollum(zone: str) -> None:
    game = board(it() + tank("T", "A6"), extra=f'[map.zones]\n{zone} = ["A5"]\n')
    assert due(game) == CHECK + "-1 (in Sidi Barrani or Sollum -1))"


FORT = (
    '[map.hexsides]\nfortified = [{ side = "A4|A5", inside = "A5", owner = "axis" }, { side = "A5|B4", inside = "A5", owner = "axis" }]\n'
)


@pytest.mark.rule("OC-RET.1")
@pytest.mark.parametrize(
    ("allies", "minus_one"),
    [
        (tank("T", "A8"), True),  # nobody next to it
        (tank("T", "A4"), True),  # next to it across a fortified side only
        (tank("T", "A8") + allied("G", "A6", kind="support"), True),  # a support unit is no combat unit
        (tank("T", "A6"), False),  # across an open side
        (tank("T", "A8") + allied("R", "B5", kind="recce"), False),  # any combat unit, recce too
    ],
)
def test_minus_one_in_a_fort_no_allied_combat_unit_threatens_from_an_open_side(allies: str, minus_one: bool) -> None:
    game = board(it() + allies, extra=FORT)
    assert ("in a fort no Allied combat unit threatens from an open side -1" in due(game)) == minus_one


@pytest.mark.rule("OC-RET.1")
def test_a_hex_with_no_fortified_side_is_no_fort() -> None:
    game = board(it() + tank("T", "A8"))
    assert "fort" not in due(game)


@pytest.mark.rule("OC-RET.1")
def test_minus_one_an_allied_unit_eliminated() -> None:
    game = before_the_phase(it() + tank("T", "A6"))
    compass_vars(game).allied_eliminated = 2
    play_to(game, "italian-retreat", 3)
    assert due(game) == CHECK + "-2 (2 Allied units eliminated -2))"


@pytest.mark.rule("OC-RET.1")
def test_every_modifier_together() -> None:
    """A unit of 3 steps with 1 left (+2), cut off (+1), in Sollum (-1) and a fort nobody threatens (-1), the nearest
    tank 2 hexes away (-1), one Allied unit eliminated (-1): -1."""
    extra = FORT + '[map.zones]\nsollum = ["A5"]\n'
    game = before_the_phase(it() + tank("T", "A7") + allied("X", "B2", kind="motorized-infantry"), extra=extra)
    game.unit("I").steps = 1
    compass_vars(game).allied_eliminated = 1
    play_to(game, "italian-retreat", 3)
    assert due(game) == CHECK + (
        "-1 (2 steps lost +2, cut off +1, in Sidi Barrani or Sollum -1, in a fort no Allied combat unit threatens from an "
        "open side -1, 1 hex between it and the nearest Allied armour or motorized infantry in supply -1, "
        "1 Allied unit eliminated -1))"
    )


# --- OC-RET.1: what the check decides -------------------------------------------------------------------------------
@pytest.mark.rule("OC-RET.1")
def test_a_unit_that_passes_stands_and_one_that_fails_retreats_losing_no_step() -> None:
    """Morale 3, DRM 0: a 3 passes, a 4 fails; the check decides only whether it retreats (ruling R-OC-RETCHECK):
    its outcomes say "fails", not what a step loss would be, and no step goes."""
    units = it("A5") + italian("J", "B5", steps=3, morale=3, movement=2) + tank("T", "A6")
    game = board(units)
    assert [o.label for o in game.chance_outcomes()] == ["passes"] * 3 + ["fails"] * 3
    roll(game, 3)
    assert "I stands." in lines(game) and not compass_unit(game, "I").retreating
    assert due(game).startswith("morale check, J (Italian Retreat Phase")
    roll(game, 6)  # 6 against 3: would cost 1 step in a combat check
    assert "J retreats." in lines(game) and compass_unit(game, "J").retreating
    assert game.unit("J").steps == 3


# --- the retreat ------------------------------------------------------------------------------------------------------
@pytest.mark.rule("OC-RET.1")
def test_the_unit_goes_back_a_hex_at_a_time_as_far_as_its_movement_goes() -> None:
    """I in A6 (10 from A1), movement 2: A5 (8) then A4 (6), 1 MP each; no further."""
    game = board(it("A6") + tank("T", "A8"))
    roll(game, 6)
    assert game.unit("I").hex == H("A4")
    moves = [(e.kind, e.text) for e in game.state.entries if "retreats" in e.text and "Morale" not in e.text]
    assert moves == [("move", "I retreats."), ("move", "Italian: I retreats A6-A5."), ("move", "Italian: I retreats A5-A4.")]


@pytest.mark.rule("OC-RET.1")
def test_the_italian_player_chooses_among_hexes_as_near_and_nothing_else() -> None:
    """Two players: I in B5 (10 from A1) may step into A5 or B4 (8 each), not A6 (10) nor B6 (12)."""
    game = board(it("B5") + tank("T", "A8"), two_players=True)
    roll(game, 6)
    assert game.decision is not None and game.decision.side is Side.AXIS
    assert game.decision.prompt == "retreat I a hex nearer to its supply source"
    assert sorted(game.legal_notation()) == ["withdraw I A5", "withdraw I B4"]
    e = refused(game, "withdraw I A6")
    assert e.clause == "OC-RET.1" and "each nearer to its supply source, within the MP it has left: A5, B4" in e.reason
    game.play("withdraw I B4")
    assert sorted(game.legal_notation()) == ["withdraw I A4", "withdraw I B3"]


@pytest.mark.rule("OC-RET.1")
def test_solitaire_the_rules_choose_the_hex_away_from_the_wdf() -> None:
    """Ruling R-OC-POLICY: of A5 and B4 (as near, 8), the one next to no Allied combat unit: the tank in A6 is next to
    A5, so B4; from B4, A4 and B3 (6 each) are both free of the WDF, in supply and 1 MP: the first in hex order, A4."""
    game = board(it("B5") + tank("T", "A6"))
    roll(game, 6)
    assert game.unit("I").hex == H("A4")
    assert "Italian: I retreats B5-B4." in lines(game)


@pytest.mark.rule("OC-RET.1")
def test_the_policy_on_the_options_alone() -> None:
    from tobruk.systems.operation_compass.actions import Withdraw

    game = board(it("B5") + tank("T", "A6"), two_players=True)
    roll(game, 6)
    options = [Withdraw("I", H("A5")), Withdraw("I", H("B4"))]
    assert choose_withdrawal(game, options) == Withdraw("I", H("B4"))
    assert choose_withdrawal(game, options[:1]) == Withdraw("I", H("A5"))


@pytest.mark.rule("OC-CRT.4")
def test_a_unit_that_retreated_is_assaulted_at_minus_one_that_turn() -> None:
    units = it("A6", movement=1) + tank("T", "A8")
    game = board(units)
    roll(game, 6)
    assert game.unit("I").hex == H("A5") and compass_unit(game, "I").retreating
    play_to(game, "allied-movement", 3)
    game.play("move T A8-A7-A6")
    game.play("end-phase")
    game.play("target A5")
    game.play("add T")
    game.play("declare")
    assert "-1 against retreating Italian units (OC-CRT.4)" in lines(game)[-1]


# --- OC-RET.2: retreating next to an Allied combat unit --------------------------------------------------------------
@pytest.mark.rule("OC-RET.2")
@pytest.mark.parametrize(("morale", "face", "steps_left"), [(3, 2, 2), (3, 3, 1), (3, 6, 1), (1, 6, 1)])
def test_a_hex_next_to_an_allied_combat_unit_costs_a_check_and_a_step_not_more(morale: int, face: int, steps_left: int) -> None:
    """I (2 steps of 3: +1) fails its Retreat Phase check and steps from A6 into A5, the one hex nearer its source, next
    to the Allied unit in B4: it checks with +1.  Morale 3: a 2 (3) passes, a 3 fails by 1, a 6 by 4; morale 1: a 6
    fails by 6, which OC-MC.2 would make 2 steps: 1, not more."""
    game = before_the_phase(it("A6", movement=1, morale=morale) + tank("T", "A8") + allied("X", "B4", kind="motorized-infantry"))
    game.unit("I").steps = 2
    play_to(game, "italian-retreat", 3)
    roll(game, 6, "whether it retreats")
    assert game.unit("I").hex == H("A5")
    assert due(game) == f"morale check, I (retreating next to an Allied combat unit, morale {morale}, DRM +1 (1 step lost +1))"
    roll(game, face)
    assert game.unit("I").steps == steps_left


@pytest.mark.rule("OC-RET.2")
def test_no_check_next_to_a_support_unit_alone() -> None:
    game = board(it("A6", movement=1) + tank("T", "A8") + allied("G", "B4", kind="support"))
    roll(game, 6, "whether it retreats")
    assert game.unit("I").hex == H("A5") and due(game) == ""


@pytest.mark.rule("OC-RET.2")
def test_the_retreat_check_can_eliminate_a_unit_of_one_step() -> None:
    game = before_the_phase(it("A6", movement=2) + tank("T", "A8") + allied("X", "B4", kind="motorized-infantry"))
    game.unit("I").steps = 1
    play_to(game, "italian-retreat", 3)
    roll(game, 6, "whether it retreats")
    roll(game, 6, "retreating next to an Allied combat unit")
    assert game.unit("I").eliminated and game.unit("I").hex is None


# --- OC-RET.3: the hexes closed to a retreat -----------------------------------------------------------------------------
@pytest.mark.rule("OC-RET.3")
def test_no_retreat_into_a_hex_the_allies_hold() -> None:
    """B5 may go to A5 or B4; the Allied unit in B4 (and a support unit alone in A5) close both: the unit stays
    (OC-RET.4)."""
    units = it("B5") + tank("T", "A8") + allied("X", "B4", kind="motorized-infantry") + allied("G", "A5", kind="support")
    game = board(units, two_players=True)
    roll(game, 6)
    assert game.unit("I").hex == H("B5")
    assert due(game).startswith("morale check, I (unable to get nearer to its supply source")


@pytest.mark.rule("OC-RET.3")
def test_the_italian_player_is_told_why() -> None:
    game = board(it("B5") + tank("T", "A8") + allied("X", "B4", kind="motorized-infantry"), two_players=True)
    roll(game, 6)
    assert game.legal_notation() == ["withdraw I A5"]
    e = refused(game, "withdraw I B4")
    assert e.clause == "OC-RET.3" and "which the Allies hold" in e.reason


ESCARPMENT = '[map.hexsides]\nimpassable-escarpment = [{ side = "A4|A5", high = "A4" }, { side = "A4|B4", high = "A4" }]\n'


@pytest.mark.rule("OC-RET.3")
def test_no_retreat_across_the_escarpment_but_up_a_pass() -> None:
    """The escarpment on A4's east and south-east sides, A4 the high side: the way back from A5 goes round by B4 (8,
    A5 10), and A4 (6) is not open to it across the escarpment; with a road up A5-A4 (a pass, ruling R-OC-PASS) A5 is
    6 1/2 from A1 and it climbs the pass to A4."""
    units = it("A5", movement=1) + tank("T", "A8")
    shut = board(units, extra=ESCARPMENT, two_players=True)
    roll(shut, 6)
    assert shut.legal_notation() == ["withdraw I B4"]
    e = refused(shut, "withdraw I A4")
    assert e.clause == "OC-RET.3" and "across the escarpment from A5 to A4" in e.reason
    road = '[[map.route]]\nkind = "road"\nhexes = ["A5", "A4"]\n'
    pass_ = board(units, extra=ESCARPMENT + road, two_players=True)
    roll(pass_, 6)
    assert "withdraw I A4" in pass_.legal_notation()


# --- OC-RET.4: a unit that cannot get nearer ---------------------------------------------------------------------------
@pytest.mark.rule("OC-RET.4")
@pytest.mark.parametrize(("morale", "face", "steps_left"), [(3, 2, 2), (3, 3, 1), (3, 6, 1), (1, 6, 1)])
def test_a_unit_that_cannot_get_nearer_stays_and_checks_losing_a_step_not_more(morale: int, face: int, steps_left: int) -> None:
    """I in A2 with the Allied units in A1 (its source, and one of the WDF's, so the tank is in supply) and B1: nowhere
    nearer.  2 steps of 3 (+1): morale 3, a 2 (3) passes, a 3 fails by 1, a 6 by 4; morale 1, a 6 fails by 6 (2 steps
    by OC-MC.2): 1 step, not more."""
    units = it("A2", morale=morale) + tank("T", "A1") + allied("X", "B1", kind="motorized-infantry")
    game = before_the_phase(units, more=', "A1"')
    game.unit("I").steps = 2
    play_to(game, "italian-retreat", 3)
    roll(game, 6, "whether it retreats")
    assert "I would retreat but cannot get nearer to its supply source: it stays (OC-RET.4)." in lines(game)
    assert due(game) == f"morale check, I (unable to get nearer to its supply source, morale {morale}, DRM +1 (1 step lost +1))"
    roll(game, face)
    assert game.unit("I").hex == H("A2") and game.unit("I").steps == steps_left
    assert due(game) == "" and game.decision is not None and game.decision.phase == "allied-bombardment"  # one check only


@pytest.mark.rule("OC-RET.3")
def test_a_retreat_may_enter_a_hex_other_italians_hold() -> None:
    """Only the Allies close a hex: A5, where J stands, is open to I retreating from A6."""
    units = it("A6", movement=1) + italian("J", "A5", morale=6) + tank("T", "A8")
    game = board(units, two_players=True)
    roll(game, 6, "whether it retreats")
    assert game.legal_notation() == ["withdraw I A5"]
    game.play("withdraw I A5")
    assert game.units_at(H("A5")) == ["I", "J"]


@pytest.mark.rule("OC-RET.1")
def test_only_the_unit_retreating_now_steps() -> None:
    units = it("A6", movement=1) + italian("J", "A4", morale=6) + tank("T", "A8")
    game = board(units, two_players=True)
    roll(game, 6, "whether it retreats")
    e = refused(game, "withdraw J A3")
    assert (e.clause, e.reason) == ("OC-RET.1", "I is the unit retreating now")
    assert game.decision is not None and game.decision.clause == "OC-RET.1"


@pytest.mark.rule("OC-RET.2")
def test_the_checks_that_cost_a_step_say_so_capped() -> None:
    """Morale 1, 1 step lost (+1): faces 1-6 fail by 1-6, which OC-MC.2 would make 1, 1, 1, 1, 2, 2 steps: capped, 1."""
    game = before_the_phase(it("A6", movement=1, morale=1) + tank("T", "A8") + allied("X", "B4", kind="motorized-infantry"))
    game.unit("I").steps = 2
    play_to(game, "italian-retreat", 3)
    roll(game, 6, "whether it retreats")
    assert [o.label for o in game.chance_outcomes()] == ["fails, loses 1"] * 6


@pytest.mark.rule("OC-RET.1")
def test_an_allied_unit_eliminated_in_an_assault_counts_in_the_next_retreat_phase() -> None:
    """Turn 2: the Allied U (1 step, morale 1) assaults J and is eliminated; an Italian unit lost (I2 has lost steps)
    counts for nothing.  On turn 3 I checks with -1 for the Allied unit eliminated."""
    extra = '[map.supply]\naxis = ["A1"]\nallied = ["A8"]\n'
    units = it("A3") + italian("J", "B6", morale=6) + tank("T", "A4") + allied("U", "A6", kind="motorized-infantry", steps=1, morale=1)
    game = game_at(units, "allied-assaults", turn=2, rows=2, columns=8, map_extra=extra)
    game.play("target B6")
    game.play("add U")
    game.play("declare")
    roll(game, 6, "ground support")
    roll(game, 2)
    roll(game, 1)
    roll(game, 6, "morale check, J")  # J: morale 6, fails by at most a few: loses steps, not the count
    roll(game, 6, "morale check, U")  # U: 6 + its number - 1 >= 5: eliminated
    assert game.unit("U").eliminated and compass_vars(game).allied_eliminated == 1
    play_to(game, "italian-retreat", 3)
    assert due(game).startswith(CHECK) and due(game).endswith(", 1 Allied unit eliminated -1))")


@pytest.mark.rule("OC-RET.1")
def test_each_allied_unit_eliminated_counts() -> None:
    """Three Allied units of 1 step (cut off by J beside their source: +3 to the leader's check) assault J: +3 of
    Italian chits, strength 6 - 0: the 5-8 column, row 3: 1/2.  The leader rolls 6: 6 + 1 + 3 - 1 = 9, 3 steps: its
    own and the two others'.  Three eliminated: -3 on turn 3."""
    extra = '[map.supply]\naxis = ["A1"]\nallied = ["A8"]\n'
    attackers = "".join(allied(u, "A6", kind="motorized-infantry", steps=1, morale=1) for u in ("U", "V", "W"))
    units = it("A3") + italian("J", "B6", morale=6, defence=0) + attackers
    game = game_at(units, "allied-assaults", turn=2, rows=2, columns=8, map_extra=extra)
    game.play("target B6")
    for u in ("U", "V", "W"):
        game.play(f"add {u}")
    game.play("declare")
    roll(game, 6, "ground support")
    roll(game, 2)
    roll(game, 1)
    roll(game, 1, "morale check, J")
    roll(game, 6, "morale check, U")
    game.play("lose V")
    game.play("lose W")
    assert compass_vars(game).allied_eliminated == 3
    play_to(game, "italian-retreat", 3)
    assert due(game).endswith(", 3 Allied units eliminated -3))")


@pytest.mark.rule("OC-RET.1")
def test_a_step_into_a_hex_of_other_italians_farther_back_is_refused_as_not_nearer() -> None:
    """The WDF's tank on its own source in B8 (in supply, 1 hex between it and I): I fails and may step only into A5;
    A7, where J stands, is farther from A1."""
    extra = '[map.supply]\naxis = ["A1"]\nallied = ["B8"]\n'
    units = it("A6", movement=1) + italian("J", "A7", morale=6) + tank("T", "B8")
    game = game_at(units, "italian-retreat", turn=3, rows=2, columns=8, map_extra=extra, two_players=True)
    roll(game, 6, "whether it retreats")
    e = refused(game, "withdraw I A7")
    assert (e.clause, e.reason) == (
        "OC-RET.1",
        "I retreats a hex at a time, each nearer to its supply source, within the MP it has left: A5",
    )


@pytest.mark.rule("OC-RET.1")
def test_what_the_retreat_phase_writes_in_the_log() -> None:
    """Kinds for the game log form: a check "battle", standing a "note", staying put for want of a way back "move"
    (retreating "move" too: above)."""
    units = it("A2") + italian("J", "A5", morale=1) + italian("K", "A7", morale=1) + tank("T", "A1") + tank("X", "B1")
    game = before_the_phase(units, more=', "A1"')
    game.unit("I").steps = 2
    play_to(game, "italian-retreat", 3)
    since = len(game.state.entries)
    roll(game, 1, "morale check, I")  # I stands
    roll(game, 6, "morale check, J")  # J fails and cannot get nearer: A1 is the WDF's
    roll(game, 1, "morale check, J (unable to get nearer")
    kinds = [(e.kind, e.text) for e in game.state.entries[since:]]
    stays = "J would retreat but cannot get nearer to its supply source: it stays (OC-RET.4)."
    assert ("note", "I stands.") in kinds and ("move", stays) in kinds
    assert all(kind == "battle" for kind, text in kinds if text.startswith("Morale check"))
