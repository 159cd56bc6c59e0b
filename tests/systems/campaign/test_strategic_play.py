"""Strategic movement and its neighbours in play (CA-S.1, CA-U.3, CA-R.3): what moved units arrive as, the 8th Army
artillery after any move, the one British division before the Alamein force level; every die of the new moves a
chance node (as tests/engine/test_chance.py holds the playable systems to); and the Axis told nothing of the
face-down Tobruk garrison by the sea moves and bugouts it may make (CA-F.4)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tobruk.engine.actions import Action
from tobruk.engine.chance import Outcome
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign.actions import Allocate, Bugout, Sea
from tobruk.systems.campaign.state import campaign_vars
from tobruk.view import view

from .kit import SYSTEM, H, arrange, lines_since, new_game, past_set_up, scenario, to_step, unit


def refused(game: Game, order: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


# ------------------------------------------------------------------------------------------------ CA-S.1


@pytest.mark.rule("CA-S.1")
@pytest.mark.rule("CA-S.2")
def test_strategically_moved_units_arrive_disrupted_but_rail_arrives_ready() -> None:
    """CA-S.1 says strategic moves arrive disrupted; CA-S.2's own words let a unit moved by rail move and attack
    from where it arrives (docs/rulings.md): the bugout and the sea move disrupt, the railway does not."""
    game = to_step(arrange(new_game("na-mersa-matruh"), {"21Pz": "W77", "50Div": "T70"}), "allied-rail")
    game.play("move 50Div Q64")
    assert not unit(game, "50Div").disrupted
    game = to_step(new_game("na-gazala"), "axis-movement")
    arrange(game, {"90Lt": "L45", "50Div": "O50"})
    game.play("bugout 90Lt J30")
    assert unit(game, "90Lt").disrupted and unit(game, "90Lt").newly_disrupted
    game = arrange(past_set_up(new_game("na-gazala")), {"90Lt": "E33", "21Pz": "J39", "50Div": "O50"})
    game.play("sea 90Lt C30")
    assert unit(game, "90Lt").eliminated or unit(game, "90Lt").disrupted


# ------------------------------------------------------------------------------------------------ CA-U.3


@pytest.mark.rule("CA-U.3")
def test_the_8th_army_artillery_is_disrupted_at_the_end_of_an_operational_move_and_may_not_then_attack() -> None:
    game = to_step(new_game("na-alamein"), "allied-movement")
    arrange(game, {"8ArmyArty": "W76", "AusDiv": "W77", "15Pz": "U76"})
    assert not unit(game, "8ArmyArty").disrupted
    n = len(game.state.entries)
    game.play(Move("8ArmyArty", (H("V76"),)))  # beside 15 Pz
    assert unit(game, "8ArmyArty").disrupted
    assert lines_since(game, n)[-1].endswith("disrupted (CA-U.3).")
    e = refused(game, "allocate 8ArmyArty U76")
    assert e.clause == "CA-G.15"
    game.play(Move("AusDiv", (H("V77"),)))
    assert not unit(game, "AusDiv").disrupted  # any other unit ends its move as it was


@pytest.mark.rule("CA-U.3")
def test_the_8th_army_artillery_moved_by_rail_arrives_disrupted() -> None:
    game = to_step(arrange(new_game("na-alamein"), {"8ArmyArty": "V77", "15Pz": "R53"}), "allied-rail")
    assert not unit(game, "8ArmyArty").disrupted
    game.play("move 8ArmyArty T70")
    assert unit(game, "8ArmyArty").hex == H("T70") and unit(game, "8ArmyArty").disrupted


# ------------------------------------------------------------------------------------------------ CA-R.3


@pytest.mark.rule("CA-R.3")
def test_a_second_british_division_is_refused_until_the_alamein_force_level() -> None:
    game = new_game("na-campaign")
    axis = next(u for u in game.units_of(Side.AXIS) if game.defs[u].name.startswith("21"))
    arrange(game, {"AusDiv": "J10"})
    to_step(game, "allied-reinforcements")
    game.play("enter 44Div V79")  # the one British division
    to_step(game, "axis-reinforcements")
    to_step(game, "allied-reinforcements")
    assert not [a for a in game.legal_notation() if a.startswith(("enter 50Div", "enter 51Div"))]
    e = refused(game, "enter 50Div V79")
    assert e.clause == "CA-R.3"
    assert any(a.startswith("enter ") for a in game.legal_notation())  # not British divisions: still may enter
    to_step(game, "axis-movement")
    unit(game, axis).hex = H("V67")  # an Axis unit on the coastal road, 8 hexes from El Alamein (V75)
    unit(game, axis).disrupted = False
    game.play(Move(axis, (H("V70"),)))  # 5 hexes from it: the Alamein force level for the rest of the game
    assert campaign_vars(game).alamein
    to_step(game, "allied-reinforcements")
    game.play("enter 50Div V79")
    assert unit(game, "50Div").hex == H("V79")


# ------------------------------------------------------------------------------- every die a chance node


def _pick(game: Game, rng: random.Random) -> Action:
    """A random order, the strategic ones first when listed, never an allocation (combat is not played yet)."""
    listed = [a for a in game.legal_orders() if not isinstance(a, Allocate)]
    strategic = [a for a in listed if isinstance(a, Sea | Bugout)]
    if strategic and rng.random() < 0.5:
        return rng.choice(strategic)
    moves = [a for a in listed if isinstance(a, Move)]
    if moves and rng.random() < 0.3:
        return rng.choice(moves)
    return EndPhase()


def _random_play(name: str, seed: int) -> tuple[Game, list[tuple[Action, str]]]:
    """A game played with its dice by random orders: the orders played, each with the position's hash after it."""
    rng = random.Random(seed)
    played = new_game(name, seed=seed)
    orders: list[tuple[Action, str]] = []
    for _ in range(80):
        if played.is_over:
            break
        order = _pick(played, rng)
        try:
            played.play(order)
        except IllegalOrderError:
            continue
        orders.append((order, played.state_hash()))
    return played, orders


def _replay_choosing_the_dice(name: str, seed: int, played: Game, orders: list[tuple[Action, str]]) -> None:
    searched = new_game(name, seed=seed)
    searched.explicit_chance = True
    k = 0
    for order, expected in orders:
        rolls = len(searched.dice.log)
        searched.play(order)
        assert len(searched.dice.log) == rolls, "an order rolled outside a chance node"
        while searched.chance is not None:
            outcomes = searched.chance_outcomes()
            assert sum(o.probability for o in outcomes) == 1 and all(o.probability > 0 for o in outcomes)
            assert len({o.value for o in outcomes}) == len(outcomes)
            assert searched.decision is None and searched.legal_id_list() == []
            roll = played.dice.log[k]
            assert searched.chance.purpose(searched) == roll.purpose
            searched.play_chance([o.value for o in outcomes].index(roll.value))
            k += 1
        assert searched.state_hash() == expected
    assert k == len(played.dice.log)


@pytest.mark.rule("CA-S.3")
@pytest.mark.rule("CA-S.4")
def test_every_roll_of_random_campaign_play_is_a_chance_node_and_choosing_the_dice_replays_it() -> None:
    """Played with chance explicit, no order rolls a die outside a chance node, and each node's outcomes are distinct,
    positive and sum to 1; a game played with its dice and the same orders with each outcome chosen as the dice gave
    it reach the same positions.  The games met both kinds of roll."""
    purposes: list[str] = []
    for name, seed in (("na-gazala", 7), ("na-crusader", 7), ("na-alamein", 2)):
        played, orders = _random_play(name, seed)
        _replay_choosing_the_dice(name, seed, played, orders)
        purposes += [r.purpose for r in played.dice.log]
    assert any("sinking die" in p for p in purposes) and any(p.startswith("bugout of") for p in purposes)


# ------------------------------------------------------------------------------------------------ fog (CA-F.4)


def twins(seed: int = 4) -> tuple[Game, Game]:
    """Two games of Gazala differing only in which face-down counter inside the perimeter is the dummy, past the
    set-up (every unit where the listing puts it)."""
    sc = scenario("na-gazala")
    start = dict(sc.start)
    start["2SADiv"], start["TobrukDummy"] = start["TobrukDummy"], start["2SADiv"]
    return past_set_up(new_game("na-gazala", seed=seed)), past_set_up(Game(replace(sc, start=start), seed=seed, system=SYSTEM))


def axis_answers(game: Game) -> tuple[object, ...]:
    d = game.decision
    orders = game.legal_orders() if d is not None and d.side is Side.AXIS else []
    chance = game.chance
    rolled = (chance.purpose(game), game.chance_outcomes()) if chance is not None else None
    return view(game, Side.AXIS), [o.notation() for o in orders], game.legal_id_list() if orders else [], rolled


def chance_chain(game: Game, order: Action) -> tuple[tuple[tuple[str, tuple[Outcome, ...]], ...], object]:
    """Play ``order`` on a copy with chance explicit, every die passing (a 6): each node's purpose and outcomes, and
    what the Axis then sees."""
    g = game.copy()
    g.explicit_chance = True
    g.play(order)
    chain: list[tuple[str, tuple[Outcome, ...]]] = []
    while g.chance is not None:
        outcomes = g.chance_outcomes()
        chain.append((g.chance.purpose(g), outcomes))
        g.play_chance([o.value for o in outcomes].index(6))
    return tuple(chain), view(g, Side.AXIS)


def refusal(game: Game, order: str) -> str:
    try:
        game.copy().play(order)
    except IllegalOrderError as e:
        return f"[{e.clause}] {e.reason}"
    return "played"


@pytest.mark.rule("CA-F.4")
@pytest.mark.rule("CA-S.3")
@pytest.mark.rule("CA-S.4")
def test_the_axis_sea_moves_and_bugouts_say_nothing_of_which_counter_is_the_dummy() -> None:
    """Axis units east of the face-down garrison, whose bugouts pass its zones, and one on the coast, whose sea move
    reads who holds Tobruk; the Allies as at the start.  The Axis's orders, refusals, the chance nodes of its dice and
    what it sees after them are the same in both games."""
    a, b = twins()
    for g in (a, b):
        for uid, label in {"90Lt": "P53", "21Pz": "R52", "Trieste": "E33"}.items():
            unit(g, uid).hex = H(label)
    assert axis_answers(a) == axis_answers(b)
    seas = [o for o in a.legal_orders() if isinstance(o, Sea)]
    assert seas
    for order in seas:
        assert chance_chain(a, order) == chance_chain(b, order)
    for probe in ("sea 90Lt J39", "sea Trieste J39", "sea Trieste K39"):
        assert refusal(a, probe) == refusal(b, probe)
    for g in (a, b):
        to_step(g, "axis-movement")
    assert axis_answers(a) == axis_answers(b)
    bugouts = [o for o in a.legal_orders() if isinstance(o, Bugout)]
    garrison = {n.label for h in ("J39", "K39") for n in H(h).neighbours()}
    chains = [chance_chain(a, order) for order in bugouts]
    assert chains == [chance_chain(b, order) for order in bugouts]
    dice = [purpose for chain, _ in chains for purpose, _ in chain]
    assert any(f"({h})" in purpose for purpose in dice for h in garrison)  # dice beside the face-down counters
    for probe in ("bugout 90Lt K39", "bugout 90Lt J39", "bugout 90Lt J40", "bugout 21Pz K39"):
        assert refusal(a, probe) == refusal(b, probe)
