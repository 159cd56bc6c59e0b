"""The campaign's packaged data as its tests read it: the order of battle and the turn track read when a test first
asks, the scenarios' names and their listings in the rules, a scenario's set-up, and a packaged file copied with one
edit (for the refusals).

The listings (:data:`LISTINGS`) are copied by hand from the scenario listings of the campaign rules (CA-SC.1-9), not
from the data files, so a drift in either shows in the tests that compare them.
"""

from __future__ import annotations

from pathlib import Path

from tobruk.loading.datafile import packaged_path
from tobruk.loading.scenario import Scenario
from tobruk.systems.campaign.forces import Forces, load_forces
from tobruk.systems.campaign.scenario import CampaignSetup
from tobruk.systems.campaign.track import Track, load_track


def forces() -> Forces:
    """The campaign's order of battle, read when a test first asks rather than at import: the mutation run forks each
    mutant's tests from a process that has imported the test modules, so what they read at import no mutant meets."""
    return load_forces("north-africa")


def track() -> Track:
    """The campaign's turn track, read when a test first asks (as :func:`forces`)."""
    return load_track("north-africa")


SCENARIOS = (
    "na-el-agheila-1",
    "na-el-agheila-2",
    "na-el-agheila-3",
    "na-crusader",
    "na-gazala",
    "na-mersa-matruh",
    "na-1st-alamein",
    "na-alam-halfa",
    "na-alamein",
)
CAMPAIGN = "na-campaign"


# (clause, start, end, number of turns, Allied units, Axis units), from the listings; a panzer division
# listed XX+ brings its regiment (CA-U.1), XX- is the division's base counter alone.
LISTINGS: dict[str, tuple[str, str, str, int, set[str], set[str]]] = {
    "na-el-agheila-1": (
        "CA-SC.1",
        "II Mar 41",
        "II Apr 41",
        3,
        {"3ArmBde", "1ArmSpt"},
        {"5PzRgt", "15MotBde", "RecceGp", "Ariete", "XXICorps"},
    ),
    "na-el-agheila-2": (
        "CA-SC.2",
        "I Dec 41",
        "II Jan 42",
        4,
        {"2ArmBde", "1ArmSpt", "GdsBde"},
        {"15Pz", "8PzRgt", "21Pz", "5PzRgt", "90Lt", "RecceGp", "Ariete", "Trieste", "XXICorps"},
    ),
    "na-el-agheila-3": (
        "CA-SC.3",
        "I Dec 42",
        "II Jan 43",
        4,
        {"51Div", "NZDiv", "4LtArmBde", "22ArmBde", "1ArmSpt", "8ArmBde"},
        {"15Pz", "21Pz", "90Lt"},
    ),
    "na-crusader": (
        "CA-SC.4",
        "II Nov 41",
        "I Jan 42",
        4,
        {
            "44Div",
            "1PolBde",
            "32TkBde",
            "NZDiv",
            "4IndDiv",
            "1SADiv",
            "2SADiv",
            "1TkBde",
            "4LtArmBde",
            "7ArmBde",
            "22ArmBde",
            "7ArmSpt",
            "GdsBde",
        },
        {"XXICorps", "Ariete", "Trieste", "15Pz", "8PzRgt", "21Pz", "5PzRgt", "90Lt", "RecceGp"},
    ),
    "na-gazala": (
        "CA-SC.5",
        "II May 42",
        "II Jul 42",
        5,
        {
            "50Div",
            "1SADiv",
            "2SADiv",
            "5IndDiv",
            "1FFBde",
            "2ArmBde",
            "4LtArmBde",
            "22ArmBde",
            "1TkBde",
            "32TkBde",
            "7ArmSpt",
            "GdsBde",
            "3IndMotBde",
            "1ArmBde",
        },
        {"XCorps", "XXICorps", "Ariete", "Trieste", "15Pz", "8PzRgt", "21Pz", "5PzRgt", "90Lt", "RecceGp", "15MotBde"},
    ),
    "na-mersa-matruh": (
        "CA-SC.6",
        "II Jun 42",
        "I Jul 42",
        2,
        {"50Div", "5IndDiv", "NZDiv", "4LtArmBde", "22ArmBde", "1ArmSpt", "7ArmSpt", "3IndMotBde", "1SADiv"},
        {"Ariete", "Littorio", "Trieste", "15Pz", "8PzRgt", "21Pz", "90Lt", "RecceGp"},
    ),
    "na-1st-alamein": (
        "CA-SC.7",
        "I Jul 42",
        "I Aug 42",
        3,
        {"5IndDiv", "1SADiv", "NZDiv", "1ArmBde", "4LtArmBde", "1ArmSpt", "7ArmSpt", "2ArmBde", "AusDiv"},
        {"15Pz", "8PzRgt", "21Pz", "90Lt", "RecceGp", "Ariete", "Trieste", "XXICorps"},
    ),
    "na-alam-halfa": (
        "CA-SC.8",
        "I Sep 42",
        "I Oct 42",
        3,
        {"AusDiv", "44Div", "5IndDiv", "1SADiv", "NZDiv", "1ArmBde", "4LtArmBde", "22ArmBde", "23TkBde", "1ArmSpt", "7ArmSpt"},
        {
            "XCorps",
            "XXICorps",
            "Ariete",
            "Littorio",
            "Trieste",
            "Folgore",
            "15Pz",
            "8PzRgt",
            "21Pz",
            "5PzRgt",
            "90Lt",
            "164Div",
            "RecceGp",
            "15MotBde",
            "Ramcke",
        },
    ),
    "na-alamein": (
        "CA-SC.9",
        "II Oct 42",
        "II Nov 42",
        3,
        {
            "AusDiv",
            "44Div",
            "50Div",
            "51Div",
            "4IndDiv",
            "1SADiv",
            "NZDiv",
            "2ArmBde",
            "4LtArmBde",
            "8ArmBde",
            "22ArmBde",
            "24ArmBde",
            "23TkBde",
            "1ArmSpt",
            "7ArmSpt",
            "1FFBde",
            "GreekBde",
            "8ArmyArty",
        },
        {
            "XCorps",
            "XXICorps",
            "Ariete",
            "Littorio",
            "Trieste",
            "Folgore",
            "15Pz",
            "8PzRgt",
            "21Pz",
            "5PzRgt",
            "90Lt",
            "164Div",
            "RecceGp",
            "15MotBde",
            "Ramcke",
        },
    ),
}


def setup(s: Scenario) -> CampaignSetup:
    assert s.extension == "units_from" and isinstance(s.extra, CampaignSetup)
    return s.extra


def entering(s: Scenario, uid: str) -> str:
    return setup(s).arrivals.get(uid, setup(s).start)


def edited_copy(tmp_path: Path, folder: str, name: str, old: str, new: str) -> Path:
    packaged = packaged_path(folder, name)
    assert packaged is not None
    text = packaged.read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / f"{name}.toml"
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out
