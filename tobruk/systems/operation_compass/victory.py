"""Victory in Operation Compass (ruling R-OC-VICTORY; the charts give none): at the end of the last turn the Western
Desert Force scores each Italian step lost and each place it holds (Sidi Barrani, the camps, the towns: the last
side to enter a place holds it), the Italians each step the WDF lost; the difference gives the level."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tobruk.engine.sides import Side
from tobruk.systems.operation_compass.charts import Charts, chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.state import compass_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def steps_lost(game: Game, side: Side) -> int:
    defs = compass_defs(game)
    return sum(defs[u].steps - compass_unit(game, u).steps for u in game.units_of(side))


def places_held(game: Game) -> dict[str, list[str]]:
    """The places the WDF holds, by the kind of place the points are for (``sidi-barrani``, ``camps``, ``towns``)."""
    zones = game.scenario.map.zones
    held = compass_vars(game).held
    return {
        name: sorted(h.label for h in zones.get(name, frozenset()) if held.get(h.label) == Side.ALLIED.value)
        for name in chart(game).place_points
    }


def score(game: Game) -> dict[str, Any]:
    charts = chart(game)
    italian_lost, allied_lost = steps_lost(game, Side.AXIS), steps_lost(game, Side.ALLIED)
    places = places_held(game)
    place_points = sum(charts.place_points[name] * len(hexes) for name, hexes in places.items())
    allied = charts.italian_step_points * italian_lost + place_points
    italian = charts.allied_step_points * allied_lost
    difference = allied - italian
    level = next(name for at_least, name in charts.levels if difference >= at_least)
    winner = Side.ALLIED.value if level.startswith("Allied") else Side.AXIS.value
    return {
        "winner": winner,
        "level": level,
        "difference": difference,
        "allied_points": allied,
        "italian_points": italian,
        "italian_steps_lost": italian_lost,
        "allied_steps_lost": allied_lost,
        "places": places,
    }


def describe(result: dict[str, Any], charts: Charts) -> list[str]:
    """The result for people: the level and the points, what was lost and held, how each side's points were made and
    the levels the difference is read against (ruling R-OC-VICTORY), so a player can see why he won or lost."""
    held = ", ".join(f"{name} {' '.join(hexes)}" for name, hexes in result["places"].items() if hexes) or "none"
    a, i = result["allied_points"], result["italian_points"]
    per_place = [
        f"{charts.place_points[name] * len(hexes)} for {_words(name)} ({charts.place_points[name]} each)"
        for name, hexes in result["places"].items()
    ]
    items = [
        f"{charts.italian_step_points * result['italian_steps_lost']} for Italian steps ({charts.italian_step_points} each)",
        *per_place,
    ]
    bands = [f"{name} from {at_least}" for at_least, name in charts.levels[:-1]]
    return [
        f"{result['level']}: the WDF {a} point{'s' if a != 1 else ''}, the Italians {i} (a difference of {result['difference']}).",
        f"Italian steps lost: {result['italian_steps_lost']}; WDF steps lost: {result['allied_steps_lost']}; "
        f"places held by the WDF: {held}.",
        f"The WDF's points: {', '.join(items)}: {a}. The Italians': "
        f"{charts.allied_step_points * result['allied_steps_lost']} for WDF steps ({charts.allied_step_points} each): {i}.",
        f"The levels, by the difference (WDF less Italians): {', '.join(bands)}, {charts.levels[-1][1]} below (ruling R-OC-VICTORY).",
    ]


def _words(place: str) -> str:
    """A kind of place as a sentence names it: "Sidi Barrani", "camps"."""
    return " ".join(w.capitalize() for w in place.split("-")) if "-" in place else place
