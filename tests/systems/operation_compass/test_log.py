"""The game log shows every roll the rules make: each morale check's die and each of its modifiers by name, each ground
support die and chit, each naval die, each bombardment die; a player can check every result from the log alone."""

from __future__ import annotations

import re

import pytest

from tests.systems.operation_compass.kit import allied, declare, game_at, italian, lines, roll
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.players.base import make_player, play_game


@pytest.mark.rule("OC-MC.1")
def test_an_assaults_rolls_in_the_log() -> None:
    """Sidi Barrani (+4) by the sea, turn 2: the navy's die 3 (+1: 4, -2), a ground support die of 4 (one chit each:
    an Allied 2, an Italian 1); the defender I (1 step lost) and the leader U (out of supply) check."""
    extra = '[map.terrain]\nsea = ["B3"]\n[map.zones]\nsidi-barrani = ["A3"]\n[map.supply]\nallied = ["A1"]\n'
    units = allied("U", "A2", kind="motorized-infantry") + italian("I", "A3", morale=6)
    game = game_at(units, turn=2, rows=2, columns=5, map_extra=extra)
    game.unit("I").steps = 2
    since = len(game.state.entries)
    declare(game, "A3", "U", naval=True)
    roll(game, 4, "ground support")
    roll(game, 2, "Allied ground support chit")
    roll(game, 1, "Italian ground support chit")
    roll(game, 3, "naval support")
    roll(game, 1, "morale check, I")
    roll(game, 2, "morale check, U")
    # strength 6 - 4 = 2: the 2-4 column; +4 - 2 + 1 - 2 = +1: 1/2
    assert lines(game, since) == [
        "Allied: assault on A3 by U, led by U, with naval support: strength 6 - 4 = 2: column 2-4 (OC-CRT.5); "
        "+4 Sidi Barrani (OC-TER.2); DRM so far +4.",
        "Ground support: die 4: 1 Allied and 1 Italian chit(s) (OC-CRT.1).",
        "Allied ground support chit: -2.",
        "Italian ground support chit: +1.",
        "Naval support: die 3 +1: -2 (OC-CRT.3).",
        "Assault on A3: net DRM +1, column 2-4: 1/2 (Allied/Italian, OC-CRT.5).",
        "Morale check, I (assault on A3): die 1, DRM +3 (Italian number of the table +2, 1 step lost +1): 4 against morale 6, passes.",
        "Morale check, U (leading the assault on A3): die 2, DRM +1 (Allied number of the table +1): 3 against morale 4, passes.",
    ]


# what each roll's purpose is and the log line that must show it with its value
SHOWN = [
    (re.compile(r"morale check, (\S+) \((.+), morale (\d+), DRM (.+)\)$"), "Morale check, {0} ({1}): die {v}, DRM {3}: "),
    (re.compile(r"ground support, assault on (\S+)$"), "Ground support: die {v}: "),
    (re.compile(r"Allied ground support chit, assault on (\S+)$"), "Allied ground support chit: -{v}."),
    (re.compile(r"Italian ground support chit, assault on (\S+)$"), "Italian ground support chit: +{v}."),
    (re.compile(r"naval support, assault on (\S+)$"), "Naval support: die {v}"),
    (re.compile(r"bombardment of (\S+)$"), "Bombardment of {0} "),
]


def shown(game: Game) -> None:
    """Every roll of the game has its log line, in the order rolled."""
    log = lines(game)
    at = 0
    for r in game.dice.log:
        for pattern, text in SHOWN:
            m = pattern.match(r.purpose)
            if m:
                want = text.format(*m.groups(), v=r.value)
                break
        else:
            raise AssertionError(f"a roll no line explains: {r.purpose}")
        found = next((i for i in range(at, len(log)) if want in log[i]), None)
        assert found is not None, f"no log line for {r.purpose!r} = {r.value} (wanted {want!r})"
        at = found + 1


@pytest.mark.whole_game
@pytest.mark.rule("OC-MC.1")
@pytest.mark.parametrize(("seed", "options"), [(1, ()), (2, ()), (3, ("two-players",))])
def test_every_roll_of_a_whole_game_is_in_the_log(seed: int, options: tuple[str, ...]) -> None:
    game = Game(load_scenario("operation-compass"), seed=seed, options=options)
    play_game(game, {Side.ALLIED: make_player("greedy", seed), Side.AXIS: make_player("random", seed)})
    assert game.is_over and len(game.dice.log) > 20
    shown(game)
    purposes = {r.purpose.split(",")[0] for r in game.dice.log}
    assert {"morale check", "ground support", "Allied ground support chit"} <= purposes


@pytest.mark.rule("OC-CRT.6")
def test_each_line_says_what_it_is_about() -> None:
    """The log's kinds, which the game log form sorts by: an assault and its dice are "battle", a step lost "loss", a
    supply determination with every unit in supply a "note" (test_refusals: one with units out of it, "supply").
    Strength 2 - 6: the <= -1 column; -2 + 1 - 1 (the navy's 3): -2, 1/3.  I fails by 8 (3 steps), U by 6 (its 1)."""
    extra = '[map.terrain]\nsea = ["B3"]\n[map.supply]\nallied = ["A1"]\n'
    units = allied("U", "A2", kind="motorized-infantry", steps=1, morale=1) + allied("V", "A1") + italian("I", "A3", morale=1)
    game = game_at(units, turn=2, rows=2, columns=5, map_extra=extra)
    since = len(game.state.entries)
    declare(game, "A3", "U", naval=True)
    roll(game, 4, "ground support")
    roll(game, 2, "Allied ground support chit")
    roll(game, 1, "Italian ground support chit")
    roll(game, 3, "naval support")
    roll(game, 6, "morale check, I")
    roll(game, 6, "morale check, U")
    kinds = [(e.kind, e.text.split(":")[0].split(" (")[0]) for e in game.state.entries[since:]]
    assert kinds == [
        ("battle", "Allied"),
        ("battle", "Ground support"),
        ("battle", "Allied ground support chit"),
        ("battle", "Italian ground support chit"),
        ("battle", "Naval support"),
        ("battle", "Assault on A3"),
        ("battle", "Morale check, I"),
        ("loss", "I loses 3 steps"),
        ("battle", "Morale check, U"),
        ("loss", "U loses 1 step"),
    ]
    game.play("end-phase")
    supply = [e for e in game.state.entries if e.text.startswith("Allied supply")]
    assert [(e.kind, e.text) for e in supply[-1:]] == [("note", "Allied supply: every unit in supply.")]


@pytest.mark.rule("OC-BMB.1")
def test_a_bombardment_and_a_move_say_what_they_are_about() -> None:
    """Guns of 2 steps next to a unit of morale 1: the table's die 1 (+2) and a check of 6 fail by 7 (2 steps of 3:
    1 left, "loss"); the bombardment lines are "battle", the move a "move"."""
    units = allied("G", "A2", kind="support", steps=2) + allied("U", "A1") + italian("I", "A3", morale=1)
    game = game_at(units, "allied-bombardment", turn=2, rows=1, columns=5, map_extra='[map.supply]\nallied = ["A1"]\n')
    since = len(game.state.entries)
    game.play("bombard A3")
    roll(game, 1, "bombardment")
    roll(game, 6, "morale check")
    game.play("end-phase")
    game.play("move U A1-A2")
    assert (game.state.entries[-1].kind, game.state.entries[-1].text) == ("move", "Allied: U moves A1-A2.")
    kinds = [(e.kind, e.text.split(" (")[0]) for e in game.state.entries[since:]]
    assert kinds[:4] == [
        ("battle", "Allied: G bombard A3"),
        ("battle", "Bombardment of A3"),
        ("battle", "Morale check, I"),
        ("loss", "I loses 2 steps"),
    ]
    assert game.state.entries[since + 3].text == "I loses 2 steps (bombardment of A3): 1 left."
