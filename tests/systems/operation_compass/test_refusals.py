"""Refusals and the corners of the procedures: the stacking limit (ruling R-OC-STACK), every reason an assault is
refused with its clause, orders given out of their stage, the supply determination's line in the log, and the
distribution of the net DRM the odds are made from (OC-CRT.1, 3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.operation_compass.kit import H, allied, declare, due, game_at, italian, lines, refused, roll
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.systems.operation_compass import combat as cb
from tobruk.systems.operation_compass import moves as mv
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.counters import compass_unit


def inf(uid: str, hex_: str = "A2", **kw: object) -> str:
    return allied(uid, hex_, **{"kind": "motorized-infantry", **kw})


def board(units: str, key: str = "allied-assaults", *, turn: int = 2, extra: str = "") -> Game:
    return game_at(units, key, turn=turn, rows=2, columns=6, map_extra=extra + '[map.supply]\nallied = ["A1"]\n')


@pytest.mark.rule("OC-TER.1")
def test_at_most_four_allied_units_end_a_move_in_a_hex() -> None:
    """Ruling R-OC-STACK: with 3 in A2 a fourth may join them, a fifth may not (nor is the move listed)."""
    units = inf("U1") + inf("U2") + inf("U3") + inf("U4", "A1") + inf("U5", "A1") + italian("I", "A6")
    game = board(units, "allied-movement")
    assert "move U4 A1-A2" in game.legal_notation()
    game.play("move U4 A1-A2")
    assert not [o for o in game.legal_notation() if o.startswith("move U5") and o.endswith("A2")]
    e = refused(game, "move U5 A1-A2")
    assert e.clause == "OC-TER.1" and e.reason == "at most 4 Allied units in a hex (ruling R-OC-STACK)"
    game.play("move U5 A1-A2-A3")  # through the crowded hex, ending beyond it: fine
    assert game.unit("U5").hex == H("A3")


@pytest.mark.rule("OC-TER.1")
def test_an_eliminated_unit_does_not_move() -> None:
    game = board(inf("U") + inf("V") + italian("I", "A6"), "allied-movement")
    compass_unit(game, "V").eliminated = True
    game.unit("V").hex = None
    e = refused(game, "move V A2-A3")
    assert e.clause == "OC-TER.1" and e.reason == "V is not on the map"
    assert mv.moves(game, "V") == ()


@pytest.mark.rule("OC-CRT.6")
@pytest.mark.parametrize(
    ("target", "attackers", "leader", "clause", "reason"),
    [
        ("A4", ["U"], "U", "OC-CRT.5", "A4 holds no Italian unit to assault"),
        ("B2", ["U"], "U", "OC-CRT.5", "B2 holds no Italian unit to assault"),  # the Allies hold it
        ("A3", ["U", "V"], "U", "OC-CRT.6", "the attacking stack is the units of one hex"),
        ("A3", [], None, "OC-CRT.6", "an assault needs an attacking stack"),
        ("A3", ["U", "U"], "U", "OC-CRT.6", "a unit is named twice"),
        ("A3", ["I"], "I", "OC-CRT.6", "'I' is not a unit of the Western Desert Force"),
        ("A3", ["X"], "X", "OC-CRT.6", "'X' is not a unit of the Western Desert Force"),
        ("A3", ["U"], None, "OC-CRT.6", "the assault is led by one of the stack's combat units (not a support unit)"),
        ("A3", ["U"], "V", "OC-CRT.6", "the assault is led by one of the stack's combat units (not a support unit)"),
        ("A3", ["U", "G"], "G", "OC-CRT.6", "the assault is led by one of the stack's combat units (not a support unit)"),
        ("A3", ["F"], "F", "OC-CRT.6", "the stack in A5 is not next to A3"),
    ],
)
def test_every_reason_an_assault_is_refused(target: str, attackers: list[str], leader: str | None, clause: str, reason: str) -> None:
    units = inf("U") + inf("V", "B2") + inf("F", "A5") + allied("G", "A2", kind="support", steps=2) + italian("I", "A3")
    game = board(units)
    with pytest.raises(IllegalOrderError) as e:
        cb.check(game, H(target), attackers, leader)
    assert (e.value.clause, e.value.reason) == (clause, reason)


@pytest.mark.rule("OC-CRT.6")
def test_a_unit_off_the_map_does_not_assault() -> None:
    game = board(inf("U") + inf("V") + italian("I", "A3"))
    compass_unit(game, "V").eliminated = True
    game.unit("V").hex = None
    with pytest.raises(IllegalOrderError) as e:
        cb.check(game, H("A3"), ["U", "V"], "U")
    assert (e.value.clause, e.value.reason) == ("OC-CRT.6", "V is not on the map")


@pytest.mark.rule("OC-CRT.3")
def test_naval_support_is_refused_word_for_word() -> None:
    game = board(inf("U") + italian("I", "A3"))
    game.play("target A3")
    game.play("add U")
    e = refused(game, "naval")
    assert (e.clause, e.reason) == ("OC-CRT.3", "naval support: only against a hex by the sea, twice a turn (ruling R-OC-NAVAL)")


@pytest.mark.rule("OC-CRT.6")
def test_what_the_player_is_offered_while_making_an_assault() -> None:
    """The units of A2 may join U once it is in (W in B2 no longer: one hex); the leader may be named among the combat
    units added, not the guns nor the leader already leading; the decision names OC-CRT.6."""
    units = inf("U") + inf("W", "B2") + inf("V") + allied("G", "A2", kind="support", steps=2) + italian("I", "A3")
    game = board(units)
    game.play("target A3")
    assert game.decision is not None and game.decision.clause == "OC-CRT.6"
    game.play("add U")
    assert sorted(a for a in game.legal_notation() if a.startswith("add")) == ["add G", "add V"]
    game.play("add G")
    game.play("add V")
    assert [a for a in game.legal_notation() if a.startswith("lead")] == ["lead V"]
    game.play("lead V")
    assert [a for a in game.legal_notation() if a.startswith("lead")] == ["lead U"]


@pytest.mark.rule("OC-CRT.6")
def test_orders_out_of_their_stage_are_refused() -> None:
    """During the excess losses there is no advance; during the advance no loss; 'lead' names a unit of the stack."""
    attackers = allied("T", "A2", kind="armour", steps=1, attack=1, morale=1) + inf("N")
    extra = '[map.terrain]\nhill = ["A3"]\n[map.zones]\nsidi-barrani = ["A3"]\n'
    extra += '[map.hexsides]\nfortified = [{ side = "A2|A3", inside = "A3", owner = "axis" }]\n'
    game = board(attackers + italian("I", "A3", defence=3, morale=6), extra=extra)
    game.play("target A3")
    game.play("add T")
    e = refused(game, "lead N")
    assert e.clause == "OC-CRT.6" and "the leader is one of the stack's combat units" in e.reason
    game.play("add N")
    game.play("declare")
    roll(game, 6, "ground support")
    roll(game, 2)
    roll(game, 1)  # +9 - 1 + 3 = +11, strength 7 - 9: 3/1
    roll(game, 1, "morale check, I")
    roll(game, 6, "morale check, T")  # 6 + 3 - 1 = 8: 3 steps, two in excess
    e = refused(game, "advance")
    assert e.clause == "OC-CRT.6"
    game.play("lose N")
    game.play("lose N")
    assert due(game) == "" and game.decision is not None and game.decision.phase == "allied-assaults"


@pytest.mark.rule("OC-CRT.6")
def test_no_losses_to_take_during_the_advance() -> None:
    attackers = allied("T", "A2", kind="armour", attack=3, morale=6) + inf("N")
    game = board(attackers + italian("I", "A3", steps=1, defence=0, morale=1), turn=1)
    declare(game, "A3", "T", "N")
    roll(game, 3, "ground support")
    roll(game, 0)
    roll(game, 6, "morale check, I")  # eliminated
    roll(game, 1, "morale check, T")
    assert sorted(game.legal_notation()) == ["advance", "stay"]
    e = refused(game, "lose N")
    assert e.clause == "OC-CRT.6" and "the excess losses are taken by the rest of the stack" in e.reason


@pytest.mark.rule("OC-MC.1")
def test_the_supply_determination_marks_and_logs() -> None:
    """The WDF's source is A1: U in A2 is in supply; V in A6, beyond the Italian in A4 (its neighbours closed to the
    line: A3, A5, B3, B4), is not."""
    game = board(inf("U") + inf("V", "A6") + italian("I", "A4"), "allied-movement", turn=1)
    game.play("end-phase")
    game.play("end-phase")
    assert "Allied supply: out of supply: V." in lines(game)
    assert not compass_unit(game, "U").out_of_supply and compass_unit(game, "V").out_of_supply
    seen = game.system.view(game, Side.ALLIED)["supply"]
    assert seen["U"] == {"supplied": True, "route": ["A1", "A2"]} and seen["V"] == {"supplied": False, "route": []}


@pytest.mark.rule("OC-MC.1")
def test_every_unit_in_supply_is_said_so() -> None:
    game = board(inf("U") + italian("I", "A6"), "allied-movement", turn=1)
    game.play("end-phase")
    game.play("end-phase")
    assert "Allied supply: every unit in supply." in lines(game)


@pytest.mark.rule("OC-CRT.1")
def test_the_distribution_of_the_net_drm() -> None:
    """Before the dice, from a DRM of 0: the lowest is -4 (a die of 1-2, 2/6, drawing both Allied 2s of the cup's six
    chits: 2/6 x 1/5), the highest +3 (a 6, 1/6, drawing the Italian 2 and one of its three 1s: 2/6 x 3/5 ... in
    either order, 1/6 x 3/5 + 3/6 x 1/5 = 1/5)."""
    charts = chart(board(inf("U") + italian("I", "A3")))
    d = cb.drm_distribution(charts, 0)
    assert sum(d.values()) == 1 and min(d) == -4 and max(d) == 3
    assert d[-4] == Fraction(2, 6) * Fraction(2, 6) * Fraction(1, 5)
    assert d[3] == Fraction(1, 6) * Fraction(1, 5)
    assert cb.drm_distribution(charts, 5) == {k + 5: v for k, v in d.items()}


@pytest.mark.rule("OC-CRT.1")
@pytest.mark.parametrize(
    ("cup", "count", "expected"),
    [
        ((0, 1, 1, 1, 2, 2), 0, {0: Fraction(1)}),
        ((0, 1, 1, 1, 2, 2), 1, {0: Fraction(1, 6), 1: Fraction(3, 6), 2: Fraction(2, 6)}),
        # two of six without putting back: 15 pairs, 0+1 three, 0+2 two, 1+1 three, 1+2 six, 2+2 one
        ((0, 1, 1, 1, 2, 2), 2, {1: Fraction(3, 15), 2: Fraction(5, 15), 3: Fraction(6, 15), 4: Fraction(1, 15)}),
        ((0, 0, 1, 1, 1, 2), 2, {0: Fraction(1, 15), 1: Fraction(6, 15), 2: Fraction(5, 15), 3: Fraction(3, 15)}),
    ],
)
def test_the_sum_of_the_chits_drawn(cup: tuple[int, ...], count: int, expected: dict[int, Fraction]) -> None:
    """Ruling R-OC-CHITS: chits drawn without putting them back; the pairs counted by hand."""
    assert cb._draws(cup, count) == expected


@pytest.mark.rule("OC-TER.1")
@pytest.mark.parametrize(
    ("order", "reason"),
    [
        ("move U A2-A3-A4-A5", "A2-A3-A4-A5 costs 3 MP; U has 2"),
        ("move U A2-B2-B3-B4-A5", "A2-B2-B3-B4-A5 costs 4 MP; U has 2"),
        ("move U A6", "U has 2 MP: A6 is beyond its reach (or the enemy, the sea or the escarpment bars the way)"),
        ("move U A2", "U is in A2 already"),
    ],
)
def test_a_move_beyond_the_allowance_is_refused_with_its_cost(order: str, reason: str) -> None:
    game = board(inf("U", movement=2) + italian("I", "A6"), "allied-movement")
    e = refused(game, order)
    assert (e.clause, e.reason) == ("OC-TER.1", reason)


@pytest.mark.rule("OC-MC.1")
def test_units_out_of_supply_are_named_in_the_log() -> None:
    game = board(inf("U") + inf("V", "A6") + inf("W", "B6") + italian("I", "A4"), "allied-movement", turn=1)
    game.play("end-phase")
    game.play("end-phase")
    line = next(e for e in reversed(game.state.entries) if e.text.startswith("Allied supply"))
    assert (line.kind, line.text) == ("supply", "Allied supply: out of supply: V, W.")
    assert game.system.out_of_supply(game, Side.ALLIED) == 2 and game.system.out_of_supply(game, Side.AXIS) == 0
    assert game.system.strength(game, Side.ALLIED) == 9 and game.system.strength(game, Side.AXIS) == 3


def test_an_order_of_another_step_is_refused_with_the_steps_clause() -> None:
    game = board(inf("U") + italian("I", "A6"), "allied-movement")
    e = refused(game, "bombard A6")
    assert e.clause == "OC-TER.1"
    assert e.reason == "'bombard A6' is not an order of the Allied movement; Allied: move your units, then end the phase"
