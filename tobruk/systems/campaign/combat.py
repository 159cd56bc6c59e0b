"""Combat resolution: where the second part of the campaign's rules (CA-G, CA-T) plugs in.

The sequence resolves each allocated attack through :func:`resolve_attack`, once per target hex in the order the
attacks were allocated: in the attacks before movement (CA-Q.1-2 step 2), in combat resolution (step 5) and in the
breakthrough's (step 6).  The combat results table, the tank battles, retreats and advances are not written yet, so
the function refuses to make up a result: a game whose attacks come to be resolved stops there with
:class:`CombatNotPlayed`, and changes nothing (the engine restores the position of a failed order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.errors import TobrukError
from tobruk.engine.sides import Side

if TYPE_CHECKING:
    from tobruk.engine.game import Game


class CombatNotPlayed(TobrukError, NotImplementedError):
    """An allocated attack came to be resolved, and the campaign's combat rules are not played yet."""


def resolve_attack(game: Game, side: Side, target: str, attackers: tuple[str, ...]) -> None:
    """Resolve ``side``'s attack by ``attackers`` on the enemy units in hex ``target`` (CA-G, CA-T)."""
    raise CombatNotPlayed(f"the attack of {', '.join(attackers)} on {target} is to be resolved, and combat (CA-G, CA-T) is not played yet")
