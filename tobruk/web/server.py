"""``tobruk serve``: the game in the browser, with the server as the referee.

Every seat of a game has a secret link (its token).  The server answers each token with that side's view
only (:mod:`tobruk.web.payload`), accepts an order only from the seat whose decision it is, against the
version of the position the sender saw, and only if the rules allow it (:mod:`tobruk.web.referee`); the
orders are stored as they are played (:mod:`tobruk.web.store`).  Requests are checked against strict
schemas (:mod:`tobruk.web.schemas`) and bounded in size (:mod:`tobruk.web.limits`); answers are
compressed.  The handlers only read the request and write the answer on the event loop: the engine, the
database and the encoding and compression of the answer run in Starlette's thread pool, in one trip per request
(:mod:`tobruk.web.answers`), one lock per game.  Browsers hear of changes through
server-sent events.  docs/security.md says what each seat can learn and how that is enforced.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

from tobruk.engine.errors import RecordError, TobrukError
from tobruk.engine.information import observed
from tobruk.engine.system import Solitaire, find_system, system_for
from tobruk.players import player_names
from tobruk.players.base import player_about
from tobruk.render.board import board_data
from tobruk.render.svg import render_map
from tobruk.web import payload, schemas, webhooks
from tobruk.web.answers import Answer, computed
from tobruk.web.help import routes as help_routes
from tobruk.web.limits import BodyLimit
from tobruk.web.notify import Listener
from tobruk.web.referee import Referee, Refused, Scenarios, Session, server_seed
from tobruk.web.store import ORDER, Store, StoreError
from tobruk.web.webhooks import Webhooks

STATIC = Path(__file__).parent / "static"
MAP_SIZE = 28.0
POLL_SECONDS = 5.0  # how often an event stream looks for orders stored by another server process


class PageFiles(StaticFiles):
    """The page's files (its HTML, style and ES modules), each sent with its ETag and to be revalidated before use
    (``no-cache``; unchanged, the answer is a bodiless 304).  The page is a graph of modules: a browser that kept some
    of them under a heuristic freshness could run them beside new ones after an upgrade and miss an export."""

    def file_response(self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = "no-cache"
        return response


MAX_RECORD_SEED = 2**128 - 1


def answer(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json", headers=headers)


def refusal(status: int, reason: str, **extra: Any) -> Response:
    return answer({"error": reason, **{k: v for k, v in extra.items() if v is not None}}, status)


def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Turn the referee's refusals, bad requests and database failures into one-line JSON answers."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except schemas.BadRequest as exc:
            return refusal(400, exc.reason)
        except Refused as exc:
            return refusal(exc.status, exc.reason, clause=exc.clause, version=exc.version)
        except StoreError as exc:
            return refusal(503, f"the games database is not available ({schemas.reason(str(exc), 120)}): try again")

    return run


def query(request: Request, kind: type[schemas.T]) -> schemas.T:
    params = request.query_params
    if len(params.multi_items()) != len(params):
        raise schemas.BadRequest("bad request: a parameter is given twice")
    return schemas.decode_query(dict(params), kind)


def create_app(
    db_url: str,
    scenario_dirs: list[Path] | None = None,
    *,
    seeds: Callable[[], int] = server_seed,
    busy_timeout: float = 5.0,
    open_games: int = 256,
    webhooks_anywhere: bool = False,
) -> Starlette:
    """The web application on the database ``db_url``; ``scenario_dirs``: folders of user scenarios (each
    ``NAME.toml`` is the scenario NAME).  ``seeds`` draws new games' seeds (tests give fixed ones);
    ``open_games``: how many games stay in memory (the others are rebuilt from the database when opened);
    ``webhooks_anywhere``: players' webhooks may go to private addresses too (web/webhooks.py)."""
    referee = Referee(Store(db_url, busy_timeout), Scenarios(scenario_dirs), seeds, open_games)
    hooks = Webhooks(referee.store, webhooks_anywhere)
    referee.on_turn = hooks.turn
    frames = payload.Frames(referee)
    changes: dict[str, asyncio.Event] = {}
    maps: dict[str, tuple[str, bytes]] = {}

    def bump(game_id: str | None) -> None:
        """Wake the event streams of a game (``None``: of every game)."""
        for key in list(changes) if game_id is None else [game_id]:
            event = changes.pop(key, None)
            if event is not None:
                event.set()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()

        def changed(game_id: str | None) -> None:
            loop.call_soon_threadsafe(bump, game_id)

        referee.on_change = changed
        listener = Listener(referee.store.url, changed) if referee.store.postgres else None  # other processes' writes
        if listener is not None:
            listener.start()
        _app.state.listener = listener
        try:
            yield
        finally:
            if listener is not None:
                await asyncio.to_thread(listener.stop)
            await asyncio.to_thread(hooks.close)

    def opened(token: str) -> tuple[Session, str]:
        found = referee.open(token)
        if found is None:
            raise Refused(404, "no game has this link")
        return found

    async def seat_of(request: Request) -> tuple[Session, str]:
        return await run_in_threadpool(opened, request.path_params["token"])

    async def on_seat(request: Request, work: Callable[[Session, str], Any]) -> Response:
        """Open the game of the request's link and do ``work`` with it, the answer made too, in one trip to the
        thread pool (web/answers.py)."""
        token = request.path_params["token"]
        return await computed(request, lambda: work(*opened(token)))

    def base(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    # --- pages --------------------------------------------------------------------------------------
    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        """The tab's icon where a browser asks for it without reading the pages' link (the pages name it)."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @guarded
    async def page(request: Request) -> Response:
        _s, seat = await seat_of(request)
        if seat == "replay":
            return RedirectResponse(f"/replay/{request.path_params['token']}")
        return FileResponse(STATIC / "game.html")

    @guarded
    async def replay_page(request: Request) -> Response:
        await seat_of(request)
        return FileResponse(STATIC / "replay.html")

    # --- games --------------------------------------------------------------------------------------
    @guarded
    async def scenarios(request: Request) -> Response:
        def listed() -> list[dict[str, Any]]:
            return [
                {
                    "name": s.name,
                    "title": s.title,
                    "system": s.system,
                    "preview": find_system(s.system).preview,  # what a preview does not play yet ("": played in full)
                    "solitaire": _solitaire(find_system(s.system).solitaire),
                    "options": [{"name": o.name, "clause": o.clause, "text": o.text} for o in s.options],
                }
                for s in referee.scenarios.listing()
            ]

        return await computed(request, listed)

    def _solitaire(alone: Solitaire | None) -> dict[str, str] | None:
        """The side a system's rules play, and the option that gives it to a player (the lobby offers a solitaire
        game); None for a game of two sides."""
        return None if alone is None else {"side": alone.side.value, "unless": alone.unless}

    async def players(request: Request) -> Response:
        """The computer players a game may be played against (the lobby's list)."""
        return answer(player_names())

    async def players_about(request: Request) -> Response:
        """What each computer player does, in plain words (the lobby's explanation of its list)."""
        return answer(player_about())

    @guarded
    async def create(request: Request) -> Response:
        body = schemas.decode_body(await request.body(), schemas.NewGame)
        schemas.no_repeats(body.options, "bad request: the option")
        if body.seed is not None and body.mode != "computer":
            raise schemas.BadRequest("bad request: only a game against the computer may choose its seed")
        if body.mode == "computer" and body.computer not in player_names():
            raise schemas.BadRequest(f"bad request: no computer player {body.computer!r}; choose from {', '.join(player_names())}")

        def make() -> dict[str, Any]:
            scenario = referee.scenarios.get(body.scenario or referee.scenarios.listing()[0].name)
            offered = {o.name for o in scenario.options}
            unknown = sorted(set(body.options) - offered)
            if unknown:
                raise Refused(
                    400, f"scenario {scenario.name!r} has no option {unknown[0]!r}; it offers: {', '.join(sorted(offered)) or 'none'}"
                )
            axis_player = allied_player = "human"
            if body.mode == "computer":
                if body.human_side == "axis":
                    allied_player = body.computer
                else:
                    axis_player = body.computer
            stored = referee.create(scenario, list(body.options), body.seed, body.mode, axis_player, allied_player)
            links = {"axis": f"{base(request)}/g/{stored.axis_token}", "allied": f"{base(request)}/g/{stored.allied_token}"}
            if stored.both_token:
                links = {"both": f"{base(request)}/g/{stored.both_token}"}
            elif body.mode == "computer":
                links = {body.human_side: links[body.human_side]}
            return {"game": stored.id, "links": links}

        return await computed(request, make)

    @guarded
    async def state(request: Request) -> Response:
        asked = query(request, schemas.SideQuery).side

        def read(s: Session, seat: str) -> dict[str, Any]:
            with s.lock:
                return payload.state_of(referee, s, seat, asked)

        return await on_seat(request, read)

    def changed(change: Callable[[Session, str], None]) -> Callable[[Session, str], dict[str, Any]]:
        """Make a change to the game (the referee takes the lock, checks the version, stores and tells the
        watchers) and answer the seat with the position it made."""

        def work(s: Session, seat: str) -> dict[str, Any]:
            change(s, seat)
            with s.lock:
                return payload.state_of(referee, s, seat)

        return work

    @guarded
    async def order(request: Request) -> Response:
        body = schemas.decode_body(await request.body(), schemas.PlayOrder)
        body.check()
        return await on_seat(request, changed(lambda s, seat: referee.play(s, seat, body, body.version)))

    @guarded
    async def undo(request: Request) -> Response:
        body = schemas.decode_body(await request.body(), schemas.Undo)
        return await on_seat(request, changed(lambda s, seat: referee.undo(s, seat, body.version)))

    @guarded
    async def path(request: Request) -> Response:
        asked = query(request, schemas.OrderQuery)
        asked.check()

        def route(s: Session, seat: str) -> dict[str, Any]:
            with s.lock:
                return {"path": referee.path(s, seat, asked)}

        return await on_seat(request, route)

    @guarded
    async def odds(request: Request) -> Response:
        asked = query(request, schemas.OrderQuery)
        asked.check()

        def assess(s: Session, seat: str) -> dict[str, Any]:
            if seat == "replay":
                raise Refused(403, "a replay link cannot play orders")
            with s.lock:
                side = payload.viewer_side(s, seat)
                known = observed(s.game, side)
            return payload.odds_of(known, asked, side)

        return await on_seat(request, assess)

    @guarded
    async def rematch(request: Request) -> Response:
        schemas.decode_body(await request.body(), schemas.Empty)

        def make(s: Session, seat: str) -> dict[str, Any]:
            new, new_seat = referee.rematch(s, seat)
            token = {"axis": new.axis_token, "allied": new.allied_token, "both": new.both_token}[new_seat]
            return {"link": f"{base(request)}/g/{token}", "side": new_seat}

        return await on_seat(request, make)

    @guarded
    async def events(request: Request) -> Response:
        s, _seat = await seat_of(request)
        game_id = s.stored.id

        async def stream() -> AsyncIterator[str]:
            last = -1
            while True:
                changed = changes.setdefault(game_id, asyncio.Event())  # (before the version is read: no change is missed)
                if s.version != last:
                    last = s.version
                    yield f"data: {json.dumps({'version': last})}\n\n"
                    continue
                try:
                    await asyncio.wait_for(changed.wait(), timeout=POLL_SECONDS)
                except TimeoutError:
                    # another server process may have stored orders unheard (SQLite); and a quiet stream says it is alive
                    if await run_in_threadpool(referee.refresh, s) == last:
                        yield ": keep-alive\n\n"
                    continue
                if s.version == last:  # woken by another process's notice (PostgreSQL): read what it stored
                    await run_in_threadpool(referee.refresh, s)

        headers = {"cache-control": "no-store", "x-accel-buffering": "no"}  # (a proxy such as nginx sends each event at once)
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    @guarded
    async def webhook(request: Request) -> Response:
        """A remote seat's webhook: ``GET`` says it, ``PUT {"url": ...}`` sets it (``null`` removes it)."""
        body = schemas.decode_body(await request.body(), schemas.SetWebhook) if request.method == "PUT" else None

        def hook(s: Session, seat: str) -> dict[str, Any]:
            if seat not in ("axis", "allied") or s.stored.mode != "remote":
                raise Refused(403, "a webhook belongs to a seat of a remote game")
            if body is not None:
                url = None if body.url is None else webhooks.check_url(body.url, webhooks_anywhere)
                referee.store.set_webhook(s.stored.id, seat, url)
            return {"url": referee.store.webhook(s.stored.id, seat)}

        return await on_seat(request, hook)

    # --- records, exports, replays ------------------------------------------------------------------
    @guarded
    async def record(request: Request) -> Response:
        from tobruk.record import record_of

        def whole(s: Session, seat: str) -> Answer:
            with s.lock:
                payload.record_allowed(s, seat)
                game = s.game.copy()
            players = {"axis": s.stored.axis_player, "allied": s.stored.allied_player}
            disposition = f'attachment; filename="tobruk-{s.stored.id}.json"'
            return Answer(record_of(game, players).to_data(), {"content-disposition": disposition})

        return await on_seat(request, whole)

    @guarded
    async def export(request: Request) -> Response:
        asked = query(request, schemas.SideQuery).side

        def mine(s: Session, seat: str) -> Answer:
            with s.lock:
                data = payload.export_of(s, seat, asked)
            name = f"tobruk-{s.stored.id}-{data['side']}-v{data['game_version']}.json"
            return Answer(data, {"content-disposition": f'attachment; filename="{name}"'})

        return await on_seat(request, mine)

    @guarded
    async def game_form(request: Request) -> Response:
        from tobruk.record import record_of
        from tobruk.tools import form

        def fill(s: Session, _seat: str) -> Answer:
            with s.lock:
                if not s.game.is_over:
                    raise Refused(400, "the form is filled in when the game is over")
                game = s.game.copy()
            rec = record_of(game, {"axis": s.stored.axis_player, "allied": s.stored.allied_player})
            return Answer(form.to_html(form.build(rec, game_number=s.stored.id, scenario=game.scenario)), media_type="text/html")

        return await on_seat(request, fill)

    @guarded
    async def replay_frames(request: Request) -> Response:
        asked = query(request, schemas.ReplayQuery)

        def frames_of(s: Session, seat: str) -> dict[str, Any]:
            with s.lock:
                side = payload.replay_side(s, seat, asked.side)
            return {"scenario": s.stored.scenario, "side": side, "by": asked.by, "frames": frames.get(s, side, asked.by)}

        return await on_seat(request, frames_of)

    @guarded
    async def upload(request: Request) -> Response:
        from tobruk.record import record_from_data, replay

        raw = await request.body()

        def store_replay() -> dict[str, Any]:
            try:
                data = json.loads(raw)
            except (ValueError, RecursionError):
                raise Refused(400, "not a valid game record: the body is not JSON") from None
            schemas.decode_upload(data)  # the strict shape first: no unknown field, orders in ASCII, no option twice
            try:
                rec = record_from_data(data, "upload")
                if not 0 <= rec.seed <= MAX_RECORD_SEED:
                    raise RecordError("upload: seed: out of range (0 to 2**128 - 1)")
                scenario = referee.scenarios.get(rec.scenario)
                replay(rec, verify=True, source="upload", scenario=scenario)
            except (RecordError, TobrukError, ValueError) as exc:
                raise Refused(400, f"not a valid game record: {schemas.reason(str(exc), 200)}") from None
            stored = referee.store.create(rec.scenario, rec.options, rec.seed, "replay", "human", "human")
            referee.store.append(stored.id, 0, [(ORDER, o) for o in rec.orders])
            return {"link": f"{base(request)}/replay/{stored.both_token}"}

        return await computed(request, store_replay)

    # --- maps ---------------------------------------------------------------------------------------
    def drawn(name: str) -> tuple[str, bytes]:
        """The scenario's map as SVG and the page's board data, drawn with its system's rendering."""
        try:
            scenario = referee.scenarios.get(name)
        except Refused:
            raise Refused(404, "no such scenario") from None
        key = f"{name} {scenario.digest}"  # a user's scenario file may change: its digest with it
        if key not in maps:
            system = system_for(scenario.system)
            rendering, objectives = system.rendering(), system.objectives(scenario)
            board = board_data(scenario.map, rendering, size=MAP_SIZE, title=scenario.title, objectives=objectives)
            board["codes"] = dict(system.result_meanings())  # what its result codes mean
            board["system"] = scenario.system  # (the page's CRT panel and rules' help are the system's)
            board["preview"] = system.preview  # what a system played in part does not play yet
            svg = render_map(scenario.map, size=MAP_SIZE, rendering=rendering, objectives=objectives)
            maps[key] = (svg, msgspec.json.encode(board))
        return maps[key]

    @guarded
    async def map_svg(request: Request) -> Response:
        return await computed(request, lambda: Answer(drawn(request.path_params["scenario"])[0], media_type="image/svg+xml"))

    @guarded
    async def map_json(request: Request) -> Response:
        return await computed(request, lambda: Answer(drawn(request.path_params["scenario"])[1]))

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/g/{token}", page),
        Route("/api/scenarios", scenarios),
        Route("/api/players", players),
        Route("/api/players/about", players_about),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/g/{token}/state", state),
        Route("/api/g/{token}/order", order, methods=["POST"]),
        Route("/api/g/{token}/undo", undo, methods=["POST"]),
        Route("/api/g/{token}/odds", odds),
        Route("/api/g/{token}/path", path),
        Route("/api/g/{token}/rematch", rematch, methods=["POST"]),
        Route("/api/g/{token}/events", events),
        Route("/api/g/{token}/webhook", webhook, methods=["GET", "PUT"]),
        Route("/api/map/{scenario}.svg", map_svg),
        Route("/api/map/{scenario}.json", map_json),
        Route("/replay/{token}", replay_page),
        Route("/api/replay/{token}", replay_frames),
        Route("/api/replays", upload, methods=["POST"]),
        Route("/api/g/{token}/record", record),
        Route("/api/g/{token}/export", export),
        Route("/api/g/{token}/form", game_form),
        *help_routes(),
        Mount("/static", PageFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(BodyLimit), Middleware(GZipMiddleware, minimum_size=1000, compresslevel=6)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.referee = referee
    return app


def serve(
    db: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    scenario_dirs: list[Path] | None = None,
    open_games: int = 256,
    webhooks_anywhere: bool = False,
) -> None:
    import uvicorn
    from sqlalchemy.engine import make_url

    try:
        app = create_app(db_url or f"sqlite:///{db}", scenario_dirs, open_games=open_games, webhooks_anywhere=webhooks_anywhere)
    except StoreError as exc:
        raise SystemExit(f"tobruk serve: {exc}") from None
    where = make_url(db_url).render_as_string(hide_password=True) if db_url else db
    print(f"tobruk is serving at http://{host}:{port}/  (games stored in {where})", flush=True)
    # idle connections kept a minute: a page's next order rarely meets a connection the server is closing
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=65)
