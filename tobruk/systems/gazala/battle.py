"""Ground combat in The Gazala Gallop's attack phase: the battle mechanics' rules for this system, and the end of
the attack phase.

The course of a battle (declare, resolve, No Retreat!, the die, the retreats) is the family's
(:mod:`tobruk.mechanics.battle`); :class:`GazalaBattle` tells it what The Gazala Gallop's results do: the
2016 GCRT and its conversions (:mod:`.combat`), face-down defenders turning up (GG-V.B), the retreat
routes of GG-XIV.D.2, what a unit that cannot retreat suffers (GG-XIV.D.3-4), village control on the way
(GG-XVI).  The end of the attack phase is here too: compulsory attacks (GG-XIV.A.2), the disrupted units'
AR (GG-IX.B) and the stacking check (GG-XII.B).
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.board.maps import Feature
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.chance import Outcome
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import Battle, BattleRules, Effect, Path, closing_retreats, find, pending, update
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.duties import Duties, exposed
from tobruk.mechanics.no_retreat import changed_faces, hold_words
from tobruk.mechanics.phases import close_step
from tobruk.mechanics.retreat import can_leave_board
from tobruk.mechanics.retreat_groups import Loser
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.control import pass_through
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass(frozen=True)
class GazalaBattle(BattleRules):
    """The Gazala Gallop's results for the battle mechanics."""

    def able(self, game: Game, side: Side) -> dict[Hex, list[str]]:
        return able_attackers(game, side, include_held=True)

    def check(self, game: Game, order: Attack, side: Side) -> None:
        from tobruk.systems.gazala.sequence import check_declaration

        check_declaration(game, order, side)

    def declared(self, game: Game, order: Attack, side: Side) -> None:
        for uid in order.attackers:
            hd.reveal(game, uid, "it attacks")

    def may_combine(self, game: Game, hexes: frozenset[Hex]) -> bool:
        return cb.may_combine(game, hexes)

    def odds_label(self, game: Game, order: Attack, side: Side, declared: int | None = None) -> str:
        if hd.hidden_in(game, order.defenders, side.enemy):
            return "odds unknown"
        return cb.odds(game, order, side, declared).label

    def allowed(self, game: Game, order: Attack, side: Side, declared: int | None = None) -> bool:
        return cb.odds(game, order, side, declared).column is not None

    def before_battle(self, game: Game, n: int, side: Side) -> Attack | None:
        """Face-down defenders turn up; a hex of dummies drops out (ruling R-HIDDEN)."""
        order = find(game, n).order
        if not hd.hidden_in(game, order.defenders, side.enemy):
            return order
        for h in order.defenders:
            hd.reveal_hex(game, h, side.enemy, "attacked")
        remaining = tuple(h for h in order.defenders if cb.units_in(game, h, side.enemy))
        verdict = None
        if not remaining:
            verdict = "only dummies were there"
        else:
            if remaining != order.defenders:  # a hex held only dummies: the attack goes on against the rest
                order = Attack(remaining, order.attackers, order.partial)
                update(game, n, order=order)
            if cb.odds(game, order, side, n).column is None:
                verdict = "the odds are below 1:4 after all (GG-XIV.B.4)"
        if verdict is None:
            return order
        for uid in order.attackers:  # the attack is called off, the attackers have attacked
            family_unit(game, uid).attacked = True
        update(game, n, resolved=True)
        game.log(f"Attack {n} is called off: {verdict}.", kind="battle")
        return None

    def no_retreat_options(self, game: Game, order: Attack, side: Side, n: int) -> list[tuple[str, ...]]:
        """Kept per board: the listing and the play of each No Retreat! order ask, each with another frame."""
        return list(
            _NO_RETREAT_OPTIONS.get(game, (order, side, n), lambda: tuple(cb.no_retreat_options(game, cb.assess(game, order, side, n))))
        )

    def hold_words(self, game: Game, order: Attack, side: Side, n: int, unit: str) -> str:
        """GG-XIV.B.5 for one unit at this attack's odds: the die faces whose result the orders change for it, and
        into what (an R1 into a D where it stands, an R2 into a DE; a box's or the survivability's conversions as
        :func:`~.combat.unit_effects` makes them)."""
        a = cb.assess(game, order, side, n)
        if a.column is None:
            return f"Give {unit} No Retreat! orders: {self.no_retreat_means}"
        column = a.column
        results = [cb.chart(game).result(face, column) for face in range(1, 7)]
        changed = changed_faces(results, lambda result, held: cb.unit_effects(game, a, result, (unit,) if held else ())[unit].code)
        return hold_words(unit, a.odds, changed, NO_RETREAT_EFFECT, "GG-XIV.B.5")

    def ask_no_retreat(self, game: Game, order: Attack, side: Side, n: int) -> bool:
        return cb.needs_no_retreat_question(game, cb.assess(game, order, side, n))

    def combat_die(self, game: Game, order: Attack, side: Side, n: int | None) -> tuple[Outcome, ...]:
        return cb.combat_die(game, order, side, n)

    def fight(
        self, game: Game, n: int, order: Attack, side: Side, no_retreat: tuple[str, ...], die: int
    ) -> tuple[dict[str, Effect], tuple[Hex, ...], tuple[Hex, ...]]:
        """The die on the GCRT (GG-XIV.C), its conversions, and what it does at once."""
        a = cb.assess(game, order, side, n)
        assert a.column is not None
        result = cb.chart(game).result(die, a.column)
        effects = cb.unit_effects(game, a, result, no_retreat)
        game.log(cb.combat_log_line(game, a, die, result, effects), kind="battle")
        for uid in a.attackers:
            family_unit(game, uid).attacked = True  # GG-XIV.A.1
            if family_unit(game, uid).out_of_supply and not family_unit(game, uid).disrupted:
                family_unit(game, uid).disrupted = True  # GG-XV.B: attacking out of supply
                game.log(f"{uid} attacked out of supply and is disrupted.")
        attacked = list(gazala_vars(game).attacked_units)
        for uid in a.defenders:
            if uid not in attacked:
                attacked.append(uid)
            if family_defs(game)[uid].side is Side.ALLIED and not family_unit(game, uid).activated:
                family_unit(game, uid).activated = True  # GG-V.A.3
                game.log(f"Allied: {uid} is attacked and activated.")
        gazala_vars(game).attacked_units = tuple(attacked)
        for uid, e in effects.items():
            if e.code in ("R1", "R2", "D") and uid in a.defenders:
                family_unit(game, uid).disrupted = True  # GG-IX.D: disrupted again stays disrupted
            if e.code in ("DE", "AE"):
                mv.eliminate(game, uid, f"combat result {e.code}")
        return effects, a.attack_hexes, a.defending_hexes

    def routes(self, game: Game, uid: str, length: int, origin: Sequence[Hex]) -> list[Path]:
        return cb.retreat_paths(game, uid, length, origin)

    def unable(self, game: Game, loser: Loser) -> None:
        if loser.code not in cb.FULL_RETREAT:  # R1 (a box's compulsory one too), charts: unable to retreat, R1 becomes D
            game.log(f"{loser.unit} cannot retreat: it stays, disrupted.")
        else:  # R2 (No Retreat! situation, GG-XIV.D.3), AR (GG-IX.B), off the map (GG-XIV.D.4)
            why = "off the map or into the sea" if can_leave_board(game, loser.unit) else "unable to retreat"
            mv.eliminate(game, loser.unit, why)

    def retreated(self, game: Game, uid: str, path: Path) -> None:
        pass_through(game, family_defs(game)[uid].side, path[1:])

    def over(self, game: Game, battle: Battle) -> None:
        if battle.end_of_phase:  # the AR of GG-IX.B done: GG-XII.B, then the phase ends
            close_step(game, Side(battle.side).enemy)


BATTLE = GazalaBattle(
    winner_retreats={"R1": 1, "R2": 2, "AR": 1},  # GG-XIV.D.1: the winner sets 0 up to this
    voluntary={"D": 2, "R1": 1, "AR": 1},  # GG-XIV.D.1: hexes the loser may add
    retreating=frozenset({"R1", "R2", "D", "AR"}),
    full_retreat=cb.FULL_RETREAT,  # GG-XIV.D.3, IX.B: unable to retreat this far, eliminated
    closing_why="disrupted next to undisrupted enemy units nobody attacked, they take an AR, GG-IX.B",
    no_retreat_means=(
        "units under orders do not retreat: an R1 leaves them disrupted where they stand (D), an R2 eliminates them (DE); "
        "the orders must go to units holding at least half the hex's terrain-modified defence factors"
    ),
    clauses={
        "declare": "GG-XIV.A.4",
        "resolve": "GG-XIV.C.1",
        "minimum": "GG-XIV.B.4",
        "no-retreat": "GG-XIV.B.5",
        "retreat": "GG-XIV.D.1",
        "route": "GG-XIV.D.2",
    },
)


# what a result under No Retreat! orders does to the unit, in words (GG-XIV.B.5)
NO_RETREAT_EFFECT = {"D": "leaves it disrupted where it stands", "DE": "eliminates it"}


# --- the end of the attack phase ----------------------------------------------------------------------
_NO_RETREAT_OPTIONS: Cache[tuple[tuple[str, ...], ...]] = Cache("gazala.no-retreat-options", BOARD)
_ABLE: Cache[dict[Hex, tuple[str, ...]]] = Cache("gazala.able-attackers", BOARD)


def able_attackers(game: Game, side: Side, busy: set[str] | None = None, *, include_held: bool = False) -> dict[Hex, list[str]]:
    """Units that can still attack this phase, by hex: undisrupted, active, not yet used or committed.

    Allied units in a box held at the start of the Allied player-turn create no duty to attack
    (GG-XIV.A.2), so they are left out unless ``include_held`` (they may attack if the player wishes).
    """
    kept = _ABLE.get(game, (side, frozenset(busy or ()), include_held), lambda: _able_attackers(game, side, busy, include_held))
    return {h: list(units) for h, units in kept.items()}


def _able_attackers(game: Game, side: Side, busy: set[str] | None, include_held: bool) -> dict[Hex, tuple[str, ...]]:
    if busy:  # those able with none busy, less the busy ones (the duties ask with each candidate group busy)
        every = _ABLE.get(game, (side, frozenset[str](), include_held), lambda: _able_attackers(game, side, None, include_held))
        return {h: left for h, units in every.items() if (left := tuple(u for u in units if u not in busy))}
    held = mv.zoc_exempt(game, side) if side is Side.ALLIED and not include_held else set()
    committed = {u for a in pending(game) for u in a.attackers}
    able: dict[Hex, list[str]] = {}
    for uid, h in mv.on_map(game, side):
        u = family_unit(game, uid)
        if u.disrupted or u.attacked or uid in committed or h in held:
            continue
        if side is Side.ALLIED and not u.activated:
            continue
        able.setdefault(h, []).append(uid)
    return {h: tuple(units) for h, units in able.items()}


def attack_group(game: Game, target: Hex, able: dict[Hex, list[str]]) -> tuple[str, ...]:
    """The strongest legal group against ``target`` from ``able`` units (one hex only in a sandstorm)."""
    m = game.scenario.map
    usable = [
        h
        for h in able
        if h.is_adjacent(target) and not ((t := m.feature(h, target, Feature.TOWERING_ESCARPMENT)) is not None and t.high == target)
    ]
    if not usable:
        return ()
    if not cb.may_combine(game, usable):  # GG-VIII.A.3: one hex only
        best = max(usable, key=lambda h: sum(family_defs(game)[u].attack for u in able[h]))
        return tuple(able[best])
    return tuple(u for h in usable for u in able[h])


@dataclass(frozen=True)
class GazalaDuties(Duties):
    """GG-XIV.A.2 and IX.B as The Gazala Gallop plays them, for the attack phase's duties
    (:mod:`tobruk.mechanics.duties`): Allied units in a box held at the start of the Allied player-turn owe no attack;
    a face-down counter threatens, dummy or not, and may be attacked at any odds, its strength unknown (ruling
    R-HIDDEN); a group attacks in one hex only in a sandstorm, never up a towering escarpment."""

    def able(self, game: Game, side: Side, busy: Set[str], include_exempt: bool) -> dict[Hex, list[str]]:
        return able_attackers(game, side, set(busy), include_held=include_exempt)

    def threatens(self, game: Game, uid: str, attacked: Set[str]) -> bool:
        """An undisrupted enemy unit nobody attacked this phase, as the other side sees it: a face-down counter always
        counts (dummy or not, disrupted or not: it cannot be told)."""
        u = family_unit(game, uid)
        if u.hidden:
            return True
        return not family_defs(game)[uid].is_dummy and not u.disrupted and uid not in attacked

    def group(self, game: Game, target: Hex, able: dict[Hex, list[str]]) -> tuple[str, ...]:
        return attack_group(game, target, able)

    def can_declare(self, game: Game, order: Attack, side: Side) -> bool:
        """At 1:4 or better; against face-down defenders at any odds (ruling R-HIDDEN)."""
        if hd.hidden_in(game, order.defenders, side.enemy):
            return True
        try:
            return cb.odds(game, order, side).column is not None
        except IllegalOrderError:
            return False


DUTIES = GazalaDuties()


def ending_costs(game: Game, side: Side) -> str:
    """What ending the attack phase now costs the side: the AR of GG-IX.B for its disrupted units next to enemy units
    nobody attacked (:func:`end_of_attacks`), in words."""
    due = exposed(game, side, DUTIES)
    return f"{', '.join(due)}: disrupted next to enemy units nobody attacked, so they must retreat (AR, GG-IX.B)" if due else ""


def end_of_attacks(game: Game, side: Side) -> bool:
    """Start the end-of-phase AR for disrupted units (GG-IX.B); ``True`` if one was started.  (Asked once per
    phase: the end of these retreats ends the phase, through :meth:`GazalaBattle.over`.)"""
    threatened = exposed(game, side, DUTIES)
    if not threatened:
        return False
    for uid in threatened:
        hd.reveal(game, uid, "it must retreat (GG-IX.B)")  # a face-down unit that retreats turns up
    game.log(f"{', '.join(threatened)}: disrupted next to unattacked enemy units, AR (GG-IX.B).")
    closing_retreats(game, side, threatened, "AR")
    return True
