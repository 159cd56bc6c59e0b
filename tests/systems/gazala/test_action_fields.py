"""The Gazala Gallop's actions as fields and gestures: the family's actions' fields, defaults and refusals, each
verb's gesture, the composite attack's parts, a subtype of the attack, routes and groups."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Gesture
from tobruk.engine.errors import InvalidOrderError
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Add, Attack, Declare, EndPhase, Move, NoRetreat, Resolve, Retreat, Target
from tobruk.systems.gazala.actions import VOCABULARY

H = Hex.parse
FAMILY_GAMES = [("gazala-gallop", ()), ("gazala-gallop", ("nonhistorical",)), ("first-alamein", ())]


@pytest.mark.parametrize(("name", "options"), FAMILY_GAMES)
def test_the_family_walks_move_and_end_phases_and_every_action_comes_back_from_its_fields(name: str, options: tuple[str, ...]) -> None:
    """(The engine's test on every system, tests/engine/test_action_fields.py, with what these games must reach.)"""
    seen_verbs: set[str] = set()
    for seed in (3, 8):
        rng = random.Random(seed)
        game = Game(load_scenario(name), seed=seed, options=options)
        for _ in range(600):
            if game.decision is None:
                break
            for action in game.legal_orders():
                assert game.system.vocabulary.from_fields(action.fields()) == action
                seen_verbs.add(action.verb)
            game.play(rng.choice(game.legal_orders()))
    assert {"end-phase", "move"} <= seen_verbs


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


def test_the_gazala_vocabularys_gestures() -> None:
    kinds = {t.verb: t.gesture for t in VOCABULARY}
    assert kinds["end-phase"] is kinds["declare"] is Gesture.PRESS
    assert kinds["activate"] is kinds["eliminate"] is kinds["hold"] is Gesture.UNIT
    assert kinds["airstrike"] is kinds["target"] is Gesture.HEX
    assert kinds["move"] is kinds["retreat"] is kinds["place"] is Gesture.UNIT_HEX
    assert kinds["retreat-distance"] is kinds["weather"] is kinds["resolve"] is Gesture.CHOOSE
    assert kinds["attack"] is Gesture.GROUP_TARGET  # declared: a composite has no shape of its own
    assert Attack.parts == (Target, Add, Declare) and Attack.gathers == ("attackers", "defenders")


def test_a_subtype_keeps_a_declared_gesture_and_a_new_shape_gets_its_own() -> None:
    @dataclass(frozen=True, slots=True)
    class Raid(Attack):
        verb: ClassVar[str] = "raid"

    assert Raid.gesture is Gesture.GROUP_TARGET


def test_routes_and_groups_of_the_actions_that_have_them() -> None:
    path = (H("K4"), H("K5"))
    assert Move("15Pz", path).route() == path and Retreat("15Pz", path).route() == path
    assert Resolve(1).route() == ()
    assert Move("15Pz", path).group() == "move" and Move("15Pz", path, trucks=True).group() == "move by-trucks"
    assert EndPhase.ends_step and not Declare.ends_step
