"""Victory in The Gazala Gallop (GG-IV, with the box elimination of GG-XI.A.5).

Each side's victory determination phase eliminates the enemy boxes and forts its undisrupted
divisions occupy; the Allied one checks the sudden victory on A5 or G1.  At the end of the game
both sides' Game Victory Points are listed line by line, and the difference gives the level.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

LEVELS = ((20, "Crushing Strategic Victory"), (14, "Strategic Victory"), (9, "Major Victory"), (4, "Tactical Victory"))
SUDDEN_GVP = 10


def rule(game: Game, key: str, default: Any = None) -> Any:
    return game.scenario.rules.get(key, default)


def eliminate_boxes(game: Game, side: Side) -> None:
    """GG-XI.A.5: enemy boxes and forts occupied by an undisrupted division of ``side`` are eliminated."""
    gone = gazala_vars(game).boxes_eliminated
    for h, owner in sorted(game.scenario.map.fortifications.items()):
        if owner is side or h.label in gone:
            continue
        if any(family_defs(game)[u].is_division and not family_unit(game, u).disrupted for u, at in mv.on_map(game, side) if at == h):
            gone = gazala_vars(game).boxes_eliminated = (*gone, h.label)
            game.log(f"{side.display}: the {'box' if owner is Side.ALLIED else 'fort'} in {h} is eliminated.", kind="loss")


def sudden_victory(game: Game) -> bool:
    """GG-IV.A.1: an Allied unit on A5 or G1 at the end of the Allied victory determination phase."""
    targets = {Hex.parse(h) for h in rule(game, "allied_sudden_victory", [])}
    there = sorted(h.label for _, h in mv.on_map(game, Side.ALLIED) if h in targets)
    if not there:
        return False
    gazala_vars(game).result = score(game, sudden=there[0])
    game.end_game(f"Allied sudden victory: an Allied unit stands on {there[0]}.")
    return True


def level(difference: Fraction) -> str:
    """GG-IV.C: more than 4 GVP a Tactical Victory, more than 9 Major, 14 Strategic, 20 Crushing Strategic."""
    for threshold, name in LEVELS:
        if difference > threshold:
            return name
    return "no victory (a draw)"


def tobruk_state(game: Game) -> str:
    """'taken', 'surrounded' or 'held' (ruling R-TOBRUK)."""
    label = rule(game, "tobruk")
    if label is None:
        return "held"
    tobruk = Hex.parse(label)
    if game.units_at(tobruk, Side.AXIS) or label in gazala_vars(game).boxes_eliminated:
        return "taken"
    if tobruk not in sp.trace(game, Side.ALLIED, east_only=True):
        return "surrounded"
    return "held"


def destroyed(game: Game, side: Side) -> list[str]:
    return [
        u
        for u in game.units_of(side)
        if family_unit(game, u).eliminated and not family_defs(game)[u].is_dummy and not family_defs(game)[u].is_air
    ]


Lines = list[tuple[str, Fraction]]


def score(game: Game, sudden: str | None = None) -> dict[str, Any]:
    """Both sides' GVP lines, the difference and the level (GG-IV)."""
    allied, axis, _, _ = _tally(game, sudden)
    return _result(game, allied, axis, sudden)


def missed(game: Game) -> dict[str, list[str]]:
    """What each side could have scored at the end and did not (GG-IV.A-B), by side: said with the result, so a
    player sees why he lost; nothing after a sudden victory, which ends the count."""
    result = gazala_vars(game).result
    if result is not None and result["sudden"]:
        return {"allied": [], "axis": []}
    _, _, allied, axis = _tally(game, None)
    return {"allied": allied, "axis": axis}


def _tally(game: Game, sudden: str | None) -> tuple[Lines, Lines, list[str], list[str]]:
    """Each side's GVP lines, and what it did not score (each objective of GG-IV.A-B that gave it nothing)."""
    allied: Lines = []
    axis: Lines = []
    allied_missed: list[str] = []
    axis_missed: list[str] = []
    if sudden is not None:
        allied.append((f"Allied unit on {sudden} (sudden victory)", Fraction(SUDDEN_GVP)))
    else:
        special = rule(game, "special_gvp", {})
        german = rule(game, "german_division_gvp", 5)
        for uid in destroyed(game, Side.AXIS):  # GG-IV.A.2
            d = family_defs(game)[uid]
            if uid in special:
                points = special[uid]
            elif d.nationality == "german" and d.is_division:
                points = german
            else:
                points = 1
            allied.append((f"{d.name} destroyed", Fraction(points)))
        if not allied:
            allied_missed.append("no Axis unit destroyed (GG-IV.A.2)")
        # GG-IV.A.3 (ruling R-GAZPOS): a box held by an Allied unit; the unit is in supply there (GG-XV.A.1)
        line = game.scenario.map.zones.get("gazala-line", frozenset())
        held = sorted(h.label for h in set(mv.boxes_held_now(game, Side.ALLIED)) & set(line))
        if held:
            allied.append((f"Gazala position held in supply ({', '.join(held)})", Fraction(3)))
            if tobruk_state(game) == "held":
                allied.append(("supply line into Tobruk from the east edge", Fraction(2)))
            else:
                allied_missed.append("no supply line into Tobruk from the east edge: 2 GVP (GG-IV.A.3)")
        else:
            allied_missed.append("no Gazala position held in supply: 3 GVP, and 2 more with a supply line into Tobruk (GG-IV.A.3)")
        state = tobruk_state(game)  # GG-IV.B.1-2
        if state == "taken":
            axis.append(("Tobruk taken", Fraction(6)))
        elif state == "surrounded":
            axis.append(("Tobruk surrounded", Fraction(3)))
        else:
            axis_missed.append("Tobruk neither surrounded (3 GVP) nor taken (6 GVP) (GG-IV.B.1-2)")
        m = game.scenario.map
        for h in sorted(set(m.supply_sources.get(Side.ALLIED, ())) & m.edge("east")):  # GG-IV.B.3
            if game.units_at(h, Side.AXIS):
                axis.append((f"Allied supply source {h} taken", Fraction(2)))
            else:
                axis_missed.append(f"Allied supply source {h} not taken: 2 GVP (GG-IV.B.3)")
        for h in sorted(m.zones.get("supply-dump", frozenset())):  # GG-IV.B.4
            if game.units_at(h, Side.AXIS):
                axis.append((f"Allied Supply Dump ({h}) occupied", Fraction(5)))
            else:
                axis_missed.append(f"Allied Supply Dump ({h}) not occupied: 5 GVP (GG-IV.B.4)")
        before = len(axis)
        for uid in destroyed(game, Side.ALLIED):  # GG-IV.B.5
            d = family_defs(game)[uid]
            axis.append((f"{d.name} destroyed", Fraction(2 if d.is_division else 1)))
        if len(axis) == before:
            axis_missed.append("no Allied unit destroyed (GG-IV.B.5)")
    return allied, axis, allied_missed, axis_missed


def _result(game: Game, allied: Lines, axis: Lines, sudden: str | None) -> dict[str, Any]:
    """The result of the lines: the totals, the difference (adjusted for a nonhistorical set-up), the winner, the
    level (GG-IV.C, D)."""
    a_total = sum((p for _, p in allied), Fraction(0))
    x_total = sum((p for _, p in axis), Fraction(0))
    difference = abs(a_total - x_total)
    winner = None if a_total == x_total else (Side.ALLIED if a_total > x_total else Side.AXIS)
    note = ""
    if gazala_vars(game).nonhistorical and winner is not None:  # GG-IV.D
        difference = difference / 2 if winner is Side.ALLIED else difference * 2
        note = (
            "halved (nonhistorical set-up, Allied advantage)" if winner is Side.ALLIED else "doubled (nonhistorical set-up, Axis advantage)"
        )
    name = level(difference)
    if name.startswith("no victory"):
        winner = None
    return {
        "allied": [[text, str(p)] for text, p in allied],
        "axis": [[text, str(p)] for text, p in axis],
        "allied_total": str(a_total),
        "axis_total": str(x_total),
        "difference": str(difference),
        "adjustment": note,
        "winner": winner.value if winner else None,
        "level": name,
        "sudden": sudden is not None,
    }


def describe(result: dict[str, Any], missing: dict[str, list[str]] | None = None) -> list[str]:
    """The result as lines of text: winner and level, then each side's GVP line by line and what it could have
    scored and did not (``missing``, :func:`missed`: each at 0), then the levels the difference is read against
    (GG-IV.C): a player sees why."""
    who = {"allied": "Allied", "axis": "Axis", None: "Nobody"}[result["winner"]]
    lines = [
        f"{who}: {result['level']} (difference {result['difference']} GVP"
        + (f", {result['adjustment']}" if result["adjustment"] else "")
        + ")"
    ]
    for side, title in (("allied", "Allied"), ("axis", "Axis")):
        lines.append(f"{title} GVP: {result[side + '_total']}")
        lines.extend(f"  {points:>3}  {text}" for text, points in result[side])
        lines.extend(f"  {0:>3}  {text}" for text in (missing or {}).get(side, ()))
    bands = ", ".join(f"more than {at} {name}" for at, name in reversed(LEVELS))
    lines.append(f"The levels, by the difference in GVP (GG-IV.C): {bands}; 4 or less, no victory.")
    return lines
