"""What one side may see: the only thing a client or a computer player is given.

Hidden units (face down) of the other side appear as "a unit" in their hex: no id, name,
type, factors, or dummy flag, only an anonymous id (the system's :meth:`~tobruk.engine.system.System.seen_unit`), all
with the same fields and listed last, by hex and anonymous id, so neither their order nor their
content tells one from another.  While the other side places face-down counters (its set-up, a
siege) they are shown as they were before.  The log and the dice are the side's own reading
(:meth:`Game.log_for`, :meth:`Game.rolls_for`).  The system's turn notes (the weather, the date) are what
the game log form records for both players; the summary is given once the game is over, when everything is
shown.
Nothing is hidden by the browser or the player; it is left out here.
"""

from __future__ import annotations

from typing import Any

from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState
from tobruk.hexes import Hex
from tobruk.units import UnitDef


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


def face_down_entry(side: Side, h: Hex, anon: str) -> dict[str, Any]:
    """An enemy counter the side cannot see: the same fields for every one, dummy or unit."""
    return {"side": side.value, "hex": h.label, "hidden": True, "anon": anon}


def units_seen(game: Game, side: Side) -> list[dict[str, Any]]:
    """The side's own units, then the enemy's face-up units, then the enemy's face-down counters."""
    if game.is_over:
        return [unit_data(d, game.unit(uid).value()) for uid, d in game.defs.items()]
    own = [unit_data(d, game.unit(uid).value()) for uid, d in game.defs.items() if d.side is side]
    face_up: list[dict[str, Any]] = []
    face_down: list[tuple[Hex, str, dict[str, Any]]] = []
    for uid, d in game.defs.items():
        if d.side is side:
            continue
        h, hidden, eliminated, anon = game.system.seen_unit(game, uid)
        if hidden:
            if h is not None and not eliminated and anon is not None:
                face_down.append((h, anon, face_down_entry(d.side, h, anon)))
            continue
        if d.is_dummy:
            continue  # a revealed dummy is simply gone
        u = game.unit(uid).value()
        if (h, eliminated) != (u.hex, u.eliminated) or u.hidden:  # as it was before the phase the enemy cannot follow
            u = u.copy()
            u.hex, u.hidden, u.eliminated = h, False, eliminated
        face_up.append(unit_data(d, u))
    return own + face_up + [e for _, _, e in sorted(face_down, key=lambda x: (x[0], x[1]))]


def view(game: Game, side: Side) -> dict[str, Any]:
    """The position as ``side`` sees it, as plain JSON-ready data (the system adds its own part)."""
    units = units_seen(game, side)
    decision = game.decision
    step = game.step
    return {
        "scenario": game.scenario.name,
        "title": game.scenario.title,
        "system": game.system.name,
        "side": side.value,
        "turn": game.turn,
        "turns": game.scenario.turns,
        "phase": step.key,
        "phase_title": step.title,
        "over": game.is_over,
        "decision": None
        if decision is None
        else {
            "side": decision.side.value,
            "phase": decision.phase,
            "prompt": decision.prompt,
            "clause": decision.clause,
        },
        "legal_orders": game.legal_notation() if decision is not None and decision.side is side else [],
        "units": units,
        "dice": [{"purpose": r.purpose, "value": r.value} for r in game.rolls_for(side)],
        "log": game.log_for(side),
        "result_lines": game.system.result_lines(game) if game.is_over else [],
        "notes": game.system.turn_notes(game),
        "summary": summary_data(game),
        **game.system.view(game, side),
    }


def summary_data(game: Game) -> dict[str, Any] | None:
    """The result once the game is over (everything is shown then): the winning side's value (``None`` for a
    draw), the level and the system's lines for people; ``None`` before the end."""
    summary = game.system.summary(game) if game.is_over else None
    if summary is None:
        return None
    return {"winner": summary.winner, "level": summary.level, "lines": list(summary.lines)}
