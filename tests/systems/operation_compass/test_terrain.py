"""The terrain effects chart on small boards: what each step costs to move (MP) and to trace supply (the bracketed
supply points), on both sides of every cost (OC-TER.1); what the target hex, a fort's side, Sidi Barrani, a ridge
and a wadi do to an assault (OC-TER.2); the escarpment, which nothing crosses but a road and no assault crosses at
all.

The boards are one row, A1 to A8, so every step is the next hex east; costs are worked out from the chart in the
comments.  Rulings: R-OC-ROAD (along a road or minor road its own cost, whatever the hex and the hexside), R-OC-PASS
(a pass is a road across the escarpment), R-OC-TER (fort and terrain DRMs add up)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.operation_compass.kit import H, allied, game_at, italian, lines, refused
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Move
from tobruk.systems.operation_compass import combat as cb
from tobruk.systems.operation_compass import moves as mv

MF = 60


def lane(extra: str, units: str = "", *, turn: int = 1, columns: int = 8) -> Game:
    """A one-row board A1-A{columns}, an Allied unit of 20 MP in A1 unless ``units`` says otherwise."""
    units = units or allied("U", "A1", movement=20)
    return game_at(units, "allied-movement", turn=turn, rows=1, columns=columns, map_extra=extra)


def mp_to(game: Game, uid: str, h: str) -> Fraction | None:
    cost = mv.reach(game, uid).cost_to(H(h))
    return None if cost is None else Fraction(cost, MF)


def supply_to(game: Game, h: str) -> Fraction | None:
    cost = mv.supply_paths(game, Side.ALLIED, None).cost_to(H(h))
    return None if cost is None else Fraction(cost, MF)


SOURCE_A1 = '[map.supply]\nallied = ["A1"]\n'


# --- OC-TER.1: each cost, moving and tracing supply ---------------------------------------------------------
@pytest.mark.rule("OC-TER.1")
@pytest.mark.parametrize(
    ("extra", "goal", "mp", "supply"),
    [
        ("", "A2", 1, 2),  # clear 1 (2)
        ("", "A5", 4, 8),  # four clear hexes
        ('[map.terrain]\nrough = ["A2"]\n', "A2", 2, 3),  # rough 2 (3)
        ('[map.terrain]\nrough = ["A2"]\n', "A3", 3, 5),  # rough then clear
        ('[map.terrain]\nhill = ["A2"]\n', "A2", 2, 4),  # hill 2 (4)
        ('[map.terrain]\nhill = ["A2", "A3"]\n', "A3", 4, 8),
        ('[map.hexsides]\nridge = [{ side = "A1|A2" }]\n', "A2", 3, 6),  # clear 1 (2) + ridge 2 (4)
        ('[map.hexsides]\nwadi = [{ side = "A1|A2" }]\n', "A2", 2, 4),  # clear 1 (2) + wadi 1 (2)
        ('[map.terrain]\nrough = ["A2"]\n[map.hexsides]\nridge = [{ side = "A1|A2" }]\n', "A2", 4, 7),  # rough + ridge
        ('[map.terrain]\nhill = ["A2"]\n[map.hexsides]\nwadi = [{ side = "A1|A2" }]\n', "A2", 3, 6),  # hill + wadi
        ('[[map.route]]\nkind = "road"\nhexes = ["A1", "A2", "A3", "A4", "A5"]\n', "A5", 2, 2),  # road 1/2 (1/2)
        ('[[map.route]]\nkind = "minor-road"\nhexes = ["A1", "A2", "A3"]\n', "A3", 2, 2),  # minor road 1 (1)
    ],
)
def test_what_each_step_costs(extra: str, goal: str, mp: int, supply: int) -> None:
    game = lane(extra + SOURCE_A1)
    assert mp_to(game, "U", goal) == mp
    assert supply_to(game, goal) == supply


@pytest.mark.rule("OC-TER.1")
@pytest.mark.parametrize(
    ("terrain", "hexside", "route"),
    [
        *(("rough", None, "road"), ("hill", None, "road"), ("rough", None, "minor-road"), ("hill", None, "minor-road")),
        *(("clear", "ridge", "road"), ("clear", "wadi", "road"), ("clear", "ridge", "minor-road"), ("clear", "wadi", "minor-road")),
    ],
)
def test_along_a_road_its_own_cost_whatever_the_hex_and_the_hexside(terrain: str, hexside: str | None, route: str) -> None:
    """Ruling R-OC-ROAD: road 1/2 (1/2) and minor road 1 (1) whatever the hex entered (rough, hill) and across a ridge or
    a wadi (a road crosses a wadi by its own bridge or ford); leaving the road the hex's cost comes back."""
    extra = f'[map.terrain]\n{terrain} = ["A2", "A3"]\n' if terrain != "clear" else ""
    extra += f'[map.hexsides]\n{hexside} = [{{ side = "A1|A2" }}]\n' if hexside else ""
    extra += f'[[map.route]]\nkind = "{route}"\nhexes = ["A1", "A2"]\n' + SOURCE_A1
    game = lane(extra)
    along = Fraction(1, 2) if route == "road" else 1
    assert mp_to(game, "U", "A2") == along and supply_to(game, "A2") == along
    off = {"rough": (2, 3), "hill": (2, 4), "clear": (1, 2)}[terrain]
    assert mp_to(game, "U", "A3") == along + off[0]  # off the road into A3: its own terrain again
    assert supply_to(game, "A3") == along + off[1]


@pytest.mark.rule("OC-TER.1")
@pytest.mark.parametrize(
    ("extra", "movement", "goal", "reaches"),
    [
        ("", 3, "A4", True),  # three clear hexes with 3 MP
        ("", 2, "A4", False),
        ('[map.terrain]\nrough = ["A2"]\n', 2, "A2", True),  # rough: 2 MP
        ('[map.terrain]\nrough = ["A2"]\n', 1, "A2", False),
        ('[map.terrain]\nhill = ["A2"]\n', 2, "A2", True),
        ('[map.terrain]\nhill = ["A2"]\n', 1, "A2", False),
        ('[map.hexsides]\nridge = [{ side = "A1|A2" }]\n', 3, "A2", True),  # 1 + 2 across the ridge
        ('[map.hexsides]\nridge = [{ side = "A1|A2" }]\n', 2, "A2", False),
        ('[map.hexsides]\nwadi = [{ side = "A1|A2" }]\n', 2, "A2", True),  # 1 + 1 across the wadi
        ('[map.hexsides]\nwadi = [{ side = "A1|A2" }]\n', 1, "A2", False),
        ('[[map.route]]\nkind = "road"\nhexes = ["A1", "A2", "A3", "A4", "A5", "A6"]\n', 2, "A5", True),  # 4 x 1/2
        ('[[map.route]]\nkind = "road"\nhexes = ["A1", "A2", "A3", "A4", "A5", "A6"]\n', 2, "A6", False),  # 5 x 1/2
        ('[map.terrain]\nrough = ["A2"]\n[[map.route]]\nkind = "minor-road"\nhexes = ["A1", "A2"]\n', 1, "A2", True),
    ],
)
def test_a_move_on_both_sides_of_its_allowance(extra: str, movement: int, goal: str, reaches: bool) -> None:
    game = lane(extra, allied("U", "A1", movement=movement))
    order = f"move U {goal}"
    if reaches:
        game.play(order)
        assert game.unit("U").hex == H(goal)
    else:
        assert goal not in {m.path[-1].label for m in mv.moves(game, "U")}
        e = refused(game, order)
        assert e.clause == "OC-TER.1" and f"U has {movement}" in e.reason


ESCARPMENT = '[map.hexsides]\nimpassable-escarpment = [{ side = "A2|A3", high = "A3" }]\n'
PASS = '[[map.route]]\nkind = "road"\nhexes = ["A2", "A3"]\n'


@pytest.mark.rule("OC-TER.1")
def test_nothing_crosses_the_escarpment_but_along_a_road() -> None:
    """Escarpment NA (NA): no move and no supply line across it; ruling R-OC-PASS: where a road climbs it (a pass) the
    road's cost, 1/2 (1/2)."""
    shut = lane(ESCARPMENT + SOURCE_A1)
    assert mp_to(shut, "U", "A3") is None and supply_to(shut, "A3") is None
    e = refused(shut, "move U A1-A2-A3")
    assert e.clause == "OC-TER.1" and "cannot go from A2 to A3" in e.reason
    open_ = lane(ESCARPMENT + PASS + SOURCE_A1)
    assert mp_to(open_, "U", "A3") == Fraction(3, 2) and supply_to(open_, "A3") == Fraction(5, 2)


@pytest.mark.rule("OC-TER.1")
def test_no_move_into_the_sea_or_a_hex_the_italians_hold_nor_twice_a_turn() -> None:
    game = lane('[map.terrain]\nsea = ["A3"]\n', allied("U", "A1") + italian("I", "A4") + allied("V", "A6"), columns=7)
    e = refused(game, "move U A1-A2-A3")
    assert e.clause == "OC-TER.1" and "cannot go from A2 to A3" in e.reason
    e = refused(game, "move V A6-A5-A4")
    assert e.clause == "OC-TER.1" and "cannot go from A5 to A4" in e.reason
    game.play("move V A6-A5")
    e = refused(game, "move V A5-A6")
    assert e.clause == "OC-TER.1" and "R-OC-SEQ" in e.reason


@pytest.mark.rule("OC-TER.1")
def test_a_move_must_start_where_the_unit_is_and_go_hex_by_hex() -> None:
    game = lane("", allied("U", "A1") + italian("I", "A7"))
    for order, words in [
        ("move U A2-A3", "the path must start where U is, A1"),
        ("move U A1-A3", "A1 and A3 are not next to each other"),
        ("move I A7-A6", "'I' is not one of your units"),
    ]:
        e = refused(game, order)
        assert e.clause == "OC-TER.1" and words in e.reason


@pytest.mark.rule("OC-TER.1")
def test_a_move_given_by_its_destination_takes_the_cheapest_path() -> None:
    """Rough A2 (2 MP) and a road round it through B2 (1/2 each, the road A1-B1-B2-A3): to A3 the road costs 1 1/2,
    straight through the rough 3."""
    extra = '[map.terrain]\nrough = ["A2"]\n[[map.route]]\nkind = "road"\nhexes = ["A1", "B1", "B2", "A3"]\n'
    game = game_at(allied("U", "A1", movement=3), "allied-movement", rows=2, columns=5, map_extra=extra)
    game.play(Move("U", (H("A3"),)))
    assert game.unit("U").hex == H("A3") and "Allied: U moves A1-B1-B2-A3." in lines(game)


# --- OC-TER.2: what the target's terrain and hexsides do to an assault ---------------------------------------------
def assault_board(extra: str, *, turn: int = 2, attack: int = 2, steps: int = 3) -> Game:
    """An infantry brigade in A1 facing an Italian unit of 3 steps x 2 defence in A2, on turn 2 (no surprise)."""
    units = allied("U", "A1", kind="motorized-infantry", attack=attack, steps=steps) + italian("I", "A2")
    return game_at(units, turn=turn, rows=1, columns=4, map_extra=extra)


def drm_of(game: Game) -> tuple[int, tuple[str, ...]]:
    a = cb.assess(game, H("A2"), ["U"], "U")
    return a.drm, a.lines


@pytest.mark.rule("OC-TER.2")
@pytest.mark.parametrize(
    ("extra", "drm", "line"),
    [
        ("", 0, None),
        ('[map.terrain]\nrough = ["A2"]\n', 1, "+1 rough"),
        ('[map.terrain]\nhill = ["A2"]\n', 2, "+2 hill"),
        ('[map.terrain]\nrough = ["A1"]\n', 0, None),  # the attacker's hex does not count
        ('[map.zones]\nsidi-barrani = ["A2"]\n', 4, "+4 Sidi Barrani"),
        ('[map.zones]\nsidi-barrani = ["A2"]\n[map.terrain]\nrough = ["A2"]\n', 5, "+4 Sidi Barrani"),
    ],
)
def test_the_target_hexs_drm(extra: str, drm: int, line: str | None) -> None:
    found, lines = drm_of(assault_board(extra))
    assert found == drm
    if line:
        assert any(line in x for x in lines)


FORT_WEST = '[map.hexsides]\nfortified = [{ side = "A1|A2", inside = "A2", owner = "axis" }]\n'


@pytest.mark.rule("OC-TER.2")
def test_a_fort_adds_three_only_across_its_fortified_side() -> None:
    """+3 against the fortified side: A2's west side is fortified, so the assault from A1 has it, one from A3 (an
    open side) does not; a fortified side owned by A1 (inside A1) does nothing to an assault on A2."""
    drm, lines = drm_of(assault_board(FORT_WEST))
    assert drm == 3 and "+3 fort, across its fortified side (OC-TER.2)" in lines
    units = allied("U", "A3", kind="motorized-infantry") + italian("I", "A2")
    game = game_at(units, turn=2, rows=1, columns=4, map_extra=FORT_WEST)
    assert cb.assess(game, H("A2"), ["U"], "U").drm == 0
    outward = '[map.hexsides]\nfortified = [{ side = "A1|A2", inside = "A1", owner = "axis" }]\n'
    assert drm_of(assault_board(outward))[0] == 0


@pytest.mark.rule("OC-TER.2")
@pytest.mark.parametrize(("terrain", "drm"), [("rough", 4), ("hill", 5), ("clear", 3)])
def test_a_fort_and_its_hexs_terrain_add_up(terrain: str, drm: int) -> None:
    """Ruling R-OC-TER: the fort's +3 and the terrain's DRM both count (the fort is "other terrain in hex")."""
    extra = FORT_WEST + (f'[map.terrain]\n{terrain} = ["A2"]\n' if terrain != "clear" else "")
    assert drm_of(assault_board(extra))[0] == drm


@pytest.mark.rule("OC-TER.2")
@pytest.mark.parametrize(
    ("hexside", "steps", "attack", "halved"),
    [
        ("ridge", 3, 2, 3),  # 6 halved: 3 either way
        ("wadi", 3, 2, 3),
        ("ridge", 1, 5, 2),  # 5 halved rounding down: 2
        ("wadi", 1, 5, 3),  # 5 halved rounding up: 3
        ("ridge", 1, 1, 0),
        ("wadi", 1, 1, 1),
    ],
)
def test_ridge_and_wadi_halve_the_allied_attack_strength(hexside: str, steps: int, attack: int, halved: int) -> None:
    game = assault_board(f'[map.hexsides]\n{hexside} = [{{ side = "A1|A2" }}]\n', attack=attack, steps=steps)
    a = cb.assess(game, H("A2"), ["U"], "U")
    assert a.attack == halved
    assert a.attack - a.defence == halved - 6  # the Italian 3 steps x 2 defence are not halved
    plain = cb.assess(assault_board("", attack=attack, steps=steps), H("A2"), ["U"], "U")
    assert plain.attack == attack * steps


@pytest.mark.rule("OC-TER.2")
def test_a_wadi_or_ridge_elsewhere_halves_nothing() -> None:
    game = assault_board('[map.hexsides]\nridge = [{ side = "A2|A3" }]\nwadi = [{ side = "A3|A4" }]\n')
    assert cb.assess(game, H("A2"), ["U"], "U").attack == 6


@pytest.mark.rule("OC-TER.1")
@pytest.mark.parametrize("extra", [ESCARPMENT, ESCARPMENT + PASS])
def test_no_assault_across_the_escarpment_even_at_a_pass(extra: str) -> None:
    """ "No attacking across": the Allied unit in A2 may not assault A3 above it, whether or not a road climbs it."""
    units = allied("U", "A2", kind="motorized-infantry") + italian("I", "A3")
    game = game_at(units, turn=2, rows=1, columns=4, map_extra=extra)
    assert "target A3" not in game.legal_notation()
    e = refused(game, "target A3")
    assert e.clause == "OC-CRT.6" and "no Allied unit may assault A3 now" in e.reason
    with pytest.raises(Exception) as found:
        cb.check(game, H("A3"), ["U"], "U")
    assert getattr(found.value, "clause", None) == "OC-TER.1" and "across the escarpment" in str(found.value)


@pytest.mark.rule("OC-TER.2")
def test_the_strength_line_comes_first_then_the_halving() -> None:
    a = cb.assess(assault_board('[map.hexsides]\nridge = [{ side = "A1|A2" }]\n'), H("A2"), ["U"], "U")
    assert a.lines[:2] == ("strength 3 - 6 = -3: column <= -1 (OC-CRT.5)", "attack 6 halved rounding down across the ridge (OC-TER.2)")
    a = cb.assess(assault_board('[map.hexsides]\nwadi = [{ side = "A1|A2" }]\n'), H("A2"), ["U"], "U")
    assert a.lines[:2] == ("strength 3 - 6 = -3: column <= -1 (OC-CRT.5)", "attack 6 halved rounding up across the wadi (OC-TER.2)")


@pytest.mark.rule("OC-TER.1")
def test_every_hex_may_be_entered_the_first_too() -> None:
    """A1 is the map's first hex: a unit in A2 moves into it like any other."""
    game = lane("", allied("U", "A2", movement=1))
    game.play("move U A2-A1")
    assert game.unit("U").hex == H("A1")


@pytest.mark.rule("OC-TER.1")
def test_moves_and_supply_lines_read_their_own_columns() -> None:
    """The chart gives each cost twice, MP and (supply); with every supply cost set apart from the MP, a step is priced
    from its own column: clear 1 (7), road 1/2 (5), ridge +2 (+11), an escarpment with a road up it 1/2 (5)."""
    import dataclasses

    from tobruk.board.hexes import Direction
    from tobruk.systems.operation_compass.charts import chart
    from tobruk.systems.operation_compass.terrain import step_table

    extra = '[map.hexsides]\nridge = [{ side = "A3|A4" }]\nimpassable-escarpment = [{ side = "A4|A5", high = "A5" }]\n'
    extra += '[[map.route]]\nkind = "road"\nhexes = ["A1", "A2"]\n[[map.route]]\nkind = "road"\nhexes = ["A4", "A5"]\n'
    game = lane(extra)
    t = dataclasses.replace(
        chart(game).terrain,
        supply={"clear": 7 * 60, "rough": 8 * 60, "hill": 9 * 60},
        hexside_supply={"ridge": 11 * 60, "wadi": 12 * 60},
        route_supply={"road": 5 * 60, "minor-road": 6 * 60},
    )
    m = game.scenario.map
    east = Direction.E.value

    def step(a: str, supply: bool) -> Fraction:
        return Fraction(step_table(m, t, supply=supply)[m.index[H(a)] * 6 + east], 60)

    assert [step(a, False) for a in ("A1", "A2", "A3", "A4")] == [Fraction(1, 2), 1, 3, Fraction(1, 2)]
    assert [step(a, True) for a in ("A1", "A2", "A3", "A4")] == [5, 7, 18, 5]
