"""Recovery and supply in 1st Alamein (FA-SEQ.2-3 steps 3 and 4, with The Gazala Gallop's GG-IX.E and XV).

The charts name the steps and nothing more, so the line is Gazala's (docs/rulings.md): from a road or track
connected to a friendly source, 7 MF, not through enemy units, an unspent enemy unit's ZOC, an enemy box
the enemy controls or a village he holds; through a spent enemy unit's ZOC at 1 MF more; always through
friendly-occupied hexes.  A box supplies the Allied units in it; a German brigade is supplied through a
German division in or next to its hex.  No truck convoys, no aerial supply (the FA sequence has neither).

Recovery comes first (step 3) and reads the status the side's last determination gave (the units'
out-of-supply bits); the determination (step 4) then sets it anew for the next game-turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.caching import POSITION, Cache
from tobruk.engine.sides import Side
from tobruk.mechanics.control import controllers
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.supply import MF, SupplyContext, SupplyTrace, entry_state, entry_steps, trace_all
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein.charts import chart
from tobruk.systems.first_alamein.state import alamein_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def sources(game: Game, side: Side) -> frozenset[Hex]:
    """The side's supply sources the enemy does not stand in."""
    hexes = game.scenario.map.supply_sources.get(side, ())
    return frozenset(h for h in hexes if not pos.ground_units(game, h, side.enemy))


def context(game: Game, side: Side) -> SupplyContext:
    """GG-XV.A.2's blocks and extra MF for ``side``'s lines now."""
    m = game.scenario.map
    friends = {h for _, h in pos.on_map(game, side)}
    enemies = {h for _, h in pos.on_map(game, side.enemy)}
    zoc = pos.enemy_zoc(game, side)
    blocking = {h for h, ids in zoc.units.items() if any(not family_unit(game, u).disrupted for u in ids)}
    enemy_boxes = {h for h in pos.boxes(game, side.enemy) if h in zoc}  # vacant ones: occupied ones are enemy hexes
    held = {h for h, s in controllers(game).items() if s is side.enemy}
    state = entry_state(m, friends, enemies | blocking | enemy_boxes | held, zoc.units.keys())
    return SupplyContext.of_steps(m, sources(game, side), entry_steps(m, state))


def trace(game: Game, side: Side) -> dict[Hex, SupplyTrace]:
    """Every hex a supply line of ``side`` reaches now (once per position)."""
    return _TRACE.get(game, side, lambda: trace_all(context(game, side), chart(game).supply_line * MF))


def status(game: Game, side: Side) -> dict[str, dict[str, Any]]:
    """Each of the side's units on the map as the position stands: in supply or not, how, the line's route."""
    return _STATUS.get(game, side, lambda: _status(game, side))


def _status(game: Game, side: Side) -> dict[str, dict[str, Any]]:
    found = trace(game, side)
    boxes = set(pos.boxes_held_now(game, side))
    units = pos.on_map(game, side)
    out: dict[str, dict[str, Any]] = {}
    for uid, h in units:
        entry: dict[str, Any] = {"hex": h.label, "supplied": False, "how": "out of supply", "route": []}
        if h in boxes:
            entry.update(supplied=True, how="in a box")  # GG-XV.A.1: a box supplies the units in it
        elif h in found:
            route = found[h].route
            entry.update(supplied=True, how=f"line from {route[0]}", route=[x.label for x in route])
        out[uid] = entry
    for uid, h in units:  # GG-XV.A.3: a German brigade through a German division in or next to its hex
        d = family_defs(game)[uid]
        if out[uid]["supplied"] or d.nationality != "german" or d.is_division:
            continue
        for other, oh in units:
            o = family_defs(game)[other]
            if o.nationality == "german" and o.is_division and out[other]["supplied"] and (oh == h or oh.is_adjacent(h)):
                out[uid].update(supplied=True, how=f"through {other}", route=[h.label, oh.label])
                break
    return out


def recover(game: Game, side: Side) -> None:
    """FA-SEQ.2-3 step 3 (GG-IX.E): spent units recover unless the last determination found them out of supply."""
    back = []
    for uid, _ in pos.on_map(game, side):
        u = family_unit(game, uid)
        if u.disrupted and not u.out_of_supply:
            u.disrupted = False
            back.append(uid)
    stuck = [u for u, _ in pos.on_map(game, side) if family_unit(game, u).disrupted]
    game.log(
        f"{side.display} recovery: "
        + (f"{', '.join(back)} recover" if back else "no unit recovers")
        + (f"; still spent (out of supply): {', '.join(stuck)}" if stuck else "")
        + "."
    )


def determine(game: Game, side: Side) -> None:
    """FA-SEQ.2-3 step 4: mark each unit in or out of supply until the side's next determination."""
    result = status(game, side)
    for uid, entry in result.items():
        family_unit(game, uid).out_of_supply = not entry["supplied"]
    alamein_vars(game).supply = {**alamein_vars(game).supply, side.value: result}
    out = [u for u, e in result.items() if not e["supplied"]]
    game.log(
        f"{side.display} supply: {len(result) - len(out)} units in supply" + (f", out of supply: {', '.join(out)}" if out else "") + ".",
        kind="supply" if out else "note",
    )


_TRACE: Cache[dict[Hex, SupplyTrace]] = Cache("first-alamein.supply-trace", POSITION)
_STATUS: Cache[dict[str, dict[str, Any]]] = Cache("first-alamein.supply-status", POSITION)
