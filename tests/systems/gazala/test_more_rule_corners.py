"""More corners of the rules, each worked out from its clause (B3 touches A3, A4, B2, B4, C3, C4; B4 touches A4,
A5, B3, B5, C4, C5)."""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, make_scenario, movement_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError, UndoError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Attack, EndPhase, Move, NoRetreat, Resolve, RetreatDistance
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.actions import Activate, Gallop
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


@pytest.mark.rule("GG-XIV.B.5")
@pytest.mark.rule("GG-XIV.D.1")
def test_what_each_side_is_asked_in_a_battle() -> None:
    game = attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2"), dice=ForcedDice([5])
    )
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    d = game.decision
    assert d is not None and (d.side, d.clause, d.prompt) == (
        ALLIED,
        "GG-XIV.B.5",
        "attack 1 on B4 (3:1) is about to be rolled: give No Retreat! orders (or none) to your defending units: units under "
        "orders do not retreat: an R1 leaves them disrupted where they stand (D), an R2 eliminates them (DE); the orders must "
        "go to units holding at least half the hex's terrain-modified defence factors",
    )
    game.play(NoRetreat())  # 3:1 die 5: R2
    d = game.decision
    assert d is not None and (d.side, d.clause, d.prompt) == (
        AXIS,
        "GG-XIV.D.1",
        "you won attack 1: name how far the defending Allied units retreat, Def (R2): 0 to 2 hexes, one distance for all "
        "(the winner names it, the Allied player then picks each unit's route)",
    )
    game.play(RetreatDistance(1))
    d = game.decision
    assert d is not None and (d.side, d.clause, d.prompt) == (ALLIED, "GG-XIV.D.1", "retreat Def, then end the retreat")


@pytest.mark.rule("GG-XI.A.3")
def test_a_box_held_at_the_start_of_the_player_turn_stays_out_of_enemy_zoc_after_it_empties() -> None:
    # Pz in B3 has B4 in its ZOC; B4 is an Allied box Held by T1 when the Allied player-turn starts. T1 leaves; T2 then
    # goes C5-B4-A5 without stopping in B4: the enemy ZOC does not extend into it for this whole player-turn.
    units = (
        unit_toml("Pz", "axis", "B3")
        + unit_toml("T1", "allied", "B4", type_="infantry")
        + unit_toml("T2", "allied", "C5", type_="motorized", factors="2-3-3")
    )
    game = movement_game(units, '[map.fortifications]\nallied = ["B4"]\n', rows=3, columns=8, side="allied")
    game.play(Move("T1", (H("B4"), H("B5"), H("B6"))))
    game.play(Move("T2", (H("C5"), H("B4"), H("A5"))))
    assert family_unit(game, "T2").hex == H("A5")


@pytest.mark.rule("GG-XIV.A.2")
@pytest.mark.rule("GG-XI.A.3")
def test_an_allied_unit_in_a_box_it_held_need_not_attack_but_may() -> None:
    """In a box the Allies held at the start of their player-turn no enemy ZOC reaches it, so no attack is owed; it
    may still attack of its own accord: joined in the attack being made on the map, as in the declaration."""
    from tobruk.mechanics.actions import Add, Target

    units = unit_toml("Pz", "axis", "B3", factors="1-2-2") + unit_toml("Tommy", "allied", "B4", type_="infantry", factors="4-2-2")
    game = attack_game(units, '[map.fortifications]\nallied = ["B4"]\n', side="allied")
    assert Target(H("B3")) in game.legal_orders()
    game.play(Target(H("B3")))
    assert Add("Tommy") in game.legal_orders()
    game.pop()
    game.play(EndPhase())  # nothing owed
    assert game.phase.key != "allied-attacks"


@pytest.mark.rule("GG-XIV.A.2")
def test_an_axis_unit_in_its_own_fort_must_still_attack() -> None:
    # the exception for units in a box held at the start is the Allied player's only
    units = unit_toml("Pz", "axis", "B3") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game = attack_game(units, '[map.fortifications]\naxis = ["B3"]\n')
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-XIV.A.2"


@pytest.mark.rule("GG-XIV.A.2")
@pytest.mark.parametrize(("tired", "fresh"), [("B4", "C4"), ("C4", "B4")])
def test_a_disrupted_neighbour_does_not_hide_a_due_hex_beside_it(tired: str, fresh: str) -> None:
    units = (
        unit_toml("Att", "axis", "B3", factors="6-1-4")
        + unit_toml("Tired", "allied", tired, factors="1-2-2")
        + unit_toml("Fresh", "allied", fresh, factors="1-2-2")
    )
    game = attack_game(units)
    family_unit(game, "Tired").disrupted = True
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-XIV.A.2" and err.value.reason.endswith(f"must be attacked: {fresh}")


@pytest.mark.rule("GG-XIV.A.2")
def test_a_disrupted_unit_beside_an_able_one_does_not_lift_its_duty() -> None:
    # T0 (first in the order of battle) is disrupted; Att beside it can still attack Def
    units = (
        unit_toml("T0", "axis", "B3", factors="6-1-4")
        + unit_toml("Att", "axis", "A4", factors="6-1-4")
        + unit_toml("Def", "allied", "B4", factors="1-2-2")
    )
    game = attack_game(units)
    family_unit(game, "T0").disrupted = True
    with pytest.raises(IllegalOrderError) as err:
        game.play(EndPhase())
    assert err.value.clause == "GG-XIV.A.2"


@pytest.mark.rule("GG-XIV.B.6")
def test_the_siege_once_lost_stays_lost_and_needs_the_fortress_held(gazala: Scenario) -> None:
    game = Game(gazala)
    family_unit(game, "15Pz").hex = H("C12")  # inside the perimeter
    assert not hd.siege_available(game)
    hd.note_siege_lost(game)  # as the siege phase does when it begins (asking never changes the position)
    family_unit(game, "15Pz").hex = H("E12")  # out again, within 6 hexes
    assert not hd.siege_available(game) and gazala_vars(game).siege_lost
    game = Game(gazala)
    for uid in game.units_of(ALLIED):  # nobody in the fortress: nothing to redeploy
        if family_unit(game, uid).hex in hd.siege_zone(game):
            family_unit(game, uid).hex = H("F17")
    assert not hd.siege_available(game)


@pytest.mark.rule("GG-V.B.2")
def test_no_undo_past_a_reveal(gazala: Scenario) -> None:
    game = Game(gazala, options=["nonhistorical"])
    game.play("place Dummy1 C5")
    game.play("place Dummy2 E6")
    game.play(EndPhase())
    while game.decision is not None and game.decision.phase != "allied-movement":
        game.play(EndPhase())
    game.play(Activate("1SA"))  # turned face up
    with pytest.raises(UndoError, match="reveal"):
        game.pop()


def test_which_face_down_counter_gets_which_id_depends_on_the_game_not_on_the_names() -> None:
    # one real unit and a dummy share B4; over many games each of them is sometimes the first id handed out
    units = unit_toml("Real", "allied", "B4", echelon="subdivisional") + unit_toml(
        "Dum", "allied", "B4", echelon="subdivisional", type_="dummy", factors="0-0-0"
    )
    first = set()
    for seed in range(16):
        game = Game(make_scenario(units + unit_toml("Pz", "axis", "A1")), seed=seed)
        for uid in ("Real", "Dum"):
            family_unit(game, uid).hidden = True
        hd.assign_anonymous_ids(game, ["Real", "Dum"])
        ids = gazala_vars(game).anon
        k0 = game.secret_mac(f"anon:{gazala_vars(game).anon_batch}:B4:0")[: hd.ANON_LENGTH]
        first.add(next(u for u, a in ids.items() if a == k0))
    assert first == {"Real", "Dum"}


@pytest.mark.rule("GG-XIII.E")
def test_the_move_orders_listed_after_the_gallop_end_east_of_column_13() -> None:
    units = unit_toml("Arm", "allied", "B4", echelon="subdivisional", type_="armour")
    game = movement_game(units, '[map.zones]\n"gazala-line" = ["A3", "B3", "C3"]\n', rows=3, columns=20, side="allied")
    family_unit(game, "Arm").activated = False
    assert not any(isinstance(o, Move) for o in game.legal_orders())
    family_unit(game, "Arm").activated = True
    before = [o for o in game.legal_orders() if isinstance(o, Move)]
    assert any(o.path[-1].col + 1 <= 13 for o in before)
    game.play(Gallop())
    after = [o for o in game.legal_orders() if isinstance(o, Move)]
    assert after and all(o.path[-1].col + 1 == 14 for o in after)
    ends = [o.path[-1] for o in after]
    assert ends == sorted(ends, key=lambda h: (h.r, h.q))  # in reading order
    assert mv.galloping(game) == {"Arm"}


@pytest.mark.rule("GG-XIV.C.1")
def test_each_attack_phase_numbers_its_attacks_afresh() -> None:
    # an Axis attack (1) in the Axis attack phase; in the Allied attack phase the first declaration is attack 1 again
    units = (
        unit_toml("Att", "axis", "B3", factors="6-1-4")
        + unit_toml("Def", "allied", "B4", factors="1-2-2")
        + unit_toml("Tom", "allied", "A6", factors="6-1-4")
        + unit_toml("Pz", "axis", "A7", factors="0-2-2")
    )
    game = attack_game(units, rows=3, columns=10, dice=ForcedDice([1]))
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))  # 3:1, die 1: D
    if game.decision is not None and game.decision.clause == "GG-XIV.B.5":
        game.play(NoRetreat())
    from tobruk.mechanics.actions import EndRetreat

    game.play(EndRetreat())
    for _ in range(20):
        if game.decision is None or game.decision.phase == "allied-attacks":
            break
        game.play(EndPhase())
    assert game.decision is not None and game.decision.phase == "allied-attacks"
    assert gazala_vars(game).attacks == () and gazala_vars(game).attacked_units == ()
    game.play(Attack((H("A7"),), ("Tom",)))
    assert gazala_vars(game).attacks[0].id == 1
