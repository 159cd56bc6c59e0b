"""The toy system's own rules (tests/toy_system.py), as its docstring states them: the engine's tests lean on them, so
they are held to their text here, with the dice forced."""

from __future__ import annotations

import pytest

from tests.toy_system import Hit, Marches, toy_scenario, toy_vars
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError, UndoError
from tobruk.engine.game import Game
from tobruk.engine.information import knowledge
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import family_unit

H = Hex.parse


def decider(game: Game) -> Side | None:
    return None if game.decision is None else game.decision.side


def full_game(rolls: list[int], options: tuple[str, ...] = ()) -> Game:
    return Game(toy_scenario(full=True), dice=ForcedDice(rolls), options=options)


@pytest.mark.rule("TOY-5")
def test_a_unit_next_to_an_enemy_must_fire_before_it_marches_or_the_march_ends() -> None:
    game = full_game([1])
    # the Scouts (B3) stand next to the Lancers (A4): their fire at A4 is all the Axis may do
    assert game.legal_notation() == ["fire Scout A4"]
    for order in ("move Scout B3-B4", "end-phase"):
        with pytest.raises(IllegalOrderError) as err:
            game.play(order)
        assert err.value.clause == "TOY-5"
    game.play("fire Scout A4")  # die 1: a miss
    assert [(r.purpose, r.value) for r in game.dice.log] == [("fire, Scout at A4", 1)]
    assert family_unit(game, "Scout").attacked and family_unit(game, "Lancer").hidden  # a miss reveals nothing
    listed = game.legal_orders()
    assert "fire Scout A4" not in game.legal_notation() and "end-phase" in game.legal_notation()  # once a turn
    assert game.decision is not None and any(isinstance(b, Marches) for b in game.node.action_blocks(game, game.decision))
    assert "move Scout B3-B4" in [a.notation() for a in listed]  # then it may march


@pytest.mark.rule("TOY-5")
@pytest.mark.rule("TOY-6")
def test_a_hit_reveals_the_unit_and_its_owner_decides_to_fall_back_or_stand() -> None:
    game = full_game([5, 6])
    game.play("fire Scout A4")  # die 5: a hit on the Lancers, turned face up; the Allies answer
    assert not family_unit(game, "Lancer").hidden and game.state.reveals == 1
    assert isinstance(game.node, Hit) and decider(game) is Side.ALLIED
    # A4 touches A3, A5, B4 and B3 (the Scouts'): fall back to a land hex no enemy holds, or stand
    assert sorted(game.legal_notation()) == ["fall-back Lancer A3", "fall-back Lancer A5", "fall-back Lancer B4", "stand Lancer"]
    game.play("stand Lancer")
    assert family_unit(game, "Lancer").disrupted and decider(game) is Side.AXIS
    assert game.pop().notation() == "stand Lancer" and isinstance(game.node, Hit)  # the answer may be taken back ...
    with pytest.raises(UndoError, match="die roll"):
        game.pop()  # ... the fire may not: it rolled a die
    game.play("stand Lancer")
    game.play("end-phase")
    # the Allied march: the shaken Lancers neither march nor fire; the Guards (face down, B6) march
    assert not [o for o in game.legal_notation() if "Lancer" in o]
    game.play("move Guard B6-B5")
    assert not family_unit(game, "Guard").hidden and game.state.reveals == 2 and not game.can_undo()
    game.play("end-phase")  # a new turn: shaken, fired and marched are cleared
    assert not any(family_unit(game, u).disrupted or family_unit(game, u).attacked or family_unit(game, u).moved for u in game.unit_ids)


@pytest.mark.rule("TOY-5")
def test_a_unit_hit_may_fall_back() -> None:
    game = full_game([6])
    game.play("fire Scout A4")
    game.play("fall-back Lancer A3")
    assert family_unit(game, "Lancer").hex == H("A3") and not family_unit(game, "Lancer").disrupted
    assert game.node is game.step and toy_vars(game).marches == 0  # falling back is no march


@pytest.mark.rule("TOY-6")
def test_face_down_counters_are_known_to_the_enemy_by_anonymous_ids_only() -> None:
    game = full_game([])
    known = knowledge(game, Side.AXIS)
    assert known.unseen == ("Guard", "Lancer") and not known.face_up
    assert sorted(p.hex.label for p in known.places if p.hex is not None) == ["A4", "B6"]
    anon = {p.anon for p in known.places}
    assert len(anon) == 2 and all(len(a) == 12 for a in anon) and anon == set(toy_vars(game).anon.values())
    assert not knowledge(game, Side.ALLIED).unseen  # the Axis is face up


@pytest.mark.rule("TOY-4")
@pytest.mark.rule("TOY-5")
def test_the_rules_fire_for_the_allies_and_the_axis_answers_its_own_hit() -> None:
    game = full_game([2, 6], options=("solitaire",))
    game.play("fire Scout A4")  # die 2: a miss
    game.play("move Scout B3-B4")  # still next to the Lancers in A4
    game.play("end-phase")
    # TOY-4: the Guards (B6) have no enemy next to them; the Lancers must fire, at B4: die 6, the Scouts are hit
    assert game.notation() == ["fire Scout A4", "move Scout B3-B4", "end-phase"]
    assert [a.notation() for a in game.history[3:]] == ["fire Lancer B4"] and game.by_rules == [False, False, False, True]
    assert [(r.purpose, r.value) for r in game.dice.log] == [("fire, Scout at A4", 2), ("fire, Lancer at B4", 6)]
    # the Scouts are the Axis's: the Axis answers, not the rules
    assert isinstance(game.node, Hit) and decider(game) is Side.AXIS
    game.play("stand Scout")
    # then the rules: the Guards march a hex nearer the flag (B6-B5); the Lancers, next to it already, cannot; the
    # march ends and turn 2 begins with the Axis march
    assert [a.notation() for a in game.history[4:]] == ["stand Scout", "move Guard B6-B5", "end-phase"]
    assert game.by_rules[4:] == [False, True, True] and game.turn == 2 and decider(game) is Side.AXIS
