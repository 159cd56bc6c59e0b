"""A VASSAL module of a scenario: ``tobruk export-vassal SCENARIO out.vmod`` (docs/vassal.md).

For wargamers who play with VASSAL rather than in this program's browser page.  A module (``.vmod``) is a ZIP
file: ``buildFile.xml`` (the module's components as XML elements named by VASSAL's Java classes),
``moduledata`` (its name and version) and ``images/``.  This one holds:

* the map, drawn by this program's renderer (``images/map.png``) as the board of the main map window, with a hex
  grid matching the drawing (pointy-topped hexes: VASSAL's ``sideways`` grid);
* a counter per unit of the order of battle (``images/<id>.png``, drawn as the map draws counters: the side's
  colour, the type's symbol, the id and the factors), each a piece whose properties carry its values (``Side``,
  ``Attack``, ``Defence``, ``Movement``, ``Name``), in a counters window by side;
* the scenario's set-up: every unit with a starting hex stands there at the start (an at-start stack at the hex's
  centre), and every other unit waits on a second board, "Set-up and reinforcements", in a box per set-up zone or
  per turn of arrival, so every counter of the order of battle is placed;
* the turn track (the turns as the scenario names them: a dated track's half-months, else ``Turn 1`` ... ``Turn N``)
  and a six-sided die.

It is written here with the standard library (``zipfile``, ``xml.etree``), not with the ``pywargame`` package,
whose VASSAL part needs Python 3.12 while this project runs on 3.11 (docs/vassal.md says why it stays there);
pywargame's reader checks the result in the tests.  The rules are not in the module: VASSAL moves counters, the
players apply the rules.  The map and counter pictures need ``cairosvg`` (the ``maps`` extra).
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from tobruk.board.units import UnitDef
from tobruk.engine.system import system_for, system_names
from tobruk.loading.scenario import Scenario
from tobruk.render.pictures import svg_to_png
from tobruk.render.svg import counter_svg, map_layout, render_map

MODULE = "VASSAL.build.module."
WIDGET = "VASSAL.build.widget."
MAP = MODULE + "map."
BOARD = MAP + "boardPicker."
HEX_SIZE = 40.0  # the hexes' radius on the map picture, pixels
COUNTER = 48  # a counter's side, pixels
POOL_BOARD = "Set-up and reinforcements"
VASSAL_VERSION = "3.7.0"
FIRST_GPID = 100


@dataclass(frozen=True)
class Placement:
    """Where a unit starts: an at-start stack's name, board and pixel position on it."""

    stack: str
    board: str
    x: int
    y: int


def _text(value: str) -> str:
    """A value as VASSAL's piece definitions carry it: the command's separator ``/`` escaped by a backslash, as VASSAL's
    sequence encoder does (so "M13/40" reads back whole); the traits' separators (``;``, tab), backslashes and line
    breaks, which no name or value needs, out."""
    return re.sub(r"[;\t\r\n\\]", " ", value).strip().replace("/", "\\/")


def marks(d: UnitDef) -> list[tuple[str, str]]:
    """What the counter prints beyond its id and name (its system's :meth:`UnitDef.printed`: the family's type and
    factors, another system's steps and morale), each a named value on the piece, in the counter's own order."""
    return [(name.replace("_", " ").capitalize(), _text(str(value))) for name, value in d.printed().items() if value is not None]


def piece_definition(d: UnitDef, image: str, gpid: int) -> str:
    """The piece's encoded definition (VASSAL's ``AddCommand``: ``+/null/TYPES/STATES``): a static property per value
    (VASSAL's ``Marker`` trait, ``mark``), then the basic piece with its picture and name.  Each trait's type and state
    are ``;``-separated fields; the traits are tab-separated, with one more backslash before each tab past the
    first, so that VASSAL's sequence decoder reads the nesting back."""
    values = [("Side", d.side.value), *marks(d), ("Name", _text(d.name))]
    types = [f"mark;{name}" for name, _ in values] + [f"piece;;;{image};{_text(d.id)}"]
    states = [str(value) for _, value in values] + [f"null;0;0;{gpid};0"]

    def nested(parts: list[str]) -> str:
        return "".join(("\\" * (i - 1) + "\t" if i else "") + part for i, part in enumerate(parts))

    return f"+/null/{nested(types)}/{nested(states)}"


def _pool_groups(scenario: Scenario) -> dict[str, list[UnitDef]]:
    """The units that start off the map, by where they wait: their set-up zone, their turn of arrival."""
    groups: dict[str, list[UnitDef]] = {}
    for d in scenario.units:
        if scenario.start.get(d.id) is not None:
            continue
        if d.id in scenario.setup_zone:
            key = f"{d.side.display} set-up: {scenario.setup_zone[d.id]}"
        elif d.id in scenario.reinforcements:
            r = scenario.reinforcements[d.id]
            key = f"Turn {r.turn}: {d.side.display} reinforcements ({r.zone})"
        else:
            key = f"{d.side.display}: off the map"
        groups.setdefault(key, []).append(d)
    return groups


def _pool_svg(groups: dict[str, list[UnitDef]]) -> tuple[str, dict[str, tuple[int, int, int]]]:
    """The off-map board: a labelled box per group, wide enough for its counters side by side.  Each group's box
    (left, centre line, counters' first x)."""
    width = max([12, *(len(units) for units in groups.values())]) * (COUNTER + 6) + 40
    row = COUNTER + 44
    height = max(1, len(groups)) * row + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="DejaVu Sans, Arial, sans-serif">',
        '<rect width="100%" height="100%" fill="#fbf8ef"/>',
    ]
    boxes: dict[str, tuple[int, int, int]] = {}
    for i, (name, _units) in enumerate(sorted(groups.items())):
        top = 10 + i * row
        out.append(f'<rect x="10" y="{top}" width="{width - 20}" height="{row - 8}" fill="none" stroke="#b9ab88"/>')
        out.append(f'<text x="18" y="{top + 18}" font-size="14">{_escape(name)}</text>')
        boxes[name] = (10, top + 24 + COUNTER // 2, 20 + COUNTER // 2)
    out.append("</svg>")
    return "\n".join(out), boxes


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def placements(scenario: Scenario, map_board: str) -> dict[str, Placement]:
    """Where each unit of the order of battle starts (on the map's board, or in its group's box on the pool board)."""
    layout = map_layout(HEX_SIZE)
    out: dict[str, Placement] = {}
    for d in scenario.units:
        h = scenario.start.get(d.id)
        if h is not None:
            x, y = layout.centre(h)
            out[d.id] = Placement(h.label, map_board, round(x), round(y))
    _svg, boxes = _pool_svg(_pool_groups(scenario))
    for name, units in _pool_groups(scenario).items():
        _left, y, first = boxes[name]
        for i, d in enumerate(units):
            out[d.id] = Placement(f"{name} {i + 1}", POOL_BOARD, first + i * (COUNTER + 6), y)
    return out


def _grid(board: ET.Element) -> None:
    """The map's hex grid for VASSAL: pointy-topped hexes in rows (``sideways``), so VASSAL's dx and dy, given for
    its columns of flat-topped hexes, are the rows' spacing and the width of a hex here; the origin is A1's centre."""
    layout = map_layout(HEX_SIZE)
    ET.SubElement(
        board,
        BOARD + "board.HexGrid",
        color="0,0,0",
        cornersLegal="false",
        dotsVisible="false",
        dx=f"{HEX_SIZE * 1.5:.3f}",
        dy=f"{HEX_SIZE * math.sqrt(3):.3f}",
        edgesLegal="false",
        sideways="true",
        snapTo="true",
        visible="false",
        x0=str(round(layout.origin_y)),
        y0=str(round(layout.origin_x)),
    )


def _map_window(game: ET.Element, name: str, board_name: str, image: str, width: int, height: int, grid: bool) -> ET.Element:
    window = ET.SubElement(game, MODULE + "Map", mapName=name, buttonName=name, allowMultiple="false", launch="false", markMoved="Always")
    picker = ET.SubElement(window, MAP + "BoardPicker", title="Choose Boards", selected="")
    board = ET.SubElement(picker, BOARD + "Board", name=board_name, image=image, width=str(width), height=str(height), reversible="false")
    if grid:
        _grid(board)
    ET.SubElement(picker, "setup").text = f"{name}BoardPicker\t{board_name}\tfalse\t"
    ET.SubElement(window, MAP + "StackMetrics", bottom="40", disabled="false", exSepX="6", exSepY="18", unexSepX="4", unexSepY="4")
    for part in ("ForwardToChatter", "MenuDisplayer", "MapCenterer", "StackExpander", "PieceMover", "KeyBufferer", "Zoomer"):
        ET.SubElement(window, MAP + part)
    return window


def build_module(scenario: Scenario, version: str = "1.0") -> bytes:
    """The VASSAL module of ``scenario`` as the bytes of a ``.vmod`` file."""
    system = system_for(scenario.system) if scenario.system in system_names() else None  # (data only: the family's look)
    rendering, objectives = (system.rendering(), system.objectives(scenario)) if system is not None else (None, ())
    svg = render_map(scenario.map, size=HEX_SIZE, rendering=rendering, title=scenario.title, legend=True, objectives=objectives)
    map_png = svg_to_png(svg)
    groups = _pool_groups(scenario)
    pool_svg, _boxes = _pool_svg(groups)
    pool_png = svg_to_png(pool_svg)
    files: dict[str, bytes] = {"images/map.png": map_png, "images/pool.png": pool_png}

    game = ET.Element(
        "VASSAL.build.GameModule",
        name=f"tobruk: {scenario.title}",
        version=version,
        VassalVersion=VASSAL_VERSION,
        description=f"{scenario.title}, exported by tobruk from the scenario {scenario.name}",
        ModuleOther1="",
        ModuleOther2="",
        nextPieceSlotId=str(FIRST_GPID + len(scenario.units)),
    )
    for part in ("BasicCommandEncoder", "Chatter", "KeyNamer"):
        ET.SubElement(game, MODULE + part)
    ET.SubElement(
        game,
        MODULE + "DiceButton",
        name="1d6",
        nDice="1",
        nSides="6",
        plus="0",
        addToTotal="0",
        reportTotal="false",
        text="1d6",
        tooltip="Roll a six-sided die",
        reportFormat="** $name$ = $result$ *** &lt;$PlayerName$&gt;",
        hotkey="",
        icon="",
    )
    gpids = {d.id: FIRST_GPID + i for i, d in enumerate(scenario.units)}
    window = ET.SubElement(game, MODULE + "PieceWindow", name="Counters", hidden="false", scale="1.0", text="Counters", tooltip="Counters")
    for side in sorted({d.side for d in scenario.units}, key=lambda s: s.value):
        listing = ET.SubElement(window, WIDGET + "ListWidget", entryName=side.display, width="300", height="0", divider="150", scale="1.0")
        for d in (u for u in scenario.units if u.side is side):
            files[f"images/{d.id}.png"] = svg_to_png(counter_svg(d, rendering, COUNTER))
            slot = ET.SubElement(
                listing, WIDGET + "PieceSlot", entryName=d.id, gpid=str(gpids[d.id]), width=str(COUNTER), height=str(COUNTER)
            )
            slot.text = piece_definition(d, f"{d.id}.png", gpids[d.id])

    width, height = _png_size(map_png)
    main = _map_window(game, "Main map", scenario.title, "map.png", width, height, grid=True)
    pool_width, pool_height = _png_size(pool_png)
    pool = _map_window(game, POOL_BOARD, POOL_BOARD, "pool.png", pool_width, pool_height, grid=False)
    for uid, p in placements(scenario, scenario.title).items():
        d = scenario.unit(uid)
        stack = ET.SubElement(
            main if p.board == scenario.title else pool,
            MODULE + "map.SetupStack",
            name=p.stack,
            owningBoard=p.board,
            useGridLocation="false",
            location="",
            x=str(p.x),
            y=str(p.y),
        )
        slot = ET.SubElement(stack, WIDGET + "PieceSlot", entryName=d.id, gpid=str(gpids[d.id]), width=str(COUNTER), height=str(COUNTER))
        slot.text = piece_definition(d, f"{d.id}.png", gpids[d.id])

    tracker = ET.SubElement(
        game,
        MODULE + "turn.TurnTracker",
        name="Turn",
        buttonText="Turn",
        turnFormat="$level1$",
        length="-1",
        lengthStyle="Maximum",
        fwdOnly="true",
        hotkey="",
        icon="",
        reportFormat="Turn updated from $oldTurn$ to $newTurn$",
    )
    ET.SubElement(
        tracker,
        MODULE + "turn.ListTurnLevel",
        property="Turn",
        list=",".join(_text(scenario.turn_name(n)) for n in range(1, scenario.turns + 1)),
        configFirst="false",
        configList="false",
        turnFormat="$value$",
    )

    build = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(game, encoding="utf-8")
    moduledata = ET.Element("data", version="1")
    for key, value in (
        ("version", version),
        ("extra1", ""),
        ("extra2", ""),
        ("VassalVersion", VASSAL_VERSION),
        ("dateSaved", "0"),
        ("description", f"{scenario.title} (tobruk)"),
        ("name", f"tobruk: {scenario.title}"),
    ):
        ET.SubElement(moduledata, key).text = value
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", build)
        z.writestr("moduledata", b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(moduledata, encoding="utf-8"))
        for name, data in sorted(files.items()):
            z.writestr(name, data)
    return out.getvalue()


def _png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def preview(vmod: bytes, map_name: str = "Main map") -> bytes:
    """A picture (PNG) of a module's map window as VASSAL opens it: the board, and each at-start stack's counters at
    their place, read back from the module's own ``buildFile.xml`` and images (for docs/vassal.md)."""
    import base64

    with zipfile.ZipFile(io.BytesIO(vmod)) as z:
        root = ET.fromstring(z.read("buildFile.xml"))
        window = next(m for m in root.iter(MODULE + "Map") if m.get("mapName") == map_name)
        board = next(window.iter(BOARD + "Board"))

        def data(name: str) -> str:
            return "data:image/png;base64," + base64.b64encode(z.read(f"images/{name}")).decode()

        width, height = board.get("width", "0"), board.get("height", "0")
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{width}" height="{height}">',
            f'<image x="0" y="0" width="{width}" height="{height}" xlink:href="{data(board.get("image", ""))}"/>',
        ]
        for stack in window.iter(MODULE + "map.SetupStack"):
            x, y = int(stack.get("x", "0")), int(stack.get("y", "0"))
            for i, slot in enumerate(stack.iter(WIDGET + "PieceSlot")):
                image = re.split(r"(?<!\\)/", slot.text or "")[2].split("\t")[-1].split(";")[3]  # the basic piece's picture
                size = int(slot.get("width", str(COUNTER)))
                left, top = x - size // 2 + 4 * i, y - size // 2 + 4 * i
                out.append(f'<image x="{left}" y="{top}" width="{size}" height="{size}" xlink:href="{data(image)}"/>')
        out.append("</svg>")
    import cairosvg

    return bytes(cairosvg.svg2png(bytestring="\n".join(out).encode()))
