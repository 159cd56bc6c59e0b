"""An assault's DRMs (OC-CRT.1-4) and its table (OC-CRT.5), played through the game with the dice chosen.

The board is two rows: the attackers in A2, the Italian unit "I" (3 steps of defence 2, morale 3) in A3, the sea in
B3 when the navy is in it.  On turn 2 nothing but what a test adds modifies the DRM (turn 1's surprise is tested on
its own).  A ground support die of 3 draws one Allied chit; a chit of 0 leaves the DRM as assessed."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.systems.operation_compass.kit import (
    H,
    allied,
    declare,
    due,
    entry_line,
    game_at,
    italian,
    lines,
    next_turn,
    no_chits,
    refused,
    roll,
    settle,
)
from tobruk.engine.game import Game
from tobruk.systems.operation_compass import combat as cb
from tobruk.systems.operation_compass.counters import compass_unit

SEA = '[map.terrain]\nsea = ["B3"]\n'


def board(attackers: str, *, turn: int = 2, defenders: str = "", extra: str = "") -> Game:
    units = attackers + (defenders or italian("I", "A3", steps=3, defence=2, morale=3))
    return game_at(units, turn=turn, rows=2, columns=5, map_extra=extra + '[map.supply]\nallied = ["A1"]\n')


def inf(uid: str, steps: int = 3, **kw: object) -> str:
    return allied(uid, "A2", kind="motorized-infantry", steps=steps, attack=2, **kw)


def tank(uid: str, steps: int = 3, **kw: object) -> str:
    return allied(uid, "A2", kind="armour", steps=steps, attack=3, **kw)


def gun(uid: str, steps: int = 2) -> str:
    return allied(uid, "A2", kind="support", steps=steps, attack=1, defence=1)


def assessed(game: Game, *attackers: str, leader: str | None = None) -> cb.Assessment:
    return cb.assess(game, H("A3"), list(attackers), leader or cb.default_leader(game, list(attackers)))


# --- OC-CRT.1: the ground support die and the chits ------------------------------------------------------------------
@pytest.mark.rule("OC-CRT.1")
@pytest.mark.parametrize(("die", "allied_n", "italian_n"), [(1, 2, 0), (2, 2, 0), (3, 1, 0), (4, 1, 1), (5, 1, 1), (6, 0, 2)])
def test_each_face_of_the_ground_support_die_draws_its_chits(die: int, allied_n: int, italian_n: int) -> None:
    """Each Allied chit drawn subtracts its value, each Italian chit adds its own; here every chit drawn is a 1, so the
    net DRM is italian_n - allied_n."""
    game = board(inf("U"))
    declare(game, "A3", "U")
    roll(game, die, "ground support, assault on A3")
    assert f"Ground support: die {die}: {allied_n} Allied and {italian_n} Italian chit(s) (OC-CRT.1)." in lines(game)
    for _ in range(allied_n):
        roll(game, 1, "Allied ground support chit")
    for _ in range(italian_n):
        roll(game, 1, "Italian ground support chit")
    net = italian_n - allied_n
    assert entry_line(game).startswith(f"Assault on A3: net DRM {net:+d}, column ")
    assert lines(game).count("Allied ground support chit: -1.") == allied_n
    assert lines(game).count("Italian ground support chit: +1.") == italian_n


@pytest.mark.rule("OC-CRT.1")
def test_chits_come_out_of_their_cups_without_going_back() -> None:
    """Ruling R-OC-CHITS: the Allied cup holds 0, 1, 1, 1, 2, 2 and the Italian 0, 0, 1, 1, 1, 2; a second chit is drawn
    from what the first left, and every assault draws from full cups."""
    game = board(inf("U") + inf("V"))
    declare(game, "A3", "U")
    roll(game, 1, "ground support")
    first = {o.value: o.probability for o in game.chance_outcomes()}
    assert first == {0: Fraction(1, 6), 1: Fraction(3, 6), 2: Fraction(2, 6)}
    roll(game, 2, "Allied ground support chit")
    second = {o.value: o.probability for o in game.chance_outcomes()}
    assert second == {0: Fraction(1, 5), 1: Fraction(3, 5), 2: Fraction(1, 5)}
    roll(game, 2, "Allied ground support chit")
    while due(game):
        roll(game, 1)
    declare(game, "A3", "V")
    roll(game, 6, "ground support")
    assert {o.value: o.probability for o in game.chance_outcomes()} == {0: Fraction(2, 6), 1: Fraction(3, 6), 2: Fraction(1, 6)}
    roll(game, 0, "Italian ground support chit")
    assert {o.value: o.probability for o in game.chance_outcomes()} == {0: Fraction(1, 5), 1: Fraction(3, 5), 2: Fraction(1, 5)}


# --- OC-CRT.2: armour support -----------------------------------------------------------------------------------
@pytest.mark.rule("OC-CRT.2")
@pytest.mark.parametrize(
    ("armour", "infantry", "drm"),
    [
        ((3,), (3,), -3),  # armour steps equal to the infantry's: all of them
        ((2,), (3,), -2),  # fewer: all of them
        ((3,), (2,), -1),  # more: halved rounding down, 3 // 2
        ((2, 2), (3,), -2),  # 4 against 3: 4 // 2
        ((3, 2), (3, 2), -5),  # 5 against 5
        ((3, 3), (3, 2), -3),  # 6 against 5: 6 // 2
        ((1,), (), 0),  # 1 against none: 1 // 2
        ((2,), (), -1),
    ],
)
def test_armour_support_when_armour_leads(armour: tuple[int, ...], infantry: tuple[int, ...], drm: int) -> None:
    """Ruling R-OC-ARMOUR: the support is the stack's armour steps, halved rounding down when they outnumber its
    infantry (and motorized infantry) steps."""
    units = "".join(tank(f"T{i}", n) for i, n in enumerate(armour)) + "".join(inf(f"N{i}", n) for i, n in enumerate(infantry))
    game = board(units)
    ids = [f"T{i}" for i in range(len(armour))] + [f"N{i}" for i in range(len(infantry))]
    a = assessed(game, *ids, leader="T0")
    assert a.drm == drm
    assert (f"{drm} armour support (OC-CRT.2)" in a.lines) == (drm != 0)


@pytest.mark.rule("OC-CRT.2")
def test_no_armour_support_unless_armour_leads() -> None:
    game = board(tank("T") + inf("N") + allied("R", "A2", kind="recce", steps=2))
    assert assessed(game, "N", "T", leader="N").drm == 0
    assert assessed(game, "R", "T", leader="R").drm == 0
    assert assessed(game, "T", "N", leader="T").drm == -3
    game.unit("T").steps = 1  # a reduced tank unit counts its steps left
    assert assessed(game, "T", "N", leader="T").drm == -1


# --- OC-CRT.3: naval support ------------------------------------------------------------------------------------------
@pytest.mark.rule("OC-CRT.3")
@pytest.mark.parametrize(
    ("zone", "die", "drm"),
    [
        ("", 1, -1),
        ("", 3, -1),
        ("", 4, -2),
        ("", 6, -2),
        ("sidi-barrani", 2, -1),  # 2 + 1 = 3: -1
        ("sidi-barrani", 3, -2),  # 3 + 1 = 4: -2
        ("sollum", 2, -1),
        ("sollum", 3, -2),
        ("sollum", 6, -2),  # 6 + 1 = 7: -2
    ],
)
def test_the_naval_die(zone: str, die: int, drm: int) -> None:
    """1-3: -1, 4-7: -2, the die +1 against Sidi Barrani or Sollum (whose own +4 Sidi Barrani adds, OC-TER.2)."""
    extra = SEA + (f'[map.zones]\n{zone} = ["A3"]\n' if zone else "")
    game = board(inf("U"), extra=extra)
    declare(game, "A3", "U", naval=True)
    no_chits(game)
    roll(game, die, "naval support, assault on A3")
    bonus = " +1" if zone else ""
    assert f"Naval support: die {die}{bonus}: {drm} (OC-CRT.3)." in lines(game)
    base = 4 if zone == "sidi-barrani" else 0
    assert entry_line(game).startswith(f"Assault on A3: net DRM {base + drm:+d}, ")


@pytest.mark.rule("OC-CRT.3")
def test_the_navy_supports_only_an_assault_on_a_hex_by_the_sea_twice_a_turn() -> None:
    """Ruling R-OC-NAVAL: against a hex next to the sea, at most 2 assaults a game-turn, again the next turn."""
    inland = board(inf("U"))
    inland.play("target A3")
    inland.play("add U")
    assert "naval" not in inland.legal_notation()
    e = refused(inland, "naval")
    assert e.clause == "OC-CRT.3" and "R-OC-NAVAL" in e.reason

    units = inf("U1") + inf("U2") + allied("U3", "B2", kind="motorized-infantry")
    game = board(units, defenders=italian("I", "A3", steps=3, defence=5, morale=6), extra=SEA)
    for uid in ("U1", "U2"):
        declare(game, "A3", uid, naval=True)
        settle(game)
    game.play("target A3")
    game.play("add U3")
    assert "naval" not in game.legal_notation()
    e = refused(game, "naval")
    assert e.clause == "OC-CRT.3" and "twice a turn" in e.reason
    game.play("abandon")
    next_turn(game)
    game.play("target A3")
    game.play("add U3")
    assert "naval" in game.legal_notation()


# --- OC-CRT.4: support units, Selby Force, retreating Italians, surprise --------------------------------------------
@pytest.mark.rule("OC-CRT.4")
def test_each_full_strength_support_unit_gives_minus_one() -> None:
    game = board(inf("U") + gun("G1") + gun("G2"))
    a = assessed(game, "U", "G1", "G2")
    assert a.drm == -2 and "-2 support units at full strength: G1, G2 (OC-CRT.4)" in a.lines
    game.unit("G2").steps = 1
    assert assessed(game, "U", "G1", "G2").drm == -1
    assert assessed(game, "U").drm == 0  # the guns give nothing unless they are in the stack


@pytest.mark.rule("OC-CRT.4")
def test_selbys_current_support_factor() -> None:
    """Ruling R-OC-SELBY: Selby Force's printed factor (2) less one for each step it has lost."""
    game = board(inf("U") + allied("Selby", "A2", kind="motorized-infantry", steps=2, support=2))
    a = assessed(game, "U", "Selby")
    assert a.drm == -2 and "-2 Selby's support factor (OC-CRT.4)" in a.lines
    game.unit("Selby").steps = 1
    assert assessed(game, "U", "Selby").drm == -1
    assert assessed(game, "U").drm == 0


@pytest.mark.rule("OC-CRT.4")
def test_minus_one_against_italians_that_retreated_this_turn() -> None:
    defenders = italian("I", "A3") + italian("J", "A3")
    game = board(inf("U"), defenders=defenders)
    assert assessed(game, "U").drm == 0
    compass_unit(game, "J").retreating = True  # (set by a failed OC-RET.1 check: test_retreat)
    a = assessed(game, "U")
    assert a.drm == -1 and "-1 against retreating Italian units (OC-CRT.4)" in a.lines


@pytest.mark.rule("OC-CRT.4")
@pytest.mark.parametrize(("turn", "drm"), [(1, -1), (2, 0), (3, 0)])
def test_surprise_for_every_assault_of_turn_1(turn: int, drm: int) -> None:
    defenders = italian("I", "A3", morale=6)  # (steady: no Retreat Phase check moves it on turn 3)
    game = board(inf("U"), turn=turn, defenders=defenders)
    while due(game):
        roll(game, 1)
    assert assessed(game, "U").drm == drm


# --- OC-CRT.5: the table, end to end --------------------------------------------------------------------------------
@pytest.mark.rule("OC-CRT.5")
@pytest.mark.parametrize(
    ("attack", "steps", "defence", "entry", "column"),
    [
        (1, 1, 3, "1/2", "<= -1"),  # 1 - 6 = -5, DRM 0
        (2, 3, 2, "1/2", "0-1"),  # 6 - 6 = 0
        (3, 3, 2, "1/3", "2-4"),  # 9 - 6 = 3
        (4, 3, 2, "0/3", "5-8"),  # 12 - 6 = 6
        (5, 3, 2, "0/3", "9-13"),  # 15 - 6 = 9
        (7, 3, 2, "0/3", "14-19"),  # 21 - 6 = 15
        (9, 3, 2, "0/3", ">= 20"),  # 27 - 6 = 21
    ],
)
def test_the_entry_read_in_play(attack: int, steps: int, defence: int, entry: str, column: str) -> None:
    """Net DRM 0 (turn 2, clear, a chit of 0): the row 0 of the chart."""
    units = allied("U", "A2", kind="motorized-infantry", attack=attack, steps=steps)
    game = board(units, defenders=italian("I", "A3", steps=3, defence=defence, morale=6))
    declare(game, "A3", "U")
    no_chits(game)
    assert entry_line(game) == f"Assault on A3: net DRM +0, column {column}: {entry} (Allied/Italian, OC-CRT.5)."
    italian_n = int(entry.split("/")[1])
    assert due(game) == f"morale check, I (assault on A3, morale 6, DRM +{italian_n} (Italian number of the table +{italian_n}))"


@pytest.mark.rule("OC-CRT.5")
def test_the_highest_and_lowest_rows_in_play() -> None:
    """Hill +2, fort +3 and Sidi Barrani +4 with two Italian chits of 2 and 1: net DRM +12 at strength 1 - 6 = -5 reads
    3/0, red.  On turn 1 an armour-led stack (armour 3 steps, infantry 3: -3) with a full-strength gun (-1), surprise
    (-1) and two Allied chits of 2 (-4): net DRM -9, the first row; strength 9 + 6 + 2 - 1 = 16: 0/4."""
    extra = '[map.terrain]\nhill = ["A3"]\n[map.zones]\nsidi-barrani = ["A3"]\n'
    extra += '[map.hexsides]\nfortified = [{ side = "A2|A3", inside = "A3", owner = "axis" }]\n'
    game = board(allied("U", "A2", kind="motorized-infantry", attack=1, steps=1), extra=extra)
    declare(game, "A3", "U")
    roll(game, 6, "ground support")
    roll(game, 2, "Italian ground support chit")
    roll(game, 1, "Italian ground support chit")
    assert entry_line(game) == "Assault on A3: net DRM +12, column <= -1: 3/0 (red) (Allied/Italian, OC-CRT.5)."
    strong = board(tank("T") + inf("N") + gun("G"), turn=1, defenders=italian("I", "A3", steps=1, defence=1))
    declare(strong, "A3", "T", "N", "G")
    roll(strong, 1, "ground support")
    roll(strong, 2, "Allied ground support chit")
    roll(strong, 2, "Allied ground support chit")
    assert entry_line(strong) == "Assault on A3: net DRM -9, column 14-19: 0/4 (Allied/Italian, OC-CRT.5)."


# --- the odds shown before the dice ----------------------------------------------------------------------------------
@pytest.mark.rule("OC-CRT.5")
def test_the_exact_distribution_of_italian_steps_lost() -> None:
    """Turn 1, armour-led (3 armour steps, 3 infantry: -3), two full-strength guns (-2), surprise (-1): -6, and no
    draw of chits brings it above -6 + 3 = -3, so every roll reads the first row.  Strength 9 + 6 + 2 + 2 = 19 against
    two units of 3 steps x 1 defence: 13, the 9-13 column: 0/3.  Each defender (morale 3) then checks at +3: a die of
    1-4 fails by 1-4 (1 step), 5-6 by 5-6 (2 steps).  Two of them: 2 steps (4/6)^2, 3 steps 2 x 4/6 x 2/6, 4 steps
    (2/6)^2."""
    defenders = italian("I", "A3", steps=3, defence=1, morale=3) + italian("J", "A3", steps=3, defence=1, morale=3)
    game = board(tank("T") + inf("N") + gun("G1") + gun("G2"), turn=1, defenders=defenders)
    a = assessed(game, "T", "N", "G1", "G2", leader="T")
    assert (a.drm, a.attack - a.defence, a.column_name) == (-6, 13, "9-13")
    assert cb.italian_losses(game, a) == [  # the likeliest first, then by label
        ("2 Italian steps", Fraction(16, 36)),
        ("3 Italian steps", Fraction(16, 36)),
        ("4 Italian steps", Fraction(4, 36)),
    ]


@pytest.mark.rule("OC-MC.1")
def test_the_distribution_counts_the_steps_a_defender_has_lost() -> None:
    """As above, one defender of 3 steps with 2 left: defence 2, strength 19 - 2 = 17, the 14-19 column: 0/4; it
    checks at +4 +1: a die of 1-2 fails by 3-4 (1 step), 3-6 by 5-8 (2 steps, all it has)."""
    game = board(tank("T") + inf("N") + gun("G1") + gun("G2"), turn=1, defenders=italian("I", "A3", steps=3, defence=1, morale=3))
    game.unit("I").steps = 2
    a = assessed(game, "T", "N", "G1", "G2", leader="T")
    assert (a.drm, a.column_name) == (-6, "14-19")
    assert cb.italian_losses(game, a) == [("2 Italian steps", Fraction(4, 6)), ("1 Italian steps", Fraction(2, 6))]


@pytest.mark.rule("OC-CRT.1")
def test_the_ground_support_die_and_the_navys_show_their_faces() -> None:
    game = board(inf("U"), extra=SEA)
    declare(game, "A3", "U", naval=True)
    assert [o.label for o in game.chance_outcomes()] == ["2 Allied, 0 Italian"] * 2 + ["1 Allied, 0 Italian"] + [
        "1 Allied, 1 Italian"
    ] * 2 + ["0 Allied, 2 Italian"]
    roll(game, 3, "ground support")
    roll(game, 0)
    assert due(game) == "naval support, assault on A3"
    assert [(o.value, o.probability) for o in game.chance_outcomes()] == [(face, Fraction(1, 6)) for face in range(1, 7)]


@pytest.mark.rule("OC-CRT.4")
def test_a_support_factor_never_goes_below_nothing() -> None:
    """Ruling R-OC-SELBY: a unit printing a support factor of 1 with 3 steps has 0 once it has lost 1 step and still 0
    after 2, never -1."""
    game = board(inf("U") + allied("S", "A2", kind="motorized-infantry", steps=3, support=1))
    assert assessed(game, "U", "S").drm == -1
    game.unit("S").steps = 2
    assert assessed(game, "U", "S").drm == 0
    game.unit("S").steps = 1
    a = assessed(game, "U", "S")
    assert a.drm == 0 and not any("support factor" in x for x in a.lines)


@pytest.mark.rule("OC-MC.1")
def test_one_unit_out_of_supply() -> None:
    game = board(inf("U") + inf("V"), defenders=italian("I", "A3", morale=6))
    compass_unit(game, "V").out_of_supply = True
    declare(game, "A3", "U", "V")
    no_chits(game)
    roll(game, 1, "morale check, I")  # strength 12 - 6 = 6, DRM 0: 0/3
    assert due(game).endswith("DRM +1 (Allied number of the table +0, 1 unit of the stack out of supply +1))")
