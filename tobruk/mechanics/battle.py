"""Ground combat as the family plays it: declared attacks, then each battle as a series of decisions.

target -> add attackers (and defending hexes) -> declare -> (cancel) -> resolve -> the defender's No
Retreat! orders, unit by unit, and his answer -> the die -> the results -> the winner's retreat distance
-> the loser's retreat routes (and voluntary retreats) -> done.  A declaration being made is a
:class:`Declaring` frame; each choice in it is small (a hex, a unit), so every action has its id.

The declared attacks live in the system's variables (a :class:`BattleVars` part); a battle under way is a
:class:`Battle` frame on the decision stack, which asks the defender for No Retreat! orders, the winner for
the distance and the loser for the routes, each in turn, and is popped when every retreat is done.  What
the results are and what they do is the system's: it gives the mechanics a :class:`BattleRules` (as
``system.battle``) with the retreat limits of each result code as data and a few hooks (the odds, the die and
its effects, the legal routes, what happens to a unit that cannot retreat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.chance import Chance, Outcome
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import (
    Abandon,
    Add,
    Attack,
    Declare,
    EndRetreat,
    Hold,
    NoRetreat,
    Retreat,
    RetreatDistance,
    Target,
)
from tobruk.mechanics.counters import family_unit
from tobruk.mechanics.retreat_groups import Loser, RetreatGroup, bound, distance_prompt, distance_words, extra, group, need

if TYPE_CHECKING:
    from tobruk.engine.game import Game

Path = tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class DeclaredAttack:
    """An attack declared this phase: its number, the declaration, and whether it is over."""

    id: int
    order: Attack
    resolved: bool = False

    @property
    def attackers(self) -> tuple[str, ...]:
        return self.order.attackers


@dataclass(frozen=True, slots=True)
class Effect:
    """What a result does to one unit: its result code (after the system's conversions), and whether a box
    or fort makes its retreat compulsory (the whole distance, the winner has no say)."""

    code: str
    compulsory: bool = False


@dataclass
class BattleVars:
    """The part of a system's variables the battle mechanics use (a system's Vars inherits it)."""

    attacks: tuple[DeclaredAttack, ...] = ()
    attacked_units: tuple[str, ...] = ()  # enemy units attacked this phase
    closing_retreats: str | None = None  # the attack phase whose end-of-phase retreats have been started (if a system needs it)


battle_vars = cast("Callable[[Game], BattleVars]", attrgetter("state.vars"))  # a family game's variables, typed


@dataclass(frozen=True)
class BattleRules:
    """What a system tells the battle mechanics: result codes' retreats as data, clause ids, and hooks.

    ``winner_retreats``: the most hexes the winner may make a unit with this result retreat (the loser must
    retreat that far, the winner choosing 0 up to it); ``voluntary``: hexes the loser may add on his own;
    ``retreating``: the codes that put a unit into a retreat group; ``full_retreat``: the codes whose unit is
    unable to retreat (:meth:`unable`) when it cannot retreat this many hexes, whatever distance the winner
    names (a unit under No Retreat! orders excepted).
    """

    winner_retreats: Mapping[str, int]
    voluntary: Mapping[str, int]
    retreating: frozenset[str]
    clauses: Mapping[str, str] = field(default_factory=dict)  # resolve, no-retreat, retreat, route, minimum
    full_retreat: Mapping[str, int] = field(default_factory=dict)
    no_retreat_means: str = ""  # what No Retreat! orders do to the results, in words with the clause ("R1 becomes D ...")
    closing_why: str = ""  # why units retreat at the end of their attack phase, in words with the clause

    def clause(self, key: str) -> str:
        return self.clauses[key]

    # --- hooks ------------------------------------------------------------------------------------------
    def able(self, game: Game, side: Side) -> dict[Hex, list[str]]:
        """The side's units that may still attack this phase, by hex."""
        raise NotImplementedError

    def check(self, game: Game, order: Attack, side: Side) -> None:
        """Raise :class:`IllegalOrderError` (naming the clause) unless ``order`` may be declared now."""
        raise NotImplementedError

    def may_combine(self, game: Game, hexes: frozenset[Hex]) -> bool:
        """Whether units standing in ``hexes`` may attack together now (a sandstorm lets only one hex's units
        combine, GG-VIII.A.3).  An attack being gathered then offers only the units that keep it so: one that would
        not is refused as it joins, with the clause :meth:`check` names, rather than when the attack is declared, so
        a face shows at once which units may still join."""
        return True

    def odds_label(self, game: Game, order: Attack, side: Side, declared: int | None = None) -> str:
        """The odds as the declaring side may read them (the column, or "odds unknown")."""
        raise NotImplementedError

    def allowed(self, game: Game, order: Attack, side: Side, declared: int | None = None) -> bool:
        """Whether the odds are on the table (at or above its lowest column)."""
        raise NotImplementedError

    def before_battle(self, game: Game, n: int, side: Side) -> Attack | None:
        """Anything that happens when the attacker resolves attack ``n`` before the defender answers (face-down
        defenders turn up); the attack to fight, or ``None`` when it is called off."""
        return find(game, n).order

    def declared(self, game: Game, order: Attack, side: Side) -> None:
        """What a declaration does at once, before it is recorded (attackers turning face up ...)."""

    def no_retreat_options(self, game: Game, order: Attack, side: Side, n: int) -> list[tuple[str, ...]]:
        """The sets of defending units that may be given No Retreat! orders (the empty set first)."""
        return [()]

    def hold_words(self, game: Game, order: Attack, side: Side, n: int, unit: str) -> str:
        """What No Retreat! orders for the defending ``unit`` mean in attack ``n`` (by ``side``), in words for the
        defender's button: by default the rule's conversions (:attr:`no_retreat_means`); a system may add what they
        do at the attack's odds."""
        return f"Give {unit} No Retreat! orders: {self.no_retreat_means}"

    def ask_no_retreat(self, game: Game, order: Attack, side: Side, n: int) -> bool:
        """Whether the defender is asked (only where some result would make a defender retreat)."""
        return False

    def combat_die(self, game: Game, order: Attack, side: Side, n: int | None) -> tuple[Outcome, ...]:
        """The battle's die for attack ``order`` (declared as number ``n``, or ``None`` before it is): each face with its
        probability and the result it gives (what the odds' outcome table groups, so the table and the roll read one
        distribution); refused (:class:`IllegalOrderError`) for an attack the rules do not allow."""
        raise NotImplementedError

    def combat_purpose(self, game: Game, order: Attack, side: Side, n: int) -> str:
        """What the battle's roll is, as the dice list names it ("combat, attack 2 at 3:1")."""
        return f"combat, attack {n} at {self.odds_label(game, order, side, n)}"

    def fight(
        self, game: Game, n: int, order: Attack, side: Side, no_retreat: tuple[str, ...], die: int
    ) -> tuple[dict[str, Effect], tuple[Hex, ...], tuple[Hex, ...]]:
        """Carry out the results the die gives (eliminations, status, logs); the effect on each unit, the attackers'
        hexes and the defending hexes (what each side retreats away from)."""
        raise NotImplementedError

    def routes(self, game: Game, uid: str, length: int, origin: Sequence[Hex]) -> list[Path]:
        """The legal retreat routes of exactly ``length`` hexes for a unit, away from ``origin``."""
        raise NotImplementedError

    def can_retreat(self, game: Game, uid: str, length: int, origin: Sequence[Hex]) -> bool:
        """Whether a unit could retreat ``length`` hexes away from ``origin`` now."""
        return bool(self.routes(game, uid, length, origin))

    def unable(self, game: Game, loser: Loser) -> None:
        """A unit that must retreat and cannot (eliminated, or it stays as the result allows)."""
        raise NotImplementedError

    def retreated(self, game: Game, uid: str, path: Path) -> None:
        """After a unit's retreat along ``path`` (control of places it passed through ...)."""

    def over(self, game: Game, battle: Battle) -> None:
        """The battle is over (a battle that ends the attack phase closes it here)."""


def rules(game: Game) -> BattleRules:
    battle = getattr(game.system, "battle", None)
    if not isinstance(battle, BattleRules):
        raise TypeError(f"{game.system.name} has no battle rules")
    return battle


# --- the declared attacks ---------------------------------------------------------------------------------
def pending(game: Game) -> list[DeclaredAttack]:
    return [a for a in battle_vars(game).attacks if not a.resolved]


def find(game: Game, n: int) -> DeclaredAttack:
    attacks: tuple[DeclaredAttack, ...] = battle_vars(game).attacks
    for a in attacks:
        if a.id == n and not a.resolved:
            return a
    raise IllegalOrderError(rules(game).clause("resolve"), f"there is no declared, unresolved attack number {n}")


def update(game: Game, n: int, **changes: Any) -> None:
    battle_vars(game).attacks = tuple(replace(a, **changes) if a.id == n else a for a in battle_vars(game).attacks)


def declare(game: Game, order: Attack, side: Side) -> int:
    """Record a declaration the system has checked."""
    n = 1 + max((x.id for x in battle_vars(game).attacks), default=0)
    odds = rules(game).odds_label(game, order, side)
    battle_vars(game).attacks = (*battle_vars(game).attacks, DeclaredAttack(n, order))
    game.log(f"{side.display} declares attack {n}: {order.notation()} ({odds}).")
    return n


def cancel(game: Game, n: int) -> None:
    find(game, n)
    battle_vars(game).attacks = tuple(a for a in battle_vars(game).attacks if a.id != n)
    game.log(f"Attack {n} cancelled.")


@dataclass(frozen=True)
class Declaring(Frame):
    """An attack declaration being made: the defending hexes and the attackers chosen so far."""

    side: str
    defenders: tuple[Hex, ...]
    attackers: tuple[str, ...] = ()
    partial: tuple[tuple[str, int], ...] = ()

    @property
    def order(self) -> Attack:
        return Attack(self.defenders, self.attackers, self.partial)

    def decision(self, game: Game) -> Decision | None:
        hexes = ",".join(h.label for h in self.defenders)
        return Decision(
            Side(self.side),
            game.step.key,
            f"add attackers (or defending hexes) to the attack on {hexes}, then declare the attack, or drop it",
            rules(game).clause("declare"),
        )

    # The units that may join and the hexes that may be added, and the listing, are kept per board and frame (the
    # listing and the play of an ``add`` or ``target`` ask the same; an attack abandoned and begun again too).
    def _attackers(self, game: Game) -> tuple[str, ...]:
        return _ATTACKERS.get(game, self, lambda: self._attackers_afresh(game))

    def _attackers_afresh(self, game: Game) -> tuple[str, ...]:
        r = rules(game)
        able = r.able(game, Side(self.side))
        here = frozenset(h for u in self.attackers if (h := family_unit(game, u).hex) is not None)
        return tuple(
            u
            for h, units in able.items()
            if all(h.is_adjacent(d) for d in self.defenders) and (not here or r.may_combine(game, here | {h}))
            for u in units
            if u not in self.attackers
        )

    def _targets(self, game: Game) -> tuple[Hex, ...]:
        return _TARGETS.get(game, self, lambda: self._targets_afresh(game))

    def _targets_afresh(self, game: Game) -> tuple[Hex, ...]:
        side = Side(self.side)
        hexes = {h for u in self.attackers if (h := family_unit(game, u).hex) is not None}
        near = hexes or set(rules(game).able(game, side))
        enemy = game.occupants(side.enemy)
        return tuple(
            sorted(
                {n for h in near for n in h.neighbours() if n in enemy and n not in self.defenders and all(n.is_adjacent(x) for x in hexes)}
            )
        )

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return list(_DECLARING_ACTIONS.get(game, self, lambda: tuple(self._actions(game))))

    def _actions(self, game: Game) -> list[Action]:
        out: list[Action] = [Add(u) for u in self._attackers(game)]
        out.extend(Target(h) for h in self._targets(game))
        if self.attackers:
            try:
                rules(game).check(game, self.order, Side(self.side))
                out.append(Declare())
            except IllegalOrderError:
                pass
        out.append(Abandon())
        return out

    @on(Add)
    def add(self, game: Game, decision: Decision, action: Add) -> None:
        partial = self.partial if action.factors is None else (*self.partial, (action.unit, action.factors))
        if action.unit not in self._attackers(game):
            r = rules(game)  # the rule it breaks, if the system's check names one
            r.check(game, Attack(self.defenders, (*self.attackers, action.unit), partial), Side(self.side))
            raise IllegalOrderError(
                r.clause("declare"),
                f"{action.unit} cannot join this attack: it is not one of your units able to attack next to every defending hex",
            )
        game.replace_frame(replace(self, attackers=(*self.attackers, action.unit), partial=partial))

    @on(Target)
    def target(self, game: Game, decision: Decision, action: Target) -> None:
        if action.hex not in self._targets(game):
            raise IllegalOrderError(
                rules(game).clause("declare"),
                f"{action.hex} cannot be added: every attacker must be next to every defending hex, which must hold enemy units",
            )
        game.replace_frame(replace(self, defenders=(*self.defenders, action.hex)))

    @on(Declare)
    def declare(self, game: Game, decision: Decision, action: Declare) -> None:
        side = Side(self.side)
        r = rules(game)
        if not self.attackers:
            raise IllegalOrderError(r.clause("declare"), "an attack needs at least one attacking unit")
        order = self.order
        r.check(game, order, side)
        game.pop_frame()
        r.declared(game, order, side)
        declare(game, order, side)

    @on(Abandon)
    def abandon(self, game: Game, decision: Decision, action: Abandon) -> None:
        game.pop_frame()


# the declaration's answers, kept per board (the listing and the play of an ``add`` or ``target`` ask the same)
_ATTACKERS: Cache[tuple[str, ...]] = Cache("declaring-attackers", BOARD)
_TARGETS: Cache[tuple[Hex, ...]] = Cache("declaring-targets", BOARD)
_DECLARING_ACTIONS: Cache[tuple[Action, ...]] = Cache("declaring-actions", BOARD)


def begin(game: Game, n: int, side: Side) -> None:
    """Resolve attack ``n``: what happens first, the defender's No Retreat! question where it matters, else the die."""
    r = rules(game)
    order = r.before_battle(game, n, side)
    if order is None:
        return
    if not r.allowed(game, order, side, n):
        raise IllegalOrderError(r.clause("minimum"), "this attack is now below the lowest odds on the table: cancel it")
    game.push_frame(Battle(n, side.value, "no-retreat"))
    if not r.ask_no_retreat(game, order, side, n):
        fight(game, ())


def fight(game: Game, no_retreat: tuple[str, ...]) -> None:
    """The battle in progress rolls its die (a chance node), then :class:`BattleRoll` carries out the result."""
    battle = game.top(Battle)
    assert battle is not None and battle.attack is not None
    game.push_frame(BattleRoll(battle.attack, battle.side, no_retreat))


@dataclass(frozen=True)
class BattleRoll(Chance):
    """The die of attack ``attack`` by ``side`` (its defenders under No Retreat! orders: ``no_retreat``): its results
    carried out, and the retreats they call for set up in the battle's frame beneath."""

    attack: int
    side: str
    no_retreat: tuple[str, ...]

    def purpose(self, game: Game) -> str:
        entry = find(game, self.attack)
        return rules(game).combat_purpose(game, entry.order, Side(self.side), entry.id)

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        entry = find(game, self.attack)
        return rules(game).combat_die(game, entry.order, Side(self.side), entry.id)

    def resolve(self, game: Game, value: int) -> None:
        carry_out(game, self.no_retreat, value)


def carry_out(game: Game, no_retreat: tuple[str, ...], die: int) -> None:
    """Carry out the battle's results for the die rolled, and set up the retreats they call for."""
    battle = game.top(Battle)
    assert battle is not None and battle.attack is not None
    r = rules(game)
    side = Side(battle.side)
    entry = find(game, battle.attack)
    effects, attack_hexes, defending_hexes = r.fight(game, entry.id, entry.order, side, no_retreat, die)
    update(game, entry.id, resolved=True)
    groups = []  # the attackers' retreats first (a defender may then still retreat voluntarily)
    a_units = tuple(Loser(u, e.code) for u, e in effects.items() if u in entry.attackers and e.code in r.retreating)
    if a_units:
        groups.append(group(r, side, a_units, defending_hexes))
    d_units = tuple(
        Loser(u, e.code, e.compulsory, u in no_retreat) for u, e in effects.items() if u not in entry.attackers and e.code in r.retreating
    )
    if d_units:
        groups.append(group(r, side.enemy, d_units, attack_hexes))
    game.replace_frame(replace(battle, step="retreats", groups=tuple(groups)))
    settle(game)


@dataclass(frozen=True)
class Battle(Frame):
    """A battle under way: ``step`` is "no-retreat" (the defender answers) or "retreats" (the winner sets the
    distance, then the loser retreats, group by group).  ``attack`` is ``None`` for retreats at the end of the
    attack phase, which then ends (``end_of_phase``)."""

    attack: int | None
    side: str
    step: str
    groups: tuple[RetreatGroup, ...] = ()
    end_of_phase: bool = False
    held: tuple[str, ...] = ()  # the defending units given No Retreat! orders so far

    def current(self) -> RetreatGroup | None:
        return next((g for g in self.groups if not g.finished), None)

    def decision(self, game: Game) -> Decision | None:
        r = rules(game)
        if self.step == "no-retreat":
            means = f": {r.no_retreat_means}" if r.no_retreat_means else ""
            return Decision(
                Side(self.side).enemy,
                game.step.key,
                f"{self._attack_words(game)} is about to be rolled: give No Retreat! orders (or none) to your defending units{means}",
                r.clause("no-retreat"),
            )
        g = self.current()
        if g is None:
            return None
        loser = Side(g.loser)
        if g.distance is None:
            return Decision(loser.enemy, game.step.key, distance_prompt(game, r, self.attack, self.side, g), r.clause("retreat"))
        return Decision(
            loser, game.step.key, f"retreat {', '.join(x.unit for x in g.units if not x.done)}, then end the retreat", r.clause("retreat")
        )

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        r = rules(game)
        if self.step == "no-retreat":
            options = self._options(game)
            out: list[Action] = [Hold(u) for u in sorted({u for o in options if set(self.held) <= set(o) for u in o} - set(self.held))]
            if tuple(sorted(self.held)) in options:
                out.append(NoRetreat())
            return out
        g = self.current()
        assert g is not None
        if g.distance is None:
            return [RetreatDistance(k) for k in range(g.max + 1)]
        out = []
        for x in g.units:
            if x.done:
                continue
            n = need(r, g, x)
            for length in range(max(n, 1), n + extra(r, x) + 1):
                out.extend(Retreat(x.unit, p) for p in r.routes(game, x.unit, length, g.origin))
        if all(x.done or need(r, g, x) == 0 for x in g.units):
            out.append(EndRetreat())
        return out

    def _attack_words(self, game: Game) -> str:
        """The attack under way as its defender knows it: "attack 2 on B4 (3:1)"."""
        assert self.attack is not None
        order = find(game, self.attack).order
        odds = rules(game).odds_label(game, order, Side(self.side), self.attack)
        return f"attack {self.attack} on {' '.join(h.label for h in order.defenders)} ({odds})"

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """The battle's choices in words: a No Retreat! order says what it costs the unit (the system's
        :meth:`BattleRules.hold_words`), the answer what it leaves; a retreat distance names the units it moves and
        what the loser may still do on his own."""
        r = rules(game)
        if isinstance(action, Hold) and self.attack is not None:
            return r.hold_words(game, find(game, self.attack).order, Side(self.side), self.attack, action.unit)
        if isinstance(action, NoRetreat) and not action.units:
            if self.held:
                return f"No more No Retreat! orders: only {', '.join(self.held)} stand(s) fast, the others retreat as the result says"
            return (
                "Give no No Retreat! orders: your units retreat if the result says so, as far as the attacker names "
                f"({r.clause('retreat')})"
            )
        g = self.current() if self.step == "retreats" else None
        if isinstance(action, RetreatDistance) and g is not None:
            return distance_words(game, r, g, action.hexes)
        return action.says()

    def _options(self, game: Game) -> list[tuple[str, ...]]:
        assert self.attack is not None
        order = find(game, self.attack).order
        return [tuple(sorted(o)) for o in rules(game).no_retreat_options(game, order, Side(self.side), self.attack)]

    def _check(self, game: Game, decision: Decision, action: Action) -> None:
        if action not in self.actions(game, decision):
            r = rules(game)
            g = self.current() if self.step != "no-retreat" else None
            choosing_routes = g is not None and g.distance is not None  # else a retreat comes too early (D.1's order)
            key = {NoRetreat: "no-retreat", Hold: "no-retreat", Retreat: "route" if choosing_routes else "retreat"}.get(
                type(action), "retreat"
            )
            raise IllegalOrderError(r.clause(key), f"'{action.notation()}' is not allowed now; {decision.prompt}")

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError(rules(game).clause("retreat"), f"'{action.notation()}' is not allowed now; {decision.prompt}")

    @on(Hold)
    def hold(self, game: Game, decision: Decision, action: Hold) -> None:
        self._check(game, decision, action)
        game.replace_frame(replace(self, held=(*self.held, action.unit)))

    @on(NoRetreat)
    def no_retreat(self, game: Game, decision: Decision, action: NoRetreat) -> None:
        self._check(game, decision, action)
        if self.held:
            game.log(f"No Retreat! orders for {', '.join(self.held)}.")
        fight(game, self.held)

    @on(RetreatDistance)
    def distance(self, game: Game, decision: Decision, action: RetreatDistance) -> None:
        self._check(game, decision, action)
        self._change_current(game, lambda g: replace(g, distance=action.hexes))
        game.log(f"Retreat distance set to {action.hexes}.")
        settle(game)

    @on(Retreat)
    def retreat(self, game: Game, decision: Decision, action: Retreat) -> None:
        self._check(game, decision, action)
        group = self.current()
        distance = None if group is None else group.distance
        family_unit(game, action.unit).hex = action.path[-1]
        rules(game).retreated(game, action.unit, action.path)
        self._change_current(game, lambda g: g.with_done(action.unit))
        further = distance is not None and len(action.path) - 1 > distance  # (the loser's own extra hex, GG-XIV.D.1)
        extra = f" (a hex further than the distance set, by its own choice: {rules(game).clause('retreat')})" if further else ""
        game.log(f"{action.unit} retreats {'-'.join(h.label for h in action.path)}{extra}.")
        settle(game)

    @on(EndRetreat)
    def end_retreat(self, game: Game, decision: Decision, action: EndRetreat) -> None:
        self._check(game, decision, action)
        self._change_current(game, lambda g: g.with_done(*(x.unit for x in g.units)))
        settle(game)

    def _change_current(self, game: Game, change: object) -> None:
        current = self.current()
        groups = tuple(change(g) if g is current else g for g in self.groups)  # type: ignore[operator]
        game.replace_frame(replace(self, groups=groups))

    def settle(self, game: Game) -> None:
        """Every retreat is done: the battle is over."""
        game.pop_frame()
        rules(game).over(game, self)


def settle(game: Game) -> None:
    """Handle what needs no decision: units that cannot retreat, units with nothing to do.

    Every time (a retreat already made can close another unit's way, as a friend leaving a ZOC hex): first a
    unit whose result is one of ``full_retreat`` and that cannot retreat that whole distance is unable to
    retreat, before and whatever the winner names; then, if no unit is left that the winner's distance would move,
    the distance is 0 (the winner is not asked); then, once the distance is known, a unit that cannot
    retreat as far as it must.
    """
    battle = game.top(Battle)
    if battle is None or battle.step != "retreats":
        return
    r = rules(game)
    groups = list(battle.groups)
    for i, g in enumerate(groups):
        for x in g.units:
            full = 0 if x.nr else r.full_retreat.get(x.code, 0)
            if not x.done and full and not r.can_retreat(game, x.unit, full, g.origin):
                g = g.with_done(x.unit)
                r.unable(game, x)
        if g.distance is None and not bound(game, r, g):
            # no unit is left that the winner's distance would move (those it bound could not retreat): a question
            # whose every answer changes nothing is not asked
            g = replace(g, distance=0)
            game.log("No retreat distance to name: no unit is left that it would move.")
        if g.distance is not None:
            for x in g.units:
                if x.done:
                    continue
                n = need(r, g, x)
                if n > 0 and not r.can_retreat(game, x.unit, n, g.origin):
                    g = g.with_done(x.unit)
                    r.unable(game, x)
                elif n == 0 and extra(r, x) == 0:
                    g = g.with_done(x.unit)
        groups[i] = g
        if not g.finished:
            break  # the winner must choose first, or the loser retreat
    game.replace_frame(replace(battle, groups=tuple(groups)))


def closing_retreats(game: Game, side: Side, losers: Mapping[str, Sequence[Hex]], code: str) -> None:
    """Retreats that end the attack phase (units of ``side`` retreating away from the hexes given for each):
    a battle frame with no attack, whose end closes the phase."""
    units = tuple(Loser(u, code, closing=True) for u in losers)
    from_hexes = sorted({h for hs in losers.values() for h in hs})
    game.push_frame(Battle(None, side.enemy.value, "retreats", (group(rules(game), side, units, from_hexes),), end_of_phase=True))
    settle(game)
