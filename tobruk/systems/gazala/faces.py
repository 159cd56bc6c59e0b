"""What The Gazala Gallop tells the faces (views, the fuzzer, computer players, forms), through the hooks of
:class:`~tobruk.engine.system.System`: the faces import none of this package's modules."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.caching import Cache, Carried, variable
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Step
from tobruk.engine.plain import plain
from tobruk.engine.sides import Side
from tobruk.engine.system import Odds, Rendering, StatusWord, Summary
from tobruk.mechanics.actions import Attack, Move, Retreat
from tobruk.mechanics.battle import Battle
from tobruk.mechanics.counters import FAMILY_BITS, family_defs, family_rendering, family_unit
from tobruk.mechanics.family import UNKNOWN_ODDS, face_down_defenders, family_action_problems, shared_hex_problems
from tobruk.mechanics.supply import shown_supply_lines
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.actions import Activate, Airlift, Convoy, Weather
from tobruk.systems.gazala.state import gazala_vars

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tobruk.engine.game import Game
    from tobruk.mechanics.advisor import Sight

# the greedy player's reading of a result: (share of the defence won, share of the attack lost)
RESULT_VALUES = {
    "DE": (1.0, 0.0),
    "R2": (0.55, 0.0),
    "R1": (0.4, 0.0),
    "D": (0.3, 0.0),
    "-": (0.0, 0.0),
    "DAR": (0.3, 0.25),
    "DAE": (0.3, 1.0),
    "AR": (0.0, 0.25),
    "AE": (0.0, 1.0),
}

# how the map and the counters are drawn: the terrain effects chart's kinds, NATO-style symbols; an Allied unit
# is "inactive" until activated (GG-V.A.2), an Axis unit never is
RENDERING = family_rendering(
    Rendering(
        terrain={"clear": "#efe4c4", "sea": "#9cc3dd", "town": "#d9c7a0", "village": "#e6d5ae", "hill": "#d8c28f"},
        status_names={"disrupted": "disrupted", "out_of_supply": "out of supply"},
        status_words=(StatusWord("activated", "inactive", when=False, sides=("allied",), faded=True),),
    )
)


def view(game: Game, side: Side) -> dict[str, Any]:
    """The Gazala part of a side's view: the weather, the side's own supply lines, the declared attacks, the score."""
    return {
        "weather": gazala_vars(game).weather,
        "supply": {uid: {"supplied": s, "how": how, "route": list(route)} for uid, s, how, route in shown_supply_lines(game, side)},
        "attacks": [
            {
                "id": a.id,
                "order": a.order.notation(),
                "defenders": [h.label for h in a.order.defenders],
                "attackers": list(a.attackers),
                "resolved": a.resolved,
            }
            for a in gazala_vars(game).attacks
            if not a.resolved
        ],
        "result": plain(gazala_vars(game).result),
    }


def odds(game: Game, action: Action, side: Side, options: Sequence[Action] = ()) -> Odds | None:
    """The odds of an attack declaration as ``side`` may know them: checked by the rules first (a refusal is raised),
    unknown against face-down counters (a declaration has no ``options`` here)."""
    if not isinstance(action, Attack):
        return None
    a = cb.assess(game, action, side)
    if face_down_defenders(game, action, side):
        return Odds(UNKNOWN_ODDS, (), ())
    table = game.system.outcomes(game, action, side)
    return Odds(a.odds, tuple(a.lines), tuple(table))


def rendering() -> Rendering:
    return RENDERING


def turn_notes(game: Game) -> dict[str, str]:
    """The weather of the game-turn (GG-VIII), which both players see."""
    return {"weather": gazala_vars(game).weather}


def result_lines(game: Game) -> list[str]:
    from tobruk.systems.gazala import victory as vp

    result = gazala_vars(game).result
    return vp.describe(result, vp.missed(game)) if result else []


def summary(game: Game) -> Summary | None:
    result = gazala_vars(game).result
    if not result:
        return None
    from tobruk.systems.gazala import victory as vp

    margin = Fraction(result["difference"]) * (1 if result["winner"] == "allied" else -1 if result["winner"] else 0)
    return Summary(result["winner"], result["level"], tuple(vp.describe(result, vp.missed(game))), margin, plain(result))


def score_now(game: Game) -> dict[str, float]:
    """Each side's Game Victory Points if the game ended now (GG-IV)."""
    from tobruk.systems.gazala import victory as vp

    score = gazala_vars(game).result or vp.score(game)
    return {"allied": float(Fraction(score["allied_total"])), "axis": float(Fraction(score["axis_total"]))}


def form_facts(game: Game) -> list[tuple[str, list[tuple[str, str]]]]:
    """The boxes and forts held and eliminated at the end (the form's "Boxes" line)."""
    boxes = game.scenario.map.fortifications
    gone = set(gazala_vars(game).boxes_eliminated)
    held = [f"{h} ({s.display})" for h, s in sorted(boxes.items()) if h.label not in gone]
    lost = [f"{h} ({s.display})" for h, s in sorted(boxes.items()) if h.label in gone]
    return [("Boxes and forts", [("Held at the end", ", ".join(held) or "none"), ("Eliminated", ", ".join(lost) or "none")])]


# GG-XV.A.4: truck convoys per side and game-turn, written out again here so that the fuzzer holds the engine's
# own count and table to the rule
CONVOY_LIMIT = {Side.AXIS: 4, Side.ALLIED: 6}


def invariants(game: Game, before: Step) -> list[str]:
    """GG-XII.A.1: one side's units in a hex (:func:`~tobruk.mechanics.family.shared_hex_problems`); GG-XII.B: once a
    side's set-up, movement or attack phase has ended, none of its hexes is over the limit (a retreat in the enemy's
    attack phase may crowd a hex until then, ruling R-STACK); the supply markers agree with the last determination;
    truck convoys stay within the limit (see :func:`convoy_problems`)."""
    problems = shared_hex_problems(game) + convoy_problems(game)
    if (
        before.side is not None
        and before.key.endswith(("setup", "movement", "attacks"))
        and game.phase.key != before.key
        and not game.is_over
    ):
        crowded = mv.overstacked(game, before.side)
        if crowded:
            problems.append(f"{before.side.display} over the stacking limit in {sorted(crowded)[0]} after {before.key}")
    units = game.state.units  # read as arrays (rows in the order of battle): this runs after every action
    at, flags = units.hex, units.flags
    if not game.phase.key.endswith("recovery"):
        marked = _OUT_OF_SUPPLY | _ELIMINATED  # (disagrees: a unit on the map marked though supplied, or not though not)
        problems.extend(
            f"{uid}'s supply marker disagrees with the {side_name} determination"
            for side_name, uid, i, j, supplied in supply_marks(game)
            if at[i] == j and flags[i] & marked == (_OUT_OF_SUPPLY if supplied else 0)
        )
    face_down = [i for i, f in enumerate(flags) if f & _HIDDEN and not f & _ELIMINATED]
    if face_down:
        anon, unseen, ids = gazala_vars(game).anon, gazala_vars(game).unseen, game.unit_ids
        problems.extend(
            f"{ids[i]} is face down without an anonymous id"
            for i in face_down
            if at[i] >= 0 and ids[i] not in anon and unseen.get(ids[i]) is None
        )
    return problems


_HIDDEN, _ELIMINATED, _OUT_OF_SUPPLY = FAMILY_BITS["hidden"], FAMILY_BITS["eliminated"], FAMILY_BITS["out_of_supply"]


def supply_marks(game: Game) -> tuple[tuple[str, str, int, int, bool], ...]:
    """The last supply determination (``gazala_vars(game).supply``) as (side, unit, its row in the arrays, the index of the
    hex it was determined in, or -2 when that is no hex of the map, and whether it was supplied), worked out once
    per determination: the variable is immutable, so the answer is kept under it (:data:`_SUPPLY_MARKS`)."""
    supply = gazala_vars(game).supply

    def work() -> tuple[tuple[str, str, int, int, bool], ...]:
        rows = {uid: i for i, uid in enumerate(game.unit_ids)}
        index = {h.label: j for j, h in enumerate(game.scenario.map.hexes)}
        return tuple(
            (side_name, uid, rows[uid], index.get(e["hex"], -2) if isinstance(e["hex"], str) else -2, e["supplied"])
            for side_name, entries in supply.items()
            for uid, e in entries.items()
        )

    return _SUPPLY_MARKS.get(game, None, work)


_SUPPLY_MARKS: Cache[tuple[tuple[str, str, int, int, bool], ...]] = Cache("gazala.supply-marks", variable("supply"))


def convoy_problems(game: Game) -> list[str]:
    """GG-XV.A.4: the truck convoys each side used this game-turn, counted from the orders played (one per convoy
    sent, one per attack factor carried by a move on trucks), stay within 4 Axis and 6 Allied and agree with the
    game's own count.  The game-turn's orders are those since its weather order (GG-VI: every turn after the
    first opens with the weather); in the weather phase itself the turn has had none yet."""
    if game.is_over:
        return []
    used = dict.fromkeys(Side, 0)
    if game.phase.key != "weather" and game.history:
        used[Side.AXIS], used[Side.ALLIED] = convoys_counted(game)[-1]
    problems = []
    for side, mine in used.items():
        if mine > CONVOY_LIMIT[side]:
            problems.append(f"{side.display} used {mine} truck convoys in turn {game.turn}, more than {CONVOY_LIMIT[side]}")
        counted = gazala_vars(game).convoys_used.get(side.value, 0)
        if counted != mine:
            problems.append(f"{side.display}: the game counts {counted} truck convoys in turn {game.turn}, the orders played {mine}")
    return problems


def convoys_counted(game: Game) -> list[tuple[int, int]]:
    """After each order of the history, the truck convoys (Axis, Allied) used since the last weather order, counted
    from the orders themselves: one per convoy sent, one per attack factor carried by a move on trucks.

    Carried from one call to the next (:data:`_CONVOYS_COUNTED`) with the orders it was counted from, and extended by the orders played
    since; the history only grows but for undo, so when its start is no longer the orders counted, it is cut
    back to the longest common start (a list comparison) or counted afresh."""
    history = game.history
    kept = _CONVOYS_COUNTED.last(game, None)
    if kept is None or kept[0][: len(history)] != history[: len(kept[0])]:
        kept = ([], [])
        _CONVOYS_COUNTED.keep(game, None, kept)
    counted, counts = kept
    del counted[len(history) :], counts[len(history) :]
    axis, allied = counts[-1] if counts else (0, 0)
    for action in history[len(counted) :]:
        if isinstance(action, Weather):
            axis = allied = 0
        elif isinstance(action, Convoy) or (isinstance(action, Move) and action.trucks):
            d = family_defs(game)[action.unit]
            n = 1 if isinstance(action, Convoy) else d.attack
            axis, allied = (axis + n, allied) if d.side is Side.AXIS else (axis, allied + n)
        counted.append(action)
        counts.append((axis, allied))
    return counts


def check_action(game: Game, action: Action) -> list[str]:
    """The family's checks (:func:`~tobruk.mechanics.family.family_action_problems`); no listed move spends more MF than
    the unit has (GG-XIII.A.2, C); every listed retreat keeps GG-XIV.D.2's requirements (see :func:`retreat_problems`)."""
    family = family_action_problems(game, action)
    if family:
        return family
    if isinstance(action, Retreat):
        return retreat_problems(game, action)
    if not isinstance(action, Move) or len(action.path) < 2:
        return []
    from tobruk.mechanics.reach import walk

    try:  # the step-by-step check refuses a step past the unit's MF (and every other broken movement rule)
        walk(mv.move_context(game, action.unit, action.trucks), action.path)
    except IllegalOrderError as refused:
        return [f"{action.notation()} is refused step by step: {refused}"]
    return []


def retreat_problems(game: Game, action: Retreat) -> list[str]:
    """GG-XIV.D.2 a, b, e: a retreat is one of the battle's, starts where the unit stands, and each hex of it is
    farther from the hex it leaves, holds no enemy unit and is not next to the hexes the unit was attacked from
    (on an AR: was attacking) unless it holds a friendly box."""
    battle = game.top(Battle)
    group = battle.current() if battle is not None else None
    if group is None or not any(x.unit == action.unit and not x.done for x in group.units):
        return [f"{action.unit} retreats outside a battle's retreats"]
    side, origin = family_defs(game)[action.unit].side, family_unit(game, action.unit).hex
    gone = set(gazala_vars(game).boxes_eliminated)
    boxes = {h for h, s in game.scenario.map.fortifications.items() if s is side and h.label not in gone}
    if origin is None or action.path[0] != origin:
        return [f"{action.unit}'s retreat does not start where it stands, {origin}"]
    for here, there in itertools.pairwise(action.path):
        if origin.distance(there) <= origin.distance(here):
            return [f"{action.unit} retreats {here}-{there}, not away from {origin}"]
        if game.units_at(there, side.enemy):
            return [f"{action.unit} retreats into {there}, which holds enemy units"]
        if any(there.is_adjacent(a) for a in group.origin) and there not in boxes:
            return [f"{action.unit} retreats into {there}, next to the attack's hexes"]
    return []


def features(game: Game, side: Side) -> dict[str, Any]:
    """What a computer player may steer by (all public: the scenario's objectives and the charts' values)."""
    s = game.scenario
    m = s.map
    if side is Side.AXIS:
        objectives = [Hex.parse(s.rules["tobruk"])] if "tobruk" in s.rules else []
        objectives += [h for h in m.supply_sources.get(Side.ALLIED, ()) if h in m.edge("east")]
        objectives += sorted(m.zones.get("supply-dump", ()))
        guards = [Hex.parse(x) for x in s.rules.get("allied_sudden_victory", [])]
    else:
        objectives, guards = [], []
    return {
        "objectives": objectives,  # empty: go for the enemy's units
        "guards": guards,  # hexes the enemy wins the game by standing on
        "result_values": RESULT_VALUES,
        "stacking": (mv.STACK_UNITS, mv.STACK_DIVISIONS),
        "holding_types": ["infantry"] if side is Side.ALLIED else [],  # the Allied infantry holds the boxes
        "setup_steps": ["axis-setup", "allied-setup", "allied-siege"],  # keep the printed positions
    }


def prefer(game: Game, sight: Sight, actions: list[Action], stage: str) -> Action | None:
    """The advice's choices among The Gazala Gallop's own actions, from what the side sees only.

    ``first``: the weather numbers (the rarest pair, 1 and 6), truck convoys to the strongest unit, the
    Luftwaffe's resupply; ``before-moves``: activate the unit nearest the enemy (within 6 hexes).
    """
    if stage == "first":
        for a in actions:
            if isinstance(a, Weather):
                return Weather(1, 6) if Weather(1, 6) in actions else actions[0]
        convoys = [a for a in actions if isinstance(a, Convoy)]
        if convoys:
            defs = family_defs(game)
            return max(convoys, key=lambda a: defs[a.unit].attack + defs[a.unit].defence)
        return next((a for a in actions if isinstance(a, Airlift)), None)
    activations = [a for a in actions if isinstance(a, Activate)]
    if not activations:
        return None
    enemies = [e.hex for e in sight.enemies]

    def urgency(a: Activate) -> tuple[int, int]:
        u = sight.mine.get(a.unit)
        if u is None:
            return (99, 0)
        return (min((u.hex.distance(e) for e in enemies), default=99), -u.attack)

    best = min(activations, key=urgency)
    return best if urgency(best)[0] <= 6 else None


_CONVOYS_COUNTED: Carried[tuple[list[Action], list[tuple[int, int]]]] = Carried("gazala.convoys-counted")
