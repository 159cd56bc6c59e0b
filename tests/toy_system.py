"""A game system for tests only, to prove that the faces draw and play a game they were never told about, and that the
engine keeps its promises for a system that is not of the packaged family's rules.

"Toy Skirmish" has what no packaged system has: a terrain kind of its own (``marsh``, drawn in its own colour), its
own word for a status (a unit that has marched this turn is "footsore": the family's ``moved`` bit), a sequence of
two steps a turn, a note on each turn, a victory rule and a side the rules can play.  Its rules:

* TOY-1 (the march): in its side's march each unit may march one hex to a land hex no enemy holds, or an infantry
  unit two hexes by trucks (another form of move); then the side ends the phase.  A unit's marches are listed as a
  block made when read (:class:`Marches`, the engine's :class:`~tobruk.engine.actions.ActionBlock`).
* TOY-2 (victory): whoever alone holds the scenario's flag hex at the end wins; else nobody.
* TOY-3 (the ``night`` option): the turns' note ``light`` says night instead of day.
* TOY-4 (the ``solitaire`` option, which :func:`toy_scenario` adds on request): the Allied side is the rules' own: a
  unit that must fire fires at the first enemy hex next to it, a unit hit stands, then the first unit that can march
  a hex nearer the flag does, then the march ends.
* TOY-5 (fire, where the scenario's ``[rules]`` say ``fire = true``): a unit next to an enemy unit that has neither
  marched nor fired this turn must fire at one such hex before it marches, and its side may not end the march before
  it has (``fire UNIT HEX``).  The fire is one die, a chance node: on 5 or 6 the first enemy unit in the hex (in
  order of battle) is hit, and its owner decides at once, a frame on the decision stack, whether it falls back a hex
  (``fall-back UNIT HEX``, to a land hex next to it that no enemy holds) or stands shaken (``stand UNIT``: the
  family's ``disrupted`` bit, which it calls "shaken").  A shaken unit neither marches nor fires until its side's
  next turn.  Moved, fired and shaken are cleared when a turn begins.
* TOY-6 (face down, where the scenario's ``[rules]`` name a ``face_down`` side): that side's units start face down,
  each shown to the enemy by an anonymous id, and a unit is turned face up for good when it marches, fires or is hit
  (undo stops there).

The scenario the faces' tests serve (:data:`TOY_SCENARIO`) has neither TOY-5 nor TOY-6; ``toy_scenario(full=True)``
has both, a third unit, four turns and the ``solitaire`` option: the engine's tests play it.  Its units are drawn
with the dot for infantry, where the family draws a cross.  Importing this module registers the system."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, cast

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action, ActionBlock, UnitAction, UnitHexAction, Vocabulary
from tobruk.engine.chance import Chance
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, Step, on
from tobruk.engine.sides import Side
from tobruk.engine.system import Rendering, Summary, register
from tobruk.engine.vars import Vars
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import Scenario, read_scenario
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.mechanics.counters import family_defs, family_rendering, family_unit
from tobruk.mechanics.family import FamilySystem

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tobruk.engine.game import Game

NAME = "toy-skirmish"
MARSH_COLOUR = "#4f8f7f"
RENDERING = family_rendering(
    Rendering(
        terrain={"marsh": MARSH_COLOUR},
        symbols={"infantry": "dot"},
        status_names={"moved": "footsore", "disrupted": "shaken"},
        terrain_names={"marsh": "salt marsh"},
    )
)


HIT = 5  # TOY-5: a die of 5 or 6 hits


# --- the toy's own actions (TOY-5) ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Fire(UnitHexAction):
    """TOY-5: a unit fires at the enemy hex next to it."""

    verb: ClassVar[str] = "fire"
    says_text: ClassVar[str] = "{unit} fires at {hex}"
    form: ClassVar[str] = "fire UNIT HEX"


@dataclass(frozen=True, slots=True)
class FallBack(UnitHexAction):
    """TOY-5: a unit hit falls back to a hex next to it."""

    verb: ClassVar[str] = "fall-back"
    says_text: ClassVar[str] = "{unit} falls back to {hex}"
    form: ClassVar[str] = "fall-back UNIT HEX"


@dataclass(frozen=True, slots=True)
class Stand(UnitAction):
    """TOY-5: a unit hit stands, shaken."""

    verb: ClassVar[str] = "stand"
    says_text: ClassVar[str] = "{unit} stands, shaken"


# --- TOY-1: a unit's marches, made when read ------------------------------------------------------------------------
class Marches(ActionBlock[Move]):
    """A unit's marches (TOY-1) as the listing offers them: their ids and notation come from the unit, its hex and the
    destinations alone, and a :class:`Move` is made only when it is read, the same object on every read (``made``
    shows which have been)."""

    kind = Move

    def __init__(self, unit: str, start: Hex, ends: Sequence[tuple[Hex, bool]]) -> None:
        self.unit, self.start, self.ends = unit, start, tuple(ends)
        self.made = [None] * len(self.ends)

    def make(self, i: int) -> Move:
        end, trucks = self.ends[i]
        return Move(self.unit, (self.start, end), trucks)

    def keys(self) -> list[tuple[Any, ...]]:
        return [(self.unit, end, trucks) for end, trucks in self.ends]

    def texts(self) -> tuple[str, ...]:
        head = f"move {self.unit} {self.start.label}-"
        return tuple(f"{head}{end.label}{' by-trucks' if trucks else ''}" for end, trucks in self.ends)


def marches(game: Game, uid: str) -> list[tuple[Hex, bool]]:
    """TOY-1: the hexes ``uid`` may march to now, each with whether it goes by trucks (none for a unit that has
    marched, is shaken, or must fire first)."""
    u = family_unit(game, uid)
    if u.hex is None or u.eliminated or u.moved or u.disrupted or fire_targets(game, uid):
        return []
    m = game.scenario.map
    enemy = set(game.occupants(family_defs(game)[uid].side.enemy))
    out = [(n, False) for n in m.neighbours(u.hex) if m.is_land(n) and n not in enemy]
    if family_defs(game)[uid].type.value == "infantry":  # or two hexes, carried by trucks
        out += [(n, True) for n in u.hex.ring(2) if n in m and m.is_land(n) and n not in enemy]
    return out


def fire_targets(game: Game, uid: str) -> list[Hex]:
    """TOY-5: the enemy hexes next to ``uid`` it must fire at one of (none where the rule is not in force, or for a
    unit that has marched, fired or is shaken), in reading order."""
    u = family_unit(game, uid)
    if not game.scenario.rules.get("fire") or u.hex is None or u.eliminated or u.moved or u.attacked or u.disrupted:
        return []
    enemy = game.occupants(family_defs(game)[uid].side.enemy)
    return sorted(n for n in game.scenario.map.neighbours(u.hex) if n in enemy)


def reveal(game: Game, uid: str) -> None:
    """TOY-6: turn a face-down unit face up for good (its anonymous id is gone, and undo stops here)."""
    u = family_unit(game, uid)
    if not u.hidden:
        return
    u.hidden = False
    toy_vars(game).anon = {k: a for k, a in toy_vars(game).anon.items() if k != uid}
    game.state.reveals += 1
    game.log(f"The counter in {u.hex} is {uid}.")


class March(Step):
    """A side's march: each of its units may march one hex, an infantry unit also two by trucks (TOY-1), a unit next
    to an enemy fires first (TOY-5), then the side ends the phase."""

    clause = "TOY-1"

    def decision(self, game: Game) -> Decision | None:
        assert self.side is not None
        return Decision(self.side, self.key, "march your units one hex each, then end-phase", self.clause)

    def action_blocks(self, game: Game, decision: Decision) -> Iterable[Sequence[Action]]:
        """Each unit's fire (TOY-5), then its marches as a block made when read; end-phase once no unit must fire."""
        blocks: list[Sequence[Action]] = []
        must = False
        for uid in game.units_of(decision.side):
            targets = fire_targets(game, uid)
            if targets:
                must = True
                blocks.append(tuple(Fire(uid, h) for h in targets))
                continue
            ends = marches(game, uid)
            if ends:
                start = family_unit(game, uid).hex
                assert start is not None
                blocks.append(Marches(uid, start, ends))
        if not must:
            blocks.append((EndPhase(),))
        return blocks

    def actions(self, game: Game, decision: Decision) -> Iterable[Action]:
        for block in self.action_blocks(game, decision):
            yield from block

    def own(self, game: Game, decision: Decision, uid: str) -> None:
        if uid not in family_defs(game) or family_defs(game)[uid].side is not decision.side:
            raise IllegalOrderError("TOY-1", f"{uid} is not one of your units")

    @on(Move)
    def march(self, game: Game, decision: Decision, action: Move) -> None:
        assert isinstance(action, Move)
        self.own(game, decision, action.unit)
        u = family_unit(game, action.unit)
        if u.hex is None or u.moved:
            raise IllegalOrderError("TOY-1", f"{action.unit} has marched this turn")
        if fire_targets(game, action.unit):
            raise IllegalOrderError("TOY-5", f"{action.unit} must fire at the enemy next to it before it marches")
        if u.disrupted:
            raise IllegalOrderError("TOY-5", f"{action.unit} is shaken and marches no more this turn")
        path = action.path if len(action.path) > 1 else (u.hex, *action.path)
        if len(path) != 2 or path[0] != u.hex or (path[-1], action.trucks) not in marches(game, action.unit):
            raise IllegalOrderError("TOY-1", f"{action.unit} marches one hex (infantry two by trucks) to land no enemy holds")
        reveal(game, action.unit)
        u.hex = path[-1]
        u.moved = True
        toy_vars(game).marches += 1
        game.log(
            f"{decision.side.display}: {action.unit} marches {path[0].label}-{path[-1].label}{' by trucks' if action.trucks else ''}.",
            kind="move",
        )

    @on(Fire)
    def fire(self, game: Game, decision: Decision, action: Fire) -> None:
        assert isinstance(action, Fire)
        self.own(game, decision, action.unit)
        if action.hex not in fire_targets(game, action.unit):
            raise IllegalOrderError("TOY-5", f"{action.unit} may fire only once a turn, before it marches, at an enemy next to it")
        reveal(game, action.unit)
        family_unit(game, action.unit).attacked = True
        game.log(f"{decision.side.display}: {action.unit} fires at {action.hex.label}.", kind="battle")
        game.push_frame(Volley(action.unit, action.hex))

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, action: EndPhase) -> bool:
        waiting = [uid for uid in game.units_of(decision.side) if fire_targets(game, uid)]
        if waiting:
            raise IllegalOrderError("TOY-5", f"{waiting[0]} must fire at the enemy next to it before the march ends")
        return True


@dataclass(frozen=True)
class Volley(Chance):
    """TOY-5: ``unit``'s fire at the hex ``at``: one die, a hit on 5 or 6."""

    unit: str
    at: Hex

    def purpose(self, game: Game) -> str:
        return f"fire, {self.unit} at {self.at.label}"

    def resolve(self, game: Game, value: int) -> None:
        side = family_defs(game)[self.unit].side
        targets = game.units_at(self.at, side.enemy)
        if value < HIT or not targets:
            game.log(f"{side.display}: {self.unit}'s fire at {self.at.label} misses (die {value}).", kind="battle")
            return
        target = targets[0]
        reveal(game, target)
        game.log(f"{side.display}: {self.unit}'s fire hits {target} in {self.at.label} (die {value}).", kind="battle")
        game.push_frame(Hit(target))


@dataclass(frozen=True)
class Hit(Frame):
    """TOY-5: ``unit`` has been hit; its owner decides whether it falls back a hex or stands, shaken."""

    unit: str

    def decision(self, game: Game) -> Decision | None:
        side = family_defs(game)[self.unit].side
        return Decision(side, game.step.key, f"{self.unit} is hit: fall back a hex, or stand shaken", "TOY-5")

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        h = family_unit(game, self.unit).hex
        assert h is not None
        m, enemy = game.scenario.map, set(game.occupants(decision.side.enemy))
        back: list[Action] = [FallBack(self.unit, n) for n in m.neighbours(h) if m.is_land(n) and n not in enemy]
        return [*back, Stand(self.unit)]

    @on(FallBack)
    def fall_back(self, game: Game, decision: Decision, action: FallBack) -> None:
        if action not in self.actions(game, decision):
            raise IllegalOrderError("TOY-5", f"{self.unit} falls back one hex, to land no enemy holds")
        u = family_unit(game, self.unit)
        game.log(f"{decision.side.display}: {self.unit} falls back {u.hex}-{action.hex.label}.", kind="move")
        u.hex = action.hex
        game.pop_frame()

    @on(Stand)
    def stand(self, game: Game, decision: Decision, action: Stand) -> None:
        if action.unit != self.unit:
            raise IllegalOrderError("TOY-5", f"{self.unit} is the unit hit")
        family_unit(game, self.unit).disrupted = True
        game.log(f"{decision.side.display}: {self.unit} stands, shaken.", kind="battle")
        game.pop_frame()


@dataclass
class ToyVars(Vars):
    marches: int = 0  # the marches made so far this game (shown to nobody: a variable for the engine's tests)
    anon: dict[str, str] = field(default_factory=dict)  # TOY-6: a face-down counter -> the anonymous id the enemy sees


toy_vars = cast("Callable[[Game], ToyVars]", attrgetter("state.vars"))


STEPS = (March("axis-march", "Axis march", side=Side.AXIS), March("allied-march", "Allied march", side=Side.ALLIED))


@register
class ToySkirmish(FamilySystem):
    name = NAME
    title = "Toy Skirmish"
    prefix = "TOY"
    vocabulary = Vocabulary((EndPhase, Move, Fire, FallBack, Stand))
    game_over_clause = "TOY-2"
    terrain_kinds = frozenset({"clear", "sea", "marsh"})

    def new_vars(self, game: Game) -> ToyVars:
        return ToyVars()

    def sequence(self, game: Game) -> Sequence[Step]:
        return STEPS

    def ruled_sides(self, game: Game) -> frozenset[Side]:
        return frozenset({Side.ALLIED}) if "solitaire" in game.options else frozenset()

    def rules_choice(self, game: Game, decision: Decision) -> Action:
        """TOY-4: a unit hit stands; the first unit in order of battle that must fire fires at the first enemy hex next
        to it; then the first that can march a hex nearer the flag does; then the march ends."""
        hit = game.top(Hit)
        if hit is not None:
            return Stand(hit.unit)
        for uid in game.units_of(decision.side):
            targets = fire_targets(game, uid)
            if targets:
                return Fire(uid, targets[0])
        flag = Hex.parse(str(game.scenario.rules["flag"]))
        for action in STEPS[1].actions(game, decision):
            if isinstance(action, Move) and not action.trucks and action.path[-1].distance(flag) < action.path[0].distance(flag):
                return action
        return EndPhase()

    def setup(self, game: Game) -> None:
        hidden = game.scenario.rules.get("face_down")
        if hidden:  # TOY-6: that side's units start face down, each with an anonymous id
            uids = game.units_of(Side(str(hidden)))
            for uid in uids:
                family_unit(game, uid).hidden = True
            toy_vars(game).anon = {uid: game.secret_mac(f"anon:{uid}")[:12] for uid in uids}
        game.log(f"Turn 1. {game.scenario.title}.")

    def begin_turn(self, game: Game) -> None:
        for uid in game.unit_ids:
            u = family_unit(game, uid)
            u.moved = u.attacked = u.disrupted = False
        game.log(f"Turn {game.turn}.")

    def seen_units(self, game: Game, side: Side) -> dict[str, tuple[Hex | None, bool, bool, str | None]]:
        """TOY-6: a face-down unit is seen where it stands, by its anonymous id."""
        anon = toy_vars(game).anon
        out: dict[str, tuple[Hex | None, bool, bool, str | None]] = {}
        for uid in game.units_of(side):
            u = game.unit(uid)
            out[uid] = (u.hex, u.hidden, u.eliminated, anon.get(uid) if u.hidden else None)
        return out

    def observe(self, game: Game, side: Side, anon: Mapping[str, str]) -> None:
        """TOY-6: in a copy made for ``side``, the enemy's face-down counters known by the ids of their places."""
        v = toy_vars(game)
        v.anon = {uid: a for uid, a in v.anon.items() if game.defs[uid].side is side} | dict(anon)

    def end_game(self, game: Game) -> None:
        for line in self.result_lines(game):
            game.log(line, kind="event")

    def turn_notes(self, game: Game) -> dict[str, str]:
        return {"light": "night" if "night" in game.options else "day"}

    def summary(self, game: Game) -> Summary | None:
        """TOY-2: whoever alone holds the flag hex at the end wins; else nobody."""
        if not game.is_over:
            return None
        flag = Hex.parse(str(game.scenario.rules["flag"]))
        holders = {family_defs(game)[uid].side for uid in game.units_at(flag)}
        winner = next(iter(holders)).value if len(holders) == 1 else None
        who = {"axis": "Axis", "allied": "Allied", None: "Nobody"}[winner]
        return Summary(winner, "flag victory" if winner else "draw", (f"{who} holds the flag in {flag.label}.",))

    def rendering(self) -> Rendering:
        return RENDERING


TOY_SCENARIO = """
format = "tobruk-scenario"
version = 1
title = "Toy Skirmish"
system = "toy-skirmish"
turns = 2

[[option]]
name = "night"
clause = "TOY-3"
text = "The skirmish is fought by night"

[rules]
flag = "B4"

[map]
name = "toy"
grid = { rows = 4, columns = 6 }

[map.terrain]
marsh = ["B2", "C3", "C4"]
sea = ["D6"]

[[unit]]
id = "Scout"
name = "Scouts"
side = "axis"
nationality = "german"
echelon = "subdivisional"
type = "infantry"
factors = "1-1-1"
hex = "B3"

[[unit]]
id = "Guard"
name = "Guards"
side = "allied"
nationality = "british"
echelon = "subdivisional"
type = "armour"
factors = "2-2-1"
hex = "B6"
"""


SOLITAIRE_OPTION = """
[[option]]
name = "solitaire"
clause = "TOY-4"
text = "The Allied march is made by the rules: each unit a hex nearer the flag"
"""

# the full skirmish (TOY-5 and TOY-6): four turns, the Allies face down, a third unit next to the Scouts
FULL_RULES = """
fire = true
face_down = "allied"
"""
LANCERS = """
[[unit]]
id = "Lancer"
name = "Lancers"
side = "allied"
nationality = "british"
echelon = "subdivisional"
type = "infantry"
factors = "1-2-1"
hex = "A4"
"""


def toy_scenario(*, solitaire: bool = False, full: bool = False) -> Scenario:
    """The toy scenario, read as a user's scenario file named ``toy`` would be; ``solitaire``: with the option that
    lets the rules play the Allied side; ``full``: the full skirmish (TOY-5 fire and TOY-6 face-down Allies, the
    Lancers in A4 next to the Scouts, four turns, and the ``solitaire`` option), named ``toy-full``."""
    text = TOY_SCENARIO
    if solitaire or full:
        text = text.replace("\n[rules]", SOLITAIRE_OPTION + "\n[rules]")
    if full:
        text = text.replace("turns = 2", "turns = 4").replace('flag = "B4"\n', 'flag = "B4"' + FULL_RULES) + LANCERS
    return read_scenario(Table(tomllib.loads(text), "toy.toml"), "toy-full" if full else "toy")
