"""After a Gazala Gallop combat (GG-XIV.B.5, XIV.D): No Retreat! orders, the winner's retreat distance, the
loser's hexes, who cannot retreat, and no advance after combat.

Every expected value is worked out from the rule text and the 2016 charts.  Positions are small inline maps;
dice are forced.
"""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, unit_toml
from tests.systems.gazala.duels import attack_on, duel, resolve
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import (
    Attack,
    EndPhase,
    EndRetreat,
    Hold,
    NoRetreat,
    Resolve,
    Retreat,
    RetreatDistance,
)
from tobruk.mechanics.battle import Battle
from tobruk.mechanics.counters import family_unit

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


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
