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

    # --- the limit in words, and what going over it costs ---------------------------------------------------
    def counted(self, game: Game, uids: list[str]) -> tuple[int, int]:
        """How many of these units count against the limit, and how many of those are division-level."""
        counted = [u for u in uids if self.counts(game, u)]
        return len(counted), sum(bool(self.division(game, u)) for u in counted)

    def excess(self, game: Game, uids: list[str]) -> tuple[int, int]:
        """How many of these units (one side's, in one hex) must go to bring the hex within the limit, and how many of
        those at least must be division-level (each division-level unit that goes brings both counts down; any other
        only the number of units)."""
        units, divisions = self.counted(game, uids)
        over_divisions = max(divisions - self.divisions, 0)
        return max(units - self.units, over_divisions), over_divisions

    def limit_words(self) -> str:
        """The limit, as the charts put it: "3 units, only 2 of them division-level"."""
        return f"{self.units} units, only {self.divisions} of them division-level"

    def holding(self, game: Game, uids: list[str]) -> str:
        """What these units amount to for the limit: "4 units, 3 of them division-level"."""
        units, divisions = self.counted(game, uids)
        return f"{_units(units)}, {divisions} of them division-level"

    def must_go(self, game: Game, uids: list[str], verb: str = "must be eliminated", more: str = "") -> str:
        """How many of these units must be eliminated: "2 must be eliminated, at least 1 of them division-level"."""
        n, divisions = self.excess(game, uids)
        if divisions and divisions == n:
            return f"{n}{more} division-level {'unit' if n == 1 else 'units'} {verb}"
        least = f", at least {divisions} of them division-level" if divisions else ""
        return f"{n}{more} {verb}{least}"

    def to_eliminate(self, game: Game, h: Hex, uids: list[str]) -> str:
        """Which units of a hex over the limit must go, in words: "2 of the 5 in A1, at least 1 of its 3 division-level
        ones"."""
        n, least = self.excess(game, uids)
        units, divisions = self.counted(game, uids)
        if least and least == n:
            return f"{n} of the {divisions} division-level units in {h.label}"
        return f"{n} of the {units} in {h.label}" + (f", at least {least} of its {divisions} division-level ones" if least else "")

    def over(self, game: Game, h: Hex, uids: list[str]) -> str:
        """One hex over the limit in words: what it holds, the limit, and how many units must go."""
        return f"{h.label} holds {self.holding(game, uids)}, over the stacking limit ({self.limit_words()}): {self.must_go(game, uids)}"

    def ending_costs(self, game: Game, side: Side) -> str:
        """What ending the owner's movement or attack phase now costs him by this limit (the clause's elimination), in
        words; "" when no hex of his is over it.  His own stacks only, which he knows."""
        over = self.overstacked(game, side)
        hexes = "; ".join(self.over(game, h, over[h]) for h in sorted(over))
        return f"{hexes} ({self.clause})" if hexes else ""

    def move_warning(self, game: Game, side: Side, uid: str, to: Hex, entering: bool = False) -> str:
        """What moving ``uid`` to ``to`` (or its ``entering`` the map there, a reinforcement) does to the limit there, in
        words, when it puts (or keeps) the hex over it; "" otherwise (a unit that counts for nothing: a dummy, an air
        unit).  Moving into a crowded hex is allowed: the limit is checked as the phase ends (ruling R-STACK), when
        units still over it are eliminated."""
        placed = self.on_map(game, side)
        if not self.counts(game, uid) or (not entering and all(u != uid for u, _ in placed)):
            return ""
        there = [u for u, h in placed if h == to and u != uid] + [uid]
        if self.problem(game, there) is None:
            return ""
        return (
            f"{to.label} would then hold {self.holding(game, there)}, over the stacking limit ({self.limit_words()}): unless "
            f"units leave it, {self.must_go(game, there)} at the end of the phase ({self.clause})"
        )

    def relieves(self, game: Game, uids: list[str], uid: str) -> bool:
        """Whether eliminating ``uid`` (one of ``uids``, a hex over the limit) brings that hex one unit nearer to it: no
        more units go than the excess (GG-XII.B: the units in excess are eliminated, the owner choosing which)."""
        rest = [u for u in uids if u != uid]
        return self.excess(game, rest)[0] < self.excess(game, uids)[0]

    def relief_words(self, game: Game, uid: str, uids: list[str], h: Hex) -> str:
        """Why eliminating ``uid`` serves: what the hex then holds, and whether more must go."""
        rest = [u for u in uids if u != uid]
        kind = "division-level" if self.division(game, uid) else "not division-level"
        n, _ = self.excess(game, rest)
        then = self.must_go(game, rest, "must go", " more") if n else "within the limit"
        return f"Eliminate {uid} ({kind}): {h.label} then holds {self.holding(game, rest)}: {then}"


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


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
        which = "; ".join(rules.to_eliminate(game, h, over[h]) for h in sorted(over))
        prompt = f"eliminate units over the stacking limit ({rules.limit_words()}): {which}"
        return Decision(Side(self.side), self.step, prompt, rules.clause)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        """The units whose loss brings their hex nearer the limit: no more go than the excess (a unit that is not
        division-level only while the hex holds more units than division-level units over the limit)."""
        rules = stacking(game)
        return [Eliminate(uid) for ids in rules.overstacked(game, decision.side).values() for uid in ids if rules.relieves(game, ids, uid)]

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """An elimination says whether the unit is division-level and what its hex then holds: within the limit, or
        how many more must go."""
        rules = stacking(game)
        if isinstance(action, Eliminate):
            for h, ids in rules.overstacked(game, decision.side).items():
                if action.unit in ids:
                    return rules.relief_words(game, action.unit, ids, h)
        return action.says()

    @on(Eliminate)
    def eliminate(self, game: Game, decision: Decision, order: Eliminate) -> None:
        rules = stacking(game)
        if not any(order.unit in ids and rules.relieves(game, ids, order.unit) for ids in rules.overstacked(game, decision.side).values()):
            raise self.refuse(game, decision, order)
        rules.eliminate(game, order.unit, "over the stacking limit")

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        if isinstance(action, Eliminate) and any(action.unit in ids for ids in stacking(game).overstacked(game, decision.side).values()):
            why = f"losing {action.unit} would not bring its hex nearer the limit: eliminate a division-level unit"
            return IllegalOrderError(stacking(game).clause, f"only the units in excess are eliminated; {why}")
        return IllegalOrderError(stacking(game).clause, f"first eliminate units over the stacking limit; '{action.notation()}' does not")

    def settle(self, game: Game) -> None:
        game.pop_frame()
        phase_vars(game).closing = self.step
