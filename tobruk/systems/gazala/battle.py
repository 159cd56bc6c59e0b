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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.board.maps import Feature
from tobruk.engine.chance import Outcome
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import Battle, BattleRules, Effect, Loser, Path, closing_retreats, find, pending, update
from tobruk.mechanics.boardmemo import board_memo
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.phases import close_step
from tobruk.mechanics.retreat import can_leave_board
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.control import pass_through

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
        key = ("gg-no-retreat-options", order, side, n)
        return list(board_memo(game, key, lambda: tuple(cb.no_retreat_options(game, cb.assess(game, order, side, n)))))

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
        attacked = list(game.vars.attacked_units)
        for uid in a.defenders:
            if uid not in attacked:
                attacked.append(uid)
            if family_defs(game)[uid].side is Side.ALLIED and not family_unit(game, uid).activated:
                family_unit(game, uid).activated = True  # GG-V.A.3
                game.log(f"Allied: {uid} is attacked and activated.")
        game.vars.attacked_units = tuple(attacked)
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
    clauses={
        "declare": "GG-XIV.A.4",
        "resolve": "GG-XIV.C.1",
        "minimum": "GG-XIV.B.4",
        "no-retreat": "GG-XIV.B.5",
        "retreat": "GG-XIV.D.1",
        "route": "GG-XIV.D.2",
    },
)


# --- the end of the attack phase ----------------------------------------------------------------------
def able_attackers(game: Game, side: Side, busy: set[str] | None = None, *, include_held: bool = False) -> dict[Hex, list[str]]:
    """Units that can still attack this phase, by hex: undisrupted, active, not yet used or committed.

    Allied units in a box held at the start of the Allied player-turn create no duty to attack
    (GG-XIV.A.2), so they are left out unless ``include_held`` (they may attack if the player wishes).
    """
    key = ("able-attackers", side, frozenset(busy or ()), include_held)
    kept: dict[Hex, tuple[str, ...]] = board_memo(game, key, lambda: _able_attackers(game, side, busy, include_held))
    return {h: list(units) for h, units in kept.items()}


def _able_attackers(game: Game, side: Side, busy: set[str] | None, include_held: bool) -> dict[Hex, tuple[str, ...]]:
    if busy:  # those able with none busy, less the busy ones (the duties ask with each candidate group busy)
        key = ("able-attackers", side, frozenset[str](), include_held)
        every: dict[Hex, tuple[str, ...]] = board_memo(game, key, lambda: _able_attackers(game, side, None, include_held))
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
    if game.vars.weather == "sandstorm":  # GG-VIII.A.3
        best = max(usable, key=lambda h: sum(family_defs(game)[u].attack for u in able[h]))
        return tuple(able[best])
    return tuple(u for h in usable for u in able[h])


def obligations(game: Game, side: Side, busy: set[str] | None = None) -> list[Hex]:
    """GG-XIV.A.2: enemy hexes that must still be attacked before the attack phase may end.

    A hex is due while it holds an undisrupted enemy unit nobody has attacked this phase (nor is about to:
    declared attacks count), and the units still able to attack could attack it at 1:4 or better (rulings:
    a duty nobody can meet any more lapses; only units able to attack create it).  Worked out once per
    board and set of busy units: listing the attacks asks it again for every candidate declaration, and every
    step of a declaration being made.
    """
    key = ("obligations", side, frozenset(busy or ()))
    due: tuple[Hex, ...] = board_memo(game, key, lambda: tuple(_obligations(game, side, busy)))
    return list(due)


def _obligations(game: Game, side: Side, busy: set[str] | None) -> list[Hex]:
    able = able_attackers(game, side, busy)
    attacked = set(game.vars.attacked_units)
    targeted = {h for a in pending(game) for h in a.order.defenders}
    occupants = game.occupants(side.enemy)
    near = {n for h in able for n in h.neighbours()} - targeted
    threats = sorted(t for t in near if any(_threatens(game, u, attacked) for u in occupants.get(t, ())))  # (sorted: few)
    return [target for target in threats if _attackable(game, side, target, able)]


def _attackable(game: Game, side: Side, target: Hex, able: dict[Hex, list[str]]) -> bool:
    """Whether the ``able`` units next to a threatening enemy hex could attack it (so it is due): face down, at
    any odds (its strength is unknown, so it must be attacked); else at 1:4 or better."""
    group = attack_group(game, target, able)
    if not group:
        return False
    if hd.hidden_in(game, [target], side.enemy):
        return True
    try:
        return cb.odds(game, Attack((target,), group), side).column is not None
    except IllegalOrderError:
        return False


def strands_a_duty(game: Game, order: Attack, side: Side) -> Hex | None:
    """GG-XIV.A.2: a due hex this declaration would leave with nobody able to attack it, though the same
    attack could have taken it in too (ruling R-DUTY); ``None`` if there is none.

    Only a due hex next to one of the declaration's attackers can be left so: whether a hex is due reads only the
    units next to it (:func:`attack_group`), so the duties of the others are the same with these units busy.
    """
    before = set(obligations(game, side)) - set(order.defenders)
    hexes = {h for u in order.attackers if u in family_defs(game) and (h := family_unit(game, u).hex) is not None}
    exposed = sorted(t for t in before if any(t.is_adjacent(h) for h in hexes))
    if not exposed:
        return None
    able = able_attackers(game, side, set(order.attackers))
    for lost in exposed:
        if _attackable(game, side, lost, able):
            continue  # still due with these units busy
        wider = Attack((*order.defenders, lost), order.attackers, order.partial)
        try:
            if hd.hidden_in(game, wider.defenders, side.enemy) or cb.odds(game, wider, side).column is not None:
                return lost  # (face-down defenders: any odds may be declared, ruling R-HIDDEN)
        except IllegalOrderError:
            continue
    return None


def _threatens(game: Game, uid: str, attacked: set[str]) -> bool:
    """An undisrupted enemy unit nobody attacked this phase (GG-XIV.A.2, IX.B), as the other side sees it:
    a face-down counter always counts (dummy or not, disrupted or not: it cannot be told), ruling R-HIDDEN."""
    u = family_unit(game, uid)
    if u.hidden:
        return True
    return not family_defs(game)[uid].is_dummy and not u.disrupted and uid not in attacked


def disrupted_adjacent(game: Game, side: Side) -> dict[str, list[Hex]]:
    """GG-IX.B: the side's disrupted units next to undisrupted enemy units nobody attacked this phase."""
    attacked = set(game.vars.attacked_units)
    out: dict[str, list[Hex]] = {}
    for uid, h in mv.on_map(game, side):
        if not family_unit(game, uid).disrupted:
            continue
        threats = [n for n in h.neighbours() if any(_threatens(game, e, attacked) for e in game.units_at(n, side.enemy))]
        if threats:
            out[uid] = threats
    return out


def end_of_attacks(game: Game, side: Side) -> bool:
    """Start the end-of-phase AR for disrupted units (GG-IX.B); ``True`` if one was started.  (Asked once per
    phase: the end of these retreats ends the phase, through :meth:`GazalaBattle.over`.)"""
    threatened = disrupted_adjacent(game, side)
    if not threatened:
        return False
    for uid in threatened:
        hd.reveal(game, uid, "it must retreat (GG-IX.B)")  # a face-down unit that retreats turns up
    game.log(f"{', '.join(threatened)}: disrupted next to unattacked enemy units, AR (GG-IX.B).")
    closing_retreats(game, side, threatened, "AR")
    return True
