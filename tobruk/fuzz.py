"""Random games with every invariant checked after every order (``tobruk fuzz``).

A failing game is saved as a record that reproduces it.  The invariants: no hex holds both sides;
a side is within the stacking limit whenever one of its set-up, movement or attack phases has ended (GG-XII.B
lets a stack be over the limit until the end of its owner's movement or attack phase: a retreat in the
enemy's attack phase may crowd a hex until then, ruling R-STACK); a unit moves and attacks at
most once a game-turn; no move spends more MF than the unit has; no disrupted unit attacks; every retreat
moves away from the hex it leaves, into no enemy unit and not next to the hexes of the attack unless into a
friendly box (GG-XIV.D.2 a, b, e); truck convoys, counted by the fuzzer itself, stay within a side's limit per
game-turn (4 Axis, 6 Allied: GG-XV.A.4) and agree with the engine's count; the supply
markers agree with the last supply determination; looking at a view changes nothing; a side's view
holds nothing of the other side's face-down units (no id or name in the view, the legal orders or the log
lines written while they are face down; every face-down counter shown with the same fields and a
well-formed anonymous id, listed last by hex and id; an anonymous id never stands for two counters and
never comes back once gone); undo restores the exact position; and a decision always has a legal order.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tobruk.game import Game
from tobruk.hexes import Hex
from tobruk.orders import Attack, Convoy, Move, Order, Resolve, Retreat, format_order
from tobruk.players.base import outcomes_for
from tobruk.players.simple import RandomPlayer
from tobruk.record import record_of, save
from tobruk.scenario import Scenario, load_scenario
from tobruk.sides import Side
from tobruk.systems import Phase
from tobruk.view import view

_SPACES = str.maketrans(",:", "  ")  # the separators inside an order's notation, for splitting it into words


class InvariantError(AssertionError):
    """A rule the engine must never break was broken."""


@dataclass
class FuzzResult:
    seed: int
    orders: int
    turn: int
    failure: str | None = None
    record: Path | None = None


def check_position(game: Game) -> None:
    sides_in: dict[object, set[Side]] = {}
    for uid, u in game.state.units.items():
        if u.hex is not None and not u.eliminated:
            sides_in.setdefault(u.hex, set()).add(game.defs[uid].side)
    for h, sides in sides_in.items():
        if len(sides) > 1:
            raise InvariantError(f"both sides in {h}")


STACKING_CHECKED_AFTER = ("setup", "movement", "attacks")  # the phases at whose end GG-XII.A/B must hold


def check_stacking_after(game: Game, before: Phase) -> None:
    """Once a side's set-up, movement or attack phase has ended, none of its hexes is over the limit."""
    from tobruk.systems import gazala_moves as mv

    if game.scenario.system != "gazala-gallop" or before.side is None:
        return
    if not before.key.endswith(STACKING_CHECKED_AFTER) or game.phase.key == before.key or game.is_over:
        return  # (a game that ends, by sudden victory or after the last phase, needs no more stacking)
    crowded = mv.overstacked(game, before.side)
    if crowded:
        raise InvariantError(f"{before.side.display} over the stacking limit in {sorted(crowded)[0]} after {before.key}")


ANON = re.compile(r"[0-9a-f]{12}")


@dataclass
class FogWatch:
    """What the fuzzer remembers across one game about the anonymous ids and the log each side was shown."""

    owners: dict[str, str]  # anonymous id -> the counter it stood for
    gone: set[str]  # ids shown once and no longer shown
    shown: dict[Side, set[str]]
    log_seen: dict[Side, int]

    @classmethod
    def new(cls) -> FogWatch:
        return cls({}, set(), {s: set() for s in Side}, {s: 0 for s in Side})


def check_face_down(game: Game, side: Side, seen: dict[str, object], watch: FogWatch | None) -> None:
    """The enemy's face-down counters in ``side``'s view: nothing that tells one from another."""
    from tobruk.systems import gazala_hidden as hd

    units = seen["units"]
    assert isinstance(units, list)
    face_down = [u for u in units if u.get("hidden") and u.get("side") != side.value]
    if units[len(units) - len(face_down):] != face_down:
        raise InvariantError(f"the {side.display} view lists face-down counters among the other units")
    for entry in face_down:
        if set(entry) != {"side", "hex", "hidden", "anon"} or not ANON.fullmatch(str(entry["anon"])):
            raise InvariantError(f"the {side.display} view shows a face-down counter with other fields: {entry}")
    keys = [(Hex.parse(e["hex"]), e["anon"]) for e in face_down]
    if keys != sorted(keys) or len({a for _, a in keys}) != len(keys):
        raise InvariantError(f"the {side.display} view's face-down counters are not in (hex, id) order, or repeat an id")
    truth: dict[str, str] = {}
    for uid in game.units_of(side.enemy):
        h, hidden, eliminated, anon = hd.as_seen_by_enemy(game, uid)
        if hidden and h is not None and not eliminated and anon is not None:
            if uid not in game.state.data.get("anon", {}) and game.state.data.get("unseen", {}).get(uid) is None:
                raise InvariantError(f"{uid} is face down without an anonymous id")
            truth[anon] = uid
    if set(truth) != {a for _, a in keys}:
        raise InvariantError(f"the {side.display} view's anonymous ids are not those of the face-down counters")
    if watch is None:
        return
    for anon, uid in truth.items():
        if watch.owners.setdefault(anon, uid) != uid:
            raise InvariantError(f"the anonymous id {anon} stood for {watch.owners[anon]} and now for {uid}")
        if anon in watch.gone:
            raise InvariantError(f"the anonymous id {anon} ({uid}) came back after it was gone")
    watch.gone |= watch.shown[side] - set(truth)
    watch.shown[side] = set(truth)


def check_views(game: Game, watch: FogWatch | None = None) -> tuple[str, dict[Side, dict[str, object]]]:
    """Check both views; return the position's hash (unchanged by looking) and the views."""
    from tobruk.systems import gazala_hidden as hd

    before = game.state_hash()
    views = {}
    for side in Side:
        seen = views[side] = view(game, side)
        text = json.dumps({k: v for k, v in seen.items() if k not in ("log", "legal_orders")})
        words = set(" ".join(seen["legal_orders"]).translate(_SPACES).split())
        log = seen["log"]
        assert isinstance(log, list)
        # the log may name a unit from before it was turned face down: only the lines written since the last
        # look (while it was face down) are read
        new_lines = " ".join(log[watch.log_seen[side]:]) if watch is not None else ""
        new_words = set(new_lines.translate(str.maketrans(",:.;()", "      ")).split())
        for uid in game.units_of(side.enemy):
            d = game.defs[uid]
            _, hidden, eliminated, _ = hd.as_seen_by_enemy(game, uid)
            if hidden and not eliminated and (f'"{uid}"' in text or f'"{d.name}"' in text or uid in words
                                              or uid in new_words):
                raise InvariantError(f"the {side.display} view shows the face-down {uid}")
        check_face_down(game, side, seen, watch)
        if watch is not None:
            watch.log_seen[side] = len(log)
    if game.state_hash() != before:
        raise InvariantError("looking at a view changed the game")
    return before, views


@dataclass
class Counts:
    """What the fuzzer counts for itself over one game, to hold the engine to the rules' limits."""

    moved: dict[int, set[str]] = field(default_factory=dict)  # game-turn -> units that moved
    attacked: dict[int, set[str]] = field(default_factory=dict)  # game-turn -> units that attacked
    convoys: dict[tuple[int, Side], int] = field(default_factory=dict)  # (game-turn, side) -> convoys used


CONVOY_LIMIT = {Side.AXIS: 4, Side.ALLIED: 6}  # GG-XV.A.4: truck convoys per side and game-turn


def check_order(game: Game, order: Order, counts: Counts) -> None:
    """Checks made just before an order is played."""
    d = game.decision
    assert d is not None
    if isinstance(order, Retreat):
        check_retreat(game, order)
    if isinstance(order, Move):
        from tobruk.rules.movement import walk
        from tobruk.systems import gazala_moves as mv

        if order.unit in counts.moved.setdefault(game.turn, set()):
            raise InvariantError(f"{order.unit} moves twice in turn {game.turn}")
        if len(order.path) > 1:
            ctx = mv.move_context(game, order.unit, order.trucks)
            route = walk(ctx, order.path)
            if route.spent > ctx.budget + ctx.bonus:
                raise InvariantError(f"{format_order(order)} spends {route.spent} of {ctx.budget + ctx.bonus}")
    if isinstance(order, Attack):
        for uid in order.attackers:
            if game.unit(uid).disrupted:
                raise InvariantError(f"disrupted {uid} attacks")
            if uid in counts.attacked.setdefault(game.turn, set()):
                raise InvariantError(f"{uid} attacks twice in turn {game.turn}")


def check_retreat(game: Game, order: Retreat) -> None:
    """GG-XIV.D.2 a, b, e: each hex of a retreat farther from the hex it leaves, with no enemy unit in it, and not
    next to the hexes the unit was attacked from (on an AR: was attacking) unless it holds a friendly box."""
    combat = game.state.data.get("combat") or {}
    group = next((g for g in combat.get("groups", []) if not g["units"].get(order.unit, {"done": True})["done"]), None)
    if group is None:
        raise InvariantError(f"{order.unit} retreats outside a battle's retreats")
    side, origin = game.defs[order.unit].side, game.unit(order.unit).hex
    attack_hexes = [Hex.parse(h) for h in group["from"]]
    gone = set(game.state.data.get("boxes_eliminated", []))
    boxes = {h for h, s in game.scenario.map.fortifications.items() if s is side and h.label not in gone}
    if origin is None or order.path[0] != origin:
        raise InvariantError(f"{order.unit}'s retreat does not start where it stands, {origin}")
    for here, there in itertools.pairwise(order.path):
        if origin.distance(there) <= origin.distance(here):
            raise InvariantError(f"{order.unit} retreats {here}-{there}, not away from {origin}")
        if game.units_at(there, side.enemy):
            raise InvariantError(f"{order.unit} retreats into {there}, which holds enemy units")
        if any(there.is_adjacent(a) for a in attack_hexes) and there not in boxes:
            raise InvariantError(f"{order.unit} retreats into {there}, next to the attack's hexes")


def count_convoys(game: Game, order: Order, counts: Counts, turn: int) -> None:
    """Count the convoys an order used (one per convoy sent, one per attack factor carried) and hold the engine to
    the limit and to the same count."""
    if isinstance(order, (Convoy, Move)) and (isinstance(order, Convoy) or order.trucks):
        side = game.defs[order.unit].side
        used = 1 if isinstance(order, Convoy) else game.defs[order.unit].attack
        counts.convoys[turn, side] = counts.convoys.get((turn, side), 0) + used
    for side in Side:
        mine = counts.convoys.get((game.turn, side), 0)
        if mine > CONVOY_LIMIT[side]:
            raise InvariantError(f"{side.display} used {mine} truck convoys in turn {game.turn}, "
                                 f"more than {CONVOY_LIMIT[side]}")
        engine = game.state.data.get("convoys_used", {}).get(side.value, 0)
        if game.scenario.system == "gazala-gallop" and engine != mine:
            raise InvariantError(f"{side.display}: the game counts {engine} truck convoys in turn {game.turn}, "
                                 f"the orders played {mine}")


def after_order(game: Game, order: Order, counts: Counts, turn: int | None = None) -> None:
    """Checks made just after an order is played (``turn``: the game-turn it was played in)."""
    if isinstance(order, Move):
        counts.moved.setdefault(game.turn, set()).add(order.unit)
    if isinstance(order, Resolve):
        entry = next((a for a in game.state.data.get("attacks", []) if a["id"] == order.attack), None)
        if entry is not None:
            counts.attacked.setdefault(game.turn, set()).update(entry["attackers"])
    count_convoys(game, order, counts, game.turn if turn is None else turn)
    supply = game.state.data.get("supply", {})
    if game.phase.key.endswith("recovery"):
        return
    for side_name, entries in supply.items():
        for uid, e in entries.items():
            u = game.unit(uid)
            if not u.eliminated and u.hex is not None and e["hex"] == u.hex.label and u.out_of_supply == e["supplied"]:
                raise InvariantError(f"{uid}'s supply marker disagrees with the {side_name} determination")


def check_undo(game: Game, order: Order, before: str) -> None:
    if not game.can_undo():
        return
    after = game.state_hash()
    undone = game.pop()
    if undone != order or game.state_hash() != before:
        raise InvariantError(f"undo of {format_order(order)} did not restore the position")
    game.play(order)
    if game.state_hash() != after:
        raise InvariantError(f"replaying {format_order(order)} after undo gave another position")


def fuzz_game(scenario: Scenario, seed: int, *, options: tuple[str, ...] = (), save_to: Path | None = None,
              max_orders: int = 100_000) -> FuzzResult:
    game = Game(scenario, seed=seed, options=options)
    players = {Side.AXIS: RandomPlayer(seed * 2 + 1), Side.ALLIED: RandomPlayer(seed * 2 + 2)}
    counts = Counts()
    watch = FogWatch.new()
    try:
        for _ in range(max_orders):
            decision = game.decision
            if decision is None:
                break
            legal = game.legal_orders()
            if not legal:
                raise InvariantError(f"dead end: no legal order at {decision}")
            check_position(game)
            before, views = check_views(game, watch)
            order = players[decision.side].choose(views[decision.side], legal, outcomes_for(game, decision.side))
            check_order(game, order, counts)
            phase, turn = game.phase, game.turn
            game.play(order)
            check_undo(game, order, before)
            after_order(game, order, counts, turn)
            check_stacking_after(game, phase)
        else:
            raise InvariantError(f"no end after {max_orders} orders")
    except Exception as exc:  # a failure of any kind is kept as a record that reproduces it
        path = None
        if save_to is not None:
            save_to.mkdir(parents=True, exist_ok=True)
            path = save_to / f"fuzz-{scenario.name}-{seed}.json"
            save(record_of(game, {"axis": "random", "allied": "random"}), path)
        return FuzzResult(seed, len(game.history), game.turn, f"{type(exc).__name__}: {exc}", path)
    return FuzzResult(seed, len(game.history), game.turn)


@functools.cache
def _scenario(name: str) -> Scenario:
    return load_scenario(name)  # once per worker process


def _one(task: tuple[str, int, tuple[str, ...], Path | None]) -> FuzzResult:
    name, seed, options, save_to = task
    return fuzz_game(_scenario(name), seed, options=options, save_to=save_to)


def fuzz_many(scenario: str, seeds: range, *, options: tuple[str, ...] = (), save_to: Path | None = None,
              jobs: int = 1) -> Iterator[FuzzResult]:
    """Fuzz one game per seed, in seed order, over ``jobs`` local processes; failures come back as results."""
    tasks = [(scenario, seed, options, save_to) for seed in seeds]
    if jobs <= 1:
        yield from map(_one, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_one, tasks, chunksize=4)
