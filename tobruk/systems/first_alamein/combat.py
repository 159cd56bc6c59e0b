"""Ground combat arithmetic in 1st Alamein: the odds of an attack and what its result does to each unit.

:func:`assess` checks a declaration (GG-XIV.A, where the charts are silent) and works out its odds on the
GCRT (FA-CRT.1, GG-XIV.B.3-4) with the defence the terrain adds: an Allied box +2, the El Alamein box +3
(FA-TER.2-3), a depression, deir, ridge, hill or tel +1 for one infantry unit (FA-TER.4), all only as far as
matched by the infantry's factors in the hex; spent defenders read one column higher (GG-IX.C: when every
defending hex is spent, weighed with the terrain-modified factors).
:func:`unit_effects` turns the die's result into each unit's code (FA-CRT.2) with the conversions of No
Retreat! and of a unit unable to retreat (FA-CRT.7) and the survivability of the Recce Gruppe and 7th
Armoured Division (FA-CRT.8).  :func:`outcomes` gives the exact chances before the die.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine import chance
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.chance import Outcome, labelled
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import Effect, pending
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein.charts import chart
from tobruk.systems.first_alamein.retreat import retreat_paths

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass
class Assessment:
    """Everything about a declared attack before the die: strengths, terrain, odds column."""

    attackers: dict[str, int]
    defenders: tuple[str, ...]
    defending_hexes: tuple[Hex, ...]
    attack_hexes: tuple[Hex, ...]
    attack: int
    defence: int
    column: int | None
    spent_shift: bool
    lines: list[str] = field(default_factory=list)
    odds: str = "below 1:4"
    factors: dict[str, Fraction] = field(default_factory=dict)  # each defender's terrain-modified factors (R-TERRAIN)


def infantry_bonus(game: Game, h: Hex, defenders: Sequence[str], *, explain: bool = True) -> tuple[int, list[str]]:
    """The defence factors the hex adds to its defenders, matched by their infantry, with the reasons (none made
    unless ``explain``)."""
    c = chart(game)
    m = game.scenario.map
    side = family_defs(game)[defenders[0]].side
    bonus, notes = 0, []
    if side is Side.ALLIED and h in pos.boxes(game, Side.ALLIED):  # FA-TER.2-3 (never the enemy's box, GG-XI.A.2)
        worth = c.el_alamein_box_bonus if h in pos.el_alamein_box(game) else c.box_bonus
        bonus += worth
        if explain:
            notes.append(f"{'El Alamein box' if worth == c.el_alamein_box_bonus else 'box'} +{worth}")
    zones = [z for z in c.infantry_plus_one_zones if h in m.zones.get(z, frozenset())]
    if m.terrain[h] in c.infantry_plus_one_terrain or zones:  # FA-TER.4: +1 for the hex, one infantry unit's
        bonus += c.infantry_plus_one
        if explain:
            notes.append(f"{zones[0] if zones else m.terrain[h]} +{c.infantry_plus_one}")
    if not bonus:
        return 0, []
    matched = sum(family_defs(game)[u].defence for u in defenders if family_defs(game)[u].type in pos.INFANTRY_TYPES)
    granted = min(bonus, matched)
    if not explain:
        return granted, []
    return granted, [f"{h}: {', '.join(notes)}; matched by {matched} infantry factors: +{granted}"]


def modified_factors(game: Game, here: Sequence[str], granted: int) -> dict[str, Fraction]:
    """Each defender's terrain-modified factors (R-TERRAIN): its own, plus the share of the hex's bonus its
    infantry factors match (``granted``, shared among the infantry by defence factor)."""
    matched = sum(family_defs(game)[u].defence for u in here if family_defs(game)[u].type in pos.INFANTRY_TYPES)

    def modified(uid: str) -> Fraction:
        d = family_defs(game)[uid]
        share = Fraction(granted * d.defence, matched) if d.type in pos.INFANTRY_TYPES and matched else Fraction(0)
        return d.defence + share

    return {u: modified(u) for u in here}


def hex_spent(game: Game, here: Sequence[str], granted: int) -> bool:
    """GG-IX.C as docs/rulings.md reads it (R-TERRAIN): a defending hex counts as spent when its spent units hold at
    least half of its terrain-modified factors (:func:`modified_factors` with the hex's ``granted`` bonus; here in
    whole numbers, every factor scaled by the infantry's defence factors in the hex, so no fractions are made)."""
    infantry = [family_defs(game)[u].type in pos.INFANTRY_TYPES for u in here]
    matched = sum(family_defs(game)[u].defence for u, inf in zip(here, infantry, strict=True) if inf)
    scale = matched if matched else 1
    total = spent = 0
    for uid, inf in zip(here, infantry, strict=True):
        d = family_defs(game)[uid]
        value = d.defence * scale + (granted * d.defence if inf and matched else 0)
        total += value
        if family_unit(game, uid).disrupted:
            spent += value
    return 2 * spent >= total


def assess(game: Game, order: Attack, side: Side, declared: int | None = None) -> Assessment:
    """Check a declaration and work out its odds, with a line for every modifier and each defender's
    terrain-modified factors.  ``declared``: the number of the declared attack assessed again (its units are not
    "busy" in another attack)."""
    return _assess(game, order, side, declared, explain=True)


@dataclass(frozen=True, slots=True)
class Odds:
    """An attack's strengths and odds column alone: what the listing, the duties and the checks read (kept per board
    by :func:`odds`)."""

    attack: int
    defence: int
    column: int | None
    label: str


def odds(game: Game, order: Attack, side: Side, declared: int | None = None) -> Odds:
    """:func:`assess` without the lines and the defenders' factors (the same checks, refusals and odds: both are
    :func:`_assess`), kept per board (:data:`_ODDS`): the listing, the duties and
    the play of an attack ask it of the same declarations again and again."""

    def work() -> Odds:
        a = _assess(game, order, side, declared, explain=False)
        return Odds(a.attack, a.defence, a.column, a.odds)

    return _ODDS.check(game, (order, side, declared), work)


_ODDS: Cache[Odds] = Cache("first-alamein.odds", BOARD)  # (a refusal kept as its clause and reason, raised afresh)


def _assess(game: Game, order: Attack, side: Side, declared: int | None, *, explain: bool) -> Assessment:
    """The checks and the odds; ``explain``: also the lines and the defenders' terrain-modified factors."""
    used = dict(order.partial)
    if not order.attackers:
        raise IllegalOrderError("GG-XIV.A.4", "an attack needs at least one attacking unit")
    if len(set(order.attackers)) != len(order.attackers) or len(set(order.defenders)) != len(order.defenders):
        raise IllegalOrderError("GG-XIV.A.4", "a unit or hex is named twice")
    busy = {u for a in pending(game) if a.id != declared for u in a.attackers}
    attackers: dict[str, int] = {}
    for uid in order.attackers:
        d = family_defs(game).get(uid)
        if d is None or d.side is not side or d.is_air:
            raise IllegalOrderError("GG-XIV.A.1", f"{uid!r} is not one of your ground units")
        u = family_unit(game, uid)
        if u.eliminated or u.hex is None:
            raise IllegalOrderError("GG-XIV.A.1", f"{uid} is not on the map")
        if u.attacked:
            raise IllegalOrderError("FA-SEQ.1", f"{uid} has attacked already this game-turn")
        if uid in busy:
            raise IllegalOrderError("GG-XIV.A.6", f"{uid} is in another declared attack: cancel that one first")
        if u.disrupted:
            raise IllegalOrderError("GG-XIV.A.3", f"{uid} is spent and may not attack")
        factor = used.get(uid, d.attack)
        if not 1 <= factor <= d.attack:
            raise IllegalOrderError("GG-XIV.B.1", f"{uid} can attack with 1 to {d.attack} factors, not {factor}")
        attackers[uid] = factor
    for uid in used:
        if uid not in attackers:
            raise IllegalOrderError("GG-XIV.B.1", f"{uid} has factors given but is not attacking")
    defenders: list[str] = []
    for h in order.defenders:
        here = pos.ground_units(game, h, side.enemy)
        if not here:
            raise IllegalOrderError("GG-XIV.A.2", f"{h} holds no enemy units")
        defenders.extend(here)
    attack_hexes = tuple(sorted({where for u in attackers if (where := family_unit(game, u).hex) is not None}))
    for a in attack_hexes:
        for h in order.defenders:
            if not a.is_adjacent(h):
                raise IllegalOrderError("GG-XIV.A.4", f"every attacker must be next to every defending hex: {a} is not next to {h}")
    attack = sum(attackers.values())
    lines = [f"{uid} {f}" for uid, f in attackers.items()] if explain else []
    defence = 0
    every_hex_spent = bool(order.defenders)
    factors: dict[str, Fraction] = {}
    for h in order.defenders:
        here = pos.ground_units(game, h, side.enemy)
        bonus, notes = infantry_bonus(game, h, here, explain=explain)
        lines.extend(notes)
        defence += sum(family_defs(game)[u].defence for u in here) + bonus
        if explain:
            factors.update(modified_factors(game, here, bonus))
        every_hex_spent = every_hex_spent and hex_spent(game, here, bonus)
    c = chart(game)
    basic = c.gcrt.column_for(attack, defence)  # GG-XIV.B.3-4: nearest column not above, 10:1 at most
    shift = every_hex_spent  # GG-IX.C: spent defenders, one column higher
    column = None if basic is None else c.gcrt.shifted(basic, 1 if shift else 0)
    if explain:
        lines.insert(0, f"attack {attack} against defence {defence}")
        if shift:
            lines.append("defenders spent: one column higher")
    return Assessment(
        attackers,
        tuple(defenders),
        tuple(order.defenders),
        attack_hexes,
        attack,
        defence,
        column,
        shift,
        lines,
        "below 1:4" if column is None else c.gcrt.columns[column],
        factors,
    )


def refuse_below(attack: int, defence: int) -> IllegalOrderError:
    return IllegalOrderError("FA-CRT.1", f"attacks below 1:4 are not allowed ({attack} to {defence})")


# --- results ------------------------------------------------------------------------------------------
def can_retreat(game: Game, uid: str, hexes: int, away_from: Sequence[Hex]) -> bool:
    return bool(retreat_paths(game, uid, hexes, away_from))


def unit_effects(game: Game, a: Assessment, result: str, no_retreat: Iterable[str] = ()) -> dict[str, Effect]:
    """Each unit's code for a GCRT result (FA-CRT.2), with FA-CRT.7's and FA-CRT.8's conversions.

    In order: No Retreat! orders (R1 becomes S, R2 becomes DE); a unit that cannot retreat 2 hexes on an R2 is
    eliminated whatever distance the attacker will name (FA-CRT.3, 7); DE against a survivable unit becomes
    R2 unless it holds No Retreat! orders or cannot retreat 2 hexes (FA-CRT.8).
    """
    c = chart(game)
    nr = set(no_retreat)
    d_code, a_code = c.split(result)
    out: dict[str, Effect] = {}
    for uid in a.defenders:
        code = d_code
        if uid in nr:
            code = c.no_retreat.get(code, code)
        elif code == "R2" and not can_retreat(game, uid, 2, a.attack_hexes):
            code = c.no_retreat["R2"]
        if (
            code in c.survivable
            and "survivable" in family_defs(game)[uid].flags
            and uid not in nr
            and can_retreat(game, uid, 2, a.attack_hexes)
        ):
            code = c.survivable[code]
        out[uid] = Effect(code)
    for uid in a.attackers:
        out[uid] = Effect(a_code)
    return out


def combat_die(game: Game, order: Attack, side: Side, declared: int | None = None) -> tuple[Outcome, ...]:
    """FA-CRT.1: the battle's die, one six-sided die on the GCRT column, each face with its result (the battle's
    chance node and the odds' outcome table read this one distribution); refused when the odds are off the table."""
    a = assess(game, order, side, declared)
    if a.column is None:
        raise IllegalOrderError("FA-CRT.1", "the odds are below the lowest column")
    column = a.column
    return labelled(chance.die(6), [chart(game).gcrt.result(face, column) for face in range(1, 7)])


def no_retreat_options(game: Game, a: Assessment) -> list[tuple[str, ...]]:
    """GG-XIV.B.5: the sets of defending units that may be given No Retreat! orders (the empty set too); in
    each hex with orders the ordered units hold at least half its terrain-modified defence factors (ruling
    R-TERRAIN, as in The Gazala Gallop)."""
    by_hex: dict[Hex, list[str]] = {}
    for uid in a.defenders:
        h = family_unit(game, uid).hex
        if h is not None:
            by_hex.setdefault(h, []).append(uid)
    options: list[tuple[str, ...]] = [()]
    for ids in by_hex.values():
        total = sum((a.factors[u] for u in ids), Fraction(0))
        choices: list[tuple[str, ...]] = [()]
        for k in range(1, len(ids) + 1):
            choices.extend(combo for combo in combinations(ids, k) if 2 * sum((a.factors[u] for u in combo), Fraction(0)) >= total)
        options = [(*o, *ch) for o in options for ch in choices]
    return sorted({tuple(sorted(o)) for o in options})


def asks_no_retreat(game: Game, a: Assessment) -> bool:
    """The defender is asked only where some die would make the winner retreat a defending unit (R1, R2): the
    orders change nothing else he would want changed.  Asked of an attack on the table only (the battle checks it
    first)."""
    assert a.column is not None
    c = chart(game)
    return any(c.effect(c.split(c.gcrt.result(die, a.column))[0]).distance > 0 for die in range(1, 7))


def log_line(a: Assessment, n: int, die: int, result: str, effects: dict[str, Effect]) -> str:
    hit = ", ".join(f"{u} {e.code}" for u, e in effects.items() if e.code != "-")
    return (
        f"Attack {n} on {','.join(h.label for h in a.defending_hexes)} by {','.join(a.attackers)}: "
        f"{a.attack} to {a.defence}, {a.odds}; die {die}: {result}" + (f" ({hit})" if hit else "")
    )
