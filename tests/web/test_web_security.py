"""What a client can get from the server and what it can do to it, from the answers it really receives (a real
server over HTTP on a real SQLite file): records and seeds, scenarios by name only, versions across restarts and
undo, a failed write, bad input, replays, undo and rematch.  docs/security.md says why each holds."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.databases import rows
from tests.web.web_server import DUEL, end_or_first, running_server
from tobruk.loading.scenario import load_scenario, scenario_names
from tobruk.record import load, record_of, replay, save

SECRET_SEED = 98765432109876543210987654321  # what the tests' server draws (more than 64 bits, as the server's own)


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A server on an SQLite file, then on PostgreSQL: the URL and the database's."""
    with running_server(db_url, tmp_path / "scenarios", seeds=lambda: SECRET_SEED) as url:
        yield url, db_url


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def create(url: str, **body: object) -> dict[str, str]:
    r = httpx.post(f"{url}/api/games", json=body, timeout=60)
    assert r.status_code == 200, r.text
    return {k: token(v) for k, v in r.json()["links"].items()}


def state(url: str, tok: str, **params: str) -> dict[str, Any]:
    r = httpx.get(f"{url}/api/g/{tok}/state", params=params, timeout=60)
    assert r.status_code == 200, r.text
    return dict(r.json())


def order(url: str, tok: str, text: str, version: int) -> httpx.Response:
    return httpx.post(f"{url}/api/g/{tok}/order", json={"order": text, "version": version}, timeout=60)


def send(url: str, tok: str, body: dict[str, Any], version: int) -> httpx.Response:
    return httpx.post(f"{url}/api/g/{tok}/order", json={**body, "version": version}, timeout=60)


def play(url: str, tok: str, text: str) -> dict[str, Any]:
    r = order(url, tok, text, state(url, tok)["version"])
    assert r.status_code == 200, r.text
    return dict(r.json())


def finish_remote_duel(url: str, seats: dict[str, str]) -> None:
    """Play a remote Duel to its end from both links: every phase ended, the weather the first offered."""
    for _ in range(100):
        d = state(url, seats["axis"])["view"]["decision"]
        if d is None:
            return
        s = state(url, seats[d["side"]])
        assert send(url, seats[d["side"]], end_or_first(s), s["version"]).status_code == 200
    raise AssertionError("the Duel did not end")


# --- records, exports, the seed ------------------------------------------------------------------------
def test_an_unfinished_games_record_is_refused_to_every_seat(server: tuple[str, Path]) -> None:
    url, _ = server
    remote = create(url, scenario="duel", mode="remote")
    hotseat = create(url, scenario="duel", mode="hotseat")
    computer = create(url, scenario="duel", mode="computer", human_side="allied")
    for tok in (remote["axis"], remote["allied"], hotseat["both"], computer["allied"]):
        r = httpx.get(f"{url}/api/g/{tok}/record", timeout=60)
        assert r.status_code == 403 and "when the game is over" in r.json()["error"]
        assert str(SECRET_SEED) not in r.text


def test_a_finished_games_record_goes_to_both_players_with_the_seed(server: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = server
    seats = create(url, scenario="duel", mode="remote")
    finish_remote_duel(url, seats)
    bodies = [httpx.get(f"{url}/api/g/{seats[side]}/record", timeout=60) for side in ("axis", "allied")]
    assert [b.status_code for b in bodies] == [200, 200] and bodies[0].json() == bodies[1].json()
    assert bodies[0].json()["seed"] == SECRET_SEED  # published now, so the game replays and is verified
    (tmp_path / "rec.json").write_bytes(bodies[0].content)
    (tmp_path / "duel.toml").write_text(DUEL)
    assert replay(load(tmp_path / "rec.json"), verify=True, scenario=load_scenario(tmp_path / "duel.toml")).is_over


def test_the_seed_is_in_no_answer_before_the_end(server: tuple[str, Path]) -> None:
    url, _ = server
    seats = create(url, scenario="gazala-gallop", mode="remote", options=["nonhistorical"])
    answers: list[httpx.Response | str] = []  # the responses, and the first line of each event stream
    for side, tok in seats.items():
        answers += [httpx.get(f"{url}/api/g/{tok}/{what}", timeout=60) for what in ("state", "export", "record", "form")]
        answers.append(httpx.get(f"{url}/api/replay/{tok}", params={"side": side}, timeout=60))
        with httpx.stream("GET", f"{url}/api/g/{tok}/events", timeout=60) as r:
            answers.append(next(r.iter_lines()))
    for a in answers:
        text = a if isinstance(a, str) else a.text
        assert str(SECRET_SEED) not in text and hex(SECRET_SEED)[2:] not in text and '"seed"' not in text


def test_new_games_get_unpredictable_seeds(tmp_path: Path) -> None:
    """The server's own seed source (no fixed one given): two games finished, two different large seeds."""
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        seeds = []
        for _ in range(2):
            seats = create(url, scenario="duel", mode="remote")
            finish_remote_duel(url, seats)
            seeds.append(httpx.get(f"{url}/api/g/{seats['axis']}/record", timeout=60).json()["seed"])
    assert seeds[0] != seeds[1] and all(s > 2**64 for s in seeds)  # 128 random bits: below 2**64 once in 2**64


def test_a_create_request_chooses_the_seed_only_against_the_computer(server: tuple[str, Path]) -> None:
    url, db = server
    for mode in ("remote", "hotseat"):
        r = httpx.post(f"{url}/api/games", json={"scenario": "duel", "mode": mode, "seed": 1}, timeout=60)
        assert r.status_code == 400 and "seed" in r.json()["error"]
    assert rows(db, "game") == 0
    seats = create(url, scenario="duel", mode="computer", human_side="axis", seed=42)
    assert rows(db, "game") == 1
    for _ in range(60):
        s = state(url, seats["axis"])
        if not s["legal"]["actions"]:
            break
        send(url, seats["axis"], end_or_first(s), s["version"])
    assert httpx.get(f"{url}/api/g/{seats['axis']}/record", timeout=60).json()["seed"] == 42


def test_a_side_exports_its_own_view_at_any_time(server: tuple[str, Path]) -> None:
    url, _ = server
    seats = create(url, scenario="gazala-gallop", mode="remote", options=["nonhistorical"])
    play(url, seats["allied"], "place Dummy1 C5")
    allied = httpx.get(f"{url}/api/g/{seats['allied']}/export", timeout=60)
    axis = httpx.get(f"{url}/api/g/{seats['axis']}/export", timeout=60)
    assert allied.status_code == axis.status_code == 200
    assert allied.json()["format"] == "tobruk-side-view" and allied.json()["orders"] == ["place Dummy1 C5"]
    assert allied.json()["view"]["log"][-1] == "Allied sets up Dummy1 in C5."
    # the Axis export is the Axis view and nothing more: no face-down identity, no Allied order
    assert axis.json()["orders"] == [] and axis.json()["view"] == {k: v for k, v in state(url, seats["axis"])["view"].items()}
    assert not re.search(r'"(1SA|Dummy1|50Div)"', axis.text) and "C5" not in json.dumps(axis.json()["view"]["log"])
    assert httpx.get(f"{url}/api/g/{seats['axis']}/export", params={"side": "allied"}, timeout=60).status_code == 403


# --- scenarios by name only -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name", ["/dev/zero", "/etc/passwd", "../x", "..", "../scenarios/duel", "duel.toml", "gazala-gallop/../../x", "C:\\x", "nowhere"]
)
def test_a_scenario_is_a_registered_name_never_a_path(server: tuple[str, Path], name: str) -> None:
    url, db = server
    r = httpx.post(f"{url}/api/games", json={"scenario": name, "mode": "hotseat"}, timeout=10)
    assert r.status_code == 400 and len(r.json()["error"]) < 200
    assert rows(db, "game") == 0
    assert httpx.get(f"{url}/api/map/{name.replace('/', '%2F')}.svg", timeout=10).status_code in (400, 404)


def test_packaged_and_user_folder_scenarios_are_offered(server: tuple[str, Path]) -> None:
    url, _ = server
    listed = httpx.get(f"{url}/api/scenarios", timeout=60).json()
    played = [s["name"] for s in listed if not s["preview"]]
    assert played == ["first-alamein", "gazala-gallop", "operation-compass", "duel"]
    # the campaign's scenarios, whose rules are played in part (no combat yet), are offered as previews
    previews = {s["name"] for s in listed if s["preview"]}
    assert previews == {n for n in scenario_names() if n.startswith("na-")} and previews


# --- versions, restarts, a failed write ------------------------------------------------------------------
def test_an_order_against_a_version_before_a_restart_is_refused(db_url: str, tmp_path: Path) -> None:
    db = db_url
    with running_server(db, tmp_path / "scenarios") as url:
        tok = create(url, scenario="duel", mode="hotseat")["both"]
        play(url, tok, "end-phase")
        seen = play(url, tok, "move Pz B4")["version"]  # what a browser saw, then the server restarted
        r = httpx.post(f"{url}/api/g/{tok}/undo", json={"version": seen}, timeout=60)
        assert r.status_code == 200 and r.json()["version"] == seen + 1  # an undo is a new version, never an old one
    with running_server(db, tmp_path / "scenarios") as url:
        assert state(url, tok)["version"] == seen + 1
        r = order(url, tok, "move Pz B2", seen)
        assert r.status_code == 409 and r.json()["version"] == seen + 1
        assert order(url, tok, "move Pz B2", seen + 1).status_code == 200
    assert rows(db, "game_event") == seen + 2  # one row per order or undo


def test_a_failed_write_changes_nothing_and_answers_503(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with running_server(db, tmp_path / "scenarios", busy_timeout=0.3) as url:
        tok = create(url, scenario="duel", mode="hotseat")["both"]
        play(url, tok, "end-phase")
        before = state(url, tok)
        locker = sqlite3.connect(db, timeout=0.1, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")  # another writer holds the database: reads go on, writes wait and fail
        try:
            r = order(url, tok, "move Pz B4", before["version"])
            assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
            assert state(url, tok) == before  # not the move in memory, unsaved
            assert httpx.post(f"{url}/api/g/{tok}/undo", json={"version": before["version"]}, timeout=60).status_code == 503
            assert state(url, tok) == before
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        r = order(url, tok, "move Pz B4", before["version"])
        assert r.status_code == 200 and r.json()["version"] == before["version"] + 1


# --- bad input ------------------------------------------------------------------------------------------
LONG = "x" * 5000

BAD_ORDERS: list[tuple[str, bytes]] = [
    ("an array", b"[1]"),
    ("a string", b'"end-phase"'),
    ("a number", b"3"),
    ("not JSON", b"{version: 1"),
    ("truncated", b'{"order": "end-phase", "version": 0'),
    ("not UTF-8", b'{"order": "\xff", "version": 0}'),
    ("version as text", b'{"order": "end-phase", "version": "0"}'),
    ("version as a fraction", b'{"order": "end-phase", "version": 0.0}'),
    ("version negative", b'{"order": "end-phase", "version": -1}'),
    ("version too large", b'{"order": "end-phase", "version": 99999999999999999999}'),
    ("order as a number", b'{"order": 5, "version": 0}'),
    ("order missing", b'{"version": 0}'),
    ("version missing", b'{"order": "end-phase"}'),
    ("an unknown field", b'{"order": "end-phase", "version": 0, "x": 1}'),
    ("Arabic-Indic digits", '{"order": "move Pz B٤", "version": 0}'.encode()),
    ("superscript digits", '{"order": "move Pz B⁴", "version": 0}'.encode()),
    ("Arabic-Indic version", '{"order": "end-phase", "version": "٠"}'.encode()),
    ("an overlong order", json.dumps({"order": LONG, "version": 0}).encode()),
    ("two lines", b'{"order": "end-phase\\nend-phase", "version": 0}'),
]


@pytest.mark.parametrize("body", [b for _, b in BAD_ORDERS], ids=[n for n, _ in BAD_ORDERS])
def test_a_bad_order_request_gets_400_and_changes_nothing(server: tuple[str, Path], body: bytes) -> None:
    url, db = server
    tok = create(url, scenario="duel", mode="hotseat")["both"]
    before = state(url, tok)
    r = httpx.post(f"{url}/api/g/{tok}/order", content=body, headers={"content-type": "application/json"}, timeout=60)
    assert r.status_code == 400, r.text
    reason = r.json()["error"]
    assert "\n" not in reason and len(reason) <= 200 and "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" not in reason
    assert state(url, tok) == before and rows(db, "game_event") == 0


BAD_GAMES: list[tuple[str, object]] = [
    ("not an object", ["duel"]),
    ("mode unknown", {"mode": "chess"}),
    ("side unknown", {"mode": "computer", "human_side": "german"}),
    ("computer unknown", {"mode": "computer", "computer": "deep-blue"}),
    ("seed negative", {"mode": "computer", "seed": -1}),
    ("seed too large", {"mode": "computer", "seed": 2**53}),
    ("seed as text", {"mode": "computer", "seed": "3"}),
    ("seed in Arabic-Indic digits", {"mode": "computer", "seed": "٣"}),
    ("options not a list", {"options": "nonhistorical"}),
    ("option unknown", {"options": ["fog"]}),
    ("scenario overlong", {"scenario": LONG}),
    ("option overlong", {"options": [LONG]}),
    ("scenario as a number", {"scenario": 1}),
]


@pytest.mark.parametrize("body", [b for _, b in BAD_GAMES], ids=[n for n, _ in BAD_GAMES])
def test_a_bad_new_game_request_gets_400_and_stores_nothing(server: tuple[str, Path], body: object) -> None:
    url, db = server
    r = httpx.post(f"{url}/api/games", json=body, timeout=60)
    assert r.status_code == 400, r.text
    assert "\n" not in r.json()["error"] and len(r.json()["error"]) <= 200 and "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" not in r.text
    assert rows(db, "game") == 0


def test_bad_query_parameters_get_400(server: tuple[str, Path]) -> None:
    url, _ = server
    tok = create(url, scenario="duel", mode="remote")["axis"]
    for path, params in (
        ("state", {"side": "german"}),
        ("state", {"side": LONG}),
        ("state", {"x": "1"}),
        ("odds", {"order": "attack B٥ with Pz"}),
        ("odds", {}),
        ("path", {"order": LONG}),
        ("export", {"side": "both", "y": "2"}),
    ):
        r = httpx.get(f"{url}/api/g/{tok}/{path}", params=params, timeout=60)
        assert r.status_code == 400 and len(r.json()["error"]) <= 200 and "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" not in r.text, (path, params)
    r = httpx.get(f"{url}/api/g/{tok}/state?side=axis&side=allied", timeout=60)
    assert r.status_code == 400


def test_a_body_over_64_kib_gets_413(server: tuple[str, Path]) -> None:
    url, db = server
    tok = create(url, scenario="duel", mode="hotseat")["both"]
    big = json.dumps({"order": "end-phase", "version": 0, "pad": "x" * 70_000}).encode()
    assert httpx.post(f"{url}/api/g/{tok}/order", content=big, timeout=60).status_code == 413

    def chunks() -> Iterator[bytes]:  # no declared length: counted as it comes
        yield b'{"order": "end-phase", "version": 0, "pad": "'
        for _ in range(70):
            yield b"x" * 1024
        yield b'"}'

    assert httpx.post(f"{url}/api/g/{tok}/order", content=chunks(), timeout=60).status_code == 413
    assert httpx.post(f"{url}/api/games", content=big, timeout=60).status_code == 413
    assert rows(db, "game_event") == 0 and rows(db, "game") == 1


# --- payloads -------------------------------------------------------------------------------------------
def test_moves_are_sent_by_id_with_their_hexes_and_routes_on_demand(server: tuple[str, Path]) -> None:
    url, _ = server
    seats = create(url, scenario="gazala-gallop", mode="remote")
    play(url, seats["axis"], "end-phase")  # set-up
    play(url, seats["axis"], "end-phase")  # air
    r = httpx.get(f"{url}/api/g/{seats['axis']}/state", timeout=60)
    s = r.json()
    assert s["view"]["phase"] == "axis-movement" and r.headers.get("content-encoding") == "gzip"
    moves = [a for a in s["legal"]["actions"] if a["verb"] == "move"]
    assert len(moves) > 300 and len({a["id"] for a in moves}) == len(moves)  # one entry per id: a route per hex
    assert all(a["gesture"] == "unit-hex" and a["unit"] == a["fields"]["unit"] and a["hex"] == a["fields"]["path"][-1] for a in moves)
    assert "legal_orders" not in s["view"]  # the orders are not sent twice
    first = moves[0]
    route = httpx.get(f"{url}/api/g/{seats['axis']}/path", params={"id": str(first["id"])}, timeout=60).json()["path"]
    assert route == first["fields"]["path"] and len(route) >= 2
    assert httpx.get(f"{url}/api/g/{seats['allied']}/path", params={"id": str(first["id"])}, timeout=60).status_code == 403
    r = httpx.post(f"{url}/api/g/{seats['axis']}/order", json={"id": first["id"], "version": s["version"]}, timeout=60)
    assert r.status_code == 200 and next(u for u in r.json()["view"]["units"] if u.get("id") == first["unit"])["hex"] == route[-1]
    export = httpx.get(f"{url}/api/g/{seats['axis']}/export", timeout=60).json()
    assert export["orders"][-1] == first["label"] == f"move {first['unit']} {'-'.join(route)}"  # the record keeps the route


# --- replays --------------------------------------------------------------------------------------------
def finished_record(tmp_path: Path) -> Path:
    from tobruk.engine.game import Game
    from tobruk.engine.sides import Side
    from tobruk.players import make_player, play_game

    game = play_game(
        Game(load_scenario("gazala-gallop"), seed=2), {Side.AXIS: make_player("greedy", 1), Side.ALLIED: make_player("greedy", 2)}
    )
    save(record_of(game), tmp_path / "rec.json")
    return tmp_path / "rec.json"


def test_uploaded_records_of_unknown_format_or_version_are_refused(server: tuple[str, Path], tmp_path: Path) -> None:
    url, db = server
    good = json.loads(finished_record(tmp_path).read_text())
    for change, field in (
        ({"format": "chess-pgn"}, "format"),
        ({"version": 2}, "version"),
        ({"version": "1"}, "version"),
        ({"seed": -5}, "seed"),
        ({"scenario": "../../etc/passwd"}, "scenario"),
    ):
        r = httpx.post(f"{url}/api/replays", json={**good, **change}, timeout=120)
        assert r.status_code == 400 and f"upload: {field}" in r.json()["error"], r.text
    assert httpx.post(f"{url}/api/replays", content=b"x" * (1024 * 1024 + 1), timeout=60).status_code == 413
    assert rows(db, "game") == 0


def test_a_replay_link_never_plays_orders(server: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = server
    r = httpx.post(f"{url}/api/replays", content=finished_record(tmp_path).read_bytes(), timeout=120)
    tok = token(r.json()["link"])
    assert httpx.get(f"{url}/api/replay/{tok}", params={"side": "both"}, timeout=120).status_code == 200
    assert httpx.get(f"{url}/api/g/{tok}/state", timeout=60).status_code == 403
    assert httpx.post(f"{url}/api/g/{tok}/order", json={"order": "end-phase", "version": 0}, timeout=60).status_code == 403
    assert httpx.post(f"{url}/api/g/{tok}/undo", json={"version": 0}, timeout=60).status_code == 403
    assert httpx.post(f"{url}/api/g/{tok}/rematch", json={}, timeout=60).status_code == 403


def test_replay_frames_are_recomputed_after_an_undo(server: tuple[str, Path]) -> None:
    url, _ = server
    seats = create(url, scenario="duel", mode="remote")
    for _ in range(20):  # to the Allied recovery phase of turn 1
        s = state(url, seats["allied"])
        if s["view"]["phase"] == "allied-recovery":
            break
        side = s["view"]["decision"]["side"]
        play(url, seats[side], "end-phase")

    def frames() -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = httpx.get(f"{url}/api/replay/{seats['allied']}", timeout=60).json()["frames"]
        return found

    play(url, seats["allied"], "end-phase")  # turn 1 ends; turn 2's weather is the Allied player's to choose
    first = frames()
    assert [f["label"] for f in first] == ["start", "end of turn 1"]
    r = httpx.post(f"{url}/api/g/{seats['allied']}/undo", json={"version": state(url, seats["allied"])["version"]}, timeout=60)
    assert r.status_code == 200 and r.json()["view"]["phase"] == "allied-recovery"
    play(url, seats["allied"], "convoy Tommy")  # as many orders as before the undo; this one ends turn 1 too
    again = frames()
    assert [f["label"] for f in again] == ["start", "end of turn 1"]
    convoy = [line for line in again[-1]["log"] if "truck convoy to Tommy" in line]
    assert convoy and not any("truck convoy" in line for line in first[-1]["log"])


def test_the_hotseat_replay_waits_for_the_end(server: tuple[str, Path]) -> None:
    url, _ = server
    tok = create(url, scenario="gazala-gallop", mode="hotseat", options=["nonhistorical"])["both"]
    play_as = state(url, tok, side="allied")
    assert order(url, tok, "place Dummy1 C5", play_as["version"]).status_code == 200
    for side in ("both", "axis", "allied"):
        r = httpx.get(f"{url}/api/replay/{tok}", params={"side": side}, timeout=60)
        assert r.status_code == 403 and "Dummy1" not in r.text


# --- undo and rematch ------------------------------------------------------------------------------------
def test_a_remote_player_undoes_only_while_the_decision_is_his(server: tuple[str, Path]) -> None:
    url, _ = server
    seats = create(url, scenario="duel", mode="remote")
    for _ in range(3):
        play(url, seats["axis"], "end-phase")  # set-up, movement, attacks: the Axis recovery phase is next
    s = play(url, seats["axis"], "end-phase")  # the decision passes to the Allied player
    assert s["view"]["decision"]["side"] == "allied" and not s["can_undo"]
    r = httpx.post(f"{url}/api/g/{seats['axis']}/undo", json={"version": s["version"]}, timeout=60)
    assert r.status_code == 400 and r.json()["error"] == "cannot undo: the decision has passed to the Allied player"
    assert state(url, seats["allied"])["view"]["phase"] == "allied-movement"
    s = play(url, seats["allied"], "activate Tommy")  # still the Allied decision: he may take it back
    assert s["can_undo"]
    assert httpx.post(f"{url}/api/g/{seats['allied']}/undo", json={"version": s["version"]}, timeout=60).status_code == 200


def test_a_rematch_makes_one_game_and_a_link_for_each_player(server: tuple[str, Path]) -> None:
    url, db = server
    seats = create(url, scenario="duel", mode="remote")
    assert httpx.post(f"{url}/api/g/{seats['axis']}/rematch", json={}, timeout=60).status_code == 400  # not over yet
    finish_remote_duel(url, seats)
    asks = [httpx.post(f"{url}/api/g/{seats[side]}/rematch", json={}, timeout=60).json() for side in ("axis", "allied", "axis")]
    assert rows(db, "game") == 2  # the game and its one rematch, however often it is asked for
    links = [token(a["link"]) for a in asks]
    assert links[0] == links[2] != links[1]
    assert [a["side"] for a in asks] == ["allied", "axis", "allied"]  # the sides change over
    new = [state(url, t) for t in links[:2]]
    assert new[0]["game"] == new[1]["game"] != state(url, seats["axis"])["game"]
    assert [n["side"] for n in new] == ["allied", "axis"]


# --- the event loop and the event stream ------------------------------------------------------------------
def test_a_long_request_does_not_hold_up_the_others(server: tuple[str, Path], tmp_path: Path) -> None:
    """While uploaded records are replayed and checked (three at once, each five times in a row: seconds of work),
    the server still answers at once: the work runs in the thread pool, not on the event loop.  (One replay of
    the record is now a fraction of a second of work, too close to the time the answer itself takes while three
    threads compete for the interpreter; hence several in a row.)"""
    url, _ = server
    record = finished_record(tmp_path).read_bytes()
    finished: list[float] = []

    def upload() -> None:
        for _ in range(5):
            assert httpx.post(f"{url}/api/replays", content=record, timeout=120).status_code == 200
        finished.append(time.perf_counter())

    workers = [threading.Thread(target=upload) for _ in range(3)]
    t0 = time.perf_counter()
    for w in workers:
        w.start()
    time.sleep(0.2)  # the uploads are being replayed and checked
    assert httpx.get(f"{url}/", timeout=60).status_code == 200
    answered = time.perf_counter()
    for w in workers:
        w.join()
    assert min(finished) - t0 > 0.5 and answered < min(finished) - 0.5, (answered - t0, [f - t0 for f in finished])


def test_a_quiet_games_event_stream_stays_alive_while_others_play(server: tuple[str, Path]) -> None:
    url, _ = server
    quiet = create(url, scenario="duel", mode="hotseat")["both"]
    busy = create(url, scenario="gazala-gallop", mode="hotseat")["both"]
    stop = threading.Event()

    def keep_playing() -> None:
        while not stop.is_set():
            s = state(url, busy)
            actions = s["legal"]["actions"]
            if actions:
                chosen = next((a for a in actions if a["verb"] != "end-phase"), actions[0])
                send(url, busy, {"id": chosen["id"]}, s["version"])

    player = threading.Thread(target=keep_playing)
    player.start()
    lines: list[str] = []
    try:
        with httpx.stream("GET", f"{url}/api/g/{quiet}/events", timeout=httpx.Timeout(60, read=15)) as r:
            t0 = time.monotonic()
            for line in r.iter_lines():
                lines.append(line)
                if line.startswith(": keep-alive") or time.monotonic() - t0 > 12:
                    break
    finally:
        stop.set()
        player.join()
    assert lines[0] == 'data: {"version": 0}' and ": keep-alive" in lines


# --- older databases ------------------------------------------------------------------------------------
def test_a_first_version_database_is_carried_over(tmp_path: Path) -> None:
    """A database of the first server (one ``games`` table, each game's orders as a JSON list) is copied into
    the new tables when the server first opens it: the game goes on from where it was, at the same version."""
    db = tmp_path / "games.sqlite"
    with sqlite3.connect(db) as c:
        c.execute(
            "CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, scenario VARCHAR(200) NOT NULL, options TEXT NOT NULL, "
            "seed INTEGER NOT NULL, mode VARCHAR(20) NOT NULL, axis_player VARCHAR(20) NOT NULL, "
            "allied_player VARCHAR(20) NOT NULL, axis_token VARCHAR(64) NOT NULL UNIQUE, "
            "allied_token VARCHAR(64) NOT NULL UNIQUE, both_token VARCHAR(64) UNIQUE, orders TEXT NOT NULL, "
            "created FLOAT NOT NULL, updated FLOAT NOT NULL)"
        )
        c.execute(
            "INSERT INTO games VALUES ('0123456789abcdef', 'duel', '[]', 1, 'hotseat', 'human', 'human', "
            "'axis-token-000000', 'allied-token-0000', 'both-token-000000', '[\"end-phase\", \"move Pz B3-B4\"]', 0, 0)"
        )
    with running_server(db, tmp_path / "scenarios") as url:
        s = state(url, "both-token-000000")
        assert s["version"] == 2 and next(u for u in s["view"]["units"] if u.get("id") == "Pz")["hex"] == "B4"
        assert order(url, "both-token-000000", "end-phase", 2).status_code == 200
    assert rows(db, "game_event") == 3


def test_the_opponent_cannot_work_out_the_face_down_ids(tmp_path: Path) -> None:
    """The anonymous ids of face-down counters are keyed on the game's seed: with a seed anyone could guess
    (the first server's default was 1), the Axis player could replay the Allied set-up's candidates at home
    and match the ids he is sent to units.  With the server's own seed the ids he is sent match no guess."""
    from tobruk.engine.game import Game
    from tobruk.engine.sides import Side
    from tobruk.view import view

    placements = ["place Dummy1 C5", "place Dummy2 E6"]
    with running_server(tmp_path / "games.sqlite", tmp_path / "scenarios") as url:
        seats = create(url, scenario="gazala-gallop", mode="remote", options=["nonhistorical"])
        for text in [*placements, "end-phase"]:
            play(url, seats["allied"], text)
        sent = {u["anon"] for u in state(url, seats["axis"])["view"]["units"] if u.get("hidden")}
    assert len(sent) > 10
    for guess in (0, 1, 2, 42):
        game = Game(load_scenario("gazala-gallop"), seed=guess, options=["nonhistorical"])
        for text in [*placements, "end-phase"]:
            game.play(text)
        worked_out = {u["anon"] for u in view(game, Side.AXIS)["units"] if u.get("hidden")}
        assert len(worked_out) == len(sent) and not worked_out & sent
