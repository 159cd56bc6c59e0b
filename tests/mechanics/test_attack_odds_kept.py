"""The attack phase's lean odds and the answers kept per board (engine/caching.py's BOARD caches).

``odds`` (each system's combat module) is ``assess`` without the lines and the defenders' factors, kept while only
the decision stack changes: it must give the same strengths, column and refusals as the full assessment on every
declaration a game meets, and the kept answers must follow the board however it changes (an order, or units
arranged by hand), while a declaration being put together (only its frame changing) keeps them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import astuple
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

import pytest

from tests.conftest import attack_game, unit_toml
from tests.systems.first_alamein.kit import game_at, unit
from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, Cache, board_key
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Add, Attack, Target
from tobruk.mechanics.battle import Declaring
from tobruk.mechanics.counters import family_unit
from tobruk.systems.first_alamein import combat as fa
from tobruk.systems.gazala import combat as gg
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

H = Hex.parse
T = TypeVar("T")
AXIS = Side.AXIS


def outcome(work: Callable[[], T]) -> T | tuple[str, str]:
    """An answer, or the refusal's clause and reason."""
    try:
        return work()
    except IllegalOrderError as e:
        return (e.clause, e.reason)


# --- the lean odds agree with the full assessment ------------------------------------------------------------
def gg_full(game: Game, order: Attack, side: Side, declared: int | None) -> tuple[object, ...]:
    a = gg.assess(game, order, side, declared)
    # GG-IX.C from the defenders' terrain-modified factors as fractions (what the lean odds work out in whole numbers)
    shifted = all(
        (total := sum((a.factors[u] for u in a.defenders if family_unit(game, u).hex == h), Fraction(0))) > 0
        and 2 * sum((a.factors[u] for u in a.defenders if family_unit(game, u).hex == h and family_unit(game, u).disrupted), Fraction(0))
        >= total
        for h in a.defending_hexes
    )
    assert a.disrupted_shift == (bool(a.defending_hexes) and shifted)
    return (a.attack2, a.defence2, a.column, a.odds)


def fa_full(game: Game, order: Attack, side: Side, declared: int | None) -> tuple[object, ...]:
    a = fa.assess(game, order, side, declared)
    shifted = all(
        2 * sum((a.factors[u] for u in a.defenders if family_unit(game, u).hex == h and family_unit(game, u).disrupted), Fraction(0))
        >= sum((a.factors[u] for u in a.defenders if family_unit(game, u).hex == h), Fraction(0))
        for h in a.defending_hexes
    )
    assert a.spent_shift == (bool(a.defending_hexes) and shifted)
    return (a.attack, a.defence, a.column, a.odds)


def candidates(game: Game, side: Side) -> list[tuple[Attack, int | None]]:
    """Declarations to compare at this decision: the declared ones (assessed again), the one being made, and each
    enemy hex next to the side's units against the units next to it, all together and one by one."""
    out: list[tuple[Attack, int | None]] = [(a.order, a.id) for a in gazala_vars(game).attacks if not a.resolved]
    top = game.top(Declaring)
    if top is not None and top.attackers:
        out.append((top.order, None))
    mine = {uid: h for uid in game.units_of(side) if (h := family_unit(game, uid).hex) is not None}
    for target in sorted({h for h, ids in game.occupants(side.enemy).items() if ids}):
        near = tuple(u for u, h in mine.items() if h.is_adjacent(target))
        if near:
            out.append((Attack((target,), near), None))
            out.extend((Attack((target,), (u,)), None) for u in near)
    return out


@pytest.mark.whole_game
@pytest.mark.parametrize(("scenario", "lean", "full"), [("gazala-gallop", gg.odds, gg_full), ("first-alamein", fa.odds, fa_full)])
def test_the_lean_odds_equal_the_full_assessment_on_every_declaration_of_random_games(
    scenario: str,
    lean: Callable[[Game, Attack, Side, int | None], DataclassInstance],
    full: Callable[[Game, Attack, Side, int | None], tuple[object, ...]],
) -> None:
    seen: set[str] = set()
    for seed in range(4):
        game = Game(load_scenario(scenario), seed=seed)
        pick = random.Random(seed)
        while game.decision is not None:
            d = game.decision
            if "attack" in d.phase:
                for order, declared in candidates(game, d.side):
                    kept = outcome(lambda: astuple(lean(game, order, d.side, declared)))  # noqa: B023 (called at once)
                    assert kept == outcome(lambda: full(game, order, d.side, declared))  # noqa: B023
                    seen.add("refused" if len(kept) == 2 else "below" if kept[2] is None else f"column {kept[2]}")
            game.play_id(pick.choice(game.legal_id_list()))
    assert {"refused", "below", "column 0", "column 3"} <= seen  # refusals, both sides of 1:4, and more


# --- worked examples at the 1:4 threshold, both sides --------------------------------------------------------
def gg_duel(attack: int, defence: int) -> Game:
    units = unit_toml("Att", "axis", "B3", factors=f"{attack}-1-4") + unit_toml("Def", "allied", "B4", factors=f"1-{defence}-2")
    game: Game = attack_game(units)
    return game


@pytest.mark.rule("GG-XIV.B.4")
def test_gazala_one_to_four_is_the_lowest_column_and_below_it_is_refused() -> None:
    order = Attack((H("B4"),), ("Att",))
    at = gg.odds(gg_duel(1, 4), order, AXIS)  # 1 to 4: exactly the 1:4 column, the first of the GCRT
    assert (at.attack2, at.defence2, at.column, at.label) == (2, 8, 0, "1:4")
    below = gg_duel(1, 5)  # 1 to 5: below the table
    low = gg.odds(below, order, AXIS)
    assert (low.attack2, low.defence2, low.column, low.label) == (2, 10, None, "below 1:4")
    with pytest.raises(IllegalOrderError) as err:
        below.play(order)
    assert (err.value.clause, err.value.reason) == ("GG-XIV.B.4", "attacks below 1:4 are not allowed (1 to 5)")


@pytest.mark.rule("FA-CRT.1")
def test_first_alamein_one_to_four_is_the_lowest_column_and_below_it_is_refused() -> None:
    order = Attack((H("A3"),), ("A",))

    def duel(defence: int) -> Game:
        return game_at(
            unit("A", "axis", "A2", factors="1-1-4") + unit("D", "allied", "A3", factors=f"1-{defence}-4"),
            "axis-attacks",
            rows=1,
            columns=8,
        )

    at = fa.odds(duel(4), order, AXIS)  # 1 to 4: the 1:4 column
    assert (at.attack, at.defence, at.column, at.label) == (1, 4, 0, "1:4")
    below = duel(5)
    low = fa.odds(below, order, AXIS)
    assert (low.attack, low.defence, low.column, low.label) == (1, 5, None, "below 1:4")
    with pytest.raises(IllegalOrderError) as err:
        below.play(order)
    assert (err.value.clause, err.value.reason) == ("FA-CRT.1", "attacks below 1:4 are not allowed (1 to 5)")


# --- the answers kept per board -------------------------------------------------------------------------------
@pytest.mark.rule("GG-IX.C")
def test_kept_odds_follow_units_arranged_by_hand() -> None:
    """GG-IX.C: a defender disrupted by hand (no order: only the board's hash can notice) reads one column higher."""
    game = gg_duel(2, 2)
    order = Attack((H("B4"),), ("Att",))
    assert gg.odds(game, order, AXIS).label == "1:1"
    family_unit(game, "Def").disrupted = True
    assert gg.odds(game, order, AXIS).label == "3:2"
    family_unit(game, "Def").disrupted = False
    assert gg.odds(game, order, AXIS).label == "1:1"


def test_a_declaration_being_made_keeps_the_boards_answers() -> None:
    """Each step of a declaration changes only the decision stack: the board's key stays, the position's does not."""
    units = unit_toml("Att", "axis", "B3", factors="4-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game: Game = attack_game(units)
    board, position = board_key(game), game.position_key()
    game.play(Target(H("B4")))
    assert board_key(game) == board and game.position_key() != position
    game.play(Add("Att"))
    assert board_key(game) == board
    family_unit(game, "Def").disrupted = True
    assert board_key(game) != board


def test_a_kept_refusal_is_raised_afresh_with_the_same_clause_and_reason() -> None:
    game = gg_duel(2, 2)
    calls = []

    def work() -> int:
        calls.append(1)
        raise IllegalOrderError("GG-XIV.A.1", "not yours")

    refusals: Cache[int] = Cache("test.refused", BOARD)
    answers: Cache[int] = Cache("test.answer", BOARD)
    first = outcome(lambda: refusals.check(game, None, work))
    errors = []
    for _ in range(2):
        with pytest.raises(IllegalOrderError) as err:
            refusals.check(game, None, work)
        errors.append(err.value)
    assert first == ("GG-XIV.A.1", "not yours") and len(calls) == 1
    assert errors[0] is not errors[1] and all((e.clause, e.reason) == first for e in errors)
    assert answers.get(game, None, lambda: 7) == 7 and answers.get(game, None, lambda: 8) == 7
    game.forget_caches()
    assert answers.get(game, None, lambda: 8) == 8


@pytest.mark.rule("GG-XIV.D.2")
def test_kept_retreat_routes_follow_units_arranged_by_hand() -> None:
    """A route into a hex an enemy unit has been put in by hand (no order) is gone, and back once it leaves."""
    units = unit_toml("Att", "axis", "B3", factors="4-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game: Game = attack_game(units + unit_toml("Other", "axis", "C8", factors="1-1-4"))
    before = gg.retreat_paths(game, "Def", 1, [H("B3")])
    assert before and all(p[0] == H("B4") for p in before)
    blocked = before[0][-1]
    family_unit(game, "Other").hex = blocked
    assert blocked not in {p[-1] for p in gg.retreat_paths(game, "Def", 1, [H("B3")])}
    family_unit(game, "Other").hex = H("C8")
    assert gg.retreat_paths(game, "Def", 1, [H("B3")]) == before


# --- a declaration's stranded duty, against its definition ------------------------------------------------------
def gg_stranded_by_definition(game: Game, order: Attack, side: Side) -> Hex | None:
    """Ruling R-DUTY as written: the first due hex (in hex order) that is due now and no longer due with the
    declaration's units busy, and that the same attack could have taken in."""
    from tobruk.mechanics.duties import obligations
    from tobruk.systems.gazala import battle as bt
    from tobruk.systems.gazala import hidden as hd

    before = set(obligations(game, side, bt.DUTIES)) - set(order.defenders)
    after = set(obligations(game, side, bt.DUTIES, set(order.attackers)))
    for lost in sorted(before - after):
        wider = Attack((*order.defenders, lost), order.attackers, order.partial)
        try:
            if hd.hidden_in(game, wider.defenders, side.enemy) or gg.odds(game, wider, side).column is not None:
                return lost
        except IllegalOrderError:
            continue
    return None


def fa_stranded_by_definition(game: Game, order: Attack, side: Side) -> Hex | None:
    from tobruk.mechanics.duties import obligations
    from tobruk.systems.first_alamein.battle import DUTIES

    before = set(obligations(game, side, DUTIES)) - set(order.defenders)
    after = set(obligations(game, side, DUTIES, set(order.attackers)))
    for lost in sorted(before - after):
        if DUTIES.can_declare(game, Attack((*order.defenders, lost), order.attackers, order.partial), side):
            return lost
    return None


@pytest.mark.rule("GG-XIV.A.2")
@pytest.mark.whole_game
@pytest.mark.parametrize("scenario", ["gazala-gallop", "first-alamein"])
def test_a_stranded_duty_is_found_as_its_definition_finds_it_in_random_games(scenario: str) -> None:
    from tobruk.mechanics.duties import strands_a_duty
    from tobruk.systems.first_alamein.battle import DUTIES
    from tobruk.systems.gazala import battle as bt

    found: set[bool] = set()
    for seed in range(3):
        game = Game(load_scenario(scenario), seed=seed)
        pick = random.Random(seed)
        while game.decision is not None:
            d = game.decision
            if "attack" in d.phase and not game.state.stack:  # at the attack step itself
                for order, declared in candidates(game, d.side):
                    if declared is not None:
                        continue
                    if scenario == "gazala-gallop":
                        got, want = strands_a_duty(game, order, d.side, bt.DUTIES), gg_stranded_by_definition(game, order, d.side)
                    else:
                        got, want = strands_a_duty(game, order, d.side, DUTIES), fa_stranded_by_definition(game, order, d.side)
                    assert got == want
                    found.add(got is not None)
            game.play_id(pick.choice(game.legal_id_list()))
    assert found == {True, False}  # both sides: declarations that strand a duty, and declarations that do not
