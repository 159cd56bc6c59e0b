"""The family's whole choices (mechanics/actions.py): an attack and a No Retreat! answer read back from their
notation and expand into the small actions a player makes at the table."""

from __future__ import annotations

from tobruk.board.hexes import Hex
from tobruk.mechanics.actions import Add, Attack, Declare, Hold, NoRetreat, Target

H = Hex.parse


def test_whole_choices_read_back_and_expand_into_small_ones() -> None:
    attack = Attack((H("G8"), H("G9")), ("15Pz", "21Pz"), (("21Pz", 3),))
    assert attack.notation() == "attack G8,G9 with 15Pz,21Pz:3"
    assert attack.expand() == (Target(H("G8")), Target(H("G9")), Add("15Pz"), Add("21Pz", 3), Declare())
    assert NoRetreat(("1SA", "2SA")).expand() == (Hold("1SA"), Hold("2SA"), NoRetreat())
    assert NoRetreat().expand() == (NoRetreat(),)
    assert [a.notation() for a in attack.expand()] == ["target G8", "target G9", "add 15Pz", "add 21Pz:3", "declare"]
