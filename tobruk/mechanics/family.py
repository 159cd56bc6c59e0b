"""What every system of the odds-CRT family shares as a :class:`~tobruk.engine.system.System`: its counters (printed
factors, :class:`~tobruk.mechanics.counters.FamilyUnitDef`) and units' statuses (:class:`~tobruk.mechanics.counters.
FamilyUnit`), the strength the game log form plots, and the checks the fuzzer makes of every action the family lists
(a unit moves and attacks at most once a game-turn; a disrupted unit never attacks)."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from tobruk.board.units import UnitDef
from tobruk.engine.actions import Action
from tobruk.engine.caching import FIXED, Cache
from tobruk.engine.chance import grouped
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.information import observed
from tobruk.engine.sides import Side
from tobruk.engine.state import ELIMINATED
from tobruk.engine.system import Advisor, Overlay, ResultTable, System
from tobruk.mechanics.actions import Add, Attack, Move
from tobruk.mechanics.battle import rules as battle_rules
from tobruk.mechanics.counters import FamilyUnit, family_defs, family_unit, read_family_unit
from tobruk.mechanics.results import meanings_of, tables_of
from tobruk.mechanics.supply import SupplyMarkers, shown_supply_lines

if TYPE_CHECKING:
    from tobruk.board.hexes import Hex
    from tobruk.engine.game import Game
    from tobruk.loading.datafile import Table
    from tobruk.mechanics.advisor import Sight


class FamilySystem(System):
    """A system of the family: its units are :class:`FamilyUnit` views and its counters family counters
    (``one_combat_factor``: they may print one factor for attack and defence, "3-4")."""

    unit_view = FamilyUnit
    one_combat_factor: ClassVar[bool] = False
    strength_title: ClassVar[str] = "Strength on the map (attack + defence factors)"

    @classmethod
    def read_counter(cls, ut: Table, common: Mapping[str, Any]) -> UnitDef:
        return read_family_unit(ut, common, one_combat_factor=cls.one_combat_factor)

    def strength(self, game: Game, side: Side) -> int:
        defs = family_defs(game)
        return sum(
            defs[u].attack + defs[u].defence
            for u in game.units_of(side)
            if not game.unit(u).eliminated and game.unit(u).hex is not None and not defs[u].is_dummy
        )

    def out_of_supply(self, game: Game, side: Side) -> int:
        return sum(1 for u in game.units_of(side) if (v := family_unit(game, u)).out_of_supply and not v.eliminated and v.hex is not None)

    def check_action(self, game: Game, action: Action) -> list[str]:
        return family_action_problems(game, action)

    def result_meanings(self) -> Mapping[str, str]:
        """The family's codes its own charts use (mechanics/results.py)."""
        return meanings_of(type(self).__module__)

    def result_tables(self) -> Sequence[ResultTable]:
        """The combat and air results tables of its own charts (mechanics/results.py)."""
        return tables_of(type(self).__module__)

    def outcomes(self, game: Game, action: Action, side: Side) -> list[tuple[str, Fraction]]:
        """An attack's results with their probabilities: the battle's die grouped by result (the same distribution
        the battle rolls); none while a defender is face down, or for an attack the rules refuse."""
        if not isinstance(action, Attack):
            return []
        if face_down_defenders(game, action, side):
            return []
        try:
            return grouped(battle_rules(game).combat_die(game, action, side, None))
        except IllegalOrderError:
            return []

    # --- the advice to computer players (System.advisor), from the hooks each system of the family answers ----------
    def advisor(self, game: Game, side: Side) -> Advisor:
        """The family's advice (:class:`~tobruk.mechanics.advisor.FamilyAdvisor`), steered by this system's
        :meth:`features`, :meth:`prefer` and :meth:`suggestions`."""
        from tobruk.mechanics.advisor import FamilyAdvisor

        return FamilyAdvisor(game, side, self)

    def features(self, game: Game, side: Side) -> dict[str, Any]:
        """What the advice steers by: ``objectives`` and ``guards`` (hexes), ``result_values`` (result code -> share of
        the defence won, share of the attack lost), ``stacking`` (units, divisions), ``holding_types`` (unit types
        that hold their ground), ``setup_steps``; only what ``side`` may know (the scenario and the charts)."""
        return {}

    def prefer(self, game: Game, sight: Sight, actions: list[Action], stage: str) -> Action | None:
        """The advice's choice among the system's own actions (not the family's), from what the side sees
        (``sight``): at ``stage`` "first" (before anything else) or "before-moves"; ``None`` to leave it to the
        family's preferences."""
        return None

    def suggestions(self, game: Game, side: Side) -> list[Action]:
        """Whole attacks worth the advice's look (the strongest on each hex the side may attack), each of which the
        game accepts as an action."""
        return []

    # --- the layers over the map (System.overlays), from the hooks each system of the family answers ----------------
    def enemy_zoc(self, game: Game, side: Side) -> Container[Hex] | None:
        """The hexes in the ZOC of ``side``'s enemies as it applies to ``side``'s units now, by the system's own
        ZOC rules (its box rule, which counters exert one); ``None`` for a system without zones of control."""
        return None

    def overlays(self, game: Game, side: Side) -> list[Overlay]:
        """The layers of the family, each where the system has it: the enemy's zones of control as ``side`` knows the
        enemy (worked out on :func:`observed`, so a face-down counter, a dummy or a unit, exerts the ZOC the rules
        give a face-down counter, wherever the real ones are); the side's supply lines at the last determination.
        No layer of the victory hexes: the map rings every objective the system names from the start
        (:meth:`~tobruk.engine.system.System.objectives`), with its rule in the legend."""
        board = game.scenario.map
        layers = []
        zoc = self.enemy_zoc(observed(game, side), side)
        if zoc is not None:
            layers.append(Overlay("zoc", "enemy ZOC", "hexes", hexes=tuple(h.label for h in board.hexes if h in zoc), colour="#c00000"))
        if isinstance(game.vars, SupplyMarkers):
            lines = tuple(route for _, _, _, route in shown_supply_lines(game, side) if len(route) > 1)
            layers.append(Overlay("supply", "supply lines", "lines", lines=lines, colour="#00a060"))
        return layers

    def once_per_turn(self, game: Game, action: Action) -> str | None:
        """A unit moves at most once a game-turn (GG-XIII.A.1, FA-SEQ.1)."""
        return f"{action.unit} moves" if isinstance(action, Move) else None


def family_system(game: Game) -> FamilySystem:
    """The game's system as a system of the family (for the family's own hooks: features, prefer, suggestions)."""
    system = game.system
    if not isinstance(system, FamilySystem):
        raise TypeError(f"{system.name} is not a system of the odds-CRT family")
    return system


UNKNOWN_ODDS = "unknown (face-down units)"


def face_down_defenders(game: Game, attack: Attack, side: Side) -> bool:
    """Whether the enemy has a face-down counter in a hex ``side`` attacks: the odds are unknown to it then (its
    answer must be the same whatever the counter is)."""
    return any(game.unit(u).hidden for h in attack.defenders for u in game.units_at(h, side.enemy))


def shared_hex_problems(game: Game) -> list[str]:
    """GG-XII.A.1 (and every system of the family): only one side's units may be in a hex, read from the unit arrays
    themselves (rows in the order of battle) after every action the fuzzer plays."""
    units = game.state.units
    sides = _ROW_SIDES.get(game, None, lambda: tuple(d.side for d in game.defs.values()))
    holder: dict[int, Side] = {}
    for j, f, side in zip(units.hex, units.flags, sides, strict=True):
        if j >= 0 and not f & ELIMINATED and holder.setdefault(j, side) is not side:
            return [f"both sides in {game.scenario.map.hexes[j]}"]
    return []


_ROW_SIDES: Cache[tuple[Side, ...]] = Cache("family.row-sides", FIXED)  # each row's side: the order of battle's


def family_action_problems(game: Game, action: Action) -> list[str]:
    """Before an action the family lists is played: a unit that has attacked this game-turn, or is disrupted, never
    joins an attack (GG-XIV.A.1 and A.3; FA-SEQ.1 and the spent units of FA-CRT.2)."""
    if isinstance(action, Add):
        u = family_unit(game, action.unit)
        if u.disrupted:
            return [f"disrupted {action.unit} attacks"]
        if u.attacked:
            return [f"{action.unit} attacks twice in turn {game.turn}"]
    return []
