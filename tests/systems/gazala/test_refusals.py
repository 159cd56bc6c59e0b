"""What a refused order says, word for word: the clause and the one-line reason a player reads.

Each case arranges a position (the Gazala scenario or a small inline map), plays one order the rules forbid and
checks the clause, the reason and that nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import at_phase, attack_game, movement_game, unit_toml
from tests.systems.gazala.test_air import game_at
from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action as Order
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.loading.scenario import load_scenario
from tobruk.mechanics.actions import Airstrike, Attack, EndPhase, Intercept, Move, Place, Resolve
from tobruk.systems.gazala import air as air
from tobruk.systems.gazala.actions import Activate, Airlift, Convoy, Gallop, Weather
from tobruk.systems.gazala.setup import stacking_problem
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse


def gazala_at(phase: str) -> Game:
    game: Game = at_phase(Game(load_scenario("gazala-gallop")), phase)
    return game


def duel(**kw: object) -> Game:
    game: Game = attack_game(
        unit_toml("Att", "axis", "B3", factors="6-1-4") + unit_toml("Def", "allied", "B4", factors="1-2-2") + str(kw.get("more", ""))
    )
    return game


def axis_moving() -> Game:
    return gazala_at("axis-movement")


def moved_once() -> Game:
    game = movement_game(unit_toml("Att", "axis", "B3") + unit_toml("Far", "allied", "B8"))
    game.play(Move("Att", (H("B2"),)))
    return game


def with_two_activations_used() -> Game:
    game = gazala_at("allied-movement")
    game.play(Activate("1SA"))
    game.play(Activate("50Div"))
    return game


def gallop_called() -> Game:
    game = movement_game(unit_toml("SA", "allied", "B3", type_="infantry"), '[map.zones]\n"gazala-line" = ["B2"]\n', side="allied")
    game.play(Gallop())
    return game


def declared_then_outnumbered() -> Game:
    game = attack_game(
        unit_toml("Att", "axis", "B3", factors="1-1-4")
        + unit_toml("Def", "allied", "B4", factors="1-4-2")
        + unit_toml("Far", "allied", "C8", factors="1-4-2")
    )
    game.play(Attack((H("B4"),), ("Att",)))  # 1 to 4: 1:4
    game.unit("Far").hex = H("B4")  # a second defender there: 1 to 8
    return game


def fair_weather_movement() -> Game:
    return game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-movement", [])


def sandstorm_airstrike() -> Game:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-movement", [])
    game.vars.weather = "sandstorm"
    return game


def waterlogged() -> Game:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-movement", [])
    game.vars.weather = "rainstorm"
    game.vars.air_ok = {"axis": False, "allied": True}
    return game


def crowded_after_movement() -> Game:
    units = "".join(unit_toml(f"U{i}", "axis", "A1", echelon="subdivisional") for i in range(4))
    game = movement_game(units + unit_toml("T", "allied", "C8"))
    game.play(EndPhase())  # four units in A1: the owner must thin the stack (GG-XII.B)
    return game


def axis_recovery_with_a_unit_in_supply() -> Game:
    game = attack_game(
        unit_toml("Near", "axis", "A2") + unit_toml("Far", "axis", "C8") + unit_toml("T", "allied", "A8"), '[map.supply]\naxis = ["A1"]\n'
    )
    while game.phase.key != "axis-recovery":
        game.play(EndPhase())
    return game


def declared() -> Game:
    game = duel()
    game.play(Attack((H("B4"),), ("Att",)))
    return game


def mission_flying() -> Game:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-airstrike", [])
    game.play(Airstrike(H("B4")))  # the DAF may intercept: it must answer first
    return game


def flown_already() -> Game:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-movement", [])
    gazala_vars(game).air = gazala_vars(game).air | {"LW": (1, 0)}  # (the turn it last flew, the last turn it is knocked out)
    return game


def knocked_out() -> Game:
    game = game_at(unit_toml("Tommy", "allied", "B4", type_="infantry"), "axis-movement", [])
    gazala_vars(game).air = gazala_vars(game).air | {"LW": (0, 2)}
    return game


CASES: list[tuple[str, Callable[[], Game], Order, str, str]] = [
    ("end-phase with an attack declared", declared, EndPhase(), "GG-XIV.C.1", "resolve or cancel the declared attacks (1) first"),
    (
        "anything but the interception answer",
        mission_flying,
        EndPhase(),
        "GG-X.B.3",
        "answer the air mission first: intercept or no-intercept, not 'end-phase'",
    ),
    (
        "air unit flown already",
        flown_already,
        Airstrike(H("B4")),
        "GG-X.A",
        "'airstrike B4' is not possible now: LW has flown already this game-turn",
    ),
    (
        "air unit knocked out",
        knocked_out,
        Airstrike(H("B4")),
        "GG-X.C",
        "'airstrike B4' is not possible now: LW is knocked out until the end of turn 2",
    ),
    (
        "end-phase over the stacking limit",
        crowded_after_movement,
        EndPhase(),
        "GG-XII.B",
        "first eliminate units over the stacking limit; 'end-phase' does not",
    ),
    (
        "convoy to a unit in supply",
        axis_recovery_with_a_unit_in_supply,
        Convoy("Near"),
        "GG-XV.A.4",
        "no truck convoy can go to Near now (convoys left: 4; only units out of supply that are divisions, independent "
        "brigades or their brigades)",
    ),
    (
        "early reinforcement",
        lambda: gazala_at("allied-movement"),
        Place("1ArmdBde", H("G18")),
        "GG-VII.B",
        "1ArmdBde cannot enter in G18; it arrives on turn 7 in allied-east-sources",
    ),
    (
        "not a reinforcement",
        lambda: gazala_at("axis-movement"),
        Place("15Pz", H("G3")),
        "GG-VII.B",
        "15Pz cannot enter in G3; it arrives never (it is not a reinforcement)",
    ),
    (
        "an order of another phase",
        lambda: gazala_at("axis-movement"),
        Weather(1, 2),
        "GG-VI.B",
        "'weather 1 2' is not an order of the axis-movement phase; Axis: operational movement",
    ),
    (
        "placing the enemy's unit",
        lambda: Game(load_scenario("gazala-gallop")),
        Place("1SA", H("G3")),
        "GG-V.A.1",
        "'1SA' is not one of your units",
    ),
    ("moving the enemy's unit", axis_moving, Move("1SA", (H("G3"),)), "GG-XIII.A.1", "'1SA' is not one of your units"),
    ("moving the air unit", axis_moving, Move("Luftwaffe", (H("G3"),)), "GG-XIII.A.1", "Luftwaffe is not a ground unit on the map"),
    ("moving twice", moved_once, Move("Att", (H("B1"),)), "GG-XIII.A.1", "Att has already moved this turn"),
    ("weather numbers", lambda: _weather(), Weather(3, 3), "GG-VIII.0", "the sandstorm and rainstorm numbers must differ"),
    ("no attackers", duel, Attack((H("B4"),), ()), "GG-XIV.A.4", "an attack needs at least one attacking unit"),
    ("named twice", duel, Attack((H("B4"),), ("Att", "Att")), "GG-XIV.A.4", "a unit or hex is named twice"),
    ("no such attack", duel, Resolve(7), "GG-XIV.C.1", "there is no declared, unresolved attack number 7"),
    ("now below 1:4", declared_then_outnumbered, Resolve(1), "GG-XIV.B.4", "this attack is now below 1:4: cancel it"),
    (
        "due attack",
        duel,
        EndPhase(),
        "GG-XIV.A.2",
        "these hexes hold undisrupted (or face-down) enemy units next to yours and must be attacked: B4",
    ),
    (
        "no activations",
        with_two_activations_used,
        Activate("1FF"),
        "GG-V.A.4",
        "no activations left this turn (2, plus 1 per Allied unit lost in the Axis player-turn)",
    ),
    ("activate a dummy", lambda: gazala_at("allied-movement"), Activate("Dummy1"), "GG-V.A.2", "'Dummy1' is not an Allied ground unit"),
    ("activate the air unit", lambda: gazala_at("allied-movement"), Activate("DAF"), "GG-V.A.2", "'DAF' is not an Allied ground unit"),
    ("activate an Axis unit", lambda: gazala_at("allied-movement"), Activate("15Pz"), "GG-V.A.2", "'15Pz' is not an Allied ground unit"),
    ("activate twice", with_two_activations_used, Activate("1SA"), "GG-V.A.2", "1SA is already active"),
    ("gallop twice", gallop_called, Gallop(), "GG-XIII.E", "the Gazala Gallop has already been called"),
    (
        "gallop far from the line",
        lambda: movement_game(unit_toml("SA", "allied", "B5", type_="infantry"), '[map.zones]\n"gazala-line" = ["B2"]\n', side="allied"),
        Gallop(),
        "GG-XIII.E",
        "no Allied units are on or within 1 hex of the Gazala Line",
    ),
    ("airstrike out of its phase", fair_weather_movement, Airstrike(H("B4")), "GG-X.A", "'airstrike B4' is not possible now"),
    ("airlift out of its phase", fair_weather_movement, Airlift(H("B4")), "GG-X.A", "'airlift B4' is not possible now"),
    ("interception out of its phase", fair_weather_movement, Intercept(), "GG-X.A", "'intercept' is not possible now"),
    (
        "air in a sandstorm",
        sandstorm_airstrike,
        Airstrike(H("B4")),
        "GG-VIII.A.1",
        "'airstrike B4' is not possible now: no air units in a sandstorm",
    ),
    (
        "waterlogged",
        waterlogged,
        Airstrike(H("B4")),
        "GG-VIII.B.1",
        "'airstrike B4' is not possible now: the airfields are waterlogged this player-turn",
    ),
]


def _weather() -> Game:
    game = Game(load_scenario("gazala-gallop"))
    while game.decision is not None and game.decision.phase != "weather":
        game.play(EndPhase())
    return game


@pytest.mark.parametrize(("name", "position", "order", "clause", "reason"), CASES, ids=[c[0] for c in CASES])
def test_the_refusal_names_the_rule_and_says_why(name: str, position: Callable[[], Game], order: Order, clause: str, reason: str) -> None:
    game = position()
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as err:
        game.play(order)
    assert (err.value.clause, err.value.reason) == (clause, reason)
    assert game.state_hash() == before


@pytest.mark.rule("GG-XII.A.1")
@pytest.mark.rule("GG-XII.A.2")
def test_stacking_problems_say_which_limit() -> None:
    units = (
        "".join(unit_toml(f"D{i}", "axis", "A1") for i in range(3))
        + "".join(unit_toml(f"S{i}", "axis", "A2", echelon="subdivisional") for i in range(4))
        + unit_toml("T", "allied", "A5")
    )
    game = movement_game(units)

    def refusal(uids: list[str]) -> tuple[str, str] | None:
        problem = stacking_problem(game, uids)
        return None if problem is None else (problem.clause, problem.reason)

    assert refusal(["D0", "T"]) == ("GG-XII.A.1", "only one side's units may be in a hex")
    assert refusal(["S0", "S1", "S2", "S3"]) == ("GG-XII.A.2", "at most 3 units in a hex")
    assert refusal(["D0", "D1", "D2"]) == ("GG-XII.A.2", "at most 2 division-level units in a hex")
    assert stacking_problem(game, ["D0", "D1", "S0"]) is None
    assert Side.AXIS is game.defs["D0"].side


def test_a_placement_outside_the_set_up_names_the_zone() -> None:
    game = Game(load_scenario("gazala-gallop"))
    with pytest.raises(IllegalOrderError) as err:
        game.play(Place("15Pz", H("C13")))
    assert (err.value.clause, err.value.reason) == ("GG-V.A.1", "C13 is outside the set-up zone 'axis-free-setup'")
