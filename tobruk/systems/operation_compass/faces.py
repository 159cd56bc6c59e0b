"""What Operation Compass tells the faces (views, odds, the fuzzer, computer players, forms), through the hooks of
:class:`~tobruk.engine.system.System`: the faces import none of this package's modules."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Step
from tobruk.engine.sides import Side
from tobruk.engine.system import Advisor, Odds, Overlay, Rendering, Summary
from tobruk.mechanics.actions import Add, Attack
from tobruk.systems.operation_compass import combat as cb
from tobruk.systems.operation_compass import victory as vp
from tobruk.systems.operation_compass.actions import Lead, Naval
from tobruk.systems.operation_compass.advisor import CompassAdvisor
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.moves import combat_units_near
from tobruk.systems.operation_compass.state import compass_vars

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tobruk.engine.game import Game

DATES = {1: "9 December 1940", 2: "10 December 1940", 3: "11 December 1940", 4: "12 December 1940"}

RENDERING = Rendering(
    terrain={"clear": "#efe4c4", "rough": "#d9c9a3", "hill": "#d8c28f", "sea": "#9cc3dd"},
    features={"fortified": "#7a3b1d", "wadi": "#6f8fa8"},
    symbols={"armour": "oval", "motorized-infantry": "cross-wheels", "infantry": "cross", "recce": "slash", "support": "dot"},
    status_names={"retreating": "retreating", "out_of_supply": "out of supply", "fired": "fired"},
    alarms=("retreating", "out_of_supply"),
    marks={"out_of_supply": "*"},
    corner="steps",
)


def rendering() -> Rendering:
    return RENDERING


def turn_notes(game: Game) -> dict[str, str]:
    """The day of the game-turn, which both sides see."""
    return {"date": DATES.get(game.turn, f"turn {game.turn}")}


def view(game: Game, side: Side) -> dict[str, Any]:
    """The Compass part of a side's view: the day, the WDF's supply lines as its last determination found them (for
    the WDF only: a player sees his own lines drawn), the assaults the Inshore Squadron may still support this turn,
    the score once the game is over."""
    charts = chart(game)
    return {
        "date": DATES.get(game.turn, ""),
        "supply": {uid: {"supplied": s, "route": list(route)} for uid, (s, route) in compass_vars(game).supply.items()}
        if side is Side.ALLIED
        else {},
        "naval_left": max(0, charts.naval_per_turn - compass_vars(game).naval_used),
        "result": compass_vars(game).result,
    }


def odds(game: Game, action: Action, side: Side, options: Sequence[Action] = ()) -> Odds | None:
    """An assault's column, its modifiers and the exact probability of each number of Italian steps it costs, made
    with its ``options``: the leader named (the last :class:`Lead`; else the stack's first combat unit, as the assault
    would take it) and the navy called (its die among the chances, OC-CRT.3)."""
    if not isinstance(action, Attack) or len(action.defenders) != 1:
        return None
    named = [o.unit for o in options if isinstance(o, Lead)]
    leader = named[-1] if named else cb.default_leader(game, action.attackers)
    naval = any(isinstance(o, Naval) for o in options)
    a = cb.assess(game, action.defenders[0], action.attackers, leader)
    table = cb.italian_losses(game, a, naval)
    wdf = sorted(cb.allied_losses(game, a, naval).items())
    cost = ", ".join(f"{n} ({float(p):.1%})" for n, p in wdf)
    lines = (f"led by {leader}", *a.lines, f"the WDF steps it may cost: {cost} (the leader's morale check, OC-CRT.6)")
    if naval:
        chances = ", ".join(f"-{drm} ({p.numerator} in {p.denominator})" for drm, p in sorted(cb.naval_drms(game, a.target).items()))
        lines += (f"naval support called: its die takes {chances} off the DRM (OC-CRT.3)",)
    return Odds(f"{a.column_name}, DRM {a.drm:+d} before the chits" + (" and the navy" if naval else ""), lines, tuple(table))


def outcomes(game: Game, action: Action, side: Side) -> list[tuple[str, Fraction]]:
    if not isinstance(action, Attack) or len(action.defenders) != 1:
        return []
    try:
        a = cb.assess(game, action.defenders[0], action.attackers, cb.default_leader(game, action.attackers))
    except IllegalOrderError:
        return []
    return cb.italian_losses(game, a)


def overlays(game: Game, side: Side) -> list[Overlay]:
    """The layers of the map (every counter is face up, so both sides see the same Italians): the hexes a WDF supply
    line may not enter (those of the Italians, and those next to their combat units where no WDF unit stands, ruling
    R-OC-SUPPLY); the WDF's own supply lines at its last determination, for the WDF only.  The places that score
    (ruling R-OC-VICTORY) are no layer: they are the system's objectives, which the map rings from the start with their
    rule in the legend."""
    board = game.scenario.map
    closed = (combat_units_near(game, Side.AXIS) - frozenset(game.occupants(Side.ALLIED))) | frozenset(game.occupants(Side.AXIS))
    layers = [Overlay("supply-closed", "closed to WDF supply lines", "hexes", hexes=tuple(h.label for h in board.hexes if h in closed))]
    if side is Side.ALLIED:
        routes = tuple(tuple(route) for _, route in compass_vars(game).supply.values() if len(route) > 1)
        layers.append(Overlay("supply", "WDF supply lines", "lines", lines=routes, colour="#00a060"))
    return layers


def advisor(game: Game, side: Side) -> Advisor:
    return CompassAdvisor(game, side)


def result_lines(game: Game) -> list[str]:
    result = compass_vars(game).result
    return vp.describe(result, chart(game)) if result else []


def summary(game: Game) -> Summary | None:
    result = compass_vars(game).result
    if not result:
        return None
    margin = Fraction(result["difference"])
    return Summary(result["winner"], result["level"], tuple(vp.describe(result, chart(game))), margin, dict(result))


def score_now(game: Game) -> dict[str, float]:
    s = compass_vars(game).result or vp.score(game)
    return {"allied": float(s["allied_points"]), "axis": float(s["italian_points"])}


def check_action(game: Game, action: Action) -> list[str]:
    """Before a listed action is played: no unit joins an assault twice a turn, nor a support unit that has fired."""
    if isinstance(action, Add):
        u, d = compass_unit(game, action.unit), compass_defs(game)[action.unit]
        if u.assaulted:
            return [f"{action.unit} assaults twice in turn {game.turn}"]
        if d.is_support and u.fired:
            return [f"{action.unit} fires twice in turn {game.turn}"]
    return []


def invariants(game: Game, before: Step) -> list[str]:
    """Steps between none and the full strength, an eliminated unit off the map and one with steps on it (or not yet
    arrived); at most the stacking limit of Allied units in a hex once the movement or an advance is over."""
    problems = []
    defs = compass_defs(game)
    for uid, d in defs.items():
        u = compass_unit(game, uid)
        if not 0 <= u.steps <= d.steps:
            problems.append(f"{uid} has {u.steps} steps of {d.steps}")
        if u.eliminated != (u.steps == 0) or (u.eliminated and u.hex is not None):
            problems.append(f"{uid}: eliminated {u.eliminated} with {u.steps} steps in {u.hex}")
    if not game.state.stack:
        limit = chart(game).allied_stack
        for h, here in game.occupants(Side.ALLIED).items():
            if len(here) > limit:
                problems.append(f"{len(here)} Allied units in {h} after {before.key}")
    return problems


def once_per_turn(game: Game, action: Action) -> str | None:
    from tobruk.mechanics.actions import Move

    return f"{action.unit} moves" if isinstance(action, Move) else None
