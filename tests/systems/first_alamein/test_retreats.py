"""1st Alamein's retreat routes on its own ground (GG-XIV.D.2, which the charts leave as The Gazala Gallop has it):
the barrier hexsides of its terrain table (the impassable escarpments of the Qattara Depression's edge, and the
towering escarpment the charts share with Gazala) that a retreat may cross only along a road or track, and the
exception of rule e for a hex next to the attack that holds one of the retreating side's own boxes, never the
enemy's.

At 1:1 the GCRT gives R1 on a die of 5 and R2 on a 6 (FA-CRT.1): the defender, a 2-factor unit facing a 2-factor
attacker, retreats one hex on an R1 and is eliminated on an R2 if it cannot retreat two (FA-CRT.3); on an R1 a unit
unable to retreat stays where it is, spent (FA-CRT.7).
"""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import H, game_at, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.mechanics.actions import Retreat, RetreatDistance
from tobruk.mechanics.counters import family_unit
from tobruk.systems.first_alamein.state import alamein_vars

R1, R2 = 5, 6  # the dice of the 1:1 column


def on_a_row(die: int, map_extra: str = "") -> Game:
    """Axis A (2 factors) in A2 attacks Allied D (2) in A3 on a row of six hexes, D's room behind it A4, A5, A6; the
    die is rolled and D holds no No Retreat! orders."""
    units = unit("A", "axis", "A2", type_="armour", factors="2-2-4") + unit("D", "allied", "A3", type_="armour", factors="2-2-3")
    game = game_at(units, "axis-attacks", rows=1, columns=6, map_extra=map_extra, dice=ForcedDice([die]))
    game.play("attack A3 with A")
    game.play("resolve 1")
    game.play("no-retreat none")
    return game


def routes(game: Game, hexes: int | None = None) -> set[str]:
    """D's retreat routes on offer (of ``hexes`` hexes beyond its own if given), as "A3-A4"."""
    return {
        "-".join(h.label for h in o.path)
        for o in game.legal_orders()
        if isinstance(o, Retreat) and o.unit == "D" and (hexes is None or len(o.path) == hexes + 1)
    }


def side(kind: str, hexside: str) -> str:
    """A ``kind`` of escarpment on ``hexside`` ("A3|A4"), its second hex the high one (a barrier is impassable
    either way, so which does not matter)."""
    high = hexside.split("|")[1]
    return f'[map.hexsides]\n"{kind}" = [{{ side = "{hexside}", high = "{high}" }}]\n'


ROAD = '[[map.route]]\nkind = "road"\nhexes = ["A1", "A2", "A3", "A4", "A5", "A6"]\n'
TRACK = '[[map.route]]\nkind = "minor-track"\nhexes = ["A1", "A2", "A3", "A4", "A5", "A6"]\n'


# --- rule a: no route across a barrier hexside, but along a road or track --------------------------------------
# The charts' terrain table names the barriers: the impassable escarpment (the depression's edge) and the towering
# escarpment, impassable in either direction unless a road or track crosses it (GG-XI.D); docs/rulings.md reads
# the impassable escarpment as GG-XI.D's towering one.


@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("GG-XI.D")
@pytest.mark.parametrize("kind", ["impassable-escarpment", "towering-escarpment"])
def test_r1_across_a_barrier_is_no_retreat_and_the_unit_stays_spent(kind: str) -> None:
    """R1 with the barrier on A3|A4: D's only hex farther from A3 is across it, so D cannot retreat (FA-CRT.7: R1
    becomes S) and stays in A3, spent.  With no barrier it retreats to A4, and may go on to A5 (FA-CRT.4)."""
    game = on_a_row(R1)
    game.play("retreat-distance 1")
    assert routes(game) == {"A3-A4", "A3-A4-A5"}
    game = on_a_row(R1, side(kind, "A3|A4"))
    game.play("retreat-distance 1")
    assert routes(game) == set()
    assert family_unit(game, "D").hex == H("A3") and family_unit(game, "D").disrupted and not family_unit(game, "D").eliminated


@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("FA-CRT.3")
@pytest.mark.parametrize("kind", ["impassable-escarpment", "towering-escarpment"])
def test_r2_with_a_barrier_after_one_hex_eliminates(kind: str) -> None:
    """R2 with the barrier on A4|A5: D can retreat one hex (A4) but not two, so it is eliminated at once, whatever
    distance the attacker would name (FA-CRT.3).  With the barrier one hex farther, on A5|A6, A3-A4-A5 is open and
    the attacker names a distance of 0 to 2."""
    game = on_a_row(R2, side(kind, "A4|A5"))
    assert family_unit(game, "D").eliminated
    assert not any(isinstance(o, RetreatDistance) for o in game.legal_orders())
    game = on_a_row(R2, side(kind, "A5|A6"))
    assert not family_unit(game, "D").eliminated
    assert [o for o in game.legal_orders() if isinstance(o, RetreatDistance)] == [RetreatDistance(k) for k in range(3)]
    game.play("retreat-distance 2")
    assert routes(game) == {"A3-A4-A5"}


@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("GG-XI.D")
@pytest.mark.parametrize("route", [ROAD, TRACK], ids=["road", "track"])
def test_a_road_or_track_carries_a_retreat_across_the_barrier(route: str) -> None:
    """The barrier on A3|A4 with a road or track along the row through it: the retreat crosses it."""
    game = on_a_row(R1, side("impassable-escarpment", "A3|A4") + route)
    game.play("retreat-distance 1")
    assert routes(game) == {"A3-A4", "A3-A4-A5"}
    game.play("retreat D A3-A4")
    assert family_unit(game, "D").hex == H("A4")


def in_the_open(die: int, map_extra: str = "") -> Game:
    """Axis A (2 factors) in B2 attacks Allied D (2) in B3 on three rows of five hexes.  B3's neighbours are A3, A4,
    B2, B4, C3 and C4; A3 and C3 touch B2 (rule e), so a one-hex retreat goes to A4, B4 or C4."""
    units = unit("A", "axis", "B2", type_="armour", factors="2-2-4") + unit("D", "allied", "B3", type_="armour", factors="2-2-3")
    game = game_at(units, "axis-attacks", rows=3, columns=5, map_extra=map_extra, dice=ForcedDice([die]))
    game.play("attack B3 with A")
    game.play("resolve 1")
    game.play("no-retreat none")
    return game


@pytest.mark.rule("GG-XIV.D.2")
def test_a_route_across_a_barrier_is_refused_naming_the_retreat_rule() -> None:
    """R1, the attacker names 1: with no barrier D may go to A4, B4 or C4; the impassable escarpment on B3|B4 takes
    B4 away, and the route played by hand is refused under GG-XIV.D.2 with nothing changed."""
    game = in_the_open(R1)
    game.play("retreat-distance 1")
    assert routes(game, 1) == {"B3-A4", "B3-B4", "B3-C4"}
    game = in_the_open(R1, side("impassable-escarpment", "B3|B4"))
    game.play("retreat-distance 1")
    assert routes(game, 1) == {"B3-A4", "B3-C4"}
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as exc:
        game.play(Retreat("D", (H("B3"), H("B4"))))
    assert (exc.value.clause, exc.value.reason) == ("GG-XIV.D.2", "'retreat D B3-B4' is not allowed now; retreat D, then end the retreat")
    assert game.state_hash() == before


# --- rule e: next to the attack only into one of the side's own boxes ------------------------------------------
# A 3x3 board: the attacker in B2, the defender in B3.  B3's neighbours on the board are A3, B2 and C3, and A3 and
# C3 both touch B2, so a retreat has to use rule e's exception or stay.  The friend F in A3 keeps it open under
# rule c (the attacker's ZOC covers A3); F is spent, so the attack on B3 alone leaves no hex due (GG-XIV.A.2).
BOX_A3 = '[map.fortifications]\nallied = ["A3"]\n'


def next_to_the_attack(attacker: str, box: bool) -> Game:
    """``attacker``'s A (2 factors) in B2 attacks the other side's D (2) in B3 on an R1, the attacker names 1;
    D's friend F stands spent in A3, an Allied box if ``box``."""
    defender = "allied" if attacker == "axis" else "axis"
    units = (
        unit("A", attacker, "B2", type_="armour", factors="2-2-4")
        + unit("D", defender, "C1", type_="armour", factors="2-2-3")
        + unit("F", defender, "A1", type_="armour", factors="1-1-3")
    )
    game = game_at(units, f"{attacker}-attacks", rows=3, columns=3, map_extra=BOX_A3 if box else "", dice=ForcedDice([R1]))
    # arranged once the step is reached, so that no box is taken and no attack owed on the way
    family_unit(game, "D").hex, family_unit(game, "F").hex = H("B3"), H("A3")
    family_unit(game, "F").disrupted = True
    assert not family_unit(game, "D").disrupted and not alamein_vars(game).boxes_eliminated
    game.play("attack B3 with A")
    game.play("resolve 1")
    game.play("no-retreat none")
    game.play("retreat-distance 1")
    return game


@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("FA-TER.2")
def test_a_retreat_next_to_the_attack_goes_into_the_sides_own_box() -> None:
    """Allied D may retreat into A3, next to the attacker's hex, because A3 is an Allied box (rule e's exception);
    C3 stays closed.  Without the box D has nowhere to go: it stays in B3, spent (FA-CRT.7)."""
    game = next_to_the_attack("axis", box=True)
    assert routes(game, 1) == {"B3-A3"}
    game.play("retreat D B3-A3")
    assert family_unit(game, "D").hex == H("A3")
    game = next_to_the_attack("axis", box=False)
    assert routes(game) == set()
    assert family_unit(game, "D").hex == H("B3") and family_unit(game, "D").disrupted


@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("GG-XI.A.2")
def test_the_enemys_box_next_to_the_attack_is_no_way_out() -> None:
    """Axis D, attacked by the Allies from B2, cannot retreat into the Allied box in A3, though its own unit F
    stands there: a box is never used by the other side (GG-XI.A.2), so A3 is only a hex next to the attack.  D
    stays in B3, spent, as it does with no box at all."""
    for box in (True, False):
        game = next_to_the_attack("allied", box=box)
        assert routes(game) == set()
        assert family_unit(game, "D").hex == H("B3") and family_unit(game, "D").disrupted and not family_unit(game, "D").eliminated
