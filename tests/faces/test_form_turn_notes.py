"""The game log form notes each turn as the turn's last order found it, not as the next turn begins (a system
whose notes change with the turn, 1st Alamein's date, shows the difference)."""

from __future__ import annotations

from tests.systems.first_alamein.kit import scenario, unit
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.players.base import make_player, play_game
from tobruk.record import record_of
from tobruk.tools.form import build


def test_each_turn_has_its_own_notes() -> None:
    s = scenario(unit("Pz", "axis", "A1") + unit("SA", "allied", "E8"), turns=3, rules='first_day = "1942-07-01"')
    game = play_game(Game(s), {Side.AXIS: make_player("passive"), Side.ALLIED: make_player("passive")})
    log = build(record_of(game), scenario=s)
    assert [t.notes for t in log.turns] == [{"date": f"{d} July 1942"} for d in (1, 2, 3)]
