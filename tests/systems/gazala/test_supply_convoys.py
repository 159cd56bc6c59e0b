"""Truck convoys to units out of supply (GG-XV.A.4, A.3): who may get one, its dice, and what it supplies.

Single-row and three-row inline maps; the Axis source is A1 with a track to A5, so a unit's line off the track
is its distance from A5 in MF.  Dice are forced; every expected line length is 7 MF (5 in rain, 3 in a
sandstorm) plus the dice.
"""

from __future__ import annotations

import pytest

from tests.conftest import unit_toml
from tests.systems.gazala.test_supply import SOURCE, game_with, recovery, track
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala import moves as mv
from tobruk.systems.gazala import supply as sp
from tobruk.systems.gazala.actions import Convoy
from tobruk.systems.gazala.state import gazala_vars

AXIS, ALLIED = Side.AXIS, Side.ALLIED
GERMAN = (
    '[[unit]]\nid = "{id}"\nname = "{id}"\nside = "axis"\nnationality = "{nat}"\necheLon = "{ech}"\n'
    'type = "{type}"\nfactors = "{factors}"\nhex = "{hex}"\n{extra}\n'
).replace("echeLon", "echelon")


def axis_unit(
    uid: str, hex_: str, *, nat: str = "german", ech: str = "division", type_: str = "armour", factors: str = "4-3-4", extra: str = ""
) -> str:
    return GERMAN.format(id=uid, hex=hex_, nat=nat, ech=ech, type=type_, factors=factors, extra=extra)


def at_axis_recovery(units: str, dice: list[int], weather: str = "clear", rows: int = 1) -> Game:
    game = game_with(units, SOURCE + track(1, 5), rows=rows, columns=20, dice=dice, phase="axis-attacks")
    game.vars.weather = weather
    return recovery(game)


def convoy_line(game: Game) -> str:
    return next(line for line in reversed(game.state.log) if "truck convoy" in line)


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.parametrize(("weather", "dice", "base"), [("clear", [3], 7), ("rainstorm", [3], 5), ("sandstorm", [3, 2], 3)])
def test_a_convoy_line_is_the_weathers_line_plus_its_dice(weather: str, dice: list[int], base: int) -> None:
    # the unit stands exactly base + sum(dice) hexes beyond the end of the track (A5): just in reach
    reach = base + sum(dice)
    first = [1] if weather == "sandstorm" else []  # the sandstorm's own die for the determination (GG-XV.A.2)
    rain = [4, 4]  # each side's airfield roll at the start of the next player-turn, in a rainstorm (GG-VIII.B.1)
    game = at_axis_recovery(axis_unit("Pz", f"A{5 + reach}"), first + dice + rain, weather)
    game.play(Convoy("Pz"))
    rolled = ", ".join(map(str, dice))
    assert convoy_line(game) == f"Axis: truck convoy to Pz, line {reach} MF (rolled {rolled}): in supply."
    assert not family_unit(game, "Pz").out_of_supply and mv.convoys_left(game, AXIS) == 3
    game = at_axis_recovery(axis_unit("Pz", f"A{6 + reach}"), first + dice + rain, weather)  # one hex farther
    game.play(Convoy("Pz"))
    assert convoy_line(game) == f"Axis: truck convoy to Pz, line {reach} MF (rolled {rolled}): not enough."
    assert family_unit(game, "Pz").out_of_supply and mv.convoys_left(game, AXIS) == 3


@pytest.mark.rule("GG-XV.A.3")
@pytest.mark.rule("GG-XV.A.4")
def test_the_recce_gruppe_rolls_one_die_more() -> None:
    recce = axis_unit("Recce", "A15", ech="subdivisional", type_="recce", factors="1-1-5", extra='flags = ["survivable"]')
    game = at_axis_recovery(recce, [1, 2])  # 7 + 1 + 2 = 10 MF: A15 is 10 hexes from A5
    game.play(Convoy("Recce"))
    assert convoy_line(game) == "Axis: truck convoy to Recce, line 10 MF (rolled 1, 2): in supply."


@pytest.mark.rule("GG-XV.A.4")
def test_convoys_go_to_divisions_and_german_brigades_only() -> None:
    units = (
        axis_unit("Pz", "A15")
        + axis_unit("Kg", "A16", ech="subdivisional", type_="motorized", factors="2-2-3")
        + axis_unit("Ital", "A17", nat="italian", ech="subdivisional", type_="infantry", factors="1-1-2")
    )
    game = at_axis_recovery(units, [])
    convoys = {o.unit for o in game.legal_orders() if isinstance(o, Convoy)}
    assert convoys == {"Pz", "Kg"}  # an Italian brigade is neither a division nor a German brigade
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as err:
        game.play(Convoy("Ital"))
    assert err.value.clause == "GG-XV.A.4" and game.state_hash() == before


@pytest.mark.rule("GG-XV.A.4")
def test_no_convoy_to_a_unit_in_supply_or_twice() -> None:
    game = at_axis_recovery(axis_unit("Near", "A8") + axis_unit("Far", "A18") + axis_unit("Far2", "A19"), [1])
    assert {o.unit for o in game.legal_orders() if isinstance(o, Convoy)} == {"Far", "Far2"}
    game.play(Convoy("Far"))  # 8 MF: not enough for A18 (13 from A5)
    assert {o.unit for o in game.legal_orders() if isinstance(o, Convoy)} == {"Far2"}


def allied_bde(uid: str, hex_: str, formation: str = "1st Armd", type_: str = "armour") -> str:
    return (
        f'[[unit]]\nid = "{uid}"\nname = "{uid}"\nside = "allied"\nnationality = "british"\n'
        f'echelon = "subdivisional"\ntype = "{type_}"\nfactors = "5-4-4"\nformation = "{formation}"\nhex = "{hex_}"\n'
    )


def at_allied_recovery(units: str, dice: list[int]) -> Game:
    game = game_with(
        units,
        '[map.supply]\naxis = ["A20"]\nallied = ["C20"]\n' + track(15, 20, "C"),
        rows=3,
        columns=20,
        dice=dice,
        phase="allied-attacks",
    )
    for uid in game.units_of(ALLIED):
        family_unit(game, uid).activated = False  # (no attack owed to an Axis unit next to them; convoys do not care)
    while game.phase.key != "allied-recovery":
        game.play(EndPhase())
    return game


@pytest.mark.rule("GG-XV.A.4")
def test_a_british_armoured_divisions_brigades_within_2_hexes_share_the_convoy() -> None:
    # the convoy goes to Rcpt in C3 (12 hexes from C15: 7 + 6 MF is enough); C5 is 2 hexes away, C6 3
    units = (
        allied_bde("Rcpt", "C3")
        + allied_bde("Two", "C5")
        + allied_bde("Three", "C6")
        + allied_bde("Other", "B3", formation="7th Armd")
        + allied_bde("Inf", "A3", type_="infantry")
    )
    game = at_allied_recovery(units, [6])
    assert {o.unit for o in game.legal_orders() if isinstance(o, Convoy)} == {"Rcpt", "Two", "Three", "Other"}
    game.play(Convoy("Rcpt"))
    status = sp.status(game, ALLIED)
    assert status["Rcpt"]["how"] == "truck convoy"
    assert status["Two"]["supplied"] and status["Two"]["how"] == "within 2 hexes of Rcpt"
    assert not status["Three"]["supplied"]  # 3 hexes
    assert not status["Other"]["supplied"]  # another division's brigade, though next to it
    assert mv.convoys_left(game, ALLIED) == 5


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.parametrize("blocker", ["C7", "B6"])
def test_the_2_hex_line_is_a_supply_line_without_extra_mf(blocker: str) -> None:
    # Rcpt in C8 gets the convoy (track C18-C20: 10 hexes, 7 + 6 is enough); Two in C6 is 2 hexes away, the only
    # hex between being C7. An Axis unit in C7 blocks it; a disrupted one in B6 puts C7 in a ZOC that costs 1 MF
    # more, which a 2-hex line may not spend.
    units = allied_bde("Rcpt", "C8") + allied_bde("Two", "C6") + unit_toml("Pz", "axis", blocker, factors="1-1-4")
    game = game_with(
        units, '[map.supply]\naxis = ["A20"]\nallied = ["C20"]\n' + track(18, 20, "C"), rows=3, columns=20, dice=[6], phase="allied-attacks"
    )
    family_unit(game, "Pz").disrupted = True
    for uid in ("Rcpt", "Two"):
        family_unit(game, uid).activated = False
    while game.phase.key != "allied-recovery":
        game.play(EndPhase())
    game.play(Convoy("Rcpt"))
    status = sp.status(game, ALLIED)
    assert status["Rcpt"]["supplied"] and not status["Two"]["supplied"]


@pytest.mark.rule("GG-XV.A.4")
def test_a_failed_convoy_supplies_no_brigade() -> None:
    units = allied_bde("Rcpt", "C3") + allied_bde("Two", "C5")
    game = at_allied_recovery(units, [1])  # 8 MF: short of the 12 hexes
    game.play(Convoy("Rcpt"))
    status = sp.status(game, ALLIED)
    assert not status["Rcpt"]["supplied"] and not status["Two"]["supplied"]


@pytest.mark.rule("GG-XV.A.4")
def test_the_axis_sends_four_convoys_a_turn() -> None:
    # five divisions 9 to 13 hexes beyond the end of the track; every die a 1 (8 MF): each convoy fails, and each
    # counts, sent or not enough ("may attempt to send ... to 4")
    units = "".join(axis_unit(f"P{i}", f"A{13 + i}") for i in range(1, 6))
    game = at_axis_recovery(units, [1, 1, 1, 1])
    game.play(Convoy("P1"))
    game.play(Convoy("P2"))
    assert mv.convoys_left(game, AXIS) == 2
    assert {o.unit for o in game.legal_orders() if isinstance(o, Convoy)} == {"P3", "P4", "P5"}
    game.play(Convoy("P3"))
    game.play(Convoy("P4"))  # the fourth: none left, so nothing more to ask and the phase is over
    assert mv.convoys_left(game, AXIS) == 0
    d = game.decision
    assert d is not None and d.phase != "axis-recovery"
    assert all(family_unit(game, f"P{i}").out_of_supply for i in range(1, 6))


@pytest.mark.rule("GG-XV.A.4")
def test_every_convoy_that_arrives_keeps_its_unit_in_supply() -> None:
    # P1 9 hexes beyond the track, P2 10: a 6 each (13 MF) reaches both; the second convoy keeps the first's
    game = at_axis_recovery(axis_unit("P1", "A14") + axis_unit("P2", "A15"), [6, 6])
    game.play(Convoy("P1"))
    game.play(Convoy("P2"))
    assert not family_unit(game, "P1").out_of_supply and not family_unit(game, "P2").out_of_supply
    assert gazala_vars(game).supply["axis"]["P1"]["how"] == gazala_vars(game).supply["axis"]["P2"]["how"] == "truck convoy"


@pytest.mark.rule("GG-XV.A.4")
def test_the_two_hex_sharing_is_for_british_armoured_divisions_only() -> None:
    # two brigades of the 15th Panzer's formation, Kg1 9 hexes beyond the track (a 6 reaches it), Kg2 next to it:
    # Kg1's convoy does not supply Kg2 (the 2-hex rule is written for the British armoured divisions)
    formation = 'formation = "15Pz"'
    units = axis_unit("Kg1", "A14", ech="subdivisional", extra=formation) + axis_unit("Kg2", "A15", ech="subdivisional", extra=formation)
    game = at_axis_recovery(units, [6])
    game.play(Convoy("Kg1"))
    status = sp.status(game, AXIS)
    assert status["Kg1"]["how"] == "truck convoy"
    assert status["Kg2"] == {"hex": "A15", "supplied": False, "how": "out of supply", "route": []}


@pytest.mark.rule("GG-XV.A.4")
@pytest.mark.rule("GG-XV.A.1")
def test_a_brigade_already_in_supply_is_not_said_to_draw_on_the_convoy() -> None:
    # Two stands in an Allied box in C4, 1 hex from the recipient Rcpt in C3: the box supplies it, before and after
    # the convoy, and the status says so
    units = allied_bde("Rcpt", "C3") + allied_bde("Two", "C4")
    game = game_with(
        units,
        '[map.supply]\naxis = ["A20"]\nallied = ["C20"]\n[map.fortifications]\nallied = ["C4"]\n' + track(15, 20, "C"),
        rows=3,
        columns=20,
        dice=[6],
        phase="allied-attacks",
    )
    while game.phase.key != "allied-recovery":
        game.play(EndPhase())
    assert sp.status(game, ALLIED)["Two"]["how"] == "in a box"
    game.play(Convoy("Rcpt"))  # C3 to C15: 12 hexes, 7 + 6 MF
    status = sp.status(game, ALLIED)
    assert status["Rcpt"]["how"] == "truck convoy" and status["Two"]["how"] == "in a box"


# --- the 2-hex line of a British armoured division's convoy (GG-XV.A.4), hex by hex --------------------------
def labels(found: set[Hex]) -> set[str]:
    return {h.label for h in found}


@pytest.mark.rule("GG-XV.A.4")
def test_the_hexes_a_two_hex_line_reaches() -> None:
    # a row of eight hexes: from A3 two hexes either way, A1-A5; from A2, A1 (the board's first hex) to A4
    game = game_with("", '[map.supply]\nallied = ["A8"]\n', rows=1, columns=8)
    assert labels(sp.two_hexes(game, ALLIED, Hex.parse("A3"))) == {"A1", "A2", "A3", "A4", "A5"}
    assert labels(sp.two_hexes(game, ALLIED, Hex.parse("A2"))) == {"A1", "A2", "A3", "A4"}
    # open ground five rows deep: every hex within 2 of C4, the 19 of two rings around it, and no other
    game = game_with("", '[map.supply]\nallied = ["C8"]\n', rows=5, columns=8)
    c4 = Hex.parse("C4")
    ring = {h for h in game.scenario.map.hexes if c4.distance(h) <= 2}
    assert len(ring) == 19 and sp.two_hexes(game, ALLIED, c4) == ring
    # an Axis unit in A6: it and its ZOC (A5, A7) are closed to a 2-hex line
    game = game_with(unit_toml("Pz", "axis", "A6"), '[map.supply]\nallied = ["A8"]\n', rows=1, columns=8)
    assert labels(sp.two_hexes(game, ALLIED, Hex.parse("A3"))) == {"A1", "A2", "A3", "A4"}
    assert labels(sp.two_hexes(game, ALLIED, Hex.parse("A4"))) == {"A2", "A3", "A4"}


@pytest.mark.rule("GG-XV.A.3")
@pytest.mark.rule("GG-XV.A.4")
def test_a_division_in_supply_by_its_convoy_supplies_its_brigades_beside_it() -> None:
    # Div 9 hexes beyond the track (A14), a 6 brings it in supply by truck convoy; then it "is" in supply, and the
    # German brigades in its hex (Bde1) and next to it (Bde2), out of their own lines, are in supply through it
    # (GG-XV.A.3, docs/rulings.md: "when a German division in or next to its hex is in supply")
    units = axis_unit("Div", "A14") + axis_unit("Bde1", "A14", ech="subdivisional") + axis_unit("Bde2", "A15", ech="subdivisional")
    game = at_axis_recovery(units, [6])
    game.play(Convoy("Div"))
    status = sp.status(game, AXIS)
    assert status["Div"]["how"] == "truck convoy"
    assert status["Bde1"] == {"hex": "A14", "supplied": True, "how": "through Div", "route": ["A14", "A14"]}
    assert status["Bde2"] == {"hex": "A15", "supplied": True, "how": "through Div", "route": ["A15", "A14"]}
    d = game.decision
    assert d is not None and d.phase != "axis-recovery"  # nobody left out of supply to send a convoy to
    assert not any(family_unit(game, u).out_of_supply for u in ("Div", "Bde1", "Bde2"))
