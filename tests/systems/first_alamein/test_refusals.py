"""What 1st Alamein refuses, and the clause each refusal names, word for word where the words matter.

The sequence of the player-turns (FA-SEQ.2 Axis, FA-SEQ.3 Allied) refuses an operation out of its place; the
battle refuses by the Gazala clauses the charts leave standing: combining attackers and defending hexes
(GG-XIV.A.4), the order of resolution (GG-XIV.C.1), the course of a retreat (GG-XIV.D.1: the winner sets the
distance, then the loser retreats) and its route (GG-XIV.D.2), and No Retreat! orders by FA-CRT.7.
"""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import H, air, game_at, unit
from tests.systems.first_alamein.test_combat import duel
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game

AIR = air("LW", "axis", "german") + air("DAF", "allied", "british")


def refused(game: Game, order: str) -> IllegalOrderError:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as exc:
        game.play(order)
    assert game.state_hash() == before  # a refusal changes nothing
    return exc.value


@pytest.mark.rule("FA-SEQ.2")
def test_the_axis_moves_before_it_attacks_and_strikes_from_the_air_before_it_moves() -> None:
    game = duel(2, 2)  # at the Axis attack step
    e = refused(game, "move A A2-A1")
    assert (e.clause, e.reason) == ("FA-SEQ.2", "'move A A2-A1' is not an order of the axis-attacks step; Axis: attacks")
    assert refused(game, "airstrike A3").clause == "FA-SEQ.2"


@pytest.mark.rule("FA-SEQ.2")
def test_the_axis_airstrike_comes_before_its_movement() -> None:
    """At the Axis airstrike step (whose own clause is FA-AIR.1) a move is refused by the sequence."""
    game = game_at(unit("Pz", "axis", "A1") + unit("X", "allied", "C6") + AIR, "axis-airstrike", rows=5, columns=8)
    assert game.decision is not None and game.decision.clause == "FA-AIR.1"
    e = refused(game, "move Pz A1-A2")
    assert e.clause == "FA-SEQ.2" and e.reason.startswith("'move Pz A1-A2' is not an order of the axis-airstrike step")
    assert refused(game, "resolve 1").clause == "FA-AIR.1"  # no operation: the step's own clause


@pytest.mark.rule("FA-SEQ.3")
def test_the_allies_move_before_their_airstrike() -> None:
    game = game_at(unit("Pz", "axis", "A1") + unit("X", "allied", "C6") + AIR, "allied-movement", rows=5, columns=8)
    e = refused(game, "airstrike A1")
    assert e.clause == "FA-SEQ.3" and e.reason.startswith("'airstrike A1' is not an order of the allied-movement step; Allied:")


@pytest.mark.rule("GG-XIV.A.4")
def test_declaring_an_attack_names_the_combination_rule() -> None:
    game = duel(2, 2, extra=unit("B", "axis", "A1"))
    game.play("target A3")
    assert (game.decision.clause if game.decision else None) == "GG-XIV.A.4"
    e = refused(game, "declare")
    assert (e.clause, e.reason) == ("GG-XIV.A.4", "an attack needs at least one attacking unit")
    e = refused(game, "target A1")
    assert e.clause == "GG-XIV.A.4" and e.reason.startswith("A1 cannot be added")
    e = refused(game, "add B")  # B in A1 is not next to A3
    assert e.clause == "GG-XIV.A.4"


@pytest.mark.rule("GG-XIV.C.1")
def test_only_a_declared_unresolved_attack_can_be_resolved() -> None:
    game = duel(2, 2)
    e = refused(game, "resolve 9")
    assert (e.clause, e.reason) == ("GG-XIV.C.1", "there is no declared, unresolved attack number 9")


@pytest.mark.rule("FA-CRT.1")
def test_an_attack_that_has_fallen_below_the_lowest_column_is_refused_when_it_comes_to_be_resolved() -> None:
    """The GCRT's lowest column is 1:4: an attack declared at 1 to 4 may be resolved; one that a second defender
    joined after it was declared (1 to 8) is refused at its resolution by the table's clause, and must be cancelled."""
    at_the_edge = duel(1, 4, extra=unit("F", "allied", "A6", factors="4-4-3"))
    at_the_edge.play("attack A3 with A")
    at_the_edge.play("resolve 1")  # 1:4, on the table: the battle goes on
    assert at_the_edge.decision is not None and at_the_edge.decision.clause != "FA-CRT.1"

    outnumbered = duel(1, 4, extra=unit("F", "allied", "A6", factors="4-4-3"))
    outnumbered.play("attack A3 with A")
    outnumbered.unit("F").hex = H("A3")  # a second defender there since the declaration: 1 to 8
    e = refused(outnumbered, "resolve 1")
    assert (e.clause, e.reason) == ("FA-CRT.1", "this attack is now below the lowest odds on the table: cancel it")


@pytest.mark.rule("GG-XIV.D.1")
@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("FA-CRT.7")
def test_a_battles_refusals_follow_its_course() -> None:
    game = duel(2, 2, die=6)  # 1:1, die 6: R2
    game.play("attack A3 with A")
    game.play("resolve 1")
    assert game.decision is not None and game.decision.clause == "FA-CRT.7"  # the defender's No Retreat! question
    assert refused(game, "hold A").clause == "FA-CRT.7"  # A is no defender
    assert refused(game, "retreat D A3-A4").clause == "GG-XIV.D.1"  # no retreat before the die and the distance
    assert refused(game, "end-phase").clause == "GG-XIV.D.1"
    game.play("no-retreat none")
    assert game.decision is not None and game.decision.clause == "GG-XIV.D.1"  # the winner sets the distance
    e = refused(game, "retreat-distance 3")  # R2: 0 to 2
    asked = (  # FA-CRT.3: R2, retreated 0-2 hexes by the attacker (the winner), the same for all (GG-XIV.D.1)
        "you won attack 1: name how far the defending Allied units retreat, D (R2): 0 to 2 hexes, one distance for all "
        "(the winner names it, the Allied player then picks each unit's route)"
    )
    assert (e.clause, e.reason) == ("GG-XIV.D.1", f"'retreat-distance 3' is not allowed now; {asked}")
    assert refused(game, "hold D").clause == "FA-CRT.7"  # No Retreat! orders come before the die
    game.play("retreat-distance 2")
    e = refused(game, "retreat D A3-A2")  # toward the attacker
    assert (e.clause, e.reason) == ("GG-XIV.D.2", "'retreat D A3-A2' is not allowed now; retreat D, then end the retreat")
    assert refused(game, "retreat-distance 1").clause == "GG-XIV.D.1"
    game.play("retreat D A3-A4-A5")
    assert game.unit("D").hex == H("A5")
