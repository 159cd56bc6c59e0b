"""The Gazala Gallop (May-June 1942): a game system of this package's engine.

The sequence of play is in :mod:`.sequence` (with the set-up in :mod:`.setup`); the rules by subject in
:mod:`.moves` (operational movement, activation, stacking), :mod:`.combat` and :mod:`.battle` (ground
combat), :mod:`.supply`, :mod:`.air`, :mod:`.victory`, :mod:`.hidden` (face-down units and the siege)
and :mod:`.control` (villages); the charts as data in ``charts.toml``; the scenario in ``scenarios/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tobruk.engine.flow import Step
from tobruk.engine.sides import Side
from tobruk.engine.system import register
from tobruk.loading.datafile import read_toml
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.family import FamilySystem
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import faces
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala import objectives as ob
from tobruk.systems.gazala import sequence as sq
from tobruk.systems.gazala import victory as vp
from tobruk.systems.gazala.actions import VOCABULARY
from tobruk.systems.gazala.battle import BATTLE
from tobruk.systems.gazala.control import set_initial_control
from tobruk.systems.gazala.state import GazalaVars, gazala_vars

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
        return sq.NONHISTORICAL_FIRST_TURN if gazala_vars(game).nonhistorical else sq.FIRST_TURN

    def setup(self, game: Game) -> None:
        nonhistorical = "nonhistorical" in game.options
        for uid, d in family_defs(game).items():
            if d.side is Side.ALLIED:  # GG-V.A.2: Allied units start inactive
                family_unit(game, uid).activated = False
        gazala_vars(game).nonhistorical = nonhistorical
        if nonhistorical:
            hd.hide_allied_units(game)
        set_initial_control(game)
        game.log(f"Turn 1. {game.scenario.title}: {'nonhistorical' if nonhistorical else 'historical'} set-up.")

    def begin_turn(self, game: Game) -> None:
        for uid in game.unit_ids:
            u = family_unit(game, uid)
            u.moved = False
            u.attacked = False
        gazala_vars(game).convoys_used = {}
        game.log(f"Turn {game.state.turn}.")

    def end_game(self, game: Game) -> None:
        result = gazala_vars(game).result = vp.score(game)
        for line in vp.describe(result):
            game.log(line)

    # --- what the faces ask (faces.py, hidden.py: bound here as they are) ---------------------------------------
    score_title = "Game Victory Points if the game ended now"
    odds = staticmethod(faces.odds)
    summary = staticmethod(faces.summary)
    result_lines = staticmethod(faces.result_lines)
    suggestions = staticmethod(sq.suggested_attacks)
    view = staticmethod(faces.view)
    turn_notes = staticmethod(faces.turn_notes)
    score_now = staticmethod(faces.score_now)
    form_facts = staticmethod(faces.form_facts)
    invariants = staticmethod(faces.invariants)
    check_action = staticmethod(faces.check_action)
    features = staticmethod(faces.features)
    prefer = staticmethod(faces.prefer)
    rendering = staticmethod(faces.rendering)
    enemy_zoc = staticmethod(mv.enemy_zoc)
    objectives = staticmethod(ob.objectives)
    movement_reach = staticmethod(ob.movement_reach)
    movement_condition = staticmethod(ob.movement_condition)
    arrivals = staticmethod(ob.arrivals)
    seen_key = staticmethod(hd.seen_key)
    seen_units = staticmethod(hd.seen_by_enemy)
    observe = staticmethod(hd.observe)
    placement_allowed = staticmethod(hd.placement_allowed)
