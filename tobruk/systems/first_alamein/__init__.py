"""1st Alamein — Beginners' Edition (1-10 July 1942): a game system of this package's engine.

The charts (``charts.toml``) give the GCRT with Spent, the air table, the terrain effects and the stacking
limit; where they are silent The Gazala Gallop's basic rules apply, as decided clause by clause in
docs/rulings.md ("1st Alamein").  The sequence of play is in :mod:`.sequence`; the rules by subject in
:mod:`.moves` (movement, reinforcements), :mod:`.combat`, :mod:`.battle` and :mod:`.retreat` (ground
combat), :mod:`.air`, :mod:`.supply` (recovery and supply), :mod:`.victory`; what several share in
:mod:`.position`; the faces' hooks in :mod:`.faces`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tobruk.board.maps import Terrain
from tobruk.engine.flow import Step
from tobruk.engine.sides import Side
from tobruk.engine.system import register
from tobruk.loading.datafile import read_toml
from tobruk.mechanics.control import set_control
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.mechanics.family import FamilySystem
from tobruk.systems.first_alamein import faces
from tobruk.systems.first_alamein import objectives as ob
from tobruk.systems.first_alamein import sequence as sq
from tobruk.systems.first_alamein import victory as vp
from tobruk.systems.first_alamein.actions import VOCABULARY
from tobruk.systems.first_alamein.battle import battle_rules
from tobruk.systems.first_alamein.charts import read_charts
from tobruk.systems.first_alamein.position import enemy_zoc, make_stacking_rules
from tobruk.systems.first_alamein.state import FirstAlameinVars, alamein_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

HERE = Path(__file__).resolve().parent


@register
class FirstAlamein(FamilySystem):
    name = "first-alamein"
    title = "1st Alamein - Beginners' Edition"
    prefix = "FA"
    vocabulary = VOCABULARY
    game_over_clause = "FA-LOG.1"  # ten game-turns
    # the terrain effects chart's (FA-TER.4: depression/deir, ridge/hill/tel), with the map's plain kinds
    terrain_kinds = frozenset({"clear", "sea", "village", "town", "depression", "deir", "ridge", "hill", "tel"})
    one_combat_factor = True  # the charts' unit legend: one combat factor for attack and defence, then the movement

    def __init__(self) -> None:
        self.charts = read_charts(read_toml(HERE / "charts.toml"))
        self.battle = battle_rules(self.charts)
        self.stacking = make_stacking_rules(self.charts.stack_units, self.charts.stack_divisions)

    def new_vars(self, game: Game) -> FirstAlameinVars:
        return FirstAlameinVars()

    def sequence(self, game: Game) -> Sequence[Step]:
        return sq.FIRST_TURN if game.state.turn == 1 else sq.GAME_TURN

    def setup(self, game: Game) -> None:
        """CA-SC.7: the units the scenario names start spent; places belong to the side that holds them (GG-XVI)."""
        for uid in game.scenario.rules.get("spent_at_start", []):
            family_unit(game, uid).disrupted = True
        set_control(game, initial_control(game))
        first = faces.day(game, 1)
        game.log(f"Turn 1{f', {first}' if first else ''}. {game.scenario.title}.")

    def begin_turn(self, game: Game) -> None:
        for uid in game.unit_ids:
            u = family_unit(game, uid)
            u.moved = False
            u.attacked = False
        game.log(f"Turn {game.turn}" + (f", {faces.day(game)}." if faces.day(game) else "."))

    def end_game(self, game: Game) -> None:
        result = alamein_vars(game).result = vp.score(game)
        for line in vp.describe(result):
            game.log(line, kind="event")

    # --- what the faces ask (faces.py: bound here as they are) -------------------------------------------------
    score_title = "Axis victory conditions met if the game ended now"
    odds = staticmethod(faces.odds)
    summary = staticmethod(faces.summary)
    result_lines = staticmethod(faces.result_lines)
    suggestions = staticmethod(faces.suggestions)
    view = staticmethod(faces.view)
    status_reasons = staticmethod(faces.status_reasons)
    turn_notes = staticmethod(faces.turn_notes)
    score_now = staticmethod(faces.score_now)
    form_facts = staticmethod(faces.form_facts)
    invariants = staticmethod(faces.invariants)
    features = staticmethod(faces.features)
    prefer = staticmethod(faces.prefer)
    rendering = staticmethod(faces.rendering)
    enemy_zoc = staticmethod(enemy_zoc)
    objectives = staticmethod(ob.objectives)
    movement_reach = staticmethod(ob.movement_reach)
    arrivals = staticmethod(ob.arrivals)


def initial_control(game: Game) -> dict[Any, Side]:
    """GG-XVI: each village or town belongs at the start to the side with a unit in it, else to the Allies if it
    lies where they may set up, else to the Axis (who has come through it from the west)."""
    m = game.scenario.map
    allied_zones = {z for u, z in game.scenario.setup_zone.items() if family_defs(game)[u].side is Side.ALLIED}
    allied_ground = set().union(*(game.scenario.zone(z) for z in allied_zones)) if allied_zones else set()
    out = {}
    for h in m.hexes:
        if m.terrain[h] not in (Terrain.VILLAGE, Terrain.TOWN):
            continue
        here = {family_defs(game)[u].side for u in game.units_at(h)}
        out[h] = here.pop() if len(here) == 1 else Side.ALLIED if h in allied_ground else Side.AXIS
    return out
