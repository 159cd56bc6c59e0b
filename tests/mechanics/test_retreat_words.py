"""The winner's retreat distance in words (mechanics/retreat_groups.py): what naming a distance makes each unit of the
losing group do, and what its owner may still add, on rules given as data (a result that retreats up to 2 hexes, one
up to 1 with 1 more of the loser's own, one up to 1 with 2 more), on a small inline board."""

from __future__ import annotations

from dataclasses import replace

from tests.conftest import make_scenario, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.battle import BattleRules
from tobruk.mechanics.counters import family_unit
from tobruk.mechanics.retreat_groups import Loser, RetreatGroup, distance_prompt, distance_words, group

H = Hex.parse
RULES = BattleRules(winner_retreats={"R2": 2, "R1": 1, "AR": 1}, voluntary={"R1": 1, "AR": 2}, retreating=frozenset({"R2", "R1", "AR"}))


def losers(*units: tuple[str, str]) -> tuple[Game, RetreatGroup]:
    """Allied units in B4 with these results, the winners in B3."""
    game = Game(make_scenario("".join(unit_toml(uid, "allied", "B4") for uid, _ in units) + unit_toml("W", "axis", "B3")))
    return game, group(RULES, Side.ALLIED, tuple(Loser(uid, code) for uid, code in units), (H("B3"),))


def test_each_unit_retreats_as_far_as_the_distance_and_its_result_allow_the_farthest_first() -> None:
    game, g = losers(("R1a", "R1"), ("R2a", "R2"), ("R2b", "R2"))
    assert g.max == 2
    assert distance_words(game, RULES, g, 2) == (
        "2 hexes: R2a, R2b retreat 2 hexes; R1a retreats 1 hex (the Allied player picks the routes); the Allied player may "
        "retreat R1a 1 more hex of his own accord"
    )
    assert distance_words(game, RULES, g, 1) == (
        "1 hex: R1a, R2a, R2b retreat 1 hex (the Allied player picks the routes); the Allied player may retreat R1a 1 more "
        "hex of his own accord"
    )


def test_a_distance_of_none_leaves_them_where_they_are_with_what_they_may_add() -> None:
    game, g = losers(("R1a", "R1"), ("ARa", "AR"))
    assert distance_words(game, RULES, g, 0) == (
        "0 hexes: R1a, ARa stay where they are; the Allied player may retreat R1a 1 hex of his own accord; the Allied player "
        "may retreat ARa 2 hexes of his own accord"
    )
    game, g = losers(("R2a", "R2"))
    assert distance_words(game, RULES, g, 0) == "0 hexes: R2a stays where it is"
    assert distance_words(game, RULES, g, 1) == "1 hex: R2a retreats 1 hex (the Allied player picks the route)"


def test_the_winner_s_question_says_whose_units_why_how_far_and_what_is_compulsory() -> None:
    game, g = losers(("R2a", "R2"), ("R1a", "R1"), ("Box2", "R2"), ("Box1", "R1"))
    g = replace(g, units=tuple(replace(x, compulsory=x.unit.startswith("Box")) for x in g.units))
    assert distance_prompt(game, RULES, 3, "axis", g) == (
        "you won attack 3: name how far the defending Allied units retreat, R2a (R2), R1a (R1): 0 to 2 hexes, one distance "
        "for all (the winner names it, the Allied player then picks each unit's route); Box2 must retreat exactly 2 hexes "
        "whatever you name (a compulsory result); Box1 must retreat exactly 1 hex whatever you name (a compulsory result)"
    )
    # the attack was the Allies': their defenders won it, and the losers are the attackers
    assert distance_prompt(game, RULES, 3, "allied", g).startswith(
        "your defenders won attack 3: name how far the attacking Allied units retreat, R2a (R2), R1a (R1): 0 to 2 hexes"
    )
    # a compulsory retreat already done, or of a unit no longer on the map, is not named again
    done = replace(g, units=tuple(replace(x, done=x.unit == "Box2") for x in g.units))
    family_unit(game, "Box1").hex = None
    assert "must retreat exactly" not in distance_prompt(game, RULES, 3, "axis", done)


def test_the_question_at_the_end_of_the_attack_phase_says_why_when_the_rules_say_it() -> None:
    game, g = losers(("R1a", "R1"))
    assert distance_prompt(game, RULES, None, "allied", g) == (
        "at the end of their attack phase, name how far these Allied units retreat, R1a (R1): 0 to 1 hexes, one distance for "
        "all (the winner names it, the Allied player then picks each unit's route)"
    )
    why = replace(RULES, closing_why="disrupted next to enemy units nobody attacked, GG-IX.B")
    assert distance_prompt(game, why, None, "allied", g).startswith(
        "at the end of their attack phase, name how far these Allied units retreat (disrupted next to enemy units nobody "
        "attacked, GG-IX.B), R1a (R1): 0 to 1 hexes"
    )


def test_the_winner_is_asked_a_distance_only_where_some_unit_s_retreat_is_his_to_set() -> None:
    """A group whose every unit retreats a compulsory distance (a box's), or holds under No Retreat! orders, or has no
    result the winner sets, has its distance settled at 0 and nothing to choose; one such unit among others changes
    nothing."""
    settled = (Loser("Box", "R2", compulsory=True), Loser("Held", "R1", nr=True), Loser("Dis", "D"))
    g = group(RULES, Side.ALLIED, settled, (H("B3"),))
    assert (g.max, g.distance) == (0, 0)
    g = group(RULES, Side.ALLIED, (*settled, Loser("Free", "R1")), (H("B3"),))
    assert (g.max, g.distance) == (1, None)
