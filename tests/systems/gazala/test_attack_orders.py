"""Declaring attacks in The Gazala Gallop (GG-XIV.A-B): who must attack and who may, combining, allocating and
cancelling, the order of resolution, activation by an attack, and stacking at the end of the attack phase.

Every expected value is worked out from the rule text and the 2016 charts.  Positions are small inline maps;
dice are forced.
"""

from __future__ import annotations

import pytest

from tests.conftest import at_phase, attack_game, unit_toml
from tests.systems.gazala.duels import attack_on, duel, resolve
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import (
    Add,
    Attack,
    Cancel,
    Declare,
    EndPhase,
    EndRetreat,
    NoRetreat,
    Resolve,
    RetreatDistance,
    Target,
)
from tobruk.mechanics.counters import family_unit
from tobruk.mechanics.family import family_system
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


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
