"""A battle's retreats, group by group: the losing units of one side (:class:`Loser`), the distance the winner names
for them all and what each must and may retreat (GG-XIV.D, FA-CRT.7), and the winner's question and its answers in
words.  The battle itself, which asks and carries them out, is :class:`~tobruk.mechanics.battle.Battle`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import family_unit

if TYPE_CHECKING:
    from tobruk.engine.game import Game
    from tobruk.mechanics.battle import BattleRules


@dataclass(frozen=True, slots=True)
class Loser:
    """One unit's part in a battle's retreats: its result, whether a box makes the distance compulsory,
    whether it holds No Retreat! orders, whether its retreat is done; ``closing``: a retreat at the end of
    the attack phase (no voluntary hexes)."""

    unit: str
    code: str
    compulsory: bool = False
    nr: bool = False
    done: bool = False
    closing: bool = False


@dataclass(frozen=True, slots=True)
class RetreatGroup:
    """The losing units of one side in a battle, retreating away from ``origin`` (the winners' hexes)."""

    loser: str
    origin: tuple[Hex, ...]
    units: tuple[Loser, ...]
    max: int
    distance: int | None

    def with_done(self, *uids: str) -> RetreatGroup:
        return replace(self, units=tuple(replace(x, done=True) if x.unit in uids else x for x in self.units))

    @property
    def finished(self) -> bool:
        return all(x.done for x in self.units)


def group(r: BattleRules, loser: Side, units: tuple[Loser, ...], from_hexes: Sequence[Hex]) -> RetreatGroup:
    """A retreat group; the winner chooses the distance only where some unit's retreat is his to set."""
    choosable = [x for x in units if r.winner_retreats.get(x.code, 0) and not x.compulsory and not x.nr]
    most = max((r.winner_retreats[x.code] for x in choosable), default=0)
    return RetreatGroup(loser.value, tuple(from_hexes), units, most, None if choosable else 0)


def need(r: BattleRules, g: RetreatGroup, x: Loser) -> int:
    """Hexes a unit must retreat: the compulsory distance, or the winner's, up to its result's limit."""
    limit = r.winner_retreats.get(x.code, 0)
    if x.nr or not limit:
        return 0
    if x.compulsory:
        return limit
    return min(int(g.distance or 0), limit)


def extra(r: BattleRules, x: Loser) -> int:
    """Hexes a unit may retreat beyond what it must; none under No Retreat! orders, nor at the phase's end."""
    if x.nr or x.closing:
        return 0
    return r.voluntary.get(x.code, 0)


def bound(game: Game, r: BattleRules, g: RetreatGroup) -> list[Loser]:
    """The units of ``g`` whose retreat the winner's distance sets: still on the map, with a result the winner may make
    them retreat on, neither a compulsory distance (a box's) nor No Retreat! orders."""
    return [
        x
        for x in g.units
        if not x.done
        and r.winner_retreats.get(x.code, 0)
        and not x.compulsory
        and not x.nr
        and family_unit(game, x.unit).hex is not None
        and not family_unit(game, x.unit).eliminated
    ]


def _verb(names: Sequence[str], verb: str) -> str:
    """``verb`` agreeing with the units named: "1SA stays", "1SA, 50Div stay"."""
    return f"{verb}s" if len(names) == 1 else verb


def distance_prompt(game: Game, r: BattleRules, attack: int | None, side: str, g: RetreatGroup) -> str:
    """The winner's question in words, in the battle of attack ``attack`` by ``side`` (``None``: the retreats at the
    end of ``side``'s attack phase): whose units, why they retreat, how far they may be made to, who picks the routes
    (the winner names one distance for all the losing units, the loser the hexes)."""
    loser = Side(g.loser)
    units = bound(game, r, g)
    names = ", ".join(f"{x.unit} ({x.code})" for x in units)
    if attack is None:
        because = f" ({r.closing_why})" if r.closing_why else ""
        why = f"at the end of their attack phase, name how far these {loser.display} units retreat{because}"
    elif loser is Side(side):
        why = f"your defenders won attack {attack}: name how far the attacking {loser.display} units retreat"
    else:
        why = f"you won attack {attack}: name how far the defending {loser.display} units retreat"
    fixed = [x for x in g.units if not x.done and x.compulsory and family_unit(game, x.unit).hex is not None]
    also = "".join(
        f"; {x.unit} must retreat exactly {r.winner_retreats.get(x.code, 0)} hex{'' if r.winner_retreats.get(x.code, 0) == 1 else 'es'} "
        "whatever you name (a compulsory result)"
        for x in fixed
    )
    return (
        f"{why}, {names}: 0 to {g.max} hexes, one distance for all (the winner names it, "
        f"the {loser.display} player then picks each unit's route){also}"
    )


def distance_words(game: Game, r: BattleRules, g: RetreatGroup, hexes: int) -> str:
    """What naming ``hexes`` does: how far each unit it binds must go (no farther than its result allows), and the
    hexes its owner may still add of his own accord."""
    loser = Side(g.loser)
    units = bound(game, r, g)
    by_need: dict[int, list[str]] = {}
    for x in units:
        by_need.setdefault(min(hexes, r.winner_retreats[x.code]), []).append(x.unit)
    parts = [
        f"{', '.join(names)} {_verb(names, 'stay')} where {'it is' if len(names) == 1 else 'they are'}"
        if n == 0
        else f"{', '.join(names)} {_verb(names, 'retreat')} {n} hex{'' if n == 1 else 'es'}"
        for n, names in sorted(by_need.items(), reverse=True)
    ]
    text = "; ".join(parts) + (f" (the {loser.display} player picks the route{'' if len(units) == 1 else 's'})" if hexes else "")
    free: dict[int, list[str]] = {}
    for x in units:
        if extra(r, x):
            free.setdefault(extra(r, x), []).append(x.unit)
    for v, names in sorted(free.items()):
        more = f"{v} more" if hexes else str(v)
        text += f"; the {loser.display} player may retreat {', '.join(names)} {more} hex{'' if v == 1 else 'es'} of his own accord"
    return f"{hexes} hex{'' if hexes == 1 else 'es'}: {text}"
