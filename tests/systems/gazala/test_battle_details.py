"""The course of a battle in detail: its log line, the refusals during it, and who retreats how far.

Rows A-C (D, E where needed), odd columns shifted: B4's neighbours are A4, A5, B3, B5, C4, C5; B3 touches B4 and
C4.  GCRT (2016 charts) columns used: 1:1 die 1-6 AR, DAR, -, D, R1, R2; 3:1 D, R1, R1, R2, R2, DE.
"""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack, EndPhase, EndRetreat, NoRetreat, Resolve, Retreat, RetreatDistance
from tobruk.mechanics.battle import Battle
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


def fight(
    attack: int,
    defenders: str,
    die: int,
    *,
    hexes: tuple[str, ...] = ("B4",),
    extra: str = "",
    rows: int = 3,
    columns: int = 8,
    answer: NoRetreat | None = None,
) -> Game:
    game: Game = attack_game(
        unit_toml("Att", "axis", "B3", factors=f"{attack}-1-4") + defenders, extra, rows=rows, columns=columns, dice=ForcedDice([die])
    )
    game.play(Attack(tuple(H(h) for h in hexes), ("Att",)))
    game.play(Resolve(1))
    d = game.decision
    if d is not None and d.clause == "GG-XIV.B.5":
        game.play(answer or NoRetreat())
    return game


def tank(uid: str, hex_: str, defence: int = 2) -> str:
    return unit_toml(uid, "allied", hex_, type_="armour", factors=f"1-{defence}-2")


@pytest.mark.rule("GG-XIV.C.2")
def test_the_combat_log_line() -> None:
    game = fight(6, tank("Def", "B4"), 3)  # 6 to 2: 3:1, die 3: R1
    assert "Attack on B4 by Att: 6 to 2, 3:1; die 3: R1 (Def R1)" in game.state.log
    game = fight(2, tank("Def", "B4"), 2)  # 2 to 2: 1:1, die 2: DAR
    assert "Attack on B4 by Att: 2 to 2, 1:1; die 2: DAR (Def D, Att AR)" in game.state.log
    game = fight(2, tank("Def", "B4"), 3)  # 1:1 die 3: no effect on either side
    assert "Attack on B4 by Att: 2 to 2, 1:1; die 3: -" in game.state.log
    game = fight(4, tank("Def", "B4") + tank("Def2", "C4"), 3, hexes=("B4", "C4"))
    assert "Attack on B4,C4 by Att: 4 to 4, 1:1; die 3: -" in game.state.log


@pytest.mark.rule("GG-XIV.D.1")
def test_retreat_orders_out_of_turn_name_the_retreat_rule() -> None:
    game = fight(6, tank("Def", "B4"), 5)  # 3:1 die 5: R2, the winner names 0-2
    asked = (
        "you won attack 1: name how far the defending Allied units retreat, Def (R2): 0 to 2 hexes, one distance for all "
        "(the winner names it, the Allied player then picks each unit's route)"
    )
    for order, reason in (
        (RetreatDistance(3), f"'retreat-distance 3' is not allowed now; {asked}"),
        (EndRetreat(), f"'end-retreat' is not allowed now; {asked}"),
    ):
        before = game.state_hash()
        with pytest.raises(IllegalOrderError) as err:
            game.play(order)
        assert (err.value.clause, err.value.reason) == ("GG-XIV.D.1", reason) and game.state_hash() == before
    with pytest.raises(IllegalOrderError) as err:
        game.play(Retreat("Def", (H("B4"), H("B5"))))
    assert (err.value.clause, err.value.reason) == (  # out of turn, not a route's fault: the winner sets the distance first
        "GG-XIV.D.1",
        f"'retreat Def B4-B5' is not allowed now; {asked}",
    )
    game.play(RetreatDistance(2))
    with pytest.raises(IllegalOrderError) as err:
        game.play(Retreat("Def", (H("B4"), H("B3"))))  # toward the attacker, now that routes are chosen
    assert err.value.clause == "GG-XIV.D.2"


@pytest.mark.rule("GG-XIV.D.1")
def test_the_distance_binds_the_r1_units_and_leaves_the_boxs_d_free() -> None:
    # Att in B3 attacks B4 (an Allied box) and C4 at 3:1, die 2: R1. In the box R1 becomes D (GG-XI.A.1): Boxed
    # may stay; Open must retreat the 1 hex the winner names.
    game = fight(
        12, tank("Boxed", "B4") + tank("Open", "C4"), 2, hexes=("B4", "C4"), extra='[map.fortifications]\nallied = ["B4"]\n', rows=5
    )
    game.play(RetreatDistance(1))
    assert EndRetreat() not in game.legal_orders()
    retreat = next(o for o in game.legal_orders() if isinstance(o, Retreat) and o.unit == "Open" and len(o.path) == 2)
    game.play(retreat)
    assert EndRetreat() in game.legal_orders()  # Boxed's retreat is only voluntary
    assert any(isinstance(o, Retreat) and o.unit == "Boxed" for o in game.legal_orders())
    game.play(EndRetreat())
    assert family_unit(game, "Boxed").hex == H("B4") and family_unit(game, "Open").hex == retreat.path[-1]


@pytest.mark.rule("GG-XIV.D.1")
def test_every_unit_left_to_retreat_is_offered_its_routes() -> None:
    # two units in B4 on an R1 (3:1 die 2): once the first has gone, the second's routes are offered
    game = fight(12, tank("Def", "B4") + tank("Def2", "B4"), 2)
    game.play(RetreatDistance(1))
    game.play(next(o for o in game.legal_orders() if isinstance(o, Retreat) and o.unit == "Def" and len(o.path) == 2))
    assert {o.unit for o in game.legal_orders() if isinstance(o, Retreat)} == {"Def2"}


@pytest.mark.rule("GG-XIV.B.5")
def test_units_under_no_retreat_orders_do_not_retreat_at_all() -> None:
    # 3:1 die 2: R1, which becomes D for Def under orders; Def2 without orders takes the R1
    game = fight(12, tank("Def", "B4", 3) + tank("Def2", "B4", 1), 2, answer=NoRetreat(("Def",)))
    game.play(RetreatDistance(1))
    assert {o.unit for o in game.legal_orders() if isinstance(o, Retreat)} == {"Def2"}


@pytest.mark.rule("GG-XV.B")
def test_an_attacker_in_supply_is_not_disrupted_by_attacking() -> None:
    game = fight(2, tank("Def", "B4"), 3)  # 1:1 die 3: no effect
    assert not family_unit(game, "Att").disrupted and family_unit(game, "Att").attacked


@pytest.mark.rule("GG-XVI")
def test_a_retreat_through_a_village_takes_it() -> None:
    # R2 (3:1 die 5), 2 hexes through the Axis village B5 ... the Allies take it on the way to B6
    village = '[map.terrain]\nvillage = ["B5"]\n'
    game = fight(6, tank("Def", "B4"), 5, extra=village)
    game.vars.villages = {"B5": "axis"}
    game.play(RetreatDistance(2))
    game.play(Retreat("Def", (H("B4"), H("B5"), H("B6"))))
    assert family_unit(game, "Def").hex == H("B6") and gazala_vars(game).villages["B5"] == "allied"
    assert "Def retreats B4-B5-B6." in game.state.log


@pytest.mark.rule("GG-XIV.D.4")
def test_a_unit_cornered_against_the_sea_is_eliminated_into_the_sea() -> None:
    # sea in A5, B5, C5 east of B4 and an R2: every way out is the sea or next to the attacker
    sea = '[map.terrain]\nsea = ["A5", "B5", "C5"]\n'
    game = fight(6, tank("Def", "B4"), 5, extra=sea)
    assert family_unit(game, "Def").eliminated
    assert "Allied: Def eliminated in B4 (off the map or into the sea)." in game.state.log


def test_the_attack_phase_ends_once_every_duty_is_done() -> None:
    game = fight(2, tank("Def", "B4"), 3)
    game.play(EndPhase())
    assert game.phase.key != "axis-attacks"


@pytest.mark.rule("GG-XIV.C.3")
def test_the_log_line_names_each_units_result_after_conversion() -> None:
    game = fight(2, tank("Def", "B4"), 1)  # 1:1 die 1: AR, for the attacker only
    assert "Attack on B4 by Att: 2 to 2, 1:1; die 1: AR (Att AR)" in game.state.log
    game = fight(6, tank("Def", "B4"), 2, answer=NoRetreat(("Def",)))  # 3:1 die 2: R1, under orders a D
    assert "Attack on B4 by Att: 6 to 2, 3:1; die 2: R1 (Def D)" in game.state.log
    # attacking down a towering escarpment: half strength (3 to 2, 3:2), adverse results cancelled: die 1 DAR
    tow = '[map.hexsides]\n"towering-escarpment" = [{ side = "B3|B4", high = "B3" }]\n'
    game = fight(6, tank("Def", "B4"), 1, extra=tow)
    assert "Attack on B4 by Att: 3 to 2, 3:2; die 1: DAR (Def D)" in game.state.log


@pytest.mark.rule("GG-XIV.B.5")
def test_no_retreat_is_asked_only_where_a_result_could_make_a_defender_retreat() -> None:
    game = attack_game(unit_toml("Att", "axis", "B3", factors="1-1-4") + tank("Def", "B4", 4), dice=ForcedDice([3]))
    game.play(Attack((H("B4"),), ("Att",)))  # 1:4: D, AR, DAE, AE only: no question, the die is rolled at once
    game.play(Resolve(1))
    assert [r.value for r in game.dice.log] == [3]
    # against a box at 1:1 only the die 6 moves the defender: R2, a compulsory R1 there; the question is asked
    game = attack_game(
        unit_toml("Att", "axis", "B3", factors="2-1-4") + tank("Def", "B4"), '[map.fortifications]\nallied = ["B4"]\n', dice=ForcedDice([6])
    )
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    d = game.decision
    assert d is not None and d.clause == "GG-XIV.B.5" and game.dice.log == []


@pytest.mark.rule("GG-XIV.B.4")
@pytest.mark.rule("GG-XIV.A.2")
def test_declarations_refused_say_why() -> None:
    game = attack_game(unit_toml("Att", "axis", "B3", factors="1-1-4") + tank("Def", "B4", 5))
    with pytest.raises(IllegalOrderError) as err:
        game.play(Attack((H("B4"),), ("Att",)))
    assert (err.value.clause, err.value.reason) == ("GG-XIV.B.4", "attacks below 1:4 are not allowed (1 to 5)")
    game = attack_game(unit_toml("Att", "axis", "B3", factors="6-1-4") + tank("Def", "B4") + tank("Def2", "C4", 1))
    with pytest.raises(IllegalOrderError) as err:
        game.play(Attack((H("B4"),), ("Att",)))
    assert (err.value.clause, err.value.reason) == (
        "GG-XIV.A.2",
        "this would leave C4, which must be attacked, with no unit able to attack it: include it or keep units for it",
    )


@pytest.mark.rule("GG-XIV.C.1")
def test_a_declaration_is_logged_with_its_odds() -> None:
    game = attack_game(unit_toml("Att", "axis", "B3", factors="6-1-4") + tank("Def", "B4"))
    game.play(Attack((H("B4"),), ("Att",)))
    assert game.state.log[-1] == "Axis declares attack 1: attack B4 with Att (3:1)."
    game = attack_game(unit_toml("Att", "axis", "B3", factors="6-1-4") + tank("Def", "B4"))
    family_unit(game, "Def").hidden = True  # face down: its strength is unknown
    game.play(Attack((H("B4"),), ("Att",)))
    assert game.state.log[-1] == "Axis declares attack 1: attack B4 with Att (odds unknown)."


@pytest.mark.rule("GG-XIV.D.3")
def test_a_battle_whose_r1_unit_cannot_retreat_is_over() -> None:
    sea = '[map.terrain]\nsea = ["A5", "B5", "C5"]\n'
    game = fight(6, tank("Def", "B4"), 3, extra=sea)  # 3:1 die 3: R1, nowhere to go
    game.play(RetreatDistance(1))
    assert game.top(Battle) is None and game.decision is not None and game.decision.phase == "axis-attacks"
    assert EndPhase() in game.legal_orders()
