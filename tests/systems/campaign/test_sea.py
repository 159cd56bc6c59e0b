"""Sea movement through the game (CA-S.3 with CA-S.1, in CA-Q.1-2 step 1): one unit a player-turn from a coastal hex
to a port its side controls, the sinking die a chance node whose odds follow who holds Tobruk, the unit sunk or
arriving disrupted."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.systems.campaign import sea
from tobruk.systems.campaign.actions import Sea
from tobruk.systems.campaign.state import campaign_vars, counter_defs

from .kit import H, arrange, lines_since, new_game, past_set_up, to_step, unit

# Gazala (II May 42), the Axis player-turn's first step.  On the centre sheet Derna (C30) is the Axis's port and
# Tobruk (J39), Bardia (M47) and Sollum (O48) the Allies'; E32 and E33 are coastal hexes west of Gazala.
ALLIED_TOBRUK = {"2SADiv": "J39", "50Div": "L35"}
AXIS_TOBRUK = {"21Pz": "J39", "50Div": "L35"}


def at_step_1(placed: dict[str, str], **statuses: tuple[str, ...]) -> Game:
    game = arrange(past_set_up(new_game("na-gazala")), placed, **statuses)
    assert game.step.key == "axis-reinforcements" and game.decision is not None
    return game


def refused(game: Game, order: str) -> IllegalOrderError:
    with pytest.raises(IllegalOrderError) as e:
        game.play(order)
    return e.value


def sea_orders(game: Game) -> set[str]:
    return {str(a) for a in game.legal_orders() if isinstance(a, Sea)}


def sinking(game: Game, order: str) -> dict[str, Fraction]:
    """Give the order with chance explicit: the chance node's outcomes as label -> probability (and their faces)."""
    game.explicit_chance = True
    game.play(order)
    assert game.chance is not None and game.decision is None
    shares: dict[str, Fraction] = {}
    for o in game.chance_outcomes():
        shares[o.label] = shares.get(o.label, Fraction(0)) + o.probability
    return shares


@pytest.mark.rule("CA-S.3")
def test_one_unit_a_player_turn_moves_by_sea_and_a_second_is_refused() -> None:
    game = at_step_1({"90Lt": "E33", "Trieste": "E32", **ALLIED_TOBRUK})
    assert {"sea 90Lt C30", "sea Trieste C30"} <= sea_orders(game)
    assert not {o for o in sea_orders(game) if o.endswith(("J39", "M47", "O48"))}  # the Allies' ports
    game.play("sea 90Lt C30")
    assert unit(game, "90Lt").hex in (H("C30"), None)  # arrived or sunk, by the dice
    assert game.step.key == "axis-reinforcements" and not sea_orders(game)
    e = refused(game, "sea Trieste C30")
    assert e.clause == "CA-S.3" and "one unit a player-turn" in e.reason
    # the Allies' own player-turn: one of theirs may go
    to_step(game, "allied-reinforcements")
    arrange(game, {"1SADiv": "I34", "21Pz": "E33"})
    assert "sea 1SADiv J39" in sea_orders(game)


@pytest.mark.rule("CA-S.3")
def test_the_next_player_turn_of_the_side_gets_its_sea_move_again() -> None:
    game = at_step_1({"90Lt": "E33", "Trieste": "E32", **ALLIED_TOBRUK})
    game.play("sea 90Lt C30")
    game.play("end-phase")
    to_step(game, "allied-reinforcements")
    to_step(game, "axis-reinforcements")
    assert "sea Trieste C30" in sea_orders(game)


@pytest.mark.rule("CA-S.3")
@pytest.mark.parametrize(("placed", "sunk"), [(AXIS_TOBRUK, Fraction(1, 6)), (ALLIED_TOBRUK, Fraction(3, 6))])
def test_the_sinking_die_is_a_chance_node_of_one_in_six_with_tobruk_three_in_six_without(placed: dict[str, str], sunk: Fraction) -> None:
    # "The player controlling Tobruk controls the Med": with Tobruk, 1/6; without, 3/6
    game = at_step_1({"90Lt": "E33", **placed})
    shares = sinking(game, "sea 90Lt C30")
    assert shares == {"sunk": sunk, "arrives": 1 - sunk}
    faces = {o.value for o in game.chance_outcomes() if o.label == "sunk"}
    assert faces == ({1} if sunk == Fraction(1, 6) else {1, 2, 3})  # one die: a 1, or a 1-3


@pytest.mark.rule("CA-S.3")
@pytest.mark.rule("CA-R.2")
def test_a_sunk_unit_is_eliminated_and_may_come_back_as_a_replacement() -> None:
    game = at_step_1({"90Lt": "E33", **ALLIED_TOBRUK})
    sinking(game, "sea 90Lt C30")
    n = len(game.state.entries)
    game.play_chance([o.label for o in game.chance_outcomes()].index("sunk"))
    c = unit(game, "90Lt")
    assert c.eliminated and c.hex is None
    assert lines_since(game, n) == ["Axis: 90Lt moves by sea E33-C30, rolled 1: sunk and eliminated (CA-S.3)."]
    roll = game.dice.log[-1]
    assert roll.value == 1 and "sinking die (CA-S.3)" in roll.purpose and "90Lt" in roll.purpose
    game.explicit_chance = False
    game.play("end-phase")
    to_step(game, "axis-reinforcements")
    assert any(str(a).startswith("enter 90Lt ") for a in game.legal_orders())


@pytest.mark.rule("CA-S.1")
@pytest.mark.rule("CA-S.3")
def test_a_unit_that_is_not_sunk_arrives_disrupted_without_a_newly_disrupted_marker() -> None:
    game = at_step_1({"90Lt": "E33", **AXIS_TOBRUK})
    sinking(game, "sea 90Lt C30")
    game.play_chance([o.value for o in game.chance_outcomes()].index(2))  # a 2 does not sink with Tobruk held
    c = unit(game, "90Lt")
    assert c.hex == H("C30") and c.disrupted and not c.newly_disrupted and not c.eliminated
    game.explicit_chance = False
    game.play("end-phase")
    to_step(game, "axis-movement")
    assert not [a for a in game.legal_orders() if getattr(a, "unit", None) == "90Lt" and str(a).startswith("move ")]


@pytest.mark.rule("CA-S.3")
def test_in_play_the_dice_resolve_the_node_and_record_the_roll_with_its_purpose() -> None:
    game = at_step_1({"90Lt": "E33", **ALLIED_TOBRUK})
    rolls = len(game.dice.log)
    game.play("sea 90Lt C30")
    assert len(game.dice.log) == rolls + 1
    roll = game.dice.log[-1]
    assert roll.purpose == "sea move of 90Lt to C30, the sea enemy: sinking die (CA-S.3)"
    c = unit(game, "90Lt")
    assert (c.eliminated, c.hex) == ((True, None) if roll.value <= 3 else (False, H("C30")))


@pytest.mark.rule("CA-S.3")
@pytest.mark.rule("CA-G.15")
@pytest.mark.rule("CA-K.1")
def test_refusals_name_their_clause() -> None:
    game = at_step_1({"90Lt": "E33", "Trieste": "F35", "15Pz": "E32", **ALLIED_TOBRUK}, disrupted=("15Pz",))
    assert {o for o in sea_orders(game) if o.startswith(("sea Trieste", "sea 15Pz"))} == set()
    e = refused(game, "sea 15Pz C30")
    assert e.clause == "CA-G.15" and "disrupted" in e.reason
    e = refused(game, "sea Trieste C30")
    assert e.clause == "CA-S.3" and "not on a coastal hex" in e.reason
    e = refused(game, "sea 90Lt J39")
    assert e.clause == "CA-S.3" and "not a port the Axis side controls" in e.reason
    e = refused(game, "sea 90Lt E32")  # a coastal hex, not a port
    assert e.clause == "CA-S.3"
    e = refused(game, "sea 50Div C30")
    assert e.clause == "CA-S.3" and "not one of your units" in e.reason
    # Derna full: two divisions already there (CA-K.1: at most 2 division-level units)
    game = at_step_1({"90Lt": "E33", "Trieste": "C30", "Ariete": "C30", **ALLIED_TOBRUK})
    assert "sea 90Lt C30" not in sea_orders(game)
    e = refused(game, "sea 90Lt C30")
    assert e.clause == "CA-K.1"
    assert not campaign_vars(game).sailed  # a refusal changes nothing


@pytest.mark.rule("CA-S.3")
def test_a_unit_passing_through_a_port_takes_control_of_it() -> None:
    game = to_step(new_game("na-gazala"), "axis-movement")
    arrange(game, {"90Lt": "C28", "50Div": "O38"})
    assert campaign_vars(game).ports["C30"] == "axis"
    game = to_step(new_game("na-gazala"), "allied-movement")
    arrange(game, {"1SADiv": "D31", "21Pz": "O38"})
    n = len(game.state.entries)
    game.play("move 1SADiv C29")  # along the coast through Derna
    assert "Allied takes control of Derna (C30; CA-S.3)." in lines_since(game, n)
    assert campaign_vars(game).ports["C30"] == "allied"
    assert sea.ports(game, Side.ALLIED) >= {game.scenario.map.index[H("C30")]}


@pytest.mark.rule("CA-S.3")
@pytest.mark.rule("CA-F.4")
def test_the_dummy_never_sails_and_a_face_down_unit_that_arrives_is_turned_up() -> None:
    game = to_step(new_game("na-crusader"), "allied-reinforcements")
    held = [uid for uid in game.units_of(Side.ALLIED) if unit(game, uid).hidden]
    dummy = next(uid for uid in held if counter_defs(game)[uid].type == "dummy")
    garrison = next(uid for uid in held if uid != dummy)
    unit(game, dummy).hex = H("K40")  # a coastal hex beside Tobruk, the port
    unit(game, garrison).hex = H("K41")
    game.advance()
    assert not [a for a in game.legal_orders() if isinstance(a, Sea) and a.unit == dummy]
    assert refused(game, f"sea {dummy} J39").clause == "CA-F.4"
    assert f"sea {garrison} J39" in sea_orders(game)
    game.explicit_chance = True
    n = len(game.state.entries)
    game.play(f"sea {garrison} J39")
    assert game.chance is not None and garrison not in game.chance.purpose(game)  # both sides read the roll
    game.play_chance([o.label for o in game.chance_outcomes()].index("arrives"))
    c = unit(game, garrison)
    assert c.hex == H("J39") and c.disrupted and not c.hidden
    axis = game.log_for(Side.AXIS)
    assert any(line.startswith("Allied: a face-down unit moves by sea K41-J39") for line in axis)
    assert lines_since(game, n)[-1] == f"The face-down counter in J39 is revealed (disrupted): {garrison}."


@pytest.mark.rule("CA-S.3")
@pytest.mark.parametrize(("allied", "holder"), [("H30", "axis"), ("G30", None), ("F31", "allied")])
def test_at_the_start_a_port_belongs_to_the_side_strictly_nearer_and_a_tie_to_nobody(allied: str, holder: str | None) -> None:
    """The record of control made at the start (docs/rulings.md, CA-S.3): Derna (C30) is 4 hexes from 90 Lt at E33,
    and 5, 4 or 3 from 1st South African Division."""
    assert H("C30").distance(H("E33")) == 4 and H("C30").distance(H(allied)) == {"H30": 5, "G30": 4, "F31": 3}[allied]
    game = at_step_1({"90Lt": "E33", "1SADiv": allied})
    sea.start(game)  # (the system's set-up, made again on the arranged position)
    assert campaign_vars(game).ports.get("C30") == holder
    if holder == "axis":
        assert "sea 90Lt C30" in sea_orders(game)
    else:
        assert "sea 90Lt C30" not in sea_orders(game)
        assert refused(game, "sea 90Lt C30").clause == "CA-S.3"


@pytest.mark.rule("CA-S.3")
def test_the_start_record_of_control_is_made_where_the_set_up_leaves_the_units() -> None:
    """1st Alamein: the Axis enters in its set-up (on column 53), so before it every place is nearer an Allied unit;
    the record the game starts with is made once both sides are set up, each place to the side strictly nearer."""
    game = new_game("na-1st-alamein")
    assert game.step.key == "allied-set-up" and campaign_vars(game).ports["J39"] == "allied"
    past_set_up(game)
    record = campaign_vars(game).ports
    for place in sea.places(game):
        near = {side: min(place.distance(h) for uid in game.units_of(side) if (h := unit(game, uid).hex) is not None) for side in Side}
        a, b = near[Side.AXIS], near[Side.ALLIED]
        assert record.get(place.label) == ("axis" if a < b else "allied" if b < a else None), place.label
    assert record["J39"] == "axis"  # Tobruk, taken on 21 June 1942: the Axis holds the sea (CA-S.3)
