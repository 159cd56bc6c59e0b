"""Pictures of a packaged map for the documentation: the bare map (no counters) as SVG, and as PNG when the
``maps`` extra's ``cairosvg`` is installed.

``python -m tobruk.render.pictures NAME [FOLDER]`` writes ``NAME-map.svg`` (and ``NAME-map.png``) into
FOLDER (``docs`` by default), for a map rebuilt from the geography to be reviewed as a picture.  The title
says what the map file says: its name and, if it has a georeference, its hex size.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tobruk.engine.errors import ScenarioError
from tobruk.loading.datafile import Table, read_packaged_toml
from tobruk.loading.mapfile import read_map
from tobruk.render.svg import render_map

# a name with a halo: cairo ignores paint-order, so for the PNG the halo becomes a text of its own under the name
_HALOED_TEXT = re.compile(r'(<text [^>]*?) (stroke="[^"]*" stroke-width="[^"]*") paint-order="stroke">([^<]*)</text>')


def map_title(table: Table) -> str:
    """``<map name>: <n> km hexes, rebuilt from the geography (docs/reconstruction.md)`` for a map file; the
    name alone for a map drawn without a georeference."""
    name = table.data.get("name", "map")
    georef = table.data.get("georeference")
    if not georef:
        return str(name)
    return f"{name}: {georef['hex_km']:g} km hexes, rebuilt from the geography (docs/reconstruction.md)"


def write_map_pictures(out_dir: Path, name: str) -> list[Path]:
    """The bare map as ``<name>-map.svg`` and, when ``cairosvg`` is installed, ``<name>-map.png``.

    The PNG is drawn at the SVG's own size, so a reader can zoom to the hex labels.
    """
    table = read_packaged_toml("maps", name)
    svg = render_map(read_map(table), title=map_title(table))
    out_dir.mkdir(parents=True, exist_ok=True)
    svg_path = out_dir / f"{name}-map.svg"
    svg_path.write_text(svg, encoding="utf-8")
    try:
        png = svg_to_png(svg)
    except (ImportError, OSError):  # the package, or the cairo library it loads, is missing
        return [svg_path]
    png_path = out_dir / f"{name}-map.png"
    png_path.write_bytes(png)
    return [svg_path, png_path]


def svg_to_png(svg: str) -> bytes:
    """An SVG drawing of this renderer as PNG, at its own size (``cairosvg``, the ``maps`` extra; ImportError or
    OSError without it).  Cairo has no ``paint-order``, so a haloed label is drawn twice, halo then text."""
    import cairosvg

    for_cairo = _HALOED_TEXT.sub(r"\1 \2>\3</text>\1>\3</text>", svg)
    return bytes(cairosvg.svg2png(bytestring=for_cairo.encode("utf-8")))


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print("usage: python -m tobruk.render.pictures MAP [FOLDER]", file=sys.stderr)
        return 2
    try:
        written = write_map_pictures(Path(argv[1] if len(argv) > 1 else "docs"), argv[0])
    except ScenarioError as exc:
        print(f"tobruk: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # python -m tobruk.render.pictures north-africa docs
    sys.exit(main(sys.argv[1:]))
