"""The face-down Tobruk garrison and its dummy (CA-F.4): what the Axis sees of it, and when it is revealed.

"Allied units within the perimeter are face-down, until they are being attacked or unless they are Disrupted, and
there can be 1 hidden Allied dummy unit within the perimeter."  So:

* at the start every Allied unit inside the perimeter (the map's zone) stands face down (the engine's ``hidden``
  status), each with an anonymous id the Axis sees, made from its hex and its place there under the game's secret
  (:meth:`Game.secret_mac`), so the ids say nothing of which counter stands where;
* an attack allocated against its hex, or its disruption, turns a counter face up for good (:func:`reveal`); a dummy
  turned up is taken off the map (it was never there);
* while face down, a counter's zone is that of an undisrupted infantry division, whatever it is (:mod:`.zoc`,
  docs/rulings.md): the Axis's moves must not tell it what stands behind;
* the log lines about a face-down counter are the Axis's to read without its name.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import UnitType
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs

if TYPE_CHECKING:
    from tobruk.engine.game import Game

PERIMETER = "inside Tobruk perimeter"  # the map's zone of the hexes inside the perimeter
DUMMY = UnitType.DUMMY  # the Tobruk dummy's counter type (CA-F.4): it never moves nor fights
ANON_LENGTH = 8


def conceal_garrison(game: Game) -> None:
    """Turn the Allied units inside the perimeter face down and give them their anonymous ids."""
    m = game.scenario.map
    inside = m.zones.get(PERIMETER, frozenset())
    by_hex: dict[Hex, list[str]] = {}
    for uid in game.units_of(Side.ALLIED):
        h = counter(game, uid).hex
        if h is not None and h in inside:
            by_hex.setdefault(h, []).append(uid)
    anon: dict[str, str] = {}
    for h in sorted(by_hex, key=lambda x: x.label):
        shuffled = sorted(by_hex[h], key=lambda u: game.secret_mac(f"order:{u}"))
        for k, uid in enumerate(shuffled):
            counter(game, uid).hidden = True
            anon[uid] = game.secret_mac(f"anon:{h.label}:{k}")[:ANON_LENGTH]
    campaign_vars(game).anon = anon


def name(game: Game, uid: str) -> str:
    """How the Axis may read a unit's name: a face-down counter is "a face-down unit"."""
    return "a face-down unit" if counter(game, uid).hidden else uid


def reveal(game: Game, uids: Iterable[str], why: str) -> None:
    """Turn face-down counters face up (``why``: being attacked, disrupted); a dummy leaves the map."""
    v = campaign_vars(game)
    for uid in uids:
        c = counter(game, uid)
        if not c.hidden:
            continue
        c.hidden = False
        game.state.reveals += 1  # the Axis has seen it: no undo past this
        v.anon = {k: a for k, a in v.anon.items() if k != uid}
        if counter_defs(game)[uid].type == DUMMY:
            game.log(f"The face-down counter in {c.hex} is revealed ({why}): the Tobruk dummy, taken off the map.", kind="event")
            c.hex = None
            c.disrupted = c.newly_disrupted = False
        else:
            game.log(f"The face-down counter in {c.hex} is revealed ({why}): {uid}.", kind="event")


def log_about(game: Game, uid: str, text: str, instead: str, *, kind: str = "note") -> None:
    """A log line about a unit, read without its name by the Axis while it is face down."""
    if counter(game, uid).hidden:
        game.log(text, kind=kind, hidden_from=Side.AXIS, instead=instead)
    else:
        game.log(text, kind=kind)


def seen_key(game: Game, side: Side) -> Hashable:
    s = game.state
    return (s.turn, s.step, s.over, s.reveals, game.side_key(side), campaign_vars(game).key())


def seen_units(game: Game, side: Side) -> dict[str, tuple[Hex | None, bool, bool, str | None]]:
    """``side``'s units as the enemy sees them: the face-down ones with their anonymous ids."""
    anon = campaign_vars(game).anon
    out: dict[str, tuple[Hex | None, bool, bool, str | None]] = {}
    for uid in game.units_of(side):
        c = counter(game, uid)
        hidden = c.hidden and not game.state.over
        out[uid] = (c.hex, hidden, c.eliminated, anon.get(uid) if hidden else None)
    return out


def not_movable(game: Game, side: Side, uid: str, clause: str) -> IllegalOrderError | None:
    """Why ``uid`` may not be moved strategically by ``side`` whatever the destination (``clause``: the movement's,
    CA-S.3 or CA-S.4): not the side's, not on the map, or the Tobruk dummy, which never leaves the perimeter (CA-F.4)."""
    d = counter_defs(game).get(uid)
    if d is None or d.side is not side:
        return IllegalOrderError(clause, f"{uid!r} is not one of your units")
    c = counter(game, uid)
    if c.eliminated or c.hex_index < 0:
        return IllegalOrderError(clause, f"{uid} is not on the map")
    if d.type == DUMMY:
        return IllegalOrderError("CA-F.4", f"{uid} is the hidden dummy of the Tobruk perimeter and stays there")
    return None
