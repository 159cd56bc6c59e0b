"""A game system for tests only, to prove that the faces draw and play a game they were never told about.

"Toy Skirmish" has what no packaged system has: a terrain kind of its own (``marsh``, drawn in its own colour), its
own word for a status (a unit that has marched this turn is "footsore": the family's ``moved`` bit), a sequence of
two steps a turn (the Axis march, then the Allied march: a unit may march one hex to a land hex no enemy holds, or
an infantry unit two hexes by trucks, another form of move), a note on each turn (``light``: day, or night with the
scenario's ``night`` option), a victory rule (whoever alone holds the scenario's flag hex at the end wins) and a
side the rules can play (with the ``solitaire`` option, which :func:`toy_scenario` adds on request, the Allied march
is the rules' own: a unit marches a hex nearer the flag).  Its units are drawn with the dot for infantry, where the
family draws a cross.  Importing this module registers it."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action, Vocabulary
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Step, on
from tobruk.engine.sides import Side
from tobruk.engine.system import Rendering, Summary, register
from tobruk.engine.vars import Vars
from tobruk.loading.datafile import Table
from tobruk.loading.scenario import Scenario, read_scenario
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.family import FamilySystem

if TYPE_CHECKING:
    from tobruk.engine.game import Game

NAME = "toy-skirmish"
MARSH_COLOUR = "#4f8f7f"
RENDERING = Rendering(
    terrain={"marsh": MARSH_COLOUR},
    symbols={"infantry": "dot"},
    status_names={"moved": "footsore", "disrupted": "shaken"},
    terrain_names={"marsh": "salt marsh"},
)


class March(Step):
    """A side's march: each of its units may march one hex, an infantry unit also two by trucks (TOY-1), then the
    side ends the phase."""

    clause = "TOY-1"

    def decision(self, game: Game) -> Decision | None:
        assert self.side is not None
        return Decision(self.side, self.key, "march your units one hex each, then end-phase", self.clause)

    def actions(self, game: Game, decision: Decision) -> Iterable[Action]:
        m = game.scenario.map
        enemy = set(game.occupants(decision.side.enemy))
        for uid in game.units_of(decision.side):
            u = family_unit(game, uid)
            if u.hex is None or u.moved:
                continue
            for n in m.neighbours(u.hex):
                if m.is_land(n) and n not in enemy:
                    yield Move(uid, (u.hex, n))
            if family_defs(game)[uid].type.value == "infantry":  # TOY-1: or two hexes, carried by trucks
                for n in u.hex.ring(2):
                    if n in m and m.is_land(n) and n not in enemy:
                        yield Move(uid, (u.hex, n), trucks=True)
        yield EndPhase()

    @on(Move)
    def march(self, game: Game, decision: Decision, action: Move) -> None:
        assert isinstance(action, Move)
        if action.unit not in family_defs(game) or family_defs(game)[action.unit].side is not decision.side:
            raise IllegalOrderError("TOY-1", f"{action.unit} is not one of your units")
        u = family_unit(game, action.unit)
        if u.hex is None or u.moved:
            raise IllegalOrderError("TOY-1", f"{action.unit} has marched this turn")
        path = action.path if len(action.path) > 1 else (u.hex, *action.path)
        if Move(action.unit, path, action.trucks) not in set(self.actions(game, decision)):
            raise IllegalOrderError("TOY-1", f"{action.unit} marches one hex (infantry two by trucks) to land no enemy holds")
        u.hex = path[-1]
        u.moved = True
        toy_vars(game).marches += 1
        game.log(
            f"{decision.side.display}: {action.unit} marches {path[0].label}-{path[-1].label}{' by trucks' if action.trucks else ''}.",
            kind="move",
        )

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, action: EndPhase) -> bool:
        return True


@dataclass
class ToyVars(Vars):
    marches: int = 0  # the marches made so far this game (shown to nobody: a variable for the engine's tests)


toy_vars = cast("Callable[[Game], ToyVars]", attrgetter("state.vars"))


STEPS = (March("axis-march", "Axis march", side=Side.AXIS), March("allied-march", "Allied march", side=Side.ALLIED))


@register
class ToySkirmish(FamilySystem):
    name = NAME
    title = "Toy Skirmish"
    prefix = "TOY"
    vocabulary = Vocabulary((EndPhase, Move))
    game_over_clause = "TOY-2"
    terrain_kinds = frozenset({"clear", "sea", "marsh"})

    def new_vars(self, game: Game) -> ToyVars:
        return ToyVars()

    def sequence(self, game: Game) -> Sequence[Step]:
        return STEPS

    def ruled_sides(self, game: Game) -> frozenset[Side]:
        return frozenset({Side.ALLIED}) if "solitaire" in game.options else frozenset()

    def rules_choice(self, game: Game, decision: Decision) -> Action:
        """TOY-4: the first Allied unit in order of battle that can march a hex nearer the flag does; then the march
        ends."""
        flag = Hex.parse(str(game.scenario.rules["flag"]))
        for action in STEPS[1].actions(game, decision):
            if isinstance(action, Move) and not action.trucks and action.path[-1].distance(flag) < action.path[0].distance(flag):
                return action
        return EndPhase()

    def setup(self, game: Game) -> None:
        game.log(f"Turn 1. {game.scenario.title}.")

    def begin_turn(self, game: Game) -> None:
        for uid in game.unit_ids:
            family_unit(game, uid).moved = False
        game.log(f"Turn {game.turn}.")

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


def toy_scenario(*, solitaire: bool = False) -> Scenario:
    """The toy scenario, read as a user's scenario file named ``toy`` would be; ``solitaire``: with the option that
    lets the rules play the Allied side."""
    text = TOY_SCENARIO.replace("\n[rules]", SOLITAIRE_OPTION + "\n[rules]") if solitaire else TOY_SCENARIO
    return read_scenario(Table(tomllib.loads(text), "toy.toml"), "toy")
