"""The sequence of play as a state machine: steps, their decisions, and a stack of nested decisions.

A system lists the :class:`Step` objects of a game-turn, as the designer's sequence chart lists them.
Each step says who decides (:meth:`Node.decision`, ``None`` when the step runs by itself), what he
may do (:meth:`Node.actions`) and what each action does (methods marked :func:`on`).  When the rules
give a player a choice in the middle of another (the defender's No Retreat! answer, the loser's
retreat routes, an interception), a :class:`Frame` is pushed on the game's decision stack; while a
frame is on top it is the one asking, and when it is popped the step underneath goes on.

Steps keep nothing themselves (what they remember lives in the system's variables); frames are frozen
values kept in the state, so the stack is copied, hashed, saved and undone with the rest of the position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side

if TYPE_CHECKING:
    from tobruk.engine.game import Game

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide what now: the side, the step's key, a prompt a person can read, and its rule."""

    side: Side
    phase: str
    prompt: str
    clause: str

    def __str__(self) -> str:
        return f"{self.side.display}: {self.prompt}"


def on(*types: type[Action]) -> Callable[[F], F]:
    """Mark a step's or frame's method as what happens when one of these actions is played.

    The method is called as ``handler(game, decision, action)``; it checks the action (raising
    :class:`IllegalOrderError` with the clause) and carries it out; it returns ``True`` when the
    action ends a step.  A failed action changes nothing: the game restores the position.
    """

    def mark(fn: F) -> F:
        fn.__dict__["handles"] = types
        return fn

    return mark


class Node:
    """What steps and frames share: a decision, the legal actions, handlers by action type."""

    key: str = ""
    title: str = ""
    clause: str = ""
    handlers: ClassVar[dict[type[Action], str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found: dict[type[Action], str] = {}
        for klass in reversed(cls.__mro__):
            for name, member in vars(klass).items():
                for t in getattr(member, "handles", ()):
                    found[t] = name
        cls.handlers = found

    def decision(self, game: Game) -> Decision | None:
        """The decision this node asks for now, or ``None`` when it runs by itself."""
        return None

    def actions(self, game: Game, decision: Decision) -> Iterable[Action]:
        """Every legal action now (never empty while a decision is open)."""
        return ()

    def action_blocks(self, game: Game, decision: Decision) -> Iterable[Sequence[Action]]:
        """The legal actions in blocks, in the order of :meth:`actions`.

        A node whose listing is mostly blocks it hands out again unchanged from one position to the next (a
        unit's moves, kept with its reach search) returns them here as the same tuple objects: the game then
        works out each block's action ids once, not once per position.  By default, one block.
        """
        return (tuple(self.actions(game, decision)),)

    def handle(self, game: Game, decision: Decision, action: Action) -> bool:
        """Check and carry out ``action``; ``True`` when it ends the step."""
        name = self.handlers.get(type(action))
        if name is None:
            raise self.refuse(game, decision, action)
        result: bool | None = getattr(self, name)(game, decision, action)
        return bool(result)

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        """The error for an action this node does not accept now (a system may name a better clause)."""
        return IllegalOrderError(decision.clause, f"'{action.notation()}' is not an order now; {decision}")

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """What ``action`` does here, in words a player reads on a button: by default the action's own words
        (:meth:`Action.says`, made from its fields alone).  A node overrides it where the fields do not say what the
        player needs to choose: which unit acts, what it risks (an interception names the air unit that goes up, the
        one it meets and the chances the air table gives).  Asked of the position as ``decision.side`` knows it
        (:func:`~tobruk.engine.information.observed`, see :func:`~tobruk.engine.offers.in_context`), so the words are the
        same whatever that side cannot see."""
        return action.says()

    def warns(self, game: Game, decision: Decision, action: Action) -> str:
        """What ``action``, legal here, would cost by the rules later on, in words a face shows before it is made ("H4
        would then hold 3 division-level units, over the stacking limit ..."); "" when nothing.  Asked of the position
        as ``decision.side`` knows it, as :meth:`says` is (see :func:`~tobruk.engine.offers.in_context`)."""
        return ""

    def heading(self, game: Game, decision: Decision, action: Action) -> str:
        """The heading ``action`` is listed under, which a face shows as the name of a form of a unit's order (a move,
        a move by trucks): by default the action's own (:meth:`Action.group`).  A node overrides it to word a form in
        context (what it costs, how many are left), asked of the position as ``decision.side`` knows it, as
        :meth:`says` is; every action of one form must get the same heading for one unit."""
        return action.group()


class Step(Node):
    """One step of the sequence of play (a phase, in the charts' words).  ``side``: who decides in it.

    Steps are made once per system and shared by its games; one class may serve several steps (the
    Axis and the Allied movement) with a different key, title, clause and side.
    """

    side: Side | None = None
    decides: ClassVar[bool] = True  # False for a step that always runs by itself (a victory determination)

    def __init__(self, key: str = "", title: str = "", clause: str = "", side: Side | None = None) -> None:
        self.key = key or type(self).key
        self.title = title or type(self).title
        self.clause = clause or type(self).clause
        self.side = side

    def enter(self, game: Game) -> None:
        """Called once when the game enters the step, before anyone decides in it (may roll dice)."""

    def finish(self, game: Game) -> None:
        """The automatic part at the step's end (or the whole of a step nobody decides)."""

    def ending_costs(self, game: Game, side: Side) -> str:
        """What ending the step now would cost ``side`` by the rules, in words a face asks it to confirm ("1SADiv,
        18IndBde: spent next to enemy units nobody attacked, so they must retreat (AR, GG-IX.B)"); "" when nothing.
        Asked of the position as the side knows it (:func:`~tobruk.engine.information.observed`), so the words are
        the same whatever it cannot see."""
        return ""

    def unended(self, game: Game, side: Side) -> IllegalOrderError | None:
        """Why ``side`` may not end the step now, when the rules hold it there (the attacks it still owes, and who owes
        them), as its clause and words a face shows beside the missing end button; ``None`` when it may end it or
        the step says nothing.  A face asks it of the position as ``side`` knows it
        (:func:`~tobruk.engine.information.observed`), so the words are the same whatever that side cannot see."""
        return None

    def __repr__(self) -> str:
        return f"<step {self.key}>"


@dataclass(frozen=True)
class Frame(Node):
    """A nested decision on the stack.  Subclasses are frozen dataclasses holding what the decision is about.

    A frame with nothing to decide is settled by :meth:`settle` (by default it pops itself).
    """

    def settle(self, game: Game) -> None:
        game.pop_frame()
