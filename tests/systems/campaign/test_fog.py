"""The face-down Tobruk garrison (CA-F.4): the Axis gets the same answers whichever counter is the dummy.

Two games of the Battle of Gazala differ only in that: the dummy and 2 SA Division, both face down inside the
perimeter, trade hexes.  Walked with the same orders (the Axis's moves, the Allies' ends of steps), the Axis's view
(units, log, dice, decision) and its legal orders and their ids are the same at every position; an attack
allocated against the hex reveals what stands there."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tobruk.engine.errors import IllegalOrderError, UndoError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign import hidden, recovery
from tobruk.systems.campaign.actions import Allocate
from tobruk.view import view

from .kit import SYSTEM, H, arrange, lines_since, new_game, scenario, to_step, unit


def twins(seed: int = 4) -> tuple[Game, Game]:
    sc = scenario("na-gazala")
    start = dict(sc.start)
    start["2SADiv"], start["TobrukDummy"] = start["TobrukDummy"], start["2SADiv"]
    return new_game("na-gazala", seed=seed), Game(replace(sc, start=start), seed=seed, system=SYSTEM)


def axis_answers(game: Game) -> tuple[object, ...]:
    d = game.decision
    orders = game.legal_orders() if d is not None and d.side is Side.AXIS else []
    ids = game.legal_id_list() if orders else []
    layers = [o.data() for o in game.system.overlays(game, Side.AXIS)]  # the zones drawn: a face-down counter's a division's
    return view(game, Side.AXIS), [o.notation() for o in orders], ids, layers


@pytest.mark.rule("CA-F.4")
def test_the_axis_cannot_tell_which_face_down_counter_is_the_dummy() -> None:
    a, b = twins()
    assert unit(a, "TobrukDummy").hex == unit(b, "2SADiv").hex and unit(a, "TobrukDummy").hidden
    seen = [u for u in view(a, Side.AXIS)["units"] if u.get("hidden")]
    assert sorted(u["hex"] for u in seen) == ["J39", "K39"] and all("id" not in u for u in seen)
    rng = random.Random(9)
    for _ in range(60):
        if a.is_over:
            break
        assert axis_answers(a) == axis_answers(b)
        d = a.decision
        assert d is not None
        moves = [o for o in a.legal_orders() if isinstance(o, Move)] if d.side is Side.AXIS else []
        order = rng.choice(moves) if moves and rng.random() < 0.7 else EndPhase()
        for g in (a, b):
            try:
                g.play(order)
            except IllegalOrderError as e:  # over-stacked at the end of the step: the same refusal in both
                assert e.clause == "CA-K.1"
    assert a.turn >= 2


@pytest.mark.rule("CA-F.4")
@pytest.mark.rule("CA-Z.1")
def test_a_face_down_counter_has_a_divisions_zone_and_is_revealed_when_attacked() -> None:
    way = (*(H(f"V{c}") for c in range(30, 34)), H("W33"))  # V33 is next to V34, W33 is not

    def at_v34(face_down: bool) -> Game:
        game = to_step(new_game("na-gazala"), "axis-movement")
        arrange(game, {"TobrukDummy": "V34", "90Lt": "V30", "Trieste": "U34"})
        unit(game, "TobrukDummy").hidden = face_down  # (it starts face down, inside the perimeter)
        return game

    # face up, the dummy is a lone lower-level unit with no zone: 90Lt passes by
    game = at_v34(face_down=False)
    game.play(Move("90Lt", way))
    assert unit(game, "90Lt").hex == H("W33")
    # face down it may be a division: 90Lt stops next to it
    game = at_v34(face_down=True)
    with pytest.raises(IllegalOrderError) as e:
        game.play(Move("90Lt", way))
    assert e.value.clause == "CA-Z.1"
    n = len(game.state.entries)
    game.play(Allocate("Trieste", H("V34")))
    assert "The face-down counter in V34 is revealed (being attacked): the Tobruk dummy, taken off the map." in lines_since(game, n)
    assert unit(game, "TobrukDummy").hex is None and not unit(game, "TobrukDummy").hidden


@pytest.mark.rule("CA-F.4")
def test_the_axis_reads_a_face_down_units_move_without_its_name_and_sees_it_revealed_when_disrupted() -> None:
    game = to_step(new_game("na-gazala"), "allied-movement")
    start = unit(game, "2SADiv").hex
    dest = next(m for m in game.legal_orders() if isinstance(m, Move) and m.unit == "2SADiv").path[-1]
    game.play(Move("2SADiv", (dest,)))
    assert game.log_for(Side.AXIS)[-1].startswith(f"Allied: a face-down unit moves {start}-{dest}")
    assert game.log_for(Side.ALLIED)[-1].startswith(f"Allied: 2SADiv moves {start}-{dest}")
    assert unit(game, "2SADiv").hidden
    recovery.mark_newly_disrupted(game, ["2SADiv"])
    assert not unit(game, "2SADiv").hidden
    assert f"The face-down counter in {dest} is revealed (disrupted): 2SADiv." in game.log_for(Side.AXIS)


@pytest.mark.rule("CA-F.4")
def test_the_enemy_sees_a_face_down_counter_by_its_anonymous_id_until_the_game_is_over() -> None:
    game = new_game("na-gazala")
    seen = hidden.seen_units(game, Side.ALLIED)
    where, face_down, gone, anon = seen["2SADiv"]
    assert where == unit(game, "2SADiv").hex
    assert face_down and not gone and anon is not None and anon != "2SADiv"  # inside the perimeter, face down
    assert seen["50Div"] == (unit(game, "50Div").hex, False, False, None)  # face up: no anonymous id
    for _ in range(500):
        if game.state.over:
            break
        game.play(EndPhase())
    assert game.state.over and unit(game, "2SADiv").hidden  # never revealed in play
    assert hidden.seen_units(game, Side.ALLIED)["2SADiv"] == (unit(game, "2SADiv").hex, False, False, None)  # all shown


@pytest.mark.rule("CA-F.4")
def test_each_reveal_is_seen_by_the_axis_and_cannot_be_undone() -> None:
    game = to_step(new_game("na-gazala"), "axis-movement")
    arrange(game, {"2SADiv": "V34", "1SADiv": "V36", "Trieste": "U34", "90Lt": "U36"})
    unit(game, "2SADiv").hidden = unit(game, "1SADiv").hidden = True
    assert hidden.name(game, "1SADiv") == "a face-down unit"
    game.play(Allocate("Trieste", H("V34")))
    with pytest.raises(UndoError):
        game.pop()
    game.play(Allocate("90Lt", H("V36")))  # a second reveal, in a later order: no undo past it either
    with pytest.raises(UndoError):
        game.pop()


@pytest.mark.rule("CA-F.4")
def test_revealing_a_list_turns_up_each_face_down_counter_in_it_and_only_those_lose_their_anonymous_ids() -> None:
    game = new_game("na-gazala")
    first, others = "2SADiv", ["TobrukDummy"]  # the garrison face down inside the perimeter
    assert all(unit(game, u).hidden for u in (first, *others))
    hidden.reveal(game, ["50Div", first], "being attacked")  # 50Div is face up already: passed over
    assert not unit(game, first).hidden
    seen = hidden.seen_units(game, Side.ALLIED)
    assert seen[first][3] is None and all(seen[o][3] is not None for o in others)


@pytest.mark.rule("CA-F.4")
def test_a_face_down_units_move_is_filed_as_a_move() -> None:
    game = to_step(new_game("na-gazala"), "allied-movement")
    dest = next(m for m in game.legal_orders() if isinstance(m, Move) and m.unit == "2SADiv").path[-1]
    game.play(Move("2SADiv", (dest,)))
    assert unit(game, "2SADiv").hidden and game.state.entries[-1].kind == "move"
