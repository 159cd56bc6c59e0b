"""What 1st Alamein tells the faces (views, the fuzzer, computer players, forms, the map), through the hooks of
:class:`~tobruk.engine.system.System`: the faces import none of this package's modules."""

from __future__ import annotations

import functools
from datetime import date, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.caching import FIXED, Cache, variable
from tobruk.engine.flow import Step
from tobruk.engine.plain import plain
from tobruk.engine.sides import Side
from tobruk.engine.system import Odds, Rendering, Summary
from tobruk.mechanics import battle as battles
from tobruk.mechanics.actions import Attack, Place
from tobruk.mechanics.counters import FAMILY_BITS, family_defs, family_rendering, family_unit
from tobruk.mechanics.family import UNKNOWN_ODDS, face_down_defenders, shared_hex_problems
from tobruk.mechanics.supply import shown_supply_lines
from tobruk.systems.first_alamein import air
from tobruk.systems.first_alamein import combat as cb
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein import victory as vp
from tobruk.systems.first_alamein.charts import chart
from tobruk.systems.first_alamein.state import alamein_vars

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tobruk.engine.game import Game
    from tobruk.mechanics.advisor import Sight

# the greedy player's reading of a result: (share of the defence won, share of the attack lost)
RESULT_VALUES = {
    "DE": (1.0, 0.0),
    "R2": (0.55, 0.0),
    "R1": (0.4, 0.0),
    "S": (0.3, 0.0),
    "-": (0.0, 0.0),
    "SAR": (0.3, 0.25),
    "SAE": (0.3, 1.0),
    "AR": (0.0, 0.25),
    "AE": (0.0, 1.0),
}
RENDERING = family_rendering(
    Rendering(
        # the charts' two terrain rows and what the map draws beside them (the family's palette for the rest)
        terrain={"deir": "#e0d2ae", "ridge": "#d8c28f", "tel": "#d2b98a", "depression": "#d9d3c7"},
        features={"track": "#7a4a1e"},
        status_names={"disrupted": "spent", "out_of_supply": "out of supply"},
        terrain_names={
            "deir": "depression or deir (+1 for one infantry unit)",
            "hill": "ridge, hill or tel (+1 for one infantry unit)",
            "ridge": "ridge (+1 for one infantry unit)",
            "tel": "tel (+1 for one infantry unit)",
            "depression": "Qattara Depression (impassable)",
        },
    )
)


def day(game: Game, turn: int | None = None) -> str:
    """The date of a game-turn ("3 July 1942"), one day a turn from the scenario's first day."""
    first = game.scenario.rules.get("first_day")
    if not isinstance(first, str):
        return ""
    return _date_text(first, game.turn if turn is None else turn)


@functools.lru_cache(maxsize=256)
def _date_text(first: str, turn: int) -> str:
    """The date of game-turn ``turn`` counted from ``first`` (the views and the log ask at every look)."""
    d = date.fromisoformat(first) + timedelta(days=turn - 1)
    return f"{d.day} {d.strftime('%B %Y')}"


def status_reasons(game: Game, uid: str) -> dict[str, str]:
    """CA-SC.7: a unit the scenario starts spent (its ``spent_at_start``) is spent for that reason until its side's
    first recovery from Spent (GG-IX.E) is over: no recovery comes before it, and a unit spent again stays spent
    (GG-IX.D).  Public: the scenario and the turn say it."""
    if uid not in game.scenario.rules.get("spent_at_start", ()) or game.turn != 1 or not family_unit(game, uid).disrupted:
        return {}
    recovery, keys = f"{family_defs(game)[uid].side.value}-recovery", [s.key for s in game.steps]
    if recovery in keys and game.state.step > keys.index(recovery):
        return {}
    return {"disrupted": "starts the game spent (CA-SC.7)"}


def objectives(game: Game) -> list[Hex]:
    return sorted(vp.objective(game, "victory_el_alamein") | vp.objective(game, "victory_road_hex"))


def view(game: Game, side: Side) -> dict[str, Any]:
    """1st Alamein's part of a side's view: the day, the side's supply lines, the air units, the declared
    attacks, the boxes, the victory hexes, the result."""
    flags = game.state.units.flags
    flights = {
        uid: {"side": side_value, "ready": air.why_grounded(game, uid) is None, "knocked_out_until": air.record(game, uid)[1]}
        for uid, side_value, i in air_counters(game)
        if not flags[i] & _ELIMINATED
    }
    return {
        "date": day(game),
        "supply": {uid: {"supplied": s, "how": how, "route": list(route)} for uid, s, how, route in shown_supply_lines(game, side)},
        "air": flights,
        "attacks": [
            {
                "id": a.id,
                "order": a.order.notation(),
                "defenders": [h.label for h in a.order.defenders],
                "attackers": list(a.attackers),
                "resolved": a.resolved,
            }
            for a in battles.pending(game)
        ],
        "boxes_eliminated": list(alamein_vars(game).boxes_eliminated),
        "objectives": list(objective_labels(game)),
        "result": plain(alamein_vars(game).result),
    }


def air_counters(game: Game) -> tuple[tuple[str, str, int], ...]:
    """Every air unit as (id, its side's value, its row in the arrays), the Axis's first (as :func:`air.air_units`
    lists each side's), worked out once per game: a view lists those not eliminated."""
    rows = unit_rows(game)
    return _AIR_COUNTERS.get(
        game, None, lambda: tuple((uid, s.value, rows[uid]) for s in Side for uid in game.units_of(s) if family_defs(game)[uid].is_air)
    )


def objective_labels(game: Game) -> tuple[str, ...]:
    """The victory hexes' labels, in order (the scenario names them: once per game)."""
    return _OBJECTIVE_LABELS.get(game, None, lambda: tuple(h.label for h in objectives(game)))


def odds(game: Game, action: Action, side: Side, options: Sequence[Action] = ()) -> Odds | None:
    """The odds of an attack declaration as ``side`` may know them: checked by the rules first (a refusal is raised),
    unknown against face-down counters (none in 1st Alamein: the family's rule all the same); a declaration has no ``options`` here."""
    if not isinstance(action, Attack):
        return None
    a = cb.assess(game, action, side)
    if face_down_defenders(game, action, side):
        return Odds(UNKNOWN_ODDS, (), ())
    return Odds(a.odds, tuple(a.lines), tuple(game.system.outcomes(game, action, side)))


def suggestions(game: Game, side: Side) -> list[Action]:
    """Whole attacks worth a computer player's look (the strongest on each hex it may attack)."""
    from tobruk.systems.first_alamein.battle import suggestions as battle_suggestions

    return list(battle_suggestions(game, side))


def rendering() -> Rendering:
    return RENDERING


def turn_notes(game: Game) -> dict[str, str]:
    """The day of the game-turn, which both players see."""
    return {"date": day(game)} if day(game) else {}


def result_lines(game: Game) -> list[str]:
    from tobruk.systems.first_alamein import victory as vp

    result = alamein_vars(game).result
    return vp.describe(result) if result else []


def summary(game: Game) -> Summary | None:
    result = alamein_vars(game).result
    if not result:
        return None
    margin = Fraction(1 if result["winner"] == Side.ALLIED.value else -1)
    return Summary(result["winner"], result["level"], tuple(vp.describe(result)), margin, plain(result))


def score_now(game: Game) -> dict[str, float]:
    """The Axis's victory conditions met if the game ended now (the Allies' 1 when it meets none)."""
    held = len(vp.holding(game))
    return {"axis": float(held), "allied": 0.0 if held else 1.0}


def form_facts(game: Game) -> list[tuple[str, list[tuple[str, str]]]]:
    """FA-LOG.1: the form's "Boxes" line, and what the Axis held at each victory determination."""
    boxes = game.scenario.map.fortifications
    gone = set(alamein_vars(game).boxes_eliminated)
    name = {h: ", ".join(p.name for p in game.scenario.map.places_in(h) if "box" in p.name.lower()) for h in boxes}
    held = [f"{name[h] or h} ({h})" for h in sorted(boxes) if h.label not in gone]
    lost = [f"{name[h] or h} ({h})" for h in sorted(boxes) if h.label in gone]
    turns = [(f"Turn {t}", "; ".join(h) or "nothing") for t, h in sorted(alamein_vars(game).holding.items(), key=lambda x: int(x[0]))]
    return [
        ("Boxes", [("Standing at the end", ", ".join(held) or "none"), ("Eliminated", ", ".join(lost) or "none")]),
        ("The Axis at each Axis victory determination", turns),
    ]


def invariants(game: Game, before: Step) -> list[str]:
    """After an action played in step ``before``: one side's units in a hex (GG-XII.A.1, :func:`~tobruk.mechanics.
    family.shared_hex_problems`), FA-STK.1 once a side's movement or attack step has ended (GG-XII.B), one Allied
    unit a hex once the set-up is over (CA-SC.7), no reinforcement before its turn (FA-UNIT.1), the supply markers as
    the last determination left them."""
    problems = shared_hex_problems(game)
    ended = game.step.key != before.key or game.is_over
    if before.side is not None and before.key.endswith(("movement", "attacks")) and ended:
        crowded = pos.overstacked(game, before.side)
        if crowded:
            problems.append(f"{before.side.display} over the stacking limit in {sorted(crowded)[0]} after {before.key}")
    if before.key == "allied-setup" and ended:
        stacks: dict[Hex, int] = {}
        for _, h in pos.on_map(game, Side.ALLIED):
            stacks[h] = stacks.get(h, 0) + 1
        problems.extend(f"two Allied units set up in {h}" for h, n in stacks.items() if n > 1)
    units = game.state.units  # read as arrays (rows in the order of battle): this runs after every action
    at, flags = units.hex, units.flags
    rows = unit_rows(game)
    for uid, r in game.scenario.reinforcements.items():
        if at[rows[uid]] >= 0 and r.turn > game.turn:
            problems.append(f"{uid} is on the map before turn {r.turn}")
    # (the game never rests in a supply step: it runs by itself)
    for uid, i, j, supplied in supply_marks(game):
        f = flags[i]
        if at[i] == j and not f & _ELIMINATED and bool(f & _OUT_OF_SUPPLY) == supplied:
            problems.append(f"{uid}'s supply marker disagrees with its last determination")
    return problems


_ELIMINATED, _OUT_OF_SUPPLY = FAMILY_BITS["eliminated"], FAMILY_BITS["out_of_supply"]


def unit_rows(game: Game) -> dict[str, int]:
    """Each unit's row in the arrays (the order of battle), once per game."""
    return _UNIT_ROWS.get(game, None, lambda: {uid: i for i, uid in enumerate(game.unit_ids)})


def supply_marks(game: Game) -> tuple[tuple[str, int, int, bool], ...]:
    """The last supply determinations (``alamein_vars(game).supply``) as (unit, its row in the arrays, the index of the hex it
    was determined in, or -2 when that is no hex of the map, and whether it was supplied), worked out once per
    determination: the variable is immutable, so the answer is kept under it (:data:`_SUPPLY_MARKS`)."""
    supply = alamein_vars(game).supply

    def work() -> tuple[tuple[str, int, int, bool], ...]:
        rows = unit_rows(game)
        index = {h.label: j for j, h in enumerate(game.scenario.map.hexes)}
        return tuple(
            (uid, rows[uid], index.get(e["hex"], -2) if isinstance(e["hex"], str) else -2, e["supplied"])
            for entries in supply.values()
            for uid, e in entries.items()
        )

    return _SUPPLY_MARKS.get(game, None, work)


def features(game: Game, side: Side) -> dict[str, Any]:
    """What a computer player may steer by (all public: the victory hexes and the charts' numbers)."""
    goals = objectives(game)
    c = chart(game)
    return {
        "objectives": goals if side is Side.AXIS else [],  # the Allies go for the enemy's units
        "guards": goals if side is Side.ALLIED else [],  # hexes the Axis wins by standing on
        "result_values": RESULT_VALUES,
        "stacking": (c.stack_units, c.stack_divisions),
        "holding_types": ["infantry"] if side is Side.ALLIED else [],  # the Allied infantry holds its boxes
        "setup_steps": ["allied-setup"],  # keep the historical positions
    }


def prefer(game: Game, sight: Sight, actions: list[Action], stage: str) -> Action | None:
    """The advice's choice of entry hex for a reinforcement: the one nearest the victory hexes."""
    if stage != "first":
        return None
    places = [a for a in actions if isinstance(a, Place)]
    goals = objectives(game)
    if not places or game.step.key.endswith("setup") or not goals:
        return None
    return min(places, key=lambda a: (min(a.hex.distance(g) for g in goals), a.unit, a.hex))


# once per game (the order of battle and the victory hexes never change), and once per supply determination
_AIR_COUNTERS: Cache[tuple[tuple[str, str, int], ...]] = Cache("first-alamein.air-counters", FIXED)
_OBJECTIVE_LABELS: Cache[tuple[str, ...]] = Cache("first-alamein.objective-labels", FIXED)
_UNIT_ROWS: Cache[dict[str, int]] = Cache("first-alamein.unit-rows", FIXED)
_SUPPLY_MARKS: Cache[tuple[tuple[str, int, int, bool], ...]] = Cache("first-alamein.supply-marks", variable("supply"))
