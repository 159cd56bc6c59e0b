"""What one side may see: the only thing a client or a computer player is given.

Hidden units (face down) of the other side appear as "a unit" in their hex: no id, name,
type, factors, or dummy flag.  Nothing is hidden by the browser or the player; it is left
out here.
"""

from __future__ import annotations

from typing import Any

from tobruk.game import Game
from tobruk.sides import Side
from tobruk.units import UnitDef, UnitState


def unit_data(d: UnitDef, u: UnitState) -> dict[str, Any]:
    return {
        "id": d.id,
        "name": d.name,
        "side": d.side.value,
        "nationality": d.nationality,
        "echelon": d.echelon.value,
        "type": d.type.value,
        "factors": d.factors,
        "attack": d.attack,
        "defence": d.defence,
        "movement": d.movement,
        "tank": d.tank,
        "aa": d.aa.value,
        "flags": sorted(d.flags),
        "formation": d.formation,
        "hex": u.hex.label if u.hex else None,
        "disrupted": u.disrupted,
        "activated": u.activated,
        "hidden": u.hidden,
        "out_of_supply": u.out_of_supply,
        "moved": u.moved,
        "attacked": u.attacked,
        "eliminated": u.eliminated,
    }


def view(game: Game, side: Side) -> dict[str, Any]:
    """The position as ``side`` sees it, as plain JSON-ready data."""
    units: list[dict[str, Any]] = []
    for uid, d in game.defs.items():
        u = game.state.units[uid]
        if d.side is not side and u.hidden:
            if u.hex is not None and not u.eliminated:
                units.append({"side": d.side.value, "hex": u.hex.label, "hidden": True})
            continue
        if d.side is not side and d.is_dummy:
            continue  # a revealed dummy is simply gone
        units.append(unit_data(d, u))
    decision = game.decision
    supply = game.state.data.get("supply", {}).get(side.value, {})
    return {
        "scenario": game.scenario.name,
        "title": game.scenario.title,
        "side": side.value,
        "turn": game.turn,
        "turns": game.scenario.turns,
        "phase": game.phase.key,
        "phase_title": game.phase.title,
        "weather": game.state.weather,
        "over": game.is_over,
        "decision": None if decision is None else {
            "side": decision.side.value, "phase": decision.phase, "prompt": decision.prompt,
            "clause": decision.clause,
        },
        "legal_orders": game.legal_notation()
        if decision is not None and decision.side is side else [],
        "units": units,
        "dice": [{"purpose": r.purpose, "value": r.value} for r in game.dice.log],
        "log": list(game.state.log),
        "supply": {uid: {"supplied": e["supplied"], "how": e["how"], "route": e["route"]} for uid, e in supply.items()},
        "attacks": [dict(a) for a in game.state.data.get("attacks", []) if not a["resolved"]],
        "result": game.state.data.get("result"),
    }
