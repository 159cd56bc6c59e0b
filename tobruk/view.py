"""What one side may see: the only thing a client or a computer player is given.

Hidden units (face down) of the other side appear as "a unit" in their hex: no id, name,
type, factors, or dummy flag, only an anonymous id (the system's :meth:`~tobruk.engine.system.System.seen_units`), all
with the same fields and listed last, by hex and anonymous id, so neither their order nor their
content tells one from another.  While the other side places face-down counters (its set-up, a
siege) they are shown as they were before.  The log and the dice are the side's own reading
(:meth:`Game.log_for`, :meth:`Game.rolls_for`).  The system's turn notes (the weather, the date) are what
the game log form records for both players; the summary is given once the game is over, when everything is
shown.
Nothing is hidden by the browser or the player; it is left out here.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from types import MappingProxyType
from typing import Any

from tobruk.board.hexes import Hex
from tobruk.board.units import UnitDef
from tobruk.engine.caching import FIXED, Cache, Dependency, side_units
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.state import ELIMINATED, HIDDEN, Units, UnitState
from tobruk.engine.system import System


def unit_data(d: UnitDef, u: UnitState) -> dict[str, Any]:
    """A unit's entry in a view: what its counter prints and its state (every status its system declares, its steps
    and the system's numbers)."""
    data = _printed(d).copy()
    data["flags"] = sorted(d.flags)
    data["hex"] = u.hex.label if u.hex else None
    data["steps"] = u.steps
    data.update(u.numbers)
    data.update(u.status)
    return data


def _row_key(units: Units, i: int) -> tuple[int, ...]:
    """Everything a unit's entry is made of, from its row of the arrays: hex, status bits, steps, the numbers."""
    if units.numbers:
        return (units.hex[i], units.flags[i], units.steps[i], *(n[i] for n in units.numbers))
    return (units.hex[i], units.flags[i], units.steps[i])


def _live_entry(game: Game, d: UnitDef, i: int) -> dict[str, Any]:
    """:func:`unit_data` of the unit in row ``i`` of the arrays, from the entries kept per row (see :func:`_kept`)."""
    key = _row_key(game.state.units, i)
    kept = _kept(game)[i]
    entry = kept.get(key)
    if entry is None:
        entry = kept[key] = _entry_afresh(game, d, i)
    data = entry.copy()
    data["flags"] = list(entry["flags"])
    return data


def _kept(game: Game) -> list[dict[tuple[int, ...], dict[str, Any]]]:
    """The unit entries made so far, one dict per row of the arrays keyed by all an entry is made of (:func:`_row_key`),
    kept for the game (:data:`_VIEW_ENTRIES`): a view has an entry for every unit, so this is the view's largest
    part, and each view gets a copy with its own list of flags."""
    return _VIEW_ENTRIES.get(game, None, lambda: [{} for _ in game.unit_ids])


def _rows(game: Game, side: Side) -> tuple[tuple[tuple[int, UnitDef], ...], tuple[tuple[int, UnitDef], ...]]:
    """The rows of the arrays (the order of battle) and the counters of ``side``'s units and of the enemy's, worked
    out once per game."""

    def work() -> tuple[tuple[tuple[int, UnitDef], ...], tuple[tuple[int, UnitDef], ...]]:
        rows = tuple(enumerate(game.defs.values()))
        return tuple((i, d) for i, d in rows if d.side is side), tuple((i, d) for i, d in rows if d.side is not side)

    return _VIEW_ROWS.get(game, side, work)


def _entry_afresh(game: Game, d: UnitDef, i: int) -> dict[str, Any]:
    units = game.state.units
    j, f = units.hex[i], units.flags[i]
    data = _printed(d).copy()
    data["flags"] = sorted(d.flags)
    data["hex"] = None if j < 0 else game.scenario.map.hexes[j].label
    data["steps"] = units.steps[i]
    for name, values in zip(game.unit_view.numbers, units.numbers, strict=True):
        data[name] = values[i]
    for b, name in enumerate(game.unit_view.statuses):
        data[name] = bool(f & (1 << b))
    return data


_PRINTED: dict[int, tuple[UnitDef, dict[str, Any]]] = {}


def _printed(d: UnitDef) -> dict[str, Any]:
    """The fields of a unit's entry that its counter prints, in the entry's order, worked out once per counter
    (kept under the counter's identity with the counter itself, so the id cannot stand for another);
    :func:`unit_data` copies this and fills in the rest, so the dict handed out is always a new one."""
    kept = _PRINTED.get(id(d))
    if kept is None or kept[0] is not d:
        if len(_PRINTED) >= 4096:
            _PRINTED.clear()
        kept = _PRINTED[id(d)] = (d, _printed_afresh(d))
    return kept[1]


def _printed_afresh(d: UnitDef) -> dict[str, Any]:
    """What every counter prints, then what its system's counter prints (:meth:`UnitDef.printed`)."""
    return {
        "id": d.id,
        "name": d.name,
        "side": d.side.value,
        "nationality": d.nationality,
        "kind": d.kind,
        "factors": d.factors,
        **d.printed(),
        "flags": None,  # a new sorted list in each entry
        "formation": d.formation,
        "hex": None,  # the state's fields follow
    }


def seen_by_enemy(game: Game, side: Side) -> Mapping[str, tuple[Hex | None, bool, bool, str | None]]:
    """Every unit of ``side`` as its enemy sees it now (the system's :meth:`~tobruk.engine.system.System.seen_units`),
    kept while ``side``'s units and the variables stay as they are (the hook reads nothing else: while the enemy
    moves, a side's counters look the same): both views and the fuzzer's fog checks ask, at every position."""
    return _SEEN_BY_ENEMY.get(game, side, lambda: MappingProxyType(game.system.seen_units(game, side)))


def look_of(argument: int = 0, *, enemy: bool = False) -> Dependency:
    """How the units of the side given as the answer's ``argument``-th argument (or of its enemy) look to their
    enemy: everything :meth:`~tobruk.engine.system.System.seen_units` reads (the system's ``seen_key``)."""

    def token(game: Game, args: Any) -> Hashable:
        side: Side = args[argument] if isinstance(args, tuple) else args
        return game.system.seen_key(game, side.enemy if enemy else side)

    return Dependency(f"look_of({argument}{', enemy' if enemy else ''})", token)


LOOKS_KEPT = 512  # the sides' looks kept, then dropped all at once (and as many views' parts)
_SEEN_BY_ENEMY: Cache[Mapping[str, tuple[Hex | None, bool, bool, str | None]]] = Cache("seen-by-enemy", look_of(), size=LOOKS_KEPT)
_VIEW_ENTRIES: Cache[list[dict[tuple[int, ...], dict[str, Any]]]] = Cache("view-entries", FIXED)
_VIEW_ROWS: Cache[tuple[tuple[tuple[int, UnitDef], ...], tuple[tuple[int, UnitDef], ...]]] = Cache("view-rows", FIXED)
_OWN_ENTRIES: Cache[tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]] = Cache("own-entries", side_units(), size=LOOKS_KEPT)
_ENEMY_ENTRIES: Cache[tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]] = Cache(
    "enemy-entries", look_of(enemy=True), size=LOOKS_KEPT
)


def face_down_entry(side: Side, h: Hex, anon: str) -> dict[str, Any]:
    """An enemy counter the side cannot see: the same fields for every one, dummy or unit."""
    return {"side": side.value, "hex": h.label, "hidden": True, "anon": anon}


def units_seen(game: Game, side: Side) -> list[dict[str, Any]]:
    """The side's own units, then the enemy's face-up units, then the enemy's face-down counters (each entry a new
    dict: the entries are kept per side and look, see :func:`_entries`, and copied out)."""
    if game.is_over:
        return [_live_entry(game, d, i) for i, d in enumerate(game.defs.values())]
    mine, _ = _entries(game, side, True)
    theirs, face_down = _entries(game, side, False)
    out: list[dict[str, Any]] = []
    for entry in (*mine, *theirs):
        data = entry.copy()
        data["flags"] = list(entry["flags"])
        out.append(data)
    out.extend(dict(e) for e in face_down)
    return out


def _entries(game: Game, side: Side, own: bool) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    """The entries of ``side``'s view of its own units (``own``) or of the enemy's (face up, then face down), not to
    be changed: kept while the units they show look the same (its own units' rows; the enemy's look, as
    :func:`seen_by_enemy` keeps it), so a view after the enemy's action makes only the enemy's part again."""
    return (_OWN_ENTRIES if own else _ENEMY_ENTRIES).get(game, side, lambda: _entries_afresh(game, side, own))


def _entries_afresh(game: Game, side: Side, own: bool) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    units = game.state.units
    at, flags = units.hex, units.flags
    kept = _kept(game)
    hexes = game.scenario.map.hexes
    mine, theirs = _rows(game, side)
    seen = seen_by_enemy(game, side.enemy) if not own else None
    out: list[dict[str, Any]] = []
    face_down: list[tuple[Hex, str, dict[str, Any]]] = []
    for i, d in mine if own else theirs:
        j, f = at[i], flags[i]
        if seen is not None:
            h, hidden, eliminated, anon = seen[d.id]
            if hidden:
                if h is not None and not eliminated and anon is not None:
                    face_down.append((h, anon, face_down_entry(d.side, h, anon)))
                continue
            if d.is_dummy:
                continue  # a revealed dummy is simply gone
        key = _row_key(units, i)
        entry = kept[i].get(key)
        if entry is None:
            entry = kept[i][key] = _entry_afresh(game, d, i)
        if seen is not None:
            actual = hexes[j] if j >= 0 else None
            if (h is not actual and h != actual) or eliminated != bool(f & ELIMINATED) or f & HIDDEN:
                # as it was before the phase the enemy cannot follow
                entry = entry.copy()
                entry["hex"], entry["hidden"], entry["eliminated"] = None if h is None else h.label, False, eliminated
        out.append(entry)
    face_down.sort(key=lambda x: (x[0], x[1]))
    return tuple(out), tuple(e for _, _, e in face_down)


def view(game: Game, side: Side) -> dict[str, Any]:
    """The position as ``side`` sees it, as plain JSON-ready data (the system adds its own part)."""
    units = units_seen(game, side)
    if type(game.system).status_reasons is not System.status_reasons:
        for u in units:  # (a face-down enemy counter's entry has no id: nothing of its statuses is shown)
            if u.get("id") and (why := game.system.status_reasons(game, u["id"])):
                u["why"] = why
    decision = game.decision
    step = game.step
    return {
        "scenario": game.scenario.name,
        "title": game.scenario.title,
        "system": game.system.name,
        "side": side.value,
        "turn": game.turn,
        "turns": game.scenario.turns,
        "turn_name": game.scenario.turn_name(game.turn),  # "Turn 3", or the turn as a system's track names it
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
