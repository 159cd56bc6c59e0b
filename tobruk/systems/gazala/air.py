"""Air power in The Gazala Gallop (GG-X, with the weather of GG-VIII.A.1 and B.1).

Each side has one air unit, off the map, usable once per game-turn: a ground attack in its own
airstrike phase (which then stays over the hex to interdict enemy movement in the enemy's
player-turn), the Luftwaffe's aerial resupply in the Axis supply determination, or an
interception of an enemy mission.  A mission waiting for the enemy's interception answer is an
:class:`AirMission` frame on the decision stack; when each air unit last flew and how long it is knocked
out are in ``vars.air``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tobruk.board.hexes import Hex
from tobruk.engine.chance import Chance, Outcome, die, labelled
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.sides import Side
from tobruk.mechanics import air as mechanics_air
from tobruk.mechanics.counters import AACapability, UnitType, family_defs, family_unit
from tobruk.systems.gazala import combat as cb
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala.state import Interdiction, gazala_vars

if TYPE_CHECKING:
    from tobruk.engine.game import Game


def air_unit(game: Game, side: Side) -> str | None:
    for uid in game.units_of(side):
        if family_defs(game)[uid].is_air and not family_unit(game, uid).eliminated:
            return uid
    return None


def record(game: Game, uid: str) -> tuple[int, int]:
    """(the turn the air unit last flew, the last turn it is knocked out)."""
    flown_and_out: tuple[int, int] = gazala_vars(game).air.get(uid, (0, 0))
    return flown_and_out


def flown(game: Game, uid: str) -> None:
    gazala_vars(game).air = gazala_vars(game).air | {uid: (game.turn, record(game, uid)[1])}


def why_unavailable(game: Game, side: Side) -> IllegalOrderError | None:
    """Why the side's air unit cannot fly now (the refusal, with its clause), or ``None`` when it can (only looks: a
    refused order changes nothing)."""
    uid = air_unit(game, side)
    if uid is None:
        return IllegalOrderError("GG-X.A", "no air unit")
    used, out_until = record(game, uid)
    if gazala_vars(game).weather == "sandstorm":
        return IllegalOrderError("GG-VIII.A.1", "no air units in a sandstorm")
    if out_until >= game.turn:
        return IllegalOrderError("GG-X.C", f"{uid} is knocked out until the end of turn {out_until}")
    if used == game.turn:
        return IllegalOrderError("GG-X.A", f"{uid} has flown already this game-turn")
    if gazala_vars(game).weather == "rainstorm" and not gazala_vars(game).air_ok.get(side.value, False):
        return IllegalOrderError("GG-VIII.B.1", "the airfields are waterlogged this player-turn")
    return None


def available(game: Game, side: Side) -> bool:
    return why_unavailable(game, side) is None


def knock_out(game: Game, uid: str) -> None:
    v = gazala_vars(game)
    v.air = v.air | {uid: (record(game, uid)[0], game.turn + 1)}  # the rest of this game-turn and the next
    if v.interdiction is not None and v.interdiction.air == uid:
        v.interdiction = None
    game.log(f"{uid} is knocked out for the rest of this turn and the next.", kind="event")


def start_of_player_turn(game: Game) -> None:
    """GG-VIII.B.1: in a rainstorm each player rolls for his air unit each player-turn (50%: 4-6), the Axis first."""
    gazala_vars(game).air_ok = {}
    if gazala_vars(game).weather == "rainstorm":
        for side in reversed(Side):  # (the last pushed is rolled first)
            game.push_frame(AirfieldsRoll(side.value))


@dataclass(frozen=True)
class AirfieldsRoll(Chance):
    """GG-VIII.B.1: whether ``side``'s airfields can be used this player-turn in the rain (4-6)."""

    side: str

    def purpose(self, game: Game) -> str:
        return f"{Side(self.side).display} airfields in the rain (4-6)"

    def resolve(self, game: Game, value: int) -> None:
        gazala_vars(game).air_ok = gazala_vars(game).air_ok | {self.side: value >= 4}


def weather_turn(game: Game) -> None:
    """GG-VIII.A.1: a sandstorm halts the repair of knocked-out air units for the turn."""
    if gazala_vars(game).weather != "sandstorm":
        return
    gazala_vars(game).air = {
        uid: ((used, out_until + 1) if out_until >= game.turn else (used, out_until))
        for uid, (used, out_until) in gazala_vars(game).air.items()
    }


@dataclass(frozen=True)
class AirMission(mechanics_air.AirMission):
    """A mission in the air, waiting for the enemy's answer: intercept it or not (GG-X.B.3)."""

    kind: str = "strike"  # strike, airlift or intercept-interdiction
    clause = "GG-X.B.3"
    knocked_out_for = "for the rest of this game-turn and the next (GG-X.C)"

    def interceptor(self, game: Game, side: Side) -> str | None:
        return air_unit(game, side)

    def interception(self, game: Game, interceptor: str) -> InterceptRoll:
        return InterceptRoll(self.side, self.air, self.hex, self.kind, interceptor, self.air)

    def goes_on(self, game: Game) -> str:
        if self.kind == "airlift":
            return f"{self.air} flies supplies to the Axis units in {self.hex} (GG-X.B.2)"
        return f"{self.air} attacks your units in {self.hex} one by one (GG-X.B.1)"

    def resolve(self, game: Game, interceptor: str | None) -> None:
        finish(game, self, interceptor)


# --- missions --------------------------------------------------------------------------------------
def strike_targets(game: Game, side: Side) -> list[Hex]:
    return sorted({h for uid, h in mv.zoc_units(game, side.enemy)})


def airlift_targets(game: Game) -> list[Hex]:
    """GG-X.B.2: hexes holding Axis units out of supply (isolated), for the Luftwaffe's resupply."""
    from tobruk.systems.gazala import supply as sp

    status = sp.status(game, Side.AXIS)
    return sorted({Hex.parse(e["hex"]) for e in status.values() if not e["supplied"]})


def declare(game: Game, side: Side, kind: str, target: Hex | None) -> None:
    """Fly a mission; the enemy then answers with an interception or not (if he can)."""
    uid = air_unit(game, side)
    assert uid is not None
    flown(game, uid)
    mission = AirMission(side.value, uid, target.label if target else None, kind)
    what = {
        "strike": f"attacks {target}",
        "airlift": f"flies supplies to {target}",
        "intercept-interdiction": "goes up against the interdiction",
    }[kind]
    game.log(f"{side.display}: {uid} {what}.")
    if kind == "intercept-interdiction" or not available(game, side.enemy):
        finish(game, mission, intercepted_by=None)
    else:
        game.push_frame(mission)


@dataclass(frozen=True)
class InterceptRoll(mechanics_air.InterceptionRoll):
    """GG-X.B.3: the interceptor rolls on the column of the air unit it goes up against: EAX knocks that one out,
    Int turns it back, AA knocks the interceptor out (and the mission goes on)."""

    def result(self, game: Game, value: int) -> str:
        column = "german-air" if family_defs(game)[self.target].nationality == "german" else "british-air"
        return cb.chart(game).air_result(value, column)

    def resolve(self, game: Game, value: int) -> None:
        result = self.result(game, value)
        game.log(f"{self.interceptor} intercepts {self.target}: die {value}: {result}.")
        if self.kind == "intercept-interdiction":  # the mission's own air unit goes up against the interdiction
            if result == "EAX":
                knock_out(game, self.target)
            elif result == "Int":
                gazala_vars(game).interdiction = None
            elif result == "AA":
                knock_out(game, self.interceptor)
            return
        if result == "EAX":
            knock_out(game, self.air)
            return
        if result == "Int":
            return
        if result == "AA":
            knock_out(game, self.interceptor)
        carry_out(game, AirMission(self.side, self.air, self.hex, self.kind))


def finish(game: Game, mission: AirMission, intercepted_by: str | None) -> None:
    """Resolve a mission after the enemy's answer: the interception's die first, if there is one."""
    uid, kind = mission.air, mission.kind
    if kind == "intercept-interdiction":
        interdiction = gazala_vars(game).interdiction
        target = None if interdiction is None else interdiction.air
        if target is not None:
            game.push_frame(InterceptRoll(mission.side, uid, mission.hex, kind, uid, target))
        return
    if intercepted_by is not None:
        flown(game, intercepted_by)
        game.push_frame(InterceptRoll(mission.side, uid, mission.hex, kind, intercepted_by, uid))
        return
    carry_out(game, mission)


def carry_out(game: Game, mission: AirMission) -> None:
    """The mission itself, once no interception stopped it: the aerial resupply, or the ground attack."""
    side, uid, kind = Side(mission.side), mission.air, mission.kind
    assert mission.hex is not None
    target = Hex.parse(mission.hex)
    if kind == "airlift":
        helped = gazala_vars(game).supply_help
        axis = Side.AXIS.value
        gazala_vars(game).supply_help = helped | {
            axis: helped.get(axis, {}) | {u: "aerial resupply" for u in game.units_at(target, Side.AXIS)}
        }
        game.log(f"{uid} supplies the Axis units in {target}.")
        return
    ground_attack(game, side, uid, target)


def attack_order(game: Game, target: Hex, side: Side) -> list[str]:
    """GG-X.B.1: undisrupted units, top to bottom, AA units first of all, then AA-capable units."""
    units = [u for u in game.units_at(target, side.enemy) if not family_unit(game, u).disrupted and not family_defs(game)[u].is_air]

    def rank(u: str) -> int:
        d = family_defs(game)[u]
        if d.type is UnitType.AA:
            return 0
        return 1 if aa_capable(game, u) else 2

    return sorted(units, key=lambda u: (rank(u), units.index(u)))


def aa_capable(game: Game, uid: str) -> bool:
    """GG-X.B.1b: German divisions and the AA units anywhere, British divisions in boxes, Italians never."""
    d, h = family_defs(game)[uid], family_unit(game, uid).hex
    if d.aa is AACapability.ANYWHERE:
        return True
    return d.aa is AACapability.IN_BOX and h is not None and h in mv.boxes_held_now(game, d.side)


def column_for(game: Game, uid: str) -> str:
    d, h = family_defs(game)[uid], family_unit(game, uid).hex
    if d.side is Side.AXIS:
        return "axis"
    return "allied-box" if h is not None and h in cb.own_forts(game, Side.ALLIED) else "allied"


def strike_result(game: Game, uid: str, die: int, aa_here: bool | None = None) -> str:
    """The air table's result of the die ``die`` on ``uid`` (GG-X.C), the AA codes read for this unit: AAg is AA
    against a German division, the 4th AA and Flak codes against a hex holding an AA unit (``aa_here``: whether it
    does, as far as the side asking knows; unknown, "AA?"), else nothing."""
    code = cb.chart(game).air_result(die, column_for(game, uid))
    d = family_defs(game)[uid]
    if code == "AAg":
        return "AA" if d.nationality == "german" and d.is_division else "-"
    if code in ("4thAA/Flak", "4thAA", "Flak"):
        if aa_here is None:
            return "AA?"
        return "AA" if aa_here else "-"
    return code


def aa_unit_in(game: Game, where: Hex, *, seen_by: Side | None = None) -> bool | None:
    """Whether an AA unit stands in ``where`` (GG-X.C's 4th AA and Flak codes), as ``seen_by`` may know it: ``None``
    when only a face-down counter there could be one (some AA unit of the enemy's is face down somewhere)."""
    here = game.units_at(where)
    if any(family_defs(game)[u].type is UnitType.AA for u in here if seen_by is None or not family_unit(game, u).hidden):
        return True
    if seen_by is not None and any(family_unit(game, u).hidden for u in here if family_defs(game)[u].side is not seen_by):
        # one of them could be an AA unit if one of the enemy's face-down counters is one (which is which it cannot tell)
        could = any(family_defs(game)[u].type is UnitType.AA and family_unit(game, u).hidden for u in game.units_of(seen_by.enemy))
        return None if could else False
    return False


def air_result_on(game: Game, air: str, uid: str, die: int) -> str:
    """One unit's air attack with the die ``die``, carried out; returns the result after reading the AA codes."""
    here = family_unit(game, uid).hex
    code = strike_result(game, uid, die, here is not None and bool(aa_unit_in(game, here)))
    d = family_defs(game)[uid]
    game.log(f"{air} on {uid}: die {die}: {code}.")
    if d.side is Side.ALLIED and not family_unit(game, uid).activated:
        family_unit(game, uid).activated = True  # GG-V.A.3
    if code == "D":
        family_unit(game, uid).disrupted = True  # GG-X.B.1a: no retreat for it
    return code


def strike_words(game: Game, side: Side, target: Hex) -> str:
    """An air strike on ``target`` in words for ``side``, asked of the position as it knows it (the step's
    :meth:`~tobruk.engine.flow.Node.says`): the air unit that flies, the units seen there that fire back (GG-X.B.1,
    B.1b), what an AA result costs (GG-X.C) and the chances of the die on each unit seen there.  Face-down counters
    are only counted: what they are is not known, nor whether one of them is the AA unit the 4th AA and Flak codes
    need (unless no face-down counter could be one)."""
    uid = air_unit(game, side)
    enemy = air_unit(game, side.enemy)
    here = [u for u in game.units_at(target, side.enemy) if not family_defs(game)[u].is_air]
    face_down = sum(1 for u in here if family_unit(game, u).hidden)
    shooters = [u for u in attack_order(game, target, side) if not family_unit(game, u).hidden and fires_back(game, u)]
    words = [f"Air strike with {uid} on {target}: it attacks the undisrupted enemy units there one by one (GG-X.B.1)"]
    if face_down:
        counters = f"{face_down} face-down counters there are" if face_down > 1 else "1 face-down counter there is"
        words.append(f"{counters} turned up first")
    if shooters:
        words.append(f"{', '.join(shooters)} fire{'s' if len(shooters) == 1 else ''} back first (GG-X.B.1b)")
    words.append(
        f"{'any AA-capable unit there fires back; ' if face_down else 'none there can fire back; ' if not shooters else ''}"
        f"an AA result knocks {uid} out for the rest of this game-turn and the next (GG-X.C)"
    )
    seen = [u for u in attack_order(game, target, side) if not family_unit(game, u).hidden]
    if seen and uid is not None:
        aa_here = aa_unit_in(game, target, seen_by=side)
        means = {
            "AA": f"{uid} knocked out (AA, the strike ends)",
            "AA?": f"{uid} knocked out if a face-down counter there is an AA unit (AA)",
            "D": "disrupted (D)",
        }

        def chances(u: str) -> tuple[Outcome, ...]:
            faces = die(6)
            return labelled(faces, [strike_result(game, u, f.value, aa_here) for f in faces])

        words.append(mechanics_air.strike_chances(chances, seen, means, "no effect"))
    if enemy is not None and available(game, side.enemy):
        words.append(f"{enemy} may intercept it first (GG-X.B.3)")
    return "; ".join(words)


def airlift_words(game: Game, side: Side, target: Hex) -> str:
    """The Luftwaffe's aerial resupply of ``target`` in words (GG-X.B.2, B.3): the air unit that flies, the units it
    would supply (their supply marked as if traced, GG-XV.A.5), and, where the enemy may go up against it, the chance
    that the interception stops it, read from the interception's own labelled die."""
    uid = air_unit(game, side)
    here = [u for u in game.units_at(target, side) if not family_defs(game)[u].is_air]
    words = [f"Airlift supplies to {target} with {uid}: {', '.join(here)} in supply this turn if it gets through (GG-X.B.2)"]
    enemy = air_unit(game, side.enemy)
    if uid is not None and enemy is not None and available(game, side.enemy):
        roll = AirMission(side.value, uid, target.label, "airlift").interception(game, enemy)
        means = {
            "EAX": f"{uid} knocked out (EAX)",
            "Int": f"{uid} turned back (Int)",
            "AA": f"{enemy} knocked out (AA) and the airlift gets through",
        }
        told = mechanics_air.chances_in_words(roll.outcomes(game), means, "the airlift gets through")
        words.append(f"{enemy} may intercept it first (GG-X.B.3): if it does, {told}")
    return "; ".join(words)


def interdiction_words(game: Game, side: Side) -> str:
    """``side``'s interception of the enemy air unit interdicting over a hex, in words (GG-X.B.1, B.3): the air unit
    that goes up, the one it meets and the chance of each result on the air table."""
    uid, i = air_unit(game, side), gazala_vars(game).interdiction
    if uid is None or i is None:
        return "Intercept the enemy's interdiction"
    roll = InterceptRoll(side.value, uid, i.hex, "intercept-interdiction", uid, i.air)
    means = {
        "EAX": f"{i.air} knocked out (EAX)",
        "Int": "the interdiction ends (Int)",
        "AA": f"{uid} knocked out (AA) and the interdiction goes on",
    }
    told = mechanics_air.chances_in_words(roll.outcomes(game), means, "no effect, the interdiction goes on")
    return (
        f"Intercept with {uid} against {i.air} interdicting over {i.hex}: {told}; a knocked-out air unit is out "
        f"{AirMission.knocked_out_for}; {uid} is then used for this game-turn (GG-X.A)"
    )


def fires_back(game: Game, uid: str) -> bool:
    """Whether the anti-aircraft fire of ``uid`` may knock an attacking air unit out (GG-X.B.1b): an AA unit, or an
    AA-capable one."""
    return family_defs(game)[uid].type is UnitType.AA or aa_capable(game, uid)


def ground_attack(game: Game, side: Side, air: str, target: Hex) -> None:
    """GG-X.B.1: the air unit attacks the hex's units top to bottom (a die each), then stays over it to interdict."""
    hd.reveal_hex(game, target, side.enemy, "attacked from the air")  # dummies go, units turn up
    GroundAttack.begin(game, side.value, air, target.label, tuple(attack_order(game, target, side)))


@dataclass(frozen=True)
class GroundAttack(mechanics_air.AirAttacks):
    """GG-X.B.1: the air unit's ground attack, a die per unit; AA knocks the air unit out, else it stays over the hex."""

    def result(self, game: Game, uid: str, die: int) -> str:
        here = family_unit(game, uid).hex
        return strike_result(game, uid, die, here is not None and bool(aa_unit_in(game, here)))

    def hit(self, game: Game, uid: str, die: int) -> bool:
        if air_result_on(game, self.air, uid, die) == "AA":
            knock_out(game, self.air)
            return True
        return False

    def done(self, game: Game) -> None:
        gazala_vars(game).interdiction = Interdiction(self.air, self.hex, self.side)
        game.log(f"{self.air} stays over {self.hex} to interdict movement.", kind="event")


def interdicts(game: Game, uid: str, entered: Hex) -> bool:
    """Whether the enemy air unit over ``entered`` attacks ``uid`` as it enters the hex in its player-turn (GG-X.B.1):
    an undisrupted unit of the side the air unit is interdicting."""
    i = gazala_vars(game).interdiction
    return i is not None and i.hex == entered.label and family_defs(game)[uid].side.value != i.side and not family_unit(game, uid).disrupted


def interdiction_result(game: Game, uid: str, die: int) -> bool:
    """The interdicting air unit's attack on ``uid`` with the die ``die``: ``True`` if it must stop (disrupted)."""
    i = gazala_vars(game).interdiction
    assert i is not None
    code = air_result_on(game, i.air, uid, die)
    if code == "AA":
        knock_out(game, i.air)
        return False
    return code == "D"


def end_of_enemy_player_turn(game: Game, side: Side) -> None:
    """Interdiction lasts through the enemy's player-turn: ``side`` has just finished its player-turn."""
    i = gazala_vars(game).interdiction
    if i is not None and i.side != side.value:
        gazala_vars(game).interdiction = None
