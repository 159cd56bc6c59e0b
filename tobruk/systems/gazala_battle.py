"""The course of a battle in The Gazala Gallop's attack phase, as decisions of the right player.

declare -> (cancel) -> resolve -> the defender's No Retreat! answer -> the die -> the results ->
the winner's retreat distance -> the loser's retreat routes (and voluntary retreats) -> done.
Also the end of the attack phase: compulsory attacks (GG-XIV.A.2), the disrupted units' AR
(GG-IX.B) and the stacking check (GG-XII.B).  The state of a battle in progress lives in
``game.state.data["combat"]`` as plain data, so it is saved, hashed and undone with the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tobruk.errors import IllegalOrderError
from tobruk.hexes import Hex
from tobruk.maps import Feature
from tobruk.orders import Attack, EndRetreat, NoRetreat, Order, Retreat, RetreatDistance, format_order, parse_order
from tobruk.sides import Side
from tobruk.systems import gazala_combat as cb
from tobruk.systems import gazala_hidden as hd
from tobruk.systems import gazala_moves as mv
from tobruk.systems.gazala_control import pass_through

if TYPE_CHECKING:
    from tobruk.game import Game


def pending(game: Game) -> list[dict[str, Any]]:
    return [a for a in game.state.data.get("attacks", []) if not a["resolved"]]


def find(game: Game, n: int) -> dict[str, Any]:
    for a in game.state.data.get("attacks", []):
        if a["id"] == n and not a["resolved"]:
            return dict(a)
    raise IllegalOrderError("GG-XIV.C.1", f"there is no declared, unresolved attack number {n}")


def declare(game: Game, order: Attack, side: Side) -> int:
    """Record a declaration the system has checked (odds against face-down units are not known yet)."""
    a = cb.assess(game, order, side)
    n = 1 + max((x["id"] for x in game.state.data.get("attacks", [])), default=0)
    game.state.data.setdefault("attacks", []).append(
        {"id": n, "order": format_order(order), "defenders": [h.label for h in order.defenders],
         "attackers": list(order.attackers), "resolved": False})
    odds = "odds unknown" if hd.hidden_in(game, order.defenders, side.enemy) else a.odds
    game.log(f"{side.display} declares attack {n}: {format_order(order)} ({odds}).")
    return n


def cancel(game: Game, n: int) -> None:
    find(game, n)
    game.state.data["attacks"] = [a for a in game.state.data["attacks"] if a["id"] != n]
    game.log(f"Attack {n} cancelled.")


def order_of(entry: dict[str, Any]) -> Attack:
    order = parse_order(entry["order"])
    assert isinstance(order, Attack)
    return order


def begin(game: Game, n: int, side: Side) -> None:
    """Start resolving attack ``n``: turn up face-down defenders, ask for No Retreat! where it matters,
    else roll at once."""
    entry = find(game, n)
    order = order_of(entry)
    if hd.hidden_in(game, order.defenders, side.enemy):
        for h in order.defenders:
            hd.reveal_hex(game, h, side.enemy, "attacked")
        remaining = tuple(h for h in order.defenders if cb.units_in(game, h, side.enemy))
        verdict = None
        if not remaining:
            verdict = "only dummies were there"
        else:
            if remaining != order.defenders:  # a hex held only dummies: the attack goes on against the rest
                order = Attack(remaining, order.attackers, order.partial)
                for x in game.state.data["attacks"]:
                    if x["id"] == n:
                        x["order"], x["defenders"] = format_order(order), [h.label for h in remaining]
            if cb.assess(game, order, side, n).column is None:
                verdict = "the odds are below 1:4 after all (GG-XIV.B.4)"
        if verdict is not None:  # ruling R-HIDDEN: the attack is called off, the attackers have attacked
            for uid in order.attackers:
                game.unit(uid).attacked = True
            for x in game.state.data["attacks"]:
                if x["id"] == n:
                    x["resolved"] = True
            game.log(f"Attack {n} is called off: {verdict}.")
            return
    a = cb.assess(game, order, side, n)
    if a.column is None:
        raise IllegalOrderError("GG-XIV.B.4", "this attack is now below 1:4: cancel it")
    game.state.data["combat"] = {"attack": n, "side": side.value, "step": "no-retreat", "groups": []}
    if not cb.needs_no_retreat_question(game, a):
        roll(game, ())


def roll(game: Game, no_retreat: tuple[str, ...]) -> None:
    """Roll the die for the battle in progress and carry out its result (GG-XIV.C)."""
    combat = game.state.data["combat"]
    side = Side(combat["side"])
    entry = find(game, combat["attack"])
    order = order_of(entry)
    a = cb.assess(game, order, side, entry["id"])
    assert a.column is not None
    die = game.dice.roll(f"combat, attack {entry['id']} at {a.odds}")
    result = cb.chart().result(die, a.column)
    effects = cb.unit_effects(game, a, result, no_retreat)
    game.log(cb.combat_log_line(game, a, die, result, effects))
    for uid in a.attackers:
        game.unit(uid).attacked = True  # GG-XIV.A.1
        if game.unit(uid).out_of_supply and not game.unit(uid).disrupted:
            game.unit(uid).disrupted = True  # GG-XV.B: attacking out of supply
            game.log(f"{uid} attacked out of supply and is disrupted.")
    attacked = game.state.data.setdefault("attacked_units", [])
    for uid in a.defenders:
        if uid not in attacked:
            attacked.append(uid)
        if game.defs[uid].side is Side.ALLIED and not game.unit(uid).activated:
            game.unit(uid).activated = True  # GG-V.A.3
            game.log(f"Allied: {uid} is attacked and activated.")
    for uid, e in effects.items():
        if e.code in ("R1", "R2", "D") and uid in a.defenders:
            game.unit(uid).disrupted = True  # GG-IX.D: disrupted again stays disrupted
        if e.code in ("DE", "AE"):
            mv.eliminate(game, uid, f"combat result {e.code}")
    for x in game.state.data["attacks"]:
        if x["id"] == entry["id"]:
            x["resolved"] = True
    groups = []  # the attackers' AR first (a DAR's defenders may then still retreat voluntarily)
    a_units = {u: {"code": "AR", "compulsory": False, "nr": False, "done": False}
               for u, e in effects.items() if u in a.attackers and e.code == "AR"}
    if a_units:
        groups.append(_group(side, a_units, a.defending_hexes))
    d_units = {u: {"code": e.code, "compulsory": e.compulsory, "nr": u in no_retreat, "done": False}
               for u, e in effects.items() if u in a.defenders and e.code in ("R1", "R2", "D")}
    if d_units:
        groups.append(_group(side.enemy, d_units, a.attack_hexes))
    combat["groups"] = groups
    combat["step"] = "retreats"
    _settle(game)


def _group(loser: Side, units: dict[str, dict[str, Any]], from_hexes: tuple[Hex, ...] | list[Hex]) -> dict[str, Any]:
    choosable = [u for u, x in units.items() if x["code"] in ("R1", "R2", "AR") and not x["compulsory"] and not x["nr"]]
    most = max((cb.DEFENDER_RETREATS.get(units[u]["code"], 1) for u in choosable), default=0)
    return {"loser": loser.value, "from": [h.label for h in from_hexes], "units": units,
            "max": most, "distance": None if choosable else 0}


def current_group(game: Game) -> dict[str, Any] | None:
    combat = game.state.data.get("combat")
    if not combat:
        return None
    for g in combat["groups"]:
        if not all(x["done"] for x in g["units"].values()):
            return dict(g)
    return None


def need(g: dict[str, Any], x: dict[str, Any]) -> int:
    """Hexes a unit must retreat: the box's compulsory distance, or the winner's, up to its result's limit."""
    if x["nr"] or x["code"] == "D":
        return 0
    limit = cb.DEFENDER_RETREATS.get(x["code"], 1)
    if x["compulsory"]:
        return limit
    return min(int(g["distance"] or 0), limit)


def extra(x: dict[str, Any]) -> int:
    """Hexes a unit may retreat beyond what it must (GG-XIV.D.1); none under No Retreat! orders."""
    if x["nr"]:
        return 0
    return cb.VOLUNTARY.get(x["code"], 0) if not x.get("ixb") else 0


def _settle(game: Game) -> None:
    """Handle what needs no decision: units that cannot retreat, units with nothing to do, finished battles."""
    combat = game.state.data.get("combat")
    if not combat:
        return
    for g in combat["groups"]:
        # every time: a retreat already made can close another unit's way (a friend leaving a ZOC hex)
        from_hexes = [Hex.parse(h) for h in g["from"]]
        for uid, x in g["units"].items():
            # R2 and AR: a unit unable to retreat the result's whole distance is eliminated, whatever distance
            # the winner names (GG-XIV.D.3 "unable to retreat 2 hexes", GG-IX.B; off the map, GG-XIV.D.4)
            full = 0 if x["nr"] else {"R2": 2, "AR": 1}.get(x["code"], 0)
            if not x["done"] and full and not cb.can_retreat(game, uid, full, from_hexes):
                x["done"] = True
                why = "off the map or into the sea" if cb.can_leave_board(game, uid) else "unable to retreat"
                mv.eliminate(game, uid, why)
        if g["distance"] is None and not all(x["done"] for x in g["units"].values()):
            return  # the winner must choose first
        for uid, x in g["units"].items():
            if x["done"]:
                continue
            n = need(g, x)
            if n > 0 and not cb.can_retreat(game, uid, n, from_hexes):
                x["done"] = True  # R1 (a compulsory one too): unable to retreat, it stays disrupted (charts)
                game.log(f"{uid} cannot retreat: it stays, disrupted.")
            elif n == 0 and extra(x) == 0:
                x["done"] = True
        if not all(x["done"] for x in g["units"].values()):
            return
    end_phase_after = combat.get("end_of_phase")
    game.state.data["combat"] = None
    if end_phase_after:
        game.state.data["phase_over"] = True


def decision(game: Game) -> tuple[Side, str] | None:
    """Who must decide what in the battle in progress, or ``None``."""
    combat = game.state.data.get("combat")
    if not combat:
        return None
    if combat["step"] == "no-retreat":
        return Side(combat["side"]).enemy, "give No Retreat! orders (or none) to the defending units"
    g = current_group(game)
    if g is None:
        return None
    loser = Side(g["loser"])
    if g["distance"] is None:
        return loser.enemy, f"set the retreat distance (0-{g['max']}) for {', '.join(g['units'])}"
    return loser, f"retreat {', '.join(u for u, x in g['units'].items() if not x['done'])}, then end-retreat"


def legal(game: Game) -> list[Order]:
    combat = game.state.data["combat"]
    if combat["step"] == "no-retreat":
        a = cb.assess(game, order_of(find(game, combat["attack"])), Side(combat["side"]), combat["attack"])
        return [NoRetreat(o) for o in cb.no_retreat_options(game, a)]
    g = current_group(game)
    assert g is not None
    if g["distance"] is None:
        return [RetreatDistance(k) for k in range(g["max"] + 1)]
    out: list[Order] = []
    from_hexes = [Hex.parse(h) for h in g["from"]]
    for uid, x in g["units"].items():
        if x["done"]:
            continue
        n = need(g, x)
        for length in range(max(n, 1), n + extra(x) + 1):
            out.extend(Retreat(uid, p) for p in cb.retreat_paths(game, uid, length, from_hexes))
    if all(x["done"] or need(g, x) == 0 for x in g["units"].values()):
        out.append(EndRetreat())
    return out


def check(game: Game, order: Order) -> None:
    if order not in legal(game):
        d = decision(game)
        clause = "GG-XIV.B.5" if isinstance(order, NoRetreat) else "GG-XIV.D.1"
        if isinstance(order, Retreat):
            clause = "GG-XIV.D.2"
        raise IllegalOrderError(clause, f"'{format_order(order)}' is not allowed now"
                                        + (f"; {d[1]}" if d else ""))


def apply(game: Game, order: Order) -> None:
    combat = game.state.data["combat"]
    if isinstance(order, NoRetreat):
        if order.units:
            game.log(f"No Retreat! orders for {', '.join(order.units)}.")
        roll(game, order.units)
        return
    g = next(x for x in combat["groups"] if not all(u["done"] for u in x["units"].values()))
    if isinstance(order, RetreatDistance):
        g["distance"] = order.hexes
        game.log(f"Retreat distance set to {order.hexes}.")
    elif isinstance(order, Retreat):
        game.unit(order.unit).hex = order.path[-1]
        pass_through(game, game.defs[order.unit].side, order.path[1:])
        g["units"][order.unit]["done"] = True
        game.log(f"{order.unit} retreats {'-'.join(h.label for h in order.path)}.")
    elif isinstance(order, EndRetreat):
        for x in g["units"].values():
            x["done"] = True
    _settle(game)


# --- the end of the attack phase ----------------------------------------------------------------------
def able_attackers(game: Game, side: Side, busy: set[str] | None = None, *,
                   include_held: bool = False) -> dict[Hex, list[str]]:
    """Units that can still attack this phase, by hex: undisrupted, active, not yet used or committed.

    Allied units in a box held at the start of the Allied player-turn create no duty to attack
    (GG-XIV.A.2), so they are left out unless ``include_held`` (they may attack if the player wishes).
    """
    held = mv.zoc_exempt(game, side) if side is Side.ALLIED and not include_held else set()
    committed = {u for a in pending(game) for u in a["attackers"]} | (busy or set())
    able: dict[Hex, list[str]] = {}
    for uid, h in mv.on_map(game, side):
        u = game.unit(uid)
        if u.disrupted or u.attacked or uid in committed or h in held:
            continue
        if side is Side.ALLIED and not u.activated:
            continue
        able.setdefault(h, []).append(uid)
    return able


def attack_group(game: Game, target: Hex, able: dict[Hex, list[str]]) -> tuple[str, ...]:
    """The strongest legal group against ``target`` from ``able`` units (one hex only in a sandstorm)."""
    m = game.scenario.map
    usable = [h for h in able if h.is_adjacent(target)
              and not ((t := m.feature(h, target, Feature.TOWERING_ESCARPMENT)) is not None and t.high == target)]
    if not usable:
        return ()
    if game.state.weather == "sandstorm":  # GG-VIII.A.3
        best = max(usable, key=lambda h: sum(game.defs[u].attack for u in able[h]))
        return tuple(able[best])
    return tuple(u for h in usable for u in able[h])


def obligations(game: Game, side: Side, busy: set[str] | None = None) -> list[Hex]:
    """GG-XIV.A.2: enemy hexes that must still be attacked before the attack phase may end.

    A hex is due while it holds an undisrupted enemy unit nobody has attacked this phase (nor is about to:
    declared attacks count), and the units still able to attack could attack it at 1:4 or better (rulings:
    a duty nobody can meet any more lapses; only units able to attack create it).
    """
    able = able_attackers(game, side, busy)
    attacked = set(game.state.data.get("attacked_units", []))
    targeted = {Hex.parse(h) for a in pending(game) for h in a["defenders"]}
    due = []
    occupants = game.occupants(side.enemy)
    for target in sorted({n for h in able for n in h.neighbours()} - targeted):
        if not any(_threatens(game, u, attacked) for u in occupants.get(target, ())):
            continue
        group = attack_group(game, target, able)
        if not group:
            continue
        if hd.hidden_in(game, [target], side.enemy):
            due.append(target)  # face down: its strength is unknown, so it must be attacked
            continue
        try:
            if cb.assess(game, Attack((target,), group), side).column is not None:
                due.append(target)
        except IllegalOrderError:
            continue
    return due


def strands_a_duty(game: Game, order: Attack, side: Side) -> Hex | None:
    """GG-XIV.A.2: a due hex this declaration would leave with nobody able to attack it, though the same
    attack could have taken it in too (ruling R-DUTY); ``None`` if there is none."""
    before = set(obligations(game, side)) - set(order.defenders)
    after = set(obligations(game, side, set(order.attackers)))
    for lost in sorted(before - after):
        wider = Attack((*order.defenders, lost), order.attackers, order.partial)
        try:
            if hd.hidden_in(game, wider.defenders, side.enemy) or cb.assess(game, wider, side).column is not None:
                return lost  # (face-down defenders: any odds may be declared, ruling R-HIDDEN)
        except IllegalOrderError:
            continue
    return None


def _threatens(game: Game, uid: str, attacked: set[str]) -> bool:
    """An undisrupted enemy unit nobody attacked this phase (GG-XIV.A.2, IX.B), as the other side sees it:
    a face-down counter always counts (dummy or not, disrupted or not: it cannot be told), ruling R-HIDDEN."""
    u = game.unit(uid)
    if u.hidden:
        return True
    return not game.defs[uid].is_dummy and not u.disrupted and uid not in attacked


def disrupted_adjacent(game: Game, side: Side) -> dict[str, list[Hex]]:
    """GG-IX.B: the side's disrupted units next to undisrupted enemy units nobody attacked this phase."""
    attacked = set(game.state.data.get("attacked_units", []))
    out: dict[str, list[Hex]] = {}
    for uid, h in mv.on_map(game, side):
        if not game.unit(uid).disrupted:
            continue
        threats = [n for n in h.neighbours() if any(_threatens(game, e, attacked) for e in game.units_at(n, side.enemy))]
        if threats:
            out[uid] = threats
    return out


def end_of_attacks(game: Game, side: Side) -> bool:
    """Start the end-of-phase AR for disrupted units (GG-IX.B); ``True`` if one was started."""
    threatened = disrupted_adjacent(game, side)
    if not threatened:
        return False
    for uid in threatened:
        hd.reveal(game, uid, "it must retreat (GG-IX.B)")  # a face-down unit that retreats turns up
    units = {u: {"code": "AR", "compulsory": False, "nr": False, "done": False, "ixb": True} for u in threatened}
    from_hexes = sorted({h for hs in threatened.values() for h in hs})
    game.log(f"{', '.join(threatened)}: disrupted next to unattacked enemy units, AR (GG-IX.B).")
    game.state.data["combat"] = {"attack": None, "side": side.enemy.value, "step": "retreats",
                                 "groups": [_group(side, units, from_hexes)], "end_of_phase": True}
    _settle(game)
    return True
