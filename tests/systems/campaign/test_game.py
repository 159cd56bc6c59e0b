"""The campaign's game through the engine's contracts: the same seed and orders give the same positions, every
order can be undone to the position before it and played again to the same one, the incremental hashes agree
with hashes worked out afresh, a copy plays on by itself, every listed order is made again from its notation and
its fields; and the faces play the system as a preview that allocates no attack until combat is played."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.system import RulesNotPlayed, system_for, system_names
from tobruk.mechanics.actions import Move
from tobruk.systems.campaign import NorthAfricaCampaign
from tobruk.systems.campaign.actions import Allocate
from tobruk.tools.fuzz import check_hashes, check_undo

from .kit import H, arrange, new_game, scenario, to_step


def walk(game: Game, seed: int, orders: int) -> list[str]:
    """Random legal moves and ends of steps (allocations have tests of their own: resolving one is refused until
    combat is played); the state hash after each."""
    rng = random.Random(seed)
    hashes = []
    for _ in range(orders):
        if game.is_over:
            break
        legal = game.legal_orders()
        moves = [a for a in legal if isinstance(a, Move)]
        order = rng.choice(moves) if moves and rng.random() < 0.8 else legal[-1]
        before = game.state_hash()
        try:
            game.play(order)
        except IllegalOrderError as e:  # over-stacked at the end of a movement step (CA-K.1): move on
            assert e.clause == "CA-K.1" and game.state_hash() == before
            continue
        check_hashes(game)
        check_undo(game, order, before)
        assert game.system.vocabulary.parse(order.notation()) == order
        assert game.system.vocabulary.from_fields(order.fields()) == order
        hashes.append(game.state_hash())
    return hashes


@pytest.mark.rule("CA-Q.1")
def test_same_seed_same_orders_same_positions_and_undo_restores_each() -> None:
    a = walk(new_game("na-gazala", seed=3), 7, 60)
    b = walk(new_game("na-gazala", seed=3), 7, 60)
    assert a == b and len(a) > 40


@pytest.mark.rule("CA-Q.2")
def test_a_copy_plays_on_by_itself() -> None:
    game = new_game("na-crusader", seed=1)
    walk(game, 2, 8)
    copy = game.copy()
    before = game.state_hash()
    walk(copy, 5, 8)
    assert game.state_hash() == before
    assert walk(game.copy(), 5, 8) == walk(game.copy(), 5, 8)


def test_the_faces_play_the_campaign_as_a_preview_that_allocates_no_attack() -> None:
    """Until combat is played (CA-G, CA-T, the second part), the faces' game of a campaign scenario is a preview: the
    system is kept out of the names every played system's checks run on, and no attack may be allocated in it, so no
    game stops at an attack it cannot resolve; the tests' own campaign (``new_game``) allocates them."""
    assert "north-africa-campaign" not in system_names()
    assert "north-africa-campaign" in system_names(previews=True)
    assert "combat (CA-G, CA-T) is not yet" in NorthAfricaCampaign.preview
    game = arrange(to_step(Game(scenario("na-gazala")), "axis-movement"), {"90Lt": "V30", "1FFBde": "V31"})
    assert isinstance(game.system, NorthAfricaCampaign) and not game.system.attacks
    assert "no attacks in this preview" in game.decision.prompt if game.decision else False
    assert not [a for a in game.legal_orders() if isinstance(a, Allocate)]
    with pytest.raises(IllegalOrderError) as refusal:
        game.play(Allocate("90Lt", H("V31")))
    assert refusal.value.clause == "CA-G"
    assert refusal.value.reason == "this preview of the campaign does not play combat yet: no attack may be allocated"
    played = arrange(to_step(new_game("na-gazala"), "axis-movement"), {"90Lt": "V30", "1FFBde": "V31"})
    assert "allocate attacks" in (played.decision.prompt if played.decision else "")
    assert Allocate("90Lt", H("V31")) in played.legal_orders()


def test_a_data_only_system_is_still_refused_to_the_faces() -> None:
    from tobruk.engine.system import System, register

    @register
    class Muster(System):
        name = "muster-data-only"
        playable = False

    try:
        with pytest.raises(RulesNotPlayed, match="not played yet"):
            system_for("muster-data-only")
        assert "muster-data-only" not in system_names(previews=True)
    finally:
        from tobruk.engine import system as system_module

        system_module._REGISTRY.pop("muster-data-only", None)


def test_the_terminal_plays_a_preview_and_the_checks_of_played_systems_leave_it_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tobruk play`` plays a campaign scenario (the preview: no attack allocated); the fuzzer and the arena, which
    check what every system played in full must pass, refuse it in one line naming the field."""
    from tobruk.cli import main
    from tobruk.record import load

    record = tmp_path / "game.json"
    assert main(["play", "na-mersa-matruh", "--axis", "random", "--allied", "random", "--seed", "1", "--record", str(record)]) == 0
    orders = list(load(record).orders)
    assert orders and not any(o.startswith("allocate") for o in orders)
    assert any(o.startswith("move ") for o in orders)
    # each turn headed as the track names it (CA-Q: Mersa Matruh is II Jun 42 and I Jul 42), in the terminal and the form
    assert capsys.readouterr().out.splitlines()[:2] == ["II Jun 42 (1/2)", "I Jul 42 (2/2)"]
    form = tmp_path / "game.md"
    assert main(["form", str(record), "--out", str(form)]) == 0
    headings = [line for line in form.read_text(encoding="utf-8").splitlines() if line.startswith("### ")]
    assert headings == ["### Turn 1 (II Jun 42)", "### Turn 2 (I Jul 42)"]
    capsys.readouterr()
    assert main(["fuzz", "na-mersa-matruh", "--games", "1"]) == 2
    assert "the rules of 'north-africa-campaign' are not played yet" in capsys.readouterr().err
