"""Ground combat in The Gazala Gallop: odds, the GCRT, terrain, conversions, retreats, compulsory attacks.

Every expected value below is worked out from the rule text and the 2016 charts, not read back from
the program.  Positions are small inline maps; dice are forced.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.conftest import at_phase, attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import (
    Add,
    Attack,
    Cancel,
    Declare,
    EndPhase,
    EndRetreat,
    Hold,
    NoRetreat,
    Resolve,
    Retreat,
    RetreatDistance,
    Target,
)
from tobruk.mechanics.battle import Battle
from tobruk.mechanics.counters import family_unit
from tobruk.mechanics.family import family_system
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED

# The 2016 Ground Combat Results Table, typed in from the charts: die 1..6 by column.
COLUMNS = ["1:4", "1:3", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1", "7:1", "10:1"]
GCRT = {
    6: ["D", "D", "R2", "R2", "R2", "R2", "DE", "DE", "DE", "DE", "DE"],
    5: ["AR", "D", "R1", "R1", "R1", "R2", "R2", "DE", "DE", "DE", "DE"],
    4: ["DAE", "-", "D", "D", "R1", "R1", "R2", "R2", "DE", "DE", "DE"],
    3: ["AE", "AR", "-", "-", "D", "R1", "R1", "R2", "R2", "DE", "DE"],
    2: ["AE", "DAE", "AR", "DAR", "-", "D", "R1", "R1", "R2", "R2", "DE"],
    1: ["AE", "AE", "DAE", "AR", "DAR", "-", "D", "R1", "R1", "R2", "R2"],
}
# attack and defence factors giving each column exactly
RATIO = {
    "1:4": (1, 4),
    "1:3": (1, 3),
    "1:2": (1, 2),
    "1:1": (2, 2),
    "3:2": (3, 2),
    "2:1": (4, 2),
    "3:1": (6, 2),
    "4:1": (8, 2),
    "5:1": (10, 2),
    "7:1": (14, 2),
    "10:1": (20, 2),
}


def duel(
    attack: int,
    defence: int,
    *,
    dice: list[int] | None = None,
    extra: str = "",
    defender_type: str = "armour",
    defender_hex: str = "B4",
    attacker_hex: str = "B3",
    more: str = "",
    rows: int = 3,
    columns: int = 8,
) -> Game:
    units = (
        unit_toml("Att", "axis", attacker_hex, type_="armour", factors=f"{attack}-1-4")
        + unit_toml("Def", "allied", defender_hex, type_=defender_type, factors=f"1-{defence}-2")
        + more
    )
    return attack_game(units, extra, rows=rows, columns=columns, dice=ForcedDice(dice or []))


def attack_on(game: Game, target: str = "B4", *units: str) -> Attack:
    return Attack((H(target),), tuple(units) or ("Att",))


@pytest.mark.rule("GG-XIV.B.3")
@pytest.mark.parametrize(
    ("a", "d", "column"),
    [(5, 1, "5:1"), (5, 3, "3:2"), (2, 5, "1:3"), (1, 1, "1:1"), (7, 2, "3:1"), (13, 2, "5:1"), (9, 1, "7:1"), (3, 4, "1:2")],
)
def test_odds_are_the_column_nearest_but_not_above(a: int, d: int, column: str) -> None:
    game = duel(a, d)
    assert cb.assess(game, attack_on(game), AXIS).odds == column


@pytest.mark.rule("GG-XIV.B.4")
def test_above_10_to_1_is_10_to_1_and_below_1_to_4_is_refused() -> None:
    game = duel(11, 1)
    assert cb.assess(game, attack_on(game), AXIS).odds == "10:1"
    game = duel(1, 5)
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as err:
        game.play(attack_on(game))
    assert err.value.clause == "GG-XIV.B.4" and game.state_hash() == before


def test_the_chart_data_is_the_2016_table() -> None:
    from tobruk.engine.system import system_for
    from tobruk.systems.gazala import GazalaGallop

    system = system_for("gazala-gallop")
    assert isinstance(system, GazalaGallop)
    c = system.charts
    assert list(c.columns) == COLUMNS
    for die, row in GCRT.items():
        assert [c.result(die, i) for i in range(len(COLUMNS))] == row


NO_ORDERS = NoRetreat()


def resolve(game: Game, order: Attack | None = None, answer: NoRetreat = NO_ORDERS) -> Game:
    game.play(order or attack_on(game))
    game.play(Resolve(1))
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(answer)
    return game


@pytest.mark.rule("GG-XIV.C.2")
@pytest.mark.rule("GG-XIV.C.3")
@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_every_gcrt_cell(column: str, die: int) -> None:
    a, d = RATIO[column]
    game = resolve(duel(a, d, dice=[die]))
    result = GCRT[die][COLUMNS.index(column)]
    att, dfn = family_unit(game, "Att"), family_unit(game, "Def")
    assert [r.value for r in game.dice.log] == [die]
    assert dfn.eliminated == (result == "DE")
    assert att.eliminated == (result in ("AE", "DAE"))
    assert dfn.disrupted == (result in ("R2", "R1", "D", "DAR", "DAE"))
    decision = game.decision
    assert decision is not None
    if result in ("R2", "R1"):  # the attacker (winner) sets the distance
        assert decision.side is AXIS and decision.clause == "GG-XIV.D.1"
        assert set(game.legal_orders()) == {RetreatDistance(k) for k in range(3 if result == "R2" else 2)}
    elif result in ("AR", "DAR"):  # the defender (winner) sets the attackers' distance
        assert decision.side is ALLIED
        assert set(game.legal_orders()) == {RetreatDistance(0), RetreatDistance(1)}
    elif result in ("D", "DAE"):  # the defender may retreat 1 or 2 voluntarily
        assert decision.side is ALLIED and EndRetreat() in game.legal_orders()
        lengths = {len(o.path) - 1 for o in game.legal_orders() if isinstance(o, Retreat)}
        assert lengths == {1, 2}
    else:
        assert decision.phase == "axis-attacks" and decision.clause == "GG-VI.B"
    assert att.attacked  # GG-XIV.A.1


@pytest.mark.rule("GG-XI.A.1")
def test_probability_table_at_3_to_1_against_a_box() -> None:
    # 3:1 column: D, R1, R1, R2, R2, DE; in a box R1 -> D, R2 -> compulsory R1, DE -> compulsory R2.
    # An armoured defender has no infantry to match the box's +3, so the odds stay 3:1.
    game = duel(6, 2, extra='[map.fortifications]\nallied = ["B4"]\n')
    table = game.system.outcomes(game, attack_on(game), AXIS)
    assert dict(table) == {"D": Fraction(1, 2), "R1 (compulsory)": Fraction(1, 3), "R2 (compulsory)": Fraction(1, 6)}
    assert sum(p for _, p in table) == 1


@pytest.mark.parametrize("column", COLUMNS)
def test_probabilities_match_the_column(column: str) -> None:
    a, d = RATIO[column]
    game = duel(a, d)
    table = dict(game.system.outcomes(game, attack_on(game), AXIS))
    assert sum(table.values()) == 1
    expected: dict[str, Fraction] = {}
    for die in range(1, 7):
        r = GCRT[die][COLUMNS.index(column)]
        expected[r] = expected.get(r, Fraction(0)) + Fraction(1, 6)
    assert table == expected


@pytest.mark.rule("GG-XI.A.1")
@pytest.mark.rule("GG-XI.0")
@pytest.mark.rule("GG-XIV.B.2")
def test_box_adds_up_to_3_infantry_factors_if_matched() -> None:
    box = '[map.fortifications]\nallied = ["B4"]\n'
    game = duel(6, 2, extra=box, defender_type="infantry")  # 2 infantry factors match +2 of the +3
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 4
    game = duel(6, 5, extra=box, defender_type="infantry")  # 5 factors match all +3
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 8
    game = duel(6, 5, extra=box, defender_type="armour")  # no infantry: nothing
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 5
    # an Axis fort gives nothing to an Allied unit in it (GG-XI.A.2)
    game = duel(6, 5, extra='[map.fortifications]\naxis = ["B4"]\n', defender_type="infantry")
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 5


@pytest.mark.rule("GG-XI.A.1")
def test_box_converts_results() -> None:
    box = '[map.fortifications]\nallied = ["B4"]\n'
    game = resolve(duel(20, 2, dice=[6], extra=box))  # 10:1, die 6: DE -> compulsory R2
    assert not family_unit(game, "Def").eliminated and family_unit(game, "Def").disrupted
    # compulsory: no distance choice, the defender must retreat exactly 2
    assert game.decision is not None and game.decision.side is ALLIED
    assert {len(o.path) - 1 for o in game.legal_orders() if isinstance(o, Retreat)} == {2}
    assert EndRetreat() not in game.legal_orders()


@pytest.mark.rule("GG-XI.B")
@pytest.mark.rule("GG-XI.B2")
def test_hill_and_ridge_and_cumulative_bonuses() -> None:
    hill = '[map.terrain]\nhill = ["B4"]\n'
    game = duel(6, 3, extra=hill, defender_type="infantry")
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 4
    game = duel(6, 3, extra=hill, defender_type="armour")  # not matched by infantry
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 3
    ridge = '[map.hexsides]\nridge = [{ side = "B3|B4" }]\n'
    game = duel(6, 3, extra=ridge, defender_type="infantry")
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 4
    both = '[map.terrain]\nhill = ["B4"]\n[map.fortifications]\nallied = ["B4"]\n'
    game = duel(6, 5, extra=both, defender_type="infantry")  # box +3 and hill +1, matched by 5
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 9
    game = duel(6, 3, extra=both, defender_type="infantry")  # +4 earned, only 3 matched
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 6


ESC_UP = '[map.hexsides]\nescarpment = [{ side = "B3|B4", high = "B4" }]\n'


@pytest.mark.rule("GG-XI.C")
def test_escarpment_defence_unless_flanked_and_attack_down() -> None:
    game = duel(6, 3, extra=ESC_UP, defender_type="infantry")
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 5  # +2 attacked up it
    flank = unit_toml("Flank", "axis", "A4", type_="armour", factors="2-1-4")
    game = duel(6, 3, extra=ESC_UP, defender_type="infantry", more=flank)
    a = cb.assess(game, attack_on(game, "B4", "Att", "Flank"), AXIS)
    assert a.defence2 == 2 * 3 and a.attack2 == 2 * 8  # flanked from A4: no bonus
    down = '[map.hexsides]\nescarpment = [{ side = "B3|B4", high = "B3" }]\n'
    inf = unit_toml("Att", "axis", "B3", type_="infantry", factors="3-1-2")
    game = attack_game(inf + unit_toml("Def", "allied", "B4", factors="1-3-2"), down)
    assert cb.assess(game, attack_on(game), AXIS).attack2 == 2 * 4  # +1 attacking down, matched by infantry


@pytest.mark.rule("GG-XI.D")
def test_towering_escarpment_in_combat() -> None:
    tow_up = '[map.hexsides]\n"towering-escarpment" = [{ side = "B3|B4", high = "B4" }]\n'
    game = duel(6, 2, extra=tow_up)
    with pytest.raises(IllegalOrderError) as err:
        game.play(attack_on(game))
    assert err.value.clause == "GG-XI.D"
    tow_down = '[map.hexsides]\n"towering-escarpment" = [{ side = "B3|B4", high = "B3" }]\n'
    game = duel(6, 2, extra=tow_down, dice=[1])  # half of 6 = 3 against 2: 3:2, die 1: DAR
    assert cb.assess(game, attack_on(game), AXIS).odds == "3:2"
    resolve(game)
    assert family_unit(game, "Def").disrupted
    # the AR half is cancelled: the next decision is the defender's voluntary retreat (the D half)
    assert game.decision is not None and game.decision.side is ALLIED
    assert all(isinstance(o, (Retreat, EndRetreat)) and getattr(o, "unit", "Def") == "Def" for o in game.legal_orders())
    assert family_unit(game, "Att").hex == H("B3")


@pytest.mark.rule("GG-IX.C")
def test_disrupted_defenders_are_read_one_column_higher() -> None:
    game = duel(4, 2)
    family_unit(game, "Def").disrupted = True
    a = cb.assess(game, attack_on(game), AXIS)
    assert (a.basic_column, a.odds) == (COLUMNS.index("2:1"), "3:1")
    # two defenders: the disrupted one has half the factors -> the hex counts as disrupted
    more = unit_toml("Def2", "allied", "B4", type_="armour", factors="1-2-2")
    game = duel(8, 2, more=more)
    family_unit(game, "Def").disrupted = True
    assert cb.assess(game, attack_on(game), AXIS).odds == "3:1"  # 8:4 is 2:1, shifted
    more = unit_toml("Def2", "allied", "B4", type_="armour", factors="1-3-2")
    game = duel(10, 2, more=more)
    family_unit(game, "Def").disrupted = True  # 2 of 5 factors disrupted: less than half
    assert cb.assess(game, attack_on(game), AXIS).odds == "2:1"


@pytest.mark.rule("GG-IX.0")
def test_disrupted_units_keep_zoc_and_terrain() -> None:
    from tobruk.systems.gazala import moves as mv

    box = '[map.fortifications]\nallied = ["B4"]\n'
    game = duel(6, 2, extra=box, defender_type="infantry")
    family_unit(game, "Def").disrupted = True
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 4  # still +2 from the box
    assert H("B3") in mv.enemy_zoc(game, AXIS)


@pytest.mark.rule("GG-IX.D")
def test_disrupted_again_stays_disrupted() -> None:
    game = duel(6, 2, dice=[1])  # 3:1 die 1: D
    family_unit(game, "Def").disrupted = True
    resolve(game)
    assert family_unit(game, "Def").disrupted and not family_unit(game, "Def").eliminated


@pytest.mark.rule("GG-IX.B")
@pytest.mark.rule("GG-XIV.A.3")
def test_disrupted_units_may_not_attack() -> None:
    game = duel(6, 2)
    family_unit(game, "Att").disrupted = True
    with pytest.raises(IllegalOrderError) as err:
        game.play(attack_on(game))
    assert err.value.clause == "GG-XIV.A.3"


@pytest.mark.rule("GG-IX.B")
def test_disrupted_unit_next_to_an_unattacked_enemy_takes_an_ar_at_the_end_of_the_attack_phase() -> None:
    game = duel(6, 2)
    family_unit(game, "Att").disrupted = True
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.side is ALLIED and set(game.legal_orders()) == {RetreatDistance(0), RetreatDistance(1)}
    game.play(RetreatDistance(1))
    assert game.decision is not None and game.decision.side is AXIS
    retreats = [o for o in game.legal_orders() if isinstance(o, Retreat)]
    assert retreats and all(len(o.path) == 2 for o in retreats)  # 1 hex, no voluntary extra
    game.play(retreats[0])
    assert game.phase.key == "axis-recovery" or game.decision is None or game.decision.phase != "axis-attacks"


@pytest.mark.rule("GG-IX.B")
def test_ending_the_attacks_says_which_disrupted_units_will_take_an_ar() -> None:
    from tobruk.engine.offers import ending_costs

    more = unit_toml("Att2", "axis", "C4", type_="armour", factors="6-1-4")
    game = duel(6, 2, more=more)
    assert ending_costs(game) == ""
    for uid in ("Att", "Att2"):
        family_unit(game, uid).disrupted = True
    game.forget_caches()
    assert ending_costs(game) == "Att, Att2: disrupted next to enemy units nobody attacked, so they must retreat (AR, GG-IX.B)"


@pytest.mark.rule("GG-XIV.A.2")
def test_a_hex_attacked_once_is_no_longer_owed_whatever_the_result() -> None:
    # 2 against 2 (1:1), die 3: "-"; Def stays undisrupted next to Att2, who has not attacked, but it was attacked
    more = unit_toml("Att2", "axis", "C4", type_="armour", factors="2-1-4")
    game = duel(2, 2, dice=[3], more=more)
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-XIV.A.2"
    game.play(attack_on(game))
    game.play(Resolve(1))
    game.play(NoRetreat())  # (asked before the die: an R1 is among the results at 1:1)
    assert not family_unit(game, "Def").disrupted and gazala_vars(game).attacked_units == ("Def",)
    game.play(EndPhase())
    assert game.phase.key != "axis-attacks"


@pytest.mark.rule("GG-V.A.3")
def test_an_inactive_allied_unit_attacked_is_activated_an_axis_unit_attacked_is_only_attacked() -> None:
    game = duel(2, 2, dice=[3])
    family_unit(game, "Def").activated = False
    game.play(attack_on(game))
    game.play(Resolve(1))
    game.play(NoRetreat())
    assert family_unit(game, "Def").activated and "Allied: Def is attacked and activated." in game.state.log
    units = unit_toml("Tommy", "allied", "B3", type_="armour", factors="2-1-4") + unit_toml("Pz", "axis", "B4", factors="1-2-2")
    game = attack_game(units, side="allied", dice=ForcedDice([3]))
    game.play(Attack((H("B4"),), ("Tommy",)))
    game.play(Resolve(1))
    game.play(NoRetreat())
    assert not family_unit(game, "Pz").activated and not any("activated" in line for line in game.state.log)


@pytest.mark.rule("GG-IX.B")
def test_disrupted_unit_that_cannot_retreat_is_eliminated() -> None:
    # Att in A1 (corner), disrupted, enemy in A2 and B1 cover every way out (B1's ZOC takes A1's only exits)
    units = (
        unit_toml("Att", "axis", "A1", type_="armour", factors="4-1-4")
        + unit_toml("Def", "allied", "A2", type_="infantry", factors="1-3-2")
        + unit_toml("Def2", "allied", "B1", type_="infantry", factors="1-3-2")
    )
    game = attack_game(units, rows=2, columns=3)
    family_unit(game, "Att").disrupted = True
    game.play(EndPhase())  # it cannot retreat: eliminated at once, whatever distance the enemy would name
    assert family_unit(game, "Att").eliminated
    assert game.phase.key != "axis-attacks" and game.top(Battle) is None


@pytest.mark.rule("GG-XIV.A.1")
def test_a_unit_attacks_once_a_turn_but_may_be_attacked_often() -> None:
    more = unit_toml("Att2", "axis", "C4", type_="armour", factors="6-1-4")
    game = duel(6, 2, dice=[3, 3], more=more)  # 3:1 die 3: R1
    resolve(game)
    game.play(RetreatDistance(0))
    game.play(EndRetreat())
    with pytest.raises(IllegalOrderError) as err:
        game.play(attack_on(game))
    assert err.value.clause == "GG-XIV.A.1"
    game.play(Attack((H("B4"),), ("Att2",)))  # the same defender again, by another unit
    game.play(Resolve(2))
    game.play(NoRetreat())
    assert len(game.dice.log) == 2


@pytest.mark.rule("GG-XIV.A.2")
def test_adjacent_undisrupted_enemies_must_be_attacked() -> None:
    game = duel(6, 2)
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-XIV.A.2" and "B4" in err.value.reason
    game = duel(6, 2)
    family_unit(game, "Def").disrupted = True  # no duty toward a disrupted defender
    game.play(EndPhase())
    assert game.decision is None or game.decision.phase != "axis-attacks"


@pytest.mark.rule("GG-XIV.A.2")
def test_allied_units_in_a_box_held_at_the_start_need_not_attack() -> None:
    from tests.conftest import jump_to, make_scenario
    from tobruk.engine.game import Game

    units = unit_toml("Tommy", "allied", "B3", type_="infantry", factors="2-3-2") + unit_toml(
        "Pz", "axis", "B4", type_="armour", factors="4-3-4"
    )
    game = Game(make_scenario(units, rows=3, columns=8, map_extra='[map.fortifications]\nallied = ["B3"]\n'))
    family_unit(game, "Tommy").activated = True
    jump_to(game, "allied-attacks")
    game.play(EndPhase())  # allowed: held at the start of the Allied player-turn
    assert game.phase.key != "allied-attacks" or game.decision is None
    # without the box the same position obliges the attack
    game = Game(make_scenario(units, rows=3, columns=8))
    family_unit(game, "Tommy").activated = True
    jump_to(game, "allied-attacks")
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-XIV.A.2" and "B4" in err.value.reason


@pytest.mark.rule("GG-XIV.A.4")
def test_attackers_from_several_hexes_combine_and_must_all_touch_every_defender() -> None:
    more = unit_toml("Att2", "axis", "A4", type_="armour", factors="2-1-4")  # A4 touches B4
    game = duel(4, 2, more=more)
    assert cb.assess(game, attack_on(game, "B4", "Att", "Att2"), AXIS).attack2 == 2 * 6
    far = unit_toml("Far", "axis", "A1", type_="armour", factors="2-1-4")
    game = duel(4, 2, more=far)
    with pytest.raises(IllegalOrderError) as err:
        game.play(attack_on(game, "B4", "Att", "Far"))
    assert err.value.clause == "GG-XIV.A.4"
    # two defending hexes at once: B4 and C4 are both next to B3? B3 touches C3, C4: yes for C4
    second = unit_toml("Def2", "allied", "C4", type_="infantry", factors="1-2-2")
    game = duel(8, 2, more=second)
    a = cb.assess(game, Attack((H("B4"), H("C4")), ("Att",)), AXIS)
    assert a.defence2 == 2 * 4 and a.odds == "2:1"


@pytest.mark.rule("GG-VIII.A.3")
def test_no_combining_across_hexes_in_a_sandstorm() -> None:
    more = unit_toml("Att2", "axis", "A4", type_="armour", factors="2-1-4")
    game = duel(4, 2, more=more)
    game.vars.weather = "sandstorm"
    with pytest.raises(IllegalOrderError) as err:
        game.play(attack_on(game, "B4", "Att", "Att2"))
    assert err.value.clause == "GG-VIII.A.3"


@pytest.mark.rule("GG-XIV.A.5")
def test_a_hex_is_attacked_as_a_whole() -> None:
    more = unit_toml("Def2", "allied", "B4", type_="infantry", factors="1-2-2")
    game = duel(20, 2, dice=[6], more=more)  # 20 against 4: 5:1, die 6: DE for both
    assert cb.assess(game, attack_on(game), AXIS).defence2 == 2 * 4
    resolve(game)
    assert family_unit(game, "Def").eliminated and family_unit(game, "Def2").eliminated


@pytest.mark.rule("GG-XIV.A.6")
def test_attacks_may_be_cancelled_or_reallocated_before_resolution() -> None:
    game = duel(6, 2)
    game.play(attack_on(game))
    with pytest.raises(IllegalOrderError) as err:  # the unit is busy in attack 1
        game.play(attack_on(game))
    assert err.value.clause == "GG-XIV.A.6"
    game.play(Cancel(1))
    game.play(Attack((H("B4"),), ("Att",), (("Att", 3),)))
    assert game.dice.log == []


@pytest.mark.rule("GG-XIV.B.1")
def test_an_attacker_may_use_fewer_factors() -> None:
    game = duel(6, 2)
    order = Attack((H("B4"),), ("Att",), (("Att", 2),))
    assert cb.assess(game, order, AXIS).odds == "1:1"
    with pytest.raises(IllegalOrderError) as err:
        game.play(Attack((H("B4"),), ("Att",), (("Att", 7),)))
    assert err.value.clause == "GG-XIV.B.1"


@pytest.mark.rule("GG-XIV.B.5")
def test_no_retreat_orders() -> None:
    more = unit_toml("Def2", "allied", "B4", type_="infantry", factors="1-1-2")
    game = duel(12, 3, dice=[4], more=more)  # 12 against 4: 3:1, die 4: R2
    game.play(attack_on(game))
    game.play(Resolve(1))
    # Def holds 3 of 4 factors: may take the orders alone; Def2 (1 of 4) may not alone: the answers are
    # none, Def, or Def and Def2, given unit by unit
    assert set(game.legal_orders()) == {Hold("Def"), Hold("Def2"), NoRetreat()}
    with pytest.raises(IllegalOrderError) as err:
        game.play(NoRetreat(("Def2",)))
    assert err.value.clause == "GG-XIV.B.5"
    game.play(Hold("Def2"))
    assert set(game.legal_orders()) == {Hold("Def")}  # Def2 alone is no answer: Def must join it
    game.pop()
    game.play(NoRetreat(("Def",)))
    assert family_unit(game, "Def").eliminated  # R2 becomes DE for it
    assert not family_unit(game, "Def2").eliminated and family_unit(game, "Def2").disrupted
    game = duel(6, 2, dice=[2])  # 3:1 die 2: R1 -> D under No Retreat!
    resolve(game, answer=NoRetreat(("Def",)))
    assert family_unit(game, "Def").disrupted and family_unit(game, "Def").hex == H("B4")


@pytest.mark.rule("GG-XIV.C.2")
def test_both_sides_see_a_unit_eliminated_as_eliminated() -> None:
    from tobruk.view import view

    game = duel(6, 2, dice=[6])  # 3:1 die 6: DE
    resolve(game)
    assert family_unit(game, "Def").eliminated
    for side in (AXIS, ALLIED):
        entry = next(u for u in view(game, side)["units"] if u.get("id") == "Def")
        assert (entry["eliminated"], entry["hex"]) == (True, None), side


@pytest.mark.rule("GG-XIV.B.7")
def test_flak_and_4th_aa_halved_against_infantry_and_motorized_only() -> None:
    flak = unit_toml("Flak", "axis", "B3", type_="aa", factors="3-3-3")
    game = attack_game(flak + unit_toml("Def", "allied", "B4", type_="infantry", factors="1-1-2"))
    assert cb.assess(game, attack_on(game, "B4", "Flak"), AXIS).attack2 == 3  # 1.5 factors
    game = attack_game(flak + unit_toml("Def", "allied", "B4", type_="armour", factors="1-1-2"))
    assert cb.assess(game, attack_on(game, "B4", "Flak"), AXIS).attack2 == 6
    aa = unit_toml("AA", "allied", "B4", type_="aa", factors="2-2-3")
    game = attack_game(unit_toml("Inf", "axis", "B3", type_="infantry", factors="2-1-2") + aa)
    assert cb.assess(game, attack_on(game, "B4", "Inf"), AXIS).defence2 == 2


@pytest.mark.rule("GG-XIV.C.1")
def test_attacks_resolve_in_the_attackers_order() -> None:
    more = unit_toml("Att2", "axis", "C3", type_="armour", factors="6-1-4") + unit_toml(
        "Def2", "allied", "D3", type_="armour", factors="1-2-2"
    )
    game = duel(6, 2, dice=[1, 1], more=more, rows=5)
    game.play(attack_on(game))
    game.play(Attack((H("D3"),), ("Att2",)))
    game.play(Resolve(2))
    game.play(NoRetreat())
    assert game.dice.log[0].purpose.startswith("combat, attack 2")


@pytest.mark.rule("GG-XIV.D.1")
def test_winner_sets_distance_loser_picks_hexes_voluntary_retreat_on_d() -> None:
    game = resolve(duel(6, 2, dice=[2]))  # 3:1 die 2: R1
    game.play(RetreatDistance(1))
    lengths = {len(o.path) - 1 for o in game.legal_orders() if isinstance(o, Retreat)}
    assert lengths == {1, 2}  # 1 required, 1 more voluntary
    assert EndRetreat() not in game.legal_orders()
    # the log says the second hex was the loser's own choice, and says nothing of the kind for a retreat of the distance
    further = next(o for o in game.legal_orders() if isinstance(o, Retreat) and len(o.path) == 3)
    probe = game.copy()
    probe.play(further)
    path = "-".join(h.label for h in further.path)
    assert f"Def retreats {path} (a hex further than the distance set, by its own choice: GG-XIV.D.1)." in probe.state.log
    near = next(o for o in game.legal_orders() if isinstance(o, Retreat) and len(o.path) == 2)
    game.play(near)
    assert f"Def retreats {'-'.join(h.label for h in near.path)}." in game.state.log
    game = resolve(duel(6, 2, dice=[1]))  # D: voluntary 1-2, or stay
    assert EndRetreat() in game.legal_orders()
    game.play(EndRetreat())
    assert family_unit(game, "Def").hex == H("B4")


@pytest.mark.rule("GG-XIV.D.2")
def test_retreat_restrictions_a_to_e() -> None:
    # Def in B4 retreats 1 from an attack out of B3. B4's neighbours: A4, A5, B3 (attacker), B5, C4, C5.
    # a: farther from B4 - all neighbours are; e: not next to B3: A4 and C4 touch B3 -> out.
    game = resolve(duel(6, 2, dice=[2]))
    game.play(RetreatDistance(1))
    ones = {o.path[-1] for o in game.legal_orders() if isinstance(o, Retreat) and len(o.path) == 2}
    assert ones == {H("A5"), H("B5"), H("C5")}
    # b and c: an Axis unit in C6 holds C5? no - put it in B6: its ZOC covers A6, A7? (B6: A6, A7, B5, B7, C6, C7)
    zoc = unit_toml("Block", "axis", "B6", type_="armour", factors="1-1-4")
    game = resolve(duel(6, 2, dice=[2], more=zoc))
    game.play(RetreatDistance(1))
    ones = {o.path[-1] for o in game.legal_orders() if isinstance(o, Retreat) and len(o.path) == 2}
    assert ones == {H("A5"), H("C5")}  # B5 is in Block's ZOC
    # c: a friendly unit in the ZOC hex makes it usable (and f then prefers the empty hexes)
    friend = unit_toml("Pal", "allied", "B5", type_="armour", factors="1-1-2")
    game = resolve(duel(6, 2, dice=[2], more=zoc + friend))
    game.play(RetreatDistance(1))
    from tobruk.systems.gazala.combat import retreat_paths

    assert {p[-1] for p in retreat_paths(game, "Def", 1, [H("B3")])} == {H("A5"), H("C5")}  # f: empty first
    # e: a hex next to the attacker is allowed when it holds a friendly box (here held by a friend, so
    # the attacker's ZOC does not reach it either); A5, B5, C5 are sea to leave only A4 and C4
    sea = '[map.terrain]\nsea = ["A5", "B5", "C5"]\n[map.fortifications]\nallied = ["A4"]\n'
    friend_in_box = unit_toml("Pal", "allied", "A4", type_="armour", factors="1-1-2")
    game = duel(6, 2, dice=[2], extra=sea, more=friend_in_box)
    family_unit(game, "Pal").disrupted = True  # (so that attacking Def alone is allowed: GG-XIV.A.2)
    resolve(game)
    game.play(RetreatDistance(1))
    ones = {o.path[-1] for o in game.legal_orders() if isinstance(o, Retreat) and len(o.path) == 2}
    assert ones == {H("A4")}


@pytest.mark.rule("GG-XIV.D.2")
def test_no_retreat_into_a_hex_under_a_declared_attack() -> None:
    more = unit_toml("Att2", "axis", "C6", type_="armour", factors="6-1-4") + unit_toml(
        "Pal", "allied", "C5", type_="armour", factors="1-2-2"
    )
    game = duel(6, 2, dice=[2], more=more)
    game.play(Attack((H("C5"),), ("Att2",)))  # declared, not yet resolved
    game.play(attack_on(game))
    game.play(Resolve(2))
    game.play(NoRetreat())
    game.play(RetreatDistance(1))
    ones = {o.path[-1] for o in game.legal_orders() if isinstance(o, Retreat) and len(o.path) == 2}
    assert H("C5") not in ones and H("A5") in ones


@pytest.mark.rule("GG-XIV.D.3")
@pytest.mark.rule("GG-XIV.D.4")
def test_unable_to_retreat_2_on_r2_is_eliminated_and_off_the_map_too() -> None:
    # Def in A1, the map's corner: A2 holds the attacker and B1 is in its ZOC, the rest is off the map
    units = unit_toml("Att", "axis", "A2", type_="armour", factors="12-1-4") + unit_toml(
        "Def", "allied", "A1", type_="armour", factors="1-2-2"
    )
    game = attack_game(units, rows=3, columns=4, dice=ForcedDice([5]))
    game.play(Attack((H("A1"),), ("Att",), (("Att", 6),)))  # 6 of its factors against 2: 3:1, die 5: R2
    game.play(Resolve(1))
    game.play(NoRetreat())
    assert family_unit(game, "Def").eliminated  # at once: no distance the winner could name would save it
    assert game.top(Battle) is None


@pytest.mark.rule("GG-XIV.D.5")
def test_recce_gppe_and_7th_motor_survive_a_de_as_r2() -> None:
    units = unit_toml("Att", "allied", "B3", type_="armour", factors="20-1-4") + unit_toml(
        "Recce", "axis", "B4", type_="recce", factors="1-1-5", extra='flags = ["survivable"]'
    )
    game = attack_game(units, side="allied", dice=ForcedDice([6]))  # 10:1 die 6: DE -> R2
    resolve(game)
    assert not family_unit(game, "Recce").eliminated and family_unit(game, "Recce").disrupted
    assert set(game.legal_orders()) == {RetreatDistance(k) for k in range(3)}


@pytest.mark.rule("GG-XIV.E")
def test_no_advance_after_combat() -> None:
    game = resolve(duel(20, 2, dice=[6]))  # DE
    assert family_unit(game, "Def").eliminated and family_unit(game, "Att").hex == H("B3")
    assert not any(o.__class__.__name__ == "Move" for o in game.legal_orders())


@pytest.mark.rule("GG-V.A.3")
def test_an_attacked_allied_unit_is_activated() -> None:
    game = duel(6, 2, dice=[3])
    family_unit(game, "Def").activated = False
    resolve(game)
    assert family_unit(game, "Def").activated


# four Allied subdivisional units in A3, one over the limit, and an Axis unit far from them
CROWDED_A3 = "".join(
    unit_toml(f"S{i}", "allied", "A3", echelon="subdivisional", type_="armour", factors="1-1-4") for i in range(4)
) + unit_toml("Pz", "axis", "C8", type_="armour", factors="1-4-4")


@pytest.mark.rule("GG-XII.B")
def test_stacking_is_checked_at_the_end_of_the_attack_phase() -> None:
    # four subdivisional units crowd A3 (as a retreat may leave them); no enemy is next to them
    units = CROWDED_A3
    game = attack_game(units, side="allied")
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.clause == "GG-XII.B" and d.phase == "allied-attacks" and d.side is ALLIED
    assert len(game.legal_orders()) == 4


@pytest.mark.rule("GG-XII.B")
def test_a_stack_crowded_in_the_enemy_turn_is_thinned_at_the_end_of_its_owners_movement() -> None:
    # four Allied units crowd A3 during the Axis attack phase (as a retreat there may leave them): the Axis
    # phase ends without touching them; the Allied player removes the excess at the end of his movement
    units = CROWDED_A3
    game = attack_game(units, side="axis")
    game.play(EndPhase())
    assert game.phase.key != "axis-attacks" and all(not family_unit(game, f"S{i}").eliminated for i in range(4))
    at_phase(game, "allied-movement")
    game.play(EndPhase())
    d = game.decision
    assert d is not None and d.clause == "GG-XII.B" and d.phase == "allied-movement" and d.side is ALLIED
    game.play(game.legal_orders()[0])
    assert sum(family_unit(game, f"S{i}").eliminated for i in range(4)) == 1 and game.phase.key != "allied-movement"


@pytest.mark.rule("GG-XIV.A.2")
def test_a_unit_next_to_two_due_hexes_must_take_both_when_it_can() -> None:
    # Att in B3 touches Def (B4) and Def2 (C4); nobody else can attack C4. Attacking B4 alone would strand
    # C4 although one attack on both is possible (ruling R-DUTY): refused; the attack on both is listed.
    more = unit_toml("Def2", "allied", "C4", type_="armour", factors="1-1-2")
    game = duel(6, 2, more=more)
    with pytest.raises(IllegalOrderError) as err:
        game.play(attack_on(game))
    assert err.value.clause == "GG-XIV.A.2" and "C4" in err.value.reason
    assert Attack((H("B4"), H("C4")), ("Att",)) in family_system(game).suggestions(game, AXIS)
    assert {Target(H("B4")), Target(H("C4"))} <= set(game.legal_orders())
    game.play(Target(H("B4")))
    game.play(Add("Att"))
    assert Declare() not in game.legal_orders() and Target(H("C4")) in game.legal_orders()  # it must take C4 in
    game.play(Target(H("C4")))
    game.play(Declare())
    assert [h.label for h in gazala_vars(game).attacks[0].order.defenders] == ["B4", "C4"]
    # when the wider attack would be below 1:4 the duty toward the second hex lapses
    strong = unit_toml("Def2", "allied", "C4", type_="armour", factors="1-30-2")
    game = duel(6, 2, more=strong)
    game.play(attack_on(game))
    assert [h.label for h in gazala_vars(game).attacks[0].order.defenders] == ["B4"]


@pytest.mark.whole_game
def test_a_random_game_runs_to_the_end_without_a_dead_end(gazala: Scenario) -> None:
    import random

    from tobruk.engine.game import Game

    rng = random.Random(0)
    game = Game(gazala, seed=0)
    played = 0
    while game.decision is not None:
        legal = game.legal_orders()
        assert legal, f"no legal order at {game.decision}"
        ends = [o for o in legal if isinstance(o, EndPhase)]
        game.play(ends[0] if ends and rng.random() < 0.2 else rng.choice(legal))
        played += 1
    assert game.is_over and game.turn == 14 and played > 100
