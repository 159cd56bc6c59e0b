"""The duties of the attack phase, as the family's basic rules set them (GG-XIV.A.2 and GG-IX.B).

* Compulsory attacks: every enemy hex next to a unit able to attack must be attacked while it holds an enemy
  unit that threatens (undisrupted, not yet attacked this phase), as long as the units still able to attack
  could attack it at odds on the table: a duty nobody can meet any more lapses.  A declaration that would
  leave a due hex with nobody able to attack it, when the same attack could have taken that hex in too, is
  refused (the system names the clause).
* The closing retreat: at the end of the attack phase, each of the side's disrupted units next to a threatening
  enemy unit nobody attacked must retreat.

What "able", "threatens" and "at odds on the table" mean is the system's: it gives :class:`Duties` hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.caching import BOARD, Cache
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack
from tobruk.mechanics.battle import battle_vars, pending
from tobruk.mechanics.counters import family_defs, family_unit

if TYPE_CHECKING:
    from tobruk.engine.game import Game


@dataclass(frozen=True)
class Duties:
    """A system's answers to the questions of the attack phase's duties."""

    def able(self, game: Game, side: Side, busy: Set[str], include_exempt: bool) -> dict[Hex, list[str]]:
        """The side's units still able to attack this phase, by hex, leaving out ``busy`` ones and those in
        declared attacks; units exempt from the duty (in a box held ...) only with ``include_exempt``."""
        raise NotImplementedError

    def threatens(self, game: Game, uid: str, attacked: Set[str]) -> bool:
        """Whether an enemy unit creates a duty (undisrupted and not among the ``attacked`` this phase)."""
        raise NotImplementedError

    def group(self, game: Game, target: Hex, able: dict[Hex, list[str]]) -> tuple[str, ...]:
        """The strongest group of ``able`` units that may attack ``target`` together (empty if none)."""
        return tuple(u for h, units in able.items() if h.is_adjacent(target) for u in units)

    def can_declare(self, game: Game, order: Attack, side: Side) -> bool:
        """Whether this attack could be declared (its odds on the table)."""
        raise NotImplementedError


def obligations(game: Game, side: Side, duties: Duties, busy: Set[str] = frozenset()) -> list[Hex]:
    """The enemy hexes that must still be attacked before the attack phase may end, in hex order (worked out once
    per board and set of busy units: listing the attacks asks again for every candidate declaration, and every
    step of a declaration being made)."""
    due = _OBLIGATIONS.get(game, (side, duties, frozenset(busy)), lambda: tuple(_obligations(game, side, duties, busy)))
    return list(due)


_OBLIGATIONS: Cache[tuple[Hex, ...]] = Cache("obligations", BOARD)


def owed(game: Game, side: Side, duties: Duties) -> list[tuple[Hex, tuple[str, ...]]]:
    """The hexes that must still be attacked (:func:`obligations`), each with the side's units next to it still able to
    attack it: who owes the attack."""
    due = obligations(game, side, duties)
    if not due:
        return []
    able = duties.able(game, side, frozenset(), False)
    return [(t, tuple(sorted(u for h, units in able.items() if h.is_adjacent(t) for u in units))) for t in due]


def owed_words(owing: list[tuple[Hex, tuple[str, ...]]]) -> str:
    """``owed`` for people: "B5 by Pz; C6 by 1SA, 2SA"."""
    return "; ".join(f"{t.label} by {', '.join(units)}" if units else t.label for t, units in owing)


def _obligations(game: Game, side: Side, duties: Duties, busy: Set[str]) -> list[Hex]:
    able = duties.able(game, side, busy, False)
    attacked = set(battle_vars(game).attacked_units)
    targeted = {h for a in pending(game) for h in a.order.defenders}
    occupants = game.occupants(side.enemy)
    near = {n for h in able for n in h.neighbours()} - targeted
    threats = sorted(t for t in near if any(duties.threatens(game, u, attacked) for u in occupants.get(t, ())))
    return [target for target in threats if _attackable(game, side, duties, target, able)]


def _attackable(game: Game, side: Side, duties: Duties, target: Hex, able: dict[Hex, list[str]]) -> bool:
    """Whether the ``able`` units could attack a threatening enemy hex at odds on the table (so it is due)."""
    group = duties.group(game, target, able)
    return bool(group) and duties.can_declare(game, Attack((target,), group), side)


def strands_a_duty(game: Game, order: Attack, side: Side, duties: Duties) -> Hex | None:
    """A due hex this declaration would leave with nobody able to attack it, though the same attack could have
    taken it in too; ``None`` if there is none.

    Only a due hex next to one of the declaration's attackers can be left so: every attacker stands next to the hex
    it attacks, so whether a hex is due reads only the units next to it (:meth:`Duties.group`), and the duties of
    the others are the same with these units busy.
    """
    before = set(obligations(game, side, duties)) - set(order.defenders)
    hexes = {h for u in order.attackers if u in family_defs(game) and (h := family_unit(game, u).hex) is not None}
    exposed = sorted(t for t in before if any(t.is_adjacent(h) for h in hexes))
    if not exposed:
        return None
    able = duties.able(game, side, set(order.attackers), False)
    for lost in exposed:
        if _attackable(game, side, duties, lost, able):
            continue  # still due with these units busy
        if duties.can_declare(game, Attack((*order.defenders, lost), order.attackers, order.partial), side):
            return lost
    return None


def exposed(game: Game, side: Side, duties: Duties) -> dict[str, list[Hex]]:
    """The side's disrupted units next to threatening enemy units nobody attacked this phase, with those hexes
    (the units that must retreat as the attack phase ends)."""
    attacked = set(battle_vars(game).attacked_units)
    occupants = game.occupants(side.enemy)
    out: dict[str, list[Hex]] = {}
    for uid in game.units_of(side):
        u = family_unit(game, uid)
        if u.hex is None or u.eliminated or not u.disrupted or family_defs(game)[uid].is_air:
            continue
        threats = [n for n in u.hex.neighbours() if any(duties.threatens(game, e, attacked) for e in occupants.get(n, ()))]
        if threats:
            out[uid] = sorted(threats)
    return out


def suggested_attacks(game: Game, side: Side, duties: Duties, check: Callable[[Attack], None]) -> list[Attack]:
    """Declarations worth offering a player: against each enemy hex next to units able to attack, the strongest
    group, each hex's stack and each unit alone, widened to take in the due hexes they would otherwise strand (their
    defending hexes in hex order, each attack once); only those ``check`` accepts (it raises
    :class:`IllegalOrderError` for the others)."""
    out: list[Attack] = []
    for _target, order in _suggestions(game, side, duties, check, one_per_target=False):
        canonical = Attack(tuple(sorted(order.defenders)), order.attackers, order.partial)
        if canonical not in out:
            out.append(canonical)
    return out


def attack_targets(game: Game, side: Side, duties: Duties, check: Callable[[Attack], None]) -> list[Hex]:
    """The enemy hexes a declaration may be aimed at now (a legal attack on it exists, widened where a duty asks),
    in hex order: a player's first choice in making one."""
    return [target for target, _order in _suggestions(game, side, duties, check, one_per_target=True)]


def _suggestions(
    game: Game, side: Side, duties: Duties, check: Callable[[Attack], None], *, one_per_target: bool
) -> Iterator[tuple[Hex, Attack]]:
    """Each target with the legal attacks on it, the target first in each (``one_per_target``: the first only)."""
    able = duties.able(game, side, frozenset(), True)
    enemies = {h for h, ids in game.occupants(side.enemy).items() if any(not family_defs(game)[u].is_air for u in ids)}
    for target in sorted({n for h in able for n in h.neighbours()} & enemies):
        groups = {duties.group(game, target, able)} - {()}
        groups |= {tuple(able[h]) for h in able if h.is_adjacent(target)}
        groups |= {(u,) for h in able if h.is_adjacent(target) for u in able[h]}
        seen: list[Attack] = []
        for group in sorted(groups):
            order = Attack((target,), group)
            for _ in range(6):
                try:
                    check(order)
                except IllegalOrderError:
                    stranded = strands_a_duty(game, order, side, duties)
                    if stranded is None:
                        break
                    order = Attack((*order.defenders, stranded), order.attackers)
                    continue
                if order not in seen:
                    seen.append(order)
                    yield target, order
                break
            if one_per_target and seen:
                break
