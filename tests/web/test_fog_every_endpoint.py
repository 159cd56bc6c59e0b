"""Fog of war judged on what a client receives, over every endpoint of the server.

Pairs of games are played side by side on a real server: they differ only in what one side (the Axis) may not know
(where the Allies' face-down counters stand and which of them are dummies, or the seed of the dice to come).  At
positions along random games, the Axis's link asks every endpoint a player's link can ask (the state, the page,
orders and undos that are refused, odds, routes, the event stream, the export, the record, the form, the replay,
a rematch) and the two games must give byte-identical answers: status, content type, file name and body, once the
games' own link tokens and numbers are set aside.  Which two positions the Axis cannot tell apart is decided by the
engine's information sets (``observed``): the pairs are built so, and the walk goes on while they stay so.

The Gazala Gallop's hidden Allied set-up (option ``nonhistorical``), the turns after it with face-down counters on
the map, and the siege of Tobruk (a user's scenario in which the Axis opens next to Tobruk) are walked; and Operation
Compass solitaire, where the British link is the one that asks and the seed of the dice to come the only secret (the
charts' Italians hide nothing else).
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

import tobruk.systems.gazala
from tests.web.web_server import running_server
from tobruk.engine.errors import TobrukError
from tobruk.engine.game import Game
from tobruk.engine.information import observed, resample
from tobruk.engine.sides import Side
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import Scenario, load_scenario, read_scenario
from tobruk.web.server import create_app

AXIS, ALLIED = Side.AXIS, Side.ALLIED
PACKAGED = Path(tobruk.systems.gazala.__file__).parent / "scenarios" / "gazala-gallop.toml"
SIEGE = PACKAGED.read_text(encoding="utf-8").replace(  # the Axis may set 15Pz up next to Tobruk: the siege at once
    'any = [{ west_of = "gazala-line" }, { rows = "K-N", columns = "1-6" }]',
    'any = [{ west_of = "gazala-line" }, { rows = "K-N", columns = "1-6" }, { hexes = ["E12"] }]',
)
SEED = 5
ANON = re.compile(rb'"anon":"([0-9a-f]{12})"')
ANY_ANON = re.compile(rb"(?<![0-9a-f])[0-9a-f]{12}(?![0-9a-f])")
# orders tried at a decision for one after which the Axis still cannot tell the games apart: the Axis's (with the Allied
# answers they call for), the Allies' in game a, and for each the likeliest mirrors in game b (the same order, then the
# same kind of order to the same hex, then others)
AXIS_TRIES, ALLIED_TRIES, MIRRORS = 40, 8, 80

# the routes that are no game's (the lobby, the page's scripts, the lists of scenarios and players, a new game, an upload,
# the rules' help and the systems' results tables: the printed rules and charts, the same for everyone)
NOT_A_GAMES = {"/", "/favicon.ico", "/static", "/api/scenarios", "/api/players", "/api/players/about", "/api/games", "/api/replays"} | {
    "/help/{clause}",
    "/help/system/{name}",
    "/help/system/{name}/crt",
    "/api/help/system/{name}/crt",
}
# every route a player's link may ask about its game, as this test asks it
ASKED = {
    "/g/{token}",
    "/replay/{token}",
    "/api/g/{token}/state",
    "/api/g/{token}/order",
    "/api/g/{token}/undo",
    "/api/g/{token}/odds",
    "/api/g/{token}/path",
    "/api/g/{token}/rematch",
    "/api/g/{token}/events",
    "/api/g/{token}/webhook",
    "/api/g/{token}/record",
    "/api/g/{token}/export",
    "/api/g/{token}/form",
    "/api/replay/{token}",
    "/api/map/{scenario}.svg",
    "/api/map/{scenario}.json",
}


def test_every_route_of_the_server_is_asked_by_the_fog_walk(tmp_path: Path) -> None:
    """A new endpoint must join the walk below (or say why it is no game's)."""
    app = create_app(f"sqlite:///{tmp_path / 'routes.sqlite'}", [tmp_path])
    paths = {getattr(r, "path", "") for r in app.routes}
    assert paths - NOT_A_GAMES == ASKED


@dataclass
class Served:
    """One game on the server (its links and number) and the same game played here, on the engine."""

    tokens: dict[str, str]
    number: str  # the game's id
    game: Game
    labels: dict[bytes, bytes] | None = None  # with another seed: each anonymous id by the order it was first sent in

    def normal(self, body: bytes) -> bytes:
        """The answer with this game's own link tokens and number set aside (they tell the games apart, not the units);
        and, between games of different seeds, the anonymous ids renamed by the order they were first sent in."""
        for token in self.tokens.values():
            body = body.replace(token.encode(), b"<token>")
        body = body.replace(self.number.encode(), b"<game>")
        if self.labels is not None:
            labels = self.labels
            for anon in ANON.findall(body):
                labels.setdefault(anon, b"<anon%d>" % len(labels))
            body = ANY_ANON.sub(lambda m: labels.get(m.group(0), m.group(0)), body)
        return body


@dataclass
class Pair:
    """Two games the Axis must not tell apart, on one server."""

    url: str
    client: httpx.Client
    scenario: Scenario
    a: Served
    b: Served
    rng: random.Random
    compared: list[str] = field(default_factory=list)
    seat: Side = AXIS  # whose link asks (the side that must not tell the games apart)

    # --- playing both ------------------------------------------------------------------------------------------
    def give(self, served: Served, side: Side, text: str) -> None:
        """An order by ``side``'s link, on the server and on the engine here (the server's position is the engine's)."""
        version = self.client.get(f"{self.url}/api/g/{served.tokens[side.value]}/state").json()["version"]
        r = self.client.post(f"{self.url}/api/g/{served.tokens[side.value]}/order", json={"order": text, "version": version})
        assert r.status_code == 200, (text, r.text)
        served.game.play(text)

    def axis_cannot_tell(self) -> bool:
        return observed(self.a.game, AXIS).state_hash() == observed(self.b.game, AXIS).state_hash()

    def both(self, side: Side, text: str) -> None:
        self.give(self.a, side, text)
        self.give(self.b, side, text)

    def step(self) -> bool:
        """The next orders of both games: an Axis order chosen at random (the same in both), with the Allied answers it
        calls for (mirrored: :meth:`mirror`), among those after which the Axis still cannot tell the games apart; or
        mirrored Allied orders.  ``False`` where there are none (every choice would show the Axis something, a
        battle against a dummy ...: the games part there, as the rules make them)."""
        d = self.a.game.decision
        assert d is not None
        if d.side is ALLIED:
            found = self.mirror(self.a.game, self.b.game)
            if found is None:
                return False
            self.give(self.a, ALLIED, found[0])
            self.give(self.b, ALLIED, found[1])
            return True
        options = self.a.game.legal_notation()
        self.rng.shuffle(options)
        for text in options[:AXIS_TRIES]:
            after_a, after_b = self.a.game.copy(), self.b.game.copy()
            after_a.play(text)
            after_b.play(text)
            answers: list[tuple[str, str]] | None = []
            while answers is not None and after_a.decision is not None and after_a.decision.side is ALLIED and len(answers) < 3:
                found = self.mirror(after_a, after_b)
                if found is None:
                    answers = None  # the Allies' answer would show the Axis something
                    break
                answers.append(found)
                after_a.play(found[0])
                after_b.play(found[1])
            if answers is not None and observed(after_a, AXIS).state_hash() == observed(after_b, AXIS).state_hash():
                self.both(AXIS, text)
                for text_a, text_b in answers:
                    self.give(self.a, ALLIED, text_a)
                    self.give(self.b, ALLIED, text_b)
                return True
        return False

    def mirror(self, a: Game, b: Game) -> tuple[str, str] | None:
        """An Allied order in ``a``, chosen at random, and one in ``b`` after which the Axis still cannot tell them
        apart (``None`` if no such pair turns up)."""
        options_a = a.legal_notation()
        self.rng.shuffle(options_a)
        for text in options_a[:ALLIED_TRIES]:
            after = a.copy()
            after.play(text)
            target = observed(after, AXIS).state_hash()
            options = b.legal_notation()
            self.rng.shuffle(options)
            words = text.split(" ")
            options.sort(key=lambda o: (o != text, o.split(" ")[0] != words[0], o.split(" ")[-1] != words[-1]))
            for other in options[:MIRRORS]:
                trial = b.copy()
                trial.play(other)
                if observed(trial, AXIS).state_hash() == target:
                    return text, other
        return None

    # --- what the Axis's link is answered ----------------------------------------------------------------------
    def ask(self, served: Served, method: str, path: str, params: dict[str, str] | None, body: object) -> tuple[int, str, bytes, bytes]:
        url = f"{self.url}{path.format(token=served.tokens[self.seat.value], scenario=self.scenario.name)}"
        r = self.client.request(method, url, params=params, json=body)
        disposition = served.normal(r.headers.get("content-disposition", "").encode())
        return r.status_code, r.headers.get("content-type", ""), disposition, served.normal(r.content)

    def first_event(self, served: Served) -> bytes:
        with self.client.stream("GET", f"{self.url}/api/g/{served.tokens[self.seat.value]}/events") as r:
            for line in r.iter_lines():
                return served.normal(line.encode())
        return b""

    def same(self, what: str, method: str, path: str, *, params: dict[str, str] | None = None, body: object = None) -> None:
        left, right = self.ask(self.a, method, path, params, body), self.ask(self.b, method, path, params, body)
        assert left == right, f"{what}: the {self.seat.value} link is answered differently: {difference(left, right)}"
        self.compared.append(path)

    def same_state(self) -> None:
        self.same("state", "GET", "/api/g/{token}/state")

    def same_everywhere(self) -> None:
        """Every endpoint, as the Axis's link asks it now (the asking changes neither game)."""
        version = self.client.get(f"{self.url}/api/g/{self.a.tokens[self.seat.value]}/state").json()["version"]
        self.same_state()
        for page in ("/g/{token}", "/replay/{token}", "/api/map/{scenario}.svg", "/api/map/{scenario}.json"):
            self.same(page, "GET", page)
        for doc in ("/api/g/{token}/export", "/api/g/{token}/record", "/api/g/{token}/form"):
            self.same(doc, "GET", doc)
        for side in ("axis", "allied"):
            for by in ("turn", "action"):
                self.same(f"replay frames {side} by {by}", "GET", "/api/replay/{token}", params={"side": side, "by": by})
        self.same("rematch", "POST", "/api/g/{token}/rematch", body={})
        self.same("webhook", "GET", "/api/g/{token}/webhook")
        self.same("a webhook refused", "PUT", "/api/g/{token}/webhook", body={"url": "http://127.0.0.1:9/hook"})
        assert self.first_event(self.a) == self.first_event(self.b)
        self.compared.append("/api/g/{token}/events")
        self.same("a stale undo", "POST", "/api/g/{token}/undo", body={"version": version + 7})
        if not self.axis_decides() or not self.a.game.can_undo():
            self.same("an undo", "POST", "/api/g/{token}/undo", body={"version": version})  # refused: the same refusal
        self.same("a stale order", "POST", "/api/g/{token}/order", body={"order": "end-phase", "version": version + 7})
        for text in self.probes():
            legal = (self.legal(self.a.game, text), self.legal(self.b.game, text))
            assert legal[0] == legal[1], f"{text!r} is legal in one game and not the other"
            fields = self.fields(text)
            if not legal[0]:  # (a legal one would change the games: only refusals are asked for)
                self.same(f"order {text!r}", "POST", "/api/g/{token}/order", body={"order": text, "version": version})
                if fields is not None:
                    self.same(f"order {fields}", "POST", "/api/g/{token}/order", body={"action": fields, "version": version})
            self.same(f"odds {text!r}", "GET", "/api/g/{token}/odds", params={"order": text})
            self.same(f"path {text!r}", "GET", "/api/g/{token}/path", params={"order": text})
            if fields is not None:
                self.same(f"odds {fields}", "GET", "/api/g/{token}/odds", params={"action": json.dumps(fields)})
        offered = self.client.get(f"{self.url}/api/g/{self.a.tokens[self.seat.value]}/state").json()["legal"]
        ids = [a["id"] for a in offered["actions"]][:12] if offered else []
        for i in [*ids, 999_999]:  # the listed ids, and one no action has
            self.same(f"path of id {i}", "GET", "/api/g/{token}/path", params={"id": str(i)})
            self.same(f"odds of id {i}", "GET", "/api/g/{token}/odds", params={"id": str(i)})
        self.same("an order by an id no action has", "POST", "/api/g/{token}/order", body={"id": 999_999, "version": version})

    def fields(self, text: str) -> dict[str, object] | None:
        """The fields of the action ``text`` writes, as the page would send them (``None`` for text that is no action)."""
        try:
            return self.a.game.parse(text).fields()
        except TobrukError:
            return None

    def legal(self, game: Game, text: str) -> bool:
        """Whether the seat's order ``text`` would be played in ``game`` (tried on a copy)."""
        d = game.decision
        if d is None or d.side is not self.seat:
            return False
        trial = game.copy()
        try:
            trial.play(text)
        except TobrukError:
            return False
        return True

    def axis_decides(self) -> bool:
        d = self.a.game.decision
        return d is not None and d.side is self.seat

    def probes(self) -> list[str]:
        """Orders the Axis might try against the counters it sees: attacks on each enemy-held hex next to an Axis unit
        and on a few others, moves into them, and an order that is no order."""
        game = observed(self.a.game, self.seat)  # what the seat knows: the probes must not depend on anything else
        mine = [(uid, h) for uid, h in game.placed(self.seat)]
        enemy = sorted({h for _, h in game.placed(self.seat.enemy)})
        out = ["attack nowhere", "move 15Pz"]
        for h in enemy[:6]:
            near = [uid for uid, x in mine if x.distance(h) == 1]
            some = near or [uid for uid, _ in mine[:1]]
            if some:
                out.append(f"attack {h.label} with {','.join(some)}")
                out.append(f"move {some[0]} {h.label}")
        hexes = self.scenario.map.hexes
        for h in self.rng.sample(hexes, 3):
            if mine:
                out.append(f"attack {h.label} with {mine[0][0]}")
        return out


def difference(left: tuple[int, str, bytes, bytes], right: tuple[int, str, bytes, bytes]) -> str:
    """Where two answers first differ, with a little of each around it."""
    if left[:3] != right[:3]:
        return f"{left[:3]} against {right[:3]}"
    a, b = left[3], right[3]
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"at byte {at} of {len(a)} and {len(b)}: ...{a[max(0, at - 150) : at + 150]!r} against ...{b[max(0, at - 150) : at + 150]!r}"


def served(client: httpx.Client, url: str, scenario: Scenario, options: list[str], seed: int) -> Served:
    r = client.post(f"{url}/api/games", json={"scenario": scenario.name, "mode": "remote", "options": options})
    assert r.status_code == 200, r.text
    tokens = {side: link.rsplit("/", 1)[1] for side, link in r.json()["links"].items()}
    return Served(tokens, r.json()["game"], Game(scenario, seed=seed, options=options))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "siege.toml").write_text(SIEGE, encoding="utf-8")
    seeds = iter([SEED] * 4 + [SEED + 1] * 1 + [SEED] * 20)  # the fourth pair's second game: another seed
    with running_server(tmp_path / "games.sqlite", folder, seeds=lambda: next(seeds)) as url:
        yield url


def siege_scenario() -> Scenario:
    return read_scenario(Table(tomllib.loads(SIEGE), "siege.toml"), "siege")


SET_UP = ("axis-setup", "allied-setup", "allied-siege")


def set_ups(pair: Pair, axis_orders: tuple[str, ...] = ()) -> None:
    """The set-ups, as the scenario orders them: the Axis's the same in both games (``axis_orders``, then the end of
    it), the Allies' face down (:func:`hidden_set_up`), every answer compared along the way."""
    while pair.a.game.decision is not None and pair.a.game.phase.key in SET_UP:
        if pair.a.game.decision.side is AXIS:
            for text in [*axis_orders, "end-phase"]:
                pair.both(AXIS, text)
            axis_orders = ()
        else:
            hidden_set_up(pair)
            assert pair.axis_cannot_tell()  # the pair was built so: the same places, filled otherwise
        pair.same_everywhere()


def allied_plan(game: Game, rng: random.Random) -> list[str]:
    """A random face-down set-up: each Allied unit placed once, in a hex its zone allows, then the end of it."""
    plan = game.copy()
    while plan.decision is not None and plan.decision.side is ALLIED:
        places = [t for t in plan.legal_notation() if t.startswith("place ")]
        plan.play(rng.choice(places) if places else "end-phase")
    return plan.notation()[len(game.notation()) :]


def plan_like(game: Game, drawn: Game) -> list[str] | None:
    """The orders that set the Allies up in ``game`` as they stand in ``drawn`` (the units drawn elsewhere than they
    stand, dummies first, as GG-V.B.1 has them), or ``None`` where the rules refuse them so."""
    where = {uid: h for uid in drawn.units_of(ALLIED) if (h := drawn.unit(uid).hex) != game.unit(uid).hex}
    units = sorted(where, key=lambda uid: not drawn.defs[uid].is_dummy)
    orders = [f"place {uid} {h.label}" for uid in units if (h := where[uid]) is not None] + ["end-phase"]
    trial = game.copy()
    try:
        for text in orders:
            trial.play(text)
    except TobrukError:
        return None
    return orders


def hidden_set_up(pair: Pair) -> None:
    """The Allies set up face down: in game a at random, in game b the same places filled as the engine's resample
    fills them (which counter is where, and which are dummies, drawn again as the rules allow)."""
    order_a = allied_plan(pair.a.game, pair.rng)
    done_a = pair.a.game.copy()
    for text in order_a:
        done_a.play(text)
    order_b = None
    for _ in range(100):
        order_b = plan_like(pair.b.game, resample(done_a, AXIS, pair.rng))
        if order_b is not None and order_b != order_a and len(order_b) == len(order_a):
            break
    assert order_b is not None and order_b != order_a and len(order_b) == len(order_a), "no other set-up filling the same places"
    for n, (text_a, text_b) in enumerate(zip(order_a, order_b, strict=True)):
        pair.give(pair.a, ALLIED, text_a)
        pair.give(pair.b, ALLIED, text_b)
        if n in (0, len(order_a) // 2):
            pair.same_everywhere()
        else:
            pair.same_state()


def walk(pair: Pair, steps: int, every: int) -> int:
    """Random Axis orders (the same in both games) and mirrored Allied ones, as long as some keep the Axis from
    telling the games apart; every answer compared at every ``every``-th position, the state at each.  The positions walked."""
    n = 0
    for n in range(1, steps + 1):
        d = pair.a.game.decision
        if d is None:
            break
        if not pair.step():
            break  # every order shows the Axis something (a battle against a dummy, a reveal): the games part here
        assert pair.axis_cannot_tell()
        if n % every == 0:
            pair.same_everywhere()
        else:
            pair.same_state()
    return n


def make_pair(url: str, client: httpx.Client, scenario: Scenario, options: list[str], rng: random.Random, seeds: tuple[int, int]) -> Pair:
    a, b = (served(client, url, scenario, options, s) for s in seeds)
    assert len(a.number) == len(b.number)  # (a game's id is in some answers: set aside, the same length)
    return Pair(url, client, scenario, a, b, rng)


def test_the_axis_is_answered_the_same_whatever_the_hidden_set_up_holds(server: str) -> None:
    url, scenario = server, load_scenario("gazala-gallop")
    with httpx.Client(timeout=120) as client:
        for seed in (11, 12):
            pair = make_pair(url, client, scenario, ["nonhistorical"], random.Random(seed), (SEED, SEED))
            pair.same_everywhere()
            set_ups(pair)
            # the state compared holds the Axis's warnings, face-down counters counted among those that could reach A5
            seen = client.get(f"{url}/api/g/{pair.a.tokens['axis']}/state").json()["view"]["threats"]
            assert any(t["unseen"] for t in seen)
            assert walk(pair, steps=40, every=8) >= 10  # (a walk ends where every choice would show the Axis something)
        assert set(pair.compared) == ASKED


def test_the_axis_is_answered_the_same_whatever_the_siege_redeployment_holds(server: str) -> None:
    url, scenario = server, siege_scenario()
    with httpx.Client(timeout=120) as client:
        pair = make_pair(url, client, scenario, [], random.Random(21), (SEED, SEED))
        pair.both(AXIS, "place 15Pz E12")  # within 6 hexes of Tobruk: the siege is offered
        pair.both(AXIS, "end-phase")
        assert pair.a.game.phase.key == "allied-siege"
        set_ups(pair)
        assert walk(pair, steps=20, every=6) >= 10


def test_the_axis_is_answered_the_same_whatever_the_seed_of_the_dice_to_come(server: str) -> None:
    """Two games with different seeds and the same orders (the Allies' face-down set-up too), compared until the first
    die is rolled: nothing the Axis is sent may depend on the dice to come.  The anonymous ids of face-down counters
    are keyed hashes under each game's own secret (docs/architecture.md), names that say nothing but which counter
    is which from one answer to the next: the two games' are compared up to a renaming, each named by the order it
    was first sent in."""
    url, scenario = server, load_scenario("gazala-gallop")
    with httpx.Client(timeout=120) as client:
        for _ in range(3):  # the first games of the server take the fixed seed: the fourth pair's b takes another
            served(client, url, scenario, [], SEED)
        pair = make_pair(url, client, scenario, ["nonhistorical"], random.Random(31), (SEED, SEED + 1))
        pair.a.labels, pair.b.labels = {}, {}
        pair.same_everywhere()
        for text in allied_plan(pair.a.game, pair.rng):
            pair.give(pair.a, ALLIED, text)
            pair.give(pair.b, ALLIED, text)
            pair.same_state()
        pair.same_everywhere()
        compared = 0
        while pair.a.game.decision is not None:
            pair.both(pair.a.game.decision.side, pair.rng.choice(pair.a.game.legal_notation()))
            if pair.a.game.dice.log or pair.b.game.dice.log:
                break  # a die is rolled: from here the games may differ as their dice do
            pair.same_state()
            compared += 1
        assert compared > 5 and pair.a.game.turn == 1


def test_the_british_are_answered_the_same_whatever_the_seed_of_the_dice_to_come(server: str) -> None:
    """Operation Compass solitaire: the Italians are played by the charts' procedures, so the British player's link is
    the only one.  Two games with different seeds and the same British orders are compared on every endpoint until
    the first die is rolled: neither the charts' own choices nor anything sent may depend on the dice to come."""
    url, scenario = server, load_scenario("operation-compass")
    with httpx.Client(timeout=120) as client:
        for _ in range(3):  # the first games of the server take the fixed seed: the fourth pair's b takes another
            served(client, url, scenario, [], SEED)
        pair = make_pair(url, client, scenario, [], random.Random(41), (SEED, SEED + 1))
        pair.seat = ALLIED
        assert AXIS in pair.a.game.system.ruled_sides(pair.a.game)  # (the Italians: their link only watches)
        pair.same_everywhere()
        compared = 0
        while compared < 16 and (order := quiet_order(pair.a.game, pair.rng)) is not None:
            pair.both(ALLIED, order)
            assert not pair.a.game.dice.log and not pair.b.game.dice.log
            compared += 1
            if compared % 8 == 0:
                pair.same_everywhere()
            else:
                pair.same_state()
        assert compared == 16


def quiet_order(game: Game, rng: random.Random) -> str | None:
    """A British order, at random, that rolls no die (tried on a copy); ``None`` once every order would roll one."""
    d = game.decision
    if d is None:
        return None
    assert d.side is ALLIED
    options = game.legal_notation()
    rng.shuffle(options)
    for text in options:
        trial = game.copy()
        trial.play(text)
        if not trial.dice.log:
            return text
    return None
