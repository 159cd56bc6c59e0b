"""Bombardment (OC-BMB.1): the support units next to an Italian-held hex fire on it; the die on the bombardment table
gives each Italian unit there a morale check with that DRM, or no check at all.

The bombardment strength is the firing support units' steps (ruling R-OC-BS: 2 at least, 4 or more reads BS 3); on
turn 1 the "WDF Turn 1" column.  Every die face of every column is played here, the DRM read from the chart text
typed in the test.  The board: the Italian unit in C3, the guns west of it in C2 (and B2 for a second battery)."""

from __future__ import annotations

import pytest

from tests.systems.operation_compass.kit import H, allied, due, game_at, italian, lines, refused, roll
from tobruk.engine.game import Game
from tobruk.engine.offers import offers
from tobruk.systems.operation_compass.counters import compass_unit

# OC-BMB.1 as printed: by die 1-6; None is "no MC"
BS2 = [2, 1, 1, 0, None, None]
BS3 = [2, 2, 1, 1, 0, None]
WDF_TURN_1 = [3, 2, 2, 2, 1, 1]


def board(guns: str, *, turn: int = 2, italians: str = "", extra: str = "") -> Game:
    units = guns + (italians or italian("I", "C3", steps=3, morale=3))
    return game_at(units, "allied-bombardment", turn=turn, rows=5, columns=6, map_extra=extra)


def gun(uid: str, hex_: str, steps: int) -> str:
    return allied(uid, hex_, kind="support", steps=steps, attack=1, defence=1)


CASES = [
    *((2, 2, die, BS2[die - 1]) for die in range(1, 7)),  # one gun of 2 steps: BS 2
    *((3, 2, die, BS3[die - 1]) for die in range(1, 7)),  # 3 steps: BS 3
    *((2, 1, die, WDF_TURN_1[die - 1]) for die in range(1, 7)),  # turn 1: the WDF's opening barrage
]


@pytest.mark.rule("OC-BMB.1")
@pytest.mark.parametrize(("bs", "turn", "die", "drm"), CASES)
def test_every_face_of_every_column(bs: int, turn: int, die: int, drm: int | None) -> None:
    game = board(gun("G", "C2", bs), turn=turn)
    game.play("bombard C3")
    roll(game, die, "bombardment of C3")
    if drm is None:
        assert due(game) == "" and game.decision is not None and game.decision.phase == "allied-bombardment"
        assert any(f"die {die}: no morale check" in x for x in lines(game))
        return
    assert due(game).startswith(f"morale check, I (bombardment of C3, morale 3, DRM {drm:+d} (bombardment table, ")
    outcomes = game.chance_outcomes()
    # morale 3: a die of 3 - drm or less passes; the first failing face fails by 1
    assert [o.label for o in outcomes][: max(0, 3 - drm)] == ["passes"] * max(0, 3 - drm)
    assert outcomes[max(0, 3 - drm)].label == "fails, loses 1"


@pytest.mark.rule("OC-BMB.1")
@pytest.mark.parametrize(("guns", "column"), [((2,), "BS 2"), ((3,), "BS 3"), ((2, 2), "BS 3"), ((3, 2), "BS 3"), ((1, 1), "BS 2")])
def test_the_strength_is_the_guns_steps_and_four_or_more_reads_bs_3(guns: tuple[int, ...], column: str) -> None:
    """Ruling R-OC-BS: the support units next to the hex fire together, their steps the strength."""
    units = "".join(gun(f"G{i}", hx, n) for i, (hx, n) in enumerate(zip(("C2", "B2"), guns, strict=False)))
    game = board(units)
    game.play("bombard C3")
    assert f"(strength {sum(guns)})" in lines(game)[-1]
    roll(game, 1, "bombardment")
    assert f"bombardment table, {column} +2" in due(game)


@pytest.mark.rule("OC-BMB.1")
def test_one_step_of_guns_cannot_bombard() -> None:
    game = board(gun("G", "C2", 1))
    assert "bombard C3" not in game.legal_notation()
    e = refused(game, "bombard C3")
    assert e.clause == "OC-BMB.1" and "R-OC-BS" in e.reason and "bombard with 1: 2 at least" in e.reason


@pytest.mark.rule("OC-BMB.1")
def test_each_italian_unit_in_the_hex_checks_adding_its_steps_lost() -> None:
    """BS 3, die 1: +2; the unit that has lost a step checks at +2 +1 (OC-MC.1); failing by 5 costs 2 steps."""
    italians = italian("I", "C3", steps=3, morale=3) + italian("J", "C3", steps=3, morale=3)
    game = board(gun("G", "C2", 3), italians=italians)
    game.unit("J").steps = 2
    game.play("bombard C3")
    roll(game, 1, "bombardment")
    assert due(game) == "morale check, I (bombardment of C3, morale 3, DRM +2 (bombardment table, BS 3 +2))"
    roll(game, 6)  # 6 + 2 = 8 against 3: fails by 5, 2 steps
    assert game.unit("I").steps == 1
    assert due(game) == "morale check, J (bombardment of C3, morale 3, DRM +3 (bombardment table, BS 3 +2, 1 step lost +1))"
    roll(game, 1)  # 1 + 3 = 4 against 3: fails by 1, 1 step
    assert game.unit("J").steps == 1
    assert due(game) == ""


@pytest.mark.rule("OC-BMB.1")
def test_a_gun_fires_once_a_turn_and_not_across_the_escarpment() -> None:
    """Ruling R-OC-BS: a support unit that bombarded has fired: it neither bombards again nor supports an assault this
    turn.  Guns above an escarpment hexside do not fire across it (no attacking across, OC-TER.1)."""
    extra = '[map.hexsides]\nimpassable-escarpment = [{ side = "B2|C3", high = "B2" }]\n'
    units = gun("G", "C2", 2) + gun("E", "B2", 2) + allied("A", "C2", kind="motorized-infantry")
    game = board(units, extra=extra)
    game.play("bombard C3")
    assert "(strength 2)" in lines(game)[-1] and "G bombard C3" in lines(game)[-1]
    roll(game, 5, "bombardment")  # BS 2, 5: no check
    assert compass_unit(game, "G").fired and not compass_unit(game, "E").fired
    e = refused(game, "bombard C3")
    assert e.clause == "OC-BMB.1" and "bombard with 0" in e.reason
    game.play("end-phase")
    game.play("end-phase")
    game.play("target C3")
    assert "add G" not in game.legal_notation()
    e = refused(game, "add G")
    assert e.clause == "OC-CRT.4" and "R-OC-BS" in e.reason


@pytest.mark.rule("OC-BMB.1")
def test_only_a_hex_the_italians_hold() -> None:
    game = board(gun("G", "C2", 2))
    e = refused(game, "bombard D2")
    assert e.clause == "OC-BMB.1" and "D2 holds no Italian unit" in e.reason
    assert [a for a in game.legal_notation() if a.startswith("bombard")] == ["bombard C3"]
    assert H("C3") in game.occupants()


@pytest.mark.rule("OC-BMB.1")
@pytest.mark.parametrize(
    ("bs", "turn", "labels"),
    [
        (2, 2, ["checks at +2", "checks at +1", "checks at +1", "checks at +0", "no check", "no check"]),
        (3, 2, ["checks at +2", "checks at +2", "checks at +1", "checks at +1", "checks at +0", "no check"]),
        (2, 1, ["checks at +3", "checks at +2", "checks at +2", "checks at +2", "checks at +1", "checks at +1"]),
    ],
)
def test_the_die_shows_what_each_face_does(bs: int, turn: int, labels: list[str]) -> None:
    game = board(gun("G", "C2", bs), turn=turn)
    game.play("bombard C3")
    assert [o.label for o in game.chance_outcomes()] == labels


@pytest.mark.rule("OC-BMB.1")
def test_the_bombardment_in_the_log() -> None:
    game = board(gun("G1", "C2", 2) + gun("G2", "B2", 1))
    game.play("bombard C3")
    roll(game, 2, "bombardment")
    roll(game, 1, "morale check")
    assert lines(game)[-3:] == [
        "Allied: G1, G2 bombard C3 (strength 3).",
        "Bombardment of C3 (BS 3): die 2: morale checks at +2.",
        "Morale check, I (bombardment of C3): die 1, DRM +2 (bombardment table, BS 3 +2): 3 against morale 3, passes.",
    ]
    game = board(gun("G1", "C2", 2), turn=1)
    game.play("bombard C3")
    roll(game, 5, "bombardment")
    assert lines(game)[-1] == "Bombardment of C3 (WDF turn 1): die 5: morale checks at +1."
    game = board(gun("G1", "C2", 2))
    game.play("bombard C3")
    roll(game, 6, "bombardment")
    assert lines(game)[-1] == "Bombardment of C3 (BS 2): die 6: no morale check."
    assert game.state.entries[-1].kind == "battle"


@pytest.mark.rule("OC-BMB.1")
def test_the_guns_fire_only_on_italians() -> None:
    """The guns in C2 have the WDF's own hex D2 beside them, and B3 empty: only C3 is a target; D2 is refused."""
    game = board(gun("G", "C2", 2) + allied("A", "D2", kind="motorized-infantry"))
    assert [a for a in game.legal_notation() if a.startswith("bombard")] == ["bombard C3"]
    e = refused(game, "bombard D2")
    assert (e.clause, e.reason) == ("OC-BMB.1", "D2 holds no Italian unit")


@pytest.mark.rule("OC-BMB.1")
def test_the_bombardment_is_offered_naming_the_support_units_next_to_the_hex_that_fire() -> None:
    """The button names the guns that would fire: the support units next to the hex that have not fired this turn
    (ruling R-OC-BS), with their strength; not a gun two hexes away, one that has fired, nor a tank next to it."""
    units = (
        gun("G1", "C2", 2)
        + gun("G2", "B2", 1)
        + gun("Far", "A6", 3)  # (not next to C3)
        + gun("Spent", "C4", 2)
        + allied("Tank", "D3", kind="armour", steps=2, attack=2, defence=2)
    )
    assert all(H(h).is_adjacent(H("C3")) for h in ("C2", "B2", "C4", "D3")) and not H("A6").is_adjacent(H("C3"))
    game = board(units)
    compass_unit(game, "Spent").fired = True
    (words,) = [e["says"] for e in offers(game)["actions"] if e["verb"] == "bombard" and e["hex"] == "C3"]
    assert words == (
        "Bombard C3 with G1, G2 (bombardment strength 3): each Italian unit there may check morale (OC-BMB.1); they may "
        "not support an assault this turn (ruling R-OC-BS)"
    )
