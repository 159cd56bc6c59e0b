"""Face-down units in The Gazala Gallop: the nonhistorical set-up (GG-V.B) and the Siege of Tobruk
(GG-XIV.B.6).

A hidden unit shows the enemy only "a unit" in its hex (see :mod:`tobruk.view`); a dummy is a hidden
counter with nothing behind it.  Units are turned up when activated, attacked (on the ground or from the
air) or when they move; a dummy turned up is removed.  Every reveal raises ``state.reveals``, which undo
never crosses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.hexes import Hex
from tobruk.sides import Side

if TYPE_CHECKING:
    from tobruk.game import Game


def nonhistorical(game: Game) -> bool:
    return bool(game.state.data.get("nonhistorical"))


def hide_allied_units(game: Game) -> None:
    """GG-V.B.1: every Allied ground unit and both dummies start face down."""
    for uid in game.units_of(Side.ALLIED):
        if not game.defs[uid].is_air:
            game.unit(uid).hidden = True


def name(game: Game, uid: str) -> str:
    """How a log line may name a unit: its id, or "a unit in H" while it is face down."""
    u = game.unit(uid)
    return f"a unit in {u.hex}" if u.hidden else uid


def reveal(game: Game, uid: str, why: str) -> None:
    """Turn a unit face up; a dummy is removed (it was never there)."""
    u, d = game.unit(uid), game.defs[uid]
    if not u.hidden:
        return
    u.hidden = False
    game.state.reveals += 1
    if d.is_dummy:
        where = u.hex
        u.hex = None
        u.eliminated = True
        game.log(f"The unit in {where} was a dummy ({why}); it is removed.")
    else:
        game.log(f"{why.capitalize()}: the unit in {u.hex} is {uid} ({d.name}, {d.factors}).")


def reveal_hex(game: Game, h: Hex, side: Side, why: str) -> None:
    for uid in game.units_at(h, side):
        reveal(game, uid, why)


def hidden_in(game: Game, hexes: list[Hex] | tuple[Hex, ...], side: Side) -> bool:
    return any(game.unit(u).hidden for h in hexes for u in game.units_at(h, side))


def dummy_problem(game: Game) -> str | None:
    """GG-V.B.1: each dummy must share its hex with a real unit and/or a box."""
    boxes = {h for h, s in game.scenario.map.fortifications.items() if s is Side.ALLIED}
    for uid in game.units_of(Side.ALLIED):
        d, u = game.defs[uid], game.unit(uid)
        if not d.is_dummy or u.eliminated:
            continue
        if u.hex is None:
            return f"place {uid} first [GG-V.B.1]"
        real = [x for x in game.units_at(u.hex, Side.ALLIED) if not game.defs[x].is_dummy]
        if not real and u.hex not in boxes:
            return f"{uid} in {u.hex} must share its hex with a real unit or a box [GG-V.B.1]"
    return None


# --- the Siege of Tobruk (GG-XIV.B.6) --------------------------------------------------------------
def siege_zone(game: Game) -> frozenset[Hex]:
    zone = game.scenario.rules.get("siege_zone")
    return game.scenario.map.zones.get(zone, frozenset()) if zone else frozenset()


def siege_available(game: Game) -> bool:
    """Before an Axis player-turn, while no Axis unit has been inside the perimeter and Allied units hold it."""
    zone = siege_zone(game)
    if not zone or game.state.data.get("siege_lost"):
        return False
    if any(h in zone for _, h in _axis_on_map(game)):
        game.state.data["siege_lost"] = True
        return False
    return any(game.unit(u).hex in zone for u in game.units_of(Side.ALLIED)
               if not game.defs[u].is_air and not game.defs[u].is_dummy and not game.unit(u).eliminated)


def _axis_on_map(game: Game) -> list[tuple[str, Hex]]:
    return [(u, h) for u in game.units_of(Side.AXIS) if (h := game.unit(u).hex) is not None
            and not game.unit(u).eliminated]


def siege_units(game: Game) -> list[str]:
    """Allied units in the fortress, and the two dummies (off the map or already inside), for the siege."""
    zone = siege_zone(game)
    out = []
    for uid in game.units_of(Side.ALLIED):
        d, u = game.defs[uid], game.unit(uid)
        if d.is_air:
            continue
        if d.is_dummy and (u.hex is None or u.hex in zone):
            out.append(uid)  # a dummy turned up earlier is back in the box and may be used again
        elif not d.is_dummy and not u.eliminated and u.hex in zone:
            out.append(uid)
    return out


def siege_threatened(game: Game, reach: int = 6) -> bool:
    """Ruling R-SIEGE: a turn "might include an attack on Tobruk" when an Axis unit is within 6 hexes of it."""
    zone = siege_zone(game)
    return any(h.distance(z) <= reach for _, h in _axis_on_map(game) for z in zone)
