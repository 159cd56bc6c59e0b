"""The server as referee, over real HTTP, against a real SQLite file and a real PostgreSQL database (``db_url``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.web_server import end_or_first, labels, running_server
from tobruk.systems.gazala.state import gazala_vars


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with running_server(db_url, tmp_path / "scenarios") as url:
        yield url, tmp_path


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def create(url: str, **body: object) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/games", json=body, timeout=60)
    assert r.status_code == 200, r.text
    return dict(r.json())


def state(url: str, tok: str) -> dict[str, Any]:
    return dict(httpx.get(f"{url}/api/g/{tok}/state", timeout=60).json())


def order(url: str, tok: str, text: str, version: int) -> httpx.Response:
    return httpx.post(f"{url}/api/g/{tok}/order", json={"order": text, "version": version}, timeout=60)


def send(url: str, tok: str, body: dict[str, Any], version: int) -> httpx.Response:
    return httpx.post(f"{url}/api/g/{tok}/order", json={**body, "version": version}, timeout=60)


def test_remote_game_referee(server: tuple[str, Path]) -> None:
    url, _ = server
    links = create(url, scenario="duel", mode="remote")["links"]
    axis, allied = token(links["axis"]), token(links["allied"])
    a, b = state(url, axis), state(url, allied)
    assert a["my_turn"] and labels(a) == ["end-phase"] and not b["my_turn"] and b["legal"] == {"actions": [], "composites": []}
    r = order(url, allied, "end-phase", b["version"])  # out of turn
    assert r.status_code == 403 and state(url, axis)["version"] == a["version"]
    r = order(url, axis, "end-phase", a["version"] + 1)  # not the version it saw (a version below 0 is malformed: 400)
    assert r.status_code == 409
    r = order(url, axis, "move Pz B3-B4", a["version"])  # not an order of the set-up
    assert r.status_code == 400 and r.json()["clause"] == "GG-XIII.A.1"  # a unit moves in its movement phase
    r = order(url, axis, "end-phase", a["version"])
    assert r.status_code == 200 and r.json()["version"] == a["version"] + 1
    a = state(url, axis)
    assert a["view"]["phase"] == "axis-movement"
    to_b4 = next(x for x in a["legal"]["actions"] if x["verb"] == "move" and x.get("hex") == "B4")
    assert (
        to_b4["unit"] == "Pz"
        and to_b4["gesture"] == "unit-hex"
        and to_b4["fields"]
        == {
            "verb": "move",
            "unit": "Pz",
            "path": ["B3", "B4"],
            "trucks": False,
        }
    )
    assert state(url, allied)["version"] == a["version"]
    r = order(url, axis, "move Pz B3-B4", a["version"])
    assert r.status_code == 200
    # undo, then the move again
    r = httpx.post(f"{url}/api/g/{axis}/undo", json={"version": r.json()["version"]}, timeout=60)
    assert r.status_code == 200 and next(u for u in r.json()["view"]["units"] if u.get("id") == "Pz")["hex"] == "B3"
    assert order(url, axis, "move Pz B3-B4", r.json()["version"]).status_code == 200
    # the odds of an attack, before it is declared
    a = state(url, axis)
    order(url, axis, "end-phase", a["version"])
    odds = httpx.get(f"{url}/api/g/{axis}/odds", params={"order": "attack B5 with Pz"}, timeout=60).json()
    assert odds["odds"] == "3:1" and abs(sum(p for _, p in odds["outcomes"]) - 1) < 1e-9


def test_hidden_units_never_reach_the_other_side(server: tuple[str, Path]) -> None:
    url, _ = server
    links = create(url, scenario="gazala-gallop", mode="remote", options=["nonhistorical"])["links"]
    text = json.dumps({k: v for k, v in state(url, token(links["axis"])).items()})
    for uid in ("1SA", "50Div", "Dummy1", "2ArmdBde"):
        assert f'"{uid}"' not in text
    assert '"1SA"' in json.dumps(state(url, token(links["allied"])))


def test_games_survive_a_restart(db_url: str, tmp_path: Path) -> None:
    db = db_url
    with running_server(db, tmp_path / "scenarios") as url:
        links = create(url, scenario="duel", mode="hotseat")["links"]
        tok = token(links["both"])
        s = state(url, tok)
        order(url, tok, "end-phase", s["version"])
        s = state(url, tok)
        order(url, tok, "move Pz B3-B4", s["version"])
        before = state(url, tok)["view"]
    with running_server(db, tmp_path / "scenarios") as url:
        after = state(url, tok)["view"]
    assert after["units"] == before["units"] and after["phase"] == before["phase"]


def test_against_the_computer_it_answers_at_once(server: tuple[str, Path]) -> None:
    url, _ = server
    links = create(url, scenario="duel", mode="computer", human_side="allied", computer="greedy")["links"]
    s = state(url, token(links["allied"]))
    assert list(links) == ["allied"] and s["my_turn"] and s["view"]["decision"]["side"] == "allied"


def test_bad_requests(server: tuple[str, Path]) -> None:
    url, _ = server
    assert httpx.post(f"{url}/api/games", json={"mode": "chess"}, timeout=60).status_code == 400
    assert httpx.post(f"{url}/api/games", json={"scenario": "nowhere"}, timeout=60).status_code == 400
    assert httpx.get(f"{url}/api/g/not-a-token/state", timeout=60).status_code == 404


def test_replay_a_record_in_the_browser_api(server: tuple[str, Path], tmp_path: Path) -> None:
    from tobruk.engine.game import Game
    from tobruk.engine.sides import Side
    from tobruk.loading.scenario import load_scenario
    from tobruk.players import make_player, play_game
    from tobruk.record import record_of, save

    url, _ = server
    game = play_game(
        Game(load_scenario("gazala-gallop"), seed=2), {Side.AXIS: make_player("greedy", 1), Side.ALLIED: make_player("greedy", 2)}
    )
    save(record_of(game), tmp_path / "rec.json")
    r = httpx.post(f"{url}/api/replays", content=(tmp_path / "rec.json").read_bytes(), timeout=120)
    assert r.status_code == 200, r.text
    tok = token(r.json()["link"])
    both = httpx.get(f"{url}/api/replay/{tok}", params={"side": "both"}, timeout=120).json()["frames"]
    result = gazala_vars(game).result
    assert result is not None
    assert both[0]["label"] == "start" and both[-1]["result"]["level"] == result["level"]
    assert len(both) == 1 + 14 or both[-1]["result"]["sudden"]
    axis = httpx.get(f"{url}/api/replay/{tok}", params={"side": "axis"}, timeout=120).json()["frames"]
    assert len(axis) == len(both)
    bad = json.loads((tmp_path / "rec.json").read_text())
    bad["orders"][3]["order"] = "move 15Pz A1"
    assert httpx.post(f"{url}/api/replays", json=bad, timeout=120).status_code == 400


def test_the_other_sides_replay_waits_for_the_end(server: tuple[str, Path]) -> None:
    url, _ = server
    links = create(url, scenario="duel", mode="remote")["links"]
    r = httpx.get(f"{url}/api/replay/{token(links['axis'])}", params={"side": "allied"}, timeout=60)
    assert r.status_code == 403
    assert httpx.get(f"{url}/api/replay/{token(links['axis'])}", params={"side": "axis"}, timeout=60).status_code == 200


def test_finished_game_gives_its_record_and_form(server: tuple[str, Path], tmp_path: Path) -> None:
    from tobruk.record import load, replay

    url, _ = server
    links = create(url, scenario="duel", mode="computer", human_side="axis", computer="greedy")["links"]
    tok = token(links["axis"])
    assert httpx.get(f"{url}/api/g/{tok}/form", timeout=60).status_code == 400  # not over yet
    for _ in range(100):
        s = state(url, tok)
        if not s["legal"]["actions"]:
            break
        send(url, tok, end_or_first(s), s["version"])
    seen = state(url, tok)["view"]
    assert seen["over"] and seen["summary"]["lines"] == seen["result_lines"]
    assert seen["summary"]["level"] == seen["result"]["level"] and seen["summary"]["winner"] == seen["result"]["winner"]
    rec = httpx.get(f"{url}/api/g/{tok}/record", timeout=60)
    (tmp_path / "rec.json").write_bytes(rec.content)
    from tests.web.web_server import DUEL

    (tmp_path / "duel.toml").write_text(DUEL)
    from tobruk.loading.scenario import load_scenario

    game = replay(load(tmp_path / "rec.json"), verify=True, scenario=load_scenario(tmp_path / "duel.toml"))
    assert game.is_over
    page = httpx.get(f"{url}/api/g/{tok}/form", timeout=60)
    assert page.status_code == 200 and "Game Log and Analysis Form" in page.text and "Turn 2" in page.text


def test_the_computer_players_are_listed_for_the_lobby(server: tuple[str, Path]) -> None:
    url, _ = server
    r = httpx.get(f"{url}/api/players", timeout=60)
    assert r.status_code == 200 and r.json() == ["greedy", "random", "passive"]
    for name in r.json():  # each one listed can be played against
        create(url, scenario="duel", mode="computer", human_side="axis", computer=name)


def test_actions_are_played_by_id_or_by_fields_and_text_stays_for_people(server: tuple[str, Path]) -> None:
    url, _ = server
    tok = token(create(url, scenario="duel", mode="hotseat")["links"]["both"])
    s = state(url, tok)
    end = next(a for a in s["legal"]["actions"] if a["verb"] == "end-phase")
    assert end["gesture"] == "press" and end["fields"] == {"verb": "end-phase"}
    assert send(url, tok, {"id": end["id"]}, s["version"]).status_code == 200  # by id
    s = state(url, tok)
    move = next(a for a in s["legal"]["actions"] if a.get("hex") == "B4")
    r = send(url, tok, {"action": {"verb": "move", "unit": "Pz", "path": ["B3", "B4"]}}, s["version"])  # by fields
    assert r.status_code == 200 and next(u for u in r.json()["view"]["units"] if u.get("id") == "Pz")["hex"] == "B4"
    assert httpx.post(f"{url}/api/g/{tok}/undo", json={"version": r.json()["version"]}, timeout=60).status_code == 200
    s = state(url, tok)
    r = order(url, tok, "move Pz B4", s["version"])  # a person's notation (the destination alone, resolved by the rules)
    assert r.status_code == 200 and next(u for u in r.json()["view"]["units"] if u.get("id") == "Pz")["hex"] == move["hex"]
    exported = httpx.get(f"{url}/api/g/{tok}/export", params={"side": "axis"}, timeout=60).json()["orders"]
    assert exported == ["end-phase", "move Pz B4"]  # as it was given (the move by fields was taken back)


def test_a_stale_id_or_bad_fields_are_refused_and_change_nothing(server: tuple[str, Path]) -> None:
    url, _ = server
    tok = token(create(url, scenario="duel", mode="hotseat")["links"]["both"])
    s = state(url, tok)
    send(url, tok, end_or_first(s), s["version"])  # to the Axis movement phase
    s = state(url, tok)
    move = next(a for a in s["legal"]["actions"] if a["verb"] == "move")
    assert send(url, tok, {"id": move["id"]}, s["version"]).status_code == 200
    after = state(url, tok)
    # the move's id, listed in the position before, is no longer legal: the rule is named, nothing changes
    r = send(url, tok, {"id": move["id"]}, after["version"])
    assert r.status_code == 400 and r.json()["clause"] == after["view"]["decision"]["clause"]
    assert f"action {move['id']} is not legal now" in r.json()["error"]
    for body, says in (
        ({"action": {"verb": "fly"}}, "'fly' is not an order"),
        ({"action": {"verb": "move", "unit": "Pz"}}, "the field 'path' is missing"),
        ({"action": {"verb": "move", "unit": "Pz", "path": ["B4", "B5"], "speed": 2}}, "no field 'speed'"),
        ({"action": {"verb": "move", "unit": 7, "path": ["B4"]}}, "unit: expected a unit id"),
        ({"id": 1, "order": "end-phase"}, "exactly one of order, id and action"),
        ({}, "exactly one of order, id and action"),
        ({"id": -1}, "bad request"),
    ):
        r = send(url, tok, body, after["version"])
        assert r.status_code == 400 and says in r.json()["error"] and "\n" not in r.json()["error"], (body, r.text)
    assert state(url, tok) == after


def test_odds_and_routes_are_asked_by_fields_and_by_id(server: tuple[str, Path]) -> None:
    url, _ = server
    tok = token(create(url, scenario="duel", mode="hotseat")["links"]["both"])
    s = state(url, tok)
    send(url, tok, end_or_first(s), s["version"])
    s = state(url, tok)
    to_b4 = next(a for a in s["legal"]["actions"] if a.get("hex") == "B4")
    route = httpx.get(f"{url}/api/g/{tok}/path", params={"id": to_b4["id"]}, timeout=60).json()["path"]
    assert route == to_b4["fields"]["path"]
    fields = json.dumps(to_b4["fields"])
    assert httpx.get(f"{url}/api/g/{tok}/path", params={"action": fields}, timeout=60).json()["path"] == route
    assert httpx.get(f"{url}/api/g/{tok}/path", params={"id": "999999"}, timeout=60).status_code == 400
    send(url, tok, {"id": to_b4["id"]}, s["version"])
    s = state(url, tok)
    send(url, tok, end_or_first(s), s["version"])  # to the attacks
    s = state(url, tok)
    (attack,) = s["legal"]["composites"]
    assert attack["gesture"] == "group-target" and attack["targets"] == [
        {"hex": "B5", "id": next(a["id"] for a in s["legal"]["actions"] if a["label"] == "target B5"), "units": ["Pz"]}
    ]
    fields = json.dumps({**attack["fields"], attack["gather"]: ["Pz"], attack["target"]: ["B5"]})
    odds = httpx.get(f"{url}/api/g/{tok}/odds", params={"action": fields}, timeout=60).json()
    # the Panzer's 6 against Tommy's 2: the 3:1 column, its results summing to one
    assert odds["odds"] == "3:1" and abs(sum(p for _, p in odds["outcomes"]) - 1) < 1e-9
    assert httpx.get(f"{url}/api/g/{tok}/odds", params={"order": "attack B5 with Pz"}, timeout=60).json() == odds
    bad = httpx.get(f"{url}/api/g/{tok}/odds", params={"action": '{"verb": "end-phase"}'}, timeout=60)
    assert bad.status_code == 400 and "no odds" in bad.json()["error"]
    r = send(url, tok, {"action": json.loads(fields)}, s["version"])  # declared as the page declares it
    assert r.status_code == 200 and r.json()["view"]["attacks"][0]["order"] == "attack B5 with Pz"
