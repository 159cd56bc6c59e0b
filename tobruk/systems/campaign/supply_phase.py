"""The supply status determination of a player-turn (CA-P.3 at CA-Q.1 step 8 and CA-Q.2 step 7).

One trace of the phasing side's lines (:mod:`.live`, :mod:`.supply`) for all its units at once: an already
disrupted unit out of supply is eliminated, an undisrupted one disrupted; each is logged with the clause and the
line it lacks.  The ``out_of_supply`` status shows the result on the map until the side's next determination.
A combined panzer division's parts go with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tobruk.engine.sides import Side
from tobruk.systems.campaign import hidden, live
from tobruk.systems.campaign.state import campaign_vars, counter
from tobruk.systems.campaign.supply import SupplyOutcome, determine

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def determination(game: Game, side: Side) -> dict[str, SupplyOutcome]:
    """CA-P.3 for ``side``'s units on the map; what it did to each."""
    ids = live.on_map(game, side)
    lines = live.lines(game, side)
    found = determine(lines, {u: counter(game, u).hex_index for u in ids}, {u for u in ids if counter(game, u).disrupted})
    v = campaign_vars(game)
    out: dict[str, SupplyOutcome] = {}
    for uid, (outcome, status) in found.items():
        c = counter(game, uid)
        c.out_of_supply = not status.supplied
        out[uid] = outcome
        if outcome is SupplyOutcome.ELIMINATED:
            for part in (uid, *v.combined.get(uid, ())):
                p = counter(game, part)
                p.hex = None
                p.eliminated = True
                p.disrupted = p.newly_disrupted = p.out_of_supply = False
            game.log(f"{uid} is out of supply and already disrupted: eliminated (CA-P.3; [{status.clause}] {status.reason}).", kind="loss")
        elif outcome is SupplyOutcome.DISRUPTED:
            hidden.reveal(game, [uid], "disrupted")
            if c.hex is None:  # the dummy, gone
                c.out_of_supply = False
                continue
            c.disrupted = True
            game.log(f"{uid} is out of supply: disrupted (CA-P.3; [{status.clause}] {status.reason}).", kind="supply")
    if not any(o is not SupplyOutcome.NONE for o in out.values()):
        game.log(f"{side.display} supply determination: every unit is in supply.", kind="supply")
    return out
