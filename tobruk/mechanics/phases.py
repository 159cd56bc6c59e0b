"""What the family's phases share: a step that asks its side with a fixed prompt, and the end of a movement or
attack phase, where the owner first removes units over the stacking limit.

The stacking limits (so many units, of which so many division-level) and what counts as over them are the
system's, given as :class:`StackingRules` (``system.stacking``); the order of it (the limit holds when the
owner's movement or attack phase ends, the owner chooses which units go) is the family's basic rules, which
the systems whose charts give only the numbers follow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, Step, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Eliminate

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass
class PhaseVars:
    """The part of a system's variables the phases use: the step whose end is under way (its last retreats and
    the stacking check done), after which it ends by itself."""

    closing: str | None = None


phase_vars = cast("Callable[[Game], PhaseVars]", attrgetter("state.vars"))  # a game's variables, typed


class PhaseStep(Step):
    """A step that asks its side with a fixed prompt (by default the title's last words) until it is closing."""

    prompt = ""

    def __init__(self, key: str, title: str, clause: str, side: Side | None, prompt: str = "") -> None:
        super().__init__(key, title, clause, side)
        self.prompt = prompt or title.split(" ", 1)[-1]

    def decision(self, game: Game) -> Decision | None:
        if self.side is None or phase_vars(game).closing == self.key:
            return None
        return self.ask(game, self.side)

    def ask(self, game: Game, side: Side) -> Decision | None:
        return Decision(side, self.key, self.prompt, self.clause)

    def finish(self, game: Game) -> None:
        phase_vars(game).closing = None


@dataclass(frozen=True)
class StackingRules:
    """A system's stacking limit: ``units`` in a hex, of which at most ``divisions`` division-level, and the
    clause that sets it.  ``counts`` says whether a unit counts (dummies, air units do not), ``division`` whether
    it counts as division-level; ``eliminate`` removes a unit over the limit."""

    units: int
    divisions: int
    clause: str
    counts: Callable[[Game, str], bool]
    division: Callable[[Game, str], bool]
    eliminate: Callable[[Game, str, str], None]
    on_map: Callable[[Game, Side], list[tuple[str, Hex]]]

    def problem(self, game: Game, uids: list[str]) -> str | None:
        """Why these units of one side may not share a hex, or ``None``."""
        counted = [u for u in uids if self.counts(game, u)]
        if len(counted) > self.units:
            return f"at most {self.units} units in a hex"
        if sum(bool(self.division(game, u)) for u in counted) > self.divisions:
            return f"at most {self.divisions} division-level units in a hex"
        return None

    def overstacked(self, game: Game, side: Side) -> dict[Hex, list[str]]:
        """The side's hexes over the limit, with the units in each."""
        stacks: dict[Hex, list[str]] = {}
        for uid, h in self.on_map(game, side):
            stacks.setdefault(h, []).append(uid)
        return {h: ids for h, ids in stacks.items() if self.problem(game, ids) is not None}


def stacking(game: Game) -> StackingRules:
    rules = getattr(game.system, "stacking", None)
    if not isinstance(rules, StackingRules):
        raise TypeError(f"{game.system.name} has no stacking rules")
    return rules


def close_step(game: Game, side: Side) -> None:
    """The current movement or attack phase may end: first the owner eliminates units over the stacking limit."""
    if stacking(game).overstacked(game, side):
        game.push_frame(Overstacked(game.step.key, side.value))
    else:
        phase_vars(game).closing = game.step.key


@dataclass(frozen=True)
class Overstacked(Frame):
    """At the end of his movement or attack phase the owner eliminates units over the limit, one by one."""

    step: str
    side: str

    def decision(self, game: Game) -> Decision | None:
        rules = stacking(game)
        over = rules.overstacked(game, Side(self.side))
        if not over:
            return None
        hexes = " ".join(h.label for h in sorted(over))
        return Decision(Side(self.side), self.step, f"eliminate units over the stacking limit in {hexes}", rules.clause)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Eliminate(uid) for ids in stacking(game).overstacked(game, decision.side).values() for uid in ids]

    @on(Eliminate)
    def eliminate(self, game: Game, decision: Decision, order: Eliminate) -> None:
        rules = stacking(game)
        if not any(order.unit in ids for ids in rules.overstacked(game, decision.side).values()):
            raise self.refuse(game, decision, order)
        rules.eliminate(game, order.unit, "over the stacking limit")

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError(stacking(game).clause, f"first eliminate units over the stacking limit; '{action.notation()}' does not")

    def settle(self, game: Game) -> None:
        game.pop_frame()
        phase_vars(game).closing = self.step
