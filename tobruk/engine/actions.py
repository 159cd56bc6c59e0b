"""Actions: small frozen values; a text notation for people; a stable integer id for machines.

Every action type names its verb and writes and reads its own notation (``move 21Pz H4-H5-I6``), so
text is made only when a person or a log needs it and ``parse(notation(a)) == a``.  A system's
:class:`Vocabulary` is the set of action types it accepts.

Every action type also says how a person makes it, its :class:`Gesture` (press a button, click a unit, click a hex,
pick a unit then one of its hexes, gather units and a target, choose among labelled options), and every action gives
its coordinates as JSON-ready *fields* (``{"verb": "move", "unit": "21Pz", "path": ["H4", "H5", "I6"], "trucks":
false}``) from which the vocabulary makes it again (:meth:`Vocabulary.from_fields`, each field checked).  So a
face that knows no game (the browser page) draws the decision from the gestures and sends back an id or fields,
never text it put together.

For search and learning each scenario has an :class:`ActionSpace`: every action type declares its
*shape*, the few coordinates that tell one choice from another (a unit and a destination for a move;
a hex for an airstrike), and the space numbers every shape once: a fixed size per scenario, a
legal-action mask per decision, ``game.play_id(i)``.  Where the rules let a player refine a choice
(the exact path of a move), the refinements share their shape's id and the system lists one
representative per shape.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, overload

from tobruk.engine.errors import InvalidOrderError

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex


# --- the coordinates of a shape --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Dim:
    """One coordinate of an action's shape: ``unit``, ``hex``, ``flag`` or a small ``int`` range."""

    kind: str
    lo: int = 0
    hi: int = 0

    def size(self, units: int, hexes: int) -> int:
        if self.kind == "unit":
            return units
        if self.kind == "hex":
            return hexes
        if self.kind == "flag":
            return 2
        return self.hi - self.lo + 1


UNIT = Dim("unit")
HEX = Dim("hex")
FLAG = Dim("flag")


def INT(lo: int, hi: int) -> Dim:
    return Dim("int", lo, hi)


class Gesture(StrEnum):
    """How a person makes an action, at the table or on a page: a small closed set every face can draw.

    ``press``: a button (end the phase, declare); ``unit``: click one of the listed units (activate, eliminate);
    ``hex``: click one of the listed hexes (an airstrike); ``unit-hex``: pick a unit, then one of the hexes listed for
    it (a move, a retreat, a placement; the route is drawn from the action's :meth:`Action.route`);
    ``group-target``: gather units and a target hex (a composite whole choice, made of its parts, see
    :attr:`Action.parts`); ``choose``: pick one of several labelled options (a retreat distance, a number).
    """

    PRESS = "press"
    UNIT = "unit"
    HEX = "hex"
    UNIT_HEX = "unit-hex"
    GROUP_TARGET = "group-target"
    CHOOSE = "choose"


def gesture_of_shape(shape: tuple[Dim, ...]) -> Gesture:
    """The gesture an action of this shape is made with unless its type says otherwise: nothing to pick is a button,
    a unit or a hex alone is clicked, a unit and a hex (with flags or numbers telling variants apart) are a unit
    then a hex, anything else a choice among the listed options."""
    kinds = tuple(d.kind for d in shape)
    if not kinds:
        return Gesture.PRESS
    if kinds == ("unit",):
        return Gesture.UNIT
    if kinds == ("hex",):
        return Gesture.HEX
    if kinds[:2] == ("unit", "hex") and all(k in ("flag", "int") for k in kinds[2:]):
        return Gesture.UNIT_HEX
    return Gesture.CHOOSE


class Action:
    """Base of every action.  Subclasses are frozen dataclasses with ``verb`` and ``shape``."""

    __slots__ = ()
    verb: ClassVar[str] = ""
    shape: ClassVar[tuple[Dim, ...]] = ()
    form: ClassVar[str] = ""  # the notation's form, for help texts: "move UNIT HEX-HEX-... [by-trucks]"
    composite: ClassVar[bool] = False  # a whole choice made of small ones (see expand); no id of its own
    # how a person makes it: by default from the shape (gesture_of_shape), set when a type declares a shape of its own
    gesture: ClassVar[Gesture] = Gesture.PRESS
    # a composite's parts by type, for the group-target gesture: the one that opens it (on the target hex), the one
    # each gathered unit is, the one that closes it; and the names of its fields for the gathered units and the targets
    parts: ClassVar[tuple[type[Action], ...]] = ()
    gathers: ClassVar[tuple[str, str]] = ("", "")
    # a composite's way out: the actions that drop it unmade.  Whatever else its decision offers while it is being
    # made, besides its parts, is one of its options (a leader named, naval support called: see with_options)
    dropped_by: ClassVar[tuple[type[Action], ...]] = ()
    # True for the action that ends the current step for its decider (a player who has nothing more to do picks it)
    ends_step: ClassVar[bool] = False
    # what the action does, in words, for a face to offer it by (a button's text): a format of its fields (a list
    # joined by commas); a type whose words need more than its fields says so in :meth:`says`
    says_text: ClassVar[str] = ""
    # True when a face lets a person choose the action's route hex by hex (a retreat): the offer then carries the route
    stepwise: ClassVar[bool] = False

    def __init_subclass__(cls) -> None:
        if "gesture" not in cls.__dict__ and "shape" in cls.__dict__:
            cls.gesture = gesture_of_shape(cls.shape)

    def expand(self) -> tuple[Action, ...]:
        """The small actions this one is made of, in order (itself, for an atomic action).

        A big choice is a series of small ones, as a player makes it at the table: "attack G8 with 15Pz,21Pz"
        is the target, each attacker, then the declaration.  People and computer players may give the whole;
        the game plays its parts, all or none.
        """
        return (self,)

    def with_options(self, options: Sequence[Action]) -> tuple[Action, ...]:
        """The small actions of a composite made with ``options`` (choices its decision offers besides its parts, as
        :attr:`dropped_by` says): its parts, the options before the last part (the one that makes it), in the order
        given.  At the table the leader is named, or the navy called, before the attack is declared."""
        parts = self.expand()
        return (*parts[:-1], *options, parts[-1]) if options else parts

    def key(self) -> tuple[Any, ...]:
        """The values of the shape's coordinates (a unit id, a Hex, a bool, an int), in ``shape`` order."""
        return ()

    def notation(self) -> str:
        return self.verb

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if args:
            raise InvalidOrderError(f"{text!r}: {cls.verb} takes nothing more")
        return cls()

    def __str__(self) -> str:
        return self.notation()

    def group(self) -> str:
        """The heading a face lists the action under among the legal ones (by default its verb; a variant of a verb,
        such as a move by trucks, may have a heading of its own)."""
        return self.verb

    def route(self) -> tuple[Hex, ...]:
        """The hexes the action crosses, for a face to draw (a move's path); empty for most."""
        return ()

    def says(self) -> str:
        """What the action does, in words a player reads on a button ("Activate 15Pz (it may move and attack this
        turn)"), not its notation: :attr:`says_text` filled with the action's fields; its notation if the type has none."""
        if not self.says_text:
            return self.notation()
        values = {k: ", ".join(str(x) for x in v) if isinstance(v, list) else v for k, v in self.fields().items()}
        return self.says_text.format(**values)

    def fields(self) -> dict[str, Any]:
        """The action's coordinates as JSON-ready fields, its verb first (see :meth:`from_fields`)."""
        from tobruk.engine.fields import codecs

        out: dict[str, Any] = {"verb": self.verb}
        for name, codec in codecs(type(self)):
            out[name] = codec.encode(getattr(self, name))
        return out

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Action:
        """The action of this type whose :meth:`fields` are ``data``, each field checked: an unknown or missing field,
        a value of the wrong type or out of its range is an :class:`InvalidOrderError` saying which; so is a set of
        fields the notation could not write (an action is never made that a person could not type)."""
        from tobruk.engine.fields import codecs

        known = codecs(cls)
        names = {name for name, _ in known}
        extra = sorted(k for k in data if k != "verb" and k not in names)
        if extra:
            raise InvalidOrderError(f"{cls.verb}: no field {extra[0]!r}; its fields are: {', '.join(sorted(names)) or 'none'}")
        values: dict[str, Any] = {}
        for name, codec in known:
            if name not in data:
                if codec.required:
                    raise InvalidOrderError(f"{cls.verb}: the field {name!r} is missing")
                continue
            values[name] = codec.decode(data[name], f"{cls.verb}: {name}")
        action = cls(**values)
        for dim, value in zip(cls.shape, action.key(), strict=False):
            if dim.kind == "int" and not dim.lo <= value <= dim.hi:
                raise InvalidOrderError(f"{cls.verb}: {value} is outside {dim.lo}-{dim.hi}")
        text = action.notation()
        if cls.parse(text.split()[1:], text) != action:
            raise InvalidOrderError(f"{cls.verb}: these fields make no single order (as notation: {text!r})")
        return action


@dataclass(frozen=True, slots=True)
class UnitAction(Action):
    """The shape of the many actions about one unit: ``VERB UNIT`` (a base, not an action of its own)."""

    unit: str
    shape: ClassVar[tuple[Dim, ...]] = (UNIT,)

    def __init_subclass__(cls) -> None:  # (super named: a slotted dataclass is a new class, unlike its cell's)
        if "form" not in cls.__dict__:
            cls.form = f"{cls.verb} UNIT"
        super(UnitAction, cls).__init_subclass__()

    def key(self) -> tuple[Any, ...]:
        return (self.unit,)

    def notation(self) -> str:
        return f"{self.verb} {self.unit}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 1:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(unit_word(args[0], text))


@dataclass(frozen=True, slots=True)
class UnitHexAction(Action):
    """The shape of the actions of one unit about one hex: ``VERB UNIT HEX`` (a base, not an action of its own)."""

    unit: str
    hex: Hex
    shape: ClassVar[tuple[Dim, ...]] = (UNIT, HEX)

    def __init_subclass__(cls) -> None:  # (super named: a slotted dataclass is a new class, unlike its cell's)
        if "form" not in cls.__dict__:
            cls.form = f"{cls.verb} UNIT HEX"
        super(UnitHexAction, cls).__init_subclass__()

    def key(self) -> tuple[Any, ...]:
        return self.unit, self.hex

    def notation(self) -> str:
        return f"{self.verb} {self.unit} {self.hex.label}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 2:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(unit_word(args[0], text), hex_word(args[1], text))


@dataclass(frozen=True, slots=True)
class HexAction(Action):
    """The shape of the actions about one hex: ``VERB HEX`` (a base, not an action of its own)."""

    hex: Hex
    shape: ClassVar[tuple[Dim, ...]] = (HEX,)

    def __init_subclass__(cls) -> None:  # (super named: a slotted dataclass is a new class, unlike its cell's)
        if "form" not in cls.__dict__:
            cls.form = f"{cls.verb} HEX"
        super(HexAction, cls).__init_subclass__()

    def key(self) -> tuple[Any, ...]:
        return (self.hex,)

    def notation(self) -> str:
        return f"{self.verb} {self.hex.label}"

    @classmethod
    def parse(cls, args: list[str], text: str) -> Action:
        if len(args) != 1:
            raise InvalidOrderError(f"{text!r}: the form is {cls.form}")
        return cls(hex_word(args[0], text))


# --- notation helpers ------------------------------------------------------------------------------
def unit_word(text: str, whole: str) -> str:
    if not text or not (text[0].isascii() and text[0].isalnum()) or any(not (c.isascii() and (c.isalnum() or c in ".'_")) for c in text):
        raise InvalidOrderError(f"{whole!r}: {text!r} is not a unit id")
    return text


def hex_word(text: str, whole: str) -> Hex:
    from tobruk.board.hexes import Hex

    try:
        return Hex.parse(text)
    except ValueError:
        raise InvalidOrderError(f"{whole!r}: {text!r} is not a hex label such as C13") from None


def path_word(text: str, whole: str) -> tuple[Hex, ...]:
    return tuple(hex_word(p, whole) for p in text.split("-"))


def number_word(text: str, whole: str, lo: int = 0, hi: int | None = None) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < lo or (hi is not None and int(text) > hi):
        span = f"from {lo}" + (f" to {hi}" if hi is not None else "")
        raise InvalidOrderError(f"{whole!r}: {text!r} is not a whole number {span}")
    return int(text)


def path_text(path: Sequence[Hex]) -> str:
    return "-".join(h.label for h in path)


# --- a system's vocabulary -------------------------------------------------------------------------
class Vocabulary:
    """The action types a system accepts, by verb: parses notation into actions."""

    def __init__(self, types: Iterable[type[Action]]) -> None:
        self.types: tuple[type[Action], ...] = tuple(types)
        self.by_verb: dict[str, type[Action]] = {}
        for t in self.types:
            if t.verb in self.by_verb:
                raise ValueError(f"two action types use the verb {t.verb!r}")
            self.by_verb[t.verb] = t

    def parse(self, text: str) -> Action:
        """An action from its notation (keywords are case-insensitive; extra blanks are ignored)."""
        words = text.split()
        if not words:
            raise InvalidOrderError("an empty order")
        kind = self.by_verb.get(words[0].lower())
        if kind is None:
            forms = " | ".join(t.form or t.verb for t in self.types)
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise InvalidOrderError(f"{shown!r} is not an order; the forms are: {forms}")
        return kind.parse(words[1:], text)

    def from_fields(self, data: Any) -> Action:
        """An action from its fields (:meth:`Action.fields`), each checked: the verb must be one of the vocabulary's,
        every field known, present unless it has a default, and of its type (:class:`InvalidOrderError` says which)."""
        if not isinstance(data, Mapping):
            raise InvalidOrderError("an action's fields are an object with its verb")
        verb = data.get("verb")
        if not isinstance(verb, str):
            raise InvalidOrderError("an action's fields need its verb")
        kind = self.by_verb.get(verb)
        if kind is None:
            shown = verb if len(verb) <= 30 else verb[:27] + "..."
            raise InvalidOrderError(f"{shown!r} is not an order; the verbs are: {', '.join(self.by_verb)}")
        return kind.from_fields(data)

    def __iter__(self) -> Any:
        return iter(self.types)


# --- blocks of actions made on demand ---------------------------------------------------------------------
A = TypeVar("A", bound=Action)


class ActionBlock(Sequence[A]):
    """A run of legal actions of one type that makes each action object only when it is asked for.

    A listing may hold thousands of moves, each with its route, while a search or a random player plays one:
    a block gives the ids of its actions from their keys (``keys``: the shape's coordinates, as
    :meth:`Action.key` would give them), and builds an action, the same object every time, when it is indexed.
    """

    kind: type[A]
    made: list[A | None]  # each place's action once made (a subclass's __init__ sets it to [None] * its length)

    def make(self, i: int) -> A:
        """The ``i``-th action, made (asked once per place: the block keeps what it made, see :attr:`made`)."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.made)

    @overload
    def __getitem__(self, i: int) -> A: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[A]: ...

    def __getitem__(self, i: int | slice) -> A | Sequence[A]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        found = self.made[i]
        if found is None:
            found = self.made[i] = self.make(i)
        return found

    def keys(self) -> Sequence[tuple[Any, ...]]:
        raise NotImplementedError

    def ids(self, space: ActionSpace) -> tuple[int, ...]:
        kind, id_of_key = self.kind, space.id_of_key
        return tuple(id_of_key(kind, key) for key in self.keys())

    def texts(self) -> tuple[str, ...]:
        """The actions' notation, in order (a block may write it without making the actions)."""
        return tuple(a.notation() for a in self)


# --- integer ids -------------------------------------------------------------------------------------
class ActionSpace:
    """Numbers every action shape of a vocabulary for one scenario (its units and map hexes)."""

    def __init__(self, vocabulary: Vocabulary, unit_ids: Sequence[str], hexes: Sequence[Hex]) -> None:
        self.units = {u: i for i, u in enumerate(unit_ids)}
        self.hexes = {h: i for i, h in enumerate(hexes)}
        self.offsets: dict[type[Action], int] = {}
        self.sizes: dict[type[Action], tuple[int, ...]] = {}
        total = 0
        for t in vocabulary.types:
            if t.composite:
                continue
            sizes = tuple(d.size(len(self.units), len(self.hexes)) for d in t.shape)
            count = 1
            for s in sizes:
                count *= s
            self.offsets[t], self.sizes[t] = total, sizes
            total += count
        self.size = total
        self._encoders: dict[type[Action], Callable[[tuple[Any, ...]], int]] = {}

    def stride(self, kind: type[Action], dim: int) -> int:
        """How far apart the ids of two ``kind`` actions are whose keys differ by one in coordinate ``dim`` alone (a
        block of actions that differ in one coordinate works out its ids by this, see :class:`ActionBlock`)."""
        n = 1
        for size in self.sizes[kind][dim + 1 :]:
            n *= size
        return n

    def id_of(self, action: Action) -> int:
        return self.id_of_key(type(action), action.key())

    def id_of_key(self, kind: type[Action], key: tuple[Any, ...]) -> int:
        """The id of an action of type ``kind`` whose :meth:`Action.key` is ``key`` (no need of the action itself:
        a block of actions made on demand gives its ids this way, see :class:`ActionBlock`)."""
        encode = self._encoders.get(kind)
        if encode is None:
            encode = self._encoders[kind] = self._encoder(kind)
        return encode(key)

    def _encoder(self, t: type[Action]) -> Callable[[tuple[Any, ...]], int]:
        """The id of an action of type ``t`` from its key: the shape's coordinates in mixed radix, after the type's
        offset (made once per type: the listing asks for thousands of ids)."""
        offset, sizes = self.offsets[t], self.sizes[t]
        units, hexes = self.units, self.hexes
        coords: list[Callable[[Any], int]] = []
        for dim, size in zip(t.shape, sizes, strict=True):
            if dim.kind == "unit":
                coords.append(units.__getitem__)
            elif dim.kind == "hex":
                coords.append(hexes.__getitem__)
            elif dim.kind == "flag":
                coords.append(lambda value: 1 if value else 0)
            else:

                def number(value: Any, lo: int = dim.lo, size: int = size) -> int:
                    coord = int(value) - lo
                    if not 0 <= coord < size:
                        raise ValueError(f"{value} is outside {lo}-{lo + size - 1}")
                    return coord

                coords.append(number)
        if not coords:
            return lambda key: offset
        if len(coords) == 1:
            (first,) = coords
            return lambda key: offset + first(key[0])
        if len(coords) == 2:
            c0, c1 = coords
            s1 = sizes[1]
            return lambda key: offset + c0(key[0]) * s1 + c1(key[1])
        if len(coords) == 3:
            c0, c1, c2 = coords
            s1, s2 = sizes[1], sizes[2]
            return lambda key: offset + (c0(key[0]) * s1 + c1(key[1])) * s2 + c2(key[2])

        def encode(key: tuple[Any, ...]) -> int:
            n = 0
            for coord, size, value in zip(coords, sizes, key, strict=True):
                n = n * size + coord(value)
            return offset + n

        return encode

    def kind_of(self, action_id: int) -> type[Action]:
        """The action type an id belongs to."""
        if 0 <= action_id < self.size:
            for t, offset in sorted(self.offsets.items(), key=lambda kv: -kv[1]):
                if action_id >= offset:
                    return t
        raise ValueError(f"no action has id {action_id}")


_SPACES: dict[int, tuple[weakref.ref[object], Vocabulary, ActionSpace]] = {}


def shared_space(owner: object, vocabulary: Vocabulary, unit_ids: Sequence[str], hexes: Sequence[Hex]) -> ActionSpace:
    """The one :class:`ActionSpace` of a scenario (``owner``) and vocabulary, shared by every game of it and their
    copies: its tables grow with the units and hexes (thousands of hexes on a big map), never with the ids, so one
    per scenario keeps a game's memory to its own position.  Dropped when the scenario is."""
    key = id(owner)
    found = _SPACES.get(key)
    if found is None or found[0]() is not owner or found[1] is not vocabulary:
        found = _SPACES[key] = (weakref.ref(owner), vocabulary, ActionSpace(vocabulary, unit_ids, hexes))
        weakref.finalize(owner, _SPACES.pop, key, None)
    return found[2]
