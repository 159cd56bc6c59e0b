"""An air mission waiting for the enemy's answer (intercept it or let it go), and the dice of the air war.

In the family's air rules a mission flown over a hex may be intercepted by the enemy's air unit before it is
resolved (GG-X.B.3, FA-AIR.1).  The question belongs to the enemy, not to the side flying, so it is a frame
on the decision stack: the step that launched the mission is suspended until the enemy answers.  What an
interception does and which air unit makes it are the system's (:meth:`AirMission.interceptor`,
:meth:`AirMission.resolve`).

The interceptor's die and the ground attack's dice are chance nodes (:mod:`tobruk.engine.chance`): an interception
is one roll (:class:`InterceptionRoll`), a ground attack one roll per unit in the hex, top to bottom, until the
anti-aircraft fire knocks the air unit out (:class:`AirAttacks`); what each result does is the system's.

The answer is offered in words that say what it means (:meth:`AirMission.says`): the interception names the air unit
that goes up, the one it meets and the chance of each result, read from the interception roll's own outcomes (the
system's air table), so the button and the die never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from tobruk.engine.actions import Action
from tobruk.engine.chance import Chance, Outcome, die, grouped, labelled
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, Frame, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Intercept, NoIntercept

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass(frozen=True)
class AirMission(Frame):
    """``side``'s air unit ``air`` on a mission over ``hex`` (a hex label), the enemy to answer."""

    side: str
    air: str
    hex: str | None
    clause = ""

    def decision(self, game: Game) -> Decision | None:
        return Decision(Side(self.side).enemy, game.step.key, f"intercept {self.air}'s mission over {self.hex}, or not", self.clause)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [Intercept(), NoIntercept()]

    @on(Intercept)
    def intercept(self, game: Game, decision: Decision, action: Action) -> None:
        game.pop_frame()
        self.resolve(game, self.interceptor(game, decision.side))

    @on(NoIntercept)
    def let_it_go(self, game: Game, decision: Decision, action: Action) -> None:
        game.pop_frame()
        self.resolve(game, None)

    def refuse(self, game: Game, decision: Decision, action: Action) -> IllegalOrderError:
        return IllegalOrderError(self.clause, f"answer the air mission first: intercept or no-intercept, not '{action.notation()}'")

    def interceptor(self, game: Game, side: Side) -> str | None:
        """The air unit that intercepts for ``side`` (it is offered only when there is one)."""
        raise NotImplementedError

    def resolve(self, game: Game, interceptor: str | None) -> None:
        """The mission after the enemy's answer (``None``: not intercepted)."""
        raise NotImplementedError

    def interception(self, game: Game, interceptor: str) -> InterceptionRoll:
        """The roll ``interceptor`` would make against this mission (its outcomes labelled with the air table's results)."""
        raise NotImplementedError

    # how long a knocked-out air unit stays down, in the system's words, with its clause
    knocked_out_for: ClassVar[str] = ""

    def goes_on(self, game: Game) -> str:
        """What the mission does when nothing stops it, in words for the side answering it."""
        return f"{self.air}'s mission over {self.hex} goes on"

    def says(self, game: Game, decision: Decision, action: Action) -> str:
        """The answers in words: the interception names the air unit that goes up, the one it meets, the chance of
        each result (the interception roll's outcomes) and what it costs; letting the mission go says what it does."""
        if isinstance(action, NoIntercept):
            return f"Do not intercept: {self.goes_on(game)}"
        interceptor = self.interceptor(game, decision.side)
        if not isinstance(action, Intercept) or interceptor is None:
            return action.says()
        means = {
            "EAX": f"{self.air} knocked out (EAX)",
            "Int": f"{self.air} turned back (Int)",
            "AA": f"{interceptor} knocked out (AA) and the mission goes on",
        }
        told = chances_in_words(self.interception(game, interceptor).outcomes(game), means, "no effect, the mission goes on")
        over = f" over {self.hex}" if self.hex else ""
        return (
            f"Intercept with {interceptor} against {self.air}{over}: {told}; "
            f"a knocked-out air unit is out {self.knocked_out_for}; {interceptor} is then used for this game-turn (GG-X.A)"
        )


@dataclass(frozen=True)
class InterceptionRoll(Chance):
    """The interceptor's die against the air unit it goes up against (GG-X.B.3, FA-AIR.1): the mission of ``side``'s
    air unit ``air`` over ``hex`` (``kind``: what the mission is, in the system's words), met by ``interceptor``,
    which rolls against ``target``."""

    side: str
    air: str
    hex: str | None
    kind: str
    interceptor: str
    target: str

    def purpose(self, game: Game) -> str:
        return f"{self.interceptor} intercepts {self.target}"

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        """One die, each face labelled with its result on the air table (:meth:`result`)."""
        faces = die(6)
        return labelled(faces, [self.result(game, o.value) for o in faces])

    def result(self, game: Game, value: int) -> str:
        """The air table's result of the die ``value`` for this interception: EAX, Int, AA or none (the system's table,
        on the column of the air unit met)."""
        raise NotImplementedError


@dataclass(frozen=True)
class AirAttacks(Chance):
    """``side``'s air unit ``air`` attacks the enemy units in ``hex`` one after another, a die each (GG-X.B.1,
    FA-AIR.1): ``units`` are those still to be attacked, in the order the rules give.  The system says what a die
    does to a unit (:meth:`hit`: ``True`` when the anti-aircraft fire knocks the air unit out, which ends the
    attack) and what follows the attack (:meth:`done`)."""

    side: str
    air: str
    hex: str
    units: tuple[str, ...]

    def purpose(self, game: Game) -> str:
        return f"{self.air} attacks {self.units[0]}"

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        """One die, each face labelled with its result on the unit attacked now (:meth:`result`)."""
        return self.chances(game, self.units[0])

    def chances(self, game: Game, uid: str) -> tuple[Outcome, ...]:
        """The die of this air unit's attack on ``uid``, each face labelled with its result (:meth:`result`): what a
        strike's words read their chances from, so the button and the die never disagree."""
        faces = die(6)
        return labelled(faces, [self.result(game, uid, o.value) for o in faces])

    def result(self, game: Game, uid: str, die: int) -> str:
        """The air table's result of the die ``die`` on ``uid``, as it falls on that unit (an AA code read as AA or as
        nothing), changing nothing: the system's table and reading."""
        raise NotImplementedError

    def resolve(self, game: Game, value: int) -> None:
        if self.hit(game, self.units[0], value):
            return
        if len(self.units) > 1:
            game.push_frame(replace(self, units=self.units[1:]))
        else:
            self.done(game)

    def hit(self, game: Game, uid: str, die: int) -> bool:
        """The die's result on ``uid``, carried out; ``True`` if it knocked the air unit out (the attack ends)."""
        raise NotImplementedError

    def done(self, game: Game) -> None:
        """After the last unit was attacked (the air unit not knocked out)."""

    @classmethod
    def begin(cls, game: Game, side: str, air: str, hex: str, units: tuple[str, ...]) -> None:
        """Attack ``units`` in order (push the first roll), or go straight to what follows when there are none."""
        attack = cls(side, air, hex, units or ("",))
        if units:
            game.push_frame(attack)
        else:
            attack.done(game)


def strike_chances(chances: Callable[[str], Sequence[Outcome]], units: Sequence[str], means: Mapping[str, str], nothing: str) -> str:
    """The chances of an air strike's die on each of ``units`` (those its side may see, in the order attacked; the
    die's faces labelled with their results on each, :meth:`AirAttacks.chances`), as a player reads them: "on Flak:
    1 in 3 DAF knocked out (AA), 1 in 2 disrupted (D), 1 in 6 no effect"."""
    return "; ".join(f"on {u}: {chances_in_words(chances(u), means, nothing)}" for u in units)


def chances_in_words(outcomes: Sequence[Outcome], means: Mapping[str, str], nothing: str) -> str:
    """A roll's chances as a player reads them, an interception's or an air strike's die on one unit ("1 in 6 LW
    knocked out (EAX), 1 in 3 ..."): each result of ``means`` in its order with the chance its outcomes' labels give
    it, then every other result as ``nothing`` (blank codes read as one); a result no face gives is left out."""
    shares: dict[str, Fraction] = {}
    for code, p in grouped(outcomes):
        what = means.get(code, nothing)
        shares[what] = shares.get(what, Fraction(0)) + p
    return ", ".join(f"{in_words(shares[what])} {what}" for what in (*means.values(), nothing) if what in shares)


def in_words(p: Fraction) -> str:
    """A chance as a player says it: "1 in 3", "2 in 3", "always"."""
    return "always" if p == 1 else f"{p.numerator} in {p.denominator}"
