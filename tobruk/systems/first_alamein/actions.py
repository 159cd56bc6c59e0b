"""1st Alamein's orders: the family's (``tobruk.mechanics.actions``) and nothing more.

The charts add no order of their own: reinforcements enter with ``place``, air units fly with ``airstrike``
and answer with ``intercept`` / ``no-intercept``, and the rest is the family's movement and combat.
"""

from __future__ import annotations

from tobruk.engine.actions import Vocabulary
from tobruk.mechanics.actions import FAMILY

VOCABULARY = Vocabulary(FAMILY)
