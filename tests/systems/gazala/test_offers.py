"""The Gazala Gallop's attack as the faces are offered it (tobruk.engine.offers): gathered from the units the rules let
join each target; a declaration under way (begun by typing its parts) is not offered part by part, where no odds are
shown: the face offers only to drop it, and the attack is gathered again on the map."""

from __future__ import annotations

import pytest

from tests.conftest import attack_game, unit_toml
from tobruk.board.hexes import Hex
from tobruk.engine.errors import IllegalOrderError
from tobruk.engine.offers import offers
from tobruk.mechanics.actions import Add, Target
from tobruk.systems.gazala.state import gazala_vars


def test_an_attack_is_offered_with_the_units_that_may_join_each_target() -> None:
    # GG-XIV.A: an attacker must be next to the hex it attacks: Near (B3) may attack B4, Far (A1) may not
    units = unit_toml("Near", "axis", "B3") + unit_toml("Far", "axis", "A1") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game = attack_game(units)
    offered = offers(game)
    (attack,) = offered["composites"]
    target_id = next(e["id"] for e in offered["actions"] if e["label"] == "target B4")
    assert attack == {
        "verb": "attack",
        "gesture": "group-target",
        "group": "attack",
        "label": "attack",
        "says": "Attack: gather the units on the map, then click the target",
        "fields": {"verb": "attack"},
        "gather": "attackers",
        "target": "defenders",
        "targets": [{"hex": "B4", "id": target_id, "units": ["Near"]}],
    }
    assert next(e for e in offered["actions"] if e["id"] == target_id)["part_of"] == "attack"
    assert game.notation() == attack_game(units).notation()  # trying the target changed nothing


def test_a_declaration_under_way_is_offered_only_to_be_dropped() -> None:
    units = unit_toml("Near", "axis", "B3") + unit_toml("Def", "allied", "B4", factors="1-2-2")
    game = attack_game(units)
    game.play(Target(Hex.parse("B4")))
    offered = offers(game)
    assert offered["composites"] == []
    by_verb = {e["verb"]: e for e in offered["actions"]}
    assert by_verb["add"]["unit"] == "Near" and by_verb["add"]["part_of"] == "attack"  # (listed, never offered alone)
    assert "part_of" not in by_verb["abandon"] and by_verb["abandon"]["gesture"] == "press"


# Near and Mate in B3, Wide in A4: each may attack B4 (GG-XIV.A.4)
TWO_HEXES = (
    unit_toml("Near", "axis", "B3")
    + unit_toml("Mate", "axis", "B3")
    + unit_toml("Wide", "axis", "A4")
    + unit_toml("Def", "allied", "B4", factors="1-2-2")
)


@pytest.mark.rule("GG-VIII.A.3")
def test_in_a_sandstorm_the_units_of_different_hexes_are_offered_apart() -> None:
    """Near and Mate (B3) and Wide (A4) may each attack B4 (GG-XIV.A.4).  In a sandstorm only one hex's units may
    attack together: the target says Wide is kept apart from both B3 units and they from it, and the two of B3 from
    neither; in clear weather no unit is kept apart."""
    game = attack_game(TWO_HEXES)
    gazala_vars(game).weather = "sandstorm"
    (target,) = offers(game)["composites"][0]["targets"]
    assert sorted(target["units"]) == ["Mate", "Near", "Wide"]
    assert {u: sorted(v) for u, v in target["apart"].items()} == {"Near": ["Wide"], "Mate": ["Wide"], "Wide": ["Mate", "Near"]}
    clear = attack_game(TWO_HEXES)
    assert gazala_vars(clear).weather == "clear"
    (target,) = offers(clear)["composites"][0]["targets"]
    assert sorted(target["units"]) == ["Mate", "Near", "Wide"] and "apart" not in target


@pytest.mark.rule("GG-VIII.A.3")
def test_in_a_sandstorm_a_unit_of_another_hex_is_refused_as_it_joins() -> None:
    """Near (B3) begins the attack on B4: in a sandstorm its hexmate may still join, Wide (A4) may not, and adding
    it is refused on GG-VIII.A.3 at once, changing nothing; in clear weather Wide may join."""
    game = attack_game(TWO_HEXES)
    gazala_vars(game).weather = "sandstorm"
    for order in (Target(Hex.parse("B4")), Add("Near")):
        game.play(order)
    joining = {a.unit for a in game.legal_orders() if isinstance(a, Add)}
    assert joining == {"Mate"}
    before = game.notation()
    with pytest.raises(IllegalOrderError) as err:
        game.play(Add("Wide"))
    assert err.value.clause == "GG-VIII.A.3" and game.notation() == before
    clear = attack_game(TWO_HEXES)
    for order in (Target(Hex.parse("B4")), Add("Near")):
        clear.play(order)
    assert {a.unit for a in clear.legal_orders() if isinstance(a, Add)} == {"Mate", "Wide"}
    clear.play(Add("Wide"))
