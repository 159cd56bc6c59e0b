"""A rule-based opponent: it looks one order ahead with simple, explainable preferences.

It reads only the view, the legal orders, the attack outcome tables and the scenario's public data
(the map and its objectives).  Preferences:

* attacks whose expected result, counted in factors won and lost, is favourable (or, where an attack
  is compulsory, the least bad one), resolved as soon as declared;
* moves that bring its mobile units toward the objectives (the Axis: Tobruk, the Allied supply
  sources and dump; the Allies: the Axis units near their boxes) and into attack positions, without
  leaving supply range or over-stacking; infantry holds its boxes and forts;
* the other decisions: No Retreat! when it cannot cost a unit, the longest retreat as winner, the
  safest hex as loser, convoys and aerial resupply to the biggest units, interception always.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.actions import Action as Order
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario, load_scenario
from tobruk.mechanics.actions import (
    Abandon,
    Add,
    Airstrike,
    Attack,
    Cancel,
    Declare,
    Eliminate,
    EndPhase,
    EndRetreat,
    Intercept,
    Move,
    NoRetreat,
    Place,
    Resolve,
    Retreat,
    RetreatDistance,
    Target,
)
from tobruk.players.base import Advice

MOBILE = ("armour", "motorized", "recce")


_EXTRA: dict[str, Scenario] = {}


def know_scenario(scenario: Scenario) -> None:
    """Make a scenario that is not packaged (a file) known to the greedy player by its name."""
    _EXTRA[scenario.name] = scenario


@cache
def _scenario(name: str) -> Scenario:
    return _EXTRA[name] if name in _EXTRA else load_scenario(name)


@cache
def _net_distance(name: str, side: str) -> dict[Hex, int]:
    """Hexes from the nearest road or track hex connected to the side's sources (a supply-range guide)."""
    m: Map = _scenario(name).map
    net = m.road_net(m.supply_sources.get(Side(side), ()))
    dist = {h: 0 for h in net}
    todo = deque(net)
    while todo:
        h = todo.popleft()
        for n in m.neighbours(h):
            if n not in dist and m.is_land(n):
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist


class GreedyPlayer:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    # --- the decision ----------------------------------------------------------------------------
    def choose(self, seen: dict[str, Any], legal: list[Order], advice: Advice) -> Order:
        if len(legal) == 1 and not isinstance(legal[0], Target):  # (a target opens a choice of attacks)
            return legal[0]
        self._cache: dict[str, Any] = {"features": advice.features}
        by_kind: dict[type, list[Order]] = {}
        for o in legal:
            by_kind.setdefault(type(o), []).append(o)
        if Intercept in by_kind:
            return by_kind[Intercept][0]
        if Abandon in by_kind:  # an attack being made (it plays whole attacks, so only one it did not start)
            if Declare() in legal:
                return Declare()
            adds = by_kind.get(Add, [])
            return max(adds, key=lambda o: self._strength(seen, o.unit)) if adds else Abandon()  # type: ignore[attr-defined]
        first = advice.prefer(seen, legal, "first")
        if first is not None and not (by_kind.keys() & {RetreatDistance, NoRetreat, Retreat, EndRetreat, Eliminate}):
            return first
        if RetreatDistance in by_kind:
            return max(by_kind[RetreatDistance], key=lambda o: o.hexes)  # type: ignore[attr-defined]
        if NoRetreat in by_kind:
            return self._no_retreat(seen, by_kind[NoRetreat])
        if Retreat in by_kind or EndRetreat in by_kind:
            return self._retreat(seen, by_kind.get(Retreat, []), EndRetreat() in legal)
        if Eliminate in by_kind:
            return min(by_kind[Eliminate], key=lambda o: self._strength(seen, o.unit))  # type: ignore[attr-defined]
        if Airstrike in by_kind:
            return max(by_kind[Airstrike], key=lambda o: self._enemy_strength(seen, o.hex))  # type: ignore[attr-defined]
        phase = (seen.get("decision") or {}).get("phase", "")
        if phase in self._features().get("setup_steps", ()):
            return EndPhase() if EndPhase() in legal else legal[0]
        if Resolve in by_kind:
            return by_kind[Resolve][0]
        attacks = [a for a in advice.suggestions() if isinstance(a, Attack)] if Target in by_kind else []
        if attacks:
            best = self._best_attack(seen, attacks, advice, must=EndPhase() not in legal)
            if best is not None:
                return best
        if Cancel in by_kind and EndPhase() not in legal and not attacks:
            return by_kind[Cancel][0]
        before_moves = advice.prefer(seen, legal, "before-moves")
        if before_moves is not None:
            return before_moves
        if Place in by_kind and phase.endswith("movement"):
            return by_kind[Place][0]  # a reinforcement enters
        if Move in by_kind:
            move = self._best_move(seen, by_kind[Move])
            if move is not None:
                return move
        if EndPhase() in legal:
            return EndPhase()
        return self.rng.choice(legal)

    # --- helpers on the view ----------------------------------------------------------------------
    def _features(self) -> dict[str, Any]:
        features: dict[str, Any] = self._cache["features"]
        return features

    def _units(self, seen: dict[str, Any]) -> list[dict[str, Any]]:
        return [u for u in seen["units"] if u.get("hex") and not u.get("eliminated")]

    def _mine(self, seen: dict[str, Any]) -> dict[str, dict[str, Any]]:
        if "mine" not in self._cache:
            self._cache["mine"] = {u["id"]: u for u in self._units(seen) if u["side"] == seen["side"] and "id" in u}
        return self._cache["mine"]  # type: ignore[no-any-return]

    def _enemies(self, seen: dict[str, Any]) -> list[dict[str, Any]]:
        if "enemies" not in self._cache:
            self._cache["enemies"] = [u for u in self._units(seen) if u["side"] != seen["side"] and u.get("type") not in ("air", "dummy")]
        return self._cache["enemies"]  # type: ignore[no-any-return]

    def _hex(self, label: str) -> Hex:
        cache: dict[str, Hex] = self._cache.setdefault("hexes", {})
        if label not in cache:
            cache[label] = Hex.parse(label)
        return cache[label]

    def _strength(self, seen: dict[str, Any], uid: str) -> int:
        u = self._mine(seen).get(uid)
        return int(u["attack"]) + int(u["defence"]) if u else 0

    def _enemy_strength(self, seen: dict[str, Any], h: Hex) -> int:
        return sum(int(u.get("attack", 3)) for u in self._enemies(seen) if u["hex"] == h.label)

    # --- combat -------------------------------------------------------------------------------------
    def _value(self, seen: dict[str, Any], order: Attack, table: list[tuple[str, Fraction]]) -> float:
        values = self._features().get("result_values", {})
        defence = sum(int(u.get("defence", 3)) for u in self._enemies(seen) if Hex.parse(u["hex"]) in order.defenders)
        mine = self._mine(seen)
        attack = sum(int(mine[a]["attack"]) for a in order.attackers if a in mine)
        value = 0.0
        for label, p in table:
            code = label.split(" ")[0]
            gain, loss = values.get(code, (0.0, 0.0))
            value += float(p) * (gain * defence - loss * attack)
        if any(d.distance(g) <= 1 for d in order.defenders for g in self._guards(seen)):
            value += 10.0  # an enemy on or next to a hex that would win him the game
        return value

    def _best_attack(self, seen: dict[str, Any], attacks: Sequence[Order], outcomes: Advice, must: bool) -> Order | None:
        scored = []
        for o in attacks:
            assert isinstance(o, Attack)
            table = outcomes(o)
            scored.append((self._value(seen, o, table) if table else 0.5, len(o.attackers), o))
        if not scored:
            return None
        value, _, best = max(scored, key=lambda x: (x[0], -x[1]))
        return best if value > 0 or must else None

    def _no_retreat(self, seen: dict[str, Any], options: list[Order]) -> Order:
        return NoRetreat()  # R2 would become DE under the orders: not worth it blind

    def _retreat(self, seen: dict[str, Any], retreats: list[Order], can_end: bool) -> Order:
        if can_end:
            return EndRetreat()
        enemies = [Hex.parse(u["hex"]) for u in self._enemies(seen)]

        def safety(o: Order) -> tuple[int, int]:
            assert isinstance(o, Retreat)
            end = o.path[-1]
            nearest = min((end.distance(e) for e in enemies), default=9)
            return nearest, -len(o.path)

        return max(retreats, key=safety)

    # --- movement -----------------------------------------------------------------------------------
    def _objectives(self, seen: dict[str, Any]) -> list[Hex]:
        if "objectives" not in self._cache:
            self._cache["objectives"] = self._find_objectives(seen)
        return self._cache["objectives"]  # type: ignore[no-any-return]

    def _find_objectives(self, seen: dict[str, Any]) -> list[Hex]:
        objectives: list[Hex] = list(self._features().get("objectives", []))
        return objectives or [Hex.parse(u["hex"]) for u in self._enemies(seen)]

    def _guards(self, seen: dict[str, Any]) -> list[Hex]:
        """Hexes the enemy wins the game by standing on (to be kept held)."""
        return list(self._features().get("guards", []))

    def _score(self, seen: dict[str, Any], uid: str, h: Hex) -> float:
        mine = self._mine(seen)
        u = mine[uid]
        enemies = self._enemies(seen)
        targets = self._objectives(seen)
        score = 0.0
        for g in self._guards(seen):
            others = [x for x in mine.values() if x["id"] != uid and x["hex"] == g.label and x["type"] != "dummy"]
            if not others:
                score += 30.0 if h == g else -0.5 * h.distance(g) if u["type"] == "infantry" else 0.0
        if targets:
            score -= min(h.distance(t) for t in targets) * (1.0 if u["type"] in MOBILE else 0.2)
        supply_gap = _net_distance(seen["scenario"], seen["side"]).get(h, 20)
        if supply_gap > 6:
            score -= 3.0 * (supply_gap - 6)
        my_attack = int(u["attack"])
        for e in enemies:
            eh = self._hex(e["hex"])
            if eh.is_adjacent(h):
                defence = int(e.get("defence", 3))
                if e.get("disrupted") or my_attack >= 2 * defence:
                    score += 4.0  # an attack worth making from here
                else:
                    score -= 2.0 + defence / max(1, my_attack)  # would have to attack at poor odds
        units, most_divisions = self._features().get("stacking", (3, 2))
        stack = [x for x in mine.values() if x["hex"] == h.label and x["id"] != uid and x["type"] != "dummy"]
        divisions = sum(1 for x in stack if x["echelon"] == "division") + (u["echelon"] == "division")
        if len(stack) >= units or divisions > most_divisions:
            score -= 50.0  # over the stacking limit
        return score

    def _best_move(self, seen: dict[str, Any], moves: list[Order]) -> Order | None:
        mine = self._mine(seen)
        best: tuple[float, Order] | None = None
        for o in moves:
            assert isinstance(o, Move)
            u = mine.get(o.unit)
            if u is None or o.trucks:
                continue
            if u["type"] in self._features().get("holding_types", ()):
                continue  # it holds its ground (the Allied infantry its boxes)
            gain = self._score(seen, o.unit, o.path[-1]) - self._score(seen, o.unit, o.path[0])
            if gain > 0.5 and (best is None or gain > best[0]):
                best = (gain, o)
        return best[1] if best else None
