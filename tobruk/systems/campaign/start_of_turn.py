"""The first step of a player-turn in a running game: reinforcements and replacements (CA-R.1-5) and fort or box
construction (CA-F.1, CA-F.2), CA-Q.1-2 step 1.

The rules are :mod:`.reinforcements`' functions of a position; this module keeps what they need in the game's
variables and says what an order does.

* What waits off the map is the variables' ``waiting`` (each counter not yet in play with the turn from which it
  may enter, made from the scenario at the start, :func:`~.reinforcements.pool_from_scenario`); what was eliminated
  are the counters with the engine's ``eliminated`` status (the pool of replacements, CA-R.2 and CA-R.4).
* One reinforcement or replacement a player-turn (CA-R.4): ``entered`` notes the side's, cleared as its player-turn
  begins.  The step lists every :class:`~.actions.Enter` the rules allow now, and ``end-phase``; a unit refused is
  refused with the clause :func:`~.reinforcements.check` names.  The step asks only when a unit may enter.
* A unit enters on the side's coastal-road edge hex (:func:`~.strategic.rear_hex`), or, if the scenario's listing
  brings it in by a zone of its own and it has not been in play, on any hex of that zone (:func:`entry_hexes`);
  undisrupted; an Allied armour brigade with the tank type chosen, an Allied infantry-type unit with the anti-tank
  gun of the date (CA-T.5): the variables' ``equipped`` keeps both, read by :mod:`.live`.
* One fort (Axis) or box (Allied) a game-turn, built in the side's first step (CA-F.1, :func:`~.forts.check_build`):
  ``built`` notes the side's, cleared as its player-turn begins; ``fought`` the sides whose latest player-turn
  resolved an attack, so none is built after combat in the current or the previous player-turn; the scenario may
  forbid a side forts (CA-SC.2).  The owner removes his own in the same step (CA-F.2).  The markers are the
  variables' ``forts``, which the position, its zones (CA-F.3) and supply lines read.
* In the owner's supply phase his markers that an undisrupted enemy infantry-type unit stands on are destroyed
  (:func:`destroy_forts`, CA-F.2).
* The Allied Alamein Force Level (CA-R.3, CA-R.5): ``alamein`` is set, for the rest of the game, once an Axis unit
  stands within 5 hexes of El Alamein (:func:`note_alamein`, after every Axis move), or from the start when the
  scenario says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import forts, live
from tobruk.systems.campaign import reinforcements as rf
from tobruk.systems.campaign.actions import TANKS, Build, Enter, Remove
from tobruk.systems.campaign.forces import Forces, load_forces
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs
from tobruk.systems.campaign.steps import CampaignStep, turn_title
from tobruk.systems.campaign.strategic import rear_hex

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def forces_of(game: Game) -> Forces:
    return load_forces(live.setup_of(game).forces)


def start(game: Game) -> None:
    """The game's record of what waits off the map, and the Alamein level if in force from the start."""
    v = campaign_vars(game)
    pools = rf.pool_from_scenario(game.scenario, live.position(game))
    v.waiting = {uid: since for pool in pools.values() for uid, since in pool.waiting.items()}
    v.alamein = live.setup_of(game).alamein_active
    note_alamein(game)


def note_alamein(game: Game) -> None:
    """Set the Alamein force level for the rest of the game if an Axis unit now stands within its distance of El
    Alamein (CA-R.3, CA-R.5)."""
    v = campaign_vars(game)
    if v.alamein:
        return
    forces = forces_of(game)
    if rf.alamein_reached(live.position(game), forces):
        v.alamein = True
        al = forces.track.alamein
        game.log(
            f"An Axis unit is within {al.within} hexes of {al.place}: the Allied Alamein Force Level ({al.force_level}) "
            f"holds for the rest of the game, and the Axis may bring in {', '.join(al.axis_additions)} (CA-R.3, CA-R.5).",
            kind="event",
        )


def entry_hex(game: Game, side: Side) -> int:
    """Where ``side``'s reinforcements and replacements enter (CA-R.4): its coastal-road edge hex."""
    area = live.setup_of(game).area
    return rear_hex(game.scenario.map, side, None if area is None else game.scenario.zone(area))


def entry_hexes(game: Game, side: Side, uid: str) -> tuple[int, ...]:
    """Where unit ``uid`` of ``side`` may enter now: a scenario's arrival not yet in play on any hex of the zone its
    listing brings it in by ("entering from east", "at Agedabia or eastern mapboard edge"); any other reinforcement, and
    every replacement, on the coastal-road edge hex (CA-R.4)."""
    arrival = game.scenario.reinforcements.get(uid)
    if arrival is None or uid not in campaign_vars(game).waiting:
        return (entry_hex(game, side),)
    return live.zone_indices(game, arrival.zone)


def pool(game: Game, side: Side) -> rf.Pool:
    """``side``'s counters off the map: those waiting, and those eliminated."""
    v = campaign_vars(game)
    defs = counter_defs(game)
    waiting = {uid: t for uid, t in v.waiting.items() if defs[uid].side is side}
    gone = frozenset(uid for uid in game.units_of(side) if counter(game, uid).eliminated)
    return rf.Pool(waiting, gone)


def _tank_index(tank: str | None) -> int:
    return TANKS.index(tank) + 1 if tank in TANKS else 0


def offered(game: Game, side: Side) -> bool:
    """Whether the step asks ``side``: a counter of it waits off the map or was eliminated, so that the player sees
    each with the clause that lets it in or keeps it out."""
    v = campaign_vars(game)
    defs = counter_defs(game)
    return any(defs[u].side is side for u in v.waiting) or any(counter(game, u).eliminated for u in game.units_of(side))


def entry_orders(game: Game, side: Side) -> list[Enter]:
    """Every entry the rules allow ``side`` now: each unit that may enter, on each of its entry hexes where the rules
    let it in (an enemy there, CA-M.1; a full hex, CA-K.1)."""
    v = campaign_vars(game)
    taken = side.value in v.entered
    position, forces, turn, waiting = live.position(game), forces_of(game), turn_title(game), pool(game, side)
    hexes = game.scenario.map.hexes
    defs = counter_defs(game)
    found: dict[int, tuple[rf.Choice, ...]] = {}  # the choices that may enter by each entry hex, asked once a hex
    out: dict[str, list[Enter]] = {}
    for c in rf.choices(position, forces, side, turn, waiting, entry_hex(game, side), alamein=v.alamein, taken=taken):
        if c.unit in out:
            continue
        orders = out[c.unit] = []
        for entry in entry_hexes(game, side, c.unit):
            if entry not in found:
                found[entry] = rf.legal(position, forces, side, turn, waiting, entry, alamein=v.alamein, taken=taken)
            for ok in found[entry]:
                if ok.unit == c.unit:
                    orders.append(Enter(c.unit, hexes[entry], _tank_index(ok.tank) if rf.chooses_tank(defs[c.unit]) else 0))
    return [o for orders in out.values() for o in orders]


def enter(game: Game, side: Side, order: Enter) -> None:
    """Check and carry out the entry of a reinforcement or replacement (CA-R.1-5), on one of its entry hexes."""
    v = campaign_vars(game)
    m = game.scenario.map
    d = counter_defs(game).get(order.unit)
    if d is None or d.side is not side:
        raise IllegalOrderError("CA-R.4", f"{order.unit!r} is not one of your units")
    entries = entry_hexes(game, side, order.unit)
    entry = m.index.get(order.hex, -1)
    if entry not in entries:
        if order.unit in game.scenario.reinforcements and order.unit in v.waiting:
            zone = game.scenario.reinforcements[order.unit].zone
            listing = live.setup_of(game).clause  # a scenario's listing (CA-SC.n), or the campaign game's track (CA-R.4)
            clause = listing if listing.startswith("CA-SC.") else "CA-R.4"
            raise IllegalOrderError(clause, f"{order.unit} enters on a hex of its zone {zone!r}, not {order.hex}")
        where = f"{side.display} reinforcements and replacements enter on the coastal road at {m.hexes[entries[0]]}"
        raise IllegalOrderError("CA-R.4", f"{where}, not {order.hex}")
    if rf.chooses_tank(d) != bool(order.tank):
        named = "names the tank type it enters with" if rf.chooses_tank(d) else "enters with its own equipment, naming no tank type"
        raise IllegalOrderError("CA-R.4", f"{order.unit} {named}")
    tank = TANKS[order.tank - 1] if order.tank else None
    turn = turn_title(game)
    choice = rf.check(
        live.position(game), forces_of(game), side, turn, pool(game, side), entry, order.unit, tank,
        alamein=v.alamein, taken=side.value in v.entered,
    )  # fmt: skip
    c = counter(game, order.unit)
    c.eliminated = False
    c.disrupted = c.newly_disrupted = c.out_of_supply = c.moved = c.attacking = c.targeted = False
    c.hex = m.hexes[entry]
    v.waiting = {uid: t for uid, t in v.waiting.items() if uid != order.unit}
    v.entered = (*v.entered, side.value)
    if side is Side.ALLIED:
        v.equipped = v.equipped | {order.unit: (turn, choice.tank or "")}
    what = f" with {choice.tank}s" if tank else ""
    game.log(f"{side.display}: {order.unit} enters at {c.hex} as the player-turn's {choice.kind}{what} (CA-R.4).", kind="move")
    if side is Side.AXIS:
        note_alamein(game)


def _kind(side: Side) -> str:
    return "fort" if side is Side.AXIS else "box"


def may_build(game: Game, side: Side) -> bool:
    """Whether ``side`` may build its fort or box now somewhere (CA-F.1, CA-SC.2)."""
    v = campaign_vars(game)
    return live.setup_of(game).may_build(side) and side.value not in v.built and not v.fought


def build_orders(game: Game, side: Side) -> list[Build]:
    """Every hex ``side`` may build its fort or box on now (CA-F.1)."""
    if not may_build(game, side):
        return []
    hexes = game.scenario.map.hexes
    return [Build(hexes[i]) for i in sorted(forts.build_sites(live.position(game), side))]


def remove_orders(game: Game, side: Side) -> list[Remove]:
    """Every fort or box of ``side``'s that its owner may remove (CA-F.2)."""
    return [Remove(game.scenario.map.hexes[i]) for i, s in sorted(live.position(game).forts.items()) if s is side]


def build(game: Game, side: Side, order: Build) -> None:
    """Check and build ``side``'s fort or box (CA-F.1)."""
    v = campaign_vars(game)
    at = game.scenario.map.index.get(order.hex)
    if at is None:
        raise IllegalOrderError("CA-F.11", f"{order.hex} is not on the map")
    forts.check_build(live.position(game), side, at, built=side.value in v.built, combat=bool(v.fought), scenario=live.setup_of(game))
    v.forts = v.forts | {order.hex.label: side.value}
    v.built = (*v.built, side.value)
    game.log(f"{side.display}: a {_kind(side)} is built at {order.hex} (CA-F.1).", kind="move")


def remove(game: Game, side: Side, order: Remove) -> None:
    """The owner removes his fort or box (CA-F.2)."""
    v = campaign_vars(game)
    if v.forts.get(order.hex.label) != side.value:
        raise IllegalOrderError("CA-F.2", f"{order.hex} has no {side.display} {_kind(side)} to remove")
    v.forts = {h: s for h, s in v.forts.items() if h != order.hex.label}
    game.log(f"{side.display}: the {_kind(side)} at {order.hex} is removed (CA-F.2).", kind="move")


def destroy_forts(game: Game, owner: Side) -> None:
    """The owner's supply phase: his forts or boxes an undisrupted enemy infantry-type unit stands on are destroyed
    (CA-F.2)."""
    gone = forts.destroyed(live.position(game), owner)
    if not gone:
        return
    hexes = game.scenario.map.hexes
    labels = {hexes[i].label for i in gone}
    v = campaign_vars(game)
    v.forts = {h: s for h, s in v.forts.items() if h not in labels}
    for h in sorted(labels):
        why = "an undisrupted enemy infantry-type unit holds it"
        game.log(f"The {owner.display} {_kind(owner)} at {h} is destroyed: {why} (CA-F.2).", kind="loss")


class Reinforcements(CampaignStep):
    """CA-Q.1-2 step 1: the player-turn begins, its units unused (step 3's "as yet unused" units move); then the side
    may bring in one reinforcement or replacement (CA-R.4), build its fort or box (CA-F.1), remove its own (CA-F.2),
    or pass.  The step asks when the side has a counter off the map or a fortification to build or remove."""

    prompt = "bring in one reinforcement or replacement (a unit, then its entry hex), build or remove a fortification, or end the phase"

    def enter(self, game: Game) -> None:
        assert self.side is not None
        game.log(f"{turn_title(game)}: {self.side.display} player-turn.", kind="note")
        for uid in game.units_of(self.side):
            c = counter(game, uid)
            c.moved = False
            c.attacking = False
        v = campaign_vars(game)
        v.entered = tuple(s for s in v.entered if s != self.side.value)
        v.built = tuple(s for s in v.built if s != self.side.value)
        v.fought = tuple(s for s in v.fought if s != self.side.value)  # the side's previous player-turn is past
        super().enter(game)

    def decision(self, game: Game) -> Decision | None:
        assert self.side is not None
        side = self.side
        if not (offered(game, side) or may_build(game, side) or remove_orders(game, side)):
            return None  # nothing off the map, nothing to build or remove: nothing to decide
        return super().decision(game)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        side = decision.side
        return [*entry_orders(game, side), *build_orders(game, side), *remove_orders(game, side), EndPhase()]

    @on(Build)
    def build_one(self, game: Game, decision: Decision, order: Build) -> None:
        build(game, decision.side, order)

    @on(Remove)
    def remove_one(self, game: Game, decision: Decision, order: Remove) -> None:
        remove(game, decision.side, order)

    @on(Enter)
    def bring(self, game: Game, decision: Decision, order: Enter) -> None:
        enter(game, decision.side, order)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True
