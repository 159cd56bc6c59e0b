"""Typed orders that name a unit or a hex the scenario does not have are refused as such, naming the word, on every
system (tests/engine/cases.py) and for every action type of its vocabulary that takes a unit or a hex; the notation of
every legal order is read back to the order itself, unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.cases import CASES, IDS, Case, walk
from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError, InvalidOrderError
from tobruk.engine.fields import codecs
from tobruk.engine.game import Game

NOBODY = "Nobody9"  # no scenario has a unit of this id (checked below)


def made(kind: type[Action], unit: str, hex_label: str) -> Action | None:
    """An action of ``kind`` naming ``unit`` in every unit field and ``hex_label`` in every hex field (numbers 1, flags
    off), or ``None`` when the type names neither."""
    fields: dict[str, Any] = {"verb": kind.verb}
    names = False
    for name, codec in codecs(kind):
        k = codec.kind
        names = names or k in ("str", "Hex", "tuple[str, ...]", "tuple[Hex, ...]", "tuple[tuple[str, int], ...]")
        fields[name] = {
            "str": unit,
            "Hex": hex_label,
            "tuple[str, ...]": [unit],
            "tuple[Hex, ...]": [hex_label],
            "tuple[tuple[str, int], ...]": [[unit, 1]],
            "int": 1,
            "int | None": None,
            "bool": False,
        }[k]
    return kind.from_fields(fields) if names else None


def off_board(game: Game) -> Hex:
    board = game.scenario.map
    return Hex.from_offset(board.rows + 3, board.columns + 3)


def refusal(game: Game, text: str) -> str:
    with pytest.raises(InvalidOrderError) as refused:
        game.play(text)
    return str(refused.value)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_an_unknown_unit_or_hex_is_named_for_every_action_type(case: Case) -> None:
    game = case.game(1)
    assert NOBODY not in game.defs and off_board(game) not in game.scenario.map
    known_unit, known_hex = game.unit_ids[0], game.scenario.map.hexes[0].label
    nowhere = off_board(game).label
    before = game.state_hash()
    checked = 0
    for kind in game.system.vocabulary:
        bad_unit = made(kind, NOBODY, known_hex)
        if bad_unit is None:
            continue
        takes = {c.kind for _, c in codecs(kind)}
        if takes & {"str", "tuple[str, ...]", "tuple[tuple[str, int], ...]"}:
            message = refusal(game, bad_unit.notation())
            assert f"'{NOBODY}' is not a unit of this game" in message and known_hex not in message.split(":", 1)[1]
        if takes & {"Hex", "tuple[Hex, ...]"}:
            bad_hex = made(kind, known_unit, nowhere)
            assert bad_hex is not None
            message = refusal(game, bad_hex.notation())
            assert f"'{nowhere}' is not a hex of this map" in message and f"'{known_unit}'" not in message
        checked += 1
    assert checked >= 3  # (every vocabulary has moves, attacks and the like)
    assert game.state_hash() == before  # nothing was played


def test_the_words_are_named_as_typed_with_the_maps_extent_and_a_unit_in_another_case() -> None:
    game = CASES[0].game(1)
    board = game.scenario.map
    last = Hex.from_offset(board.rows - 1, board.columns - 1).label
    uid = next(u for u in game.unit_ids if u.lower() != u)
    message = refusal(game, f"move {uid.lower()} A1-ZZ998-ZZ999")
    assert message == (
        f"'move {uid.lower()} A1-ZZ998-ZZ999': '{uid.lower()}' is not a unit of this game (did you mean {uid}?); "
        f"'ZZ998', 'ZZ999' are not hexes of this map (its hexes run from A1 to {last})"
    )


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_notation_of_every_legal_order_reads_back_to_it_and_known_names_reach_the_rules(case: Case) -> None:
    for game in walk(case.game(4), 4, 150):
        for order in game.legal_orders():
            assert game.parse(order.notation()) == order
    game = case.game(4)
    legal = game.legal_orders()
    for kind in game.system.vocabulary:  # a well-formed order of known names is the rules' to refuse, with a clause
        known = made(kind, game.unit_ids[0], game.scenario.map.hexes[0].label)
        if known is not None and known not in legal:
            with pytest.raises(IllegalOrderError) as refused:
                game.play(known.notation())
            assert refused.value.clause
