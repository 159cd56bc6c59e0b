"""The Allied rail movement in a running game (CA-S.2, after the reinforcements of CA-Q.2 step 1).

The rule is :mod:`.strategic`'s (:func:`~.strategic.rail_moves` on the line from the map's east end to the turn's
railhead, :func:`~.strategic.rail_line`); this module says which orders the step lists and what one does.

* Any number of undisrupted Allied units on the line move along it (the family's ``move UNIT HEX``, the listing
  giving the way along the rails), each once in the step; the line is cut by enemy units and by enemy zones no
  friendly unit occupies, and a refusal names the clause.
* A unit moved by rail arrives undisrupted and then moves and attacks as if it had started there (docs/rulings.md):
  it is not marked as moved.  The 8th Army artillery is disrupted by it as by any movement (CA-U.3).
* In a scenario played on a section of the map, the line ends at the section's edge (CA-F.11).
* Before the track has a railhead there is no line, and the step passes; so it does when no unit may go.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.actions import Action
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.flow import Decision, on
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move
from tobruk.systems.campaign import hidden, live
from tobruk.systems.campaign.sea import note_control
from tobruk.systems.campaign.start_of_turn import forces_of
from tobruk.systems.campaign.state import campaign_vars, counter, counter_defs
from tobruk.systems.campaign.steps import CampaignStep, turn_title
from tobruk.systems.campaign.strategic import RailMoves, rail_line, rail_move, rail_moves

if TYPE_CHECKING:
    from tobruk.engine.game import Game

ALLIED = Side.ALLIED


def line(game: Game) -> tuple[int, ...]:
    """The working line this turn (empty before the track's first railhead), cut at the scenario's section."""
    head = forces_of(game).track.railhead(turn_title(game))
    if not head:
        return ()
    whole = rail_line(game.scenario.map, head)
    area = live.position(game).area
    return whole if area is None else tuple(i for i in whole if i in area)


def _moves(game: Game, uid: str, on_line: tuple[int, ...]) -> RailMoves | None:
    c = counter(game, uid)
    if c.disrupted or c.hex_index not in on_line or counter_defs(game)[uid].type == hidden.DUMMY:
        return None
    return rail_moves(live.position(game), uid, on_line)


def _way(on_line: tuple[int, ...], start: int, end: int) -> tuple[int, ...]:
    a, b = on_line.index(start), on_line.index(end)
    return on_line[a : b + 1] if a <= b else on_line[b : a + 1][::-1]


def rail_orders(game: Game) -> list[Move]:
    """Every rail move the Allies may make now: each undisrupted unit on the line not yet moved by rail, to each hex of
    the line it may reach, along the rails."""
    on_line = line(game)
    if not on_line:
        return []
    v = campaign_vars(game)
    hexes = game.scenario.map.hexes
    out: list[Move] = []
    for uid in live.on_map(game, ALLIED):
        if uid in v.railed:
            continue
        moves = _moves(game, uid, on_line)
        if moves is None:
            continue
        start = counter(game, uid).hex_index
        for i in sorted(moves.destinations, key=on_line.index):
            out.append(Move(uid, tuple(hexes[k] for k in _way(on_line, start, i)[1:])))
    return out


def move(game: Game, order: Move) -> None:
    """Check and carry out a rail move (CA-S.2)."""
    uid = order.unit
    d = counter_defs(game).get(uid)
    if d is None or d.side is not ALLIED:
        raise IllegalOrderError("CA-S.2", f"{uid!r} is not one of your units")
    c = counter(game, uid)
    if c.eliminated or c.hex is None:
        raise IllegalOrderError("CA-S.2", f"{uid} is not on the map")
    v = campaign_vars(game)
    if uid in v.railed:
        raise IllegalOrderError("CA-S.2", f"{uid} has moved by rail in this step")
    on_line = line(game)
    if not on_line:
        raise IllegalOrderError("CA-S.2", f"the turn track has no railhead on {turn_title(game)}")
    m = game.scenario.map
    to = m.index.get(order.path[-1])
    if to is None:
        raise IllegalOrderError("CA-F.11", f"{order.path[-1]} is not on the map")
    if c.hex_index in on_line and to in on_line and len(order.path) > 1:
        way = tuple(m.hexes[k] for k in _way(on_line, c.hex_index, to)[1:])
        if order.path != way:
            raise IllegalOrderError("CA-S.2", f"a rail move runs along the railway ({'-'.join(h.label for h in way)})")
    after = rail_move(live.position(game), uid, to, on_line).unit(uid)
    note_control(game, ALLIED, (m.hexes[k] for k in _way(on_line, c.hex_index, to)))  # (CA-S.3)
    start = c.hex
    c.hex = m.hexes[to]
    c.disrupted = after.disrupted
    v.railed = (*v.railed, uid)
    text = f"Allied: {{}} moves by rail {start}-{c.hex} (CA-S.2)."
    hidden.log_about(game, uid, text.format(uid), text.format("a face-down unit"), kind="move")


class RailStep(CampaignStep):
    """The Allied rail movement (CA-S.2, CA-Q.2 step 1): any number of rail moves, then end-phase.  The step asks only
    when a unit may go."""

    prompt = "move units by rail (a unit, then a hex of the line), then end the phase"

    def enter(self, game: Game) -> None:
        super().enter(game)
        campaign_vars(game).railed = ()

    def decision(self, game: Game) -> Decision | None:
        if not rail_orders(game):
            return None
        return super().decision(game)

    def actions(self, game: Game, decision: Decision) -> list[Action]:
        return [*rail_orders(game), EndPhase()]

    @on(Move)
    def rail(self, game: Game, decision: Decision, order: Move) -> None:
        move(game, order)

    @on(EndPhase)
    def end(self, game: Game, decision: Decision, order: EndPhase) -> bool:
        return True

    def finish(self, game: Game) -> None:
        campaign_vars(game).railed = ()
