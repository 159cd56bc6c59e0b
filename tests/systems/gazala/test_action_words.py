"""The Gazala Gallop's actions in words, as the page's buttons say them (:meth:`Action.says`): what each means under
the rules, not its notation."""

from __future__ import annotations

from tobruk.board.hexes import Hex
from tobruk.mechanics.actions import Hold, NoRetreat, Retreat, RetreatDistance
from tobruk.systems.gazala.actions import Activate

H = Hex.parse


def test_the_words_say_what_the_rules_mean() -> None:
    # GG-V.A: an activated Allied unit may move and attack this turn
    assert Activate("15Pz").says() == "Activate 15Pz (it may move and attack this turn)"
    # the defender's answer alone gives no further No Retreat! orders; a Hold gives them to one unit
    assert "no (more) No Retreat! orders" in NoRetreat().says()
    assert Hold("1SA").says().startswith("Give 1SA No Retreat! orders")
    assert RetreatDistance(2).says() == "The losers retreat 2 hexes"
    assert RetreatDistance(1).says() == "The losers retreat 1 hex"
    assert Retreat("Tommy", (H("E4"), H("F4"), H("F5"))).says() == "Retreat Tommy to F5 (by E4-F4-F5)"
