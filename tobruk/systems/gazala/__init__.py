"""The Gazala Gallop (May-June 1942): a game system of this package's engine.

The sequence of play is in :mod:`.sequence` (with the set-up in :mod:`.setup`); the rules by subject in
:mod:`.moves` (operational movement, activation, stacking), :mod:`.combat` and :mod:`.battle` (ground
combat), :mod:`.supply`, :mod:`.air`, :mod:`.victory`, :mod:`.hidden` (face-down units and the siege)
and :mod:`.control` (villages); the charts as data in ``charts.toml``; the scenario in ``scenarios/``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Step
from tobruk.engine.sides import Side
from tobruk.engine.system import Odds, Rendering, Summary, register
from tobruk.loading.datafile import read_toml
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.family import FamilySystem
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import faces
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala import sequence as sq
from tobruk.systems.gazala import victory as vp
from tobruk.systems.gazala.actions import VOCABULARY
from tobruk.systems.gazala.battle import BATTLE
from tobruk.systems.gazala.control import set_initial_control
from tobruk.systems.gazala.state import GazalaVars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

HERE = Path(__file__).resolve().parent


@register
class GazalaGallop(FamilySystem):
    name = "gazala-gallop"
    title = "The Gazala Gallop"
    prefix = "GG"
    vocabulary = VOCABULARY
    game_over_clause = "GG-VII.A"
    terrain_kinds = frozenset({"clear", "sea", "town", "village", "hill"})  # the terrain effects chart

    def __init__(self) -> None:
        self.charts = cb.read_charts(read_toml(HERE / "charts.toml"))
        self.battle = BATTLE
        self.stacking = mv.STACKING

    def new_vars(self, game: Game) -> GazalaVars:
        return GazalaVars()

    def sequence(self, game: Game) -> Sequence[Step]:
        if game.state.turn > 1:
            return sq.LATER_TURNS
        return sq.NONHISTORICAL_FIRST_TURN if game.vars.nonhistorical else sq.FIRST_TURN

    def setup(self, game: Game) -> None:
        nonhistorical = "nonhistorical" in game.options
        for uid, d in family_defs(game).items():
            if d.side is Side.ALLIED:  # GG-V.A.2: Allied units start inactive
                family_unit(game, uid).activated = False
        game.vars.nonhistorical = nonhistorical
        if nonhistorical:
            hd.hide_allied_units(game)
        set_initial_control(game)
        game.log(f"Turn 1. {game.scenario.title}: {'nonhistorical' if nonhistorical else 'historical'} set-up.")

    def begin_turn(self, game: Game) -> None:
        for uid in game.unit_ids:
            u = family_unit(game, uid)
            u.moved = False
            u.attacked = False
        game.vars.convoys_used = {}
        game.log(f"Turn {game.state.turn}.")

    def end_game(self, game: Game) -> None:
        game.vars.result = vp.score(game)
        for line in vp.describe(game.vars.result):
            game.log(line)

    # --- what the faces ask (see faces.py) ------------------------------------------------------------
    def outcomes(self, game: Game, action: Action, side: Side) -> list[tuple[str, Fraction]]:
        if not isinstance(action, Attack):
            return []
        try:
            return cb.outcomes(game, action, side)
        except IllegalOrderError:
            return []

    def odds(self, game: Game, action: Action, side: Side) -> Odds | None:
        return faces.odds(game, action, side)

    def summary(self, game: Game) -> Summary | None:
        return faces.summary(game)

    def result_lines(self, game: Game) -> list[str]:
        result = game.vars.result
        return vp.describe(result) if result else []

    def suggestions(self, game: Game, side: Side) -> list[Action]:
        return sq.suggested_attacks(game, side)

    def view(self, game: Game, side: Side) -> dict[str, Any]:
        return faces.view(game, side)

    score_title = "Game Victory Points if the game ended now"

    def turn_notes(self, game: Game) -> dict[str, str]:
        return {"weather": game.vars.weather}

    def score_now(self, game: Game) -> dict[str, float] | None:
        return faces.score_now(game)

    def form_facts(self, game: Game) -> list[tuple[str, list[tuple[str, str]]]]:
        return faces.form_facts(game)

    def invariants(self, game: Game, before: Step) -> list[str]:
        return faces.invariants(game, before)

    def check_action(self, game: Game, action: Action) -> list[str]:
        return super().check_action(game, action) + faces.check_action(game, action)

    def features(self, game: Game, side: Side) -> dict[str, Any]:
        return faces.features(game, side)

    def prefer(self, seen: dict[str, Any], actions: list[Action], stage: str) -> Action | None:
        return faces.prefer(seen, actions, stage)

    def rendering(self) -> Rendering:
        return faces.RENDERING

    def seen_key(self, game: Game, side: Side) -> Hashable:
        return hd.seen_key(game, side)

    def seen_units(self, game: Game, side: Side) -> dict[str, tuple[Hex | None, bool, bool, str | None]]:
        return hd.seen_by_enemy(game, side)

    def observe(self, game: Game, side: Side, anon: Mapping[str, str]) -> None:
        hd.observe(game, side, anon)

    def placement_allowed(self, game: Game, side: Side, placements: Mapping[str, Hex | None]) -> bool:
        return hd.placement_allowed(game, side, placements)
