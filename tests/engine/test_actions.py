"""Actions: the notation round-trips, every action shape has one stable id, and whole choices are played as
their small steps, all or none."""

from __future__ import annotations

import random

import pytest

from tobruk.board.hexes import Hex
from tobruk.engine.actions import ActionSpace
from tobruk.engine.errors import IllegalOrderError, InvalidOrderError
from tobruk.engine.game import Game
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Add, Attack, Declare, Hold, NoRetreat, Target

H = Hex.parse


def random_positions(scenario: Scenario, seed: int, count: int) -> list[Game]:
    """Copies of one random game at ``count`` successive decisions."""
    rng = random.Random(seed)
    game = Game(scenario, seed=seed)
    out: list[Game] = []
    while game.decision is not None and len(out) < count:
        out.append(game.copy())
        game.play(rng.choice(game.legal_orders()))
    return out


def test_every_listed_action_reads_back_from_its_notation(gazala: Scenario) -> None:
    for game in random_positions(gazala, 11, 400):
        for action in game.legal_orders():
            assert game.parse(action.notation()) == action


def test_whole_choices_read_back_and_expand_into_small_ones() -> None:
    attack = Attack((H("G8"), H("G9")), ("15Pz", "21Pz"), (("21Pz", 3),))
    assert attack.notation() == "attack G8,G9 with 15Pz,21Pz:3"
    assert attack.expand() == (Target(H("G8")), Target(H("G9")), Add("15Pz"), Add("21Pz", 3), Declare())
    assert NoRetreat(("1SA", "2SA")).expand() == (Hold("1SA"), Hold("2SA"), NoRetreat())
    assert NoRetreat().expand() == (NoRetreat(),)
    assert [a.notation() for a in attack.expand()] == ["target G8", "target G9", "add 15Pz", "add 21Pz:3", "declare"]


@pytest.mark.parametrize("text", ["add 21Pz:0", "add 21Pz:x", "target", "hold", "no-retreat a b", "declare now"])
def test_malformed_small_actions_are_refused_in_one_line(text: str) -> None:
    from tobruk.systems.gazala.actions import VOCABULARY

    with pytest.raises(InvalidOrderError) as err:
        VOCABULARY.parse(text)
    assert "\n" not in str(err.value)


def test_each_shape_has_one_stable_id(gazala: Scenario) -> None:
    game = Game(gazala)
    space = game.action_space
    again = ActionSpace(game.system.vocabulary, game.unit_ids, gazala.map.hexes)
    assert space.size == again.size and space.offsets == again.offsets
    seen: dict[int, tuple[type, tuple[object, ...]]] = {}
    for game in random_positions(gazala, 5, 300):
        for action in game.legal_orders():
            i = space.id_of(action)
            assert 0 <= i < space.size and space.kind_of(i) is type(action)
            shape = (type(action), action.key())
            assert seen.setdefault(i, shape) == shape  # one id, one shape, in every position


def test_play_by_id_plays_the_listed_action_of_that_shape(gazala: Scenario) -> None:
    game = random_positions(gazala, 7, 60)[-1]
    ids = game.legal_ids()
    mask = game.legal_mask()
    assert len(mask) == game.action_space.size and {i for i, bit in enumerate(mask) if bit} == set(ids)
    assert game.legal_id_list() == sorted(ids)
    first = next(iter(ids))
    expected = ids[first]
    assert game.play_id(first) == expected
    with pytest.raises(IllegalOrderError):
        game.play_id(game.action_space.size + 1)


def test_a_whole_attack_is_played_all_or_none(gazala: Scenario) -> None:
    from tests.conftest import unit_toml
    from tests.systems.gazala.test_combat import duel

    game = duel(6, 2, more=unit_toml("Def2", "allied", "C4", type_="armour", factors="1-30-2"))
    before, played = game.state_hash(), len(game.history)
    with pytest.raises(IllegalOrderError):
        game.play(Attack((H("B4"),), ("Att", "Nobody")))  # the second attacker is no unit: nothing is declared
    assert game.state_hash() == before and len(game.history) == played
    game.play(Attack((H("B4"),), ("Att",)))
    assert [a.notation() for a in game.history[played:]] == ["target B4", "add Att", "declare"]


def test_ids_of_numbered_actions_cover_their_range_and_refuse_beyond_it(gazala: Scenario) -> None:
    from tobruk.systems.gazala.actions import Weather

    space = Game(gazala).action_space
    lo, hi = space.id_of(Weather(1, 1)), space.id_of(Weather(6, 6))
    assert hi - lo == 6 * 6 - 1  # two dice: 36 ids in a row
    assert space.id_of(Weather(2, 1)) - lo == 6  # the first die is the higher digit
    for bad in (Weather(0, 1), Weather(1, 7)):
        with pytest.raises(ValueError, match="outside 1-6"):
            space.id_of(bad)
