"""The Gazala Gallop's objectives as the faces mark them, and how far an enemy unit could move to one.

The objectives are the hexes GG-IV scores (the map rings each from the start, its rule in the legend), each with the
side that must keep the enemy off it: the Allied sudden victory hexes are the Axis's to guard (an Allied unit there
ends the game, GG-IV.A.1); the Gazala position's boxes, Tobruk, the Allied east-edge supply sources and the Supply Dump
are the Allies' (GG-IV.A.3, GG-IV.B.1-4).

The Allies' reinforcement (GG-VII.B) enters in their movement phase and may move in it (ruling R-REINF), so the Axis
is warned of it before it arrives (:func:`arrivals`).  An inactive Allied unit moves only once activated (GG-V.A.2),
two a turn and one more per Allied unit lost in the Axis player-turn (GG-V.A.4): the warning names those under that
condition (:func:`movement_condition`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.engine.system import Arrival, Condition, Objective
from tobruk.mechanics.counters import UnitType, family_defs, family_unit
from tobruk.mechanics.reach import MF, MoveContext, reach
from tobruk.mechanics.reinforcements import entry_turn, scheduled_arrivals
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game
    from tobruk.loading.scenario import Scenario


def objectives(scenario: Scenario) -> list[Objective]:
    """Every hex GG-IV names, in map order within each kind (a hex may count twice: a box that is also Tobruk)."""
    m, rules = scenario.map, scenario.rules
    out = [Objective(Hex.parse(h), "Allied sudden victory hex", "GG-IV.A.1", Side.AXIS) for h in rules.get("allied_sudden_victory", [])]
    out += [
        Objective(h, "Gazala position box", "GG-IV.A.3", Side.ALLIED)
        for h in sorted(m.zones.get("gazala-line", frozenset()))
        if h in m.fortifications
    ]
    if "tobruk" in rules:
        out.append(Objective(Hex.parse(rules["tobruk"]), "Tobruk", "GG-IV.B.1-2", Side.ALLIED))
    east = sorted(set(m.supply_sources.get(Side.ALLIED, ())) & m.edge("east"))
    out += [Objective(h, "Allied east-edge supply source", "GG-IV.B.3", Side.ALLIED) for h in east]
    out += [Objective(h, "Allied Supply Dump", "GG-IV.B.4", Side.ALLIED) for h in sorted(m.zones.get("supply-dump", frozenset()))]
    return out


def movement_reach(game: Game, uid: str, start: Hex) -> frozenset[Hex]:
    """Where ``uid`` could end its next move from ``start`` at the most: in clear weather (the next game-turn's is not
    rolled yet; a storm only slows, GG-VIII), undisrupted (it may recover first, GG-IX), infantry also on a truck
    convoy (GG-XIII.A.2c), with the bonus MF (GG-XIII.C), against the ZOC and units of its enemy as they stand.  The
    Gallop (GG-XIII.E) is left out: it flees east, away from every hex the Allies could threaten with it.  Air units
    and dummies move on no such search.  A box or fort already eliminated (GG-XI.A.5) is lost: not counted as taken."""
    d = family_defs(game)[uid]
    if d.is_air or d.is_dummy:
        return frozenset()
    zoc, enemies, friends, forts, tables = mv.side_parts(game, d.side)
    found: set[Hex] = set()
    for trucks in (False, True) if d.type is UnitType.INFANTRY else (False,):
        cls = mv.movement_class(d, trucks)
        ctx = MoveContext.of(
            map=game.scenario.map,
            side=d.side,
            start=start,
            rates=mv.RATES[cls],
            budget=(mv.CONVOY_MF if trucks else d.movement) * MF,
            bonus=MF,
            ascent=mv.ASCENT[cls],
            vehicle=cls != "foot",
            zoc=zoc,
            enemy_units=enemies,
            friendly_units=friends,
            enemy_forts=forts,
            clauses=mv.CLAUSES,
            tables=tables,
        )
        found.update(reach(ctx, game))
    found.discard(start)
    gone = {Hex.parse(h) for h in gazala_vars(game).boxes_eliminated}  # a box or fort eliminated is not to be taken again
    return frozenset(found - gone)


def arrivals(game: Game, side: Side) -> list[Arrival]:
    """GG-VII.B with ruling R-REINF: a reinforcement enters in its side's movement phase, on its turn or later, on a
    hex of its zone free of enemy units, already active, and may move in that phase with its full movement (entering
    costs none of it).  So the units due by the side's next movement phase count, from the hexes of their zone no
    enemy unit stands in now (ruling R-REINF-WARN)."""
    return scheduled_arrivals(game, side, f"{side.value}-movement")


def movement_condition(game: Game, uid: str) -> Condition | None:
    """GG-V.A.2 and A.4: an inactive Allied unit moves only if activated, and the Allies activate as many as they have
    activations left for their next movement phase: this game-turn's left while it is still to come, else the next
    game-turn's two (the losses that would add to them not yet suffered).  In the nonhistorical game the Allies may
    activate any of their units at any time (GG-V.B.2): no condition the warning need name."""
    d = family_defs(game)[uid]
    if d.side is not Side.ALLIED or d.is_air or d.is_dummy or family_unit(game, uid).activated or gazala_vars(game).nonhistorical:
        return None
    coming = entry_turn(game, "allied-movement") == game.turn  # (this game-turn's movement still to come)
    return Condition("if activated", "GG-V.A.4", max(0, mv.activations_left(game)) if coming else mv.ACTIVATIONS_PER_TURN)
