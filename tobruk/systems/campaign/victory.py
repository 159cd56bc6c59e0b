"""Victory determination (CA-Q.1 step 7, CA-Q.2 step 8) against the scenario's condition (CA-SC.1-9).

The scenario gives its condition as data (:class:`~.scenario.VictoryTest`): a side occupies a zone (in supply if
required), takes it, holds it against the enemy, traces a supply line into it, bypasses it or evacuates through it.
Both victory determinations of a game-turn judge it: a condition judged ``at = "any-time"`` is met at any of them,
one judged at the end at the game's last (the German victory determination closing the last game-turn).  A zone is
taken by a side when one of its units stands in it at a victory determination (noted, for the rest of the game).

A side *bypasses* a zone when one of its units stands beyond every hex of it toward the side's goal (Mersa Matruh,
CA-SC.6: an Axis unit east of it), and *evacuates* through a zone when none of its units is left on the map and at
least one has left it by bugout (El Agheila III, CA-SC.3: the eliminated are no longer there to evacuate), as
docs/rulings.md decides.  What cannot be judged is said, never guessed: the campaign game's unstated condition;
its determination reports "cannot be judged" and the game has no winner.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.sides import Side
from tobruk.systems.campaign import hidden, live
from tobruk.systems.campaign.scenario import VictoryTest
from tobruk.systems.campaign.state import campaign_vars, counter

if TYPE_CHECKING:
    from tobruk.engine.game import Game

MET, NOT_MET = "met", "not met"
UNJUDGED = {
    "unstated": "the rules give this game no victory condition (CA-R.1)",
}


def beyond(h: Hex, zone: Collection[Hex], toward: str) -> bool:
    """Whether hex ``h`` lies past every hex of ``zone`` in the direction ``toward`` (the map's columns run west to
    east, its rows north to south)."""
    if toward == "east":
        return h.col > max(z.col for z in zone)
    if toward == "west":
        return h.col < min(z.col for z in zone)
    if toward == "north":
        return h.row < min(z.row for z in zone)
    return h.row > max(z.row for z in zone)


def _zones(test: VictoryTest, side: Side) -> list[tuple[Side, str]]:
    """The zones the condition's take and hold tests ask about, with the side whose taking them counts (the side
    the condition is for takes, its enemy takes what it must hold)."""
    own = []
    if test.zone is not None and test.test in ("take", "hold"):
        own.append((side if test.test == "take" else side.enemy, test.zone))
    return own + [z for p in test.parts for z in _zones(p, side)]


def note_taken(game: Game) -> None:
    """A side takes the zones of the condition's take/hold tests its units stand in now."""
    vic = live.setup_of(game).victory
    if vic.side is None:
        return
    tests = [vic.test] + ([vic.strategic] if vic.strategic else [])
    wanted = sorted({z for t in tests for z in _zones(t, vic.side)})
    v = campaign_vars(game)
    for side in Side:
        zones = [z for s, z in wanted if s is side]
        if not zones:
            continue
        held = {counter(game, u).hex for u in live.on_map(game, side)}
        have = set(v.taken.get(side.value, ()))
        new = [z for z in zones if z not in have and held & game.scenario.zone(z)]
        if new:
            v.taken = v.taken | {side.value: tuple(sorted(have | set(new)))}
            game.log(f"{side.display} takes {', '.join(new)}.", kind="event")


def judge(game: Game, test: VictoryTest, side: Side, final: bool) -> tuple[bool | None, str]:
    """Whether ``side`` meets ``test`` now (``final``: this is the game's last victory determination), or None with
    why it cannot be judged."""
    if test.test in ("any", "all"):
        found = [judge(game, p, side, final) for p in test.parts]
        values = [f[0] for f in found]
        if test.test == "any":
            if True in values:
                return True, next(w for v, w in found if v)
        elif False in values:
            return False, next(w for v, w in found if v is False)
        unknown = [w for v, w in found if v is None]
        if unknown:
            return None, unknown[0]
        return test.test == "all", "; ".join(w for _, w in found)
    if test.test in UNJUDGED:
        return None, UNJUDGED[test.test]
    if test.at == "end" and not final:
        return False, f"{test.test} {test.zone}: judged at the end"
    assert test.zone is not None
    zone = game.scenario.zone(test.zone)
    units = [u for u in live.on_map(game, side) if counter(game, u).hex in zone]
    if test.test == "occupy":
        if test.supplied:
            units = [u for u in units if live.supplied(game, u)]
        named = ", ".join(hidden.name(game, u) for u in units)
        return bool(units), f"occupy {test.zone}{' in supply' if test.supplied else ''}: {named or 'no unit'}"
    if test.test == "supply-line":
        units = [u for u in units if live.supplied(game, u)]
        named = ", ".join(hidden.name(game, u) for u in units)
        return bool(units), f"a supply line into {test.zone}: {named or 'none'}"
    if test.test == "bypass":
        assert test.toward is not None
        past = [u for u in live.on_map(game, side) if (h := counter(game, u).hex) is not None and beyond(h, zone, test.toward)]
        named = ", ".join(hidden.name(game, u) for u in past)
        return bool(past), f"bypass {test.zone} to the {test.toward}: {named or 'no unit'}"
    if test.test == "evacuate":
        left = [u for u in campaign_vars(game).evacuated if game.defs[u].side is side]
        staying = live.on_map(game, side)
        why = f"evacuate through {test.zone}: {len(left)} left by bugout, {len(staying)} still on the map"
        return bool(left) and not staying, why
    taken = campaign_vars(game).taken
    if test.test == "take":
        return test.zone in taken.get(side.value, ()), f"take {test.zone}"
    if test.test == "hold":
        return test.zone not in taken.get(side.enemy.value, ()), f"hold {test.zone} against the {side.enemy.display}"
    return None, f"the test {test.test!r} is not judged yet"


def determination(game: Game, final: bool) -> None:
    """A victory determination: note the zones taken, judge the condition (and the strategic one), log the finding."""
    setup = live.setup_of(game)
    vic = setup.victory
    note_taken(game)
    if vic.side is None:
        found: tuple[bool | None, str] = (None, UNJUDGED["unstated"])
    else:
        found = judge(game, vic.test, vic.side, final)
    word = MET if found[0] else NOT_MET if found[0] is False else "cannot be judged"
    result = {"condition": word, "why": found[1]}
    if vic.strategic is not None and vic.side is not None:
        s = judge(game, vic.strategic, vic.side, final)
        result["strategic"] = MET if s[0] else NOT_MET if s[0] is False else "cannot be judged"
    v = campaign_vars(game)
    if v.victory.get("condition") == MET:
        return  # met before the end, so by a test judged at any time: it stays met
    v.victory = result
    game.log(f"Victory ({vic.clause}): {vic.text} {word.capitalize()} ({found[1]}).", kind="event")
