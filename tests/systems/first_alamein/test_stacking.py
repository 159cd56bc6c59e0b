"""1st Alamein's stacking limit (FA-STK.1: 3 units a hex, at most 2 division-level; air units do not count) and
one side to a hex (GG-XII.A.1), as a reinforcement's entry meets them, and the entry's own refusals
(FA-UNIT.1), each with its clause and its words."""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import advance_to, air, scenario, unit
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.systems.first_alamein import FirstAlamein

ENTRY = '[zones.west]\nhexes = ["A1", "C1", "E1"]\n'


def arriving(uid: str, echelon: str = "division") -> str:
    return unit(uid, "axis", None, echelon=echelon, extra='arrives = { turn = 1, zone = "west" }')


def at_entry(units: str) -> Game:
    game = Game(scenario(units + unit("Far", "allied", "C8"), tail=ENTRY))
    return advance_to(game, "axis-reinforcement")


def refusal(game: Game, order: str) -> tuple[str, str]:
    with pytest.raises(IllegalOrderError) as exc:
        game.play(order)
    return exc.value.clause, exc.value.reason


@pytest.mark.rule("GG-XII.A.1")
def test_a_reinforcement_may_not_enter_a_hex_the_enemy_holds() -> None:
    game = at_entry(arriving("Pz") + unit("E", "allied", "A1"))
    assert refusal(game, "place Pz A1") == ("GG-XII.A.1", "only one side's units may be in a hex")


@pytest.mark.rule("FA-STK.1")
def test_three_units_a_hex_the_fourth_refused() -> None:
    bdes = unit("B1", "axis", "A1", echelon="subdivisional") + unit("B2", "axis", "A1", echelon="subdivisional")
    game = at_entry(bdes + arriving("B3", "subdivisional") + arriving("B4", "subdivisional"))
    game.play("place B3 A1")  # the third unit
    assert refusal(game, "place B4 A1") == ("FA-STK.1", "at most 3 units in a hex")


@pytest.mark.rule("FA-STK.1")
def test_two_divisions_a_hex_the_third_refused() -> None:
    game = at_entry(unit("D1", "axis", "A1") + unit("D2", "axis", "A1") + arriving("D3"))
    assert refusal(game, "place D3 A1") == ("FA-STK.1", "at most 2 division-level units in a hex")


@pytest.mark.rule("FA-UNIT.1")
def test_only_a_reinforcement_due_and_not_yet_arrived_may_enter() -> None:
    game = at_entry(arriving("Pz") + arriving("Pz2") + unit("On", "axis", "E3"))
    assert refusal(game, "place On A1") == ("FA-UNIT.1", "On is not a reinforcement")
    game.play("place Pz A1")
    assert refusal(game, "place Pz C1") == ("FA-UNIT.1", "Pz has arrived already")


@pytest.mark.rule("FA-STK.1")
def test_the_systems_stacking_rules_count_ground_units_only() -> None:
    rules = FirstAlamein().stacking  # a fresh instance builds them from the charts
    game = Game(scenario(unit("Pz", "axis", "A1") + air("LW", "axis", "german")))
    assert (rules.units, rules.divisions, rules.clause) == (3, 2, "FA-STK.1")
    assert rules.counts(game, "Pz") and not rules.counts(game, "LW")
