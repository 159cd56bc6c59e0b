"""Victory in 1st Alamein (CA-SC.7's condition; the victory determinations of FA-SEQ.2-3).

The Axis wins if at the end of the game it occupies El Alamein with a unit in supply, or the north-east
coastal road hex with any unit; otherwise the Allies win.  Each victory determination eliminates the
enemy boxes its side's unspent divisions stand in (GG-XI.A.5); the Axis one also notes what the Axis holds,
and the last one, which ends the game, decides it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein import supply as sp
from tobruk.systems.first_alamein.state import alamein_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def eliminate_boxes(game: Game, side: Side) -> None:
    """GG-XI.A.5: enemy boxes an unspent division of ``side`` stands in are eliminated."""
    for h in sorted(pos.boxes(game, side.enemy)):
        if any(family_defs(game)[u].is_division and not family_unit(game, u).disrupted for u, at in pos.on_map(game, side) if at == h):
            alamein_vars(game).boxes_eliminated = (*alamein_vars(game).boxes_eliminated, h.label)
            game.log(f"{side.display}: the box in {h} is eliminated.", kind="loss")


def objective(game: Game, key: str) -> frozenset[Hex]:
    """A victory hex the scenario names by zone (``victory_el_alamein``, ``victory_road_hex``)."""
    name = game.scenario.rules.get(key)
    return game.scenario.zone(name) if isinstance(name, str) else frozenset()


def holding(game: Game) -> list[str]:
    """What the Axis holds now of its victory conditions (empty: none)."""
    out = []
    supplied = sp.status(game, Side.AXIS)
    units = pos.on_map(game, Side.AXIS)
    alamein = objective(game, "victory_el_alamein")
    there = sorted(u for u, h in units if h in alamein and supplied[u]["supplied"])
    if there:
        out.append(f"El Alamein occupied in supply ({', '.join(there)})")
    road = objective(game, "victory_road_hex")
    there = sorted(u for u, h in units if h in road)
    if there:
        out.append(f"the north-east coastal road hex occupied ({', '.join(there)})")
    return out


def note_holding(game: Game) -> None:
    """The Axis victory determination: what the Axis holds at the end of this game-turn."""
    held = holding(game)
    alamein_vars(game).holding = {**alamein_vars(game).holding, str(game.turn): tuple(held)}
    if held:
        game.log(f"Axis victory determination: {'; '.join(held)}.", kind="event")


def score(game: Game) -> dict[str, Any]:
    """The result at the end of the game: the winner, why, the boxes."""
    held = holding(game)
    winner = Side.AXIS if held else Side.ALLIED
    lines = held or ["the Axis holds neither El Alamein in supply nor the north-east coastal road hex"]
    return {
        "winner": winner.value,
        "level": f"{winner.display} victory",
        "reasons": lines,
        "axis_losses": destroyed(game, Side.AXIS),
        "allied_losses": destroyed(game, Side.ALLIED),
    }


def destroyed(game: Game, side: Side) -> list[str]:
    return [u for u in game.units_of(side) if family_unit(game, u).eliminated and not family_defs(game)[u].is_air]


def describe(result: dict[str, Any]) -> list[str]:
    who = Side(result["winner"]).display
    lines = [f"{who} victory: " + "; ".join(result["reasons"]) + "."]
    for side in ("axis", "allied"):
        lost = result[f"{side}_losses"]
        lines.append(f"{Side(side).display} units destroyed: {', '.join(lost) if lost else 'none'}")
    return lines
