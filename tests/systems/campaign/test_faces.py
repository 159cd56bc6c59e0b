"""What the campaign shows a side over the map: the forts and boxes standing, drawn from the start (CA-F.1), the
enemy zones that stop the side's units (CA-Z.1), and the Allies' railway to the turn's railhead (CA-S.2); worked
out on small arranged positions of the real map and checked against the rules, not against the code."""

from __future__ import annotations

from typing import Any

import pytest

from tobruk.board.hexes import Hex, Hexside
from tobruk.board.maps import Map
from tobruk.engine.sides import Side
from tobruk.systems.campaign import live
from tobruk.systems.campaign.actions import Build
from tobruk.systems.campaign.scenario import CampaignSetup
from tobruk.systems.campaign.track import load_track

from .kit import SYSTEM, H, arrange, new_game, scenario, to_step


def layers(game: Any, side: Side) -> dict[str, dict[str, Any]]:
    return {o.key: o.data() for o in SYSTEM.overlays(game, side)}


def open_hex(m: Map, far_from: Hex) -> Hex:
    """A clear land hex whose six neighbours are clear land with nothing on the hexsides between, at least 8 hexes
    from ``far_from`` (so a lone unit there exerts its zone on exactly its six neighbours, CA-Z.1)."""
    for h in m.hexes:
        around = h.neighbours()
        if h.distance(far_from) < 8 or m.terrain.get(h) != "clear" or len(around) != 6:
            continue
        if all(m.terrain.get(n) == "clear" and not m.hexsides.get(Hexside.between(h, n)) for n in around):
            return h
    raise AssertionError("no open hex on the map")


@pytest.mark.rule("CA-F.1")
def test_a_fort_built_is_drawn_for_both_sides_from_the_start() -> None:
    game = to_step(new_game("na-mersa-matruh"), "axis-reinforcements")
    built = next(a for a in game.legal_orders() if isinstance(a, Build))
    before = {s: layers(game, s)["forts-axis"]["hexes"] for s in (Side.AXIS, Side.ALLIED)}
    game.play(built)
    for side in (Side.AXIS, Side.ALLIED):
        forts = layers(game, side)["forts-axis"]
        assert forts["shown"] is True and forts["title"] == "Axis forts"
        assert set(forts["hexes"]) == {*before[side], built.hex.label}
        assert SYSTEM.view(game, side)["forts"][built.hex.label] == "axis"
    assert built.hex.label not in layers(game, Side.AXIS)["forts-allied"]["hexes"]


@pytest.mark.rule("CA-Z.1")
def test_the_enemy_zones_drawn_are_those_that_stop_movement() -> None:
    game = to_step(new_game("na-gazala"), "axis-movement")
    m = scenario("na-gazala").map
    axis_home = H("V30")
    h = open_hex(m, axis_home)
    six = {n.label for n in h.neighbours()}

    # the scenario's fortifications stand, and an empty enemy one is a zone of its own hex (CA-F.3)
    extra = scenario("na-gazala").extra
    assert isinstance(extra, CampaignSetup)
    boxes = {h.label for f in extra.fortifications if f.side is Side.ALLIED for h in f.hexes}
    forts = {h.label for f in extra.fortifications if f.side is Side.AXIS for h in f.hexes}
    assert boxes  # (the Axis has none at the start: II May 42)

    # an undisrupted division alone stops movement in its six neighbours
    arrange(game, {"90Lt": axis_home.label, "50Div": h.label})
    assert set(layers(game, Side.AXIS)["enemy-zoc"]["hexes"]) == six | boxes
    assert layers(game, Side.AXIS)["enemy-zoc"]["shown"] is False  # a layer to tick
    # a single lower-level unit does not, unless it is undisrupted pure armour (until attacked)
    arrange(game, {"90Lt": axis_home.label, "7ArmSpt": h.label})
    assert set(layers(game, Side.AXIS)["enemy-zoc"]["hexes"]) == boxes
    arrange(game, {"90Lt": axis_home.label, "2ArmBde": h.label})
    assert set(layers(game, Side.AXIS)["enemy-zoc"]["hexes"]) == six | boxes
    arrange(game, {"90Lt": axis_home.label, "2ArmBde": h.label}, disrupted=("2ArmBde",))
    assert set(layers(game, Side.AXIS)["enemy-zoc"]["hexes"]) == boxes
    # nor are a side's own units a zone to it
    arrange(game, {"90Lt": h.label, "50Div": axis_home.label})
    assert set(layers(game, Side.ALLIED)["enemy-zoc"]["hexes"]) == six | forts


@pytest.mark.rule("CA-S.2")
@pytest.mark.rule("CA-F.11")
def test_the_allies_are_drawn_the_railway_to_the_railhead_of_the_turn() -> None:
    """From the line's east end along the railway to the turn track's railhead, the part inside the scenario's
    section of the map (Gazala is played on the centre sheet, CA-F.11)."""
    game = to_step(new_game("na-gazala"), "allied-reinforcements")
    m = scenario("na-gazala").map
    track = load_track("north-africa")  # the turn track's data
    head = m.place(track.railhead(game.scenario.turn_name(game.turn))).hex
    working = m.railway[: m.railway.index(head) + 1]
    area = live.position(game).area  # the scenario's area (its "centre-sheet"), read from its file
    assert area is not None
    section = {m.hexes[i] for i in area}
    (line,) = layers(game, Side.ALLIED)["railway"]["lines"]
    assert line == [h.label for h in working if h in section]
    assert len(line) > 1 and head in section and line[-1] == head.label
    assert "railway" not in layers(game, Side.AXIS)  # the Axis moves by no railway (CA-S.2 is the Allies')
