"""The Gazala Gallop's actions: its notation (the family's verbs and its own: weather, activate, gallop) read back and
refused in one line, its numbered shapes (the weather's two dice) in the action space, and a whole attack played as
its small actions, all or none.  (That every system's listed actions read back and take one id each is the engine's
part: tests/engine/test_actions.py.)"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action as Order
from tobruk.engine.errors import IllegalOrderError, InvalidOrderError
from tobruk.engine.game import Game
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import Attack, EndPhase, Move, Place
from tobruk.systems.gazala.actions import VOCABULARY, Activate, Weather

H = Hex.parse


@pytest.mark.parametrize("text", ["add 21Pz:0", "add 21Pz:x", "target", "hold", "no-retreat a b", "declare now"])
def test_malformed_small_actions_are_refused_in_one_line(text: str) -> None:
    with pytest.raises(InvalidOrderError) as err:
        VOCABULARY.parse(text)
    assert "\n" not in str(err.value)


def test_a_whole_attack_is_played_all_or_none(gazala: Scenario) -> None:
    from tests.conftest import unit_toml
    from tests.systems.gazala.duels import duel

    game = duel(6, 2, more=unit_toml("Def2", "allied", "C4", type_="armour", factors="1-30-2"))
    before, played = game.state_hash(), len(game.history)
    with pytest.raises(IllegalOrderError):
        game.play(Attack((H("B4"),), ("Att", "Nobody")))  # the second attacker is no unit: nothing is declared
    assert game.state_hash() == before and len(game.history) == played
    game.play(Attack((H("B4"),), ("Att",)))
    assert [a.notation() for a in game.history[played:]] == ["target B4", "add Att", "declare"]


def test_ids_of_numbered_actions_cover_their_range_and_refuse_beyond_it(gazala: Scenario) -> None:
    space = Game(gazala).action_space
    lo, hi = space.id_of(Weather(1, 1)), space.id_of(Weather(6, 6))
    assert hi - lo == 6 * 6 - 1  # two dice: 36 ids in a row
    assert space.id_of(Weather(2, 1)) - lo == 6  # the first die is the higher digit
    for bad in (Weather(0, 1), Weather(1, 7)):
        with pytest.raises(ValueError, match="outside 1-6"):
            space.id_of(bad)


orders = st.one_of(
    st.just(EndPhase()),
    st.builds(Place, st.sampled_from(["15Pz", "1SA", "RecceGp"]), st.builds(Hex.from_offset, st.integers(0, 13), st.integers(0, 17))),
    st.builds(Activate, st.sampled_from(["1SA", "50Div"])),
    st.builds(
        Move,
        st.just("21Pz"),
        st.lists(st.builds(Hex.from_offset, st.integers(0, 13), st.integers(0, 17)), min_size=1, max_size=6).map(tuple),
    ),
    st.builds(
        Attack,
        st.lists(st.builds(Hex.from_offset, st.integers(0, 13), st.integers(0, 17)), min_size=1, max_size=2).map(tuple),
        st.lists(st.sampled_from(["15Pz", "21Pz", "90Lt"]), min_size=1, max_size=3).map(tuple),
    ),
    st.builds(Weather, st.integers(1, 6), st.integers(1, 6)),
)


@given(orders)
def test_order_notation_round_trips(order: Order) -> None:
    text = order.notation()
    assert VOCABULARY.parse(text) == order
    assert VOCABULARY.parse(text).notation() == text


def test_order_notation_examples() -> None:
    assert VOCABULARY.parse("move 21Pz H4-H5-I6") == Move("21Pz", (H("H4"), H("H5"), H("I6")))
    assert VOCABULARY.parse("attack G8 with 15Pz,21Pz") == Attack((H("G8"),), ("15Pz", "21Pz"))
    assert VOCABULARY.parse("END-PHASE") == EndPhase()
    for bad in ("", "fly 15Pz", "move 15Pz", "move 15 Pz G3", "weather 0 7", "attack G8 15Pz", "place 15Pz Q"):
        with pytest.raises(InvalidOrderError):
            VOCABULARY.parse(bad)
