"""The odds a side is given are worked out from what it may know, judged on what its client receives: two games
that differ only in where the enemy's face-down counters stand, or which of them are dummies, give the side the
same answer for an attack on every hex of the map, byte for byte, over HTTP (the hidden Allied set-up, the
declared attack on a face-down stack, the Siege of Tobruk), asked by the attack's fields as the page asks or in
notation as a person types.  Asking odds once told the hexes holding face-down counters from the empty ones."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import tobruk.systems.gazala
from tests.web.web_server import running_server
from tobruk.loading.scenario import load_scenario

PACKAGED = Path(tobruk.systems.gazala.__file__).parent / "scenarios" / "gazala-gallop.toml"
# a scenario of the user's own: the Axis may set 15Pz up next to Tobruk, so that the siege is offered at once
SIEGE = PACKAGED.read_text(encoding="utf-8").replace(
    'any = [{ west_of = "gazala-line" }, { rows = "K-N", columns = "1-6" }]',
    'any = [{ west_of = "gazala-line" }, { rows = "K-N", columns = "1-6" }, { hexes = ["E12"] }]',
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "siege.toml").write_text(SIEGE, encoding="utf-8")
    with running_server(tmp_path / "games.sqlite", folder, seeds=lambda: 5) as url:
        yield url


def new_game(url: str, scenario: str, options: list[str]) -> dict[str, str]:
    r = httpx.post(f"{url}/api/games", json={"scenario": scenario, "mode": "remote", "options": options}, timeout=60)
    assert r.status_code == 200, r.text
    return {side: link.rsplit("/", 1)[1] for side, link in r.json()["links"].items()}


def give(client: httpx.Client, url: str, token: str, order: str) -> None:
    version = client.get(f"{url}/api/g/{token}/state").json()["version"]
    r = client.post(f"{url}/api/g/{token}/order", json={"order": order, "version": version})
    assert r.status_code == 200, (order, r.text)


def odds_everywhere(client: httpx.Client, url: str, token: str, attackers: str) -> list[tuple[int, bytes]]:
    """The answer to "the odds of an attack on H with ``attackers``" for every hex H of the map, as received, asked
    as the page asks it (the attack's fields); asked in notation, as a person types it, the answer is the same."""
    hexes = load_scenario("gazala-gallop").map.hexes
    out = []
    for h in hexes:
        fields = {"verb": "attack", "defenders": [h.label], "attackers": attackers.split(",")}
        r = client.get(f"{url}/api/g/{token}/odds", params={"action": json.dumps(fields)})
        typed = client.get(f"{url}/api/g/{token}/odds", params={"order": f"attack {h.label} with {attackers}"})
        assert (typed.status_code, typed.content) == (r.status_code, r.content)
        out.append((r.status_code, r.content))
    return out


def test_the_hidden_allied_set_up_cannot_be_found_by_asking_odds(server: str) -> None:
    url = server
    a, b = new_game(url, "gazala-gallop", ["nonhistorical"]), new_game(url, "gazala-gallop", ["nonhistorical"])
    with httpx.Client(timeout=60) as client:
        start = odds_everywhere(client, url, a["axis"], "15Pz")
        assert odds_everywhere(client, url, b["axis"], "15Pz") == start
        for order_a, order_b in (("place 7MotBde N9", "place 29IndBde K14"), ("place Dummy1 N9", "place Dummy2 D5")):
            give(client, url, a["allied"], order_a)
            give(client, url, b["allied"], order_b)
            # nothing placed shows: the answers stay what they were before the set-up began
            assert odds_everywhere(client, url, a["axis"], "15Pz") == start
            assert odds_everywhere(client, url, b["axis"], "15Pz") == start
        refused = [body for status, body in start if status == 400]
        assert len(refused) == len(start)  # 15Pz in G3 faces no Allied counter the Axis can see


def test_the_odds_against_a_dummy_and_a_unit_are_the_same(server: str) -> None:
    url = server
    a, b = new_game(url, "gazala-gallop", ["nonhistorical"]), new_game(url, "gazala-gallop", ["nonhistorical"])
    with httpx.Client(timeout=60) as client:
        for tokens, placements in (
            (a, ["place Dummy1 E6", "place Dummy2 B5"]),
            (b, ["place 1ATB E6", "place Dummy1 G8", "place Dummy2 B5"]),
        ):
            for text in [*placements, "end-phase"]:
                give(client, url, tokens["allied"], text)
            give(client, url, tokens["axis"], "place 15Pz E5")
        answers = odds_everywhere(client, url, a["axis"], "15Pz")
        assert odds_everywhere(client, url, b["axis"], "15Pz") == answers
        hexes = [h.label for h in load_scenario("gazala-gallop").map.hexes]
        status, body = answers[hexes.index("E6")]
        assert status == 200 and httpx.Response(200, content=body).json()["odds"] == "unknown (face-down units)"


def test_the_siege_redeployment_cannot_be_found_by_asking_odds(server: str) -> None:
    url = server
    a, b = new_game(url, "siege", []), new_game(url, "siege", [])
    with httpx.Client(timeout=60) as client:
        for tokens in (a, b):
            give(client, url, tokens["axis"], "place 15Pz E12")  # within 6 hexes of Tobruk: the siege is offered
            give(client, url, tokens["axis"], "end-phase")
            assert client.get(f"{url}/api/g/{tokens['allied']}/state").json()["view"]["phase"] == "allied-siege"
        start = odds_everywhere(client, url, a["axis"], "15Pz")
        assert odds_everywhere(client, url, b["axis"], "15Pz") == start
        for order_a, order_b in (("place 2SA D12", "place Dummy1 D12"), ("place Dummy1 C13", "place Dummy2 D13")):
            give(client, url, a["allied"], order_a)
            give(client, url, b["allied"], order_b)
            assert odds_everywhere(client, url, a["axis"], "15Pz") == start
            assert odds_everywhere(client, url, b["axis"], "15Pz") == start
