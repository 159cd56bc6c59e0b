"""Operation Compass's advice to a computer player (``System.advisor``): the Western Desert Force's plain preferences,
one order ahead, and the Italians' retreats as the rules choose them (ruling R-OC-POLICY) when a player plays them.

Everything on the map is face up in this game, so the advice reads the position as the side's view shows it.  Each
stage of the WDF's turn, as :func:`candidates` lists it:

* inside an assault: advance into the hex it emptied; the Inshore Squadron's support while it may be called; the
  excess step losses from the unit with the most steps; declare an assault it has gathered;
* the bombardment: every hex the guns can reach, valued by the Italian steps there;
* the movement: each move that brings a unit nearer to what it should take (the nearest Italian-held hex or a
  place that scores, not yet the WDF's), valued by the hexes gained, a move out of the supply range not at all;
* the assaults: each hex's whole stack against each Italian-held hex next to it, valued by the expected points
  (Italian steps lost at the charts' points, less the WDF's at theirs, from the exact distributions);
* the end of the phase otherwise (worth nothing, so anything of positive value comes first).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.engine.system import Advisor
from tobruk.mechanics.actions import Attack, Declare, EndPhase, Move, Target
from tobruk.systems.operation_compass import combat as cb
from tobruk.systems.operation_compass.actions import Advance, Bombard, Lose, Naval, Withdraw
from tobruk.systems.operation_compass.assault import candidates as able_attackers
from tobruk.systems.operation_compass.charts import chart
from tobruk.systems.operation_compass.counters import compass_unit
from tobruk.systems.operation_compass.moves import in_supply
from tobruk.systems.operation_compass.retreat import choose_withdrawal
from tobruk.systems.operation_compass.state import compass_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

ALLIED, ITALIAN = Side.ALLIED, Side.AXIS


def whole_assaults(game: Game) -> list[Attack]:
    """Whole assaults worth a look: against each Italian-held hex, from each hex next to it, its whole stack (the
    stacks no one in may lead, the guns alone, left out)."""
    out: list[Attack] = []
    for target in sorted(game.occupants(ITALIAN)):
        by_hex: dict[Hex, list[str]] = {}
        for uid in able_attackers(game, target, ()):
            h = compass_unit(game, uid).hex
            assert h is not None
            by_hex.setdefault(h, []).append(uid)
        for stack in by_hex.values():
            leader = cb.default_leader(game, stack)
            if leader is None:
                continue
            try:
                cb.check(game, target, stack, leader)
            except IllegalOrderError:
                continue
            out.append(Attack((target,), tuple(stack)))
    return out


def assault_value(game: Game, attack: Attack) -> float | None:
    """The expected points of an assault to the WDF: the Italian steps it costs at the charts' points for each, less
    the WDF's steps at theirs; ``None`` for one the rules refuse."""
    if len(attack.defenders) != 1:
        return None
    try:
        a = cb.assess(game, attack.defenders[0], attack.attackers, cb.default_leader(game, attack.attackers))
    except IllegalOrderError:
        return None
    charts = chart(game)
    italian = sum((int(label.split()[0]) * p for label, p in cb.italian_losses(game, a)), Fraction(0))
    allied = sum((n * p for n, p in cb.allied_losses(game, a).items()), Fraction(0))
    return float(charts.italian_step_points * italian - charts.allied_step_points * allied)


def goals(game: Game) -> frozenset[Hex]:
    """What the WDF should take: the hexes the Italians hold and the places that score it does not hold yet."""
    zones = game.scenario.map.zones
    held = compass_vars(game).held
    places = {h for name in chart(game).place_points for h in zones.get(name, frozenset()) if held.get(h.label) != ALLIED.value}
    return frozenset(game.occupants(ITALIAN)) | frozenset(places)


def distance_to(h: Hex, targets: frozenset[Hex]) -> int:
    return min((h.distance(t) for t in targets), default=0)


class CompassAdvisor(Advisor):
    """The advice to ``side`` on the game's current decision (see the module's text)."""

    def __init__(self, game: Game, side: Side) -> None:
        self.game, self.side = game, side
        self._values: dict[Action, float] = {}

    def value(self, action: Action) -> float | None:
        if action in self._values:
            return self._values[action]
        if isinstance(action, Attack):
            return assault_value(self.game, action)
        if isinstance(action, Move):
            return self.move_value(action)
        return None

    def candidates(self) -> Sequence[Action]:
        legal = self.game.legal_orders()
        if not legal:
            return ()
        if self.side is ITALIAN:  # the Italians only retreat: as the rules would (ruling R-OC-POLICY)
            withdrawals = [a for a in legal if isinstance(a, Withdraw)]
            return self._valued([(choose_withdrawal(self.game, withdrawals) if withdrawals else legal[0], 0.0)])
        for first in (Advance(), Naval(), Declare()):
            if first in legal:
                return self._valued([(first, 0.0)])
        losses = [a for a in legal if isinstance(a, Lose)]
        if losses:
            return self._valued([(a, float(compass_unit(self.game, a.unit).steps)) for a in losses])
        ends: list[tuple[Action, float]] = [(EndPhase(), 0.0)] if EndPhase() in legal else []
        scored: list[tuple[Action, float]] = []
        if any(isinstance(a, Bombard) for a in legal):
            scored = [(a, float(self.italian_steps(a.hex))) for a in legal if isinstance(a, Bombard)]
        elif any(isinstance(a, Move) for a in legal):
            scored = [(a, v) for a in legal if isinstance(a, Move) and (v := self.move_value(a)) > 0]
        elif any(isinstance(a, Target) for a in legal):
            for attack in whole_assaults(self.game):
                worth = assault_value(self.game, attack)
                if worth is not None:
                    scored.append((attack, worth))
        return self._valued(scored + ends or [(legal[0], 0.0)])

    def _valued(self, scored: Sequence[tuple[Action, float]]) -> list[Action]:
        for a, v in scored:
            self._values[a] = v
        return [a for a, _ in scored]

    def italian_steps(self, h: Hex) -> int:
        return sum(compass_unit(self.game, u).steps for u in cb.italians_in(self.game, h))

    def move_value(self, move: Move) -> float:
        """Hexes gained toward the nearest goal; nothing for a move that ends beyond the supply range (OC-MC.1's
        check for units out of supply is not worth a hex)."""
        here = compass_unit(self.game, move.unit).hex
        if here is None or move.path[-1] not in in_supply(self.game, ALLIED):
            return 0.0
        targets = goals(self.game)
        return float(distance_to(here, targets) - distance_to(move.path[-1], targets))


def advisor(game: Game, side: Side) -> CompassAdvisor:
    return CompassAdvisor(game, side)
