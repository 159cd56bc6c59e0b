"""The course of a battle in The Gazala Gallop's attack phase, as decisions of the right player.

declare -> (cancel) -> resolve -> the defender's No Retreat! answer -> the die -> the results ->
the winner's retreat distance -> the loser's retreat routes (and voluntary retreats) -> done.
A battle under way is a :class:`Battle` frame on the decision stack: it asks the defender for No
Retreat! orders, the winner for the distance and the loser for the routes, each in turn, and is popped
when every retreat is done.  Also the end of the attack phase: compulsory attacks (GG-XIV.A.2), the
disrupted units' AR (GG-IX.B) and the stacking check (GG-XII.B).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, on
from tobruk.engine.sides import Side
from tobruk.hexes import Hex
from tobruk.maps import Feature
from tobruk.mechanics.actions import Attack, EndRetreat, NoRetreat, Retreat, RetreatDistance
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.control import pass_through
from tobruk.systems.gazala.state import DeclaredAttack
from tobruk.systems.gazala.steps import close_step

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def pending(game: Game) -> list[DeclaredAttack]:
    return [a for a in game.vars.attacks if not a.resolved]


def find(game: Game, n: int) -> DeclaredAttack:
    attacks: tuple[DeclaredAttack, ...] = game.vars.attacks
    for a in attacks:
        if a.id == n and not a.resolved:
            return a
    raise IllegalOrderError("GG-XIV.C.1", f"there is no declared, unresolved attack number {n}")


def _update(game: Game, n: int, **changes: object) -> None:
    game.vars.attacks = tuple(replace(a, **changes) if a.id == n else a for a in game.vars.attacks)


def declare(game: Game, order: Attack, side: Side) -> int:
    """Record a declaration the system has checked (odds against face-down units are not known yet)."""
    a = cb.assess(game, order, side)
    n = 1 + max((x.id for x in game.vars.attacks), default=0)
    game.vars.attacks = (*game.vars.attacks, DeclaredAttack(n, order))
    odds = "odds unknown" if hd.hidden_in(game, order.defenders, side.enemy) else a.odds
    game.log(f"{side.display} declares attack {n}: {order.notation()} ({odds}).")
    return n


def cancel(game: Game, n: int) -> None:
    find(game, n)
    game.vars.attacks = tuple(a for a in game.vars.attacks if a.id != n)
    game.log(f"Attack {n} cancelled.")


def begin(game: Game, n: int, side: Side) -> None:
    """Start resolving attack ``n``: turn up face-down defenders, ask for No Retreat! where it matters,
    else roll at once."""
    order = find(game, n).order
    if hd.hidden_in(game, order.defenders, side.enemy):
        for h in order.defenders:
            hd.reveal_hex(game, h, side.enemy, "attacked")
        remaining = tuple(h for h in order.defenders if cb.units_in(game, h, side.enemy))
        verdict = None
        if not remaining:
            verdict = "only dummies were there"
        else:
            if remaining != order.defenders:  # a hex held only dummies: the attack goes on against the rest
                order = Attack(remaining, order.attackers, order.partial)
                _update(game, n, order=order)
            if cb.assess(game, order, side, n).column is None:
                verdict = "the odds are below 1:4 after all (GG-XIV.B.4)"
        if verdict is not None:  # ruling R-HIDDEN: the attack is called off, the attackers have attacked
            for uid in order.attackers:
                game.unit(uid).attacked = True
            _update(game, n, resolved=True)
            game.log(f"Attack {n} is called off: {verdict}.", kind="battle")
            return
    a = cb.assess(game, order, side, n)
    if a.column is None:
        raise IllegalOrderError("GG-XIV.B.4", "this attack is now below 1:4: cancel it")
    game.push_frame(Battle(n, side.value, "no-retreat"))
    if not cb.needs_no_retreat_question(game, a):
        roll(game, ())


def roll(game: Game, no_retreat: tuple[str, ...]) -> None:
    """Roll the die for the battle in progress and carry out its result (GG-XIV.C)."""
    battle = game.top(Battle)
    assert battle is not None and battle.attack is not None
    side = Side(battle.side)
    entry = find(game, battle.attack)
    a = cb.assess(game, entry.order, side, entry.id)
    assert a.column is not None
    die = game.dice.roll(f"combat, attack {entry.id} at {a.odds}")
    result = cb.chart(game).result(die, a.column)
    effects = cb.unit_effects(game, a, result, no_retreat)
    game.log(cb.combat_log_line(game, a, die, result, effects), kind="battle")
    for uid in a.attackers:
        game.unit(uid).attacked = True  # GG-XIV.A.1
        if game.unit(uid).out_of_supply and not game.unit(uid).disrupted:
            game.unit(uid).disrupted = True  # GG-XV.B: attacking out of supply
            game.log(f"{uid} attacked out of supply and is disrupted.")
    attacked = list(game.vars.attacked_units)
    for uid in a.defenders:
        if uid not in attacked:
            attacked.append(uid)
        if game.defs[uid].side is Side.ALLIED and not game.unit(uid).activated:
            game.unit(uid).activated = True  # GG-V.A.3
            game.log(f"Allied: {uid} is attacked and activated.")
    game.vars.attacked_units = tuple(attacked)
    for uid, e in effects.items():
        if e.code in ("R1", "R2", "D") and uid in a.defenders:
            game.unit(uid).disrupted = True  # GG-IX.D: disrupted again stays disrupted
        if e.code in ("DE", "AE"):
            mv.eliminate(game, uid, f"combat result {e.code}")
    _update(game, entry.id, resolved=True)
    groups = []  # the attackers' AR first (a DAR's defenders may then still retreat voluntarily)
    a_units = tuple(Loser(u, "AR") for u, e in effects.items() if u in a.attackers and e.code == "AR")
    if a_units:
        groups.append(_group(side, a_units, a.defending_hexes))
    d_units = tuple(Loser(u, e.code, e.compulsory, u in no_retreat) for u, e in effects.items()
                    if u in a.defenders and e.code in ("R1", "R2", "D"))
    if d_units:
        groups.append(_group(side.enemy, d_units, a.attack_hexes))
    game.replace_frame(replace(battle, step="retreats", groups=tuple(groups)))
    _settle(game)


@dataclass(frozen=True, slots=True)
class Loser:
    """One unit's part in a battle's retreats: its result, whether a box makes the distance compulsory,
    whether it holds No Retreat! orders, whether its retreat is done; ``ixb``: the AR of GG-IX.B."""

    unit: str
    code: str
    compulsory: bool = False
    nr: bool = False
    done: bool = False
    ixb: bool = False


@dataclass(frozen=True, slots=True)
class RetreatGroup:
    """The losing units of one side in a battle, retreating away from ``origin`` (the winners' hexes)."""

    loser: str
    origin: tuple[Hex, ...]
    units: tuple[Loser, ...]
    max: int
    distance: int | None

    def unit(self, uid: str) -> Loser:
        return next(x for x in self.units if x.unit == uid)

    def with_done(self, *uids: str) -> RetreatGroup:
        return replace(self, units=tuple(replace(x, done=True) if x.unit in uids else x for x in self.units))

    @property
    def finished(self) -> bool:
        return all(x.done for x in self.units)


def _group(loser: Side, units: tuple[Loser, ...], from_hexes: tuple[Hex, ...] | list[Hex]) -> RetreatGroup:
    choosable = [x for x in units if x.code in ("R1", "R2", "AR") and not x.compulsory and not x.nr]
    most = max((cb.DEFENDER_RETREATS.get(x.code, 1) for x in choosable), default=0)
    return RetreatGroup(loser.value, tuple(from_hexes), units, most, None if choosable else 0)


def need(g: RetreatGroup, x: Loser) -> int:
    """Hexes a unit must retreat: the box's compulsory distance, or the winner's, up to its result's limit."""
    if x.nr or x.code == "D":
        return 0
    limit = cb.DEFENDER_RETREATS.get(x.code, 1)
    if x.compulsory:
        return limit
    return min(int(g.distance or 0), limit)


def extra(x: Loser) -> int:
    """Hexes a unit may retreat beyond what it must (GG-XIV.D.1); none under No Retreat! orders."""
    if x.nr:
        return 0
    return cb.VOLUNTARY.get(x.code, 0) if not x.ixb else 0


@dataclass(frozen=True)
class Battle(Frame):
    """A battle under way: ``step`` is "no-retreat" (the defender answers) or "retreats" (the winner sets the
    distance, then the loser retreats, group by group).  ``attack`` is ``None`` for the AR of GG-IX.B, which
    ends the attack phase (``end_of_phase``)."""

    attack: int | None
    side: str
    step: str
    groups: tuple[RetreatGroup, ...] = ()
    end_of_phase: bool = False

    def current(self) -> RetreatGroup | None:
        return next((g for g in self.groups if not g.finished), None)

    def decision(self, game: Game) -> Decision | None:
        if self.step == "no-retreat":
            return Decision(Side(self.side).enemy, game.step.key,
                            "give No Retreat! orders (or none) to the defending units", "GG-XIV.B.5")
        g = self.current()
        if g is None:
            return None
        loser = Side(g.loser)
        if g.distance is None:
            return Decision(loser.enemy, game.step.key,
                            f"set the retreat distance (0-{g.max}) for {', '.join(x.unit for x in g.units)}",
                            "GG-XIV.D.1")
        return Decision(loser, game.step.key,
                        f"retreat {', '.join(x.unit for x in g.units if not x.done)}, then end-retreat", "GG-XIV.D.1")

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        if self.step == "no-retreat":
            assert self.attack is not None
            a = cb.assess(game, find(game, self.attack).order, Side(self.side), self.attack)
            return [NoRetreat(o) for o in cb.no_retreat_options(game, a)]
        g = self.current()
        assert g is not None
        if g.distance is None:
            return [RetreatDistance(k) for k in range(g.max + 1)]
        out: list[Action] = []
        for x in g.units:
            if x.done:
                continue
            n = need(g, x)
            for length in range(max(n, 1), n + extra(x) + 1):
                out.extend(Retreat(x.unit, p) for p in cb.retreat_paths(game, x.unit, length, g.origin))
        if all(x.done or need(g, x) == 0 for x in g.units):
            out.append(EndRetreat())
        return out

    def _check(self, game: Game, decision: Decision, action: Action) -> None:
        if action not in self.actions(game, decision):
            clause = {NoRetreat: "GG-XIV.B.5", Retreat: "GG-XIV.D.2"}.get(type(action), "GG-XIV.D.1")
            raise IllegalOrderError(clause, f"'{action.notation()}' is not allowed now; {decision.prompt}")

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError("GG-XIV.D.1", f"'{action.notation()}' is not allowed now; {decision.prompt}")

    @on(NoRetreat)
    def no_retreat(self, game: Game, decision: Decision, action: NoRetreat) -> None:
        self._check(game, decision, action)
        if action.units:
            game.log(f"No Retreat! orders for {', '.join(action.units)}.")
        roll(game, action.units)

    @on(RetreatDistance)
    def distance(self, game: Game, decision: Decision, action: RetreatDistance) -> None:
        self._check(game, decision, action)
        self._replace_current(game, lambda g: replace(g, distance=action.hexes))
        game.log(f"Retreat distance set to {action.hexes}.")
        _settle(game)

    @on(Retreat)
    def retreat(self, game: Game, decision: Decision, action: Retreat) -> None:
        self._check(game, decision, action)
        game.unit(action.unit).hex = action.path[-1]
        pass_through(game, game.defs[action.unit].side, action.path[1:])
        self._replace_current(game, lambda g: g.with_done(action.unit))
        game.log(f"{action.unit} retreats {'-'.join(h.label for h in action.path)}.")
        _settle(game)

    @on(EndRetreat)
    def end_retreat(self, game: Game, decision: Decision, action: EndRetreat) -> None:
        self._check(game, decision, action)
        self._replace_current(game, lambda g: g.with_done(*(x.unit for x in g.units)))
        _settle(game)

    def _replace_current(self, game: Game, change: object) -> None:
        current = self.current()
        groups = tuple(change(g) if g is current else g for g in self.groups)  # type: ignore[operator]
        game.replace_frame(replace(self, groups=groups))

    def settle(self, game: Game) -> None:
        """Every retreat is done: the battle is over (and with the AR of GG-IX.B, the attack phase too)."""
        game.pop_frame()
        if self.end_of_phase:
            close_step(game, Side(self.side).enemy)  # GG-XII.B: over the stacking limit, the owner eliminates first


def _settle(game: Game) -> None:
    """Handle what needs no decision: units that cannot retreat, units with nothing to do."""
    battle = game.top(Battle)
    if battle is None or battle.step != "retreats":
        return
    groups = list(battle.groups)
    for i, g in enumerate(groups):
        if g.distance is None:
            break  # the winner must choose first
        # every time: a retreat already made can close another unit's way (a friend leaving a ZOC hex)
        for x in g.units:
            if x.done:
                continue
            n = need(g, x)
            if n > 0 and not cb.retreat_paths(game, x.unit, n, g.origin):
                g = g.with_done(x.unit)
                if x.code == "R1":  # GG-XIV.D.3 / charts: unable to retreat, R1 becomes D
                    game.log(f"{x.unit} cannot retreat: it stays, disrupted.")
                else:  # R2 (No Retreat! situation, GG-XIV.D.3), AR (GG-IX.B), off the map (GG-XIV.D.4)
                    why = "off the map or into the sea" if cb.can_leave_board(game, x.unit) else "unable to retreat"
                    mv.eliminate(game, x.unit, why)
            elif n == 0 and extra(x) == 0:
                g = g.with_done(x.unit)
        groups[i] = g
        if not g.finished:
            break
    game.replace_frame(replace(battle, groups=tuple(groups)))


# --- the end of the attack phase ----------------------------------------------------------------------
def able_attackers(game: Game, side: Side, busy: set[str] | None = None, *,
                   include_held: bool = False) -> dict[Hex, list[str]]:
    """Units that can still attack this phase, by hex: undisrupted, active, not yet used or committed.

    Allied units in a box held at the start of the Allied player-turn create no duty to attack
    (GG-XIV.A.2), so they are left out unless ``include_held`` (they may attack if the player wishes).
    """
    held = mv.zoc_exempt(game, side) if side is Side.ALLIED and not include_held else set()
    committed = {u for a in pending(game) for u in a.attackers} | (busy or set())
    able: dict[Hex, list[str]] = {}
    for uid, h in mv.on_map(game, side):
        u = game.unit(uid)
        if u.disrupted or u.attacked or uid in committed or h in held:
            continue
        if side is Side.ALLIED and not u.activated:
            continue
        able.setdefault(h, []).append(uid)
    return able


def attack_group(game: Game, target: Hex, able: dict[Hex, list[str]]) -> tuple[str, ...]:
    """The strongest legal group against ``target`` from ``able`` units (one hex only in a sandstorm)."""
    m = game.scenario.map
    usable = [h for h in able if h.is_adjacent(target)
              and not ((t := m.feature(h, target, Feature.TOWERING_ESCARPMENT)) is not None and t.high == target)]
    if not usable:
        return ()
    if game.vars.weather == "sandstorm":  # GG-VIII.A.3
        best = max(usable, key=lambda h: sum(game.defs[u].attack for u in able[h]))
        return tuple(able[best])
    return tuple(u for h in usable for u in able[h])


def obligations(game: Game, side: Side, busy: set[str] | None = None) -> list[Hex]:
    """GG-XIV.A.2: enemy hexes that must still be attacked before the attack phase may end.

    A hex is due while it holds an undisrupted enemy unit nobody has attacked this phase (nor is about to:
    declared attacks count), and the units still able to attack could attack it at 1:4 or better (rulings:
    a duty nobody can meet any more lapses; only units able to attack create it).
    """
    able = able_attackers(game, side, busy)
    attacked = set(game.vars.attacked_units)
    targeted = {h for a in pending(game) for h in a.order.defenders}
    due = []
    occupants = game.occupants(side.enemy)
    for target in sorted({n for h in able for n in h.neighbours()} - targeted):
        if not any(_threatens(game, u, attacked) for u in occupants.get(target, ())):
            continue
        group = attack_group(game, target, able)
        if not group:
            continue
        if hd.hidden_in(game, [target], side.enemy):
            due.append(target)  # face down: its strength is unknown, so it must be attacked
            continue
        try:
            if cb.assess(game, Attack((target,), group), side).column is not None:
                due.append(target)
        except IllegalOrderError:
            continue
    return due


def strands_a_duty(game: Game, order: Attack, side: Side) -> Hex | None:
    """GG-XIV.A.2: a due hex this declaration would leave with nobody able to attack it, though the same
    attack could have taken it in too (ruling R-DUTY); ``None`` if there is none."""
    before = set(obligations(game, side)) - set(order.defenders)
    after = set(obligations(game, side, set(order.attackers)))
    for lost in sorted(before - after):
        wider = Attack((*order.defenders, lost), order.attackers, order.partial)
        try:
            if hd.hidden_in(game, wider.defenders, side.enemy) or cb.assess(game, wider, side).column is not None:
                return lost  # (face-down defenders: any odds may be declared, ruling R-HIDDEN)
        except IllegalOrderError:
            continue
    return None


def _threatens(game: Game, uid: str, attacked: set[str]) -> bool:
    """An undisrupted enemy unit nobody attacked this phase (GG-XIV.A.2, IX.B), as the other side sees it:
    a face-down counter always counts (dummy or not, disrupted or not: it cannot be told), ruling R-HIDDEN."""
    u = game.unit(uid)
    if u.hidden:
        return True
    return not game.defs[uid].is_dummy and not u.disrupted and uid not in attacked


def disrupted_adjacent(game: Game, side: Side) -> dict[str, list[Hex]]:
    """GG-IX.B: the side's disrupted units next to undisrupted enemy units nobody attacked this phase."""
    attacked = set(game.vars.attacked_units)
    out: dict[str, list[Hex]] = {}
    for uid, h in mv.on_map(game, side):
        if not game.unit(uid).disrupted:
            continue
        threats = [n for n in h.neighbours() if any(_threatens(game, e, attacked) for e in game.units_at(n, side.enemy))]
        if threats:
            out[uid] = threats
    return out


def end_of_attacks(game: Game, side: Side) -> bool:
    """Start the end-of-phase AR for disrupted units (GG-IX.B); ``True`` if one was started."""
    if game.vars.ixb_done == game.phase.key:
        return False
    game.vars.ixb_done = game.phase.key
    threatened = disrupted_adjacent(game, side)
    if not threatened:
        return False
    for uid in threatened:
        hd.reveal(game, uid, "it must retreat (GG-IX.B)")  # a face-down unit that retreats turns up
    units = tuple(Loser(u, "AR", ixb=True) for u in threatened)
    from_hexes = sorted({h for hs in threatened.values() for h in hs})
    game.log(f"{', '.join(threatened)}: disrupted next to unattacked enemy units, AR (GG-IX.B).")
    game.push_frame(Battle(None, side.enemy.value, "retreats", (_group(side, units, from_hexes),), end_of_phase=True))
    _settle(game)
    return True
