"""Ground combat in The Gazala Gallop: odds, the GCRT, terrain, conversions and disruption.

Every expected value below is worked out from the rule text and the 2016 charts, not read back from
the program.  Positions are small inline maps; dice are forced.  (Declaring and allocating attacks:
test_attack_orders.py; No Retreat! and the retreat after combat: test_retreat_orders.py.)
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.conftest import attack_game, unit_toml
from tests.systems.gazala.duels import COLUMNS, GCRT, RATIO, attack_on, duel, resolve
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import (
    EndPhase,
    EndRetreat,
    Retreat,
    RetreatDistance,
)
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import combat as cb

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


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


@pytest.mark.whole_game
def test_a_random_game_runs_to_the_end_without_a_dead_end(gazala: Scenario) -> None:
    import random

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
