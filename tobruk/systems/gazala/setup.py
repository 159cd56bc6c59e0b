"""The Gazala Gallop's set-up steps: the historical set-up with the Axis free placement (GG-V.A.1), the
nonhistorical face-down Allied set-up and free Axis set-up (GG-V.B), and the Siege of Tobruk before each
Axis player-turn (GG-XIV.B.6), with the stacking limits they share (GG-XII.A)."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.caching import FIXED, Cache, Carried
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Place
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.state import gazala_vars
from tobruk.systems.gazala.steps import GazalaStep

if TYPE_CHECKING:
    from tobruk.engine.game import Game
    from tobruk.mechanics.counters import FamilyUnitDef

AXIS, ALLIED = Side.AXIS, Side.ALLIED


def stacking_problem(game: Game, uids: Sequence[str]) -> IllegalOrderError | None:
    """Why these units may not share a hex (GG-XII.A.1-3), or ``None``; dummies do not count."""
    defs = [family_defs(game)[u] for u in uids]
    if len({d.side for d in defs}) > 1:
        return IllegalOrderError("GG-XII.A.1", "only one side's units may be in a hex")
    real = [d for d in defs if not d.is_dummy]
    if len(real) > mv.STACK_UNITS:
        return IllegalOrderError("GG-XII.A.2", f"at most {mv.STACK_UNITS} units in a hex")
    if sum(d.is_division for d in real) > mv.STACK_DIVISIONS:
        return IllegalOrderError("GG-XII.A.2", f"at most {mv.STACK_DIVISIONS} division-level units in a hex")
    return None


def setup_zones(game: Game, side: Side) -> dict[str, str]:
    """Which units may be placed in the set-up, and where (GG-V.A.1; GG-V.B.1 and B.3 nonhistorical)."""
    if not hd.nonhistorical(game):
        return {u: z for u, z in game.scenario.setup_zone.items() if family_defs(game)[u].side is side}
    zone = "allied-nonhistorical-setup" if side is ALLIED else "axis-free-setup"
    return {u: zone for u in hd.pool_units(game, side)}


def placement_problem(
    game: Game, uid: str, h: Hex, zones: dict[str, str] | None = None, occupants: dict[Hex, list[str]] | None = None
) -> IllegalOrderError | None:
    """Why ``uid`` may not be set up in ``h``, or ``None``.  A listing passes its side's ``zones`` and the
    ``occupants`` of the position, worked out once for all its units and hexes."""
    d = family_defs(game).get(uid)
    clause = "GG-V.A.1"
    if hd.nonhistorical(game):
        clause = "GG-V.B.1" if d is not None and d.side is ALLIED else "GG-V.B.3"
    if d is not None and zones is None:
        zones = setup_zones(game, d.side)
    zone_name = zones.get(uid) if d is not None and zones is not None else None
    if zone_name is None:
        return IllegalOrderError(clause, f"{uid} has a fixed historical set-up position")
    if h not in game.scenario.zone(zone_name):
        return IllegalOrderError(clause, f"{h} is outside the set-up zone {zone_name!r}")
    if uid in gazala_vars(game).placed:
        return IllegalOrderError(clause, f"{uid} has been placed already; undo to place it elsewhere")
    if d is not None and d.is_dummy:
        boxes = {b for b, s in game.scenario.map.fortifications.items() if s is d.side}
        here = game.units_at(h) if occupants is None else occupants.get(h, [])
        fixed = [
            u for u in here if family_defs(game)[u].side is d.side and u in gazala_vars(game).placed and not family_defs(game)[u].is_dummy
        ]
        if h not in boxes and not fixed:
            return IllegalOrderError(clause, "a dummy goes with a real unit already set up there, or into a box")
    others = [u for u in (game.units_at(h) if occupants is None else occupants.get(h, [])) if u != uid]
    return stacking_problem(game, [*others, uid])


def pool_problem(game: Game) -> IllegalOrderError | None:
    """Units still in the pool at the end of the Allied set-up go to their printed positions (ruling
    R-POOL): refused while one of those hexes would then be over the stacking limit."""
    waiting = [u for u in hd.pool_units(game, ALLIED) if family_unit(game, u).hex is None and not family_defs(game)[u].is_dummy]
    stacks = game.occupants(ALLIED)
    for uid in waiting:
        h = game.scenario.start.get(uid)
        if h is None:
            return IllegalOrderError("GG-V.B.1", f"place {uid}: it has no printed position")
        stacks.setdefault(h, []).append(uid)
        problem = stacking_problem(game, stacks[h])
        if problem is not None:
            return IllegalOrderError("GG-XII.A.2", f"place {uid}: its printed position {h} is taken ({problem.reason})")
    return None


def set_up_the_pool(game: Game) -> None:
    """The end of the Allied face-down set-up: the pool's units to their printed positions, then every
    counter gets its anonymous id and the Axis sees the stacks."""
    waiting = [u for u in hd.pool_units(game, ALLIED) if family_unit(game, u).hex is None and not family_defs(game)[u].is_dummy]
    for uid in waiting:
        hd.keep_unseen(game, uid)
        family_unit(game, uid).hex = game.scenario.start[uid]
    if waiting:
        hd.log_secret(
            game,
            ALLIED,
            "Allied: the units not placed set up in their printed positions: "
            + ", ".join(f"{u} {family_unit(game, u).hex}" for u in waiting)
            + ".",
        )
    hd.assign_anonymous_ids(game, hd.face_down_on_map(game, ALLIED))
    hd.end_unseen_phase(game)
    game.log("Allied has set up, face down.")


# placement_answers' dicts, under all an answer reads (its arguments); filled in as the listing asks
_SETUP_ANSWERS: Cache[dict[tuple[bool, bool], bool]] = Cache("gazala.setup-answers", FIXED, size=20_000)


def placement_kind(d: FamilyUnitDef) -> tuple[bool, bool]:
    """What :func:`placement_problem` reads of the unit placed, beyond its zone and whether it is placed already
    (which the listing decides first): whether it is a dummy (GG-V.B.1) and division-level (GG-XII.A.2; its side
    is the listing's).  Units alike in these get the same answer in a hex, so a set-up listing asks once per hex
    and kind, not once per hex and unit."""
    return (d.is_dummy, d.is_division)


def placement_answers(
    game: Game, side: Side, h: Hex, occupants: dict[Hex, list[str]], placed: AbstractSet[str]
) -> dict[tuple[bool, bool], bool]:
    """Whether a unit of ``side`` of each :func:`placement_kind`, not placed yet and with ``h`` in its zone, may be set
    up in ``h`` (``placement_problem`` finds nothing), as far as asked: kept under what the answer reads of the
    position (the set-up's kind, the units in the hex and which of them are placed), so the listing after a
    placement asks again only about the hexes it changed.  (The answers are about units not placed, in their own
    zone and moving to another hex: the rest is decided before, by the caller.)"""
    here = tuple(occupants.get(h, ()))
    return _SETUP_ANSWERS.get(game, (side, hd.nonhistorical(game), h, here, tuple(u in placed for u in here)), dict)


@dataclass(frozen=True)
class _KeptSetUp:
    """A set-up listing as made for one position: the zones, every unit's hex and status bits, the units placed,
    and each unit's block of placements then."""

    zones: tuple[tuple[str, str], ...]
    hexes: tuple[int, ...]
    flags: tuple[int, ...]
    placed: frozenset[str]
    blocks: dict[str, tuple[Place, ...]]
    listed: dict[str, frozenset[Hex]]  # the hexes of each block


def _zone_in_order(game: Game, name: str) -> tuple[tuple[Hex, ...], frozenset[Hex]]:
    """A set-up zone's hexes in reading order, and as a set (kept: the zones never change)."""

    def work() -> tuple[tuple[Hex, ...], frozenset[Hex]]:
        zone = game.scenario.zone(name)
        return tuple(sorted(zone)), frozenset(zone)

    return _ZONES.get(game, name, work)


_ZONES: Cache[tuple[tuple[Hex, ...], frozenset[Hex]]] = Cache("gazala.setup-zones", FIXED)


_KEPT_SETUP: Carried[_KeptSetUp] = Carried("gazala.setup-kept")  # checked against the rows and zones it was made for


class SetupStep(GazalaStep):
    """A side places its units in its set-up zones, then ends the phase."""

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [a for block in self.action_blocks(game, decision) for a in block]

    def action_blocks(self, game: Game, decision: Decision) -> list[Sequence[Action]]:
        """Each unit's placements (the same tuple while they are the same: their ids and notation are kept with
        it), then the end of the phase.

        Kept from one position to the next (``_KeptSetUp``): a unit's placements change only where a hex changed
        (a unit came or went, or one of its units was placed or taken back), so after a placement only those hexes
        are asked about again for each unit, and a unit whose answers there are the same keeps its block.
        """
        side = decision.side
        zones, occupants = setup_zones(game, side), game.occupants()
        units = game.state.units
        placed = frozenset(gazala_vars(game).placed)
        key = (side, hd.nonhistorical(game))
        kept = _KEPT_SETUP.last(game, key)
        zone_items = tuple(zones.items())
        fresh = kept is None or kept.zones != zone_items
        touched: set[Hex] = set()
        if kept is not None and not fresh:
            hexes = game.scenario.map.hexes
            changed = {
                i for i, (a, b, f, g) in enumerate(zip(kept.hexes, units.hex, kept.flags, units.flags, strict=True)) if a != b or f != g
            }
            changed |= {game.row_of(u) or 0 for u in kept.placed ^ placed}
            touched = {hexes[j] for i in changed for j in (kept.hexes[i], units.hex[i]) if j >= 0}
        by_hex: dict[Hex, dict[tuple[bool, bool], bool]] = {}
        defs = family_defs(game)

        def fits(uid: str, h: Hex) -> bool:
            answers = by_hex.get(h)
            if answers is None:
                answers = by_hex[h] = placement_answers(game, side, h, occupants, placed)
            kind = placement_kind(defs[uid])
            found = answers.get(kind)
            if found is None:
                found = answers[kind] = placement_problem(game, uid, h, zones, occupants) is None
            return found

        made: dict[str, tuple[Place, ...]] = {}
        made_listed: dict[str, frozenset[Hex]] = {}
        out: list[Sequence[Action]] = []
        for uid, zone_name in zone_items:
            if uid in placed:
                continue  # placed already: refused in every hex (placement_problem), so none is asked
            here = family_unit(game, uid).hex
            block = listed = None
            if kept is not None and not fresh and game.row_of(uid) not in changed:  # (so its hex is the same)
                block, listed = kept.blocks.get(uid), kept.listed.get(uid)  # (a unit placed, then taken back, changed)
            if block is not None and listed is not None:
                order, zone = _zone_in_order(game, zone_name)
                now = {h: fits(uid, h) for h in touched if h in zone and h != here}
                if any(yes != (h in listed) for h, yes in now.items()):  # the same but where a touched hex changed
                    listed = frozenset({h for h in listed if now.get(h, True)} | {h for h, yes in now.items() if yes})
                    kept_places = {p.hex: p for p in block}
                    block = tuple(kept_places.get(h) or Place(uid, h) for h in order if h in listed)
            if block is None or listed is None:
                block = tuple(Place(uid, h) for h in _zone_in_order(game, zone_name)[0] if h != here and fits(uid, h))
                listed = frozenset(p.hex for p in block)
            made[uid], made_listed[uid] = block, listed
            if block:
                out.append(block)
        _KEPT_SETUP.keep(game, key, _KeptSetUp(zone_items, tuple(units.hex), tuple(units.flags), placed, made, made_listed))
        if side is ALLIED and hd.dummy_problem(game) is not None:
            return out  # GG-V.B.1: the dummies first
        out.append((EndPhase(),))
        return out

    @on(Place)
    def place(self, game: Game, decision: Decision, order: Place) -> None:
        side = decision.side
        if order.unit not in family_defs(game) or family_defs(game)[order.unit].side is not side:
            raise IllegalOrderError(decision.clause, f"{order.unit!r} is not one of your units")
        problem = placement_problem(game, order.unit, order.hex)
        if problem is not None:
            raise problem
        u = family_unit(game, order.unit)
        if u.hidden:
            hd.keep_unseen(game, order.unit)  # the enemy sees the set-up when it is over
        u.hex = order.hex
        gazala_vars(game).placed = (*gazala_vars(game).placed, order.unit)
        text = f"{side.display} sets up {order.unit} in {order.hex}."
        if u.hidden:
            hd.log_secret(game, side, text)
        else:
            game.log(text)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        if decision.side is ALLIED:
            problem = hd.dummy_problem(game) or pool_problem(game)
            if problem is not None:
                raise problem
        return True

    def finish(self, game: Game) -> None:
        super().finish(game)
        if self.side is ALLIED:
            set_up_the_pool(game)
        gazala_vars(game).placed = ()
        if self.side is AXIS:
            game.log("Axis set-up complete.")


class SiegeStep(GazalaStep):
    """GG-XIV.B.6: before an Axis player-turn that might include an attack on Tobruk, the Allied player may
    turn the garrison face down and redeploy it with the two dummies inside the perimeter."""

    def enter(self, game: Game) -> None:
        hd.note_siege_lost(game)

    def ask(self, game: Game, side: Side) -> Decision | None:
        if not (hd.siege_available(game) and hd.siege_threatened(game)):
            return None
        return Decision(
            ALLIED,
            self.key,
            "turn the Tobruk garrison face down and redeploy it with the 2 dummies inside the perimeter, or end the phase",
            self.clause,
        )

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        out: list[Action] = []
        zone = sorted(hd.siege_zone(game))
        for uid in hd.siege_units(game):
            if uid in gazala_vars(game).placed:
                continue  # each counter is redeployed once (undo to change it)
            for h in zone:
                if h != family_unit(game, uid).hex and stacking_problem(game, [*[u for u in game.units_at(h) if u != uid], uid]) is None:
                    out.append(Place(uid, h))
        out.append(EndPhase())
        return out

    @on(Place)
    def place(self, game: Game, decision: Decision, order: Place) -> None:
        if order not in self.actions(game, decision):
            raise IllegalOrderError(
                self.clause,
                f"{order.unit} cannot be redeployed to {order.hex}: only the fortress's units and the dummies, inside the perimeter",
            )
        hd.redeploy(game, order.unit, order.hex)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True

    def finish(self, game: Game) -> None:
        super().finish(game)
        hd.end_siege(game)
        gazala_vars(game).placed = ()
