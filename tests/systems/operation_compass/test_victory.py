"""Victory (ruling R-OC-VICTORY; the charts give none): at the end of the last turn the WDF scores 1 a step the
Italians lost and 5 for Sidi Barrani, 2 a camp and 2 a town it holds (the last side to enter a place holds it), the
Italians 3 a step the WDF lost; the level goes by the difference: 40 or more decisive, 25 an Allied victory, 12
marginal, 0 to 11 an Italian marginal victory, below 0 an Italian victory."""

from __future__ import annotations

import pytest

from tests.systems.operation_compass.kit import H, allied, game_at, italian, lines, next_turn, play_to, roll
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.systems.operation_compass import victory as vp
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.state import compass_vars

PLACES = '[map.zones]\nsidi-barrani = ["A6"]\ncamps = ["A3", "A4"]\ntowns = ["A5"]\n[map.supply]\nallied = ["A1"]\n'


def board(units: str, turns: int = 1) -> Game:
    return game_at(units, "allied-movement", rows=1, columns=8, map_extra=PLACES, turns=turns)


def end(game: Game) -> None:
    while not game.is_over:
        game.play("end-phase")


@pytest.mark.parametrize(
    ("difference", "level", "winner"),
    [
        (40, "Allied decisive victory", "allied"),
        (39, "Allied victory", "allied"),
        (25, "Allied victory", "allied"),
        (24, "Allied marginal victory", "allied"),
        (12, "Allied marginal victory", "allied"),
        (11, "Italian marginal victory", "axis"),
        (0, "Italian marginal victory", "axis"),
        (-1, "Italian victory", "axis"),
        (-60, "Italian victory", "axis"),
    ],
)
def test_the_level_on_both_sides_of_each_threshold(difference: int, level: str, winner: str) -> None:
    """Italian steps lost score 1 each: an Italian force of enough steps loses ``difference`` of them (or the WDF
    loses steps at 3 each for the negative ones)."""
    italians = "".join(italian(f"I{n}", "A8", steps=3) for n in range(14))
    wdf = "".join(allied(f"W{n}", "A1", steps=3) for n in range(7))
    game = board(wdf + italians)
    if difference >= 0:
        for n in range(difference):
            game.unit(f"I{n // 3}").steps -= 1
    else:
        lost = -difference  # 3 points a WDF step: -1 is 1 step and 2 Italian steps, -60 is 20 steps
        steps, italian_steps = -(-lost // 3), 3 * -(-lost // 3) - lost
        for n in range(steps):
            game.unit(f"W{n // 3}").steps -= 1
        for n in range(italian_steps):
            game.unit(f"I{n // 3}").steps -= 1
    result = vp.score(game)
    assert (result["difference"], result["level"], result["winner"]) == (difference, level, winner)


def test_the_points_for_steps_and_places() -> None:
    """The WDF enters the camps A3 and A4 (2 + 2) and the town A5 (2); the Italians still hold Sidi Barrani (A6) and
    have lost 2 steps (2); the WDF has lost 1 (3).  WDF 8, Italians 3: 5, an Italian marginal victory."""
    game = board(allied("U", "A1", movement=8) + italian("I", "A6", steps=3) + allied("V", "A2", steps=3, movement=8))
    game.play("move U A1-A2-A3-A4-A5")
    game.unit("I").steps = 1
    game.unit("V").steps = 2
    end(game)
    result = compass_vars(game).result
    assert result is not None
    assert result["places"] == {"sidi-barrani": (), "camps": ("A3", "A4"), "towns": ("A5",)}
    assert (result["allied_points"], result["italian_points"], result["level"]) == (8, 3, "Italian marginal victory")
    assert lines(game)[-4:] == [
        "Italian marginal victory: the WDF 8 points, the Italians 3 (a difference of 5).",
        "Italian steps lost: 2; WDF steps lost: 1; places held by the WDF: camps A3 A4, towns A5.",
        # how each side's points were made (1 a step, 5 Sidi Barrani, 2 a camp or a town; 3 a WDF step), and the levels
        "The WDF's points: 2 for Italian steps (1 each), 0 for Sidi Barrani (5 each), 4 for camps (2 each), "
        "2 for towns (2 each): 8. The Italians': 3 for WDF steps (3 each): 3.",
        "The levels, by the difference (WDF less Italians): Allied decisive victory from 40, Allied victory from 25, "
        "Allied marginal victory from 12, Italian marginal victory from 0, Italian victory below (ruling R-OC-VICTORY).",
    ]
    summary = game.system.summary(game)
    assert summary is not None and summary.winner == "axis" and summary.margin == 5


def test_a_place_is_held_by_the_last_side_to_enter_it() -> None:
    """The WDF's tank enters A3, A4 and A5 on turn 1 and leaves them for B6 on turn 2; on turn 3 the Italian unit in A6
    (morale 1, -1 in Sidi Barrani) fails its Retreat Phase check on a 6 and goes back toward its source in A1 through
    A5 and A4, which are the Italians' again; A3, which no Italian entered since, stays the WDF's."""
    extra = PLACES.replace('[map.supply]\nallied = ["A1"]\n', '[map.supply]\nallied = ["A1", "A8"]\naxis = ["A1"]\n')
    units = allied("U", "A1", movement=8, kind="armour") + italian("I", "A6", steps=3, morale=1, movement=2)
    game = game_at(units, "allied-movement", rows=2, columns=8, map_extra=extra, turns=4)
    game.play("move U A1-A2-A3-A4-A5")
    assert compass_vars(game).held["A5"] == Side.ALLIED.value
    next_turn(game, "allied-movement")
    game.play("move U A5-B5-B6")
    game.play("end-phase")
    play_to(game, "italian-retreat", 3)
    roll(game, 6, "whether it retreats")
    assert game.unit("I").hex == H("A4")
    held = compass_vars(game).held
    assert held["A4"] == held["A5"] == Side.AXIS.value and held["A3"] == Side.ALLIED.value


def test_the_italians_hold_their_places_at_the_start() -> None:
    game = board(allied("U", "A1") + italian("I", "A6") + italian("J", "A3"))
    assert compass_vars(game).held == {"A6": "axis", "A3": "axis"}
    assert vp.places_held(game) == {"sidi-barrani": [], "camps": [], "towns": []}


def test_the_score_while_the_game_goes_on() -> None:
    game = board(allied("U", "A1", movement=8) + italian("I", "A6"))
    game.play("move U A1-A2-A3")
    assert game.system.score_now(game) == {"allied": 2.0, "axis": 0.0}


def test_the_first_hex_entered_is_held_and_an_empty_list_says_none() -> None:
    game = board(allied("U", "A2", movement=8) + italian("I", "A6"))
    assert vp.describe(vp.score(game), chart(game))[1] == "Italian steps lost: 0; WDF steps lost: 0; places held by the WDF: none."
    game.play("move U A2-A3")
    assert vp.places_held(game)["camps"] == ["A3"]
