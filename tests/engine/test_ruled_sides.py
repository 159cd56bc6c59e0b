"""Sides the rules play (System.ruled_sides, rules_choice): their decisions are actions the engine plays at once, like
a player's (checked, logged, kept in the history and hashed), undone with the player's action they followed, left out
of the players' orders a record keeps and replayed from them; proved on the toy system's solitaire option."""

from __future__ import annotations

import pytest

from tests.toy_system import toy_scenario
from tobruk.board.hexes import Hex
from tobruk.engine.errors import UndoError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.record import record_of, replay

H = Hex.parse


def test_the_rules_march_the_allied_side_as_soon_as_it_must_decide() -> None:
    game = Game(toy_scenario(solitaire=True), seed=1, options=["solitaire"])
    assert game.decision is not None and game.decision.side is Side.AXIS
    game.play("move Scout B3-B4")
    game.play("end-phase")
    # TOY-4: Guard (B6) marches one hex nearer the flag in B4, then the rules end the Allied march: Axis, turn 2
    guard = game.unit("Guard").hex
    assert guard is not None and guard.distance(H("B4")) == 1
    assert game.turn == 2 and game.decision is not None and game.decision.side is Side.AXIS
    assert [a.notation() for a in game.history[2:]] == [f"move Guard B6-{game.unit('Guard').hex}", "end-phase"]
    assert game.by_rules == [False, False, True, True] and game.deciders[2:] == [Side.ALLIED, Side.ALLIED]
    assert game.notation() == ["move Scout B3-B4", "end-phase"]  # the players' orders alone
    assert f"Allied: Guard marches B6-{game.unit('Guard').hex}." in game.log_for(Side.AXIS)


def test_an_undo_takes_back_the_players_order_with_the_rules_replies() -> None:
    game = Game(toy_scenario(solitaire=True), seed=1, options=["solitaire"])
    game.play("move Scout B3-B4")
    before = game.state_hash()
    game.play("end-phase")
    assert game.pop().notation() == "end-phase"
    assert game.state_hash() == before and game.history[-1].notation() == "move Scout B3-B4" and game.by_rules == [False]
    assert game.unit("Guard").hex == H("B6")
    game.pop()
    with pytest.raises(UndoError):
        game.pop()


def test_a_record_keeps_the_players_orders_and_the_replay_makes_the_rules_choices_again() -> None:
    game = Game(toy_scenario(solitaire=True), seed=1, options=["solitaire"])
    for text in ("move Scout B3-B4", "end-phase", "end-phase"):
        game.play(text)
    rec = record_of(game)
    assert rec.orders == ["move Scout B3-B4", "end-phase", "end-phase"]
    again = replay(rec, scenario=toy_scenario(solitaire=True))
    assert again.state_hash() == game.state_hash() and again.history == game.history and again.by_rules == game.by_rules


def test_without_the_option_the_allied_player_decides() -> None:
    game = Game(toy_scenario(), seed=1)
    game.play("end-phase")
    assert game.decision is not None and game.decision.side is Side.ALLIED and game.by_rules == [False]
