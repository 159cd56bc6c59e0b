"""How an assault is resolved (OC-CRT.6): each defender's morale check with the Italian number, then the leader's
with the Allied number, the excess of the leader's losses taken by the rest of the stack as the player chooses, a
red entry's checks of the support units (OC-CRT.5); the checks' modifiers (OC-MC.1) and what failing costs
(OC-MC.2, on both sides of every threshold); the advance into an emptied hex; the declaration's refusals.

The board: the attackers in A2, the defenders in A3 (rows A-B, columns 1-5); every roll is chosen."""

from __future__ import annotations

import pytest

from tests.systems.operation_compass.kit import H, allied, declare, due, entry_line, game_at, italian, lines, no_chits, refused, roll
from tobruk.engine.flow import Decision
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.systems.operation_compass.counters import compass_unit

HILL_FORT_SB = (
    '[map.terrain]\nhill = ["A3"]\n[map.zones]\nsidi-barrani = ["A3"]\n'
    '[map.hexsides]\nfortified = [{ side = "A2|A3", inside = "A3", owner = "axis" }]\n'
)  # +2 +3 +4 = +9 against A3 from A2 (OC-TER.2)


def board(attackers: str, defenders: str, *, turn: int = 2, extra: str = "") -> Game:
    """The WDF's supply source in A1, so that its units are in supply on turn 2 (OC-MC.1)."""
    return game_at(attackers + defenders, turn=turn, rows=2, columns=5, map_extra=extra + '[map.supply]\nallied = ["A1"]\n')


def first_row_board(morale: int) -> Game:
    """Turn 1, an armour-led stack (3 armour steps, 3 infantry: -3, surprise -1; with a chit of 0: -4, the first row)
    of strength 9 + 6 = 15 against a unit of 3 steps x 0 defence: the 14-19 column, 0/4."""
    attackers = allied("T", "A2", kind="armour", attack=3, morale=6) + allied("N", "A2", kind="motorized-infantry", attack=2)
    game = board(attackers, italian("I", "A3", steps=3, defence=0, morale=morale), turn=1)
    declare(game, "A3", "T", "N")
    no_chits(game)
    assert entry_line(game) == "Assault on A3: net DRM -4, column 14-19: 0/4 (Allied/Italian, OC-CRT.5)."
    return game


# --- OC-MC.2: the steps a failed check costs --------------------------------------------------------------------------
@pytest.mark.rule("OC-MC.2")
@pytest.mark.parametrize(
    ("morale", "die", "steps_left"),
    [
        (5, 1, 3),  # 1 + 4 = 5 against 5: equal passes (ruling R-OC-MC)
        (5, 2, 2),  # fails by 1: 1 step
        (1, 1, 2),  # 1 + 4 - 1 = 4: 1 step
        (1, 2, 1),  # fails by 5: 2 steps
        (1, 4, 1),  # fails by 7: 2 steps
        (1, 5, 0),  # fails by 8: 3 steps, eliminated
        (1, 6, 0),  # fails by 9
    ],
)
def test_failing_by_1_4_5_7_and_8_or_more(morale: int, die: int, steps_left: int) -> None:
    game = first_row_board(morale)
    assert due(game) == f"morale check, I (assault on A3, morale {morale}, DRM +4 (Italian number of the table +4))"
    roll(game, die)
    assert game.unit("I").steps == steps_left
    assert game.unit("I").eliminated == (steps_left == 0)
    verdict = "passes" if die + 4 <= morale else f"fails by {die + 4 - morale}"
    drm = "DRM +4 (Italian number of the table +4)"
    assert f"Morale check, I (assault on A3): die {die}, {drm}: {die + 4} against morale {morale}, {verdict}." in lines(game)


@pytest.mark.rule("OC-MC.2")
def test_the_outcomes_of_a_check_say_what_each_face_costs() -> None:
    game = first_row_board(1)
    assert [o.label for o in game.chance_outcomes()] == ["fails, loses 1", "fails, loses 2", "fails, loses 2", "fails, loses 2"] + [
        "fails, loses 3"
    ] * 2


# --- OC-CRT.6 and OC-MC.1: the order of the checks and their modifiers -------------------------------------------------
@pytest.mark.rule("OC-CRT.6")
def test_each_defender_checks_then_the_leader() -> None:
    """Strength 2 x 3 + 2 x 3 = 12 against 2 x (3 x 2) = 12: 0, the 0-1 column; net DRM 0: 1/2.  I and J check with
    +2 in order of battle, then the leader V (named, not the first added) with +1; U never checks."""
    attackers = allied("U", "A2", kind="motorized-infantry") + allied("V", "A2", kind="motorized-infantry")
    defenders = italian("I", "A3", morale=6) + italian("J", "A3", morale=6)
    game = board(attackers, defenders)
    declare(game, "A3", "U", "V", leader="V")
    assert "led by V" in lines(game)[-1]
    no_chits(game)
    assert entry_line(game).endswith("column 0-1: 1/2 (Allied/Italian, OC-CRT.5).")
    assert due(game) == "morale check, I (assault on A3, morale 6, DRM +2 (Italian number of the table +2))"
    roll(game, 1)
    assert due(game) == "morale check, J (assault on A3, morale 6, DRM +2 (Italian number of the table +2))"
    roll(game, 1)
    assert due(game) == "morale check, V (leading the assault on A3, morale 4, DRM +1 (Allied number of the table +1))"
    roll(game, 1)
    assert due(game) == "" and game.decision is not None and game.decision.phase == "allied-assaults"


@pytest.mark.rule("OC-MC.1")
def test_the_modifiers_of_each_side_s_check() -> None:
    """The leader adds the Allied number, +1 a step it has lost and +1 for each unit of the stack out of supply (itself
    included); a defender adds the Italian number and its own steps lost, never the Allied units' supply (ruling
    R-OC-OOS)."""
    attackers = allied("U", "A2", kind="motorized-infantry") + allied("V", "A2", kind="motorized-infantry")
    defenders = italian("I", "A3", morale=6)
    game = board(attackers, defenders)
    game.unit("U").steps = 2
    game.unit("I").steps = 1
    compass_unit(game, "U").out_of_supply = compass_unit(game, "V").out_of_supply = True
    declare(game, "A3", "U", "V")
    assert "+2 to the leader's morale check: units out of supply (OC-MC.1)" in lines(game)[-1]
    no_chits(game)
    # strength 2 x 2 + 2 x 3 = 10 against 1 x 2 = 2: 8, the 5-8 column; DRM 0: 0/3
    assert entry_line(game).endswith("column 5-8: 0/3 (Allied/Italian, OC-CRT.5).")
    assert due(game) == "morale check, I (assault on A3, morale 6, DRM +5 (Italian number of the table +3, 2 steps lost +2))"
    roll(game, 1)
    assert due(game) == (
        "morale check, U (leading the assault on A3, morale 4, DRM +3 (Allied number of the table +0, 1 step lost +1, "
        "2 units of the stack out of supply +2))"
    )


@pytest.mark.rule("OC-CRT.6")
def test_the_rest_of_the_stack_takes_the_leaders_excess_losses_as_the_player_chooses() -> None:
    """Strength 1 + 2 x 3 + 1 x 2 = 9 against 3 x 3 = 9: 0, the 0-1 column.  Armour leads with 1 step against 3
    infantry steps: -1; the gun at full strength: -1; a chit of 0: net -2, the first row: 0/3.  The leader T (1 step,
    morale 1) rolls 6: 6 + 0 - 1 = 5, failing by 5: 2 steps, one more than it has (ruling R-OC-EXCESS): T is
    eliminated and the player gives the other step to N or G, never to T."""
    attackers = (
        allied("T", "A2", kind="armour", steps=1, attack=1, morale=1)
        + allied("N", "A2", kind="motorized-infantry")
        + allied("G", "A2", kind="support", steps=2, attack=1)
    )
    game = board(attackers, italian("I", "A3", defence=3, morale=6))
    declare(game, "A3", "T", "N", "G")
    no_chits(game)
    assert entry_line(game) == "Assault on A3: net DRM -2, column 0-1: 0/3 (Allied/Italian, OC-CRT.5)."
    roll(game, 1, "morale check, I")
    assert due(game) == "morale check, T (leading the assault on A3, morale 1, DRM +0 (Allied number of the table +0))"
    roll(game, 6)
    assert game.unit("T").eliminated
    assert game.decision == Decision(
        Side.ALLIED, "allied-assaults", "take 1 more step(s) of the assault's losses from the stack", "OC-CRT.6"
    )
    assert sorted(game.legal_notation()) == ["lose G", "lose N"]
    e = refused(game, "lose T")
    assert e.clause == "OC-CRT.6" and "taken by the rest of the stack: N, G" in e.reason
    game.play("lose N")
    assert game.unit("N").steps == 2 and game.unit("G").steps == 2
    assert "N loses 1 step (the assault's excess losses): 2 left." in lines(game)
    assert game.decision is not None and game.decision.phase == "allied-assaults"


@pytest.mark.rule("OC-CRT.6")
def test_an_excess_of_two_steps_is_taken_a_step_at_a_time() -> None:
    """+9 of terrain, armour leading 1 step against 3 infantry steps (-1), two Italian chits of 2 and 1 (+3): +11;
    strength 1 + 6 = 7 against 9: the <= -1 column, 3/1.  The leader (1 step, morale 1) rolls 6: 6 + 3 - 1 = 8, 3
    steps: two in excess, both taken by N."""
    attackers = allied("T", "A2", kind="armour", steps=1, attack=1, morale=1) + allied("N", "A2", kind="motorized-infantry")
    game = board(attackers, italian("I", "A3", defence=3, morale=6), extra=HILL_FORT_SB)
    declare(game, "A3", "T", "N")
    roll(game, 6, "ground support")
    roll(game, 2)
    roll(game, 1)
    assert entry_line(game) == "Assault on A3: net DRM +11, column <= -1: 3/1 (red) (Allied/Italian, OC-CRT.5)."
    roll(game, 1, "morale check, I")
    roll(game, 6, "morale check, T")
    assert game.unit("T").eliminated and game.legal_notation() == ["lose N"]
    assert game.decision is not None and game.decision.prompt.startswith("take 2 more step(s)")
    game.play("lose N")
    assert game.decision is not None and game.decision.prompt.startswith("take 1 more step(s)")
    game.play("lose N")
    assert game.unit("N").steps == 1 and game.decision is not None and game.decision.phase == "allied-assaults"


@pytest.mark.rule("OC-CRT.6")
def test_a_unit_the_excess_eliminates_takes_no_more() -> None:
    """As above, two steps in excess, the stack N (1 step) and M (3): once N has taken one and is gone, only M is
    offered the second."""
    attackers = (
        allied("T", "A2", kind="armour", steps=1, attack=1, morale=1)
        + allied("N", "A2", kind="motorized-infantry", steps=1)
        + allied("M", "A2", kind="motorized-infantry")
    )
    game = board(attackers, italian("I", "A3", defence=3, morale=6), extra=HILL_FORT_SB)
    declare(game, "A3", "T", "N", "M")
    roll(game, 6, "ground support")
    roll(game, 2)
    roll(game, 1)
    # +9, armour 1 against 4 infantry steps -1, chits +3: +11; strength 1 + 2 + 6 = 9 against 9: the 0-1 column, 3/1
    assert entry_line(game).endswith("net DRM +11, column 0-1: 3/1 (red) (Allied/Italian, OC-CRT.5).")
    roll(game, 1, "morale check, I")
    roll(game, 6, "morale check, T")  # 6 + 3 - 1 = 8: 3 steps, two in excess
    assert sorted(game.legal_notation()) == ["lose M", "lose N"]
    game.play("lose N")
    assert game.unit("N").eliminated and game.legal_notation() == ["lose M"]
    game.play("lose M")
    assert game.unit("M").steps == 2


@pytest.mark.rule("OC-CRT.6")
def test_the_leader_takes_its_own_losses_while_it_has_steps() -> None:
    """Turn 1, armour-led 3 against 3 (-3), surprise (-1), a chit of 0: -4; strength 9 + 6 = 15: 0/4.  The leader
    (3 steps, morale 1) rolls 6: 6 + 0 - 1 = 5, 2 steps, both its own."""
    attackers = allied("T", "A2", kind="armour", steps=3, attack=3, morale=1) + allied("N", "A2", kind="motorized-infantry")
    game = board(attackers, italian("I", "A3", steps=3, defence=0, morale=6), turn=1)
    declare(game, "A3", "T", "N")
    no_chits(game)
    assert entry_line(game) == "Assault on A3: net DRM -4, column 14-19: 0/4 (Allied/Italian, OC-CRT.5)."
    roll(game, 1, "morale check, I")
    roll(game, 6, "morale check, T")
    assert game.unit("T").steps == 1 and game.unit("N").steps == 3
    assert game.decision is not None and game.decision.phase == "allied-assaults"


# --- OC-CRT.5: red entries ---------------------------------------------------------------------------------------
def red_board(gun_steps: int) -> Game:
    """+9 of terrain; U (1 step x 1) and the gun G against I (3 x 2 = 6): strength 1 + gun_steps - 6 <= -1."""
    attackers = (
        allied("U", "A2", kind="motorized-infantry", steps=1, attack=1, morale=6)
        + allied("G", "A2", kind="support", steps=2, attack=1, morale=4)
        + allied("H", "B2", kind="support", steps=2, attack=1)
    )
    game = board(attackers, italian("I", "A3", morale=6), extra=HILL_FORT_SB)
    game.unit("G").steps = gun_steps
    return game


@pytest.mark.rule("OC-CRT.5")
def test_a_red_entry_makes_each_support_unit_of_the_stack_check_with_no_modifier() -> None:
    """G has lost a step (no -1 for it): +9, two Italian chits of 2 and 1: +12, the <= -1 column: 3/0, red.  After
    the Italian check and the leader's, G checks with no modifier at all, its step lost included (ruling R-OC-RED); H,
    next to the hex but not in the stack, does not."""
    game = red_board(1)
    declare(game, "A3", "U", "G")
    roll(game, 6, "ground support")
    roll(game, 2)
    roll(game, 1)
    assert entry_line(game) == "Assault on A3: net DRM +12, column <= -1: 3/0 (red) (Allied/Italian, OC-CRT.5)."
    roll(game, 1, "morale check, I")
    roll(game, 1, "morale check, U")
    assert due(game) == "morale check, G (a red entry of the table, morale 4, DRM +0 (no modifier))"
    roll(game, 5)  # 5 against 4: fails by 1
    assert game.unit("G").eliminated and due(game) == ""
    assert not game.unit("H").eliminated


@pytest.mark.rule("OC-CRT.5")
def test_a_black_entry_asks_no_support_unit_to_check() -> None:
    """G at full strength (-1): +9 - 1 = 8, one Italian chit of 1 and the Allied one of 0 ... die 4: +9, the <= -1
    column: 2/1, black."""
    game = red_board(2)
    declare(game, "A3", "U", "G")
    roll(game, 4, "ground support")
    roll(game, 0, "Allied ground support chit")
    roll(game, 1, "Italian ground support chit")
    assert entry_line(game) == "Assault on A3: net DRM +9, column <= -1: 2/1 (Allied/Italian, OC-CRT.5)."
    roll(game, 1, "morale check, I")
    roll(game, 1, "morale check, U")
    assert due(game) == ""


# --- the advance into an emptied hex ---------------------------------------------------------------------------
@pytest.mark.rule("OC-CRT.6")
def test_the_stack_may_advance_into_the_hex_it_emptied() -> None:
    game = first_row_board(1)
    roll(game, 5)  # fails by 8: eliminated
    roll(game, 1, "morale check, T")
    assert game.decision == Decision(Side.ALLIED, "allied-assaults", "advance into A3 with the stack, or stay", "OC-CRT.6")
    assert sorted(game.legal_notation()) == ["advance", "stay"]
    game.play("advance")
    assert game.unit("T").hex == game.unit("N").hex == H("A3")
    assert "Allied: T, N advance into A3." in lines(game)


@pytest.mark.rule("OC-CRT.6")
def test_or_stay() -> None:
    game = first_row_board(1)
    roll(game, 6)
    roll(game, 1, "morale check, T")
    game.play("stay")
    assert game.unit("T").hex == H("A2")


# --- the declaration and its refusals ---------------------------------------------------------------------------------
@pytest.mark.rule("OC-CRT.6")
def test_what_an_assault_may_be_made_of() -> None:
    attackers = (
        allied("U", "A2", kind="motorized-infantry")
        + allied("W", "B2", kind="motorized-infantry")
        + allied("F", "A1", kind="motorized-infantry")
        + allied("G", "A2", kind="support", steps=2, attack=1)
    )
    game = board(attackers, italian("I", "A3"))
    e = refused(game, "target A4")
    assert e.clause == "OC-CRT.5" and "A4 holds no Italian unit to assault" in e.reason
    game.play("target A3")
    assert sorted(a for a in game.legal_notation() if a.startswith("add")) == ["add G", "add U", "add W"]
    e = refused(game, "add F")
    assert e.clause == "OC-CRT.6" and "the stack in A1 is not next to A3" in e.reason
    game.play("add G")
    assert "declare" not in game.legal_notation()
    e = refused(game, "declare")
    assert e.clause == "OC-CRT.6" and "led by one of the stack's combat units" in e.reason
    e = refused(game, "lead G")
    assert e.clause == "OC-CRT.6"
    game.play("add U")
    e = refused(game, "add W")
    assert (e.clause, e.reason) == ("OC-CRT.6", "the attacking stack is the units of one hex")
    e = refused(game, "add U:1")
    assert e.clause == "OC-CRT.5" and "all of its strength" in e.reason
    game.play("declare")
    while due(game):
        roll(game, game.chance_outcomes()[0].value)
    game.play("target A3")
    e = refused(game, "add U")
    assert e.clause == "OC-CRT.6" and "U has assaulted this turn" in e.reason and "R-OC-SEQ" in e.reason
    e = refused(game, "add G")
    assert e.clause == "OC-CRT.6"
