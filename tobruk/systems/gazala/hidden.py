"""Face-down units in The Gazala Gallop: the nonhistorical set-up (GG-V.B) and the Siege of Tobruk
(GG-XIV.B.6).

A hidden unit shows the enemy only "a unit" in its hex (see :mod:`tobruk.view`); a dummy is a hidden
counter with nothing behind it.  Units are turned up when activated, attacked (on the ground or from the
air) or when they move; a dummy turned up is removed.  Every reveal raises ``state.reveals``, which undo
never crosses.

What the enemy sees of face-down counters must not depend on which is which:

- Each face-down counter the enemy sees carries an anonymous id (``vars.anon``), given when a
  batch of counters is turned face down (the end of the set-up, of a siege): per hex the counters are put
  in a secret order and the k-th gets a keyed hash of (batch, hex, k) under the game's secret
  (:meth:`Game.secret_mac`).  The ids are thus the same whoever stands where, different in every game,
  and new each time a counter goes face down again.  A counter turned up loses its id for good.
- While a side places face-down counters (its set-up, a siege), the other side sees those counters as
  they were when the phase began (``vars.unseen`` keeps how they looked), and the log lines about
  the placements are that side's alone (:func:`log_secret`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics.counters import FAMILY_BITS, family_defs, family_unit
from tobruk.systems.gazala.state import Unseen, gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game

_HIDDEN, _ELIMINATED = FAMILY_BITS["hidden"], FAMILY_BITS["eliminated"]


def nonhistorical(game: Game) -> bool:
    return bool(gazala_vars(game).nonhistorical)


def pool_units(game: Game, side: Side) -> list[str]:
    """The counters a side sets up face down: its ground units with a set-up position, and the dummies
    (reinforcements arrive later, GG-VII.B)."""
    return [u for u in game.units_of(side) if not family_defs(game)[u].is_air and u not in game.scenario.reinforcements]


def hide_allied_units(game: Game) -> None:
    """GG-V.B.1: every Allied ground unit and both dummies start face down, in a pool off the map."""
    for uid in pool_units(game, Side.ALLIED):
        u = family_unit(game, uid)
        u.hidden, u.hex = True, None


def name(game: Game, uid: str) -> str:
    """How a log line may name a unit: its id, or "a unit in H" while it is face down."""
    u = family_unit(game, uid)
    return f"a unit in {u.hex}" if u.hidden else uid


def log_secret(game: Game, owner: Side, text: str, public: str | None = None, kind: str = "note") -> None:
    """A log line about face-down counters: ``owner`` reads ``text``, the enemy ``public`` (or nothing)."""
    game.log(text, kind=kind, hidden_from=owner.enemy, instead=public)


def reveal(game: Game, uid: str, why: str) -> None:
    """Turn a unit face up; a dummy is removed (it was never there).  Its anonymous id is gone for good."""
    u, d = family_unit(game, uid), family_defs(game)[uid]
    if not u.hidden:
        return
    u.hidden = False
    gazala_vars(game).anon = {k: v for k, v in gazala_vars(game).anon.items() if k != uid}
    game.state.reveals += 1
    if d.is_dummy:
        where = u.hex
        u.hex = None
        u.eliminated = True
        game.log(f"The unit in {where} was a dummy ({why}); it is removed.", kind="loss")
    else:
        game.log(f"{why[:1].upper()}{why[1:]}: the unit in {u.hex} is {uid} ({d.name}, {d.factors}).")


def reveal_hex(game: Game, h: Hex, side: Side, why: str) -> None:
    for uid in game.units_at(h, side):
        reveal(game, uid, why)


# --- what the enemy sees of face-down counters -------------------------------------------------------
ANON_LENGTH = 12


def assign_anonymous_ids(game: Game, uids: list[str]) -> None:
    """Give counters just turned face down their anonymous ids (a new batch: ids never come back).

    Per hex the counters are put in an order only the secret gives, and the k-th gets the keyed hash of
    (batch, hex, k): the ids depend on where the counters are, not on which counter is which.
    """
    batch = gazala_vars(game).anon_batch + 1
    gazala_vars(game).anon_batch = batch
    ids: dict[str, str] = dict(gazala_vars(game).anon)
    by_hex: dict[Hex, list[str]] = {}
    for uid in uids:
        u = family_unit(game, uid)
        if u.hidden and u.hex is not None and not u.eliminated:
            by_hex.setdefault(u.hex, []).append(uid)
    for h in sorted(by_hex):
        shuffled = sorted(by_hex[h], key=lambda x: game.secret_mac(f"order:{batch}:{x}"))
        for k, uid in enumerate(shuffled):
            ids[uid] = game.secret_mac(f"anon:{batch}:{h.label}:{k}")[:ANON_LENGTH]
    gazala_vars(game).anon = ids


def anonymous_id(game: Game, uid: str) -> str:
    """The id the enemy sees for a face-down counter (a position arranged by hand gets one from its id)."""
    given: str | None = gazala_vars(game).anon.get(uid)
    return given if given is not None else game.secret_mac(f"anon:unassigned:{uid}")[:ANON_LENGTH]


def keep_unseen(game: Game, uid: str) -> None:
    """Before a counter changes in a phase the enemy may not follow (set-up, siege), note how it looked."""
    u = family_unit(game, uid)
    unseen = gazala_vars(game).unseen
    if uid not in unseen:
        gazala_vars(game).unseen = unseen | {
            uid: Unseen(None if u.hex is None else u.hex.label, u.hidden, u.eliminated, gazala_vars(game).anon.get(uid))
        }


def seen_key(game: Game, side: Side) -> Hashable:
    """What :func:`seen_by_enemy` reads for ``side``'s counters: their rows, how they looked before a phase the
    enemy cannot follow, their anonymous ids (and the game's secret, which never changes)."""
    return (game.side_key(side), gazala_vars(game).unseen, gazala_vars(game).anon)


def seen_by_enemy(game: Game, side: Side) -> dict[str, tuple[Hex | None, bool, bool, str | None]]:
    """(hex, face down, eliminated, anonymous id) of each of ``side``'s counters as its enemy sees it now: as it
    looked before a phase the enemy cannot follow (``vars.unseen``), else as it stands, with its anonymous id
    while face down.  Read from the unit arrays, a side at a time (every view asks)."""
    units, hexes = game.state.units, game.scenario.map.hexes
    at, flags = units.hex, units.flags
    unseen = gazala_vars(game).unseen
    out: dict[str, tuple[Hex | None, bool, bool, str | None]] = {}
    for i, uid in game.rows_of(side):
        kept = unseen.get(uid) if unseen else None
        if kept is not None:
            out[uid] = (None if kept.hex is None else Hex.parse(kept.hex), kept.hidden, kept.eliminated, kept.anon)
            continue
        j, f = at[i], flags[i]
        hidden = bool(f & _HIDDEN)
        out[uid] = (None if j < 0 else hexes[j], hidden, bool(f & _ELIMINATED), anonymous_id(game, uid) if hidden else None)
    return out


def end_unseen_phase(game: Game) -> None:
    gazala_vars(game).unseen = {}


def face_down_on_map(game: Game, side: Side) -> list[str]:
    return [u for u in game.units_of(side) if (s := family_unit(game, u)).hidden and s.hex is not None and not s.eliminated]


def hidden_in(game: Game, hexes: list[Hex] | tuple[Hex, ...], side: Side) -> bool:
    """Whether ``side`` has a face-down counter in any of ``hexes`` (what its enemy sees: "a unit")."""
    return any(family_unit(game, u).hidden for h in hexes for u in game.units_at(h, side))


def dummy_problem(game: Game) -> IllegalOrderError | None:
    """GG-V.B.1: each dummy must share its hex with a real unit and/or a box."""
    boxes = {h for h, s in game.scenario.map.fortifications.items() if s is Side.ALLIED}
    for uid in game.units_of(Side.ALLIED):
        d, u = family_defs(game)[uid], family_unit(game, uid)
        if not d.is_dummy or u.eliminated:
            continue
        if u.hex is None:
            return IllegalOrderError("GG-V.B.1", f"place {uid} first")
        real = [x for x in game.units_at(u.hex, Side.ALLIED) if not family_defs(game)[x].is_dummy]
        if not real and u.hex not in boxes:
            return IllegalOrderError("GG-V.B.1", f"{uid} in {u.hex} must share its hex with a real unit or a box")
    return None


# --- the Siege of Tobruk (GG-XIV.B.6) --------------------------------------------------------------
def siege_zone(game: Game) -> frozenset[Hex]:
    zone = game.scenario.rules.get("siege_zone")
    return game.scenario.map.zones.get(zone, frozenset()) if zone else frozenset()


def siege_available(game: Game) -> bool:
    """Before an Axis player-turn, while no Axis unit has been inside the perimeter and Allied units hold it.

    "Hold" as the Axis player sees it: a face-down counter there counts, dummy or not, so whether the
    siege is offered tells him nothing about what the counters are.
    """
    zone = siege_zone(game)
    if not zone or gazala_vars(game).siege_lost or axis_inside(game, zone):
        return False
    return any(
        family_unit(game, u).hex in zone
        for u in game.units_of(Side.ALLIED)
        if not family_defs(game)[u].is_air and not family_unit(game, u).eliminated
    )


def axis_inside(game: Game, zone: frozenset[Hex]) -> bool:
    return any(h in zone for _, h in _axis_on_map(game))


def note_siege_lost(game: Game) -> None:
    """Once an Axis unit has been inside the perimeter the siege is no longer offered: noted when the siege
    step begins (queries never change the position)."""
    zone = siege_zone(game)
    if zone and axis_inside(game, zone):
        gazala_vars(game).siege_lost = True


def _axis_on_map(game: Game) -> list[tuple[str, Hex]]:
    return [(u, h) for u in game.units_of(Side.AXIS) if (h := family_unit(game, u).hex) is not None and not family_unit(game, u).eliminated]


def siege_units(game: Game) -> list[str]:
    """Allied units in the fortress, and the two dummies (off the map or already inside), for the siege."""
    zone = siege_zone(game)
    out = []
    for uid in game.units_of(Side.ALLIED):
        d, u = family_defs(game)[uid], family_unit(game, uid)
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


def redeploy(game: Game, uid: str, h: Hex) -> None:
    """GG-XIV.B.6: one counter of the garrison (or a dummy) to a hex inside the perimeter, face down."""
    keep_unseen(game, uid)
    u = family_unit(game, uid)
    u.hex, u.hidden, u.eliminated = h, True, False
    gazala_vars(game).placed = (*gazala_vars(game).placed, uid)
    log_secret(game, Side.ALLIED, f"Allied: {uid} redeploys face down to {h} (Siege of Tobruk).")


def end_siege(game: Game) -> None:
    """The end of the siege phase: if anything was redeployed, the whole garrison is face down; new ids."""
    if not gazala_vars(game).placed:
        return
    zone = siege_zone(game)
    inside = [
        u
        for u in game.units_of(Side.ALLIED)
        if not family_defs(game)[u].is_air and not family_unit(game, u).eliminated and family_unit(game, u).hex in zone
    ]
    for uid in inside:
        family_unit(game, uid).hidden = True
    assign_anonymous_ids(game, inside)
    end_unseen_phase(game)
    game.log("Allied: Siege of Tobruk: the garrison is turned face down and spread inside the perimeter.")


# --- what a side may know (tobruk.engine.information) ----------------------------------------------------
def observe(game: Game, side: Side, anon: Mapping[str, str]) -> None:
    """In a copy made for ``side``, where the enemy's counters already stand as ``side`` sees them: no record of how
    the enemy's counters looked before its hidden phase (they look so now), the enemy's face-down counters known by
    the ids of the places they were put in, and nothing of which enemy counters were placed this phase."""
    v = gazala_vars(game)
    v.unseen = {}
    v.anon = {uid: a for uid, a in v.anon.items() if family_defs(game)[uid].side is side} | dict(anon)
    v.placed = tuple(uid for uid in v.placed if family_defs(game)[uid].side is side)


def placement_allowed(game: Game, side: Side, placements: Mapping[str, Hex | None]) -> bool:
    """Whether ``side``'s face-down counters may stand as ``placements`` says: each where its set-up or a siege could
    have put it, no hex over the stacking limit, each dummy with a real unit or in a box (GG-V.B.1, XIV.B.6)."""
    from tobruk.systems.gazala.setup import setup_zones, stacking_problem

    zones = setup_zones(game, side)
    siege = siege_zone(game)
    boxes = {b for b, s in game.scenario.map.fortifications.items() if s is side}
    stacks: dict[Hex, list[str]] = {}
    for h, here in game.occupants(side).items():
        for u in here:
            if u not in placements:
                stacks.setdefault(h, []).append(u)
    for uid, at in placements.items():
        if at is None:
            continue
        zone = zones.get(uid)
        if at not in siege and (zone is None or at not in game.scenario.zone(zone)):
            return False
        stacks.setdefault(at, []).append(uid)
    for h, here in stacks.items():
        if stacking_problem(game, here) is not None:
            return False
        if h not in boxes and all(family_defs(game)[u].is_dummy for u in here):
            return False
    return True
