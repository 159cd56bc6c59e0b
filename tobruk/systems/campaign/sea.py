"""Sea movement in a running game (CA-S.3), made in the player-turn's first step, and who controls the ports.

The rules of a sea move are :mod:`.strategic`'s (:func:`~.strategic.check_sea_move`, :func:`~.strategic.sea_ports`,
:func:`~.strategic.sea_outcomes`); this module keeps what they need in the game and says what an order does.

* Control of the ports and of Tobruk (whose holder controls the sea): the rules name it without saying how it is
  gained, so the game keeps a record (docs/rulings.md, CA-S.3): at the start each such place belongs to the side with
  a unit in it, else to the side whose nearest unit is strictly nearer, else to nobody; afterwards to the last side
  to have had a unit in it or through it (:func:`note_control`, called by every move), and a place a side's units
  stand in is that side's whatever the record says.  Every counter counts, face-down or not: the enemy sees that a
  counter stands there, so the control it reads tells it nothing hidden.
* One unit per side in each of its player-turns (``sailed``), in step 1 (:class:`FirstStep`, the reinforcements'
  step with the sea move added).  The order ``sea UNIT PORT`` is listed for each undisrupted unit on a coastal hex
  and each port it may go to; a refusal names the clause (CA-S.3, CA-G.15, CA-K.1, CA-F.4 for the dummy, CA-F.11).
* The sinking die is a chance node (:class:`SeaRoll`): the outcomes of :func:`~.strategic.sea_outcomes`, a 1 in 6
  when the side controls the sea, 3 in 6 when not.  Sunk, the unit is eliminated (it may come back as a
  replacement); else it arrives disrupted, with no Newly Disrupted marker, and a face-down counter is then revealed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action
from tobruk.engine.chance import Chance, Outcome
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.systems.campaign import hidden, live
from tobruk.systems.campaign.actions import Sea
from tobruk.systems.campaign.start_of_turn import Reinforcements, note_alamein
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs
from tobruk.systems.campaign.steps import CampaignStep
from tobruk.systems.campaign.strategic import PORTS, SUNK, TOBRUK, check_sea_move, coastal, controls_sea, sea_outcomes, sea_ports

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def places(game: Game) -> frozenset[Hex]:
    """The hexes whose control the game records: the ports and Tobruk's own hex."""
    zones = game.scenario.map.zones
    return frozenset(zones.get(PORTS, frozenset())) | frozenset(zones.get(TOBRUK, frozenset()))


def start(game: Game) -> None:
    """The record of control at the start: the side with a unit in the place, else the side whose nearest unit is
    strictly nearer, else nobody (docs/rulings.md, CA-S.3)."""
    record: dict[str, str] = {}
    here = {side: [h for uid in live.on_map(game, side) if (h := counter(game, uid).hex) is not None] for side in Side}
    for place in sorted(places(game), key=lambda h: h.label):
        near = {side: min((place.distance(h) for h in hexes), default=None) for side, hexes in here.items()}
        a, b = near[Side.AXIS], near[Side.ALLIED]
        if a is not None and (b is None or a < b):
            record[place.label] = Side.AXIS.value
        elif b is not None and (a is None or b < a):
            record[place.label] = Side.ALLIED.value
    campaign_vars(game).ports = record


def note_control(game: Game, side: Side, hexes: Iterable[Hex]) -> None:
    """A unit of ``side`` in or through ``hexes`` takes control of the ports and of Tobruk among them (CA-S.3)."""
    v = campaign_vars(game)
    watched = places(game)
    for h in hexes:
        if h in watched and v.ports.get(h.label) != side.value:
            v.ports = v.ports | {h.label: side.value}
            names = ", ".join(p.name for p in game.scenario.map.places_in(h)) or str(h)
            game.log(f"{side.display} takes control of {names} ({h}; CA-S.3).", kind="event")


def control(game: Game) -> dict[int, Side]:
    """Who controls each recorded place now (hex index -> side): the record, and the side whose units stand there."""
    index = game.scenario.map.index
    out = {index[Hex.parse(label)]: Side(s) for label, s in campaign_vars(game).ports.items()}
    p = live.position(game)
    for place in places(game):
        i = index[place]
        for side in Side:
            if i in p.held[side]:
                out[i] = side
    return out


def tobruk_holder(game: Game) -> Side | None:
    """The side controlling Tobruk, which controls the sea (CA-S.3)."""
    m = game.scenario.map
    centre = next(iter(m.zones.get(TOBRUK, frozenset())), None)
    return None if centre is None else control(game).get(m.index[centre])


def friendly_sea(game: Game, side: Side) -> bool:
    """Whether ``side`` controls the sea (CA-S.3)."""
    return controls_sea(side, tobruk_holder(game))


def ports(game: Game, side: Side) -> frozenset[int]:
    """The ports ``side`` may move a unit to by sea: its own by control, no enemy in them, inside the scenario's
    section of the map (CA-F.11)."""
    p = live.position(game)
    found = sea_ports(p, side, control(game))
    return found if p.area is None else found & p.area


def _own(game: Game, side: Side, uid: str) -> None:
    problem = hidden.not_movable(game, side, uid, "CA-S.3")
    if problem is not None:
        raise problem


def sea_orders(game: Game, side: Side) -> list[Sea]:
    """Every sea move ``side`` may make now: none once its unit of the player-turn has gone (CA-S.3)."""
    if side.value in campaign_vars(game).sailed:
        return []
    to = sorted(ports(game, side))
    if not to:
        return []
    p = live.position(game)
    defs = counter_defs(game)
    hexes = game.scenario.map.hexes
    held = control(game)
    out: list[Sea] = []
    for uid in live.on_map(game, side):
        c = counter(game, uid)
        if c.disrupted or defs[uid].type == hidden.DUMMY or not coastal(p.board, c.hex_index):
            continue
        for i in to:
            if i == c.hex_index:
                continue
            try:
                check_sea_move(p, uid, i, held, used=False)
            except IllegalOrderError:
                continue
            out.append(Sea(uid, hexes[i]))
    return out


def sail(game: Game, side: Side, order: Sea) -> None:
    """Check a sea move and roll the sinking die (a chance node, :class:`SeaRoll`)."""
    _own(game, side, order.unit)
    v = campaign_vars(game)
    m = game.scenario.map
    to = m.index.get(order.hex)
    p = live.position(game)
    if to is None or (p.area is not None and to not in p.area):
        raise IllegalOrderError("CA-F.11", f"{order.hex} is not on the map")
    check_sea_move(p, order.unit, to, control(game), used=side.value in v.sailed)
    v.sailed = (*v.sailed, side.value)
    c = counter(game, order.unit)
    c.moved = True  # (a disrupted arrival moves no more in the player-turn anyway, CA-G.15)
    note_control(game, side, (c.hex or order.hex,))  # where it stood (a unit that entered there had not noted it)
    game.push_frame(SeaRoll(order.unit, c.hex or order.hex, order.hex, side, friendly_sea(game, side)))


def eliminate(game: Game, uid: str) -> None:
    """The unit is eliminated (with the regiment a combined panzer division carries, CA-U.1)."""
    for part in (uid, *campaign_vars(game).combined.get(uid, ())):
        p = counter(game, part)
        p.hex = None
        p.eliminated = True
        p.disrupted = p.newly_disrupted = p.out_of_supply = p.moved = p.attacking = p.targeted = False


@dataclass(frozen=True)
class SeaRoll(Chance):
    """CA-S.3's sinking die for ``unit`` sailing from ``start`` to ``port``; ``friendly``: its side controls the sea
    (1 in 6 sinks it), else 3 in 6."""

    unit: str
    start: Hex
    port: Hex
    side: Side
    friendly: bool

    def purpose(self, game: Game) -> str:
        sea = "friendly" if self.friendly else "enemy"
        return f"sea move of {hidden.name(game, self.unit)} to {self.port}, the sea {sea}: sinking die (CA-S.3)"

    def outcomes(self, game: Game) -> tuple[Outcome, ...]:
        return sea_outcomes(self.friendly)

    def resolve(self, game: Game, value: int) -> None:
        label = next(o.label for o in self.outcomes(game) if o.value == value)
        uid = self.unit
        text = f"{self.side.display}: {{}} moves by sea {self.start}-{self.port}, rolled {value}: "
        if label == SUNK:
            what = text + "sunk and eliminated (CA-S.3)."
            hidden.log_about(game, uid, what.format(uid), what.format("a face-down unit"), kind="loss")
            eliminate(game, uid)
            return
        what = text + "arrives disrupted (CA-S.1, CA-S.3)."
        hidden.log_about(game, uid, what.format(uid), what.format("a face-down unit"), kind="move")
        c = counter(game, uid)
        c.hex = self.port
        c.disrupted = True
        hidden.reveal(game, [uid], "disrupted")
        note_control(game, self.side, (self.port,))
        if self.side is Side.AXIS:
            note_alamein(game)  # CA-R.3: whatever brings a unit near El Alamein


class FirstStep(Reinforcements):
    """CA-Q.1-2 step 1 with the sea move (CA-S.3): the reinforcements' step, which also lists the player-turn's one
    sea move and asks when one may be made."""

    prompt = (
        "bring in one reinforcement or replacement (a unit, then its entry hex), move one unit by sea (a unit, then a "
        "port), build or remove a fortification, or end the phase"
    )

    def enter(self, game: Game) -> None:
        assert self.side is not None
        v = campaign_vars(game)
        v.sailed = tuple(s for s in v.sailed if s != self.side.value)
        super().enter(game)

    def decision(self, game: Game) -> Decision | None:
        assert self.side is not None
        if sea_orders(game, self.side):
            return CampaignStep.decision(self, game)
        return super().decision(game)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        listed = [a for a in super().actions(game, decision) if not isinstance(a, EndPhase)]
        return [*listed, *sea_orders(game, decision.side), EndPhase()]

    @on(Sea)
    def sea(self, game: Game, decision: Decision, order: Sea) -> None:
        sail(game, decision.side, order)
