"""An assault played out (OC-CRT.1-6, OC-MC), as frames on the decision stack.

:class:`Declaring` is the assault being made: the Allied player adds the units of one hex next to the target, may
name the leader and call the Inshore Squadron, then declares (or abandons).  :class:`Assault` then plays it: the
ground support die and the chits drawn (OC-CRT.1), the naval die (CRT.3), the entry of the table (CRT.5), each
defender's morale check with the Italian number, the leader's with the Allied one (CRT.6, MC.1), the excess of the
leader's losses taken by the rest of the stack as the Allied player chooses, a red entry's checks of the support
units, and the stack's advance into the hex if it emptied.  Every die is a chance node; the frame keeps what the
dice gave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine import chance
from tobruk.engine.actions import Action
from tobruk.engine.chance import Chance, Outcome, cup, labelled
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Abandon, Add, Declare
from tobruk.systems.operation_compass import combat as cb
from tobruk.systems.operation_compass.actions import Advance, Lead, Lose, Naval, Stay
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.counters import compass_defs, compass_unit
from tobruk.systems.operation_compass.morale import Checks, MoraleRoll, lose_steps, lost_modifier
from tobruk.systems.operation_compass.moves import hold
from tobruk.systems.operation_compass.state import compass_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

ALLIED, ITALIAN = Side.ALLIED, Side.AXIS


def candidates(game: Game, target: Hex, attackers: Sequence[str]) -> list[str]:
    """The units that may join an assault on ``target`` with ``attackers`` already in it: each making a stack that
    :func:`combat.check_stack` accepts (whoever leads it: a stack of support units alone is still being made)."""
    out = []
    first = compass_unit(game, attackers[0]).hex if attackers else None
    for uid, h in game.placed(ALLIED):
        if uid in attackers or not h.is_adjacent(target) or (first is not None and h != first):
            continue  # (a stack the check would refuse: not next to the target, or not the stack's hex)
        try:
            cb.check_stack(game, target, [*attackers, uid])
        except IllegalOrderError:
            continue
        out.append(uid)
    return out


@dataclass(frozen=True)
class Declaring(Frame):
    """The assault being made on ``target``: the units added so far, the leader named (if any), naval support."""

    target: Hex
    attackers: tuple[str, ...] = ()
    leader: str | None = None
    naval: bool = False

    def current_leader(self, game: Game) -> str | None:
        return self.leader if self.leader is not None else cb.default_leader(game, self.attackers)

    def decision(self, game: Game) -> Decision:
        return Decision(
            ALLIED,
            game.step.key,
            f"assault {self.target}: add the units of one hex next to it, name the leader, call naval support, "
            "then declare it (or drop it)",
            "OC-CRT.6",
        )

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        out: list[Action] = [Add(u) for u in candidates(game, self.target, self.attackers)]
        leader = self.current_leader(game)
        out += [Lead(u) for u in self.attackers if u != leader and not compass_defs(game)[u].is_support]
        if not self.naval and cb.naval_allowed(game, self.target) and self.attackers:
            out.append(Naval())
        if self._refusal(game) is None:
            out.append(Declare())
        out.append(Abandon())
        return out

    def _refusal(self, game: Game) -> IllegalOrderError | None:
        try:
            cb.check(game, self.target, self.attackers, self.current_leader(game))
        except IllegalOrderError as refused:
            return refused
        return None

    @on(Add)
    def add(self, game: Game, decision: Decision, action: Add) -> None:
        if action.factors is not None:
            raise IllegalOrderError("OC-CRT.5", "a unit assaults with all of its strength")
        cb.check_stack(game, self.target, (*self.attackers, action.unit))
        game.replace_frame(replace(self, attackers=(*self.attackers, action.unit)))

    @on(Lead)
    def lead(self, game: Game, decision: Decision, action: Lead) -> None:
        if action.unit not in self.attackers or compass_defs(game)[action.unit].is_support:
            raise IllegalOrderError("OC-CRT.6", "the leader is one of the stack's combat units (not a support unit)")
        game.replace_frame(replace(self, leader=action.unit))

    @on(Naval)
    def call_navy(self, game: Game, decision: Decision, action: Naval) -> None:
        if self.naval or not cb.naval_allowed(game, self.target):
            raise IllegalOrderError("OC-CRT.3", "naval support: only against a hex by the sea, twice a turn (ruling R-OC-NAVAL)")
        game.replace_frame(replace(self, naval=True))

    @on(Declare)
    def declare(self, game: Game, decision: Decision, action: Declare) -> None:
        refused = self._refusal(game)
        if refused is not None:
            raise refused
        leader = self.current_leader(game)
        assert leader is not None
        a = cb.assess(game, self.target, self.attackers, leader)
        for uid in self.attackers:
            u = compass_unit(game, uid)
            u.assaulted = True
            if compass_defs(game)[uid].is_support:
                u.fired = True
        if self.naval:
            compass_vars(game).naval_used += 1
        game.pop_frame()
        game.log(
            f"Allied: assault on {self.target} by {', '.join(self.attackers)}, led by {leader}"
            + (", with naval support" if self.naval else "")
            + f": {'; '.join(a.lines)}; DRM so far {a.drm:+d}.",
            kind="battle",
        )
        game.push_frame(Assault(self.target, self.attackers, leader, self.naval, a.defenders, a.drm, a.attack - a.defence, a.oos))

    @on(Abandon)
    def abandon(self, game: Game, decision: Decision, action: Abandon) -> None:
        game.pop_frame()


@dataclass(frozen=True)
class Assault(Checks, Frame):
    """A declared assault being played out, ``stage`` by stage (see the module); ``drm`` and ``strength`` as assessed,
    the chits and the naval DRM as the dice give them, the entry once read, the units still to check."""

    target: Hex
    attackers: tuple[str, ...]
    leader: str
    naval: bool
    defenders: tuple[str, ...]
    drm: int
    strength: int
    oos: int
    stage: str = "chits"
    allied_to_draw: int = 0
    italian_to_draw: int = 0
    allied_chits: tuple[int, ...] = ()
    italian_chits: tuple[int, ...] = ()
    naval_drm: int = 0
    entry: tuple[int, int, bool] | None = None
    to_check: tuple[str, ...] = ()
    excess: int = 0

    def net_drm(self) -> int:
        return self.drm - sum(self.allied_chits) + sum(self.italian_chits) - self.naval_drm

    # --- the player's choices within it -------------------------------------------------------------------
    def decision(self, game: Game) -> Decision | None:
        if self.stage == "casualties" and self._takers(game):
            return Decision(ALLIED, game.step.key, f"take {self.excess} more step(s) of the assault's losses from the stack", "OC-CRT.6")
        if self.stage == "advance" and self._advancing(game):
            return Decision(ALLIED, game.step.key, f"advance into {self.target} with the stack, or stay", "OC-CRT.6")
        return None

    def _takers(self, game: Game) -> list[str]:
        """The units that may take an excess loss: the rest of the stack, while they last (losses are in excess only
        once the leader has lost every step it had, ruling R-OC-EXCESS)."""
        return [u for u in self.attackers if u != self.leader and not compass_unit(game, u).eliminated]

    def _advancing(self, game: Game) -> list[str]:
        if cb.italians_in(game, self.target):
            return []
        return [u for u in self.attackers if not compass_unit(game, u).eliminated]

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        if self.stage == "casualties":
            return [Lose(u) for u in self._takers(game)]
        return [Advance(), Stay()]

    @on(Lose)
    def lose(self, game: Game, decision: Decision, action: Lose) -> None:
        if self.stage != "casualties" or action.unit not in self._takers(game):
            raise IllegalOrderError("OC-CRT.6", f"the excess losses are taken by the rest of the stack: {', '.join(self._takers(game))}")
        lose_steps(game, action.unit, 1, "the assault's excess losses")
        game.replace_frame(replace(self, excess=self.excess - 1) if self.excess > 1 else replace(self, excess=0, stage="red"))

    @on(Advance)
    def advance(self, game: Game, decision: Decision, action: Advance) -> None:
        self._must_be(game, "advance")
        units = self._advancing(game)
        for uid in units:
            compass_unit(game, uid).hex = self.target
        hold(game, ALLIED, (self.target,))
        game.log(f"Allied: {', '.join(units)} advance into {self.target}.", kind="move")
        game.replace_frame(replace(self, stage="done"))

    @on(Stay)
    def stay(self, game: Game, decision: Decision, action: Stay) -> None:
        self._must_be(game, "advance")
        game.replace_frame(replace(self, stage="done"))

    def _must_be(self, game: Game, stage: str) -> None:
        if self.stage != stage:
            raise IllegalOrderError("OC-CRT.6", f"not now: {self.stage}")

    # --- what runs by itself --------------------------------------------------------------------------------
    def settle(self, game: Game) -> None:
        charts = chart(game)
        stage = self.stage
        if stage == "chits":
            game.push_frame(AssaultRoll("chits"))
        elif stage == "allied-chits":
            if len(self.allied_chits) < self.allied_to_draw:
                game.push_frame(AssaultRoll("allied-chit"))
            else:
                game.replace_frame(replace(self, stage="italian-chits"))
        elif stage == "italian-chits":
            if len(self.italian_chits) < self.italian_to_draw:
                game.push_frame(AssaultRoll("italian-chit"))
            else:
                game.replace_frame(replace(self, stage="naval"))
        elif stage == "naval":
            if self.naval:
                game.push_frame(AssaultRoll("naval"))
            else:
                game.replace_frame(replace(self, stage="entry"))
        elif stage == "entry":
            e = charts.crt.entry(self.net_drm(), self.strength)
            column = charts.crt.column_names[charts.crt.column(self.strength)]
            game.log(
                f"Assault on {self.target}: net DRM {self.net_drm():+d}, column {column}: {e} (Allied/Italian, OC-CRT.5).",
                kind="battle",
            )
            alive = tuple(u for u in self.defenders if compass_unit(game, u).hex == self.target)
            game.replace_frame(replace(self, stage="italian-checks", entry=(e.allied, e.italian, e.red), to_check=alive))
        elif stage == "italian-checks":
            if self.to_check:
                uid = self.to_check[0]
                assert self.entry is not None
                mods = (("Italian number of the table", self.entry[1]), *lost_modifier(game, uid))
                game.push_frame(MoraleRoll(uid, mods, f"assault on {self.target}"))
            else:
                game.replace_frame(replace(self, stage="leader-check"))
        elif stage == "leader-check":  # (the Italian checks cannot touch the leader: it is there to check)
            assert self.entry is not None
            oos = ((f"{self.oos} unit{'s' if self.oos != 1 else ''} of the stack out of supply", self.oos),) if self.oos else ()
            mods = (("Allied number of the table", self.entry[0]), *lost_modifier(game, self.leader), *oos)
            game.push_frame(MoraleRoll(self.leader, mods, f"leading the assault on {self.target}"))
        elif stage == "red":
            assert self.entry is not None
            support = tuple(u for u in self.attackers if compass_defs(game)[u].is_support and not compass_unit(game, u).eliminated)
            game.replace_frame(replace(self, stage="red-checks", to_check=support if self.entry[2] else ()))
        elif stage == "red-checks":
            if self.to_check:
                game.push_frame(MoraleRoll(self.to_check[0], (), "a red entry of the table"))
            else:
                game.replace_frame(replace(self, stage="advance"))
        else:  # the advance made or refused, or nothing to advance or no one left to take the excess losses: the end
            game.pop_frame()

    def rolled(self, game: Game, what: str, value: int) -> None:
        """A die or a chit of the assault has fallen."""
        charts = chart(game)
        if what == "chits":
            allied, italian = charts.chits[value - 1]
            game.log(f"Ground support: die {value}: {allied} Allied and {italian} Italian chit(s) (OC-CRT.1).", kind="battle")
            game.replace_frame(replace(self, stage="allied-chits", allied_to_draw=allied, italian_to_draw=italian))
        elif what == "allied-chit":
            game.log(f"Allied ground support chit: -{value}.", kind="battle")
            game.replace_frame(replace(self, allied_chits=(*self.allied_chits, value)))
        elif what == "italian-chit":
            game.log(f"Italian ground support chit: +{value}.", kind="battle")
            game.replace_frame(replace(self, italian_chits=(*self.italian_chits, value)))
        else:
            bonus, drm = cb.naval_bonus(game, self.target), cb.naval_drm(game, self.target, value)
            game.log(f"Naval support: die {value}{' +1' if bonus else ''}: -{drm} (OC-CRT.3).", kind="battle")
            game.replace_frame(replace(self, stage="entry", naval_drm=drm))

    def checked(self, game: Game, uid: str, failed_by: int, steps_taken: int) -> None:
        top = game.top(Assault)
        assert top is not None
        if top.stage == "leader-check":
            excess = chart(game).steps_lost(failed_by) - steps_taken
            game.replace_frame(replace(top, stage="casualties", excess=excess) if excess > 0 else replace(top, stage="red"))
        else:
            game.replace_frame(replace(top, to_check=top.to_check[1:]))


@dataclass(frozen=True)
class AssaultRoll(Chance):
    """One die or chit of the assault beneath: ``what`` is "chits" (the ground support die), "allied-chit" or
    "italian-chit" (a chit drawn from what is left in the cup) or "naval" (the Inshore Squadron's die)."""

    what: str

    def _assault(self, game: Game) -> Assault:
        """The assault beneath (asked while the roll is on top of the stack)."""
        below = game.state.stack[-2]
        assert isinstance(below, Assault)
        return below

    def purpose(self, game: Game) -> str:
        a = self._assault(game)
        return {
            "chits": f"ground support, assault on {a.target}",
            "allied-chit": f"Allied ground support chit, assault on {a.target}",
            "italian-chit": f"Italian ground support chit, assault on {a.target}",
            "naval": f"naval support, assault on {a.target}",
        }[self.what]

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        charts, a = chart(game), self._assault(game)
        if self.what == "chits":
            return labelled(chance.die(6), [f"{x} Allied, {y} Italian" for x, y in charts.chits])
        if self.what in ("allied-chit", "italian-chit"):
            full, drawn = (charts.allied_cup, a.allied_chits) if self.what == "allied-chit" else (charts.italian_cup, a.italian_chits)
            left = list(full)
            for value in drawn:
                left.remove(value)
            return cup(left)
        return chance.die(6)

    def resolve(self, game: Game, value: int) -> None:
        top = game.top(Assault)
        assert top is not None
        top.rolled(game, self.what, value)
