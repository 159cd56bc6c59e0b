"""The campaign's reach search against an oracle written here with networkx, on small random boards.

The oracle reads the rules as the text gives them, off the map's own features and the counters (not the search's
tables or zone code): which enemy hexes exert a zone (CA-Z.1, CA-F.3) and how far (CA-F.7-8); a graph of the hexes
a unit may enter (CA-M.1, CA-F.8, CA-F.11) whose edges leave a zone only from the start (CA-Z.1) and not into
another of the same hex or between two fortified ones (CA-Z.2, unless onto a friend); weights for the coastal road
outside zones (CA-M.4), escarpments (CA-F.7) and mountains (CA-F.10).  A hex is legal when networkx's cheapest way
there fits the MF, with the bonus unless the move denies it (CA-M.3, CA-M.5).  The search must offer the same hexes
at the same costs, never an enemy hex nor a road-rate step in a zone, and :func:`walk` must accept its ways.  On
the real campaign map, no unit ever reaches the Qattara floor, the sand sea or the salt marsh.
"""

from __future__ import annotations

import random
from functools import cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.systems.campaign.campaign_data import forces
from tests.systems.campaign.maps import campaign
from tobruk.board.hexes import Direction, Hex, Hexside
from tobruk.board.maps import Feature, Map, RouteLine, SideFeature, build_map
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.counters import CombatClass, Echelon, UnitType
from tobruk.systems.campaign.movement import reach, walk
from tobruk.systems.campaign.position import CampaignPosition, CampaignUnit, position_from_scenario

POOL = {
    Side.ALLIED: ("GdsBde", "1PolBde", "7ArmBde", "22ArmBde", "NZDiv", "4IndDiv", "1FFBde", "7ArmSpt"),
    Side.AXIS: ("90Lt", "164Div", "RecceGp", "15MotBde", "Ramcke", "5PzRgt", "XXICorps", "Ariete", "15Pz"),
}
CLOSED = {"sea", "depression", "sand-sea", "salt-marsh"}
VEHICLES = {UnitType.ARMOUR, UnitType.MOTORIZED, UnitType.RECCE}


def random_board(rng: random.Random) -> Map:
    rows, cols = rng.randint(2, 5), rng.randint(2, 6)
    hexes = [Hex.from_offset(r, c) for r in range(rows) for c in range(cols)]
    kinds = ["clear"] * 12 + ["sea", "depression", "mountain", "mountain", "sand-sea", "hill"]
    terrain = {h: rng.choice(kinds) for h in hexes}
    land = [h for h in hexes if terrain[h] not in CLOSED] or [hexes[0]]
    terrain[land[0]] = terrain[land[0]] if terrain[land[0]] not in CLOSED else "clear"
    routes = []
    for k in range(rng.randint(0, 2)):
        chain = [rng.choice(land)]
        for _ in range(rng.randint(1, 7)):
            nexts = [x for x in chain[-1].neighbours() if terrain.get(x, "sea") != "sea" and x not in chain]
            if not nexts:
                break
            chain.append(rng.choice(nexts))
        if len(chain) >= 2:
            routes.append(RouteLine("road", f"road {k}", tuple(chain)))
    sides: dict[Hexside, list[SideFeature]] = {}
    for h in hexes:
        for d in Direction:
            n = h.neighbour(d)
            if n not in terrain or not (h.q, h.r) < (n.q, n.r) or rng.random() > 0.3:
                continue
            kind = Feature.ESCARPMENT if rng.random() < 0.6 else Feature.IMPASSABLE_ESCARPMENT
            feats = [SideFeature(kind, high=rng.choice((h, n)))]
            if kind == Feature.ESCARPMENT and rng.random() < 0.2:
                feats.append(SideFeature(Feature.PASS))
            sides[Hexside.between(h, n)] = feats
    zones = {"coastal-road": [h for r in routes for h in r.hexes]} if routes and rng.random() < 0.7 else {}
    return build_map("random", terrain, hexsides=sides, routes=routes, zones=zones)


def random_position(rng: random.Random) -> tuple[CampaignPosition, str, bool, bool]:
    m = random_board(rng)
    open_hexes = [i for i, h in enumerate(m.hexes) if m.terrain[h] not in CLOSED]
    if not open_hexes:
        m = build_map("one", {Hex.from_offset(0, 0): "clear", Hex.from_offset(0, 1): "clear"})
        open_hexes = [0, 1]
    held: dict[int, Side] = {}
    units: list[CampaignUnit] = []
    for side in Side:
        for uid in rng.sample(POOL[side], rng.randint(1 if side is Side.ALLIED else 0, 4)):
            spots = [i for i in open_hexes if held.get(i, side) is side]
            if not spots:
                continue
            i = rng.choice(spots)
            held[i] = side
            parts = tuple(forces().units[p] for p in forces().divisions[uid].parts) if uid == "15Pz" else ()
            counter = forces().combined(uid) if parts else forces().units[uid]
            units.append(CampaignUnit(counter, i, rng.random() < 0.2, attacked=rng.random() < 0.2, parts=parts))
    forts = {i: rng.choice(list(Side)) for i in rng.sample(open_hexes, min(len(open_hexes), rng.randint(0, 2)))}
    p = CampaignPosition(m, tuple(units), forts)
    movers = [u for u in units if not u.disrupted] or [units[0]]
    mover = rng.choice(movers)
    if mover.disrupted:
        p = p.with_unit(CampaignUnit(mover.unit, mover.hex, parts=mover.parts))
    return p, mover.id, rng.random() < 0.3, rng.random() < 0.3


def zone_sources(p: CampaignPosition, side: Side) -> tuple[dict[Hex, set[Hex]], set[Hex], set[Hex]]:
    """The oracle's zones against ``side``: hex -> the enemy hexes exerting a zone on it; the sources with an
    undisrupted division or corps; the sources of fortified infantry-type units."""
    m = p.board
    stacks: dict[Hex, list[CampaignUnit]] = {}
    for u in p.units:
        if u.side is not side:
            stacks.setdefault(m.hexes[u.hex], []).append(u)
    zones: dict[Hex, set[Hex]] = {}
    divisions: set[Hex] = set()
    fortified: set[Hex] = set()
    for h, stack in stacks.items():
        big = [u for u in stack if u.unit.echelon in (Echelon.DIVISION, Echelon.CORPS)]
        fresh_small = [u for u in stack if u.unit.echelon is Echelon.SUBDIVISIONAL and not u.disrupted]
        recce = any(u.unit.type is UnitType.RECCE for u in fresh_small)
        lone_armour = any(u.unit.combat_class is CombatClass.PURE_ARMOUR and not u.attacked for u in fresh_small)
        if not (big or recce or lone_armour or len(fresh_small) >= 2):
            continue
        if any(not u.disrupted for u in big):
            divisions.add(h)
        if p.forts.get(m.index[h]) is side.enemy and any(u.unit.combat_class is CombatClass.INFANTRY_TYPE for u in stack):
            fortified.add(h)
        for n in h.neighbours():
            if n not in m or m.terrain[n] in CLOSED:
                continue
            if any(
                f.kind in (Feature.ESCARPMENT, Feature.IMPASSABLE_ESCARPMENT) and f.high == n for f in m.features(Hexside.between(h, n))
            ):
                continue  # not up from the foot
            zones.setdefault(n, set()).add(h)
    for i, owner in p.forts.items():
        h = m.hexes[i]
        if owner is side.enemy and h not in stacks and not any(u.hex == i for u in p.units):
            zones.setdefault(h, set()).add(h)
    return zones, divisions, fortified


def oracle(p: CampaignPosition, uid: str, will_attack: bool, breakthrough: bool) -> tuple[dict[Hex, int], dict[Hex, set[Hex]]]:
    m = p.board
    me = p.unit(uid)
    side, start = me.side, m.hexes[me.hex]
    zones, divisions, fortified = zone_sources(p, side)
    enemy = {m.hexes[u.hex] for u in p.units if u.side is not side}
    friends = {m.hexes[u.hex] for u in p.units if u.side is side and u.id != uid}
    own_forts = {m.hexes[i] for i, s in p.forts.items() if s is side}
    coastal = m.zones.get("coastal-road", frozenset())
    vehicle = me.unit.type in VEHICLES
    slow = me.unit.echelon is Echelon.CORPS and me.unit.type in (UnitType.ARMOUR, UnitType.MOTORIZED)

    def denies(h: Hex) -> bool:
        return bool(zones.get(h, set()) & divisions) and h not in friends and h not in own_forts

    g = nx.DiGraph()
    for a in m.hexes:
        if m.terrain[a] in CLOSED or a in enemy or (a in zones and a != start):
            continue
        for b in a.neighbours():
            if b not in m or m.terrain[b] in CLOSED or b in enemy:
                continue
            feats = {f.kind for f in m.features(Hexside.between(a, b))}
            road = m.route(a, b) == "road"
            if Feature.IMPASSABLE_ESCARPMENT in feats and not road:
                continue
            if a in zones and b in zones and b not in friends:
                za, zb = zones[a], zones[b]
                if za & zb or (za & fortified and zb & fortified):
                    continue
            if road and a in coastal and b in coastal and a not in zones and b not in zones:
                w = 20
            elif Feature.ESCARPMENT in feats and Feature.PASS not in feats and not road:
                w = 180 if vehicle else 120
            elif m.terrain[b] == "mountain" and slow and not road:
                w = 120
            else:
                w = 60
            g.add_edge(a, b, w=w)
    budget = (me.unit.movement - (2 if breakthrough else 0)) * 60
    vacating = start in zones and bool(zones[start] & divisions) and start not in friends and start not in own_forts
    bonus = 0 if will_attack or vacating else (180 if breakthrough else 240)
    if start not in g:
        return {}, zones
    lengths = nx.single_source_dijkstra_path_length(g, start, weight="w")
    legal = {h: c for h, c in lengths.items() if h != start and c <= (budget if denies(h) else budget + bonus)}
    return legal, zones


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
@pytest.mark.rule("CA-M.1")
@pytest.mark.rule("CA-M.3")
@pytest.mark.rule("CA-M.4")
@pytest.mark.rule("CA-Z.1")
@pytest.mark.rule("CA-Z.2")
def test_the_search_offers_what_the_oracle_finds(seed: int) -> None:
    p, uid, will_attack, breakthrough = random_position(random.Random(seed))
    m = p.board
    expected, zones = oracle(p, uid, will_attack, breakthrough)
    r = reach(p, uid, will_attack=will_attack, breakthrough=breakthrough)
    got = {m.hexes[i]: r.cost(i) for i in r.destinations()}
    assert got == expected
    enemy = {u.hex for u in p.units if u.side is not p.unit(uid).side}
    for i in r.destinations():
        way = r.path(i)
        assert not enemy & set(way), "a way passes or enters an enemy hex (CA-M.1)"
        costs = [0]
        for k in range(1, len(way)):
            costs.append(walk(p, uid, way[: k + 1], will_attack=will_attack, breakthrough=breakthrough))
        assert costs[-1] == r.cost(i)
        for k in range(1, len(way)):
            if costs[k] - costs[k - 1] == 20:  # the road rate (CA-M.4)
                assert m.hexes[way[k - 1]] not in zones and m.hexes[way[k]] not in zones


@cache
def near_closed_ground() -> tuple[int, ...]:
    """The open hexes of the campaign map within 3 hexes of the Qattara floor, the sand sea or the salt marsh."""
    m = campaign()
    closed = CLOSED - {"sea"}
    return tuple(i for i, h in enumerate(m.hexes) if m.terrain[h] not in CLOSED and any(m.terrain.get(n) in closed for n in h.within(3)))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["90Lt", "RecceGp", "164Div", "Ariete", "7ArmBde", "GdsBde", "NZDiv"]))
@pytest.mark.rule("CA-F.8")
def test_no_unit_reaches_impassable_ground_on_the_campaign_map(seed: int, uid: str) -> None:
    m = campaign()
    rng = random.Random(seed)
    i = rng.choice(near_closed_ground())  # a start within 3 hexes of the Qattara floor, the sand sea or the salt marsh
    p = CampaignPosition(m, (CampaignUnit(forces().units[uid], i),))
    r = reach(p, uid, breakthrough=rng.random() < 0.3)
    assert all(m.terrain[m.hexes[j]] not in CLOSED for j in r.destinations())  # (a few hexes, AE63, are walled in)
    for j in r.destinations():
        assert all(m.terrain[m.hexes[k]] not in CLOSED for k in r.path(j))


@pytest.mark.rule("CA-M.1")
@pytest.mark.rule("CA-F.8")
@pytest.mark.parametrize("name", ["na-crusader", "na-gazala", "na-alamein"])
def test_at_a_scenario_start_no_unit_may_enter_an_enemy_hex_or_impassable_ground(name: str) -> None:
    p = position_from_scenario(load_scenario(name))
    m = p.board
    for u in p.units:
        if u.disrupted:
            continue
        r = reach(p, u.id)
        enemy = p.held[u.side.enemy]
        for i in r.destinations():
            way = r.path(i)
            assert not enemy & set(way)
            assert all(m.terrain[m.hexes[k]] not in CLOSED for k in way)
        for i in r.destinations()[:: max(1, len(r.destinations()) // 5)]:
            assert walk(p, u.id, r.path(i)) == r.cost(i)
