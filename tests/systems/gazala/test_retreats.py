"""Tactical retreats (GG-XIV.D, with GG-IX.B's AR): who cannot retreat, and where a retreat goes.

Positions are small inline maps with forced dice; every expected hex and result is worked out from the
rule text, the 2016 charts and the map geometry written in the comments.  Rows A-C, odd columns
shifted: B4's neighbours are A4, A5, B3, B5, C4, C5.
"""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.dice import ForcedDice
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.mechanics.actions import Attack, EndPhase, EndRetreat, NoRetreat, Resolve, Retreat, RetreatDistance
from tobruk.mechanics.battle import Battle
from tobruk.mechanics.counters import family_unit
from tobruk.systems.gazala.state import gazala_vars

H = Hex.parse
AXIS, ALLIED = Side.AXIS, Side.ALLIED
SURVIVABLE = 'flags = ["survivable"]'
NO_ORDERS = NoRetreat()


def battle(
    defender: str,
    *,
    columns: int,
    dice: list[int],
    attack: int = 20,
    extra: str = "",
    more: str = "",
    side: str = "axis",
    answer: NoRetreat | None = NO_ORDERS,
) -> Game:
    """``Att`` in B3 attacks ``Def`` (``defender``: type and factors) in B4 with ``attack`` factors; the defender
    answers the No Retreat! question with ``answer`` (``None``: left for the test)."""
    att_side, def_side = (side, "allied" if side == "axis" else "axis")
    type_, factors = defender.split()
    units = (
        unit_toml("Att", att_side, "B3", type_="armour", factors=f"{attack}-1-4")
        + unit_toml("Def", def_side, "B4", type_=type_, factors=factors, extra=SURVIVABLE if type_ == "recce" else "")
        + more
    )
    game = attack_game(units, extra, rows=3, columns=columns, side=side, dice=ForcedDice(dice))
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    if answer is not None:
        answer_no_retreat(game, answer)
    return game


def answer_no_retreat(game: Game, answer: NoRetreat = NO_ORDERS) -> None:
    d = game.decision
    assert d is not None and d.clause == "GG-XIV.B.5", "the defender is asked about No Retreat! orders"
    game.play(answer)


def one_hex_ends(game: Game) -> set[Hex]:
    return {o.path[-1] for o in game.legal_orders() if isinstance(o, Retreat) and len(o.path) == 2}


# --- GG-XIV.D.3: "unable to retreat 2 hexes" on an R2 ---------------------------------------------------------
# With 5 columns the east edge is column 5: from B4 one hex reaches A5, B5 or C5 (not next to B3), but no second
# hex is farther from B4 (column 6 is off the map, everything else is back toward B4).  With 6 columns A6, B6 and
# C6 are two hexes away.


@pytest.mark.rule("GG-XIV.D.3")
def test_r2_unit_unable_to_retreat_two_hexes_is_eliminated_whatever_distance_the_winner_would_name() -> None:
    game = battle("armour 1-2-2", columns=5, dice=[5], attack=6)  # 6 to 2: 3:1, die 5: R2
    assert family_unit(game, "Def").eliminated
    assert game.top(Battle) is None, "no distance is asked: naming 0 or 1 could not save it"
    assert any("Def eliminated in B4 (unable to retreat)" in line for line in game.state.log)


@pytest.mark.rule("GG-XIV.D.3")
def test_r2_unit_able_to_retreat_two_hexes_retreats_the_distance_the_winner_names() -> None:
    game = battle("armour 1-2-2", columns=6, dice=[5], attack=6)
    d = game.decision
    assert d is not None and d.side is AXIS and set(game.legal_orders()) == {RetreatDistance(k) for k in range(3)}
    game.play(RetreatDistance(1))  # one hex required, a second voluntary (R2 allows none: exactly one)
    assert one_hex_ends(game) == {H("A5"), H("B5"), H("C5")}
    assert all(len(o.path) == 2 for o in game.legal_orders() if isinstance(o, Retreat))
    game.play(Retreat("Def", (H("B4"), H("B5"))))
    assert family_unit(game, "Def").hex == H("B5") and not family_unit(game, "Def").eliminated


@pytest.mark.rule("GG-XIV.D.3")
def test_r2_naming_zero_keeps_a_unit_that_could_retreat() -> None:
    game = battle("armour 1-2-2", columns=6, dice=[5], attack=6)
    game.play(RetreatDistance(0))
    assert family_unit(game, "Def").hex == H("B4") and family_unit(game, "Def").disrupted and not family_unit(game, "Def").eliminated


@pytest.mark.rule("GG-XIV.D.3")
def test_r1_unit_unable_to_retreat_stays_disrupted() -> None:
    # 5 columns with sea in A5, B5, C5: B4 has no hex to retreat to; 3:1 die 3: R1, which then becomes a D
    sea = '[map.terrain]\nsea = ["A5", "B5", "C5"]\n'
    game = battle("armour 1-2-2", columns=5, dice=[3], attack=6, extra=sea)
    assert game.decision is not None and game.decision.side is AXIS  # the winner still names the distance
    game.play(RetreatDistance(1))
    assert family_unit(game, "Def").hex == H("B4") and family_unit(game, "Def").disrupted and not family_unit(game, "Def").eliminated
    assert "Def cannot retreat: it stays, disrupted." in game.state.log


def two_hexes(c4: str, *, box: bool) -> Game:
    """``Att`` (12 factors) in B3 attacks ``Def`` in B4 and ``Def2`` (``c4``: its id) in C4, 2 defence factors
    each: 12 to 4 is 3:1, die 4: R2.  With 5 columns ``Def`` cannot retreat 2 hexes (above); C4's neighbours are
    B3, B4, C3, C5 (row D is off the map): only C5 is not next to B3, and from C5 B5 is two hexes from C4.  In a
    box (C4) the R2 is a compulsory R1 (GG-XI.A.1)."""
    units = (
        unit_toml("Att", "axis", "B3", type_="armour", factors="12-1-4")
        + unit_toml("Def", "allied", "B4", type_="armour", factors="1-2-2")
        + unit_toml(c4, "allied", "C4", type_="armour", factors="1-2-2")
    )
    extra = '[map.fortifications]\nallied = ["C4"]\n' if box else ""
    game = attack_game(units, extra, rows=3, columns=5, dice=ForcedDice([4]))
    game.play(Attack((H("B4"), H("C4")), ("Att",)))
    game.play(Resolve(1))
    answer_no_retreat(game)
    return game


@pytest.mark.rule("GG-XIV.D.3")
def test_a_unit_unable_to_retreat_is_eliminated_once_and_the_others_retreat_as_they_must() -> None:
    game = two_hexes("Boxed", box=True)
    assert family_unit(game, "Def").eliminated and not family_unit(game, "Boxed").eliminated
    # Boxed's R1 is compulsory: 1 hex (then 1 voluntary), and no unit is left for the winner's distance: not asked
    assert not any(isinstance(o, RetreatDistance) for o in game.legal_orders())
    routes = {o.path for o in game.legal_orders() if isinstance(o, Retreat)}
    assert {p for p in routes if len(p) == 2} == {(H("C4"), H("C5"))} and all(p[1] == H("C5") for p in routes)
    assert EndRetreat() not in game.legal_orders()
    game.play(Retreat("Boxed", (H("C4"), H("C5"))))
    assert game.top(Battle) is None and family_unit(game, "Boxed").hex == H("C5")
    assert [line for line in game.state.log if "Def eliminated" in line] == ["Allied: Def eliminated in B4 (unable to retreat)."]


@pytest.mark.rule("GG-XIV.D.3")
def test_a_battle_ends_when_nobody_left_has_to_retreat() -> None:
    # Def is eliminated at once; the winner names 0 for Free, which then has nothing to do (an R2 allows no
    # voluntary hex): the battle is over without asking the loser
    game = two_hexes("Free", box=False)
    assert family_unit(game, "Def").eliminated
    game.play(RetreatDistance(0))
    assert game.top(Battle) is None and family_unit(game, "Free").hex == H("C4") and not family_unit(game, "Free").eliminated


# --- GG-XIV.D.5: the Recce Gruppe and the 7th Motor Brigade ------------------------------------------------------


@pytest.mark.rule("GG-XIV.D.5")
def test_survivable_unit_unable_to_retreat_two_hexes_takes_the_de() -> None:
    game = battle("recce 1-1-5", columns=5, dice=[6], side="allied")  # 20 to 1: 10:1, die 6: DE
    assert family_unit(game, "Def").eliminated  # it cannot retreat 2: the DE stands
    assert game.top(Battle) is None


@pytest.mark.rule("GG-XIV.D.5")
def test_survivable_unit_able_to_retreat_takes_an_r2_instead_of_the_de() -> None:
    game = battle("recce 1-1-5", columns=6, dice=[6], side="allied")
    assert not family_unit(game, "Def").eliminated and family_unit(game, "Def").disrupted
    assert set(game.legal_orders()) == {RetreatDistance(k) for k in range(3)}
    game.play(RetreatDistance(0))  # the winner may name 0: it stays, disrupted
    assert family_unit(game, "Def").hex == H("B4") and not family_unit(game, "Def").eliminated


@pytest.mark.rule("GG-XIV.D.5")
@pytest.mark.rule("GG-XIV.B.5")
def test_survivable_unit_under_no_retreat_orders_takes_the_de() -> None:
    # 10:1: die 1 R2, so the defender is asked; under No Retreat! the R2 becomes DE, and D.5 does not apply
    game = battle("recce 1-1-5", columns=6, dice=[1], side="allied", answer=NoRetreat(("Def",)))
    assert family_unit(game, "Def").eliminated


@pytest.mark.rule("GG-XIV.D.5")
def test_an_ordinary_unit_takes_the_de() -> None:
    game = battle("armour 1-1-5", columns=6, dice=[6], side="allied")
    assert family_unit(game, "Def").eliminated


# --- AR: GG-IX.B's "if it cannot retreat, it is eliminated", for the combat AR too (rulings) ------------------


@pytest.mark.rule("GG-IX.B")
def test_attacker_unable_to_retreat_on_an_ar_is_eliminated_at_once() -> None:
    # Att in the corner A1 attacks A2 at 1:1, die 1: AR. A1's only other neighbour on the map, B1, is next to A2
    # (rule e), so it has nowhere to go: eliminated without the defender naming a distance.
    units = unit_toml("Att", "axis", "A1", type_="armour", factors="2-1-4") + unit_toml(
        "Def", "allied", "A2", type_="armour", factors="1-2-2"
    )
    game = attack_game(units, rows=3, columns=4, dice=ForcedDice([1]))
    game.play(Attack((H("A2"),), ("Att",)))
    game.play(Resolve(1))
    answer_no_retreat(game)  # (the 1:1 column has R1 and R2 results)
    assert family_unit(game, "Att").eliminated and game.top(Battle) is None


@pytest.mark.rule("GG-IX.B")
def test_attacker_able_to_retreat_on_an_ar_retreats_as_the_defender_names() -> None:
    # Att in B1 attacks B2 at 1:1, die 1: AR; A1 and C1 are away from B2 and not next to it
    units = unit_toml("Att", "axis", "B1", type_="armour", factors="2-1-4") + unit_toml(
        "Def", "allied", "B2", type_="armour", factors="1-2-2"
    )
    game = attack_game(units, rows=3, columns=4, dice=ForcedDice([1]))
    game.play(Attack((H("B2"),), ("Att",)))
    game.play(Resolve(1))
    answer_no_retreat(game)
    d = game.decision
    assert d is not None and d.side is ALLIED and set(game.legal_orders()) == {RetreatDistance(0), RetreatDistance(1)}
    game.play(RetreatDistance(0))
    assert family_unit(game, "Att").hex == H("B1") and not family_unit(game, "Att").eliminated


# --- GG-XIV.D.2 g: a hex serviced by friendly supply is preferred ----------------------------------------------
# Allied source in B12, no roads: a line reaches 7 hexes.  B5 is 7 hexes from B12 (in supply), A5 and C5 are 8.

SOURCE_B12 = '[map.supply]\nallied = ["B12"]\n'


def r1_retreat(extra: str, more: str = "") -> Game:
    game = battle("armour 1-2-2", columns=12, dice=[3], attack=6, extra=extra, more=more)  # 3:1 die 3: R1
    game.play(RetreatDistance(1))
    return game


@pytest.mark.rule("GG-XIV.D.2")
def test_a_retreat_goes_into_supply_if_it_can() -> None:
    assert one_hex_ends(r1_retreat(SOURCE_B12)) == {H("B5")}


@pytest.mark.rule("GG-XIV.D.2")
def test_with_no_hex_in_supply_every_legal_hex_is_offered() -> None:
    assert one_hex_ends(r1_retreat("")) == {H("A5"), H("B5"), H("C5")}


@pytest.mark.rule("GG-XIV.D.2")
def test_the_supply_preference_comes_after_the_least_stacked_one() -> None:
    # a friend in B5: f (empty hexes first) leaves A5 and C5, both out of supply, and g has nothing to prefer
    friend = unit_toml("Pal", "allied", "B5", type_="armour", factors="1-1-2")
    assert one_hex_ends(r1_retreat(SOURCE_B12, friend)) == {H("A5"), H("C5")}


@pytest.mark.rule("GG-XIV.D.2")
def test_an_allied_box_counts_as_serviced_by_supply() -> None:
    # no source in reach, but C5 is an Allied box: a source for the units on it (GG-XV.A.1)
    box = '[map.fortifications]\nallied = ["C5"]\n'
    assert one_hex_ends(r1_retreat(box)) == {H("C5")}


@pytest.mark.rule("GG-XIV.D.2")
def test_a_refused_retreat_route_names_the_retreat_clause() -> None:
    game = r1_retreat(SOURCE_B12)
    before = game.state_hash()
    with pytest.raises(IllegalOrderError) as err:
        game.play(Retreat("Def", (H("B4"), H("A5"))))  # legal by a-e, but g prefers B5
    assert err.value.clause == "GG-XIV.D.2" and game.state_hash() == before


@pytest.mark.rule("GG-XIV.D.1")
def test_the_retreat_ends_the_battle_and_the_phase_goes_on() -> None:
    game = r1_retreat(SOURCE_B12)
    game.play(Retreat("Def", (H("B4"), H("B5"))))
    assert family_unit(game, "Def").hex == H("B5") and game.top(Battle) is None
    d = game.decision
    assert d is not None and d.phase == "axis-attacks" and EndPhase() in game.legal_orders()
    assert EndRetreat() not in game.legal_orders()


# --- GG-XIV.D.2 b-d and the hexes around: each requirement where the preferences cannot hide it ----------------
# Friends stand in every hex a retreat could reach (A5, B5, C5), so f (least stacked) prefers none of them.

FRIENDS = "".join(unit_toml(f"Pal{h}", "allied", h, type_="armour", factors="1-1-2") for h in ("A5", "B5", "C5"))


def r1_among_friends(more: str = "", extra: str = "", declare: Attack | None = None) -> Game:
    units = (
        unit_toml("Att", "axis", "B3", type_="armour", factors="6-1-4")
        + unit_toml("Def", "allied", "B4", type_="armour", factors="1-2-2")
        + FRIENDS
        + more
    )
    game = attack_game(units, extra, rows=5, columns=8, dice=ForcedDice([3]))  # 6 to 2: 3:1, die 3: R1
    if declare is not None:
        game.play(declare)
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(2 if declare is not None else 1))
    answer_no_retreat(game)
    game.play(RetreatDistance(1))
    return game


@pytest.mark.rule("GG-XIV.D.2")
def test_no_retreat_into_a_hex_under_a_declared_unresolved_attack() -> None:
    # Att2 in D5 touches only C5 of the three: its attack on C5 is declared, not resolved (rule d)
    att2 = unit_toml("Att2", "axis", "D5", type_="armour", factors="9-1-4")
    assert one_hex_ends(r1_among_friends(att2)) == {H("A5"), H("B5"), H("C5")}
    game = r1_among_friends(att2, declare=Attack((H("C5"),), ("Att2",)))
    assert one_hex_ends(game) == {H("A5"), H("B5")}


@pytest.mark.rule("GG-XIV.D.2")
def test_into_an_enemy_zoc_only_where_a_friend_stands() -> None:
    # Block in B6 has B5 (and A6, C6 ...) in its ZOC (rule c): with Pal in B5 it is open, without it closed
    block = unit_toml("Block", "axis", "B6", type_="armour", factors="1-1-4")
    assert one_hex_ends(r1_among_friends(block)) == {H("A5"), H("B5"), H("C5")}
    game = r1_among_friends(block)
    family_unit(game, "PalB5").hex = H("E8")  # B5 now empty and in Block's ZOC; A5 and C5 still hold a friend each
    game.forget_caches()
    assert one_hex_ends(game) == {H("A5"), H("C5")}


@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("GG-XI.D")
def test_no_retreat_across_a_towering_escarpment_but_by_a_road() -> None:
    # rule a, "physically accessible to movement": a towering escarpment on B4|A5 and B4|B5, a road across B4|B5
    tow = '[map.hexsides]\n"towering-escarpment" = [{ side = "A5|B4", high = "A5" }, { side = "B4|B5", high = "B5" }]\n'
    assert one_hex_ends(r1_among_friends(extra=tow)) == {H("C5")}
    road = '[[map.route]]\nkind = "road"\nhexes = ["B4", "B5"]\n'
    assert one_hex_ends(r1_among_friends(extra=tow + road)) == {H("B5"), H("C5")}


def r1_next_to_the_attack(fort: str) -> Game:
    """The Allied Att (6 factors) in B3 attacks the Axis Def (2) in B4: 3:1, die 3: R1, the winner names 1.  A5, B5
    and C5 are sea, so Def's only hexes are A4 and C4, both next to B3 (rule e); A4 holds ``fort`` (a
    ``[map.fortifications]`` line) and Def's friend Pal, disrupted (so the attack on B4 alone is allowed,
    GG-XIV.A.2), which keeps A4 open under rule c."""
    units = (
        unit_toml("Att", "allied", "B3", type_="armour", factors="6-1-4")
        + unit_toml("Def", "axis", "B4", type_="armour", factors="1-2-2")
        + unit_toml("Pal", "axis", "C1", type_="armour", factors="1-1-2")
    )
    sea = '[map.terrain]\nsea = ["A5", "B5", "C5"]\n[map.fortifications]\n' + fort + "\n"
    game = attack_game(units, sea, rows=3, columns=5, side="allied", dice=ForcedDice([3]))
    # Pal is put in A4 at the attack phase: standing there from the start, undisrupted, it would have taken an
    # Allied box in the Axis victory determination (GG-XI.A.5)
    family_unit(game, "Pal").hex = H("A4")
    family_unit(game, "Pal").disrupted = True
    assert not gazala_vars(game).boxes_eliminated
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    answer_no_retreat(game)
    game.play(RetreatDistance(1))
    return game


@pytest.mark.rule("GG-XIV.D.2")
@pytest.mark.rule("GG-XI.A.2")
def test_next_to_the_attack_only_into_the_sides_own_fort_never_the_enemys_box() -> None:
    # rule e's exception is for a friendly box: an Axis fort in A4 lets Def in; an Allied box there does not, though
    # Def's own unit stands in it (boxes cannot be used by the other side, GG-XI.A.2)
    assert one_hex_ends(r1_next_to_the_attack('axis = ["A4"]')) == {H("A4")}
    game = r1_next_to_the_attack('allied = ["A4"]')
    assert one_hex_ends(game) == set()
    assert family_unit(game, "Def").hex == H("B4") and not family_unit(game, "Def").eliminated


@pytest.mark.rule("GG-XIV.D.2")
def test_a_two_hex_retreat_goes_farther_with_each_hex() -> None:
    # rule a: from B4, after B5 the second hex must be 2 from B4 (A6, B6, C6); A5 and C5 are only 1 away
    game = battle("armour 1-2-2", columns=8, dice=[5], attack=6)  # 3:1 die 5: R2
    game.play(RetreatDistance(2))
    seconds = {o.path[2] for o in game.legal_orders() if isinstance(o, Retreat) and o.path[1] == H("B5")}
    assert seconds == {H("A6"), H("B6"), H("C6")}


@pytest.mark.rule("GG-XIV.D.4")
def test_a_unit_with_no_way_out_but_off_the_map_is_eliminated_so() -> None:
    # Def in the corner A1 (A2 attacks, B1 is in its ZOC): its only other ways lead off the map
    units = unit_toml("Att", "axis", "A2", type_="armour", factors="12-1-4") + unit_toml(
        "Def", "allied", "A1", type_="armour", factors="1-2-2"
    )
    game = attack_game(units, rows=3, columns=4, dice=ForcedDice([5]))
    game.play(Attack((H("A1"),), ("Att",), (("Att", 6),)))  # 3:1, die 5: R2
    game.play(Resolve(1))
    answer_no_retreat(game)
    assert family_unit(game, "Def").eliminated
    assert "Allied: Def eliminated in A1 (off the map or into the sea)." in game.state.log


@pytest.mark.rule("GG-XIV.D.2")
def test_supply_for_the_retreat_is_traced_as_if_the_unit_had_left_its_hex() -> None:
    # Att in B5 attacks Def in B4 (R1, 3:1 die 3). Sea fills rows B and C west of column 4, so from the Allied source
    # A1 a line runs along row A to A4, and reaches C4 only through B4, open while Def holds it but in Att's ZOC
    # once Def has gone. The retreat hexes are A4 and C4 (A5, C5 touch B5; B3 is sea): "in supply at that moment"
    # is A4 alone.
    sea = '[map.terrain]\nsea = ["B1", "B2", "B3", "C1", "C2", "C3"]\n[map.supply]\nallied = ["A1"]\n'
    units = unit_toml("Att", "axis", "B5", type_="armour", factors="6-1-4") + unit_toml(
        "Def", "allied", "B4", type_="armour", factors="1-2-2"
    )
    game = attack_game(units, sea, rows=3, columns=8, dice=ForcedDice([3]))
    game.play(Attack((H("B4"),), ("Att",)))
    game.play(Resolve(1))
    answer_no_retreat(game)
    game.play(RetreatDistance(1))
    assert one_hex_ends(game) == {H("A4")}
