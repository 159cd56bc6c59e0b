"""The family's whole choices (mechanics/actions.py): an attack and a No Retreat! answer read back from their
notation and expand into the small actions a player makes at the table."""

from __future__ import annotations

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.errors import InvalidOrderError
from tobruk.mechanics.actions import Add, Attack, Cancel, Declare, Hold, NoRetreat, Resolve, Retreat, RetreatDistance, Target

H = Hex.parse


def test_whole_choices_read_back_and_expand_into_small_ones() -> None:
    attack = Attack((H("G8"), H("G9")), ("15Pz", "21Pz"), (("21Pz", 3),))
    assert attack.notation() == "attack G8,G9 with 15Pz,21Pz:3"
    assert attack.expand() == (Target(H("G8")), Target(H("G9")), Add("15Pz"), Add("21Pz", 3), Declare())
    assert NoRetreat(("1SA", "2SA")).expand() == (Hold("1SA"), Hold("2SA"), NoRetreat())
    assert NoRetreat().expand() == (NoRetreat(),)
    assert [a.notation() for a in attack.expand()] == ["target G8", "target G9", "add 15Pz", "add 21Pz:3", "declare"]


def test_the_answers_of_a_battle_read_back_from_their_notation_and_bad_ones_say_the_form() -> None:
    """Several units under No Retreat! orders are written with commas; a distance is 0 to 9 hexes (the id space's
    bound); a malformed answer is refused with its form."""
    assert NoRetreat.parse(["1SA,2SA"], "no-retreat 1SA,2SA") == NoRetreat(("1SA", "2SA"))
    assert NoRetreat.parse(["none"], "no-retreat none") == NoRetreat.parse([], "no-retreat") == NoRetreat()
    assert RetreatDistance.parse(["9"], "retreat-distance 9") == RetreatDistance(9)
    with pytest.raises(InvalidOrderError, match="not a whole number from 0 to 9"):
        RetreatDistance.parse(["10"], "retreat-distance 10")
    assert NoRetreat(("1SA", "2SA")).notation() == "no-retreat 1SA,2SA" and NoRetreat().notation() == "no-retreat"
    for numbered in (Cancel, Resolve):
        assert numbered.parse(["128"], f"{numbered.verb} 128") == numbered(128)  # (as many attacks as a phase can number)
        with pytest.raises(InvalidOrderError, match="not a whole number from 1 to 128"):
            numbered.parse(["129"], f"{numbered.verb} 129")
    for kind, args, text in (
        (Cancel, [], "cancel"),
        (Cancel, ["1", "2"], "cancel 1 2"),
        (RetreatDistance, [], "retreat-distance"),
        (NoRetreat, ["1SA", "2SA"], "no-retreat 1SA 2SA"),
        (Attack, ["G8", "by", "15Pz"], "attack G8 by 15Pz"),
        (Attack, ["G8", "with"], "attack G8 with"),
        (Retreat, ["1SA"], "retreat 1SA"),
        (Resolve, [], "resolve"),
    ):
        with pytest.raises(InvalidOrderError) as err:
            kind.parse(args, text)
        assert str(err.value) == f"{text!r}: the form is {kind.form}"


def test_the_small_actions_say_what_they_do_in_words() -> None:
    """The words a button or the terminal shows for each small action of an attack and of a battle."""
    assert Add("15Pz").says() == "Add 15Pz to the attack"
    assert Add("21Pz", 3).says() == "Add 21Pz to the attack with 3 of its factors"  # (a unit split between attacks)
    assert NoRetreat(("1SA", "2SA")).says() == "Give No Retreat! orders to 1SA, 2SA"
    assert NoRetreat().says() == "Give no (more) No Retreat! orders"
    assert RetreatDistance(0).says() == "The losers retreat 0 hexes (they stay where they are)"
    assert RetreatDistance(1).says() == "The losers retreat 1 hex"
    assert RetreatDistance(2).says() == "The losers retreat 2 hexes"
