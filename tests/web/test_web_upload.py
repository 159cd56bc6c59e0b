"""Uploaded records and new games are held to the strict schemas (issue 35): an order with a digit that is not
ASCII, an option named twice, a field the format does not have: each is refused with 400 and nothing is stored,
though the engine itself would have played the record (it reads Arabic-Indic digits as digits and options as a
set), so only the schema stands between such input and the database."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.web_server import running_server
from tobruk.engine.game import Game
from tobruk.loading.scenario import load_scenario
from tobruk.record import record_from_data, record_of, replay


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        yield url, tmp_path / "games.sqlite"


def rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def record(*orders: str, options: tuple[str, ...] = ()) -> dict[str, Any]:
    game = Game(load_scenario("gazala-gallop"), seed=7, options=list(options))
    for text in orders:
        game.play(text)
    return record_of(game).to_data()


def upload(url: str, data: object) -> httpx.Response:
    return httpx.post(f"{url}/api/replays", json=data, timeout=120)


def test_a_good_record_is_stored(server: tuple[str, Path]) -> None:
    url, db = server
    r = upload(url, record("place 15Pz K2"))
    assert r.status_code == 200 and "/replay/" in r.json()["link"]
    assert rows(db, "game") == 1 and rows(db, "game_event") == 1


def test_an_order_with_a_digit_that_is_not_ascii_is_refused(server: tuple[str, Path]) -> None:
    url, db = server
    data = record("place 15Pz K2")
    data["orders"][0]["order"] = "place 15Pz K٢"  # ARABIC-INDIC DIGIT TWO
    replay(record_from_data(data, "test"), verify=True)  # the engine would play it: K٢ read as K2, every hash the same
    r = upload(url, data)
    assert r.status_code == 400, r.text
    assert "orders[0].order" in r.json()["error"] and len(r.json()["error"]) <= 200
    assert rows(db, "game") == 0 and rows(db, "game_event") == 0


def test_an_option_given_twice_in_a_record_is_refused(server: tuple[str, Path]) -> None:
    url, db = server
    data = record(options=("nonhistorical",))
    data["options"] = ["nonhistorical", "nonhistorical"]
    replay(record_from_data(data, "test"), verify=True)  # the engine reads the options as a set
    r = upload(url, data)
    assert r.status_code == 400 and "given twice" in r.json()["error"], r.text
    assert rows(db, "game") == 0


@pytest.mark.parametrize(
    "where",
    ["top level", "an order", "the players"],
)
def test_a_field_the_record_format_does_not_have_is_refused(server: tuple[str, Path], where: str) -> None:
    url, db = server
    data = record("place 15Pz K2")
    if where == "top level":
        data["comment"] = "hello"
    elif where == "an order":
        data["orders"][0]["note"] = "x"
    else:
        data["players"] = {"axis": "human", "italian": "human"}
    r = upload(url, data)
    assert r.status_code == 400, r.text
    assert "not a valid game record: upload:" in r.json()["error"]
    assert rows(db, "game") == 0


def test_a_new_game_with_an_option_given_twice_is_refused(server: tuple[str, Path]) -> None:
    url, db = server
    r = httpx.post(f"{url}/api/games", json={"scenario": "gazala-gallop", "options": ["nonhistorical", "nonhistorical"]}, timeout=60)
    assert r.status_code == 400 and "given twice" in r.json()["error"], r.text
    assert rows(db, "game") == 0
