"""The battle's and the Allied player's decisions in words: what a No Retreat! order costs (GG-XIV.B.5), whose units a
retreat distance moves and why the winner names it (GG-XIV.D.1), why a declared attack can only be withdrawn
(GG-XIV.A.6), what the Gazala Gallop does and gives up (GG-XIII.E), what the two weather numbers do (GG-VIII.0-B).

The expected words are worked out from the rule texts and the 2016 GCRT as typed in ``test_combat`` (``GCRT``), never
read from the code; where the words could depend on what the deciding side may not see (a face-down counter), two
games differing only in that are offered the same words.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.conftest import attack_game, jump_to, movement_game, unit_toml
from tests.systems.gazala.duels import COLUMNS, GCRT
from tests.systems.gazala.test_fog import DUMMY_IN_E6, advance_both, play_both, twins
from tests.systems.gazala.test_retreats import battle, two_hexes
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.game import Game
from tobruk.engine.offers import offers
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Attack, Move, NoRetreat, Resolve
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala.sequence import WEATHER

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED


def said(game: Game, verb: str) -> list[str]:
    """The words of the offered actions of ``verb``, as the page is sent them."""
    return [e["says"] for e in offers(game)["actions"] if e["verb"] == verb]


def faces(column: str, code: str) -> list[int]:
    """The die faces giving ``code`` on ``column`` of the typed-in GCRT."""
    return [die for die in range(1, 7) if GCRT[die][COLUMNS.index(column)] == code]


# --- GG-XIV.B.5: No Retreat! ----------------------------------------------------------------------------------
@pytest.mark.rule("GG-XIV.B.5")
def test_a_no_retreat_order_says_which_results_then_disrupt_the_unit_in_place_or_eliminate_it() -> None:
    game = battle("armour 1-2-2", columns=6, dice=[5], attack=6, answer=None)  # 6 to 2: 3:1
    assert faces("3:1", "R1") == [2, 3] and faces("3:1", "R2") == [4, 5]  # (the 2016 GCRT)
    # under orders an R1 becomes a D (it stays, disrupted), an R2 a DE
    assert said(game, "hold") == [
        "Give Def No Retreat! orders: it will not retreat: at 3:1 a 2 or 3 (R1) leaves it disrupted where it stands (D) "
        "instead of a retreat, and a 4 or 5 (R2) eliminates it (DE) instead of a retreat (GG-XIV.B.5)"
    ]
    assert said(game, "no-retreat") == [
        "Give no No Retreat! orders: your units retreat if the result says so, as far as the attacker names (GG-XIV.D.1)"
    ]
    d = game.decision
    assert d is not None and d.side is ALLIED and d.prompt.startswith("attack 1 on B4 (3:1) is about to be rolled: ")
    assert "an R1 leaves them disrupted where they stand (D), an R2 eliminates them (DE)" in d.prompt
    assert "at least half the hex's terrain-modified defence factors" in d.prompt


# --- GG-XIV.D.1: the winner names the distance --------------------------------------------------------------
@pytest.mark.rule("GG-XIV.D.1")
@pytest.mark.rule("GG-XIV.D.3")
def test_the_distance_question_names_only_the_losing_units_still_on_the_map_and_who_chooses() -> None:
    # 3:1 die 4: R2 for Def (B4) and Free (C4); Def cannot retreat 2 hexes and is eliminated before the winner names
    # the distance: the question is about Free alone
    game = two_hexes("Free", box=False)
    assert family_unit(game, "Def").eliminated
    d = game.decision
    assert d is not None and (d.side, d.clause) == (AXIS, "GG-XIV.D.1")
    assert d.prompt == (
        "you won attack 1: name how far the defending Allied units retreat, Free (R2): 0 to 2 hexes, one distance for all "
        "(the winner names it, the Allied player then picks each unit's route)"
    )
    assert "Def" not in d.prompt.replace("defending", "")
    # R2: 0-2 hexes as the winner wishes, no voluntary hex on an R2
    assert said(game, "retreat-distance") == [
        "0 hexes: Free stays where it is",
        "1 hex: Free retreats 1 hex (the Allied player picks the route)",
        "2 hexes: Free retreats 2 hexes (the Allied player picks the route)",
    ]


@pytest.mark.rule("GG-XIV.D.1")
def test_on_an_r1_the_distance_words_tell_the_loser_may_add_a_hex_of_his_own() -> None:
    game = battle("armour 1-2-2", columns=6, dice=[3], attack=6)  # 3:1 die 3: R1, 0-1 hexes, the loser may add 1
    assert said(game, "retreat-distance") == [
        "0 hexes: Def stays where it is; the Allied player may retreat Def 1 hex of his own accord",
        "1 hex: Def retreats 1 hex (the Allied player picks the route); the Allied player may retreat Def 1 more hex of his own accord",
    ]


@pytest.mark.rule("GG-XIV.D.1")
@pytest.mark.rule("GG-XI.A.1")
def test_a_distance_that_would_move_nobody_is_not_asked() -> None:
    # Def eliminated (unable to retreat 2), Boxed's R2 a compulsory R1 in its box: no unit is left that the winner's
    # distance would move, so the winner is not asked; the loser retreats Boxed its compulsory hex at once
    game = two_hexes("Boxed", box=True)
    d = game.decision
    assert d is not None and d.side is Side.ALLIED and d.prompt == "retreat Boxed, then end the retreat"
    assert "No retreat distance to name: no unit is left that it would move." in game.state.log
    assert not any(a.verb == "retreat-distance" for a in game.legal_orders())
    assert min(len(a.fields()["path"]) - 1 for a in game.legal_orders() if a.verb == "retreat") == 1


@pytest.mark.rule("GG-XIV.B.5")
def test_the_answer_after_no_retreat_orders_names_the_units_that_stand_fast() -> None:
    from tests.systems.gazala.duels import attack_on, duel
    from tobruk.mechanics.actions import Hold

    more = unit_toml("Def2", "allied", "B4", type_="infantry", factors="1-1-2")
    game = duel(12, 3, dice=[4], more=more)  # 3:1, die 4: R2
    game.play(attack_on(game))
    game.play(Resolve(1))
    assert said(game, "no-retreat") == [
        "Give no No Retreat! orders: your units retreat if the result says so, as far as the attacker names (GG-XIV.D.1)"
    ]
    game.play(Hold("Def"))
    game.play(Hold("Def2"))
    assert said(game, "no-retreat") == ["No more No Retreat! orders: only Def, Def2 stand(s) fast, the others retreat as the result says"]


# --- GG-XIV.A.6: an attack whose target is gone ----------------------------------------------------------------
@pytest.mark.rule("GG-XIV.A.6")
def test_an_attack_whose_defenders_are_gone_says_why_it_can_only_be_cancelled() -> None:
    units = (
        unit_toml("Att", "axis", "B3", type_="armour", factors="20-1-4")
        + unit_toml("Att2", "axis", "A4", type_="armour", factors="6-1-4")
        + unit_toml("Def", "allied", "B4", type_="armour", factors="1-2-2")
    )
    game = attack_game(units, dice=ForcedDice([6]))
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Attack((H("B4"),), ("Att2",)))
    assert said(game, "cancel") == [
        "Cancel attack 1 on B4 by Att: withdraw it before it is rolled; its units are free again (GG-XIV.A.6)",
        "Cancel attack 2 on B4 by Att2: withdraw it before it is rolled; its units are free again (GG-XIV.A.6)",
    ]
    assert said(game, "resolve") == [  # 20 to 2 is 10:1, 6 to 2 is 3:1
        "Roll the die for attack 1 on B4 by Att (10:1) (GG-XIV.C.2)",
        "Roll the die for attack 2 on B4 by Att2 (3:1) (GG-XIV.C.2)",
    ]
    game.play(Resolve(1))
    game.play(NoRetreat())  # 10:1 die 6: DE
    assert family_unit(game, "Def").eliminated
    assert said(game, "resolve") == []
    assert said(game, "cancel") == [
        "Cancel attack 2 on B4 by Att2: no enemy unit is left in B4 (destroyed or retreated since it was declared), so it "
        "cannot be rolled; its units are free again (GG-XIV.A.6)"
    ]


@pytest.mark.rule("GG-XIV.A.6")
def test_an_attack_on_two_hexes_one_of_them_emptied_says_its_units_may_attack_the_rest_again() -> None:
    units = (
        unit_toml("Att", "axis", "A4", type_="armour", factors="20-1-4")
        + unit_toml("Att2", "axis", "B3", type_="armour", factors="6-1-4")
        + unit_toml("Att3", "axis", "C5", type_="armour", factors="6-1-4")
        + unit_toml("Def", "allied", "B4", type_="armour", factors="1-2-2")
        + unit_toml("Def2", "allied", "C4", type_="armour", factors="1-2-2")
    )
    game = attack_game(units, dice=ForcedDice([6]))
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Attack((H("B4"), H("C4")), ("Att2", "Att3")))
    assert said(game, "cancel")[1] == (
        "Cancel attack 2 on B4 C4 by Att2, Att3: withdraw it before it is rolled; its units are free again (GG-XIV.A.6)"
    )
    game.play(Resolve(1))
    game.play(NoRetreat())  # 10:1 die 6: DE
    assert family_unit(game, "Def").eliminated
    assert said(game, "cancel") == [
        "Cancel attack 2 on B4 C4 by Att2, Att3: B4 is empty now, so it cannot be rolled as declared; its units are free to "
        "attack the rest again (GG-XIV.A.6)"
    ]


@pytest.mark.rule("GG-V.B.1")
@pytest.mark.rule("GG-XIV.A.6")
def test_a_declared_attack_on_a_face_down_hex_is_worded_alike_whether_a_dummy_or_a_division_is_there(gazala: Scenario) -> None:
    games = twins(gazala, DUMMY_IN_E6, ["place 1SA E6", "place Dummy1 C5", "place Dummy2 B5"])
    play_both(games, "place 15Pz E5")
    advance_both(games, "axis-attacks")
    play_both(games, "attack E6 with 15Pz")
    a, b = games
    assert json.dumps(offers(a)) == json.dumps(offers(b))
    assert said(a, "resolve") == ["Roll the die for attack 1 on E6 by 15Pz (odds unknown) (GG-XIV.C.2)"]
    assert said(a, "cancel") == ["Cancel attack 1 on E6 by 15Pz: withdraw it before it is rolled; its units are free again (GG-XIV.A.6)"]


# --- GG-XIII.E: the Gazala Gallop -------------------------------------------------------------------------------
GALLOP_RULE = (
    "(every Allied unit on or within 1 hex of the Gazala Line) are activated and abandon the line: from then on each of "
    "their moves goes only NE, E or SE, at twice its MF and movement bonus, and must end east of column 13 when it can "
    "(none is forced to move)"
)


@pytest.mark.rule("GG-XIII.E")
def test_the_gallop_says_it_is_optional_once_a_game_which_units_flee_how_and_when(gazala: Scenario) -> None:
    game = jump_to(Game(gazala, seed=1), "allied-movement")
    # the scenario's Allied units on or next to the gazala-line zone
    near = {n for x in gazala.map.zones["gazala-line"] for n in (x, *x.neighbours())}
    fleeing = [u for u, h in game.placed(ALLIED) if h in near and not family_defs(game)[u].is_dummy and not family_defs(game)[u].is_air]
    assert fleeing
    assert said(game, "gallop") == [
        f"Optional, once a game: call the Gazala Gallop (GG-XIII.E). {', '.join(fleeing)} {GALLOP_RULE}; they may flee in "
        "this movement phase. It cannot be called back or called again"
    ]


@pytest.mark.rule("GG-XIII.E")
@pytest.mark.rule("GG-XIII.A.1")
def test_the_gallop_names_the_units_that_moved_already_and_flee_only_next_game_turn(gazala: Scenario) -> None:
    game = jump_to(Game(gazala, seed=1), "allied-movement")
    near = {n for x in gazala.map.zones["gazala-line"] for n in (x, *x.neighbours())}
    fleeing = [u for u, h in game.placed(ALLIED) if h in near and not family_defs(game)[u].is_dummy and not family_defs(game)[u].is_air]
    for uid in fleeing[:2]:
        family_unit(game, uid).moved = True  # (as if activated and moved earlier in this phase)
    game.forget_caches()
    (words,) = said(game, "gallop")
    assert words.endswith(
        f"they may flee in this movement phase ({fleeing[0]}, {fleeing[1]} already moved this game-turn: in the next one's, "
        "GG-XIII.A.1). It cannot be called back or called again"
    )


@pytest.mark.rule("GG-XIII.E")
@pytest.mark.rule("GG-XIII.A.1")
def test_a_gallop_called_after_the_movement_phase_flees_next_game_turn(gazala: Scenario) -> None:
    game = jump_to(Game(gazala, seed=1), "allied-attacks")  # (a unit moves once a game-turn, in the movement phase)
    (words,) = said(game, "gallop")
    assert words.startswith("Optional, once a game: call the Gazala Gallop (GG-XIII.E). ")
    assert words.endswith(
        "they may flee in your next movement phase, next game-turn (units move only in the movement phase, once a "
        "game-turn, GG-XIII.A.1). It cannot be called back or called again"
    )


# --- GG-VIII.0: the weather numbers -----------------------------------------------------------------------------
@pytest.mark.rule("GG-VIII.0")
def test_the_weather_numbers_are_two_faces_of_a_die() -> None:
    from tobruk.engine.errors import InvalidOrderError
    from tobruk.systems.gazala.actions import Weather

    assert Weather.parse(["1", "6"], "weather 1 6") == Weather(1, 6)
    for args in (["0", "3"], ["3", "7"]):
        with pytest.raises(InvalidOrderError, match="is not a whole number from 1 to 6"):
            Weather.parse(args, f"weather {' '.join(args)}")
    with pytest.raises(InvalidOrderError) as err:
        Weather.parse(["3"], "weather 3")
    assert str(err.value) == "'weather 3': the form is weather N N"


@pytest.mark.rule("GG-VIII.0")
@pytest.mark.rule("GG-VIII.A")
@pytest.mark.rule("GG-VIII.B")
def test_the_weather_prompt_says_what_the_two_numbers_do_and_the_chances_are_the_same_for_any_pair() -> None:
    # GG-VIII.A: the sandstorm number, then 4-6 on the second die; B: the rainstorm number, then the same number again
    for s, r in ((3, 5), (1, 6), (6, 2)):
        chances: dict[str, Fraction] = {}
        for first in range(1, 7):
            for second in range(1, 7):
                weather = "clear"
                if first == s and second >= 4:
                    weather = "sandstorm"
                elif first == r and second == first:
                    weather = "rain"
                chances[weather] = chances.get(weather, Fraction(0)) + Fraction(1, 36)
        assert (chances["sandstorm"], chances["rain"]) == (Fraction(1, 12), Fraction(1, 36))
    assert WEATHER.prompt == (
        "name two different numbers, then the Axis player rolls a die: your sandstorm number followed by a 4-6 brings a "
        "sandstorm, your rainstorm number twice running brings rain, anything else is clear (any pair gives the same "
        "chances: a sandstorm 1 in 12, rain 1 in 36)"
    )


# --- GG-XIII.A.2c, XV.A.4: the forms of a move --------------------------------------------------------------------
def forms(game: Game, uid: str) -> set[str]:
    """The headings of ``uid``'s moves as the page is sent them (the page names a unit's forms by them)."""
    return {e["group"] for e in offers(game)["actions"] if e["verb"] == "move" and e.get("unit") == uid}


def trucks_heading(need: int, uid: str, left: int) -> str:
    # GG-XIII.A.2c: a convoy carries 1 attack factor of infantry at the motorized rate with 3 MF; GG-XV.A.4: the Axis
    # has 4 convoys a turn, unused ones may carry infantry
    return (
        f"Move by trucks: 3 MF at the motorized rate, one truck convoy per attack factor ({need} for {uid}); {left} of the "
        "Axis side's 4 convoys left this game-turn, shared with supply (GG-XIII.A.2c, XV.A.4)"
    )


@pytest.mark.rule("GG-XIII.A.2c")
@pytest.mark.rule("GG-XV.A.4")
def test_the_forms_of_a_move_are_named_in_words_with_the_convoys_left() -> None:
    units = unit_toml("Inf", "axis", "A1", type_="infantry", factors="2-2-2") + unit_toml(
        "Inf2", "axis", "A3", type_="infantry", factors="3-3-2"
    )
    game = movement_game(units, rows=1, columns=21)
    assert forms(game, "Inf") == {"Move", trucks_heading(2, "Inf", 4)}
    assert forms(game, "Inf2") == {"Move", trucks_heading(3, "Inf2", 4)}
    game.play(Move("Inf", (H("A2"),), trucks=True))  # 2 convoys used: 2 left, too few for Inf2's 3 factors
    assert forms(game, "Inf2") == {"Move"}


@pytest.mark.rule("GG-IX.B")
@pytest.mark.rule("GG-XIV.D.1")
def test_the_end_of_phase_ar_question_says_why_those_units_retreat_and_that_no_hex_is_added() -> None:
    # Att, disrupted next to Def, which nobody attacked: an AR as the Axis attack phase ends; the Allied player names
    # 0-1 hexes and the retreat at the phase's end adds no voluntary hex
    units = unit_toml("Att", "axis", "B3", type_="armour", factors="6-1-4") + unit_toml(
        "Def", "allied", "B4", type_="armour", factors="1-2-2"
    )
    game = attack_game(units)
    family_unit(game, "Att").disrupted = True
    game.play("end-phase")
    d = game.decision
    assert d is not None and (d.side, d.clause) == (ALLIED, "GG-XIV.D.1")
    assert d.prompt == (
        "at the end of their attack phase, name how far these Axis units retreat (disrupted next to undisrupted enemy "
        "units nobody attacked, they take an AR, GG-IX.B), Att (AR): 0 to 1 hexes, one distance for all (the winner names "
        "it, the Axis player then picks each unit's route)"
    )
    assert said(game, "retreat-distance") == [
        "0 hexes: Att stays where it is",
        "1 hex: Att retreats 1 hex (the Axis player picks the route)",
    ]
