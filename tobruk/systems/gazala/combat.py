"""Ground combat in The Gazala Gallop (GG-XIV, with GG-IX and GG-XI's combat effects).

An attack is declared (``attack G8 with 15Pz,21Pz``), may be cancelled, and is resolved when the
attacker says so: the defender answers No Retreat!, the die is rolled and read on the 2016 GCRT
(``data/charts/gazala-gallop.toml``), the result is converted for boxes and forts, No Retreat!
orders and the special survivability of two units, and the retreats follow as decisions of the
winner (how far) and the loser (where).  :func:`assess` gives the odds with every modifier and
:func:`outcomes` the exact probability of each result, before anything is rolled.

Factors are counted in halves (``2`` is one factor), so halved units and halved attacks down a
towering escarpment stay exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.board.maps import Feature, Terrain
from tobruk.engine import chance
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.chance import Outcome, labelled
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.loading.datafile import Table
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import Effect
from tobruk.mechanics.counters import UnitType, family_defs, family_unit
from tobruk.mechanics.odds import ColumnTable, RatioTable, read_column_table, read_ratio_table
from tobruk.mechanics.retreat import RetreatGround
from tobruk.mechanics.retreat import retreat_paths as paths_of_retreat
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

INFANTRY_TYPES = frozenset({UnitType.INFANTRY, UnitType.MOTORIZED})  # GG-XI.0: infantry or motorized infantry
SOFT_TYPES = frozenset({UnitType.INFANTRY, UnitType.MOTORIZED, UnitType.RECCE, UnitType.AA, UnitType.ARTILLERY})


@dataclass(frozen=True)
class Charts:
    """The Gazala Gallop's charts (``charts.toml`` in this package): the GCRT, the terrain bonuses, the air table."""

    gcrt: RatioTable
    air: ColumnTable
    box_bonus: int
    escarpment_defence: int
    escarpment_attack: int
    hill_ridge_defence: int

    @property
    def columns(self) -> tuple[str, ...]:
        return self.gcrt.columns

    def result(self, die: int, column: int) -> str:
        return self.gcrt.result(die, column)

    def air_result(self, die: int, column: str) -> str:
        return self.air.result(die, column)


GCRT_CODES = frozenset({"DE", "R2", "R1", "D", "-", "AR", "DAR", "DAE", "AE"})  # GG-XIV.C.3
# a unit unable to retreat this many hexes on this result is eliminated, whatever distance the winner names: R2
# (the No Retreat! situation, GG-XIV.D.3 "unable to retreat 2 hexes"), AR (GG-IX.B "if it cannot retreat")
FULL_RETREAT = {"R2": 2, "AR": 1}
RETREAT_BARRIERS = frozenset({Feature.TOWERING_ESCARPMENT})  # GG-XI.D: crossed only by a road or track
AIR_CODES = frozenset({"D", "-", "EAX", "Int", "AA", "AAg", "Flak", "4thAA", "4thAA/Flak"})  # GG-X.C
AIR_COLUMNS = ("allied-box", "allied", "axis", "british-air", "german-air")  # the targets of GG-X.C


def read_charts(t: Table) -> Charts:
    """The GCRT, terrain bonuses and air table from a charts file; a malformed one is refused naming the field."""
    if t.str("format") != "tobruk-charts":
        raise t.error("format", 'expected "tobruk-charts"')
    if t.int("version") != 1:
        raise t.error("version", "expected 1")
    terrain = t.table("terrain")
    air = t.table("air")
    air_columns = tuple(air.strings("columns"))
    if sorted(air_columns) != sorted(AIR_COLUMNS):
        raise air.error("columns", f"expected the columns {', '.join(AIR_COLUMNS)}")
    charts = Charts(
        read_ratio_table(t.table("gcrt"), codes=GCRT_CODES),
        read_column_table(air, codes=AIR_CODES),
        terrain.int("box_bonus"),
        terrain.int("escarpment_defence"),
        terrain.int("escarpment_attack"),
        terrain.int("hill_ridge_defence"),
    )
    terrain.done()
    t.done()
    return charts


def chart(game: Game) -> Charts:
    """The charts of the game's system instance (loaded once per system, not per module)."""
    charts: Charts = game.system.charts  # type: ignore[attr-defined]
    return charts


def column_for(game: Game, attack2: int, defence2: int) -> int | None:
    """GG-XIV.B.3-4: the column nearest to but not above attack:defence; 10:1 at most; None below 1:4."""
    return chart(game).gcrt.column_for(attack2, defence2)


# --- the assessment of an attack ---------------------------------------------------------------------
@dataclass
class Assessment:
    """Everything about a declared attack before the die: strengths, modifiers, odds column."""

    attackers: dict[str, int]
    defenders: tuple[str, ...]
    defending_hexes: tuple[Hex, ...]
    attack_hexes: tuple[Hex, ...]
    attack2: int
    defence2: int
    basic_column: int | None
    column: int | None
    disrupted_shift: bool
    towering: frozenset[str]
    box_hexes: frozenset[Hex]
    hex_defence2: dict[Hex, int]
    lines: list[str] = field(default_factory=list)
    factors: dict[str, Fraction] = field(default_factory=dict)  # each defender's terrain-modified factors

    odds: str = "below 1:4"


def _half(n2: int) -> str:
    return f"{n2 // 2}" if n2 % 2 == 0 else f"{n2 / 2:g}"


def own_forts(game: Game, side: Side) -> set[Hex]:
    gone = set(gazala_vars(game).boxes_eliminated)
    return {h for h, s in game.scenario.map.fortifications.items() if s is side and h.label not in gone}


def may_combine(game: Game, hexes: Iterable[Hex]) -> bool:
    """Whether units in ``hexes`` may attack together: in a sandstorm only one hex's units may (GG-VIII.A.3)."""
    return gazala_vars(game).weather != "sandstorm" or len(set(hexes)) <= 1


def units_in(game: Game, h: Hex, side: Side) -> list[str]:
    return [u for u in game.units_at(h, side) if not family_defs(game)[u].is_air]


def assess(game: Game, order: Attack, side: Side, declared: int | None = None) -> Assessment:
    """Check a declaration against GG-XIV.A, XI.D and VIII.A.3 and work out its odds (GG-XIV.B, IX.C, XI), with a
    line for every modifier and each defender's terrain-modified factors.

    ``declared``: the number of the declared attack being assessed again (its units are not "busy").
    """
    return _assess(game, order, side, declared, explain=True)


@dataclass(frozen=True, slots=True)
class Odds:
    """An attack's strengths and odds column alone (factors in halves), what the listing, the duties and the checks
    read: :func:`odds` keeps it per board."""

    attack2: int
    defence2: int
    column: int | None
    label: str


def odds(game: Game, order: Attack, side: Side, declared: int | None = None) -> Odds:
    """:func:`assess` without the lines and the defenders' factors (the same checks, refusals and odds: both are
    :func:`_assess`), kept per board (:data:`_ODDS`): the listing, the duties
    and the play of an attack ask it of the same declarations again and again."""

    def work() -> Odds:
        a = _assess(game, order, side, declared, explain=False)
        return Odds(a.attack2, a.defence2, a.column, a.odds)

    return _ODDS.check(game, (order, side, declared), work)


_ODDS: Cache[Odds] = Cache("gazala.odds", BOARD)  # (a refusal kept as its clause and reason, raised afresh)


def _assess(game: Game, order: Attack, side: Side, declared: int | None, *, explain: bool) -> Assessment:
    """The checks and the odds; ``explain``: also the lines and the defenders' terrain-modified factors."""
    m = game.scenario.map
    used = dict(order.partial)
    attackers: dict[str, int] = {}
    if not order.attackers:
        raise IllegalOrderError("GG-XIV.A.4", "an attack needs at least one attacking unit")
    if len(set(order.attackers)) != len(order.attackers) or len(set(order.defenders)) != len(order.defenders):
        raise IllegalOrderError("GG-XIV.A.4", "a unit or hex is named twice")
    pending = {u for a in gazala_vars(game).attacks if not a.resolved and a.id != declared for u in a.attackers}
    for uid in order.attackers:
        d = family_defs(game).get(uid)
        if d is None or d.side is not side or d.is_dummy or d.is_air:
            raise IllegalOrderError("GG-XIV.A.1", f"{uid!r} is not one of your ground units")
        u = family_unit(game, uid)
        if u.eliminated or u.hex is None:
            raise IllegalOrderError("GG-XIV.A.1", f"{uid} is not on the map")
        if u.attacked:
            raise IllegalOrderError("GG-XIV.A.1", f"{uid} has already attacked this turn")
        if uid in pending:
            raise IllegalOrderError("GG-XIV.A.6", f"{uid} is already in a declared attack: cancel that one first")
        if u.disrupted:
            raise IllegalOrderError("GG-XIV.A.3", f"{uid} is disrupted and may not attack")
        if d.side is Side.ALLIED and not u.activated:
            raise IllegalOrderError("GG-V.A.2", f"{uid} has not been activated")
        factor = used.get(uid, d.attack)
        if not 1 <= factor <= d.attack:
            raise IllegalOrderError("GG-XIV.B.1", f"{uid} can attack with 1 to {d.attack} factors, not {factor}")
        attackers[uid] = factor
    for uid in used:
        if uid not in attackers:
            raise IllegalOrderError("GG-XIV.B.1", f"{uid} has factors given but is not attacking")
    defenders: list[str] = []
    for h in order.defenders:
        here = units_in(game, h, side.enemy)
        if not here:
            raise IllegalOrderError("GG-XIV.A.2", f"{h} holds no enemy units")
        defenders.extend(here)
    attack_hexes = tuple(sorted({where for u in attackers if (where := family_unit(game, u).hex) is not None}))
    for a in attack_hexes:
        for h in order.defenders:
            if not a.is_adjacent(h):
                raise IllegalOrderError("GG-XIV.A.4", f"every attacker must be next to every defending hex: {a} is not next to {h}")
            tow = m.feature(a, h, Feature.TOWERING_ESCARPMENT)
            if tow is not None and tow.high == h:
                raise IllegalOrderError("GG-XI.D", f"{h} is atop a towering escarpment and cannot be attacked up it")
    if not may_combine(game, attack_hexes):
        raise IllegalOrderError("GG-VIII.A.3", "in a sandstorm attackers in different hexes may not combine")

    charts = chart(game)
    lines: list[str] = []
    defender_defs = [family_defs(game)[u] for u in defenders]
    attacker_defs = [family_defs(game)[u] for u in attackers]
    soft_defence = all(d.type in SOFT_TYPES and d.type is not UnitType.AA for d in defender_defs if not d.is_dummy)
    soft_attack = all(d.type in SOFT_TYPES and d.type is not UnitType.AA for d in attacker_defs)
    towering: set[str] = set()
    attack2 = 0
    for uid, factor in attackers.items():
        d, at = family_defs(game)[uid], family_unit(game, uid).hex
        assert at is not None
        f2 = 2 * factor
        halved_aa = d.type is UnitType.AA and soft_defence  # GG-XIV.B.7
        if halved_aa:
            f2 //= 2
        down_towering = any((tw := m.feature(at, h, Feature.TOWERING_ESCARPMENT)) is not None and tw.high == at for h in order.defenders)
        if down_towering:  # GG-XI.D
            towering.add(uid)
            f2 //= 2
        attack2 += f2
        if explain:
            note = f"{uid} {factor}"
            if halved_aa:
                note += " halved (AA unit against infantry and motorized only)"
            if down_towering:
                note += " halved (attacking down a towering escarpment)"
            lines.append(note)
    for a in attack_hexes:  # GG-XI.C: +1 attacking down an escarpment, if matched
        down = any((e := m.feature(a, h, Feature.ESCARPMENT)) is not None and e.high == a for h in order.defenders)
        if not down:
            continue
        matched = sum(attackers[u] for u in attackers if family_unit(game, u).hex == a and family_defs(game)[u].type in INFANTRY_TYPES)
        if matched >= charts.escarpment_attack:
            attack2 += 2 * charts.escarpment_attack
            if explain:
                lines.append(f"+{charts.escarpment_attack} attacking down the escarpment from {a}")

    defence2 = 0
    hex_defence2: dict[Hex, int] = {}
    factors: dict[str, Fraction] = {}
    every_hex_disrupted = True
    boxes = own_forts(game, side.enemy)
    box_hexes = frozenset(h for h in order.defenders if h in boxes)
    for h in order.defenders:
        here = units_in(game, h, side.enemy)
        hex2 = 0
        unit2: dict[str, int] = {}
        for uid in here:
            d = family_defs(game)[uid]
            f2 = 2 * d.defence
            if d.type is UnitType.AA and soft_attack:  # GG-XIV.B.7
                f2 //= 2
                if explain:
                    lines.append(f"{uid} defends at half (AA unit against infantry and motorized only)")
            hex2 += f2
            unit2[uid] = f2
        matched = sum(family_defs(game)[u].defence for u in here if family_defs(game)[u].type in INFANTRY_TYPES)
        bonus = 0
        notes = []
        if h in boxes:
            bonus += charts.box_bonus
            notes.append(f"box/fort +{charts.box_bonus}")
        adjacent_attacks = [a for a in attack_hexes if a.is_adjacent(h)]
        up = [a for a in adjacent_attacks if (e := m.feature(a, h, Feature.ESCARPMENT)) is not None and e.high == h]
        if up and len(up) == len(adjacent_attacks):  # attacked up it and not flanked
            bonus += charts.escarpment_defence
            notes.append(f"escarpment +{charts.escarpment_defence}")
        ridge = any(m.feature(a, h, Feature.RIDGE) is not None for a in adjacent_attacks)
        if m.terrain[h] == Terrain.HILL or ridge:
            bonus += charts.hill_ridge_defence
            notes.append(f"{'hill' if m.terrain[h] == Terrain.HILL else 'ridge'} +{charts.hill_ridge_defence}")
        granted = min(bonus, matched)  # GG-XI.0: only as far as matched by infantry factors
        if bonus:
            if explain:
                lines.append(f"{h}: {', '.join(notes)}; matched by {matched} infantry factors: +{granted}")
            hex2 += 2 * granted
        hex_defence2[h] = hex2
        defence2 += hex2
        if explain:
            factors.update(terrain_modified(game, unit2, granted, matched))
        every_hex_disrupted = every_hex_disrupted and hex_disrupted(game, unit2, granted, matched)
    basic = column_for(game, attack2, defence2)
    shift = bool(order.defenders) and every_hex_disrupted  # GG-IX.C: every defending unit counts as disrupted
    column = None if basic is None else min(basic + (1 if shift else 0), len(charts.columns) - 1)
    if explain:
        lines.insert(0, f"attack {_half(attack2)} against defence {_half(defence2)}")
        if shift:
            lines.append("defenders disrupted: one column higher")
    return Assessment(
        attackers,
        tuple(defenders),
        tuple(order.defenders),
        attack_hexes,
        attack2,
        defence2,
        basic,
        column,
        shift,
        frozenset(towering),
        box_hexes,
        hex_defence2,
        lines,
        factors,
        "below 1:4" if column is None else charts.columns[column],
    )


def hex_disrupted(game: Game, unit2: dict[str, int], granted: int, matched: int) -> bool:
    """GG-IX.C (ruling R-TERRAIN): whether a defending hex counts as disrupted, its disrupted units holding at least
    half of its terrain-modified factors (:func:`terrain_modified`; here in whole numbers, every share scaled by
    twice the matching infantry factors, so no fractions are made), and the hex holding some."""
    scale = matched if matched else 1
    total = disrupted = 0
    for uid, f2 in unit2.items():
        d = family_defs(game)[uid]
        value = f2 * scale + (2 * granted * d.defence if d.type in INFANTRY_TYPES and matched else 0)
        total += value
        if family_unit(game, uid).disrupted:
            disrupted += value
    return total > 0 and 2 * disrupted >= total


def terrain_modified(game: Game, unit2: dict[str, int], granted: int, matched: int) -> dict[str, Fraction]:
    """Each defender's terrain-modified factors in one hex (GG-IX.C, XIV.B.5; ruling R-TERRAIN): the factors it
    defends with, plus the share of the hex's terrain bonus its infantry factors match (the bonus is matched by
    the infantry and motorized infantry in the hex, GG-XI.0, so it is shared among them by defence factor)."""
    out: dict[str, Fraction] = {}
    for uid, f2 in unit2.items():
        d = family_defs(game)[uid]
        share = Fraction(granted * d.defence, matched) if d.type in INFANTRY_TYPES and matched else Fraction(0)
        out[uid] = Fraction(f2, 2) + share
    return out


# --- results ----------------------------------------------------------------------------------------
def unit_effects(game: Game, a: Assessment, result: str, no_retreat: Iterable[str] = ()) -> dict[str, Effect]:
    """GG-XIV.C.3 with the conversions of GG-XI.A.1 (boxes, forts), XIV.B.5 (No Retreat!), XI.D (towering)."""
    nr = set(no_retreat)
    defender_part = {"DAR": "D", "DAE": "D", "AR": "-", "AE": "-"}.get(result, result)
    attacker_part = {"DAR": "AR", "DAE": "AE", "AR": "AR", "AE": "AE"}.get(result, "-")
    out: dict[str, Effect] = {}
    for uid in a.defenders:
        code, compulsory = defender_part, False
        if family_unit(game, uid).hex in a.box_hexes:  # GG-XI.A.1
            code, compulsory = {"R1": ("D", False), "R2": ("R1", True), "DE": ("R2", True)}.get(code, (code, False))
        if uid in nr:  # GG-XIV.B.5
            code = {"R1": "D", "R2": "DE"}.get(code, code)
        if (
            code == "DE"
            and "survivable" in family_defs(game)[uid].flags
            and uid not in nr
            and can_retreat(game, uid, FULL_RETREAT["R2"], a.attack_hexes)
        ):  # GG-XIV.D.5 (and D.3)
            code = "R2"
        out[uid] = Effect(code, compulsory)
    for uid in a.attackers:
        code = attacker_part
        if uid in a.towering:  # GG-XI.D: adverse results cancelled
            code = "-"
        out[uid] = Effect(code)
    return out


def outcome_label(game: Game, a: Assessment, result: str) -> str:
    """The result as the defender's hexes will feel it (box and fort conversions shown)."""
    if not a.box_hexes:
        return result
    effects = unit_effects(game, a, result)
    in_box = [effects[u] for u in a.defenders if family_unit(game, u).hex in a.box_hexes]
    e = in_box[0]
    # the attackers' results are named as they stand; the defenders' as the box converts them
    label = result if result in ("DAR", "DAE", "AR", "AE") else e.code + (" (compulsory)" if e.compulsory else "")
    return label if len(a.box_hexes) == len(a.defending_hexes) else f"{result} ({label} in the box)"


def combat_die(game: Game, order: Attack, side: Side, declared: int | None = None) -> tuple[Outcome, ...]:
    """GG-XIV.C: the battle's die, one six-sided die on the odds column, each face with the result it gives as the
    defender's hexes will feel it (the battle's chance node and the odds' outcome table read this one distribution).
    Refused, as the declaration is, when the attack may not be made (no column)."""
    a = assess(game, order, side, declared)
    if a.column is None:
        raise IllegalOrderError("GG-XIV.B.4", "the odds are below the lowest column")
    column = a.column
    return labelled(chance.die(6), [outcome_label(game, a, chart(game).result(face, column)) for face in range(1, 7)])


def no_retreat_options(game: Game, a: Assessment) -> list[tuple[str, ...]]:
    """GG-XIV.B.5: the sets of defending units that may be given No Retreat! orders (the empty set too).

    In each hex with such orders the ordered units must hold at least half its terrain-modified defence
    factors (ruling R-TERRAIN).
    """
    by_hex: dict[Hex, list[str]] = {}
    for uid in a.defenders:
        h = family_unit(game, uid).hex
        if h is not None and not family_defs(game)[uid].is_dummy:
            by_hex.setdefault(h, []).append(uid)
    per_hex: list[list[tuple[str, ...]]] = []
    for ids in by_hex.values():
        total = sum((a.factors[u] for u in ids), Fraction(0))
        choices: list[tuple[str, ...]] = [()]
        for k in range(1, len(ids) + 1):
            for combo in combinations(ids, k):
                if 2 * sum((a.factors[u] for u in combo), Fraction(0)) >= total:
                    choices.append(combo)
        per_hex.append(choices)
    options: list[tuple[str, ...]] = [()]
    for choices in per_hex:
        options = [(*o, *c) for o in options for c in choices]
    return sorted({tuple(sorted(o)) for o in options})


def needs_no_retreat_question(game: Game, a: Assessment) -> bool:
    """Ask only when some die result would make a defending unit retreat (else the answer is moot)."""
    if a.column is None:
        return False
    for die in range(1, 7):
        effects = unit_effects(game, a, chart(game).result(die, a.column))
        if any(effects[u].code in ("R1", "R2") for u in a.defenders):
            return True
    return False


# --- retreats ----------------------------------------------------------------------------------------
def retreat_paths(game: Game, uid: str, length: int, from_hexes: Sequence[Hex]) -> list[tuple[Hex, ...]]:
    """GG-XIV.D.2: the legal retreat routes of exactly ``length`` hexes for a unit, preferences applied.

    a-e are requirements; f (empty or least stacked) and then g (serviced by friendly supply) are preferences
    applied step by step among the routes that meet a-e (the family's mechanics.retreat).  Only a towering
    escarpment off a road or track bars a retreat; supply is traced "at that moment", with the unit gone
    from its hex.  Kept per board: the battle asks whether a unit can retreat, then lists its routes, then
    checks the one played, each after its frame has changed.
    """
    side = family_defs(game)[uid].side

    def work() -> tuple[tuple[Hex, ...], ...]:
        ground = RetreatGround(
            enemy_zoc=mv.enemy_zoc(game, side),
            friendly_boxes=own_forts(game, side),
            barriers=RETREAT_BARRIERS,
            supplied=lambda: sp.serviced(game, side, frozenset({uid})),
        )
        return tuple(paths_of_retreat(game, uid, length, from_hexes, ground))

    return list(_RETREAT_PATHS.get(game, (uid, length, tuple(from_hexes)), work))


_RETREAT_PATHS: Cache[tuple[tuple[Hex, ...], ...]] = Cache("gazala.retreat-paths", BOARD)


def can_retreat(game: Game, uid: str, length: int, from_hexes: Sequence[Hex]) -> bool:
    """Whether a unit could retreat ``length`` hexes now (GG-XIV.D.3, D.5, IX.B: "unable to retreat")."""
    return bool(retreat_paths(game, uid, length, from_hexes))


def combat_log_line(game: Game, a: Assessment, die: int, result: str, effects: dict[str, Effect]) -> str:
    hit = ", ".join(f"{u} {e.code}" for u, e in effects.items() if e.code != "-")
    return (
        f"Attack on {','.join(h.label for h in a.defending_hexes)} by {','.join(a.attackers)}: "
        f"{_half(a.attack2)} to {_half(a.defence2)}, {a.odds}; die {die}: {result}" + (f" ({hit})" if hit else "")
    )
