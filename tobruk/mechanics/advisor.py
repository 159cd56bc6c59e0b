"""The family's advice to a computer player (``System.advisor``): simple, explainable preferences, one order ahead.

It reads only what the side may know: its own units, the enemy's counters as the side sees them (a face-down counter
is "a unit" of unknown type, taken at 3 attack and 3 defence), the scenario's public data and the attack outcome
tables.  The systems of the family differ only through their hooks (:class:`FamilySystem`'s ``features``,
``prefer`` and ``suggestions``).  Its preferences, each stage of the decision asked in turn:

* an interception whenever one may be flown; in a declaration it did not start, its strongest attacker, then declare;
* the system's own choice among its own actions (``prefer``, stage ``first``) unless a battle asks something;
* the longest retreat as the winner, No Retreat! never (an R2 would become a DE), the loser's safest retreat (the
  hex farthest from the enemy, then the shortest route), its weakest unit over the stacking limit, an airstrike on
  the strongest enemy hex; the printed positions in a set-up;
* a declared attack resolved at once; attacks whose expected result, counted in factors won and lost (the system's
  ``result_values``), is favourable, or the least bad where one is compulsory; a compulsory attack it cannot make
  cancelled;
* the system's choice before the moves (``prefer``, stage ``before-moves``); a reinforcement entering;
* moves that bring its mobile units toward the objectives (or the enemy) and into attack positions, without leaving
  the reach of its supply net or over-stacking; the holding types (the Allied infantry) stay in their boxes;
* otherwise the end of the phase.

The value of a candidate is the side's expected gain by the stage's measure (an attack's factors won less lost, a
move's gain in position, a retreat's safety ...); candidates are listed in the order the rules list them, so that
a player taking the first of the best values takes what this advice always took.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.caching import FIXED, Cache
from tobruk.engine.sides import Side
from tobruk.engine.system import Advisor
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
from tobruk.mechanics.counters import family_defs, family_unit

if TYPE_CHECKING:
    from tobruk.engine.game import Game
    from tobruk.mechanics.family import FamilySystem

MOBILE = ("armour", "motorized", "recce")
FACE_DOWN_FACTOR = 3  # a face-down counter's attack and defence, as far as the advice guesses them
BATTLE_ASKS = (RetreatDistance, NoRetreat, Retreat, EndRetreat, Eliminate)  # decisions the system's "first" leaves alone


@dataclass(frozen=True, slots=True)
class Counter:
    """A counter on the map as the side sees it: ``id`` ``None`` for a face-down enemy counter (its type unknown, its
    factors guessed); ``disrupted`` as shown."""

    id: str | None
    hex: Hex
    type: str | None
    attack: int
    defence: int
    echelon: str | None
    disrupted: bool


@dataclass(frozen=True, slots=True)
class Sight:
    """What the side sees that the advice reads: its own units on the map (by id, in order of battle) and the enemy's
    ground counters on the map (its units face up, in order of battle, then the face-down counters by hex and
    anonymous id), as the side's view lists them."""

    side: Side
    mine: dict[str, Counter]
    enemies: list[Counter]


def sight_of(game: Game, side: Side) -> Sight:
    """The side's :class:`Sight`: its own units from the game, the enemy's as the system shows them to the side
    (:meth:`~tobruk.engine.system.System.seen_units`: a counter it cannot follow stands where it last saw it)."""
    defs = family_defs(game)
    mine: dict[str, Counter] = {}
    for uid in game.units_of(side):
        u = family_unit(game, uid)
        if u.hex is not None and not u.eliminated:
            d = defs[uid]
            mine[uid] = Counter(uid, u.hex, d.type.value, d.attack, d.defence, d.echelon.value, u.disrupted)
    face_up: list[Counter] = []
    face_down: list[tuple[Hex, str]] = []
    for uid, (h, hidden, eliminated, anon) in game.system.seen_units(game, side.enemy).items():
        d = defs[uid]
        if hidden:
            if h is not None and not eliminated and anon is not None:
                face_down.append((h, anon))
            continue
        if d.is_dummy or h is None or eliminated or d.is_air:
            continue  # a revealed dummy is gone; air units and units off the map are not in the way
        face_up.append(Counter(uid, h, d.type.value, d.attack, d.defence, d.echelon.value, family_unit(game, uid).disrupted))
    unseen = [Counter(None, h, None, FACE_DOWN_FACTOR, FACE_DOWN_FACTOR, None, False) for h, _ in sorted(face_down)]
    return Sight(side, mine, face_up + unseen)


class FamilyAdvisor(Advisor):
    """The family's advice to ``side`` on the game's current decision (see the module's text)."""

    def __init__(self, game: Game, side: Side, system: FamilySystem) -> None:
        self.game, self.side, self.system = game, side, system
        self._sight: Sight | None = None
        self._features: dict[str, Any] | None = None
        self._values: dict[Action, float] = {}

    # --- what the side sees ---------------------------------------------------------------------------------
    @property
    def sight(self) -> Sight:
        if self._sight is None:
            self._sight = sight_of(self.game, self.side)
        return self._sight

    @property
    def features(self) -> dict[str, Any]:
        if self._features is None:
            self._features = self.system.features(self.game, self.side)
        return self._features

    # --- the hooks ----------------------------------------------------------------------------------------------
    def value(self, action: Action) -> float | None:
        """The value the candidates gave ``action``; for another attack or move, its expected gain; else none."""
        if action in self._values:
            return self._values[action]
        if isinstance(action, Attack):
            table = self.system.outcomes(self.game, action, self.side)
            return self.attack_value(action, table) if table else None
        if isinstance(action, Move) and action.unit in self.sight.mine and len(action.path) > 1:
            return self.position(action.unit, action.path[-1]) - self.position(action.unit, action.path[0])
        return None

    def candidates(self) -> Sequence[Action]:
        legal = self.game.legal_orders()
        if len(legal) == 1 and not isinstance(legal[0], Target):  # (a target opens a choice of attacks)
            return self._valued([(legal[0], 0.0)])
        kinds: dict[type, list[Action]] = {}
        for o in legal:
            kinds.setdefault(type(o), []).append(o)
        if Intercept in kinds:
            return self._valued([(kinds[Intercept][0], 0.0)])
        if Abandon in kinds:  # an attack being made that it did not start (it makes whole attacks)
            if Declare() in legal:
                return self._valued([(Declare(), 0.0)])
            adds = kinds.get(Add, [])
            if adds:
                return self._valued([(a, float(self.strength(a.unit))) for a in adds if isinstance(a, Add)])
            return self._valued([(Abandon(), 0.0)])
        if not kinds.keys() & set(BATTLE_ASKS):
            first = self.system.prefer(self.game, self.sight, legal, "first")
            if first is not None:
                return self._valued([(first, 0.0)])
        return self._battle(kinds, legal) or self._phase(kinds, legal)

    def _valued(self, scored: Sequence[tuple[Action, float]]) -> list[Action]:
        for a, v in scored:
            self._values[a] = v
        return [a for a, _ in scored]

    def _battle(self, kinds: dict[type, list[Action]], legal: list[Action]) -> list[Action]:
        """The decisions a battle, the stacking limit or an air mission asks."""
        if RetreatDistance in kinds:
            return self._valued([(a, float(a.hexes)) for a in kinds[RetreatDistance] if isinstance(a, RetreatDistance)])
        if NoRetreat in kinds:
            return self._valued([(NoRetreat(), 0.0)])  # R2 would become DE under the orders: not worth it blind
        if Retreat in kinds or EndRetreat in kinds:
            if EndRetreat() in legal:
                return self._valued([(EndRetreat(), 0.0)])
            return self._valued([(a, self.safety(a)) for a in kinds.get(Retreat, []) if isinstance(a, Retreat)])
        if Eliminate in kinds:
            return self._valued([(a, -float(self.strength(a.unit))) for a in kinds[Eliminate] if isinstance(a, Eliminate)])
        if Airstrike in kinds:
            return self._valued([(a, float(self.enemy_strength(a.hex))) for a in kinds[Airstrike] if isinstance(a, Airstrike)])
        return []

    def _phase(self, kinds: dict[type, list[Action]], legal: list[Action]) -> list[Action]:
        """The phasing player's choices: set-up, attacks, the system's own, moves, the end of the phase."""
        d = self.game.decision
        phase = d.phase if d is not None else ""
        ends = EndPhase() in legal
        if phase in self.features.get("setup_steps", ()):
            return self._valued([(EndPhase() if ends else legal[0], 0.0)])
        if Resolve in kinds:
            return self._valued([(kinds[Resolve][0], 0.0)])
        attacks = [a for a in self.system.suggestions(self.game, self.side) if isinstance(a, Attack)] if Target in kinds else []
        if attacks:
            best = self._attacks(attacks, must=not ends)
            if best:
                return best
        if Cancel in kinds and not ends and not attacks:
            return self._valued([(kinds[Cancel][0], 0.0)])
        before_moves = self.system.prefer(self.game, self.sight, legal, "before-moves")
        if before_moves is not None:
            return self._valued([(before_moves, 0.0)])
        if Place in kinds and phase.endswith("movement"):
            return self._valued([(kinds[Place][0], 0.0)])  # a reinforcement enters
        moves = self._moves(kinds.get(Move, []))
        if moves:
            return moves
        return self._valued([(EndPhase(), 0.0)]) if ends else []

    # --- combat ---------------------------------------------------------------------------------------------------
    def strength(self, uid: str) -> int:
        u = self.sight.mine.get(uid)
        return u.attack + u.defence if u else 0

    def enemy_strength(self, h: Hex) -> int:
        return sum(e.attack for e in self.sight.enemies if e.hex == h)

    def attack_value(self, attack: Attack, table: list[tuple[str, Fraction]]) -> float:
        """The expected result in factors: the share of the defence each result wins, less the share of the attack
        it loses, by the system's ``result_values``; 10 more against an enemy on or next to a hex that wins him
        the game."""
        values = self.features.get("result_values", {})
        defence = sum(e.defence for e in self.sight.enemies if e.hex in attack.defenders)
        mine = self.sight.mine
        strength = sum(mine[a].attack for a in attack.attackers if a in mine)
        value = 0.0
        for label, p in table:
            gain, loss = values.get(label.split(" ")[0], (0.0, 0.0))
            value += float(p) * (gain * defence - loss * strength)
        if any(d.distance(g) <= 1 for d in attack.defenders for g in self.guards()):
            value += 10.0
        return value

    def _attacks(self, attacks: list[Attack], must: bool) -> list[Action]:
        """The attacks worth making, fewer attackers first among equals (an unknown table is worth 0.5): none when
        the best is worth nothing and no attack is compulsory."""
        scored = []
        for a in sorted(attacks, key=lambda a: len(a.attackers)):  # (stable: the rules' order among equals)
            table = self.system.outcomes(self.game, a, self.side)
            scored.append((a, self.attack_value(a, table) if table else 0.5))
        best = max(v for _, v in scored)
        return self._valued(list(scored)) if best > 0 or must else []

    def safety(self, retreat: Retreat) -> float:
        """A loser's retreat: the farther its end from the nearest enemy counter the better, then the shorter."""
        end = retreat.path[-1]
        nearest = min((end.distance(e.hex) for e in self.sight.enemies), default=9)
        return float(nearest * 10_000 - len(retreat.path))

    # --- movement -----------------------------------------------------------------------------------------------
    def objectives(self) -> list[Hex]:
        objectives: list[Hex] = list(self.features.get("objectives", []))
        return objectives or [e.hex for e in self.sight.enemies]

    def guards(self) -> list[Hex]:
        """Hexes the enemy wins the game by standing on (to be kept held)."""
        return list(self.features.get("guards", []))

    def net_distance(self) -> dict[Hex, int]:
        """Hexes from the nearest road or track hex connected to the side's sources (a supply-range guide), once per
        game and side."""
        m = self.game.scenario.map

        def work() -> dict[Hex, int]:
            net = m.road_net(m.supply_sources.get(self.side, ()))
            dist = {h: 0 for h in net}
            todo = deque(net)
            while todo:
                h = todo.popleft()
                for n in m.neighbours(h):
                    if n not in dist and m.is_land(n):
                        dist[n] = dist[h] + 1
                        todo.append(n)
            return dist

        return _NET_DISTANCE.get(self.game, self.side, work)

    def position(self, uid: str, h: Hex) -> float:
        """How good ``h`` is for ``uid``: guards held, near the objectives, within reach of supply, next to enemies
        it attacks at good odds, not over the stacking limit."""
        mine = self.sight.mine
        u = mine[uid]
        score = 0.0
        for g in self.guards():
            others = [x for x in mine.values() if x.id != uid and x.hex == g and x.type != "dummy"]
            if not others:
                score += 30.0 if h == g else -0.5 * h.distance(g) if u.type == "infantry" else 0.0
        targets = self.objectives()
        if targets:
            score -= min(h.distance(t) for t in targets) * (1.0 if u.type in MOBILE else 0.2)
        supply_gap = self.net_distance().get(h, 20)
        if supply_gap > 6:
            score -= 3.0 * (supply_gap - 6)
        for e in self.sight.enemies:
            if e.hex.is_adjacent(h):
                if e.disrupted or u.attack >= 2 * e.defence:
                    score += 4.0  # an attack worth making from here
                else:
                    score -= 2.0 + e.defence / max(1, u.attack)  # would have to attack at poor odds
        units, most_divisions = self.features.get("stacking", (3, 2))
        stack = [x for x in mine.values() if x.hex == h and x.id != uid and x.type != "dummy"]
        divisions = sum(1 for x in stack if x.echelon == "division") + (u.echelon == "division")
        if len(stack) >= units or divisions > most_divisions:
            score -= 50.0  # over the stacking limit
        return score

    def _moves(self, moves: list[Action]) -> list[Action]:
        """The moves that gain more than half a point of position, by their gain (trucks and holding types aside)."""
        mine = self.sight.mine
        scored = []
        for o in moves:
            assert isinstance(o, Move)
            u = mine.get(o.unit)
            if u is None or o.trucks or u.type in self.features.get("holding_types", ()):
                continue  # (a holding type holds its ground: the Allied infantry its boxes)
            gain = self.position(o.unit, o.path[-1]) - self.position(o.unit, o.path[0])
            if gain > 0.5:
                scored.append((o, gain))
        return self._valued(scored)


_NET_DISTANCE: Cache[dict[Hex, int]] = Cache("advice.net-distance", FIXED)  # the map's roads and sources only
