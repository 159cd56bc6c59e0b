"""Computer and human players.  A player sees only ``view(game, side)``, the legal orders and the
outcome distribution of an attack it asks about, and returns an order: the same for every kind of player.
"""

from __future__ import annotations

from tobruk.players.base import Outcomes, Player, make_player, play_game, player_names

__all__ = ["Outcomes", "Player", "make_player", "play_game", "player_names"]
