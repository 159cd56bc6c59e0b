"""What several of 1st Alamein's rules ask of the position: the units on the map, the boxes, the zones of
control, stacking, eliminations.

Boxes (FA-TER.2-3) follow The Gazala Gallop's box rules where the charts are silent (docs/rulings.md):
enemy ZOCs stay out of a box its side held at the start of its player-turn (GG-XI.A.3), and an unspent
enemy division standing in a box in its side's victory determination eliminates it (GG-XI.A.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.caching import POSITION, Cache, enemy_units
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import UnitType, family_defs, family_unit
from tobruk.mechanics.phases import StackingRules
from tobruk.mechanics.zoc import ZocMap, zoc_map
from tobruk.systems.first_alamein.charts import chart
from tobruk.systems.first_alamein.state import alamein_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

INFANTRY_TYPES = frozenset({UnitType.INFANTRY, UnitType.MOTORIZED})  # GG-XI.0: infantry or motorized infantry


def on_map(game: Game, side: Side) -> list[tuple[str, Hex]]:
    """The side's ground units on the board (no air units, nothing eliminated or still to arrive)."""
    return list(_ON_MAP.get(game, side, lambda: _on_map(game, side)))


def _on_map(game: Game, side: Side) -> tuple[tuple[str, Hex], ...]:
    defs = family_defs(game)
    return tuple((uid, h) for uid, h in game.placed(side) if not defs[uid].is_air)


def ground_units(game: Game, h: Hex, side: Side) -> list[str]:
    return [u for u in game.units_at(h, side) if not family_defs(game)[u].is_air]


def eliminate(game: Game, uid: str, why: str) -> None:
    u = family_unit(game, uid)
    u.eliminated = True
    u.hex = None
    u.disrupted = False
    game.log(f"{uid} is eliminated ({why}).", kind="loss")


# --- boxes ---------------------------------------------------------------------------------------------
def boxes(game: Game, side: Side) -> frozenset[Hex]:
    """The side's boxes still standing (GG-XI.A.5 eliminates them)."""
    gone = set(alamein_vars(game).boxes_eliminated)
    return frozenset(h for h, s in game.scenario.map.fortifications.items() if s is side and h.label not in gone)


def el_alamein_box(game: Game) -> frozenset[Hex]:
    """FA-TER.3: the El Alamein box's hex (the scenario names its zone)."""
    name = game.scenario.rules.get("el_alamein_box")
    return game.scenario.zone(name) if isinstance(name, str) else frozenset()


def boxes_held_now(game: Game, side: Side) -> list[Hex]:
    """The side's boxes its units stand in now."""
    return sorted({h for _, h in on_map(game, side)} & boxes(game, side))


def phasing_side(game: Game) -> Side | None:
    """Whose player-turn it is (``None`` in the set-up and the victory determinations)."""
    step = game.step
    return step.side if getattr(step, "in_player_turn", False) else None


def record_boxes_held(game: Game, side: Side) -> None:
    """GG-XI.A.3 reads the boxes held at the start of the side's player-turn: remember them then."""
    alamein_vars(game).boxes_held = {**alamein_vars(game).boxes_held, side.value: tuple(h.label for h in boxes_held_now(game, side))}


def zoc_exempt(game: Game, side: Side) -> set[Hex]:
    """GG-XI.A.3: the side's boxes the enemy's ZOC does not reach: in its own player-turn those it held at the
    start of it, in the enemy's those it holds now."""
    if phasing_side(game) is side:
        return {Hex.parse(h) for h in alamein_vars(game).boxes_held.get(side.value, ())}
    return set(boxes_held_now(game, side))


def enemy_zoc(game: Game, side: Side) -> ZocMap:
    """The ZOC of ``side``'s enemies as it applies to ``side``'s units now (spent units keep theirs, GG-IX.0)."""
    return _ENEMY_ZOC.get(game, side, lambda: _enemy_zoc(game, side))


def _enemy_zoc(game: Game, side: Side) -> ZocMap:
    # kept under the enemy's units and the exempt boxes: built once while the enemy stands still
    exempt = frozenset(zoc_exempt(game, side))
    return _ZOC_MAP.get(game, (side, exempt), lambda: zoc_map(game.scenario.map, on_map(game, side.enemy), exempt))


# --- stacking (FA-STK.1, with GG-XII) ---------------------------------------------------------------
def stacking_problem(game: Game, uids: Sequence[str]) -> IllegalOrderError | None:
    """Why these units may not share a hex, or ``None``: one side only (GG-XII.A.1), 3 units of which at most
    2 division level (FA-STK.1; the Recce Gruppe is a brigade, as its counter says)."""
    defs = [family_defs(game)[u] for u in uids if not family_defs(game)[u].is_air]
    if len({d.side for d in defs}) > 1:
        return IllegalOrderError("GG-XII.A.1", "only one side's units may be in a hex")
    c = chart(game)
    if len(defs) > c.stack_units:
        return IllegalOrderError("FA-STK.1", f"at most {c.stack_units} units in a hex")
    if sum(d.is_division for d in defs) > c.stack_divisions:
        return IllegalOrderError("FA-STK.1", f"at most {c.stack_divisions} division-level units in a hex")
    return None


def overstacked(game: Game, side: Side) -> dict[Hex, list[str]]:
    """The side's hexes over the stacking limit, with their units."""
    return stacking_rules(game).overstacked(game, side)


def stacking_rules(game: Game) -> StackingRules:
    rules: StackingRules = game.system.stacking  # type: ignore[attr-defined]
    return rules


def make_stacking_rules(units: int, divisions: int) -> StackingRules:
    """FA-STK.1: ``units`` a hex, at most ``divisions`` division level (the Recce Gruppe a brigade, as its counter
    says); with GG-XII.B, the owner eliminates units over it at the end of his movement or attack step."""
    return StackingRules(
        units,
        divisions,
        "FA-STK.1",
        counts=lambda game, uid: not family_defs(game)[uid].is_air,
        division=lambda game, uid: family_defs(game)[uid].is_division,
        eliminate=eliminate,
        on_map=on_map,
    )


_ON_MAP: Cache[tuple[tuple[str, Hex], ...]] = Cache("first-alamein.on-map", POSITION)
_ENEMY_ZOC: Cache[ZocMap] = Cache("first-alamein.enemy-zoc", POSITION)
_ZOC_MAP: Cache[ZocMap] = Cache("first-alamein.zoc-map", enemy_units())
