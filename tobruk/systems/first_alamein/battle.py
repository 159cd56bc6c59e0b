"""Ground combat in 1st Alamein's attack steps: the battle mechanics' rules for this system, and the duties of
the attack step.

The course of a battle (declare, resolve, No Retreat!, the die, the retreats) is the family's
(:mod:`tobruk.mechanics.battle`); :class:`FirstAlameinBattle` tells it what 1st Alamein's results do: the
GCRT with Spent and its conversions (:mod:`.combat`), the winner's and the voluntary retreats read from the
charts' effects (FA-CRT.2-6), the routes of GG-XIV.D.2 (:mod:`.retreat`), a unit unable to retreat
eliminated on R2 and AR, spent where it stands on R1 (FA-CRT.3, 7).  The attack step's duties are
Gazala's (GG-XIV.A.2, IX.B, through :mod:`tobruk.mechanics.duties`): Allied units in a box held at the start
of the Allied player-turn owe no attack.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.chance import Outcome
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import Battle, BattleRules, Effect, Path, closing_retreats, pending
from tobruk.mechanics.control import pass_through
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.duties import Duties, exposed, strands_a_duty, suggested_attacks
from tobruk.mechanics.no_retreat import changed_faces, hold_words
from tobruk.mechanics.phases import close_step
from tobruk.mechanics.retreat_groups import Loser
from tobruk.systems.first_alamein import combat as cb
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein.charts import Charts, chart
from tobruk.systems.first_alamein.retreat import retreat_paths
from tobruk.systems.first_alamein.state import alamein_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass(frozen=True)
class FirstAlameinBattle(BattleRules):
    """1st Alamein's results for the battle mechanics."""

    def able(self, game: Game, side: Side) -> dict[Hex, list[str]]:
        return DUTIES.able(game, side, frozenset(), True)

    def check(self, game: Game, order: Attack, side: Side) -> None:
        check_declaration(game, order, side)

    def odds_label(self, game: Game, order: Attack, side: Side, declared: int | None = None) -> str:
        return cb.odds(game, order, side, declared).label

    def allowed(self, game: Game, order: Attack, side: Side, declared: int | None = None) -> bool:
        return cb.odds(game, order, side, declared).column is not None

    def no_retreat_options(self, game: Game, order: Attack, side: Side, n: int) -> list[tuple[str, ...]]:
        """Kept per board: the listing and the play of each No Retreat! order ask, each with another frame."""
        return list(
            _NO_RETREAT_OPTIONS.get(game, (order, side, n), lambda: tuple(cb.no_retreat_options(game, cb.assess(game, order, side, n))))
        )

    def ask_no_retreat(self, game: Game, order: Attack, side: Side, n: int) -> bool:
        return cb.asks_no_retreat(game, cb.assess(game, order, side, n))

    def hold_words(self, game: Game, order: Attack, side: Side, n: int, unit: str) -> str:
        """FA-CRT.7 for one unit at this attack's odds: the die faces whose result the orders change for it, and into
        what (an R1 into an S where it stands, an R2 into a DE; FA-CRT.8's survivors as :func:`~.combat.unit_effects`
        reads them)."""
        a = cb.assess(game, order, side, n)
        if a.column is None:
            return f"Give {unit} No Retreat! orders: {self.no_retreat_means}"
        column = a.column
        results = [chart(game).gcrt.result(face, column) for face in range(1, 7)]
        changed = changed_faces(results, lambda result, held: cb.unit_effects(game, a, result, (unit,) if held else ())[unit].code)
        return hold_words(unit, a.odds, changed, NO_RETREAT_EFFECT, "FA-CRT.7")

    def combat_die(self, game: Game, order: Attack, side: Side, n: int | None) -> tuple[Outcome, ...]:
        return cb.combat_die(game, order, side, n)

    def fight(
        self, game: Game, n: int, order: Attack, side: Side, no_retreat: tuple[str, ...], die: int
    ) -> tuple[dict[str, Effect], tuple[Hex, ...], tuple[Hex, ...]]:
        """The die on the GCRT (FA-CRT.1), each unit's code and conversions, and what they do at once."""
        c = chart(game)
        a = cb.assess(game, order, side, n)
        assert a.column is not None
        result = c.gcrt.result(die, a.column)
        effects = cb.unit_effects(game, a, result, no_retreat)
        game.log(cb.log_line(a, n, die, result, effects), kind="battle")
        for uid in a.attackers:
            u = family_unit(game, uid)
            u.attacked = True  # FA-SEQ.1
            if u.out_of_supply and not u.disrupted:
                u.disrupted = True  # GG-XV.B: attacking out of supply
                game.log(f"{uid} attacked out of supply and is spent.")
        alamein_vars(game).attacked_units = (
            *alamein_vars(game).attacked_units,
            *(u for u in a.defenders if u not in alamein_vars(game).attacked_units),
        )
        for uid, e in effects.items():
            effect = c.effect(e.code)
            if effect.spent:
                family_unit(game, uid).disrupted = True  # spent again stays spent (GG-IX.D)
            if effect.eliminated:
                pos.eliminate(game, uid, f"combat result {e.code}")
        return effects, a.attack_hexes, a.defending_hexes

    def routes(self, game: Game, uid: str, length: int, origin: Sequence[Hex]) -> list[Path]:
        return retreat_paths(game, uid, length, origin)

    def unable(self, game: Game, loser: Loser) -> None:
        """FA-CRT.3, 7: unable to retreat, an R1 stays spent where it is; R2 and AR are eliminated."""
        if chart(game).effect(loser.code).blocked == "stays":
            game.log(f"{loser.unit} cannot retreat: it stays, spent.")
        else:
            pos.eliminate(game, loser.unit, "unable to retreat")

    def retreated(self, game: Game, uid: str, path: Path) -> None:
        pass_through(game, family_defs(game)[uid].side, path[1:])

    def over(self, game: Game, battle: Battle) -> None:
        if battle.end_of_phase:  # the AR of GG-IX.B done: the stacking check (GG-XII.B), then the step ends
            close_step(game, Side(battle.side).enemy)


def battle_rules(c: Charts) -> FirstAlameinBattle:
    """The battle rules read from the charts: who sets how far each code retreats, and what the loser may add."""
    return FirstAlameinBattle(
        winner_retreats={code: e.distance for code, e in c.effects.items() if e.distance},
        voluntary={code: e.voluntary for code, e in c.effects.items() if e.voluntary},
        retreating=frozenset(code for code, e in c.effects.items() if e.moves),
        closing_why="spent next to unspent enemy units nobody attacked, they take an AR, GG-IX.B",
        no_retreat_means="units under orders do not retreat: an R1 leaves them spent where they stand (S), an R2 eliminates them (DE)",
        clauses={
            "declare": "GG-XIV.A.4",
            "resolve": "GG-XIV.C.1",
            "minimum": "FA-CRT.1",
            "no-retreat": "FA-CRT.7",
            "retreat": "GG-XIV.D.1",
            "route": "GG-XIV.D.2",
        },
    )


NO_RETREAT_EFFECT = {"S": "leaves it spent where it stands", "DE": "eliminates it"}  # FA-CRT.7


# --- the attack step's duties ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FirstAlameinDuties(Duties):
    """GG-XIV.A.2 and IX.B as 1st Alamein plays them."""

    def able(self, game: Game, side: Side, busy: Set[str], include_exempt: bool) -> dict[Hex, list[str]]:
        """Units that may still attack: unspent, not yet used, not in a declared attack; Allied units in a box
        held at the start of the Allied player-turn owe no attack (GG-XIV.A.2), so they count only with
        ``include_exempt``."""
        kept = _ABLE.get(game, (side, frozenset(busy), include_exempt), lambda: self._able(game, side, busy, include_exempt))
        return {h: list(units) for h, units in kept.items()}

    def _able(self, game: Game, side: Side, busy: Set[str], include_exempt: bool) -> dict[Hex, tuple[str, ...]]:
        if busy:  # those able with none busy, less the busy ones (the duties ask with each candidate group busy)
            every = _ABLE.get(game, (side, frozenset[str](), include_exempt), lambda: self._able(game, side, frozenset(), include_exempt))
            return {h: left for h, units in every.items() if (left := tuple(u for u in units if u not in busy))}
        held = pos.zoc_exempt(game, side) if side is Side.ALLIED and not include_exempt else set()
        committed = {u for a in pending(game) for u in a.attackers}
        able: dict[Hex, list[str]] = {}
        for uid, h in pos.on_map(game, side):
            u = family_unit(game, uid)
            if not (u.disrupted or u.attacked or uid in committed or h in held):
                able.setdefault(h, []).append(uid)
        return {h: tuple(units) for h, units in able.items()}

    def threatens(self, game: Game, uid: str, attacked: Set[str]) -> bool:
        return not family_defs(game)[uid].is_air and not family_unit(game, uid).disrupted and uid not in attacked

    def can_declare(self, game: Game, order: Attack, side: Side) -> bool:
        try:
            return cb.odds(game, order, side).column is not None
        except IllegalOrderError:
            return False


DUTIES = FirstAlameinDuties()


def check_declaration(game: Game, order: Attack, side: Side) -> None:
    """Whether an attack may be declared now: its units and hexes (GG-XIV.A), odds on the table (FA-CRT.1), and
    no due hex left with nobody able to attack it (GG-XIV.A.2).  Kept per board: the listing, each step of the
    declaration being made and the declaration itself ask it."""
    _DECLARATION.check(game, (order, side), lambda: _check_declaration(game, order, side))


def _check_declaration(game: Game, order: Attack, side: Side) -> None:
    a = cb.odds(game, order, side)
    if a.column is None:
        raise cb.refuse_below(a.attack, a.defence)
    stranded = strands_a_duty(game, order, side, DUTIES)
    if stranded is not None:
        raise IllegalOrderError(
            "GG-XIV.A.2",
            f"this would leave {stranded}, which must be attacked, with no unit able to attack it: include it or keep units for it",
        )


def suggestions(game: Game, side: Side) -> list[Attack]:
    """Whole declarations worth a look (the strongest group, each stack, each unit against each enemy hex); kept per
    board (an attack being made and abandoned comes back to the same board)."""
    kept = _SUGGESTIONS.get(
        game, side, lambda: tuple(suggested_attacks(game, side, DUTIES, lambda order: check_declaration(game, order, side)))
    )
    return list(kept)


# answers kept per board: the listing and the play of each small action of a declaration ask the same
_NO_RETREAT_OPTIONS: Cache[tuple[tuple[str, ...], ...]] = Cache("first-alamein.no-retreat-options", BOARD)
_ABLE: Cache[dict[Hex, tuple[str, ...]]] = Cache("first-alamein.able-attackers", BOARD)
_DECLARATION: Cache[None] = Cache("first-alamein.declaration", BOARD)
_SUGGESTIONS: Cache[tuple[Attack, ...]] = Cache("first-alamein.suggestions", BOARD)


def due_ar(game: Game, side: Side) -> dict[str, list[Hex]]:
    """GG-IX.B: the spent units next to unspent enemy units nobody attacked, which retreat as the attack step ends
    (none once those retreats are done), each with the hexes of those enemy units."""
    if alamein_vars(game).closing_retreats == game.step.key:
        return {}
    return exposed(game, side, DUTIES)


def ending_costs(game: Game, side: Side) -> str:
    """What ending the attack step now costs the side: the AR of :func:`due_ar`, in words."""
    due = due_ar(game, side)
    return f"{', '.join(due)}: spent next to enemy units nobody attacked, so they must retreat (AR, GG-IX.B)" if due else ""


def end_of_attacks(game: Game, side: Side) -> bool:
    """GG-IX.B: spent units next to unspent enemy units nobody attacked take an AR as the step ends; ``True``
    if those retreats were started (the step closes when they are done)."""
    threatened = due_ar(game, side)
    alamein_vars(game).closing_retreats = game.step.key
    if not threatened:
        return False
    game.log(f"{', '.join(threatened)}: spent next to unattacked enemy units, AR (GG-IX.B).")
    closing_retreats(game, side, threatened, "AR")
    return True
