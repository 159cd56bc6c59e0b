"""The ``tobruk`` command: scenarios, show, build-map, play, replay, form, arena, fuzz, serve, dump-games, load-games, export-vassal."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tobruk.board.hexes import Hex
from tobruk.board.maps import Map
from tobruk.engine.errors import RecordError, ScenarioError, TobrukError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.state import UnitState
from tobruk.engine.system import system_names
from tobruk.loading.scenario import Scenario, ScenarioExtension, extension_of, load_scenario, scenario_names
from tobruk.players.terminal import heading, status_words
from tobruk.record import load, record_of, replay, save
from tobruk.render.svg import render_map
from tobruk.view import unit_data


def _units(game: Game) -> list[tuple[Any, Any]]:
    return [(game.defs[uid], game.unit(uid).value()) for uid in game.unit_ids]


def summary(scenario: Scenario) -> str:
    """A text summary of a scenario: map, sources, boxes and the order of battle with positions."""
    m = scenario.map
    lines = [
        f"{scenario.title} ({scenario.name}), system {scenario.system}, {scenario.turns} turns",
        f"Map: {m.name}, {m.rows} rows x {m.columns} columns, {sum(m.is_land(h) for h in m.hexes)} land hexes",
    ]
    for side in Side:
        hexes = m.supply_sources.get(side, ())
        lines.append(f"{side.display} supply sources: {' '.join(h.label for h in hexes)}")
    boxes = [h.label for h, s in sorted(m.fortifications.items()) if s is Side.ALLIED]
    forts = [h.label for h, s in sorted(m.fortifications.items()) if s is Side.AXIS]
    lines.append(f"Allied boxes: {' '.join(boxes)}")
    lines.append(f"Axis forts: {' '.join(forts)}")
    for side in Side:
        lines.append(f"\n{side.display} order of battle:")
        for u in scenario.units:
            if u.side is not side:
                continue
            where = scenario.start.get(u.id)
            if u.id in scenario.reinforcements:
                r = scenario.reinforcements[u.id]
                place = f"arrives turn {r.turn} ({r.zone})"
            else:
                place = where.label if where else "off map"
            if u.id in scenario.setup_zone:
                place += f" (free set-up: {scenario.setup_zone[u.id]})"
            echelon = str(u.printed().get("echelon", ""))
            lines.append(f"  {u.id:<11} {u.factors:<6} {u.kind:<10} {echelon:<13} {u.name} - {place}")
    return "\n".join(lines)


def map_json(m: Map, game: Game) -> dict[str, Any]:
    return _map_json(m, game.scenario.name, game.units_at, [unit_data(d, u) for d, u in _units(game)])


def _map_json(m: Map, scenario_name: str, units_at: Callable[[Hex], list[str]], units: list[dict[str, Any]]) -> dict[str, Any]:
    hexes = []
    for h in m.hexes:
        features = [
            {
                "kind": f.kind,
                "side": s.label,
                "high": f.high.label if f.high else None,
                "owner": f.owner.value if f.owner else None,
                "inside": f.inside.label if f.inside else None,
            }
            for s in sorted(m.hexsides)
            if h in s.hexes
            for f in m.hexsides[s]
        ]
        routes = [{"to": s.other(h).label, "kind": k} for s, k in sorted(m.routes.items()) if h in s.hexes]
        hexes.append(
            {
                "hex": h.label,
                "terrain": m.terrain[h],
                "places": [p.name for p in m.places_in(h)],
                "fortification": m.fortifications[h].value if h in m.fortifications else None,
                "routes": routes,
                "hexsides": features,
                "units": units_at(h),
            }
        )
    return {
        "scenario": scenario_name,
        "map": m.name,
        "rows": m.rows,
        "columns": m.columns,
        "supply_sources": {s.value: [h.label for h in hs] for s, hs in m.supply_sources.items()},
        "zones": {z: sorted(h.label for h in hs) for z, hs in m.zones.items()},
        "hexes": hexes,
        "units": units,
    }


def cmd_scenarios(args: argparse.Namespace) -> int:
    for name in scenario_names():
        s = load_scenario(name)
        print(f"{name:<20} {s.title} ({s.system}, {s.turns} turns)")
    return 0


def scenario_arg(text: str) -> Scenario:
    """A packaged scenario by name, else a scenario file by path (its reader names the file and the field)."""
    from tobruk.loading.datafile import read_toml
    from tobruk.loading.scenario import read_scenario

    if text in scenario_names():
        return load_scenario(text)
    path = Path(text)
    if not path.exists() and "/" not in text and not path.suffix:
        raise ScenarioError(text, "(scenario)", f"no such file, nor a packaged scenario ({', '.join(scenario_names())})")
    if path.exists() and not path.is_file() and not path.is_dir():
        raise ScenarioError(text, "(file)", "not a regular file")
    return read_scenario(read_toml(path), path.stem)


def cmd_show(args: argparse.Namespace) -> int:
    scenario = scenario_arg(args.scenario)
    extension = extension_of(scenario)
    if extension is not None and scenario.system not in system_names():
        return _show_data_only(args, scenario, extension)
    if scenario.system not in system_names():
        return _show_data(args, scenario)
    game = Game(scenario)
    if args.svg:
        Path(args.svg).write_text(
            render_map(
                scenario.map,
                _units(game),
                title=scenario.title,
                rendering=game.system.rendering(),
                objectives=game.system.objectives(scenario),
            ),
            encoding="utf-8",
        )
        print(f"wrote {args.svg}", file=sys.stderr)
    if args.json:
        print(json.dumps(map_json(scenario.map, game), indent=1))
    elif not args.svg:
        print(summary(scenario))
    return 0


def _show_data_only(args: argparse.Namespace, scenario: Scenario, extension: ScenarioExtension) -> int:
    """A scenario whose rules are not played yet: its data, and its counters on the map, as its system's
    package shows them."""
    if args.svg:
        Path(args.svg).write_text(render_map(scenario.map, extension.counters(scenario), title=scenario.title), encoding="utf-8")
        print(f"wrote {args.svg}", file=sys.stderr)
    if args.json:
        print(json.dumps(extension.data(scenario), indent=1))
    elif not args.svg:
        print(extension.summary(scenario))
    return 0


def _show_data(args: argparse.Namespace, scenario: Scenario) -> int:
    """A scenario of a game system that is not played yet: its data, and its counters on their starting hexes."""
    counters = [(u, UnitState(hex=h)) for u in scenario.units if (h := scenario.start.get(u.id)) is not None]
    if args.svg:
        Path(args.svg).write_text(render_map(scenario.map, counters, title=scenario.title), encoding="utf-8")
        print(f"wrote {args.svg}", file=sys.stderr)
    if args.json:

        def units_at(h: Hex) -> list[str]:
            return [d.id for d, u in counters if u.hex == h]

        print(json.dumps(_map_json(scenario.map, scenario.name, units_at, [unit_data(d, u) for d, u in counters]), indent=1))
    elif not args.svg:
        print(summary(scenario))
    return 0


def cmd_build_map(args: argparse.Namespace) -> int:
    from tobruk.geography.build import write

    out = Path(args.out) if args.out else Path(__file__).parent / "data" / "maps" / f"{args.name}.toml"
    write(args.name, out)
    print(f"wrote {out}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A game at the terminal: each side a computer player or the person typing (``--axis human``), who is told what
    his side may read of the game as it goes (``tobruk.players.terminal``)."""
    from tobruk.engine.sides import Side
    from tobruk.players import make_player
    from tobruk.players.terminal import play

    game = Game(load_scenario(args.scenario), seed=args.seed, options=args.option or ())
    kinds = {Side.AXIS: args.axis, Side.ALLIED: args.allied}
    players = {side: make_player(k, args.seed * 2 + (1 if side is Side.AXIS else 2)) for side, k in kinds.items() if k != "human"}
    play(game, players, write=_say, verbose=args.verbose)
    print("\n".join(game.system.result_lines(game)))
    if args.record:
        save(record_of(game, {"axis": args.axis, "allied": args.allied}), Path(args.record))
        print(f"record written to {args.record}")
    return 0


def _say(line: str) -> None:
    """A line for the person at the terminal, written at once (a computer player may think a while after it)."""
    print(line, flush=True)


def cmd_replay(args: argparse.Namespace) -> int:
    rec = load(Path(args.file))
    if args.step:
        if args.verify:
            replay(rec, verify=True, source=args.file)  # an altered record is refused before the first turn
        return step_through(rec, args.file)
    game = replay(rec, verify=args.verify, source=args.file, upto=args.to)
    done = len(rec.orders) if args.to is None else max(0, min(args.to, len(rec.orders)))
    print(
        f"{rec.scenario}: {done} of {len(rec.orders)} orders replayed"
        f"{' and every state hash verified' if args.verify else ' (not verified)'}; turn {game.turn}, "
        f"phase {game.phase.key}{', game over' if game.is_over else ''}"
    )
    if args.to is not None:
        print(position_text(game))
    return 0


def position_text(game: Game) -> str:
    lines = [heading(game)]
    for uid in game.unit_ids:
        u = game.unit(uid)
        if u.hex is not None and not u.eliminated:
            d = game.defs[uid]
            lines.append(f"  {d.side.display:<6} {uid:<11} {d.factors:<6} {u.hex.label:<4}{status_words(game, uid)}")
    return "\n".join(lines)


def step_through(rec: Any, source: str, read: Any = input, write: Any = print) -> int:
    """Replay turn by turn: each Enter shows the next turn's events; 'q' stops."""
    from tobruk.record import play_recorded, start

    game = start(rec, verify=False, source=source)
    seen = len(game.state.log)
    for i in range(len(rec.orders)):
        turn = game.turn
        play_recorded(game, rec, i, verify=False, source=source)
        if game.turn != turn or i == len(rec.orders) - 1:
            write("\n".join(game.state.log[seen:]))
            seen = len(game.state.log)
            write(position_text(game))
            try:
                if read(f"-- end of turn {turn}: Enter for the next, q to stop -- ").strip() == "q":
                    return 0
            except EOFError:
                return 0
    return 0


def cmd_form(args: argparse.Namespace) -> int:
    from tobruk.tools import form

    log = form.build(load(Path(args.file)), source=args.file, game_number=args.number or "", date=args.date or "", verify=args.verify)
    stem = Path(args.file).with_suffix("")
    out = Path(args.out) if args.out else stem.with_name(stem.name + "-form." + args.format)
    if args.format == "md":
        out.write_text(form.to_markdown(log), encoding="utf-8")
    elif args.format == "html":
        out.write_text(form.to_html(log), encoding="utf-8")
    else:
        form.to_pdf(log, out)
    print(f"wrote {out}")
    if args.pictures:
        folder = Path(args.pictures)
        made = form.plots(log, folder) + form.turn_maps(log, folder)
        print(f"wrote {len(made)} pictures to {folder}")
    return 0


def _positive(text: str) -> int:
    """A whole number of at least 1, for argparse (which reports the ValueError as a usage error)."""
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text}")
    return n


def cmd_serve(args: argparse.Namespace) -> int:
    from tobruk.web.server import serve

    serve(
        args.db,
        host=args.host,
        port=args.port,
        db_url=args.db_url,
        scenario_dirs=[Path(d) for d in args.scenarios or ()],
        open_games=args.open_games,
        webhooks_anywhere=args.webhooks_anywhere,
    )
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    """``dump-games`` / ``load-games``: every game of a server's database to a file and back (docs/hosting.md)."""
    from tobruk.web import backup
    from tobruk.web.store import Store, StoreError

    try:
        store = Store(args.db_url or f"sqlite:///{args.db}")
        if args.command == "dump-games":
            with contextlib.nullcontext(sys.stdout) if args.file == "-" else open(args.file, "w", encoding="utf-8") as out:
                count = backup.dump(store, out)
            print(f"{count} games written to {args.file}", file=sys.stderr)
            return 0
        with contextlib.nullcontext(sys.stdin) if args.file == "-" else open(args.file, encoding="utf-8") as source:
            done = backup.load(store, source)
    except (StoreError, ValueError) as exc:
        return _fail(f"{args.file}: {exc}")
    print(f"{done.added} games added, {done.extended} continued, {done.unchanged} already there, {len(done.refused)} refused")
    for why in done.refused:
        print(f"  refused: {why}")
    return 1 if done.refused else 0


def cmd_export_vassal(args: argparse.Namespace) -> int:
    """A VASSAL module of a scenario (docs/vassal.md)."""
    from tobruk.tools.vassal import build_module

    try:
        data = build_module(load_scenario(args.scenario))
    except ImportError as exc:
        return _fail(f"export-vassal needs cairosvg to draw the map and counters (pip install 'tobruk[maps]'): {exc}")
    Path(args.out).write_bytes(data)
    print(f"{args.out}: a VASSAL module of {args.scenario} ({len(data) // 1024} KiB)")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from tobruk.engine.throughput import for_many_games
    from tobruk.tools import arena

    for_many_games()

    names = args.players.split(",")
    if len(names) != 2:
        raise SystemExit("--players takes two player names, e.g. greedy,random")
    outcomes = arena.run(
        args.scenario,
        names[0],
        names[1],
        args.games,
        jobs=args.jobs,
        seed=args.seed,
        options=tuple(args.option or ()),
        progress=arena.progress_bar,
    )
    print("\n".join(arena.report(arena.tally(outcomes))))
    if args.plot:
        arena.plot(outcomes, args.plot)
        print(f"plots written to {args.plot}")
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    from tobruk.engine.throughput import for_many_games
    from tobruk.tools.fuzz import fuzz_many

    load_scenario(args.scenario)  # a bad name fails here, before any worker starts
    for_many_games()
    failures = 0
    seeds = range(args.seed, args.seed + args.games)
    results = fuzz_many(args.scenario, seeds, options=tuple(args.option or ()), save_to=Path(args.out), jobs=args.jobs)
    for i, r in enumerate(results):
        if r.failure:
            failures += 1
            print(f"seed {r.seed}: {r.failure} (record: {r.record})")
        if (i + 1) % 10 == 0 or i + 1 == args.games:
            print(f"{i + 1}/{args.games} games, {failures} failing", flush=True)
    return 1 if failures else 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tobruk", description="Lou Coatney's North-Africa wargames, rules enforced.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("scenarios", help="list the scenarios").set_defaults(func=cmd_scenarios)
    s = sub.add_parser("show", help="show a scenario: text summary, --svg map, --json data")
    s.add_argument("scenario")
    s.add_argument("--svg", metavar="FILE", help="write the map with the counters as SVG")
    s.add_argument("--json", action="store_true", help="print every hex, source and unit as JSON")
    s.set_defaults(func=cmd_show)
    b = sub.add_parser("build-map", help="rebuild a game's map file from the geography (needs the maps extra)")
    b.add_argument("name")
    b.add_argument("--out", metavar="FILE")
    b.set_defaults(func=cmd_build_map)
    pl = sub.add_parser("play", help="play a game: computer players or a human at the terminal")
    pl.add_argument("scenario")
    pl.add_argument("--axis", default="greedy", help="human, greedy, random or passive (default greedy)")
    pl.add_argument("--allied", default="greedy", help="human, greedy, random or passive (default greedy)")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--option", action="append", help="a scenario option (e.g. nonhistorical)")
    pl.add_argument("--record", metavar="FILE", help="save the game record as JSON")
    pl.add_argument(
        "-v", "--verbose", action="store_true", help="print every computer player's decision and order (only with no human player)"
    )
    pl.set_defaults(func=cmd_play)
    r = sub.add_parser("replay", help="replay a game record")
    r.add_argument("file")
    r.add_argument(
        "--verify",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="check every state hash and die against the record (the default; --no-verify skips)",
    )
    r.add_argument("--to", type=int, help="replay only the first N orders and show the position")
    r.add_argument("--step", action="store_true", help="step through the game turn by turn")
    r.set_defaults(func=cmd_replay)
    f = sub.add_parser("form", help="the Game Log and Analysis Form of a recorded game")
    f.add_argument("file")
    f.add_argument("--format", choices=["md", "html", "pdf"], default="md")
    f.add_argument("--out", help="the form's file (default: next to the record)")
    f.add_argument("--number", help="the game number to print on the form")
    f.add_argument("--date", help="the date and time to print on the form")
    f.add_argument("--pictures", metavar="FOLDER", help="also draw the plots and the map at the end of each turn")
    f.add_argument(
        "--verify",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="refuse a record that does not replay to its state hashes (the default; --no-verify skips)",
    )
    f.set_defaults(func=cmd_form)
    ar = sub.add_parser("arena", help="many games between two players, sides swapped, with statistics")
    ar.add_argument("scenario")
    ar.add_argument("--players", default="greedy,random")
    ar.add_argument("--games", type=int, default=20)
    ar.add_argument("--jobs", type=int, default=1)
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--option", action="append")
    ar.add_argument("--plot", metavar="FOLDER", help="draw the distribution of results and of the points margin")
    ar.set_defaults(func=cmd_arena)
    fz = sub.add_parser("fuzz", help="random games with every invariant checked after every order")
    fz.add_argument("scenario")
    fz.add_argument("--games", type=int, default=100)
    fz.add_argument("--seed", type=int, default=0)
    fz.add_argument("--option", action="append")
    fz.add_argument("--out", default="fuzz-failures", help="folder for the records of failing games")
    fz.add_argument("--jobs", type=int, default=1, help="games played at once, one process each (default 1)")
    fz.set_defaults(func=cmd_fuzz)
    sv = sub.add_parser("serve", help="serve the game in the browser on localhost")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--db", default="tobruk-games.sqlite", help="the SQLite file for games (default tobruk-games.sqlite)")
    sv.add_argument("--db-url", help="a database URL instead (e.g. postgresql://...), for a host")
    sv.add_argument(
        "--scenarios",
        action="append",
        metavar="DIR",
        help="a folder of your own scenarios (each NAME.toml is offered as NAME); may be repeated",
    )
    sv.add_argument(
        "--open-games",
        type=_positive,
        default=256,
        metavar="N",
        help="games kept in memory (default 256); the others are rebuilt from the database when next opened",
    )
    sv.add_argument(
        "--webhooks-anywhere",
        action="store_true",
        help="let players' turn webhooks go to private and loopback addresses too (a server on a private network)",
    )
    sv.set_defaults(func=cmd_serve)
    vx = sub.add_parser("export-vassal", help="a VASSAL module of a scenario: map, counters, set-up, turn track")
    vx.add_argument("scenario")
    vx.add_argument("out", metavar="OUT.vmod")
    vx.set_defaults(func=cmd_export_vassal)
    for name, verb in (
        ("dump-games", "write every game of the database (settings, links, seeds, orders) to FILE"),
        ("load-games", "add the games of a dump FILE to the database"),
    ):
        g = sub.add_parser(name, help=verb)
        g.add_argument("file", metavar="FILE", help="the dump, JSON Lines ('-': standard output or input)")
        g.add_argument("--db", default="tobruk-games.sqlite", help="the SQLite file (default tobruk-games.sqlite)")
        g.add_argument("--db-url", help="a database URL instead (e.g. postgresql://user@host/tobruk)")
        g.set_defaults(func=cmd_games)
    return p


def _check_playable(name: str, *, play: bool = False) -> None:
    """A scenario whose game system has no rules yet (its data are read, its play is not) can be shown but
    not played; one whose system is played in part is played by a person (``play``: a preview that says what is not
    played), never by the fuzzer or the arena, which check what every system played in full must pass."""
    scenario = load_scenario(name)
    if scenario.system not in system_names(previews=play):
        raise ScenarioError(
            scenario.source or name,
            "system",
            f"the rules of {scenario.system!r} are not played yet (playable: {', '.join(system_names())}); "
            f"'tobruk show {name}' shows the scenario",
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; a bad file or argument ends it with one line on stderr and status 2, never a traceback.
    The line comes from the reader that found the problem (it names the file and the field or order)."""
    args = build_parser().parse_args(argv)
    try:
        if args.command in ("play", "arena", "fuzz"):
            _check_playable(args.scenario, play=args.command == "play")
        return int(args.func(args))
    except (ScenarioError, RecordError, TobrukError) as exc:
        return _fail(str(exc))
    except OSError as exc:  # writing an output file, mostly
        return _fail(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc))
    except KeyboardInterrupt:
        return 130


def _fail(message: str) -> int:
    print(f"tobruk: {' '.join(message.split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
