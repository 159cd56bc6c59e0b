"""Recovery from disruption and the Newly Disrupted marker (CA-G.17, CA-Q.1-3, CA-P.2).

The rules recover units on three schedules, each at its own step of the sequence:

* the Allied units at the start of the Axis movement and combat phase (CA-Q.1 step 4), the Italian units at the start
  of the Allied one (CA-Q.2 step 4): every disrupted unit of theirs in supply, not being attacked (no attack is
  allocated against it) and without a Newly Disrupted marker (:func:`recover_unattacked`);
* the German units at the end of the Axis player-turn (CA-Q.1 step 9): every disrupted German unit in supply without
  the marker; then the markers come off every Axis unit, which stays disrupted (:func:`german_recovery`);
* an attacked unit the combat result does not disrupt again recovers after the attack (step 5.Z): the second part
  of the rules, combat, calls :func:`recover_after_attack` with the defenders that kept their status.

A Newly Disrupted marker goes on the defending units disrupted in the attacks before movement (CA-Q.1-2 step 2e),
on attackers disrupted by an AD result (CA-G.9) and on units arriving by bugout (CA-S.4), all through
:func:`mark_newly_disrupted`; the combat resolution step of a player-turn takes it off the enemy's units (step 5:
"Newly Disrupted units remain Disrupted but have that status marker removed", :func:`remove_markers`).  A unit out of
supply recovers at none of these points (CA-P.2); its supply is traced when the recovery comes (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tobruk.engine.sides import Side
from tobruk.systems.campaign import hidden, live
from tobruk.systems.campaign.state import counter, counter_defs

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def _recover(game: Game, uids: Iterable[str], why: str) -> list[str]:
    """Recover those of ``uids`` that are disrupted, unmarked and in supply; log each and each one kept disrupted
    for want of supply."""
    done = []
    for uid in uids:
        c = counter(game, uid)
        if not c.disrupted or c.newly_disrupted:
            continue
        if not live.supplied(game, uid):
            game.log(f"{uid} is out of supply and stays disrupted (CA-P.2).", kind="supply")
            continue
        c.disrupted = False
        done.append(uid)
    if done:
        game.log(f"Recovered from disruption ({why}): {', '.join(done)}.", kind="event")
    return done


def recover_unattacked(game: Game, phasing: Side) -> list[str]:
    """Step 4 of ``phasing``'s player-turn: the Allied units (in the Axis player-turn) or the Italian units (in the
    Allied one) not being attacked recover, if in supply and without a Newly Disrupted marker (CA-G.17)."""
    defs = counter_defs(game)
    if phasing is Side.AXIS:
        pool = [u for u in live.on_map(game, Side.ALLIED)]
        why = "Allied units not being attacked, CA-G.17"
    else:
        pool = [u for u in live.on_map(game, Side.AXIS) if defs[u].nationality == "italian"]
        why = "Italian units not being attacked, CA-G.17"
    return _recover(game, (u for u in pool if not counter(game, u).targeted), why)


def german_recovery(game: Game) -> list[str]:
    """Step 9 of the Axis player-turn: the German units in supply without a Newly Disrupted marker recover; then the
    markers come off every Axis unit, which stays disrupted (CA-G.17, CA-Q.1)."""
    defs = counter_defs(game)
    done = _recover(game, (u for u in live.on_map(game, Side.AXIS) if defs[u].nationality == "german"), "German units, CA-G.17")
    remove_markers(game, Side.AXIS)
    return done


def recover_after_attack(game: Game, defenders: Iterable[str]) -> list[str]:
    """Step 5.Z: attacked defenders that the combat result did not disrupt again recover from an earlier disruption
    (those whose marker still stands, or that are out of supply, do not)."""
    return _recover(game, defenders, "attacked but not disrupted again, CA-G.17")


def mark_newly_disrupted(game: Game, uids: Iterable[str]) -> None:
    """Disrupt the units and put a Newly Disrupted marker on each (CA-Q.3)."""
    marked = []
    for uid in uids:
        hidden.reveal(game, [uid], "disrupted")
        c = counter(game, uid)
        if c.hex is None:
            continue  # the dummy, gone
        c.disrupted = True
        c.newly_disrupted = True
        marked.append(uid)
    if marked:
        game.log(f"Newly Disrupted: {', '.join(marked)}.", kind="event")


def remove_markers(game: Game, side: Side) -> list[str]:
    """Take the Newly Disrupted markers off ``side``'s units, which stay disrupted (CA-Q.1-3)."""
    removed = []
    for uid in game.units_of(side):
        c = counter(game, uid)
        if c.newly_disrupted:
            c.newly_disrupted = False
            removed.append(uid)
    if removed:
        game.log(f"Newly Disrupted markers removed (the units stay disrupted): {', '.join(removed)}.", kind="event")
    return removed
