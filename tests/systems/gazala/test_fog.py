"""Fog of war, judged on what a side receives: two games that differ only in where the face-down counters
are (the same units in other hexes, a dummy swapped with a unit, other pool contents) must give the
other side the same view, byte for byte (units, ids, order, log, dice, legal orders when it decides, and
so the size), except for what the rules reveal, which is then checked exactly."""

from __future__ import annotations

import json
import random

import pytest

from tests.conftest import at_phase
from tobruk.board.hexes import Hex
from tobruk.engine.actions import Action as Order
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.information import observed
from tobruk.engine.objectives import threats
from tobruk.engine.offers import offers
from tobruk.engine.sides import Side
from tobruk.loading.scenario import Scenario
from tobruk.mechanics.actions import EndPhase
from tobruk.mechanics.counters import family_defs, family_unit
from tobruk.players.base import outcomes_for
from tobruk.players.simple import RandomPlayer
from tobruk.record import record_of, replay
from tobruk.systems.gazala import hidden as hd
from tobruk.systems.gazala.actions import Weather
from tobruk.systems.gazala.state import gazala_vars
from tobruk.view import view

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED

# the same counters per hex, other identities: a dummy alone in a box against a brigade alone in a box
DUMMY_IN_E6 = ["place Dummy1 E6", "place Dummy2 B5"]  # 1ATB stays in its printed box, G8
UNIT_IN_E6 = ["place 1ATB E6", "place Dummy1 G8", "place Dummy2 B5"]


def seen(game: Game, side: Side = AXIS) -> str:
    """What a side's client is sent, as bytes would be: its view, the layers the system draws over the map for it, the
    objectives the enemy could reach next, and
    its legal actions as the page is sent them (by id, with gestures and fields, the attacks with the units the rules
    let join each target) when the decision is its own."""
    d = game.decision
    sent = {
        "view": view(game, side),
        "overlays": [o.data() for o in game.system.overlays(game, side)],
        "threats": [t.data() for t in threats(game, side)],
        "legal": offers(game) if d is not None and d.side is side else None,
    }
    return json.dumps(sent, separators=(",", ":"))


def twins(gazala: Scenario, a: list[str], b: list[str], seed: int = 5) -> tuple[Game, Game]:
    """Two nonhistorical games whose Allied set-ups differ only in the face-down placements, set up."""
    games = []
    for placements in (a, b):
        game = Game(gazala, seed=seed, options=["nonhistorical"])
        for text in placements:
            game.play(text)
        game.play("end-phase")
        games.append(game)
    return games[0], games[1]


def play_both(games: tuple[Game, Game], order: Order | str) -> None:
    for g in games:
        g.play(order)
    assert seen(games[0]) == seen(games[1])


def advance_both(games: tuple[Game, Game], key: str) -> None:
    """End phases in both games until phase ``key``, the Axis views equal at every step."""
    for _ in range(200):
        assert seen(games[0]) == seen(games[1])
        d = games[0].decision
        assert d is not None
        if d.phase == key and d.clause != "GG-XII.B":
            return
        play_both(games, Weather(1, 2) if d.phase == "weather" else EndPhase())
    raise AssertionError(f"never reached {key}")


def face_down(game: Game, side: Side = AXIS) -> list[dict[str, object]]:
    return [u for u in view(game, side)["units"] if u.get("hidden") and u["side"] != side.value]


def new_lines(before: list[str], after: list[str]) -> list[str]:
    assert after[: len(before)] == before
    return after[len(before) :]


# --- set-up ---------------------------------------------------------------------------------------------
@pytest.mark.rule("GG-V.B.1")
def test_the_allied_set_up_is_unseen_until_it_ends(gazala: Scenario) -> None:
    a_orders = ["place 7MotBde N9", "place Dummy1 N9", "place Dummy2 D5"]
    b_orders = ["place 7MotBde N9", "place 29IndBde N9", "place Dummy1 K14", "place Dummy2 D5"]
    a, b = (Game(gazala, seed=5, options=["nonhistorical"]) for _ in range(2))
    start = seen(a)
    assert seen(b) == start
    pool = hd.pool_units(a, ALLIED)
    assert all(family_unit(a, u).hex is None and family_unit(a, u).hidden for u in pool)  # in the pool, off the map
    assert not face_down(a)  # nothing of the pool shows, not even how many
    for game, orders in ((a, a_orders), (b, b_orders)):
        for text in orders:
            game.play(text)
            assert seen(game) == start  # nothing of the placements, no count, no log line
    assert "Allied sets up 7MotBde in N9." in a.log_for(ALLIED)  # the Allied player reads his own
    a.play("end-phase")
    b.play("end-phase")
    assert seen(a) == seen(b)  # and now: the stacks where they are, nothing more
    hexes = sorted(str(u["hex"]) for u in face_down(a))
    starts = {u: gazala.start[u] for u in pool if not family_defs(a)[u].is_dummy}
    printed = {u: h.label for u, h in starts.items() if h is not None}
    assert len(printed) == len(starts)  # every real counter of the pool has a printed hex
    expected = [printed[u] for u in printed if u != "7MotBde"] + ["N9", "N9", "D5"]  # K14: 29IndBde or Dummy1
    assert hexes == sorted(expected)
    axis_log = view(a, AXIS)["log"]
    assert axis_log[-1] == "Allied has set up, face down."
    assert not any("sets up" in line or "printed positions" in line for line in axis_log)


@pytest.mark.rule("GG-V.B.1")
def test_units_left_in_the_pool_take_their_printed_positions(gazala: Scenario) -> None:
    game = Game(gazala, seed=5, options=["nonhistorical"])
    game.play("place Dummy1 C5")
    game.play("place Dummy2 E6")
    game.play("place 2SA F7")  # with 50Div's printed hex: 2 divisions there is the most allowed
    game.play("place 1ATB F7")  # a third division would make F7 over the limit when 50Div comes
    with pytest.raises(IllegalOrderError) as err:
        game.play("end-phase")
    assert err.value.clause == "GG-XII.A.2" and "50Div" in err.value.reason
    game.pop()
    game.play("end-phase")
    assert family_unit(game, "50Div").hex == H("F7") and family_unit(game, "1SA").hex == H("C5")
    assert all(family_unit(game, u).hex is not None for u in hd.pool_units(game, ALLIED))


# --- anonymous ids --------------------------------------------------------------------------------------
def test_anonymous_ids_are_secret_per_game_and_reproduced_by_a_replay(gazala: Scenario) -> None:
    a, b = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6, seed=5)
    ids = [u["anon"] for u in face_down(a)]
    assert ids == [u["anon"] for u in face_down(b)]  # the same whoever stands where
    assert len(set(ids)) == len(ids) == len(hd.face_down_on_map(a, ALLIED))
    assert all(len(str(i)) == 12 and int(str(i), 16) >= 0 for i in ids)
    other, _ = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6, seed=6)
    assert not set(ids) & {u["anon"] for u in face_down(other)}  # another game, other ids
    again = replay(record_of(a))
    assert [u["anon"] for u in face_down(again)] == ids
    # listed last, by hex then id, with the same fields: nothing follows the order of battle
    units = view(a, AXIS)["units"]
    tail = units[-len(ids) :]
    assert all(u.get("hidden") for u in tail) and not any(u.get("hidden") and u["side"] == "allied" for u in units[: -len(ids)])
    assert [(H(str(u["hex"])), u["anon"]) for u in tail] == sorted((H(str(u["hex"])), u["anon"]) for u in tail)
    assert {tuple(sorted(u)) for u in tail} == {("anon", "hex", "hidden", "side")}


@pytest.mark.rule("GG-XIV.B.6")
def test_a_counter_face_down_again_gets_an_id_never_seen_before(gazala: Scenario) -> None:
    game = Game(gazala, seed=5, options=["nonhistorical"])
    for text in DUMMY_IN_E6:
        game.play(text)
    game.play("end-phase")
    seen_ids = {u["anon"] for u in face_down(game)}
    family_unit(game, "15Pz").hex = H("B10")  # within 6 hexes of Tobruk (next to no Allied counter): the siege is offered
    at_phase(game, "allied-movement")
    game.play("activate 2SA")  # turned up: its id is gone
    assert len(face_down(game)) == len(seen_ids) - 1
    at_phase(game, "allied-siege")
    game.play("place 2SA D12")
    game.play("end-phase")
    now = {u["anon"] for u in face_down(game)}
    fresh = now - seen_ids
    assert len(fresh) == 1 and [u["hex"] for u in face_down(game) if u["anon"] in fresh] == ["D12"]


# --- movement, attacks ----------------------------------------------------------------------------------
@pytest.mark.rule("GG-XIII.B.3")
def test_movement_is_the_same_next_to_a_dummy_or_a_unit(gazala: Scenario) -> None:
    games = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6)
    play_both(games, "place 15Pz E5")
    advance_both(games, "axis-movement")
    a, b = games
    assert view(a, AXIS)["legal_orders"] == view(b, AXIS)["legal_orders"]
    common = [n for n in set(H("E5").neighbours()) & set(H("E6").neighbours()) if not a.units_at(n)]
    assert common
    errors = []
    for g in games:
        with pytest.raises(IllegalOrderError) as err:
            g.play(f"move 15Pz E5-{common[0]}")
        errors.append((err.value.clause, err.value.reason))
    assert errors[0] == errors[1] and errors[0][0] == "GG-XIII.B.3"
    assert "E6" in errors[0][1] and "Dummy" not in errors[0][1] and "1ATB" not in errors[0][1]


@pytest.mark.rule("GG-XIV.A.2")
def test_a_dummy_must_be_attacked_like_a_unit(gazala: Scenario) -> None:
    games = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6)
    play_both(games, "place 15Pz E5")
    advance_both(games, "axis-attacks")
    a, b = games
    assert [h for h in H("E5").neighbours() if a.units_at(h, ALLIED)] == [H("E6")]  # only the one counter
    legal = view(a, AXIS)["legal_orders"]
    assert "end-phase" not in legal and "target E6" in legal
    refusals = []
    for g in games:
        with pytest.raises(IllegalOrderError) as err:
            g.play("end-phase")
        refusals.append(str(err.value))
    assert refusals[0] == refusals[1] and refusals[0].endswith("E6 [GG-XIV.A.2]")
    log_before = view(a, AXIS)["log"]
    play_both(games, "attack E6 with 15Pz")  # the declaration: the same in both, odds unknown
    assert new_lines(log_before, view(a, AXIS)["log"]) == ["Axis declares attack 1: attack E6 with 15Pz (odds unknown)."]
    others = [u for u in face_down(a) if u["hex"] != "E6"]
    for g in games:
        g.play("resolve 1")
    # what the rules reveal, exactly: the counter in E6 turns up, and nothing else changes
    assert new_lines(log_before, view(a, AXIS)["log"])[1:] == [
        "The unit in E6 was a dummy (attacked); it is removed.",
        "Attack 1 is called off: only dummies were there.",
    ]
    assert new_lines(log_before, view(b, AXIS)["log"])[1].startswith("Attacked: the unit in E6 is 1ATB (")
    assert [u for u in face_down(a) if u["hex"] != "E6"] == others == [u for u in face_down(b) if u["hex"] != "E6"]
    assert not [u for u in face_down(a) if u["hex"] == "E6"] and a.dice.log == []
    assert [u["hidden"] for u in view(b, AXIS)["units"] if u.get("id") == "1ATB"] == [False]


@pytest.mark.rule("GG-V.B.1")
def test_the_pages_actions_layers_odds_and_refusals_are_the_same_whatever_is_face_down(gazala: Scenario) -> None:
    games = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6)
    play_both(games, "place 15Pz E5")
    advance_both(games, "axis-attacks")
    a, b = games
    # the attack the page gathers: E6 with 15Pz, offered alike (the rules let 15Pz attack whatever is in E6)
    offered = offers(a)
    assert offered == offers(b)
    (attack,) = offered["composites"]
    assert [t["hex"] for t in attack["targets"]] == ["E6"] and attack["targets"][0]["units"] == ["15Pz"]
    # the enemy's ZOC as the Axis knows it: a face-down counter exerts one whatever it is (a dummy too, while face
    # down: GG-V.B.1), so every land hex next to E6 is in it in both games
    layers = [o.data() for o in a.system.overlays(a, AXIS)]
    assert layers == [o.data() for o in b.system.overlays(b, AXIS)]
    zoc = set(next(x for x in layers if x["key"] == "zoc")["hexes"])
    assert {n.label for n in H("E6").neighbours() if gazala.map.is_land(n)} <= zoc
    # the odds of the attack by its fields, as the Axis may know them, and the refusals of fields and ids
    fields = {**attack["fields"], attack["gather"]: ["15Pz"], attack["target"]: ["E6"]}
    answers = []
    for g in games:
        known = observed(g, AXIS)
        odds = g.system.odds(known, known.system.vocabulary.from_fields(fields), AXIS)
        refusals = []
        for bad in ({"verb": "move", "unit": "15Pz", "path": ["E5", "E6"]}, {**fields, attack["target"]: ["E4"]}):
            with pytest.raises(IllegalOrderError) as err:
                g.play(g.system.vocabulary.from_fields(bad))
            refusals.append(str(err.value))
        with pytest.raises(IllegalOrderError) as err:
            g.play_id(g.action_space.size - 1)
        refusals.append(str(err.value))
        answers.append((odds, refusals))
    assert answers[0] == answers[1]
    assert answers[0][0] is not None and answers[0][0].column == "unknown (face-down units)"
    assert seen(a) == seen(b)  # (and nothing was changed by the refusals)
    # the computer player's advice reads only what the Axis may know: the same candidates, valued alike
    advice = []
    for g in games:
        advisor = g.system.advisor(g, AXIS)
        assert advisor is not None
        advice.append([(c.notation(), advisor.value(c)) for c in advisor.candidates()])
    assert advice[0] == advice[1] and advice[0] == [("attack E6 with 15Pz", 0.5)]  # compulsory, its odds unknown


@pytest.mark.rule("GG-IX.B")
def test_a_disrupted_unit_next_to_a_face_down_counter_takes_the_ar_whatever_it_is(gazala: Scenario) -> None:
    games = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6)
    play_both(games, "place 15Pz E5")
    advance_both(games, "axis-attacks")
    for g in games:
        family_unit(g, "15Pz").disrupted = True  # (arranged the same in both)
    play_both(games, "end-phase")
    a, b = games
    d = a.decision
    assert d is not None and d.side is ALLIED and "15Pz" in d.prompt
    assert view(a, AXIS)["log"][-1] == "15Pz: disrupted next to unattacked enemy units, AR (GG-IX.B)."
    assert seen(a) == seen(b)


@pytest.mark.rule("GG-IX.B")
def test_ending_the_attacks_warns_of_the_ar_whatever_the_face_down_counter_is(gazala: Scenario) -> None:
    """The end-phase offered with what it costs (the disrupted 15Pz next to the counter nobody attacked must retreat),
    in the same words whether that counter is a dummy or 1ATB; with 15Pz undisrupted, nothing to warn of."""
    games = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6)
    play_both(games, "place 15Pz E5")
    advance_both(games, "axis-attacks")
    for g in games:
        family_unit(g, "15Pz").disrupted = True  # (arranged the same in both)

    def warnings(g: Game) -> list[object]:
        return [e.get("warning") for e in offers(g)["actions"] if e["verb"] == "end-phase"]

    ar = "15Pz: disrupted next to enemy units nobody attacked, so they must retreat (AR, GG-IX.B)"
    assert warnings(games[0]) == warnings(games[1]) == [ar]
    for g in games:
        family_unit(g, "15Pz").disrupted = False
    assert [e.get("warning") for e in offers(games[0])["actions"] if e["verb"] == "end-phase"] in ([], [None])


# --- supply ---------------------------------------------------------------------------------------------
# N9 is cut off below; it holds 29IndBde (no convoy can go to it) with a dummy, 7MotBde being in its box
# K11, or 29IndBde with 7MotBde (which a convoy may help), a dummy being in K11
CUT_OFF_WITH_A_DUMMY = ["place 29IndBde N9", "place Dummy1 N9", "place Dummy2 D5"]
CUT_OFF_WITH_A_UNIT = ["place 29IndBde N9", "place 7MotBde N9", "place Dummy1 K11", "place Dummy2 D5"]


@pytest.mark.rule("GG-XV.A.2")
def test_the_supply_phase_says_nothing_of_face_down_units(gazala: Scenario) -> None:
    games = twins(gazala, CUT_OFF_WITH_A_DUMMY, CUT_OFF_WITH_A_UNIT)
    advance_both(games, "allied-movement")
    for g in games:  # (arranged the same in both) Axis units on every land hex around N9
        for uid, label in (("15Pz", "M10"), ("21Pz", "N10"), ("90Lt", "N8"), ("Ariete", "M9")):
            family_unit(g, uid).hex = H(label)
    advance_both(games, "allied-recovery")  # asked in both: face-down counters, convoys left
    a, b = games
    assert a.decision is not None and a.decision.phase == "allied-recovery"
    assert "convoy 7MotBde" in view(b, ALLIED)["legal_orders"] and view(a, ALLIED)["legal_orders"] == ["end-phase"]
    log_before = view(a, AXIS)["log"]
    play_both(games, "end-phase")
    axis_lines = new_lines(log_before, view(a, AXIS)["log"])
    supply = [line for line in axis_lines if line.startswith("Allied supply")]
    assert supply == ["Allied supply: 0 face-up units in supply."]
    allied = [line for line in a.log_for(ALLIED) if line.startswith("Allied supply")][-1]
    assert "out of supply: 29IndBde." in allied
    assert "out of supply: 7MotBde, 29IndBde." in [line for line in b.log_for(ALLIED) if line.startswith("Allied supply")][-1]


@pytest.mark.rule("GG-XV.A.4")
def test_a_convoy_to_a_face_down_unit_is_its_owners_secret(gazala: Scenario) -> None:
    games = twins(gazala, CUT_OFF_WITH_A_DUMMY, CUT_OFF_WITH_A_UNIT)
    advance_both(games, "allied-movement")
    for g in games:
        for uid, label in (("15Pz", "M10"), ("21Pz", "N10"), ("90Lt", "N8"), ("Ariete", "M9")):
            family_unit(g, uid).hex = H(label)
    advance_both(games, "allied-recovery")
    a, b = games
    before = seen(b)
    b.play("convoy 7MotBde")  # only in one of the two games: in the other there is no unit to send it to
    assert seen(b) == before == seen(a)  # no line, no die for the Axis
    assert any(line.startswith("Allied: truck convoy to 7MotBde") for line in b.log_for(ALLIED))
    assert len(view(b, ALLIED)["dice"]) == len(view(b, AXIS)["dice"]) + 1


# --- the Siege of Tobruk --------------------------------------------------------------------------------
@pytest.mark.rule("GG-XIV.B.6")
def test_the_siege_is_unseen_until_it_ends(gazala: Scenario) -> None:
    games = []
    for _ in range(2):
        g = Game(gazala, seed=3)
        family_unit(g, "15Pz").hex = H("E12")  # within 6 hexes of Tobruk
        g.play("end-phase")
        assert g.decision is not None and g.decision.phase == "allied-siege"
        games.append(g)
    a, b = games
    start = seen(a)
    for text in ("place 2SA D12", "place Dummy1 C13", "place Dummy2 D13"):
        a.play(text)
        assert seen(a) == start  # nothing of it shows until the phase ends
    for text in ("place Dummy1 D12", "place Dummy2 D13"):  # 2SA stays in C13
        b.play(text)
        assert seen(b) == start
    log_before = view(a, AXIS)["log"]
    a.play("end-phase")
    b.play("end-phase")
    assert seen(a) == seen(b)
    assert sorted(str(u["hex"]) for u in face_down(a)) == ["C13", "D12", "D13"]
    assert (
        new_lines(log_before, view(a, AXIS)["log"])[0]
        == "Allied: Siege of Tobruk: the garrison is turned face down and spread inside the perimeter."
    )
    assert "2SA" not in "".join(new_lines(log_before, view(a, AXIS)["log"]))


@pytest.mark.rule("GG-XIV.B.6")
def test_the_siege_is_offered_whatever_the_face_down_counters_in_tobruk_are(gazala: Scenario) -> None:
    games = twins(
        gazala,
        ["place 2SA C10", "place Dummy1 C13", "place Dummy2 D5"],  # a dummy alone in Tobruk
        ["place Dummy1 C10", "place Dummy2 D5"],
    )  # 2SA in Tobruk, its printed position
    for g in games:
        family_unit(g, "15Pz").hex = H("B10")  # (arranged the same in both) within 6 hexes of Tobruk
    play_both(games, "end-phase")
    for g in games:
        assert g.decision is not None and g.decision.phase == "allied-siege"


# --- the end of the game --------------------------------------------------------------------------------
def test_the_end_of_the_game_shows_everything(gazala: Scenario) -> None:
    games = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6)
    for _ in range(2000):
        if games[0].is_over:
            break
        assert seen(games[0]) == seen(games[1])
        d = games[0].decision
        assert d is not None
        play_both_unchecked(games, Weather(1, 2) if d.phase == "weather" else EndPhase())
    a, b = games
    assert a.is_over and b.is_over
    # once over, each side sees every counter, the whole log and every die
    for g in games:
        for side in Side:
            v = view(g, side)
            assert {u["id"] for u in v["units"]} == set(family_defs(g)) and v["log"] == g.state.log
            assert len(v["dice"]) == len(g.dice.log)
    va, vb = view(a, AXIS), view(b, AXIS)
    assert {k for k in va if va[k] != vb[k]} <= {"units", "result", "result_lines", "summary", "log"}
    where = {u["id"]: u["hex"] for u in va["units"]}, {u["id"]: u["hex"] for u in vb["units"]}
    assert {u for u in where[0] if where[0][u] != where[1][u]} == {"1ATB", "Dummy1"}


def play_both_unchecked(games: tuple[Game, Game], order: Order) -> None:
    for g in games:
        g.play(order)


# --- random games ---------------------------------------------------------------------------------------
EMPTY_BOXES = ["B5", "C10", "D5", "D8", "E6"]


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_games_give_the_axis_the_same_view_until_a_reveal(gazala: Scenario, seed: int) -> None:
    rng = random.Random(seed)
    b1, b2, b3 = rng.sample(EMPTY_BOXES, 3)
    unit = rng.choice(sorted(u.id for u in gazala.units if u.side is ALLIED and gazala.start.get(u.id) is not None))
    games = twins(
        gazala,
        [f"place {unit} {b2}", f"place Dummy1 {b1}", f"place Dummy2 {b3}"],
        [f"place {unit} {b1}", f"place Dummy1 {b2}", f"place Dummy2 {b3}"],
        seed=seed,
    )
    a, b = games
    axis = RandomPlayer(seed)
    played = 0
    while played < 150 and not a.is_over:
        if not (
            family_unit(a, unit).hidden
            and family_unit(b, unit).hidden
            and family_unit(a, "Dummy1").hidden
            and family_unit(b, "Dummy1").hidden
        ):
            break  # revealed: from here on the views may differ by what the rules revealed
        assert seen(a) == seen(b), f"after {played} orders: {a.notation()[-3:]}"
        d = a.decision
        assert d is not None
        if d.side is AXIS:
            order = axis.choose(view(a, AXIS), a.legal_orders(), outcomes_for(a, AXIS))
        else:
            legal_a, legal_b = a.legal_orders(), b.legal_orders()
            if EndPhase() in legal_a and EndPhase() in legal_b:
                order = EndPhase()
            elif d.phase == "weather":
                order = Weather(1, 2)
            else:
                common = [o for o in legal_a if o in legal_b]
                if not common:
                    break
                order = common[0]
        text = order.notation()
        a.play(text)
        b.play(text)
        played += 1
    if (
        family_unit(a, "Dummy1").hidden != family_unit(b, "Dummy1").hidden
        or family_unit(a, unit).hidden != family_unit(b, unit).hidden
        or not family_unit(a, "Dummy1").hidden
    ):
        # what was revealed is the counter in b1 or b2, and the Axis log says so
        last = "\n".join(view(a, AXIS)["log"][-6:] + view(b, AXIS)["log"][-6:])
        assert b1 in last or b2 in last
    assert played > 20


# --- the fuzzer's check ---------------------------------------------------------------------------------
def test_the_fuzzers_check_catches_a_view_that_tells_counters_apart(gazala: Scenario) -> None:
    from tobruk.tools.fuzz import FogWatch, InvariantError, check_face_down, check_views

    game, _ = twins(gazala, DUMMY_IN_E6, UNIT_IN_E6)
    check_views(game, FogWatch.new())  # the real view passes
    good = view(game, AXIS)
    units = good["units"]
    n = len(face_down(game))
    tampered = [
        {**good, "units": units[:-n] + units[-n:][::-1]},  # not in (hex, id) order
        {**good, "units": [*units[:-n], {**units[-1], "dummy": False}, *units[-n:-1]]},  # one more field
        {**good, "units": units[-n:] + units[:-n]},  # not listed last
        {**good, "units": [*units[:-1], {**units[-1], "anon": "Dummy2"}]},  # not an anonymous id
    ]
    for bad in tampered:
        with pytest.raises(InvariantError):
            check_face_down(game, AXIS, bad, None)
    watch = FogWatch.new()
    check_face_down(game, AXIS, good, watch)
    gone = str(units[-1]["anon"])
    watch.gone.add(gone)  # an id once gone must never come back
    with pytest.raises(InvariantError, match="came back"):
        check_face_down(game, AXIS, good, watch)
    watch = FogWatch.new()
    watch.owners[gone] = "1SA" if gazala_vars(game).anon.get("1SA") != gone else "2SA"  # nor stand for another
    with pytest.raises(InvariantError, match="stood for"):
        check_face_down(game, AXIS, good, watch)
