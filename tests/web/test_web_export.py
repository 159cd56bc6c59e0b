"""A side's export at every position of random games of every system, played through the referee as the page plays
them (listed actions by id, whole attacks gathered and sent as fields), and the stored orders one to one with the
game's history: a game rebuilt from the database stands where the game in memory stands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tobruk.engine.sides import Side
from tobruk.web.payload import export_of
from tobruk.web.referee import Referee, Refused, Scenarios, Session
from tobruk.web.schemas import PlayOrder
from tobruk.web.store import Store

GAMES = [
    ("gazala-gallop", []),
    ("gazala-gallop", ["nonhistorical"]),
    ("first-alamein", []),
    ("operation-compass", []),
    ("operation-compass", ["two-players"]),
]
ORDERS = 160  # orders per game: both set-ups, movement and several attacks


def referee_on(db: Path) -> Referee:
    return Referee(Store(f"sqlite:///{db}"), Scenarios([]), seeds=lambda: 11)


def pick(referee: Referee, s: Session, rng: random.Random) -> PlayOrder:
    """An action as the page gives it: a listed one by its id, or often a whole attack gathered as the page gathers it
    (some of the units the server lists for one of its targets), sent as the attack's fields."""
    offered = referee.offered(s)
    if offered["composites"] and rng.random() < 0.7:
        c = offered["composites"][0]
        target = rng.choice(c["targets"])
        units = rng.sample(target["units"], rng.randint(1, len(target["units"])))
        return PlayOrder(s.version, action={**c["fields"], c["gather"]: units, c["target"]: [target["hex"]]})
    return PlayOrder(s.version, id=rng.choice(offered["actions"])["id"])


def parts(s: Session, sent: PlayOrder) -> list[str]:
    """The actions an order is played as: a listed action's, or a whole attack's parts."""
    if sent.id is not None:
        return [s.game.legal_ids()[sent.id].notation()]
    assert sent.action is not None
    return [a.notation() for a in s.game.system.vocabulary.from_fields(sent.action).expand()]


@pytest.mark.parametrize(("scenario", "options"), GAMES)
def test_each_side_exports_its_own_orders_at_every_position(tmp_path: Path, scenario: str, options: list[str]) -> None:
    db = tmp_path / "games.sqlite"
    referee = referee_on(db)
    stored = referee.create(referee.scenarios.get(scenario), options, None, "remote", "human", "human")
    tokens = {"axis": stored.axis_token, "allied": stored.allied_token}
    sent: dict[str, list[str]] = {"axis": [], "allied": []}
    rng = random.Random(f"{scenario}{options}")
    attacks = 0
    for _ in range(ORDERS):
        opened = referee.open(tokens["axis"])
        assert opened is not None
        s = opened[0]
        with s.lock:
            for seat in ("axis", "allied"):
                data = export_of(s, seat, None)
                assert data["side"] == seat and data["orders"] == sent[seat]
                json.dumps(data)  # plain data all through
            d = s.game.decision
            if d is None:
                break
            seat = d.side.value
            sent_order = pick(referee, s, rng)
            expected = parts(s, sent_order)
            version = s.version
        if sent_order.action is not None:
            attacks += 1
        if rng.random() < 0.05:
            try:
                referee.undo(s, seat, version)
            except Refused:
                pass
            else:
                sent[seat].pop()
                continue
        try:
            referee.play(s, seat, sent_order, version)
        except Refused as exc:
            assert exc.status == 400 and sent_order.action is not None  # a gathered attack the rules refuse now
            continue
        sent[seat] += expected
    assert attacks, "no whole attack was given: the test proves nothing of them"
    again = referee_on(db).open(tokens["allied"])
    assert again is not None
    rebuilt = again[0].game
    assert rebuilt.notation() == s.game.notation() and rebuilt.state_hash() == s.game.state_hash()
    assert [who.value for who in rebuilt.deciders] == [who.value for who in s.game.deciders]


def test_against_the_computer_the_player_exports_his_orders_after_its_whole_attacks(tmp_path: Path) -> None:
    """The computer gives whole attacks (its suggestions): they are stored as their parts too."""
    db = tmp_path / "games.sqlite"
    referee = referee_on(db)
    stored = referee.create(referee.scenarios.get("gazala-gallop"), [], None, "computer", "human", "greedy")
    sent: list[str] = []
    rng = random.Random(5)
    for _ in range(ORDERS):
        opened = referee.open(stored.axis_token)
        assert opened is not None
        s = opened[0]
        with s.lock:
            data = export_of(s, "axis", None)
            assert data["orders"] == sent
            with pytest.raises(Refused):
                export_of(s, "axis", "allied")  # each side exports its own
            d = s.game.decision
            if d is None:
                break
            assert d.side is Side.AXIS
            sent_order = pick(referee, s, rng)
            expected = parts(s, sent_order)
            version = s.version
        try:
            referee.play(s, "axis", sent_order, version)
        except Refused:
            continue
        sent += expected
    allied = [a for a, who in zip(s.game.history, s.game.deciders, strict=True) if who is Side.ALLIED]
    assert any(a.verb == "declare" for a in allied), "the computer declared no attack: the test proves nothing of them"
    rebuilt = referee_on(db).open(stored.axis_token)
    assert rebuilt is not None and rebuilt[0].game.state_hash() == s.game.state_hash()
