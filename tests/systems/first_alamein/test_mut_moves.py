"""1st Alamein's operational movement and reinforcements, clause by clause: who may move (GG-XIII.A.1), the
refusals a player reads word for word, a move given by its destination alone, the box that stops the Axis
(FA-TER.2) named before the rest of the path, the escarpments of the Qattara Depression (GG-XI.D as ruled), the
move's log line, control of the villages passed through (GG-XVI), and who may enter as a reinforcement
(FA-UNIT.1).  The boards are one row of hexes, A1 to A12, as in tests/systems/first_alamein/test_movement.py.
"""

from __future__ import annotations

import pytest

from tests.systems.first_alamein.kit import Grid, H, air, game_at, unit
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.mechanics.actions import Move
from tobruk.mechanics.counters import family_unit
from tobruk.systems.first_alamein.state import alamein_vars

ROW: Grid = {"rows": 1, "columns": 12}


def refused(game: Game, order: str) -> IllegalOrderError:
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as exc:
        game.play(order)
    assert game.state_hash() == before  # a refusal changes nothing
    return exc.value


def reach(game: Game, uid: str) -> set[str]:
    return {m.path[-1].label for m in game.legal_orders() if isinstance(m, Move) and m.unit == uid}


def mover(hex_: str = "A1", *, factors: str = "2-2-2", type_: str = "infantry", side: str = "axis") -> str:
    return unit("M", side, hex_, factors=factors, type_=type_)


# --- who may move ---------------------------------------------------------------------------------------
@pytest.mark.rule("GG-XIII.A.1")
def test_only_your_own_ground_units_on_the_map_move() -> None:
    late = unit("R", "axis", None, extra='arrives = { turn = 5, zone = "west" }')
    units = mover() + unit("E", "allied", "A12", factors="1-1-2") + air("LW", "axis", "german") + late
    game = game_at(units, "axis-movement", map_extra='[map.zones]\nwest = ["A1"]\n', **ROW)
    e = refused(game, "move E A12-A11")
    assert (e.clause, e.reason) == ("GG-XIII.A.1", "'E' is not one of your units")
    e = refused(game, "move LW A1-A2")
    assert (e.clause, e.reason) == ("GG-XIII.A.1", "LW is not a ground unit on the map")
    e = refused(game, "move R A1-A2")  # not arrived yet
    assert (e.clause, e.reason) == ("GG-XIII.A.1", "R is not a ground unit on the map")


@pytest.mark.rule("GG-XIII.A.2")
def test_no_truck_convoys() -> None:
    """The FA charts have no truck convoys (docs/rulings.md: GG-XV.A.4 not taken): a unit moves by itself."""
    game = game_at(mover(), "axis-movement", **ROW)
    e = refused(game, "move M A1-A2 by-trucks")
    assert (e.clause, e.reason) == ("GG-XIII.A.2", "1st Alamein has no truck convoys: a unit moves by itself")


# --- a move given by its destination ----------------------------------------------------------------------
@pytest.mark.rule("GG-XIII.A.2")
def test_a_destination_alone_takes_a_route_there() -> None:
    game = game_at(mover(), "axis-movement", **ROW)
    game.play("move M A4")  # 2 MF and the bonus MF: three hexes, the farthest it can go
    assert family_unit(game, "M").hex == H("A4")
    assert game.state.log[-1] == "Axis: M moves A1-A2-A3-A4."


@pytest.mark.rule("GG-XIII.A.2")
def test_a_destination_out_of_reach_is_refused() -> None:
    game = game_at(mover(), "axis-movement", **ROW)
    e = refused(game, "move M A5")  # four hexes away: one more than 2 MF and the bonus; the direct step is refused
    assert (e.clause, e.reason) == ("GG-XIII.A.2", "A1 and A5 are not adjacent")
    e = refused(game, "move M A1-A2-A3-A4-A5")
    assert (e.clause, e.reason) == ("GG-XIII.A.2", "not enough movement to enter A5 (0 MF left of 3)")


# --- FA-TER.2: the box stops the Axis -----------------------------------------------------------------------
BOX_A2 = '[map.fortifications]\nallied = ["A2"]\n'


@pytest.mark.rule("FA-TER.2")
def test_a_path_on_through_the_first_hex_entered_stops_at_the_box() -> None:
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra=BOX_A2, **ROW)
    e = refused(game, "move M A1-A2-A3")
    assert (e.clause, e.reason) == ("FA-TER.2", "M must stop on entering the box in A2")
    game.play("move M A1-A2")
    assert family_unit(game, "M").hex == H("A2")


@pytest.mark.rule("FA-TER.2")
@pytest.mark.rule("GG-XI.D")
def test_the_first_rule_broken_on_the_way_into_a_box_is_named() -> None:
    """The step into the box in A3 crosses an impassable escarpment: that is the rule the path breaks first."""
    side = '[map.hexsides]\n"impassable-escarpment" = [{ side = "A2|A3", high = "A2" }]\n'
    game = game_at(
        mover(factors="3-3-4", type_="armour"), "axis-movement", map_extra='[map.fortifications]\nallied = ["A3"]\n' + side, **ROW
    )
    e = refused(game, "move M A1-A2-A3-A4")
    assert (e.clause, e.reason) == ("GG-XI.D", "the impassable escarpment A2|A3 is impassable off road and track")


# --- escarpments ----------------------------------------------------------------------------------------
def test_an_escarpment_costs_nothing_to_climb() -> None:
    """docs/rulings.md: GG-XI.C (escarpments) is not taken, so climbing one costs no more than 1 MF a hex."""
    side = '[map.hexsides]\n"escarpment" = [{ side = "A2|A3", high = "A3" }]\n'
    game = game_at(mover(), "axis-movement", map_extra=side, **ROW)
    assert reach(game, "M") == {"A2", "A3", "A4"}  # 2 MF and the bonus, as on the flat


# --- the move's log line, read on the Game Log form (FA-LOG.1) ---------------------------------------------
@pytest.mark.rule("GG-XV.B")
@pytest.mark.rule("FA-LOG.1")
def test_the_log_says_the_path_and_that_an_unsupplied_unit_is_spent() -> None:
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", **ROW)
    family_unit(game, "M").out_of_supply = True
    game.play("move M A1-A2-A3-A4")  # 3 MF of 4: more than half, out of supply: spent
    last = game.state.entries[-1]
    assert last.text == "Axis: M moves A1-A2-A3-A4; out of supply and over half its MF: spent."
    assert last.kind == "move"  # the form lists it among the side's moves
    game = game_at(mover(factors="3-3-4", type_="armour"), "axis-movement", **ROW)
    family_unit(game, "M").out_of_supply = True
    game.play("move M A1-A2-A3")  # 2 MF of 4: exactly half, not more
    assert game.state.log[-1] == "Axis: M moves A1-A2-A3." and not family_unit(game, "M").disrupted


@pytest.mark.rule("GG-XV.B")
def test_half_of_an_odd_movement_factor() -> None:
    """3 MF: half is 1 1/2, so 1 MF moved keeps an unsupplied unit fresh and 2 MF spend it."""
    for path, spent in (("A1-A2", False), ("A1-A2-A3", True)):
        game = game_at(mover(factors="2-2-3"), "axis-movement", **ROW)
        family_unit(game, "M").out_of_supply = True
        game.play(f"move M {path}")
        assert family_unit(game, "M").disrupted is spent


# --- GG-XVI: control of the villages a unit moves through ---------------------------------------------------
@pytest.mark.rule("GG-XVI")
def test_a_unit_takes_control_of_the_village_it_moves_through() -> None:
    game = game_at(mover(side="allied"), "allied-movement", map_extra='[map.terrain]\nvillage = ["A2"]\n', **ROW)
    assert alamein_vars(game).villages == {"A2": "axis"}  # empty and outside any Allied set-up zone: the Axis's at the start
    game.play("move M A1-A2-A3")
    assert alamein_vars(game).villages == {"A2": "allied"}
    assert game.state.log[-2:] == ["Allied takes control of A2.", "Allied: M moves A1-A2-A3."]


# --- FA-UNIT.1: reinforcements --------------------------------------------------------------------------
ENTRY = '[zones.entry]\nhexes = ["A1", "A2"]\n'


def arriving(turn: int = 1) -> str:
    return unit("R", "axis", None, factors="1-1-2", extra=f'arrives = {{ turn = {turn}, zone = "entry" }}')


@pytest.mark.rule("FA-UNIT.1")
def test_a_reinforcement_enters_once() -> None:
    second = unit("S", "axis", None, factors="1-1-2", extra='arrives = { turn = 1, zone = "entry" }')
    game = game_at(unit("M", "axis", "A6") + arriving() + second, "axis-reinforcement", tail=ENTRY, **ROW)
    e = refused(game, "place M A1")
    assert (e.clause, e.reason) == ("FA-UNIT.1", "M is not a reinforcement")
    game.play("place R A1")
    e = refused(game, "place R A2")  # S is still due: the step goes on
    assert (e.clause, e.reason) == ("FA-UNIT.1", "R has arrived already")
