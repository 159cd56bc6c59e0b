"""Run by tests/faces/test_vassal.py under Python 3.12 or newer (run.py's ``.venv/vassal-reader``): opens a VASSAL
module with pywargame's reader and prints what it read as JSON: the module's name and files, each map window's
boards and at-start pieces with their decoded traits, the counters windows' pieces and the turn tracks' lists.
Kept apart from the tests because pywargame's VASSAL part does not even import on this project's Python 3.11."""

from __future__ import annotations

import json
import sys
from typing import Any


def main(path: str) -> None:
    from pywargame.vassal import BuildFile, VMod

    with VMod(path, "r") as vmod:
        game = BuildFile(vmod.getBuildFile()).getGame()
        out: dict[str, Any] = {"name": game["name"], "files": vmod.getFileNames(), "maps": {}, "windows": {}, "turns": {}}
        for name, window in game.getMaps().items():
            boards = {
                b_name: {"image": b["image"], "width": b["width"], "height": b["height"]}
                for picker in window.getBoardPicker()
                for b_name, b in picker.getBoards().items()
            }
            pieces = []
            for stack in window.getAtStarts(False):
                for piece_name, piece in stack.getPieces().items():
                    traits = [[t.ID, list(t._type), list(t._state)] for t in piece.getTraits()]
                    pieces.append(
                        {
                            "stack": stack["name"],
                            "board": stack["owningBoard"],
                            "x": stack["x"],
                            "y": stack["y"],
                            "piece": piece_name,
                            "traits": traits,
                        }
                    )
            out["maps"][name] = {"boards": boards, "pieces": pieces}
        for name, window in game.getPieceWindows().items():
            out["windows"][name] = sorted(p for listing in window.getLists().values() for p in listing.getPieceSlots())
        for name, track in game.getTurnTracks().items():
            out["turns"][name] = [level["list"] for level in track.getLists().values()]
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
