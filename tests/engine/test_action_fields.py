"""Actions as fields and gestures: every action's fields make it again, bad fields are refused field by field, and
every action type says how a person makes it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from tests.toy_system import toy_scenario
from tobruk.board.hexes import Hex
from tobruk.engine.actions import FLAG, HEX, INT, UNIT, Action, Gesture, HexAction, Vocabulary, gesture_of_shape
from tobruk.engine.errors import InvalidOrderError
from tobruk.engine.fields import codecs
from tobruk.engine.game import Game
from tobruk.engine.system import registered_systems
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.actions import Add, Attack, Declare, EndPhase, Move, NoRetreat, Resolve, Retreat, Target
from tobruk.systems.gazala.actions import VOCABULARY

H = Hex.parse

GAMES = [("gazala-gallop", ()), ("gazala-gallop", ("nonhistorical",)), ("first-alamein", ()), ("toy", ())]


def scenario_of(name: str) -> Scenario:
    return toy_scenario() if name == "toy" else load_scenario(name)


def positions(name: str, options: tuple[str, ...], seed: int, count: int) -> Iterator[Game]:
    """The positions of a random game, one after each of its first ``count`` actions (the same game object)."""
    rng = random.Random(seed)
    game = Game(scenario_of(name), seed=seed, options=options)
    for _ in range(count):
        if game.decision is None:
            return
        yield game
        game.play(rng.choice(game.legal_orders()))


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_every_legal_action_is_made_again_from_its_fields(name: str, options: tuple[str, ...]) -> None:
    seen_verbs: set[str] = set()
    for seed in (3, 8):
        for game in positions(name, options, seed, 600):
            vocabulary = game.system.vocabulary
            for action in game.legal_orders():
                fields = action.fields()
                assert fields["verb"] == action.verb
                assert vocabulary.from_fields(fields) == action
                seen_verbs.add(action.verb)
            suggest = getattr(game.system, "suggestions", None)
            d = game.decision
            if suggest is not None and d is not None:
                for whole in suggest(game, d.side):  # the composite attacks, as a computer player gives them
                    assert vocabulary.from_fields(whole.fields()) == whole
    assert {"end-phase", "move"} <= seen_verbs


def test_every_field_of_every_vocabulary_has_a_codec() -> None:
    for kind in registered_systems():
        for action_type in kind.vocabulary:
            assert codecs(action_type) is not None  # (raises for a field of a type no codec knows)


def test_fields_are_plain_json_values() -> None:
    move = Move("15Pz", (H("K4"), H("K5")), trucks=True)
    assert move.fields() == {"verb": "move", "unit": "15Pz", "path": ["K4", "K5"], "trucks": True}
    attack = Attack((H("G8"),), ("15Pz", "21Pz"), (("21Pz", 3),))
    assert attack.fields() == {"verb": "attack", "defenders": ["G8"], "attackers": ["15Pz", "21Pz"], "partial": [["21Pz", 3]]}
    assert EndPhase().fields() == {"verb": "end-phase"}
    assert Add("15Pz").fields() == {"verb": "add", "unit": "15Pz", "factors": None}
    assert NoRetreat().fields() == {"verb": "no-retreat", "units": []}


def test_fields_with_a_default_may_be_left_out() -> None:
    assert VOCABULARY.from_fields({"verb": "move", "unit": "15Pz", "path": ["K5"]}) == Move("15Pz", (H("K5"),))
    assert VOCABULARY.from_fields({"verb": "attack", "defenders": ["G8"], "attackers": ["15Pz"]}) == Attack((H("G8"),), ("15Pz",))


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ([1, 2], "an object with its verb"),
        ({"unit": "15Pz"}, "need its verb"),
        ({"verb": "fly"}, "'fly' is not an order"),
        ({"verb": "move", "unit": "15Pz"}, "the field 'path' is missing"),
        ({"verb": "move", "unit": "15Pz", "path": ["K4"], "speed": 3}, "no field 'speed'"),
        ({"verb": "move", "unit": 15, "path": ["K4"]}, "unit: expected a unit id"),
        ({"verb": "move", "unit": "15 Pz", "path": ["K4"]}, "'15 Pz' is not a unit id"),
        ({"verb": "move", "unit": "15Pz", "path": "K4"}, "path: expected a list"),
        ({"verb": "move", "unit": "15Pz", "path": []}, "path: the list is empty"),
        ({"verb": "move", "unit": "15Pz", "path": ["K4", "nowhere"]}, "'nowhere' is not a hex label"),
        ({"verb": "move", "unit": "15Pz", "path": ["K\u0664"]}, "path: expected a hex label"),  # an Arabic-Indic four
        ({"verb": "move", "unit": "15Pz", "path": ["K4"], "trucks": 1}, "trucks: expected true or false"),
        ({"verb": "resolve", "attack": 0}, "0 is outside 1-128"),
        ({"verb": "resolve", "attack": True}, "attack: expected a whole number"),
        ({"verb": "weather", "sandstorm": 1, "rainstorm": "6"}, "rainstorm: expected a whole number"),
        ({"verb": "add", "unit": "15Pz", "factors": 0}, "a whole number from 1"),
        ({"verb": "attack", "defenders": ["G8"], "attackers": ["15Pz"], "partial": [["21Pz", 2]]}, "no single order"),
        ({"verb": "attack", "defenders": ["G8"], "attackers": ["15Pz"], "partial": [["21Pz"]]}, "pairs of a unit id and a number"),
        ({"verb": "move", "unit": "15Pz", "path": ["K4"] * 65}, "at most 64 items"),
    ],
)
def test_bad_fields_are_refused_naming_what_is_wrong(fields: Any, says: str) -> None:
    with pytest.raises(InvalidOrderError) as err:
        VOCABULARY.from_fields(fields)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_gesture_comes_from_the_shape_unless_the_type_says_otherwise() -> None:
    assert gesture_of_shape(()) is Gesture.PRESS
    assert gesture_of_shape((UNIT,)) is Gesture.UNIT
    assert gesture_of_shape((HEX,)) is Gesture.HEX
    assert gesture_of_shape((UNIT, HEX)) is Gesture.UNIT_HEX
    assert gesture_of_shape((UNIT, HEX, FLAG)) is Gesture.UNIT_HEX
    assert gesture_of_shape((INT(0, 9),)) is Gesture.CHOOSE
    assert gesture_of_shape((INT(1, 6), INT(1, 6))) is Gesture.CHOOSE
    assert gesture_of_shape((HEX, UNIT)) is Gesture.CHOOSE
    kinds = {t.verb: t.gesture for t in VOCABULARY}
    assert kinds["end-phase"] is kinds["declare"] is Gesture.PRESS
    assert kinds["activate"] is kinds["eliminate"] is kinds["hold"] is Gesture.UNIT
    assert kinds["airstrike"] is kinds["target"] is Gesture.HEX
    assert kinds["move"] is kinds["retreat"] is kinds["place"] is Gesture.UNIT_HEX
    assert kinds["retreat-distance"] is kinds["weather"] is kinds["resolve"] is Gesture.CHOOSE
    assert kinds["attack"] is Gesture.GROUP_TARGET  # declared: a composite has no shape of its own
    assert Attack.parts == (Target, Add, Declare) and Attack.gathers == ("attackers", "defenders")


def test_a_subtype_keeps_a_declared_gesture_and_a_new_shape_gets_its_own() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True, slots=True)
    class Raid(Attack):
        verb: ClassVar[str] = "raid"

    @dataclass(frozen=True, slots=True)
    class Scout(HexAction):
        verb: ClassVar[str] = "scout"

    @dataclass(frozen=True, slots=True)
    class Probe(Action):
        unit: str
        hex: Hex
        verb: ClassVar[str] = "probe"
        shape: ClassVar[tuple[Any, ...]] = (UNIT, HEX)

    assert Raid.gesture is Gesture.GROUP_TARGET and Scout.gesture is Gesture.HEX and Probe.gesture is Gesture.UNIT_HEX
    assert Vocabulary((Scout,)).from_fields({"verb": "scout", "hex": "C13"}) == Scout(H("C13"))


def test_routes_and_groups_of_the_actions_that_have_them() -> None:
    path = (H("K4"), H("K5"))
    assert Move("15Pz", path).route() == path and Retreat("15Pz", path).route() == path
    assert Resolve(1).route() == ()
    assert Move("15Pz", path).group() == "move" and Move("15Pz", path, trucks=True).group() == "move by-trucks"
    assert EndPhase.ends_step and not Declare.ends_step
