"""The scenario's set-up before its first player-turn (CA-SC.1-9), one step per side.

The scenario listings place most units by area (a side of a front line, anything short of a map edge, anywhere
east of a place) and only a few on a named hex; the scenario files keep the area as the force's ``setup_zone`` and
a historical hex beside it.  docs/rulings.md ("North-Africa campaign: the set-up") reads the words; in short:

* the listed hex is the default: a unit the owner leaves alone starts there, and he may set it up instead on any
  hex of its zone a unit may stand on (inside the scenario's section, CA-F.11; not impassable, CA-F.8; no enemy
  unit there, CA-M.1; within the stacking limits, CA-K.1; one to a hex where the listing says the side's units
  start alone, CA-SC.7);
* units the listing brings in over an edge or at a place on the scenario's first turn are its starting forces
  (CA-R.1), set up with the rest on a hex of their entry zone; they have no default, so the owner places each
  before he is done (as he does a unit a user's scenario gives a set-up zone and no hex); should the zone have
  no room left for one (a user's scenario may ask too much of a small zone), it waits off the map and enters later as
  a reinforcement (CA-R.4; a starting force by its entry zone), so a set-up can always end;
* the side that has the second player-turn sets up first and the side that moves first sets up second, seeing the
  other's set-up; each unit is set up once (undo to set it up elsewhere), and ``end-phase`` keeps the rest where
  they stand;
* the fortifications the listing gives a side by number, without naming their hexes (El Agheila's box, Alam
  Halfa's forts), are set up in the same step (``build HEX``) on hexes of that zone a unit may stand on, with no
  marker and no enemy unit there; those on named hexes stand from the start.  The owner may leave some unbuilt, as
  he may remove his own markers at will (CA-F.2);
* the set-up is open, as at the table, but for the Tobruk garrison (CA-F.4): a face-down counter set up inside the
  perimeter stays face down and the Axis reads only that a face-down unit went there; one set up outside it is
  turned face up; when the Allies are done, every Allied counter inside the perimeter is face down with a fresh
  anonymous id, so the Axis cannot follow which one went where.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Place
from tobruk.mechanics.counters import UnitType
from tobruk.systems.campaign import hidden, live, sea
from tobruk.systems.campaign.actions import Build
from tobruk.systems.campaign.forces import load_forces
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit
from tobruk.systems.campaign.reinforcements import starting_arrivals
from tobruk.systems.campaign.stacking import hex_refusal
from tobruk.systems.campaign.start_of_turn import note_alamein
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs
from tobruk.systems.campaign.steps import CampaignStep, turn_title
from tobruk.systems.campaign.terrain import enterable

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def _combined_parts(game: Game) -> frozenset[str]:
    """The regiments riding in a combined panzer division (CA-U.1): they go where their division goes."""
    return frozenset(p for parts in campaign_vars(game).combined.values() for p in parts)


def zones(game: Game, side: Side) -> dict[str, str]:
    """``side``'s units the set-up places, each with its zone: those with a set-up zone, and the starting forces with
    their entry zone (a combined division's regiment goes with it, so it is not listed; an eliminated unit, which only
    a test's arrangement makes before the game begins, is not set up)."""
    defs = counter_defs(game)
    sc = game.scenario
    parts = _combined_parts(game)
    out = {uid: z for uid, z in sc.setup_zone.items() if uid in defs and defs[uid].side is side and uid not in parts}
    for uid in starting_arrivals(sc):
        if uid in defs and defs[uid].side is side and uid not in parts:
            out[uid] = sc.reinforcements[uid].zone
    return {uid: z for uid, z in out.items() if not counter(game, uid).eliminated}


def unplaced(game: Game, side: Side) -> list[str]:
    """``side``'s units the set-up must still put on the map: its starting forces, and any unit with a set-up zone but
    no listed hex (a user's scenario may give one).  The set-up cannot end before each is placed."""
    start = game.scenario.start
    return [uid for uid in zones(game, side) if counter(game, uid).hex is None and start.get(uid) is None]


def _clause(game: Game) -> str:
    return live.setup_of(game).clause


def _as_placed(game: Game, position: CampaignPosition, uid: str, to: int) -> CampaignUnit:
    """The counter as it would stand on hex ``to``: the position's own (a combined division with its regiment), or for
    a unit off the map its printed counter."""
    if uid in position.by_id:
        return replace(position.unit(uid), hex=to)
    parts = campaign_vars(game).combined.get(uid, ())
    defs = counter_defs(game)
    d = load_forces(live.setup_of(game).forces).combined(uid) if parts else defs[uid]
    return CampaignUnit(d, to, parts=tuple(defs[p] for p in parts))


def _hexes(game: Game, uid: str, zone: str) -> tuple[int, ...]:
    """The hexes of ``zone`` that ``uid`` may be set up on, whatever stands there: the dummy only within the Tobruk
    perimeter (CA-F.4: it is a decoy among the garrison, and turned face up it would leave the map)."""
    found = live.zone_indices(game, zone)
    if counter_defs(game)[uid].type is not UnitType.DUMMY:
        return found
    m = game.scenario.map
    inside = m.zones.get(hidden.PERIMETER, frozenset())
    return tuple(i for i in found if m.hexes[i] in inside)


def refusal(game: Game, side: Side, uid: str, h: Hex) -> IllegalOrderError | None:
    """Why ``side`` may not set ``uid`` up on ``h`` now, or None (the checks of the module docstring, each naming its
    clause)."""
    clause = _clause(game)
    defs = counter_defs(game)
    d = defs.get(uid)
    if d is None or d.side is not side:
        return IllegalOrderError(clause, f"{uid!r} is not one of your units")
    zone = zones(game, side).get(uid)
    if zone is None:
        return IllegalOrderError(clause, f"{uid} has no set-up zone: it starts where the scenario puts it")
    if uid in campaign_vars(game).placed:
        return IllegalOrderError(clause, f"{uid} has been set up already; undo to set it up elsewhere")
    m = game.scenario.map
    i = m.index.get(h)
    if i is None:
        return IllegalOrderError("CA-F.11", f"{h} is not on the map")
    if i not in _hexes(game, uid, zone):
        if h in game.scenario.zone(zone) and not enterable(m, h):
            return IllegalOrderError("CA-F.8", f"{h} is impassable ground: no unit stands on it")
        if i in live.zone_indices(game, zone):
            return IllegalOrderError("CA-F.4", f"the Tobruk dummy stands within the perimeter, not on {h}")
        return IllegalOrderError(clause, f"{h} is outside {uid}'s set-up zone {zone!r}")
    if counter(game, uid).hex == h:
        return IllegalOrderError(clause, f"{uid} stands on {h} already")
    position = live.position(game)
    return _hex_refusal(game, position, side, uid, i)


def _hex_refusal(game: Game, position: CampaignPosition, side: Side, uid: str, i: int) -> IllegalOrderError | None:
    """What the units on hex ``i`` say against ``uid`` joining them: an enemy (CA-M.1), the stacking limits (CA-K.1),
    the one-to-a-hex of the listing (CA-SC.7)."""
    here = position.at(i)
    if not here:
        return None
    h = position.hex(i)
    if any(u.side is not side for u in here):
        return IllegalOrderError("CA-M.1", f"{h} holds enemy units")
    setup = live.setup_of(game)
    if setup.alone is side and any(u.id != uid for u in here):
        return IllegalOrderError(setup.clause, f"the {side.display} units start one to a hex, and {h} is taken")
    why = hex_refusal(position, i, side, (_as_placed(game, position, uid, i),))
    return None if why is None else IllegalOrderError("CA-K.1", f"{h} would hold {why}")


def placements(game: Game, side: Side) -> list[tuple[Place, ...]]:
    """Each unit's legal placements now, a block per unit in the order of battle, its hexes in map order."""
    position = live.position(game)
    hexes = game.scenario.map.hexes
    placed = set(campaign_vars(game).placed)
    out: list[tuple[Place, ...]] = []
    for uid, zone in zones(game, side).items():
        if uid in placed:
            continue
        here = counter(game, uid).hex_index
        block = tuple(
            Place(uid, hexes[i]) for i in _hexes(game, uid, zone) if i != here and _hex_refusal(game, position, side, uid, i) is None
        )
        if block:
            out.append(block)
    return out


def place(game: Game, side: Side, order: Place) -> None:
    """Check and carry out one placement, the face-down garrison kept face down inside the perimeter (CA-F.4)."""
    problem = refusal(game, side, order.unit, order.hex)
    if problem is not None:
        raise problem
    c = counter(game, order.unit)
    inside = order.hex in game.scenario.map.zones.get(hidden.PERIMETER, frozenset())
    if c.hidden and not inside:
        hidden.reveal(game, [order.unit], "set up outside the perimeter")
    was = c.hex
    c.hex = order.hex
    v = campaign_vars(game)
    v.placed = (*v.placed, order.unit)
    start = f" from {was}" if was is not None else ""
    text = f"{side.display}: {order.unit} is set up at {order.hex}{start} ({_clause(game)})."
    if c.hidden:
        instead = f"{side.display}: a face-down unit is set up at {order.hex}{start} ({_clause(game)})."
        game.log(text, kind="move", hidden_from=side.enemy, instead=instead)
    else:
        game.log(text, kind="move")


def _kind(side: Side) -> str:
    return "fort" if side is Side.AXIS else "box"


def forts_left(game: Game, side: Side) -> dict[int, int]:
    """How many of each of ``side``'s fortifications the listing lets it set up in a zone are not set up yet, by the
    fortification's index in the scenario (those on named hexes stand from the start)."""
    done = campaign_vars(game).set_up_forts
    out = {}
    for k, f in enumerate(live.setup_of(game).fortifications):
        if f.side is side and f.zone is not None and f.count - len(f.hexes) - done.count(k) > 0:
            out[k] = f.count - len(f.hexes) - done.count(k)
    return out


def fort_refusal(game: Game, side: Side, h: Hex) -> tuple[IllegalOrderError | None, int]:
    """Why ``side`` may not set one of its listed fortifications up on ``h`` now (or None), and which of them it would
    be: a hex of the fortification's zone a unit may stand on, with no marker and no enemy unit there (CA-F.1)."""
    fortifications = live.setup_of(game).fortifications
    i = game.scenario.map.index.get(h, -1)
    left = [k for k in forts_left(game, side) if i in live.zone_indices(game, fortifications[k].zone or "")]
    if not left:
        return IllegalOrderError(_clause(game), f"no {_kind(side)} of the scenario is left to set up on {h}"), -1
    if h.label in campaign_vars(game).forts:
        return IllegalOrderError("CA-F.1", f"{h} has a fort/box marker already"), -1
    if any(u.side is side.enemy for u in live.position(game).at(i)):
        return IllegalOrderError("CA-F.1", f"{h} holds enemy units"), -1
    return None, left[0]


def fort_builds(game: Game, side: Side) -> tuple[Build, ...]:
    """Every hex ``side`` may set one of its listed fortifications up on now."""
    fortifications = live.setup_of(game).fortifications
    hexes = game.scenario.map.hexes
    zones_left = {fortifications[k].zone or "" for k in forts_left(game, side)}
    sites = sorted({i for z in zones_left for i in live.zone_indices(game, z)})
    marked, enemy = campaign_vars(game).forts, live.position(game).held[side.enemy]
    return tuple(Build(hexes[i]) for i in sites if hexes[i].label not in marked and i not in enemy)  # (fort_refusal's)


def set_up_fort(game: Game, side: Side, order: Build) -> None:
    """Set one of the listing's fortifications up (the listing gives it: no CA-F.1 turn or distance applies)."""
    problem, k = fort_refusal(game, side, order.hex)
    if problem is not None:
        raise problem
    v = campaign_vars(game)
    v.forts = v.forts | {order.hex.label: side.value}
    v.set_up_forts = (*v.set_up_forts, k)
    game.log(f"{side.display}: a {_kind(side)} is set up at {order.hex} ({_clause(game)}).", kind="move")


class SetUp(CampaignStep):
    """A side's set-up (see the module docstring): it asks only a side with a unit to place, and ends with
    ``end-phase`` once the side's starting forces are on the map."""

    prompt = "set up units (a unit, then a hex) and fortifications in their zones, or end the phase to keep the rest where they stand"

    def enter(self, game: Game) -> None:
        v = campaign_vars(game)
        v.placed = v.set_up_forts = ()
        if self.decision(game) is not None:
            super().enter(game)

    def decision(self, game: Game) -> Decision | None:
        assert self.side is not None
        if not zones(game, self.side) and not forts_left(game, self.side):
            return None
        return Decision(self.side, self.key, f"{turn_title(game)}, {self.title}: {self.prompt}", _clause(game))

    def action_blocks(self, game: Game, decision: Decision) -> list[Sequence[Action]]:
        found = placements(game, decision.side)
        blocks: list[Sequence[Action]] = list(found)
        builds = fort_builds(game, decision.side)
        if builds:
            blocks.append(builds)
        if not set(unplaced(game, decision.side)) & {b[0].unit for b in found}:
            blocks.append((EndPhase(),))
        return blocks

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [a for block in self.action_blocks(game, decision) for a in block]

    @on(Place)
    def place_one(self, game: Game, decision: Decision, order: Place) -> None:
        place(game, decision.side, order)

    @on(Build)
    def build_one(self, game: Game, decision: Decision, order: Build) -> None:
        set_up_fort(game, decision.side, order)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        side = decision.side
        waiting = unplaced(game, side)
        able = {b[0].unit for b in placements(game, side)}
        for uid in waiting:
            if uid in able:
                where = zones(game, side)[uid]
                raise IllegalOrderError(_clause(game), f"{uid} starts on the map: set it up on a hex of {where!r} first")
        v = campaign_vars(game)
        for uid in waiting:  # its zone has no room left: it comes in later, as a reinforcement by the same zone
            v.waiting = v.waiting | {uid: ""}
            game.log(f"{side.display}: {uid} finds no room in its zone and waits off the map to enter as a reinforcement (CA-R.4).")
        return True

    def finish(self, game: Game) -> None:
        assert self.side is not None
        v = campaign_vars(game)
        v.placed = v.set_up_forts = ()
        if self.side is Side.ALLIED:
            hidden.conceal_garrison(game)  # (afresh: the Axis cannot follow which face-down counter went where)
        else:
            note_alamein(game)  # an Axis unit set up within 5 hexes of El Alamein (CA-R.3)
        if self.side is live.setup_of(game).first:  # the last set-up: the units stand where the game begins
            sea.start(game)  # so the record of the ports and Tobruk is made from where they stand (CA-S.3)


def set_up_steps(first: Side) -> tuple[SetUp, SetUp]:
    """The set-up steps: the side that moves second sets up first, the side that moves first after it."""
    second = first.enemy
    return (
        SetUp(f"{second.value}-set-up", f"{second.display} set-up", "CA-SC", second),
        SetUp(f"{first.value}-set-up", f"{first.display} set-up", "CA-SC", first),
    )
