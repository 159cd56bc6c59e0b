"""What a game system provides to the engine and to the faces, and the registry of systems by name.

A system is a package (``tobruk/systems/<name>/``) holding its charts as data and a :class:`System`
subclass: the steps of its sequence of play, its vocabulary of actions, its variables, and the hooks
through which every face (the command line, the browser, the players, the fuzzer, the forms) learns
what it needs without importing the system's own modules.  Modelled on python-chess's variants: a flat
registry of small classes.  One instance per system serves every game of it (it keeps no game state,
only its charts, loaded when the instance is made, so several systems live in one process).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from tobruk.engine.actions import Action, Vocabulary
from tobruk.engine.errors import IllegalOrderError, TobrukError
from tobruk.engine.flow import Decision, Step
from tobruk.engine.sides import Side
from tobruk.engine.state import ELIMINATED, UnitView
from tobruk.engine.vars import Vars

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.board.units import UnitDef
    from tobruk.engine.game import Game
    from tobruk.loading.datafile import Table
    from tobruk.loading.scenario import Scenario


@dataclass(frozen=True, slots=True)
class Solitaire:
    """A system played alone: the side whose decisions its rules' own procedures make (Compass's Italians by the
    charts), unless the scenario's option ``unless`` gives that side to a player."""

    side: Side
    unless: str


@dataclass(frozen=True, slots=True)
class Odds:
    """An attack's odds before the die: the column, how it was reached (lines for people), the exact
    probability of each result (empty when it cannot be known, e.g. against face-down units)."""

    column: str
    lines: tuple[str, ...]
    outcomes: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True, slots=True)
class ResultTable:
    """One of a system's results tables as printed on its charts, for people (the page's CRT panel): ``key`` names
    it, ``title`` says what it is and how it is read, ``corner`` heads the rows' labels (the die, a DRM), ``columns``
    and ``rows`` (each its label and one entry a column, as the charts write them)."""

    key: str
    title: str
    corner: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]

    def data(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "corner": self.corner,
            "columns": list(self.columns),
            "rows": [{"label": label, "cells": list(cells)} for label, cells in self.rows],
        }


@dataclass(frozen=True, slots=True)
class Overlay:
    """A layer a face may draw over the map for a side (the page offers one checkbox per layer it is sent): ``key``
    names it, ``title`` is the checkbox's words, ``kind`` says what it holds: ``hexes`` (hexes shaded, by label) or
    ``lines`` (polylines through hex centres, each a tuple of labels); ``colour`` the colour it is drawn in; ``shown``
    whether it is drawn before the player ticks it.  Made
    only from what the side may know (see :meth:`System.overlays`)."""

    key: str
    title: str
    kind: str
    hexes: tuple[str, ...] = ()
    lines: tuple[tuple[str, ...], ...] = ()
    colour: str = "#c00000"
    shown: bool = False  # drawn until the player unticks it (what the map must show, as the forts built), else ticked to be drawn

    def data(self) -> dict[str, Any]:
        return {
            "shown": self.shown,
            "key": self.key,
            "title": self.title,
            "kind": self.kind,
            "hexes": list(self.hexes),
            "lines": [list(x) for x in self.lines],
            "colour": self.colour,
        }


@dataclass(frozen=True, slots=True)
class Objective:
    """A hex the scenario's victory conditions (or its supply) make worth holding, as the faces mark it: ``name`` says
    what it is for people ("Allied sudden victory hex"), ``clause`` the rule that makes it count, ``defender`` the side
    that must keep the enemy off it (the enemy wins or scores by standing there).  Public: both sides see the same."""

    hex: Hex
    name: str
    clause: str
    defender: Side

    def data(self) -> dict[str, Any]:
        return {"hex": self.hex.label, "name": self.name, "clause": self.clause, "defender": self.defender.value}


@dataclass(frozen=True, slots=True)
class Arrival:
    """A unit not on the map yet that the turn track brings in (on ``turn``) before its side's next movement, and the
    entry hexes it could start that movement from (see :meth:`System.arrivals`)."""

    unit: str
    turn: int
    entries: frozenset[Hex]


@dataclass(frozen=True, slots=True)
class Arriving:
    """A reinforcement in a warning: its id and when the turn track brings it in, as people read it ("turn 3", or
    the date of a dated track)."""

    unit: str
    when: str

    def data(self) -> dict[str, Any]:
        return {"unit": self.unit, "when": self.when}


@dataclass(frozen=True, slots=True)
class Condition:
    """What must happen before some of a side's units may move in its next movement, as a warning words it
    (:meth:`System.movement_condition`): ``words`` ("if activated"), the ``clause`` that says so, and ``most``, how many
    of the units under it could meet it by then as the position stands (``None``: any number of them)."""

    words: str
    clause: str
    most: int | None = None


@dataclass(frozen=True, slots=True)
class Conditional:
    """Units of a threat (some of :attr:`Threat.units`) that could reach it only if ``condition`` is met."""

    condition: Condition
    units: tuple[str, ...]

    def data(self) -> dict[str, Any]:
        c = self.condition
        return {"words": c.words, "clause": c.clause, "most": c.most, "units": list(self.units)}

    def describe(self) -> str:
        """``words (clause) by [most of] units``, as threats.js ``describe`` words it."""
        c, many = self.condition, len(self.units)
        some = f"{c.most} of " if c.most is not None and c.most < many else ""
        return f"{c.words} ({c.clause}) by {some}{', '.join(self.units)}"


@dataclass(frozen=True, slots=True)
class Threat:
    """An objective of a side that an enemy unit could reach in the enemy's next movement, as the side knows the
    enemy: ``units`` names the units it can see (face up); ``unseen`` counts the face-down counters that could;
    ``arriving`` names the reinforcements due before that movement that could reach it from where they enter;
    ``conditional`` groups those of ``units`` that could move only if a condition is met first (units waiting to be
    activated, only if activated), each group under its condition."""

    objective: Objective
    units: tuple[str, ...]
    unseen: int
    arriving: tuple[Arriving, ...] = ()
    conditional: tuple[Conditional, ...] = ()

    def data(self) -> dict[str, Any]:
        return {
            **self.objective.data(),
            "units": list(self.units),
            "unseen": self.unseen,
            "arriving": [a.data() for a in self.arriving],
            "conditional": [c.data() for c in self.conditional],
        }

    def describe(self) -> str:
        """The warning for people, worded as the page words it (threats.js ``describe``): the hex, what it counts for
        and its rule, and who could reach it: first those free to move, then each group that could only under its
        condition ("if activated (GG-V.A.4) by 2 of X, Y, Z")."""
        held = {u for c in self.conditional for u in c.units}
        who = [*(u for u in self.units if u not in held), *(f"{a.unit} (arriving {a.when})" for a in self.arriving)]
        if self.unseen:
            who.append("a face-down counter" if self.unseen == 1 else f"{self.unseen} face-down counters")
        parts = [f"by {', '.join(who)}"] if who else []
        parts += [c.describe() for c in self.conditional]
        o = self.objective
        return f"{o.hex.label} ({o.name}, {o.clause}) could be reached {'; '.join(parts)}"


class Advisor:
    """A system's advice to one side on its current decision, for a computer player (see :meth:`System.advisor`):
    which whole choices are worth a look, and what each is worth to the side.

    ``candidates()`` lists them, each an action the game accepts now (a composite whole choice included, such as an
    attack with its attackers), in the advisor's order of preference where it has one; ``value(action)`` is the
    side's expected gain from one (from the side's view and the outcome tables), ``None`` for no opinion.  Both
    read only what the side may know.  This base advises nothing."""

    def candidates(self) -> Sequence[Action]:
        return ()

    def value(self, action: Action) -> float | None:
        return None


@dataclass(frozen=True, slots=True)
class Summary:
    """The result of a finished game: the winner (a side's value, or ``None`` for a draw), the level,
    lines for people, and fields for the game log form."""

    winner: str | None
    level: str
    lines: tuple[str, ...]
    margin: Fraction = Fraction(0)
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StatusWord:
    """A word a counter shows for a status (one the system's unit view names, :attr:`UnitView.statuses`) beyond the plain
    "set means this word" of :attr:`Rendering.status_names`: shown while the bit is ``when``, for the units of
    ``sides`` only (empty: every side), and ``faded`` draws the counter faded while it applies: a system whose
    units of one side wait to be activated calls them "inactive" (faded) until they are, the other side's never."""

    bit: str
    word: str
    when: bool = True
    sides: tuple[str, ...] = ()
    faded: bool = False


@dataclass(frozen=True, slots=True)
class Rendering:
    """How faces draw this system's map and counters (the SVG renderer, the page), by name:

    ``terrain`` and ``features``: colours of terrain kinds, and of hexside features and route kinds (the family's
    palette is the default for the names it knows); ``symbols``: the shape drawn on a unit type's counter (one
    of the renderer's shapes: oval, cross, cross-wheels, slash, aa, dot, none); ``status_names``: the word for
    each status bit while it is set (a system may call *disrupted* "spent"); ``status_words``: other words (see
    :class:`StatusWord`); ``terrain_names``: the legend's words for terrain kinds (default: the kind's name);
    ``alarms``: the statuses that draw a counter's edge in red; ``marks``: a mark written after a counter's values
    while a status is set (the family's ``*`` out of supply); ``corner``: a field of the unit's view the counter shows
    left of its symbol (a system whose units lose steps shows the steps left)."""

    terrain: dict[str, str] = field(default_factory=dict)
    features: dict[str, str] = field(default_factory=dict)
    symbols: dict[str, str] = field(default_factory=dict)
    status_names: dict[str, str] = field(default_factory=dict)
    status_words: tuple[StatusWord, ...] = ()
    terrain_names: dict[str, str] = field(default_factory=dict)
    alarms: tuple[str, ...] = ()  # statuses that draw a counter's edge in red
    marks: dict[str, str] = field(default_factory=dict)  # status -> the mark after the counter's values
    corner: str = ""  # a field of the unit's view shown left of the counter's symbol ("steps")

    def statuses(self) -> tuple[StatusWord, ...]:
        """Every status word, the plain names first."""
        return (*(StatusWord(bit, word) for bit, word in self.status_names.items()), *self.status_words)


class System:
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    prefix: ClassVar[str] = ""  # the clause prefix of its rules, "GG"
    # False for a system registered with its data alone (its order of battle, turn track and scenarios): its scenarios
    # are read and shown, and a game of one is refused with :class:`RulesNotPlayed`
    playable: ClassVar[bool] = True
    # for a system whose rules are played in part (``playable = False``): what its games do not play yet, one sentence
    # the faces show.  Such a system is offered by the faces as a preview (its games made by :meth:`for_preview`) and
    # kept out of :func:`system_names`, so the checks every played system must pass (fuzzing, arenas, benchmarks) do
    # not run a game that stops short of its rules; "" for a system played in full or registered with its data alone
    preview: ClassVar[str] = ""
    # for a system its rules play alone: the side they play, and the option that gives it to a player (the faces offer
    # a solitaire game, :meth:`ruled_sides` reads it); None for a game of two sides
    solitaire: ClassVar[Solitaire | None] = None
    # the scenario loader's reader of the scenario fields the system owns (``units_from``), if any: a
    # :class:`tobruk.loading.scenario.ScenarioExtension`
    scenario_extension: ClassVar[Any] = None
    vocabulary: ClassVar[Vocabulary] = Vocabulary(())
    game_over_clause: ClassVar[str] = "end"
    terrain_kinds: ClassVar[frozenset[str] | None] = None  # the terrain its charts know (None: any)
    unit_view: ClassVar[type[UnitView]] = UnitView  # its units' statuses and numbers (a subclass names them)

    @classmethod
    def for_preview(cls) -> System:
        """The instance the faces play a preview of the system with (see :attr:`preview`): by default the system
        itself; a system overrides this to leave out what it cannot finish yet (what a game could not go on from)."""
        return cls()

    @classmethod
    def read_counter(cls, ut: Table, common: Mapping[str, Any]) -> UnitDef:
        """One of this system's counters from its ``[[unit]]`` table, given the fields every counter has (read by the
        loader): the system's own counter class with what it prints.  By default a counter of a ``kind`` and nothing
        more."""
        from tobruk.loading.unitfile import plain_counter

        return plain_counter(ut, common)

    # --- what the engine asks --------------------------------------------------------------------
    def new_vars(self, game: Game) -> Vars:
        """The system's variables at the start of a game."""
        return Vars()

    def sequence(self, game: Game) -> Sequence[Step]:
        """The steps of the current game-turn, in order."""
        raise NotImplementedError

    def ruled_sides(self, game: Game) -> frozenset[Side]:
        """The sides of this game whose decisions the rules' own procedures make (a side the charts play, in a
        solitaire game), read once when the game starts (from its options): the engine plays their choices
        (:meth:`rules_choice`) as actions, logged, kept in the history and undone with the player's action they
        followed.  By default :attr:`solitaire`'s side, unless the game has the option that gives it to a player."""
        alone = self.solitaire
        return frozenset() if alone is None or alone.unless in game.options else frozenset({alone.side})

    def rules_choice(self, game: Game, decision: Decision) -> Action:
        """The action the rules' procedure, and the system's documented policy for what it leaves open, takes for a
        decision of a side the rules play."""
        raise NotImplementedError(f"{self.name} plays no side by its rules")

    def setup(self, game: Game) -> None:
        """Put the scenario's units in their starting state."""

    def begin_turn(self, game: Game) -> None:
        """A new game-turn starts (after the first)."""

    def end_game(self, game: Game) -> None:
        """The last turn is over: score the game."""

    # --- what the faces ask ------------------------------------------------------------------------
    def view(self, game: Game, side: Side) -> dict[str, Any]:
        """The system's part of a side's view (weather, supply lines, declared attacks ...): only what that
        side may know."""
        return {}

    def status_reasons(self, game: Game, uid: str) -> dict[str, str]:
        """Why unit ``uid``'s statuses are set, where the system can say more than the status's word: each bit with its
        reason in words ("disrupted": "starts the game spent (CA-SC.7)"), shown after the word (a counter's
        tooltip, the terminal).  Public: asked only of a unit whose statuses the asking side sees, and read from what
        both sides know (the scenario, the turn).  By default none."""
        return {}

    def overlays(self, game: Game, side: Side) -> list[Overlay]:
        """The layers a side's decisions want drawn over the map (the enemy's zones of control, its supply lines ...;
        not the objectives, which the map rings from :meth:`objectives` whatever is ticked), worked out only from what
        ``side`` may know: a hidden counter gives the same layers whatever it is (work from
        :func:`~tobruk.engine.information.observed`).  For people's faces only (the page asks once a position); by
        default none."""
        return []

    def objectives(self, scenario: Scenario) -> Sequence[Objective]:
        """The hexes the scenario's victory conditions name, each with the side that must hold it and the clause
        (public, the same in every game of the scenario: the faces mark them on the map); by default none."""
        return ()

    def arrivals(self, game: Game, side: Side) -> Sequence[Arrival]:
        """``side``'s units not on the map yet that the turn track brings in before ``side``'s next movement phase
        ends and that the rules let move in it, each with the entry hexes it could move from (those its enemy does not
        bar now): the reinforcements the enemy is warned of (:func:`~tobruk.engine.objectives.threats`, which asks
        this of the position as the enemy knows it; the schedule is public).  By default none: a system whose
        arriving units may not move on arrival, or that brings in none, says nothing here."""
        return ()

    def movement_reach(self, game: Game, uid: str, start: Hex) -> frozenset[Hex]:
        """The hexes unit ``uid`` could end its next operational move in, starting from ``start``, at the most the
        rules could allow it then (its best movement mode and conditions), in ``game`` as it stands; empty for a unit
        that does not move in a movement phase.  Asked of a position as one side knows it
        (:func:`~tobruk.engine.objectives.threats`), to warn of the enemy's reach; by default nothing moves."""
        return frozenset()

    def movement_condition(self, game: Game, uid: str) -> Condition | None:
        """What must happen before unit ``uid`` (on the map) may move in its side's next movement, ``None`` when
        nothing need: a system whose units wait to be activated, so many a turn, says so.
        Asked, like :meth:`movement_reach`, of the position as the enemy knows it, so the warning of a threat says
        which units could reach an objective only under a condition (:func:`~tobruk.engine.objectives.threats`).
        By default none."""
        return None

    def odds(self, game: Game, action: Action, side: Side, options: Sequence[Action] = ()) -> Odds | None:
        """The odds of an attack declaration before it is made (``None`` if it is not one, or illegal), made with
        ``options`` (:meth:`Action.with_options`: a leader named, naval support called; checked open by the caller)."""
        return None

    def outcomes(self, game: Game, action: Action, side: Side) -> list[tuple[str, Fraction]]:
        """The probability of each result of an attack declaration before the die; [] if it cannot be known."""
        odds = self.odds(game, action, side)
        return [] if odds is None else list(odds.outcomes)

    def advisor(self, game: Game, side: Side) -> Advisor | None:
        """The system's advice to ``side`` on its current decision (:class:`Advisor`), for computer players: the
        system's preferences live with its rules, so a player names no action of any system.  ``None`` (the
        default): the system gives none, and a player falls back on a generic rule of its own."""
        return None

    def summary(self, game: Game) -> Summary | None:
        """The result once the game is over."""
        return None

    def result_lines(self, game: Game) -> list[str]:
        summary = self.summary(game)
        return [] if summary is None else list(summary.lines)

    def turn_notes(self, game: Game) -> dict[str, str]:
        """What the game log form notes at the end of each turn besides the log (e.g. the weather), by name; both
        sides are shown it (the page's status line, the replay), so nothing in it is one side's secret."""
        return {}

    def score_now(self, game: Game) -> dict[str, float] | None:
        """Each side's points if the game ended now (for the form's plot), or ``None`` if the system keeps none."""
        return None

    score_title: ClassVar[str] = "Points if the game ended now"

    def form_facts(self, game: Game) -> list[tuple[str, list[tuple[str, str]]]]:
        """Sections of the game log form about the final position: (title, [(label, text)])."""
        return []

    def invariants(self, game: Game, before: Step) -> list[str]:
        """What is wrong with the position by the rules after an action played in step ``before`` (for the
        fuzzer): empty when all is well."""
        return []

    def check_action(self, game: Game, action: Action) -> list[str]:
        """What is wrong with an action the engine lists, before it is played (for the fuzzer)."""
        return []

    def once_per_turn(self, game: Game, action: Action) -> str | None:
        """What an action makes a unit do that the rules allow once a game-turn ("15Pz moves"), or ``None``: the
        fuzzer holds the game to it (a second round of movement, where the rules have one, is not such an action)."""
        return None

    strength_title: ClassVar[str] = "Strength on the map (steps)"

    def strength(self, game: Game, side: Side) -> int:
        """The side's strength on the map now, as the game log form plots it (by default its steps on the map)."""
        return sum(game.unit(u).steps for u in game.units_of(side) if not game.unit(u).eliminated and game.unit(u).hex is not None)

    def out_of_supply(self, game: Game, side: Side) -> int:
        """How many of the side's units are out of supply now (the form's plot); by default none are counted."""
        return 0

    def seen_key(self, game: Game, side: Side) -> Hashable:
        """Everything :meth:`seen_units` reads for ``side``'s units, as a key: the faces keep its answers under it (by
        default the side's units, the variables, the turn and step)."""
        s = game.state
        return (s.turn, s.step, s.over, s.reveals, game.side_key(side), s.vars.key())

    def seen_units(self, game: Game, side: Side) -> dict[str, tuple[Hex | None, bool, bool, str | None]]:
        """Every unit of ``side`` (in order of battle) as its enemy sees it now: (hex, face down, eliminated,
        anonymous id).  It reads only what :meth:`seen_key` holds for ``side`` (never the enemy's units): the faces
        keep the answers under it.  All of a side at once: both views and the fuzzer's fog checks ask at every
        position, so a system answers from the unit arrays in one pass (by default every unit face up)."""
        units, hexes = game.state.units, game.scenario.map.hexes
        at, flags = units.hex, units.flags
        return {uid: (None if at[i] < 0 else hexes[at[i]], False, bool(flags[i] & ELIMINATED), None) for i, uid in game.rows_of(side)}

    def observe(self, game: Game, side: Side, anon: Mapping[str, str]) -> None:
        """Make ``game``, a copy :func:`~tobruk.engine.information.observed` or ``resample`` made for ``side``, hold in
        the system's variables only what ``side`` may know.  The enemy's counters already stand as the side sees them
        (the face-down ones filled in by unseen counters, ``anon`` giving each the anonymous id of its place); a
        system whose variables remember anything of the enemy's secrets (where a counter stood before a hidden
        phase, which counter has which id) puts them in line here.  By default the variables hold no secret."""

    def placement_allowed(self, game: Game, side: Side, placements: Mapping[str, Hex | None]) -> bool:
        """Whether ``side``'s face-down counters could stand where ``placements`` puts them by the rules of their
        placing (a resample draws placements until one is): by default any."""
        return True

    def result_meanings(self) -> Mapping[str, str]:
        """What the result codes its log and odds tables write mean, for people (the page explains each code with
        it), by code as written; none by default."""
        return {}

    def result_tables(self) -> Sequence[ResultTable]:
        """Its results tables as its charts print them (the combat results table first), the codes in them explained
        by :meth:`result_meanings`: the same for every side, they hold nothing secret; none by default."""
        return ()

    def rendering(self) -> Rendering:
        """How the faces draw the map and the counters (colours, unit symbols, status words, legend words)."""
        return Rendering()

    def explain(self, error: IllegalOrderError) -> str:
        """A refusal for people: the reason and the rule."""
        return f"{error.reason} [{error.clause}]"


S = TypeVar("S", bound="System")
_REGISTRY: dict[str, type[System]] = {}
_INSTANCES: dict[str, System] = {}


def register(cls: type[S]) -> type[S]:
    """Register a system class by its name (its package's one registration: a playable system or a data-only one)."""
    known = _REGISTRY.get(cls.name)
    if known is not None and known is not cls and known.__qualname__ != cls.__qualname__:
        raise ValueError(f"two systems are called {cls.name!r}")
    _REGISTRY[cls.name] = cls
    return cls


def _load_packages() -> None:
    """Import every package under ``tobruk.systems`` (each registers its system)."""
    import tobruk.systems as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.ispkg:
            importlib.import_module(f"{pkg.__name__}.{info.name}")


class UnknownSystem(TobrukError, KeyError):
    """A scenario names a game system no package registers."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        super().__init__(f"no game system {name!r}; known: {', '.join(known)}")

    def __str__(self) -> str:
        return str(self.args[0])


class RulesNotPlayed(TobrukError):
    """A game of a system registered with its data alone: its scenarios can be shown, not played yet."""

    def __init__(self, name: str, title: str) -> None:
        self.name = name
        super().__init__(f"the rules of {title or name} ({name}) are not played yet: its scenarios can be shown, not played")


def find_system(name: str) -> type[System]:
    """The system class registered under ``name`` (playable or data only); :class:`UnknownSystem` if none is."""
    _load_packages()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownSystem(name, sorted(_REGISTRY)) from None


def system_for(name: str) -> System:
    """The one instance of a playable system (its charts loaded once), or of a system played as a preview
    (:meth:`System.for_preview`); :class:`RulesNotPlayed` for a system registered with its data alone,
    :class:`UnknownSystem` for a name no package registers."""
    if name not in _INSTANCES:
        kind = find_system(name)
        if not kind.playable and not kind.preview:
            raise RulesNotPlayed(name, kind.title)
        _INSTANCES[name] = kind() if kind.playable else kind.for_preview()
    return _INSTANCES[name]


def forget_instances() -> None:
    """Drop the systems' kept instances, so the next :func:`system_for` makes each afresh (the mutation run's mapping
    of tests to functions does so before every test: a constructor run once a process would otherwise be mapped to
    the first test alone, and a mutant of it met no other)."""
    _INSTANCES.clear()


def system_names(*, playable: bool = True, previews: bool = False) -> list[str]:
    """The registered systems' names: the playable ones, with ``previews=True`` also those the faces offer as a
    preview (:attr:`System.preview`), or with ``playable=False`` every one."""
    _load_packages()
    return sorted(name for name, kind in _REGISTRY.items() if kind.playable or not playable or (previews and kind.preview))


def registered_systems() -> list[type[System]]:
    """Every registered system class, playable or data only."""
    _load_packages()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]
