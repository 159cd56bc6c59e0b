"""Chances and die faces as a player says them, for the buttons of an air strike, an interception and a No Retreat!
order (mechanics/air.py, mechanics/no_retreat.py): the words are shared by the family's systems."""

from __future__ import annotations

from fractions import Fraction

from tobruk.mechanics.air import in_words
from tobruk.mechanics.no_retreat import faces_in_words, hold_words

EFFECTS = {"S": "leaves it spent where it stands", "DE": "eliminates it"}


def test_a_chance_is_said_as_so_many_in_so_many_or_always() -> None:
    assert in_words(Fraction(1)) == "always"
    assert in_words(Fraction(1, 3)) == "1 in 3"
    assert in_words(Fraction(4, 6)) == "2 in 3"  # (in lowest terms)
    assert in_words(Fraction(1, 2)) == "1 in 2"


def test_die_faces_are_listed_as_a_player_says_them() -> None:
    assert faces_in_words([6]) == "a 6"
    assert faces_in_words([4, 5]) == "a 4 or 5"
    assert faces_in_words([1, 2, 3]) == "a 1, 2 or 3"
    assert faces_in_words([1, 2, 3, 4]) == "a 1, 2, 3 or 4"


def test_no_retreat_orders_say_which_faces_they_change_and_into_what() -> None:
    changed = {("R2", "R2", "DE"): [1, 2], ("R1", "R1", "S"): [3]}
    assert hold_words("1SA", "2:1", changed, EFFECTS, "FA-CRT.7") == (
        "Give 1SA No Retreat! orders: it will not retreat: at 2:1 a 1 or 2 (R2) eliminates it (DE) instead of a retreat, "
        "and a 3 (R1) leaves it spent where it stands (S) instead of a retreat (FA-CRT.7)"
    )
    # a code the system gives no words for is named as it is; a change from a code other than a retreat names that code
    assert hold_words("1SA", "1:1", {("D", "D", "X"): [5]}, EFFECTS, "GG-XIV.B.5") == (
        "Give 1SA No Retreat! orders: it will not retreat: at 1:1 a 5 (D) X (X) instead of D (GG-XIV.B.5)"
    )
    assert hold_words("1SA", "1:2", {}, EFFECTS, "GG-XIV.B.5") == (
        "Give 1SA No Retreat! orders: it will not retreat; at 1:2 no result changes for it (GG-XIV.B.5)"
    )
