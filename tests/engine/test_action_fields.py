"""Actions as fields and gestures, on every system (tests/engine/cases.py): every legal action is made again from its
JSON fields, every field of every vocabulary has a codec, and a gesture comes from the shape unless a type declares
its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from tests.engine.cases import CASES, IDS, Case, walk
from tobruk.board.hexes import Hex
from tobruk.engine.actions import FLAG, HEX, INT, UNIT, Action, Gesture, HexAction, Vocabulary, gesture_of_shape
from tobruk.engine.fields import codecs
from tobruk.engine.system import registered_systems

H = Hex.parse


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_legal_action_is_made_again_from_its_fields(case: Case) -> None:
    seen_verbs: set[str] = set()
    for seed in (3, 8):
        for game in walk(case.game(seed), seed, 300):
            vocabulary = game.system.vocabulary
            for action in game.legal_orders():
                fields = action.fields()
                assert fields["verb"] == action.verb
                assert vocabulary.from_fields(fields) == action
                seen_verbs.add(action.verb)
            advisor = game.system.advisor(game, game.decision.side) if game.decision is not None else None
            for whole in advisor.candidates() if advisor is not None else ():  # whole choices, as a computer player gives them
                assert vocabulary.from_fields(whole.fields()) == whole
    assert len(seen_verbs) >= 2  # (the walks reach more than one kind of decision)


def test_every_field_of_every_vocabulary_has_a_codec() -> None:
    for kind in registered_systems():
        for action_type in kind.vocabulary:
            assert codecs(action_type) is not None  # (raises for a field of a type no codec knows)


def test_a_gesture_comes_from_the_shape() -> None:
    assert gesture_of_shape(()) is Gesture.PRESS
    assert gesture_of_shape((UNIT,)) is Gesture.UNIT
    assert gesture_of_shape((HEX,)) is Gesture.HEX
    assert gesture_of_shape((UNIT, HEX)) is Gesture.UNIT_HEX
    assert gesture_of_shape((UNIT, HEX, FLAG)) is Gesture.UNIT_HEX
    assert gesture_of_shape((INT(0, 9),)) is Gesture.CHOOSE
    assert gesture_of_shape((INT(1, 6), INT(1, 6))) is Gesture.CHOOSE
    assert gesture_of_shape((HEX, UNIT)) is Gesture.CHOOSE


def test_a_new_shape_gets_its_own_gesture_and_its_fields() -> None:
    @dataclass(frozen=True, slots=True)
    class Scout(HexAction):
        verb: ClassVar[str] = "scout"

    @dataclass(frozen=True, slots=True)
    class Probe(Action):
        unit: str
        hex: Hex
        verb: ClassVar[str] = "probe"
        shape: ClassVar[tuple[Any, ...]] = (UNIT, HEX)

    assert Scout.gesture is Gesture.HEX and Probe.gesture is Gesture.UNIT_HEX
    assert Vocabulary((Scout,)).from_fields({"verb": "scout", "hex": "C13"}) == Scout(H("C13"))
