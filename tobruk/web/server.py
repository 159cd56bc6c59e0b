"""``tobruk serve``: the game in the browser, with the server as the referee.

Every seat of a game has a secret link (its token).  The server keeps each running game in memory,
stores its orders in the database after every change, and answers each token with that side's view
only; an order is accepted only from the seat whose decision it is, against the position the sender
saw (a stale one is refused), and only if the rules allow it.  Computer seats play at once; browsers
hear of changes through server-sent events.
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tobruk.engine.errors import IllegalOrderError, InvalidOrderError, TobrukError, UndoError
from tobruk.engine.game import Game
from tobruk.engine.sides import Side
from tobruk.engine.system import system_names
from tobruk.mechanics.actions import Attack
from tobruk.players import make_player
from tobruk.players.base import outcomes_for
from tobruk.render.svg import map_layout, render_map
from tobruk.scenario import Scenario, load_scenario, scenario_names
from tobruk.view import view
from tobruk.web.store import Store, StoredGame

STATIC = Path(__file__).parent / "static"
MAP_SIZE = 28.0


class UnknownLink(Exception):
    """A token that opens no game."""


@dataclass
class Session:
    stored: StoredGame
    game: Game
    sides: list[str] = field(default_factory=list)  # who gave each order of the history
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Referee:
    """Running games, their seats, the computer players and the store behind them."""

    def __init__(self, store: Store, scenario_dirs: list[Path] | None = None) -> None:
        self.store = store
        self.sessions: dict[str, Session] = {}
        self.scenario_dirs = scenario_dirs or []
        self.changed = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None

    def scenario(self, name: str) -> Scenario:
        from tobruk.players.greedy import know_scenario

        for folder in self.scenario_dirs:
            path = folder / f"{name}.toml"
            if path.exists():
                scenario = load_scenario(path)
                know_scenario(scenario)
                return scenario
        return load_scenario(name)

    def computer(self, stored: StoredGame, side: Side) -> str | None:
        kind = stored.axis_player if side is Side.AXIS else stored.allied_player
        return None if kind == "human" else kind

    def session(self, stored: StoredGame) -> Session:
        s = self.sessions.get(stored.id)
        if s is None:
            game = Game(self.scenario(stored.scenario), seed=stored.seed, options=stored.options)
            sides = []
            for text in stored.orders:
                d = game.decision
                sides.append(d.side.value if d else "")
                game.play(text)
            s = Session(stored, game, sides)
            self.sessions[stored.id] = s
            self.run_computers(s)
        return s

    def run_computers(self, s: Session) -> None:
        """Let the computer seats play until a human must decide (or the game ends)."""
        game = s.game
        players = {side: make_player(k, s.stored.seed * 2 + (1 if side is Side.AXIS else 2))
                   for side in Side if (k := self.computer(s.stored, side)) is not None}
        for _ in range(20000):
            d = game.decision
            if d is None or d.side not in players:
                break
            order = players[d.side].choose(view(game, d.side), game.legal_orders(), outcomes_for(game, d.side))
            game.play(order)
            s.sides.append(d.side.value)
        self.store.save_orders(s.stored.id, game.notation())

    def notify(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._bump)

    def _bump(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


def viewer_side(s: Session, seat: str) -> Side:
    if seat != "both":
        return Side(seat)
    d = s.game.decision
    return d.side if d is not None else Side.AXIS


def state_of(s: Session, seat: str, asked: str | None = None) -> dict[str, Any]:
    game = s.game
    side = viewer_side(s, seat)
    d = game.decision
    hidden = any(game.unit(u).hidden for u in game.unit_ids)
    if seat == "both" and hidden and d is not None and asked != d.side.value:
        # Hotseat with face-down units: a side's view only when the page names the side to decide (after
        # the hand-over screen); until then only whose decision it is, so no view sits in the other's page.
        return {"game": s.stored.id, "seat": seat, "side": d.side.value, "mode": s.stored.mode, "version": s.version,
                "scenario": s.stored.scenario, "handover": True, "hidden_units": True}
    mine = d is not None and (seat == "both" or d.side.value == seat)
    legal = game.legal_notation() if mine else []
    last_mine = bool(s.sides) and (seat == "both" or s.sides[-1] == seat or _computer_tail(s, seat))
    return {
        "game": s.stored.id, "seat": seat, "side": side.value, "mode": s.stored.mode, "version": s.version,
        "scenario": s.stored.scenario, "view": view(game, side), "legal": legal, "my_turn": mine,
        "can_undo": game.can_undo() and last_mine,
        "hidden_units": hidden,
        "players": {"axis": s.stored.axis_player, "allied": s.stored.allied_player},
    }


def _computer_tail(s: Session, seat: str) -> bool:
    """In a game against the computer the human may take back his last order and the computer's replies."""
    return s.stored.mode == "computer" and seat in s.sides


def _frame(game: Game, side: str, label: str) -> dict[str, Any]:
    """One replay frame: what ``side`` saw (or, for 'both', every unit face up)."""
    from tobruk.view import unit_data

    if side == "both":
        units = [unit_data(game.defs[u], game.unit(u).value()) for u in game.unit_ids]
        log = list(game.state.log)
    else:
        seen = view(game, Side(side))
        units, log = seen["units"], seen["log"]
    return {"label": label, "turn": game.turn, **game.system.turn_notes(game), "units": units, "log": log[-40:],
            "result": None if (summary := game.system.summary(game)) is None else summary.fields}


def playable_scenarios() -> list[str]:
    """The packaged scenarios of the game systems that can be played (the campaign's are data only so far)."""
    return [name for name in scenario_names() if load_scenario(name).system in system_names()]


def create_app(db_url: str, scenario_dirs: list[Path] | None = None) -> Starlette:
    referee = Referee(Store(db_url), scenario_dirs)

    def find(token: str) -> tuple[Session, str] | None:
        found = referee.store.by_token(token)
        if found is None:
            return None
        stored, seat = found
        return referee.session(stored), seat

    def locate(request: Request) -> tuple[Session, str]:
        """The game and seat of the request's token, or a 404 for an unknown link."""
        found = find(request.path_params["token"])
        if found is None:
            raise UnknownLink()
        return found

    async def unknown_link(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": "no game has this link"}, status_code=404)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def page(request: Request) -> Response:
        if find(request.path_params["token"]) is None:
            return JSONResponse({"error": "no game has this link"}, status_code=404)
        return FileResponse(STATIC / "game.html")

    async def scenarios(request: Request) -> Response:
        # only scenarios of a game system that can be played (the campaign's are data only so far)
        listed = [load_scenario(name) for name in playable_scenarios()]
        return JSONResponse([{"name": s.name, "title": s.title, "options": [o.name for o in s.options]} for s in listed])

    async def create(request: Request) -> Response:
        body = await request.json()
        mode = body.get("mode", "hotseat")
        if mode not in ("hotseat", "computer", "remote"):
            return JSONResponse({"error": "mode is hotseat, computer or remote"}, status_code=400)
        computer = body.get("computer", "greedy")
        human_side = body.get("human_side", "axis")
        axis_player = allied_player = "human"
        if mode == "computer":
            if human_side == "axis":
                allied_player = computer
            else:
                axis_player = computer
        try:
            scenario = referee.scenario(body.get("scenario") or playable_scenarios()[0])
            Game(scenario, options=body.get("options", []))
            make_player(computer)
        except (TobrukError, ValueError, KeyError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        stored = referee.store.create(scenario.name, list(body.get("options", [])), int(body.get("seed", 1)),
                                      mode, axis_player, allied_player)
        referee.session(stored)
        base = str(request.base_url).rstrip("/")
        links = {"axis": f"{base}/g/{stored.axis_token}", "allied": f"{base}/g/{stored.allied_token}"}
        if stored.both_token:
            links = {"both": f"{base}/g/{stored.both_token}"}
        elif mode == "computer":
            links = {human_side: links[human_side]}
        return JSONResponse({"game": stored.id, "links": links})

    async def state(request: Request) -> Response:
        s, seat = locate(request)
        with s.lock:
            return JSONResponse(state_of(s, seat, request.query_params.get("side")))

    async def order(request: Request) -> Response:
        s, seat = locate(request)
        body = await request.json()
        with s.lock:
            if body.get("version") != s.version:
                return JSONResponse({"error": "the position has changed since you saw it: look again",
                                     "version": s.version}, status_code=409)
            d = s.game.decision
            if d is None:
                return JSONResponse({"error": "the game is over"}, status_code=400)
            if seat != "both" and d.side.value != seat:
                return JSONResponse({"error": f"it is not your decision: {d}"}, status_code=403)
            try:
                s.game.play(str(body.get("order", "")))
            except (InvalidOrderError, IllegalOrderError) as exc:
                return JSONResponse({"error": str(exc), "clause": getattr(exc, "clause", None)}, status_code=400)
            s.sides.append(d.side.value)
            referee.run_computers(s)
            s.version += 1
            result = state_of(s, seat)
        referee.notify()
        return JSONResponse(result)

    async def undo(request: Request) -> Response:
        s, seat = locate(request)
        body = await request.json()
        with s.lock:
            if body.get("version") != s.version:
                return JSONResponse({"error": "the position has changed since you saw it"}, status_code=409)
            popped = []
            try:
                while s.sides and seat != "both" and s.sides[-1] != seat and s.stored.mode == "computer":
                    popped.append((s.game.pop(), s.sides.pop()))
                if not s.sides or (seat != "both" and s.sides[-1] != seat):
                    raise UndoError("your last order is not the last one played")
                popped.append((s.game.pop(), s.sides.pop()))
            except UndoError as exc:
                for o, who in reversed(popped):
                    s.game.play(o)
                    s.sides.append(who)
                return JSONResponse({"error": f"cannot undo: {exc}"}, status_code=400)
            referee.store.save_orders(s.stored.id, s.game.notation())
            s.version += 1
            result = state_of(s, seat)
        referee.notify()
        return JSONResponse(result)

    async def odds(request: Request) -> Response:
        s, seat = locate(request)
        side = viewer_side(s, seat)
        try:
            order = s.game.parse(request.query_params.get("order", ""))
            if not isinstance(order, Attack):
                raise InvalidOrderError("not an attack")
            with s.lock:
                hidden = any(s.game.unit(u).hidden for h in order.defenders for u in s.game.units_at(h, side.enemy))
                odds = s.game.system.odds(s.game, order, side)
        except (InvalidOrderError, IllegalOrderError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        if hidden:
            return JSONResponse({"odds": "unknown (face-down units)", "lines": [], "outcomes": []})
        if odds is None:
            return JSONResponse({"error": "no odds for this order"}, status_code=400)
        return JSONResponse({"odds": odds.column, "lines": list(odds.lines),
                             "outcomes": [[label, float(p)] for label, p in odds.outcomes]})

    async def rematch(request: Request) -> Response:
        s, seat = locate(request)
        st = s.stored
        new = referee.store.create(st.scenario, st.options, st.seed + 1, st.mode, st.allied_player, st.axis_player)
        referee.session(new)
        base = str(request.base_url).rstrip("/")
        token = {"axis": new.axis_token, "allied": new.allied_token}
        if new.both_token:
            link = f"{base}/g/{new.both_token}"
        else:
            human = "axis" if new.axis_player == "human" else "allied"
            link = f"{base}/g/{token[seat if st.mode == 'remote' else human]}"
        return JSONResponse({"link": link})

    async def events(request: Request) -> Response:
        s, _seat = locate(request)
        referee.loop = asyncio.get_running_loop()

        async def stream() -> Any:
            last = -1
            while True:
                if await request.is_disconnected():
                    return
                if s.version != last:
                    last = s.version
                    yield f"data: {json.dumps({'version': last})}\n\n"
                try:
                    await asyncio.wait_for(referee.changed.wait(), timeout=10)
                except TimeoutError:
                    yield ": keep-alive\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    def game_record(s: Session) -> Any:
        from tobruk.record import record_of

        with s.lock:
            return record_of(s.game, {"axis": s.stored.axis_player, "allied": s.stored.allied_player})

    async def record(request: Request) -> Response:
        s, _seat = locate(request)
        rec = game_record(s)
        return JSONResponse(rec.to_data(), headers={"content-disposition": f'attachment; filename="tobruk-{s.stored.id}.json"'})

    async def game_form(request: Request) -> Response:
        from tobruk import form

        s, _seat = locate(request)
        if not s.game.is_over:
            return JSONResponse({"error": "the form is filled in when the game is over"}, status_code=400)
        log = form.build(game_record(s), game_number=s.stored.id, scenario=referee.scenario(s.stored.scenario))
        return Response(form.to_html(log), media_type="text/html")

    frames_cache: dict[tuple[str, str], list[dict[str, Any]]] = {}

    def frames(s: Session, side: str) -> list[dict[str, Any]]:
        """The game at its start and at the end of every turn, as ``side`` saw it ('both': everything)."""
        key = (s.stored.id + ":" + str(len(s.game.history)), side)
        if key not in frames_cache:
            game = Game(referee.scenario(s.stored.scenario), seed=s.stored.seed, options=s.stored.options)
            out = [_frame(game, side, "start")]
            for text in s.game.notation():
                turn = game.turn
                game.play(text)
                if game.turn != turn or game.is_over:
                    out.append(_frame(game, side, f"end of turn {turn}"))
            frames_cache[key] = out
        return frames_cache[key]

    async def replay_page(request: Request) -> Response:
        if find(request.path_params["token"]) is None:
            return JSONResponse({"error": "no game has this link"}, status_code=404)
        return FileResponse(STATIC / "replay.html")

    async def replay_frames(request: Request) -> Response:
        s, seat = locate(request)
        side = request.query_params.get("side", seat if seat != "both" else "both")
        if seat != "both" and side != seat and not s.game.is_over:
            return JSONResponse({"error": "the other side's view is shown once the game is over"}, status_code=403)
        with s.lock:
            return JSONResponse({"scenario": s.stored.scenario, "side": side, "frames": frames(s, side)})

    async def upload(request: Request) -> Response:
        from tobruk.engine.errors import RecordError
        from tobruk.record import Record, replay

        body = await request.body()
        try:
            data = json.loads(body)
            rec = Record(data["scenario"], data["scenario_digest"], int(data["seed"]), list(data.get("options", [])),
                         dict(data.get("players", {})), [e["order"] for e in data["orders"]],
                         [e["hash"] for e in data["orders"]], list(data.get("dice", [])), data["start_hash"])
            replay(rec, verify=True, source="upload", scenario=referee.scenario(rec.scenario))
        except (ValueError, KeyError, TypeError, RecordError, TobrukError) as exc:
            return JSONResponse({"error": f"not a valid game record: {exc}"}, status_code=400)
        stored = referee.store.create(rec.scenario, rec.options, rec.seed, "replay", "human", "human")
        referee.store.save_orders(stored.id, rec.orders)
        stored.orders = list(rec.orders)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({"link": f"{base}/replay/{stored.axis_token}"})

    async def map_svg(request: Request) -> Response:
        scenario = referee.scenario(request.path_params["scenario"])
        return Response(render_map(scenario.map, size=MAP_SIZE), media_type="image/svg+xml")

    async def map_json(request: Request) -> Response:
        scenario = referee.scenario(request.path_params["scenario"])
        layout = map_layout(MAP_SIZE)
        return JSONResponse({"size": MAP_SIZE, "hexes": {h.label: layout.centre(h) for h in scenario.map.hexes},
                             "title": scenario.title})

    routes = [
        Route("/", index), Route("/g/{token}", page),
        Route("/api/scenarios", scenarios), Route("/api/games", create, methods=["POST"]),
        Route("/api/g/{token}/state", state), Route("/api/g/{token}/order", order, methods=["POST"]),
        Route("/api/g/{token}/undo", undo, methods=["POST"]), Route("/api/g/{token}/odds", odds),
        Route("/api/g/{token}/rematch", rematch, methods=["POST"]), Route("/api/g/{token}/events", events),
        Route("/api/map/{scenario}.svg", map_svg), Route("/api/map/{scenario}.json", map_json),
        Route("/replay/{token}", replay_page), Route("/api/replay/{token}", replay_frames),
        Route("/api/replays", upload, methods=["POST"]),
        Route("/api/g/{token}/record", record), Route("/api/g/{token}/form", game_form),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={UnknownLink: unknown_link})
    app.state.referee = referee
    return app


def serve(db: str, host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None) -> None:
    import uvicorn

    app = create_app(db_url or f"sqlite:///{db}")
    print(f"tobruk is serving at http://{host}:{port}/  (games stored in {db_url or db})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
