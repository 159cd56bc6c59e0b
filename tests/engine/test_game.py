"""The game core, for every system: undo restores the position exactly and stops at a die roll, a refused action
changes nothing, the seed decides the dice, records save, load and replay every state and catch tampering, play takes
notation, a copy is independent, options are the scenario's."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.engine.cases import CASES, IDS, Case, undoable, walk
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError, RecordError, UndoError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side, SideTrail
from tobruk.record import load, record_of, replay, save


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_restores_exactly_and_stops_at_a_die_roll(case: Case) -> None:
    game = case.game(7)
    rng = random.Random(7)
    with pytest.raises(UndoError):
        game.pop()  # nothing to undo yet
    undone = stopped = 0
    for _ in range(300):
        if game.decision is None or (undone >= 3 and stopped >= 1):
            break
        run: list[tuple[Action, str]] = []  # actions played since the last one undo may not cross, with the text before
        while undone < 3 and len(run) < 3 and game.decision is not None and (action := undoable(game, rng)) is not None:
            run.append((action, game.state_text()))
            game.play(action)
        for action, before in reversed(run):
            assert game.pop() == action and game.state_text() == before  # each undone exactly, last first
            undone += 1
        for action, _ in run:
            game.play(action)
        if game.decision is None:
            break
        rolls = len(game.dice.log)
        game.play(rng.choice(game.legal_orders()))
        if len(game.dice.log) > rolls:  # the action rolled a die (or a step after it did): no undo past it
            assert not game.can_undo()
            with pytest.raises(UndoError, match="die roll"):
                game.pop()
            stopped += 1
    assert undone >= 3 and stopped >= 1


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_refused_actions_change_nothing(case: Case) -> None:
    rng = random.Random(8)
    listed: list[Action] = []  # every action listed so far
    refused = 0
    for game in walk(case.game(8), 8, 60):
        legal = game.legal_orders()
        for action in rng.sample(listed, min(8, len(listed))):
            if action in legal:
                continue
            before = (json.dumps(game.state_data(), sort_keys=True), game.state_text(), list(game.state.log), len(game.dice.log))
            played = (list(game.history), list(game.deciders), list(game.by_rules))
            try:
                game.play(action)
            except IllegalOrderError:
                refused += 1
                after = (json.dumps(game.state_data(), sort_keys=True), game.state_text(), list(game.state.log), len(game.dice.log))
                assert after == before and (game.history, list(game.deciders), game.by_rules) == played
                assert game.legal_orders() == legal
            else:
                game.pop()  # (a legal action the listing gives by another representative: taken back)
        listed += legal
    assert refused > 10


def whole(case: Case, seed: int) -> tuple[list[int], list[str], str]:
    """A whole game played with the game's ``seed`` and the same random choices (listed actions by their places,
    drawn from a generator of its own, whatever the dice): its dice, the orders played, the final state."""
    game = case.game(seed)
    pick = random.Random(0)
    for _ in range(5000):
        if game.decision is None:
            break
        legal = game.legal_orders()
        game.play(legal[pick.randrange(len(legal))])
    assert game.is_over
    return [r.value for r in game.dice.log], game.notation(), game.state_text()


@pytest.mark.whole_game
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_same_seed_same_game(case: Case) -> None:
    first = whole(case, 11)
    assert whole(case, 11) == first
    assert whole(case, 12)[0] != first[0]


def random_game(case: Case, seed: int, actions: int) -> Game:
    """A random game after ``actions`` actions (or fewer, if it ends first)."""
    game = case.game(seed)
    for _ in walk(game, seed, actions):
        pass
    return game


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_record_saves_loads_and_replays_every_state(case: Case, tmp_path: Path) -> None:
    game = random_game(case, 5, 60)
    assert game.dice.log, "the game rolled dice"
    path = tmp_path / "game.json"
    save(record_of(game, {"axis": "test", "allied": "test"}), path)
    again = replay(load(path), verify=True, scenario=case.unpackaged())
    assert again.state_hash() == game.state_hash()
    assert again.notation() == game.notation()
    assert [r.value for r in again.dice.log] == [r.value for r in game.dice.log]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_tampered_record_is_caught_at_the_first_bad_order(case: Case, tmp_path: Path) -> None:
    game = case.game(5)
    seen = [text for g in walk(game, 5, 6) for text in g.legal_notation()]  # every order listed on the way
    path = tmp_path / "game.json"
    save(record_of(game), path)
    data = json.loads(path.read_text())
    data["orders"][0]["order"] = next(text for text in seen if text != data["orders"][0]["order"])
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"orders\[0\]"):
        replay(load(path), verify=True, source=str(path), scenario=case.unpackaged())
    path.write_text("{not json")
    with pytest.raises(RecordError, match="line 1"):
        load(path)
    path.write_text(json.dumps({"format": "tobruk-record", "version": 99}))
    with pytest.raises(RecordError, match="version"):
        load(path)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_play_accepts_notation(case: Case) -> None:
    for game in walk(case.game(9), 9, 30):
        action = game.legal_orders()[-1]
        by_text = game.copy()
        by_text.play(action.notation())
        by_action = game.copy()
        by_action.play(action)
        assert by_text.history[len(game.history)] == action and by_text.state_text() == by_action.state_text()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_copy_is_independent(case: Case) -> None:
    for game in walk(case.game(2), 2, 30):
        before, log, history = game.state_text(), list(game.state.log), list(game.history)
        other = game.copy()
        action = game.legal_orders()[0]
        other.play(action)
        assert game.state_text() == before and game.state.log == log and game.history == history
        assert other.history[: len(history)] == history and other.history[len(history)] == action
        again = game.copy()
        again.play(action)  # the original's own future is the copy's: the same dice to come
        assert again.state_text() == other.state_text()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_unknown_option_is_refused(case: Case) -> None:
    with pytest.raises(ValueError, match="no option"):
        Game(case.load(), options=["fog-of-war"])
    assert Game(case.load(), options=case.options).options == set(case.options)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_tampered_dice_are_caught(case: Case, tmp_path: Path) -> None:
    game = random_game(case, 5, 60)
    path = tmp_path / "game.json"
    save(record_of(game), path)
    data = json.loads(path.read_text())
    assert data["dice"], "the game rolled dice"
    data["dice"][0][1] = 7 - data["dice"][0][1]
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"dice\[0\]"):
        replay(load(path), verify=True, source=str(path), scenario=case.unpackaged())


def test_the_trail_of_deciders_reads_as_the_list_of_sides_it_stands_for() -> None:
    trail = SideTrail.of([Side.AXIS, Side.ALLIED, Side.ALLIED])
    assert list(trail) == [Side.AXIS, Side.ALLIED, Side.ALLIED] and trail[0] is Side.AXIS and trail[-1] is Side.ALLIED
    assert trail[1:] == [Side.ALLIED, Side.ALLIED] and len(trail) == 3
    assert trail == [Side.AXIS, Side.ALLIED, Side.ALLIED] and trail != SideTrail.of([Side.AXIS])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_copy_keeps_its_own_deciders(case: Case) -> None:
    game = Game(case.load(), seed=2)
    before, deciding = list(game.deciders), game.decision
    assert deciding is not None
    other = game.copy()
    other.play_id(other.legal_id_list()[0])
    assert list(game.deciders) == before and list(other.deciders)[: len(before) + 1] == [*before, deciding.side]
