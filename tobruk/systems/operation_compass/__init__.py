"""Operation Compass, the battle of Sidi Barrani (9-12 December 1940): a game system of this package's engine.

Reconstructed from Lou Coatney's charts alone (clause ids OC-*): no rules text, map, counter sheet, morale rating,
movement allowance, turn count or victory condition has come down with them, so each of those is rebuilt from the
historical record and from what the charts imply, and decided once in docs/rulings.md ("Operation Compass") and
docs/reconstruction.md.  Units have steps and a morale rating; an assault's column is a strength difference and its
row a net DRM, and the table gives each side a number its units' morale checks add (:mod:`.combat`, :mod:`.assault`);
bombardments (:mod:`.bombardment`); the Italians stand in their camps until the Retreat Phase sends the shaken back
toward their supply (:mod:`.retreat`), which the rules play in a solitaire game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tobruk.board.units import UnitDef
from tobruk.engine.actions import Action
from tobruk.engine.flow import Decision, Step
from tobruk.engine.sides import Side
from tobruk.engine.system import Objective, ResultTable, Solitaire, System, register
from tobruk.loading.datafile import Table, read_toml
from tobruk.systems.operation_compass import faces
from tobruk.systems.operation_compass import moves as mv
from tobruk.systems.operation_compass import objectives as ob
from tobruk.systems.operation_compass import sequence as sq
from tobruk.systems.operation_compass import victory as vp
from tobruk.systems.operation_compass.actions import VOCABULARY, Withdraw
from tobruk.systems.operation_compass.charts import read_charts
from tobruk.systems.operation_compass.counters import CompassUnit, compass_unit, read_counter
from tobruk.systems.operation_compass.retreat import choose_withdrawal
from tobruk.systems.operation_compass.state import CompassVars, compass_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game
    from tobruk.loading.scenario import Scenario

HERE = Path(__file__).resolve().parent
TWO_PLAYERS = "two-players"  # the scenario option: the Italian player makes the choices the charts leave open


@register
class OperationCompass(System):
    name = "operation-compass"
    title = "Operation Compass"
    prefix = "OC"
    vocabulary = VOCABULARY
    game_over_clause = "OC-RET.1"  # (the game ends after its last turn: ruling R-OC-SEQ)
    terrain_kinds = frozenset({"clear", "rough", "hill", "sea"})  # the terrain effects chart (coast is clear)
    unit_view = CompassUnit
    # solitaire unless the two-players option: the Italians by the charts' procedures (ruling R-OC-POLICY)
    solitaire = Solitaire(Side.AXIS, unless=TWO_PLAYERS)
    score_title = "Victory points if the game ended now"
    strength_title = "Steps on the map"

    def __init__(self) -> None:
        self.charts = read_charts(read_toml(HERE / "charts.toml"))

    @classmethod
    def read_counter(cls, ut: Table, common: Mapping[str, Any]) -> UnitDef:
        return read_counter(ut, common)

    def objectives(self, scenario: Scenario) -> list[Objective]:
        return ob.objectives(self.charts, scenario)

    def result_meanings(self) -> Mapping[str, str]:
        return self.charts.crt.meanings()

    def result_tables(self) -> Sequence[ResultTable]:
        """The CRT, then the bombardment table (OC-BMB.1: its entries are morale-check DRMs, "none" no check)."""
        c = self.charts
        rows = tuple((str(die), tuple("none" if x is None else str(x) for x in row)) for die, row in enumerate(c.bombardment, start=1))
        bombardment = ResultTable(
            "bombardment", "Bombardment table (OC-BMB.1): the morale check's DRM; none: no check", "die", c.bombardment_columns, rows
        )
        return (c.crt.table(), bombardment)

    def new_vars(self, game: Game) -> CompassVars:
        return CompassVars()

    def sequence(self, game: Game) -> Sequence[Step]:
        return sq.GAME_TURN

    def rules_choice(self, game: Game, decision: Decision) -> Action:
        options = [a for a in game.legal_orders() if isinstance(a, Withdraw)]
        return choose_withdrawal(game, options)

    def setup(self, game: Game) -> None:
        mv.hold(game, Side.AXIS, [h for _, h in game.placed(Side.AXIS)])
        game.log(f"Turn 1, {faces.DATES[1]}. {game.scenario.title}.")

    def begin_turn(self, game: Game) -> None:
        for uid in game.unit_ids:
            u = compass_unit(game, uid)
            u.moved = u.assaulted = u.fired = u.retreating = False
        compass_vars(game).naval_used = 0
        game.log(f"Turn {game.turn}, {faces.DATES.get(game.turn, '')}.")

    def end_game(self, game: Game) -> None:
        result = vp.score(game)
        compass_vars(game).result = result
        for line in vp.describe(result, self.charts):
            game.log(line, kind="event")

    def strength(self, game: Game, side: Side) -> int:
        return sum(compass_unit(game, u).steps for u, _ in game.placed(side))

    def out_of_supply(self, game: Game, side: Side) -> int:
        return sum(1 for u, _ in game.placed(side) if compass_unit(game, u).out_of_supply)

    # --- what the faces ask (faces.py: bound here as they are) -------------------------------------------------
    odds = staticmethod(faces.odds)
    outcomes = staticmethod(faces.outcomes)
    overlays = staticmethod(faces.overlays)
    movement_reach = staticmethod(ob.movement_reach)
    advisor = staticmethod(faces.advisor)
    summary = staticmethod(faces.summary)
    result_lines = staticmethod(faces.result_lines)
    view = staticmethod(faces.view)
    turn_notes = staticmethod(faces.turn_notes)
    score_now = staticmethod(faces.score_now)
    check_action = staticmethod(faces.check_action)
    invariants = staticmethod(faces.invariants)
    once_per_turn = staticmethod(faces.once_per_turn)
    rendering = staticmethod(faces.rendering)
