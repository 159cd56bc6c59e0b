"""What 1st Alamein reads from the position, clause by clause: enemy ZOCs kept out of the boxes a side held at
the start of its player-turn (GG-XI.A.3 as docs/rulings.md reads it), one side to a hex and the stacking limit
for a reinforcement (GG-XII.A.1, FA-STK.1), and an elimination's log line.

The ZOC boards are one row: an Allied box in A4, the Axis unit E in A5 next to it (its ZOC in A4 and A6), and
an Allied unit of 2 MF in A1, which reaches A4 (three hexes) only with the bonus MF of a move entering no enemy
ZOC (GG-XIII.C).
"""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import H, game_at, unit
from tests.systems.first_alamein.test_combat import fight
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.view import view

BOX = '[map.fortifications]\nallied = ["A4"]\n'


def refused(game: Game, order: str) -> IllegalOrderError:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as exc:
        game.play(order)
    assert game.state_hash() == before  # a refusal changes nothing
    return exc.value


def reach(game: Game, uid: str) -> set[str]:
    return {m.path[-1].label for m in game.legal_orders() if isinstance(m, Move) and m.unit == uid}


def box_row(holder_at: str) -> Game:
    """Allied X (spent: 1 MF) in ``holder_at`` and Y (2 MF) in A1, Axis E in A5, at the Allied movement step of turn 1 (the
    Allied victory determination before it noted the boxes the Allies held)."""
    units = (
        unit("X", "allied", holder_at, echelon="subdivisional", factors="1-1-2")
        + unit("Y", "allied", "A1", echelon="subdivisional", factors="1-1-2")
        + unit("E", "axis", "A5", factors="2-2-3")
    )
    # X and E start spent (they keep their ZOCs, GG-IX.0): neither owes the other an attack on the way there
    return game_at(units, "allied-movement", rows=1, columns=8, map_extra=BOX, rules='spent_at_start = ["X", "E"]')


@pytest.mark.rule("GG-XI.A.3")
def test_a_box_held_at_the_start_of_the_player_turn_stays_out_of_enemy_zoc_all_of_it() -> None:
    game = box_row("A4")
    game.play("move X A4-A3")  # the box is empty now, but was held when the Allied player-turn began
    assert "A4" in reach(game, "Y")  # no ZOC entered: the bonus MF takes Y three hexes
    game.play("move Y A1-A2-A3-A4")
    assert game.unit("Y").hex == H("A4")


@pytest.mark.rule("GG-XI.A.3")
def test_a_box_entered_during_the_player_turn_is_in_enemy_zoc_until_the_next() -> None:
    game = box_row("A3")
    game.play("move X A3-A4")  # held now, but not at the start of the Allied player-turn
    assert reach(game, "Y") == {"A2", "A3"}  # A4 is in E's ZOC: no bonus MF for the move entering it
    e = refused(game, "move Y A1-A2-A3-A4")
    assert (e.clause, e.reason) == ("GG-XIII.A.2", "not enough movement to enter A4 (0 MF left of 2)")


# --- GG-XII.A.1, FA-STK.1: where a reinforcement may enter ------------------------------------------------
ENTRY = '[zones.entry]\nhexes = ["A1", "A2"]\n'


def brigade(uid: str, side: str, hex_: str) -> str:
    return unit(uid, side, hex_, echelon="subdivisional", factors="1-1-2")


def arriving(echelon: str = "subdivisional") -> str:
    return unit("R", "axis", None, echelon=echelon, factors="1-1-2", extra='arrives = { turn = 1, zone = "entry" }')


@pytest.mark.rule("GG-XII.A.1")
def test_a_reinforcement_does_not_enter_a_hex_with_enemy_units() -> None:
    game = game_at(brigade("E", "allied", "A1") + arriving(), "axis-reinforcement", rows=1, columns=8, tail=ENTRY)
    e = refused(game, "place R A1")
    assert (e.clause, e.reason) == ("GG-XII.A.1", "only one side's units may be in a hex")
    game.play("place R A2")


@pytest.mark.rule("FA-STK.1")
def test_a_reinforcement_may_make_a_third_unit_but_not_a_fourth() -> None:
    two = brigade("B1", "axis", "A1") + brigade("B2", "axis", "A1")
    game = game_at(two + arriving(), "axis-reinforcement", rows=1, columns=8, tail=ENTRY)
    game.play("place R A1")  # three units, none of them a division
    assert game.unit("R").hex == H("A1")
    three = two + brigade("B3", "axis", "A1") + brigade("B4", "axis", "A2")
    game = game_at(three + arriving(), "axis-reinforcement", rows=1, columns=8, tail=ENTRY)
    e = refused(game, "place R A1")
    assert (e.clause, e.reason) == ("FA-STK.1", "at most 3 units in a hex")


# --- eliminations (FA-CRT.2, the Game Log form FA-LOG.1) ----------------------------------------------------
@pytest.mark.rule("FA-CRT.2")
@pytest.mark.rule("FA-LOG.1")
def test_an_eliminated_unit_leaves_the_map_with_its_spent_status_and_the_log_lists_the_loss() -> None:
    units = unit("A", "axis", "A2", type_="armour", factors="10-10-4") + unit("D", "allied", "A3", factors="1-1-3")
    game = game_at(units, "axis-attacks", rows=1, columns=6, dice=ForcedDice([2]), rules='spent_at_start = ["D"]')
    fight(game)  # 10:1 (one higher for the spent D: still 10:1), die 2: DE
    d = next(u for u in view(game, Side.ALLIED)["units"] if u["id"] == "D")
    assert (d["eliminated"], d["hex"], d["disrupted"]) == (True, None, False)  # no spent marker on a lost counter
    loss = [e for e in game.state.entries if e.kind == "loss"]  # the form's losses (FA-LOG.1)
    assert [e.text for e in loss] == ["D is eliminated (combat result DE)."]
