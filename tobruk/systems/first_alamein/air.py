"""Air power in 1st Alamein (FA-AIR.1-2, with The Gazala Gallop's GG-X.A-B where the charts are silent).

Each air unit is off the map and flies once a game-turn (GG-X.A): a ground attack in its side's airstrike
step, or the interception of an enemy mission.  A mission waits on the decision stack (:class:`AirMission`)
for the enemy's answer when he has an air unit able to go up.  The interceptor rolls on the column of the
air unit it meets: EAX stops the mission and knocks that unit out for the next game-turn, Int stops it,
AA knocks the interceptor out for the next game-turn and the mission goes on (FA-AIR.2).  A ground attack
rolls for each unspent unit in the hex, top to bottom, the ones able to shoot back first (GG-X.B.1): S
spends it (no retreat, GG-X.B.1a), AA (and AAg against a German ground unit) knocks the air unit out for the
next game-turn and ends the mission.  The FA sequence has no interdiction and no aerial supply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics import air as mechanics_air
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.systems.first_alamein import position as pos
from tobruk.systems.first_alamein.charts import chart
from tobruk.systems.first_alamein.state import alamein_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def air_units(game: Game, side: Side) -> list[str]:
    return [u for u in game.units_of(side) if family_defs(game)[u].is_air and not family_unit(game, u).eliminated]


def record(game: Game, uid: str) -> tuple[int, int]:
    """(the game-turn the air unit last flew, the last game-turn it is knocked out)."""
    flown_and_out: tuple[int, int] = alamein_vars(game).air.get(uid, (0, 0))
    return flown_and_out


def why_grounded(game: Game, uid: str) -> IllegalOrderError | None:
    """Why an air unit cannot fly now, or ``None``."""
    used, out_until = record(game, uid)
    if out_until >= game.turn:
        return IllegalOrderError("FA-AIR.2", f"{uid} is knocked out for game-turn {out_until}")
    if used == game.turn:
        return IllegalOrderError("GG-X.A", f"{uid} has flown already this game-turn")
    return None


def ready(game: Game, side: Side) -> list[str]:
    """The side's air units able to fly now."""
    return [u for u in air_units(game, side) if why_grounded(game, u) is None]


def why_no_strike(game: Game, side: Side) -> IllegalOrderError | None:
    units = air_units(game, side)
    if not units:
        return IllegalOrderError("FA-AIR.1", f"the {side.display} side has no air unit")
    if not ready(game, side):
        problem = why_grounded(game, units[0])
        assert problem is not None
        return problem
    return None


def flown(game: Game, uid: str) -> None:
    alamein_vars(game).air = {**alamein_vars(game).air, uid: (game.turn, record(game, uid)[1])}


def knock_out(game: Game, uid: str) -> None:
    """EAX or AA (FA-AIR.2): the air unit cannot be used in the next game-turn."""
    alamein_vars(game).air = {**alamein_vars(game).air, uid: (record(game, uid)[0], game.turn + 1)}
    game.log(f"{uid} is knocked out for game-turn {game.turn + 1}.", kind="event")


def strike_targets(game: Game, side: Side) -> list[Hex]:
    """Hexes holding an unspent enemy ground unit (only unspent units are attacked, FA-AIR.1)."""
    return sorted({h for uid, h in pos.on_map(game, side.enemy) if not family_unit(game, uid).disrupted})


@dataclass(frozen=True)
class AirMission(mechanics_air.AirMission):
    """A mission in the air over ``hex``, waiting for the enemy's answer: intercept it or not (FA-AIR.1)."""

    clause = "FA-AIR.1"
    knocked_out_for = "for the next game-turn (FA-AIR.2)"

    def interceptor(self, game: Game, side: Side) -> str | None:
        return ready(game, side)[0]

    def interception(self, game: Game, interceptor: str) -> InterceptRoll:
        return InterceptRoll(self.side, self.air, self.hex, "strike", interceptor, self.air)

    def goes_on(self, game: Game) -> str:
        return f"{self.air} attacks your unspent units in {self.hex} one by one (FA-AIR.1)"

    def resolve(self, game: Game, interceptor: str | None) -> None:
        finish(game, self, interceptor)


def strike(game: Game, side: Side, target: Hex) -> None:
    """Send the side's first ready air unit against ``target``; the enemy may then intercept it."""
    problem = why_no_strike(game, side)
    if problem is not None:
        raise problem
    if target not in strike_targets(game, side):
        raise IllegalOrderError("FA-AIR.1", f"{target} holds no unspent enemy ground unit to attack")
    uid = ready(game, side)[0]
    flown(game, uid)
    game.log(f"{side.display}: {uid} attacks {target}.")
    mission = AirMission(side.value, uid, target.label)
    if ready(game, side.enemy):
        game.push_frame(mission)
    else:
        finish(game, mission, None)


def air_column(game: Game, air: str) -> str:
    """The column an interceptor rolls on: that of the air unit it meets."""
    return "german-air" if family_defs(game)[air].nationality == "german" else "british-air"


def finish(game: Game, mission: AirMission, interceptor: str | None) -> None:
    """Resolve a mission after the enemy's answer: the interception's die first, if there is one."""
    assert mission.hex is not None  # 1st Alamein's missions are all airstrikes on a hex
    if interceptor is not None:
        flown(game, interceptor)
        game.push_frame(InterceptRoll(mission.side, mission.air, mission.hex, "strike", interceptor, mission.air))
        return
    ground_attack(game, Side(mission.side), mission.air, Hex.parse(mission.hex))


@dataclass(frozen=True)
class InterceptRoll(mechanics_air.InterceptionRoll):
    """FA-AIR.1-2: the interceptor rolls on the column of the air unit it meets: EAX knocks that one out, Int turns it
    back, AA knocks the interceptor out (and the strike goes on)."""

    def result(self, game: Game, value: int) -> str:
        return chart(game).air.result(value, air_column(game, self.air))

    def resolve(self, game: Game, value: int) -> None:
        result = self.result(game, value)
        game.log(f"{self.interceptor} intercepts {self.air}: die {value}: {result}.")
        if result == "EAX":
            knock_out(game, self.air)
            return
        if result == "Int":
            return
        if result == "AA":
            knock_out(game, self.interceptor)
        assert self.hex is not None
        ground_attack(game, Side(self.side), self.air, Hex.parse(self.hex))


def german_ground(game: Game, uid: str) -> bool:
    d = family_defs(game)[uid]
    return d.nationality == "german" and not d.is_air


def unit_column(game: Game, uid: str) -> str:
    """FA-AIR.1: a British (Allied) unit inside one of its boxes, or any unit outside a box."""
    d, h = family_defs(game)[uid], family_unit(game, uid).hex
    return "british-in-box" if d.side is Side.ALLIED and h in pos.boxes(game, Side.ALLIED) else "outside-box"


def read(game: Game, uid: str, code: str) -> str:
    """A result as it falls on this unit: AAg is AA against a German ground unit and nothing otherwise (FA-AIR.2)."""
    if code == "AAg":
        return "AA" if german_ground(game, uid) else "-"
    return code


def shoots_back(game: Game, uid: str) -> bool:
    """Whether some die gives AA against this unit (the AA-capable units of GG-X.B.1, as the chart reads)."""
    column = unit_column(game, uid)
    return any(read(game, uid, chart(game).air.result(die, column)) == "AA" for die in range(1, 7))


def attack_order(game: Game, target: Hex, side: Side) -> list[str]:
    """The unspent enemy units in the hex, top to bottom, those able to shoot back first (GG-X.B.1)."""
    units = [u for u in pos.ground_units(game, target, side.enemy) if not family_unit(game, u).disrupted]
    return sorted(units, key=lambda u: (not shoots_back(game, u), units.index(u)))


def strike_words(game: Game, side: Side, target: Hex) -> str:
    """An air strike on ``target`` in words for ``side``, asked of the position as it knows it (the step's
    :meth:`~tobruk.engine.flow.Node.says`): the air unit that flies, the units there that fire back (those some die
    gives AA against, GG-X.B.1), what an AA result costs (FA-AIR.2) and the chances of the die on each unit there."""
    uid = ready(game, side)[0]
    shooters = [u for u in attack_order(game, target, side) if shoots_back(game, u)]
    words = [f"Air strike with {uid} on {target}: it attacks the unspent enemy units there one by one (FA-AIR.1)"]
    fire = f"{', '.join(shooters)} fire{'s' if len(shooters) == 1 else ''} back first (GG-X.B.1)"
    words.append(fire if shooters else "none there can fire back")
    words.append(f"an AA result knocks {uid} out for the next game-turn (FA-AIR.2)")
    units = attack_order(game, target, side)
    if units:
        means = {"AA": f"{uid} knocked out (AA, the strike ends)", "S": "spent (S)"}
        attack = GroundAttack(side.value, uid, target.label, tuple(units))
        words.append(mechanics_air.strike_chances(lambda u: attack.chances(game, u), units, means, "no effect"))
    interceptors = ready(game, side.enemy)
    if interceptors:
        words.append(f"{interceptors[0]} may intercept it first (FA-AIR.1)")
    return "; ".join(words)


def ground_attack(game: Game, side: Side, air: str, target: Hex) -> None:
    """FA-AIR.1: the air unit attacks the hex's unspent units top to bottom, a die each."""
    GroundAttack.begin(game, side.value, air, target.label, tuple(attack_order(game, target, side)))


@dataclass(frozen=True)
class GroundAttack(mechanics_air.AirAttacks):
    """FA-AIR.1-2: S spends the unit (no retreat after an air attack, GG-X.B.1a); AA knocks the air unit out and
    ends the attack."""

    def result(self, game: Game, uid: str, die: int) -> str:
        return read(game, uid, chart(game).air.result(die, unit_column(game, uid)))

    def hit(self, game: Game, uid: str, die: int) -> bool:
        code = self.result(game, uid, die)
        game.log(f"{self.air} on {uid}: die {die}: {code}.")
        if code == "S":
            family_unit(game, uid).disrupted = True
        elif code == "AA":
            knock_out(game, self.air)
            return True
        return False
