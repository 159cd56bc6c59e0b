"""The campaign's scenario files as a user meets them: listed and shown by the command, every packaged file valid,
a malformed one refused naming the file and field, and a record's digest covering the forces and track it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import family
from tests.systems.campaign.campaign_data import CAMPAIGN, SCENARIOS, edited_copy, setup
from tobruk.engine.errors import ScenarioError
from tobruk.loading.datafile import Table, read_packaged_toml
from tobruk.loading.scenario import load_scenario
from tobruk.systems.campaign.forces import read_forces
from tobruk.systems.campaign.track import read_track


def test_tobruk_scenarios_lists_the_nine_and_the_campaign_game(capsys: pytest.CaptureFixture[str]) -> None:
    from tobruk.cli import main

    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    for name in (*SCENARIOS, CAMPAIGN):
        assert name in out


@pytest.mark.parametrize("name", (*SCENARIOS, CAMPAIGN))
def test_tobruk_show_renders_each(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from tobruk.cli import main

    assert main(["show", name]) == 0
    text = capsys.readouterr().out
    s = load_scenario(name)
    assert all(u.id in text for u in family(s)) and setup(s).start in text
    assert main(["show", name, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {u["id"] for u in data["units"]} == {u.id for u in family(s)}
    svg = tmp_path / "map.svg"
    assert main(["show", name, "--svg", str(svg)]) == 0
    body = svg.read_text(encoding="utf-8")
    assert body.startswith("<svg") and "Tobruk" in body and "El Alamein" in body
    # a counter for every unit that starts on the map, none for those entering later or held off it
    assert body.split('id="counters"')[1].count("<g><title>") == sum(1 for u in family(s) if s.start.get(u.id) is not None)


BAD_SCENARIOS = [
    ("na-gazala", 'unit = "50Div"', 'unit = "50thDiv"', "force[1].unit", "no unit '50thDiv'"),
    ("na-gazala", 'tank = "Grant"', 'tank = "Sherman"', "force[8].tank", "introduced II Sep 42"),
    ("na-gazala", 'start = "II May 42"', 'start = "II May 40"', "start", "not on the north-africa turn track"),
    ("na-gazala", "turns = 5", "turns = 6", "turns", "is 5 turns, not 6"),
    ("na-gazala", "tobruk_multiplier = 2", "tobruk_multiplier = 4", "tobruk_multiplier", "expected 3"),
    ("na-1st-alamein", 'hex = "X73"', 'hex = "Y75"', "force[4].hex", "shares Y75 with NZDiv"),
    ("na-1st-alamein", 'turn = "II Jul 42"', 'turn = "II Aug 42"', "force[7].arrives.turn", "outside the scenario"),
    ("na-alamein", 'hex = "W77"', 'hex = "W50"', "force[5].hex", "outside the scenario's area"),
    ("na-alam-halfa", 'places = ["tel-el-eisa"', 'places = ["tel-el-eissa"', "fortification[0].places[0]", "no place or one-hex zone"),
    ("na-crusader", 'unit = "15Pz"\nform = "XX+"', 'unit = "90Lt"\nform = "XX+"', "force[18].unit", "listed twice"),
    (
        "na-mersa-matruh",
        'test = "bypass", zone = "mersa-matruh", toward = "east"',
        'test = "bypass", zone = "mersa-matruh"',
        "victory.condition.parts[1].toward",
        "needs the direction",
    ),
    ("na-gazala", "turns = 5", 'turns = "five"', "turns", "expected an integer"),
    ("na-gazala", 'start = "II May 42"\n', "", "start", "missing (required)"),
    ("na-gazala", 'first = "axis"', 'first = "germans"', "first", "expected one of allied, axis"),
    ("na-gazala", 'hex = "K35"', 'hex = "K99"', "force[2].hex", "not a land hex of the map"),
    # the campaign's package reads units_from for its own system only, and the counters come from it alone
    ("na-gazala", 'system = "north-africa-campaign"', 'system = "gazala-gallop"', "units_from", "read by the north-africa-campaign system"),
    ("na-gazala", "turns = 5\n", 'turns = 5\nunit = [{ id = "X" }]\n', "unit", "has its units from it, not as [[unit]]"),
]


@pytest.mark.parametrize(("name", "old", "new", "field", "problem"), BAD_SCENARIOS)
def test_a_malformed_scenario_names_file_and_field(tmp_path: Path, name: str, old: str, new: str, field: str, problem: str) -> None:
    path = edited_copy(tmp_path, "scenarios", name, old, new)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.source == str(path)
    assert err.value.field.endswith(field) and problem in err.value.problem, str(err.value)


def test_every_campaign_data_file_validates() -> None:
    read_track(read_packaged_toml("tracks", "north-africa"), "north-africa")
    read_forces(read_packaged_toml("forces", "north-africa"), "north-africa")
    for name in (*SCENARIOS, CAMPAIGN):
        load_scenario(name)


@pytest.mark.parametrize("command", ["arena", "fuzz"])
def test_an_arena_or_fuzzing_of_a_campaign_scenario_is_refused_in_one_line(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The checks of systems played in full leave the campaign's preview out (``tobruk play`` plays it:
    test_game.py)."""
    from tobruk.cli import main

    assert main([command, "na-gazala"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tobruk: data/scenarios/na-gazala.toml: system: ") and "tobruk show na-gazala" in err
    assert "\n" not in err


def test_the_digest_covers_the_forces_and_track_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record names its scenario by digest: a changed counter or date must change it."""
    import tobruk.loading.scenario as scenario_module
    from tobruk.loading.datafile import Table, read_packaged_toml

    before = load_scenario("na-gazala").digest
    real = read_packaged_toml  # the loader's own, which it imports by name
    for folder in ("forces", "tracks"):

        def edited(f: str, name: str, folder: str = folder) -> Table:
            t = real(f, name)
            return Table({**t.data, "title": t.data["title"] + " (edited)"}, t.source) if f == folder else t

        monkeypatch.setattr(scenario_module, "read_packaged_toml", edited)
        assert load_scenario("na-gazala").digest != before
        monkeypatch.setattr(scenario_module, "read_packaged_toml", real)
    assert load_scenario("na-gazala").digest == before


@pytest.mark.parametrize(
    ("name", "old", "new", "field", "problem"),
    [
        (
            "na-gazala",
            "tobruk_multiplier = 2",
            "tobruk_multiplier = 4",
            "tobruk_multiplier",
            "expected 3 (CA-F.4) or 2 (the Gazala listing)",
        ),
        ("na-gazala", 'end = "II Jul 42"', 'end = "I May 42"', "end", "'I May 42' comes before the start 'II May 42'"),
        (
            "na-gazala",
            'end = "II Jul 42"',
            'end = "I Feb 43"',
            "end",
            "'I Feb 43' is not on the north-africa turn track (II Mar 41 to II Jan 43)",
        ),
        (
            "na-gazala",
            'units_from = "north-africa"',
            'units_from = "south-america"',
            "units_from",
            "no order of battle 'south-america' (known: north-africa)",
        ),
        ("na-gazala", 'unit = "90Lt"\nhex = "O33"', 'unit = "90Lt"\nhex = "A3"', "force[22].hex", "A3 is not a land hex of the map"),
        ("na-gazala", 'unit = "50Div"\n', 'unit = "50Div"\ntank = "Grant"\n', "force[1].tank", "50Div is not an Allied armour unit"),
        (
            "na-gazala",
            'unit = "90Lt"\n',
            'unit = "90Lt"\nform = "XX+"\n',
            "force[22].form",
            "90Lt is not a panzer division with subunits (CA-U.1)",
        ),
        (
            "na-gazala",
            'unit = "90Lt"\nhex = "O33"\nsetup_zone = "axis-setup"\n',
            'unit = "90Lt"\n',
            "force[22].hex",
            "missing: give a hex, a place, a setup_zone, an arrives table or off_map = true",
        ),
        (
            "na-1st-alamein",
            'place = "Deir el Shein"',
            'hex = "X73"\nplace = "Deir el Shein"',
            "force[1].place",
            "give a hex or a place, not both",
        ),
        (
            "na-1st-alamein",
            'turn = "II Jul 42"',
            'turn = "II Jul 39"',
            "force[7].arrives.turn",
            "'II Jul 39' is not on the north-africa turn track (II Mar 41 to II Jan 43)",
        ),
        ("na-alam-halfa", "count = 3", "count = 0", "fortification[1].count", "expected 1 or more"),
        (
            "na-alam-halfa",
            'side = "allied"\nplaces',
            'side = "allied"\ncount = 5\nplaces',
            "fortification[0].count",
            "5 does not match the 6 fixed positions",
        ),
        (
            "na-alam-halfa",
            'count = 3\nzone = "axis-setup"\n',
            "count = 3\n",
            "fortification[1].zone",
            "missing: give fixed hexes/places or the zone they are built in",
        ),
        (
            "na-crusader",
            'units = { GdsBde = "2pdr" }',
            'units = { GdsBdx = "2pdr" }',
            "anti_tank.units.GdsBdx",
            "no unit 'GdsBdx' in the order of battle 'north-africa'",
        ),
        ("na-el-agheila-2", 'no_forts = ["axis"]', 'no_forts = ["germans"]', "no_forts[0]", "expected one of axis, allied, got 'germans'"),
        # the victory condition (CA-SC.1-9): its side, a combination's parts, a supply line's direction
        (
            "na-gazala",
            'clause = "CA-SC.5"\nside = "axis"\n',
            'clause = "CA-SC.5"\n',
            "victory.side",
            "missing: the side the condition is for",
        ),
        (
            "na-gazala",
            'strategic = { test = "all", parts = [\n  { test = "take", zone = "tobruk-centre" },\n'
            '  { test = "occupy", zone = "sheet-east-edge", supplied = true },\n] }',
            'strategic = { test = "all", parts = [] }',
            "victory.strategic.parts",
            "'all' needs at least one part",
        ),
        (
            "na-crusader",
            'test = "supply-line", zone = "tobruk", toward = "east"',
            'test = "supply-line", zone = "tobruk"',
            "victory.condition.toward",
            "'supply-line' needs the direction it is judged toward",
        ),
    ],
)
def test_a_campaign_scenarios_refusals_word_for_word(tmp_path: Path, name: str, old: str, new: str, field: str, problem: str) -> None:
    path = edited_copy(tmp_path, "scenarios", name, old, new)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert (err.value.source, err.value.problem) == (str(path), problem)
    assert err.value.field.endswith(field), err.value.field
