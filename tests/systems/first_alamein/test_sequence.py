"""1st Alamein's game-turn (FA-SEQ.1-3), reinforcements (FA-UNIT.1), the Allied set-up (CA-SC.7), the victory
determinations and the end of the game, and the Game Log and Analysis Form (FA-LOG.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import make_scenario, unit_toml
from tests.systems.first_alamein.kit import H, advance_to, air, game_at, scenario, unit
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import EndPhase, Move, Place
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.players.base import make_player, play_game
from tobruk.record import record_of, replay
from tobruk.systems.first_alamein import FirstAlamein
from tobruk.systems.first_alamein.charts import Charts as AlameinCharts
from tobruk.systems.first_alamein.state import alamein_vars
from tobruk.systems.gazala import GazalaGallop
from tobruk.systems.gazala.combat import Charts as GazalaCharts
from tobruk.tools.form import build, to_markdown

AXIS_TURN = ["axis-reinforcement", "axis-airstrike", "axis-movement", "axis-attacks", "axis-recovery", "axis-supply"]
ALLIED_TURN = ["allied-reinforcement", "allied-movement", "allied-airstrike", "allied-attacks", "allied-recovery", "allied-supply"]
ENTRY = '[zones.west]\nhexes = ["A1", "C1", "E1"]\n[zones.east]\nhexes = ["A8", "C8", "E8"]\n'


def arriving(uid: str, side: str, turn: int, **kw: str) -> str:
    zone = "west" if side == "axis" else "east"
    return unit(uid, side, None, extra=f'arrives = {{ turn = {turn}, zone = "{zone}" }}', **kw)


def everyone(turn2: bool = False) -> str:
    """Both sides with a unit on the map, a turn-1 reinforcement and an air unit, far apart."""
    return (
        arriving("Pz", "axis", 1, type_="armour", factors="3-3-4")
        + arriving("Aus", "allied", 1)
        + unit("SA", "allied", "E6")
        + unit("Ariete", "axis", "A3", nationality="italian")
        + air("LW", "axis", "german")
        + air("DAF", "allied", "british")
        + (arriving("Trento", "axis", 2, nationality="italian") if turn2 else "")
    )


def decided(game: Game, turn: int) -> list[str]:
    """Steps that asked for a decision in ``turn``, answering each with the first placement or end-phase."""
    out: list[str] = []
    while game.decision is not None and game.turn == turn:
        d = game.decision
        if not out or out[-1] != d.phase:
            out.append(d.phase)
        legal = game.legal_orders()
        game.play(next((a for a in legal if isinstance(a, Place)), EndPhase()))
    return out


@pytest.mark.rule("FA-SEQ.2")
def test_the_axis_player_turn_then_the_allied_victory_determination() -> None:
    game = Game(scenario(everyone(), tail=ENTRY))
    steps = [s.key for s in game.steps]
    assert steps[1:8] == [*AXIS_TURN, "allied-victory"]
    assert decided(game, 1)[:3] == ["axis-reinforcement", "axis-airstrike", "axis-movement"]


@pytest.mark.rule("FA-SEQ.3")
def test_the_allied_player_turn_moves_before_its_airstrike_then_the_axis_victory_determination() -> None:
    game = Game(scenario(everyone(), tail=ENTRY))
    steps = [s.key for s in game.steps]
    assert steps[8:] == [*ALLIED_TURN, "axis-victory"]
    seen = decided(game, 1)
    assert seen[seen.index("allied-reinforcement") :] == ["allied-reinforcement", "allied-movement", "allied-airstrike", "allied-attacks"]
    assert game.turn == 2 and [s.key for s in game.steps] == [*AXIS_TURN, "allied-victory", *ALLIED_TURN, "axis-victory"]


@pytest.mark.rule("FA-SEQ.1")
def test_a_unit_may_move_and_attack_in_one_game_turn_but_attack_once() -> None:
    units = unit("A", "axis", "A1", type_="armour", factors="4-4-4") + unit("D", "allied", "A4", factors="1-1-2")
    game = game_at(units, "axis-movement", rows=1, columns=8, dice=ForcedDice([3]))  # 4:1, die 3: R2
    game.play(Move("A", (H("A1"), H("A2"), H("A3"))))
    game.play(EndPhase())
    game.play("attack A4 with A")
    game.play("resolve 1")
    game.play("no-retreat none")
    game.play("retreat-distance 0")
    assert family_unit(game, "A").attacked and family_unit(game, "A").moved
    with pytest.raises(IllegalOrderError) as exc:
        game.play("attack A4 with A")
    assert exc.value.clause == "FA-SEQ.1"


@pytest.mark.rule("FA-UNIT.1")
def test_a_reinforcement_arrives_on_the_turn_of_its_r_number() -> None:
    game = Game(scenario(everyone(turn2=True), rows=5, columns=8, tail=ENTRY))
    assert game.decision is not None and game.decision.phase == "axis-reinforcement"
    assert {str(a) for a in game.legal_orders()} == {"place Pz A1", "place Pz C1", "place Pz E1"}
    with pytest.raises(IllegalOrderError) as exc:
        game.play("place Trento A1")  # R2
    assert exc.value.clause == "FA-UNIT.1" and family_unit(game, "Trento").hex is None
    with pytest.raises(IllegalOrderError) as exc:
        game.play("place Pz B1")  # not an entry hex
    assert exc.value.clause == "FA-UNIT.1"
    with pytest.raises(IllegalOrderError) as exc:
        game.play(EndPhase())  # the units due enter
    assert exc.value.clause == "FA-UNIT.1"
    game.play("place Pz C1")
    assert family_unit(game, "Pz").hex == H("C1") and game.decision is not None and game.decision.phase != "axis-reinforcement"
    advance_to(game, "axis-reinforcement", turn=2)
    assert {str(a) for a in game.legal_orders()} == {"place Trento A1", "place Trento C1", "place Trento E1"}


@pytest.mark.rule("FA-UNIT.1")
def test_three_four_is_a_combat_factor_of_3_and_a_movement_factor_of_4() -> None:
    game = game_at(unit("M", "axis", "A1", type_="armour", factors="3-3-4"), "axis-movement", rows=1, columns=12)
    d = family_defs(game)["M"]
    assert (d.attack, d.defence, d.movement) == (3, 3, 4)
    ends = {m.path[-1].col + 1 for m in game.legal_orders() if isinstance(m, Move)}
    assert max(ends) == 6  # 4 MF and the bonus MF: five hexes


@pytest.mark.rule("FA-UNIT.1")
def test_a_unit_that_cannot_enter_waits() -> None:
    units = arriving("Pz", "axis", 1) + unit("E1", "allied", "A1") + unit("E2", "allied", "C1") + unit("E3", "allied", "E1")
    game = Game(scenario(units, tail=ENTRY))
    assert family_unit(game, "Pz").hex is None and game.step.key != "axis-reinforcement"  # every entry hex is held


def test_the_allied_set_up_one_unit_a_hex() -> None:
    zone = '[zones.setup]\ncolumns = "2-8"\n'
    units = (
        unit("SA", "allied", "C4", extra='setup_zone = "setup"')
        + unit("NZ", "allied", "C6", extra='setup_zone = "setup"')
        + unit("Pz", "axis", "A1")
    )
    game = Game(scenario(units, tail=zone, rules='spent_at_start = ["NZ"]'))
    assert game.decision is not None and game.decision.phase == "allied-setup" and family_unit(game, "NZ").disrupted
    with pytest.raises(IllegalOrderError) as exc:
        game.play("place SA C6")  # NZ is there: one unit a hex
    assert exc.value.clause == "CA-SC.7"
    with pytest.raises(IllegalOrderError) as exc:
        game.play("place SA C1")  # the west edge is outside the zone
    assert exc.value.clause == "CA-SC.7"
    game.play("place SA C5")
    assert family_unit(game, "SA").hex == H("C5") and "place SA C3" not in [str(a) for a in game.legal_orders()]
    game.play(EndPhase())
    assert game.decision is not None and game.decision.phase != "allied-setup"


# --- victory --------------------------------------------------------------------------------------------
VICTORY = (
    '[map.supply]\naxis = ["A1"]\n[map.zones]\nalamein = ["A5"]\nroad-end = ["A8"]\n'
    '[[map.route]]\nkind = "road"\nhexes = ["A1", "A2", "A3"]\n'
)
RULES = 'victory_el_alamein = "alamein"\nvictory_road_hex = "road-end"'


def final(units: str, **kw: object) -> Game:
    game = Game(scenario(units, rows=1, columns=8, turns=1, map_extra=VICTORY, rules=RULES))
    while game.decision is not None:
        game.play(EndPhase())
    return game


def test_the_axis_wins_holding_el_alamein_in_supply() -> None:
    game = final(unit("Pz", "axis", "A5", type_="armour"))  # 2 MF off the road from A3: in supply
    summary = game.system.summary(game)
    assert game.is_over and summary is not None and summary.winner == "axis"


def test_el_alamein_out_of_supply_wins_nothing() -> None:
    # Tommy's ZOC closes A2, the road out of the source: Pz in El Alamein is out of supply
    game = final(unit("Pz", "axis", "A5", type_="armour") + unit("Tommy", "allied", "A3", factors="1-1-2"))
    summary = game.system.summary(game)
    assert summary is not None and summary.winner == "allied" and family_unit(game, "Pz").out_of_supply


def test_the_north_east_road_hex_wins_in_supply_or_not() -> None:
    game = final(unit("Pz", "axis", "A8", type_="armour") + unit("Tommy", "allied", "A4", factors="1-1-2"))
    summary = game.system.summary(game)
    assert summary is not None and summary.winner == "axis" and family_unit(game, "Pz").out_of_supply


def test_otherwise_the_allies_win() -> None:
    game = final(unit("Pz", "axis", "A3", type_="armour"))
    summary = game.system.summary(game)
    assert summary is not None and summary.winner == "allied" and summary.margin == 1


def test_an_unspent_axis_division_eliminates_the_box_it_stands_in() -> None:
    box = '[map.fortifications]\nallied = ["A5"]\n'
    units = unit("Pz", "axis", "A5", type_="armour") + unit("Recce", "axis", "A6", echelon="subdivisional")
    game = Game(scenario(units, rows=1, columns=8, turns=2, map_extra=box))
    advance_to(game, "axis-movement", turn=2)
    assert alamein_vars(game).boxes_eliminated == ("A5",)
    units = unit("Pz", "axis", "A5", type_="armour")
    game = Game(scenario(units, rows=1, columns=8, turns=2, map_extra=box, rules='spent_at_start = ["Pz"]'))
    family_unit(game, "Pz").out_of_supply = True  # it stays spent: a spent division eliminates nothing
    advance_to(game, "axis-movement", turn=2)
    assert family_unit(game, "Pz").disrupted and alamein_vars(game).boxes_eliminated == ()


@pytest.mark.rule("FA-LOG.1")
def test_the_game_log_and_analysis_form(tmp_path: Path) -> None:
    box = '[map.fortifications]\nallied = ["C6"]\n[[map.place]]\nname = "El Alamein box"\nhex = "C6"\n'
    units = unit("Pz", "axis", "A1", type_="armour", factors="3-3-4") + unit("SA", "allied", "C6", factors="2-2-2")
    s = scenario(units, rows=5, columns=8, map_extra=box, rules='first_day = "1942-07-01"')
    game = play_game(Game(s, seed=4), {Side.AXIS: make_player("passive"), Side.ALLIED: make_player("passive")})
    rec = record_of(game, {"axis": "Rommel", "allied": "Auchinleck"})
    log = build(rec, scenario=s, game_number="7", date="1997-03-26")
    text = to_markdown(log)
    assert "- Game No.: 7" in text and "Date and time: 1997-03-26" in text and "Axis Rommel, Allied Auchinleck" in text
    assert "Allied victory" in text and "## Boxes" in text and "El Alamein box (C6)" in text
    assert [t.turn for t in log.turns] == list(range(1, 11))  # ten turns, one day each
    assert "### Turn 3 (date: 3 July 1942)" in text and text.count("- Notes: ") == 10
    assert "Players' analysis" in text


def test_a_gazala_game_and_a_first_alamein_game_interleaved() -> None:
    """Both systems in one process: their charts, steps and variables never meet."""
    gazala = Game(make_scenario(unit_toml("Pz", "axis", "B2") + unit_toml("Tommy", "allied", "D4", type_="infantry")), seed=3)
    alamein = Game(scenario(unit("Pz", "axis", "B2", type_="armour", factors="3-3-4") + unit("SA", "allied", "D4")), seed=3)
    players = {Side.AXIS: make_player("random", 1), Side.ALLIED: make_player("random", 2)}
    from tobruk.players.base import outcomes_for
    from tobruk.view import view

    for _ in range(4000):
        for game in (gazala, alamein):
            d = game.decision
            if d is not None:
                game.play(players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side)))
        if gazala.is_over and alamein.is_over:
            break
    assert gazala.is_over and alamein.is_over
    assert gazala.system.name == "gazala-gallop" and alamein.system.name == "first-alamein"
    assert isinstance(gazala.system, GazalaGallop) and isinstance(alamein.system, FirstAlamein)
    assert isinstance(gazala.system.charts, GazalaCharts) and isinstance(alamein.system.charts, AlameinCharts)  # each its own
    assert any(e.startswith("Weather") for e in gazala.state.log)
    assert not any(e.startswith("Weather") for e in alamein.state.log)
    for game in (gazala, alamein):  # each replays alone to the same end
        assert replay(record_of(game), scenario=game.scenario).state_hash() == game.state_hash()
