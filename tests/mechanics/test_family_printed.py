"""What a family counter prints, as its view entry carries it (``FamilyUnitDef.printed``, read by the page's tooltip and
the form), from the ``[[unit]]`` data written here."""

from __future__ import annotations

from tests.conftest import movement_game, unit_toml
from tobruk.engine.sides import Side
from tobruk.view import view


def test_a_family_counter_prints_its_echelon_type_factors_tank_and_aa() -> None:
    units = unit_toml("Flak", "axis", "B3", echelon="subdivisional", type_="aa", factors="3-2-4", extra='aa = "anywhere"\ntank = "Pz III"')
    units += unit_toml("Tommy", "allied", "B9", type_="infantry", factors="1-5-2")
    game = movement_game(units, rows=3)
    entries = {u["id"]: u for u in view(game, Side.AXIS)["units"]}
    flak = entries["Flak"]
    assert {k: flak[k] for k in ("echelon", "type", "factors", "attack", "defence", "movement", "tank", "aa")} == {
        "echelon": "subdivisional",
        "type": "aa",
        "factors": "3-2-4",
        "attack": 3,
        "defence": 2,
        "movement": 4,
        "tank": "Pz III",
        "aa": "anywhere",
    }
    tommy = entries["Tommy"]
    assert (tommy["echelon"], tommy["type"], tommy["factors"]) == ("division", "infantry", "1-5-2")
    assert (tommy["tank"], tommy["aa"]) == (None, "none")
