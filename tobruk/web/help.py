"""The rules' help on the browser table: a page per clause, an index per system, and the combat results tables.

Every refusal and prompt names the clause that decides it; the game page makes each id a link to ``/help/<clause>``
(static/help.js), a short page in this project's own words (:mod:`tobruk.loading.helpfile`) with its neighbours and
its system's index.  The charts a system already holds as data (``charts.toml``) are shown as tables at
``/help/system/<name>/crt``, and sent as data to the game page's CRT panel (``/api/help/system/<name>/crt``), each
result code with the meaning the page's log already gives it (:meth:`System.result_tables`,
:meth:`System.result_meanings`).  The tables are the printed charts, the same for every seat: nothing on them
depends on what a side may not see.

Every text is escaped; an unknown clause or system is a 404 with a one-line reason.
"""

from __future__ import annotations

from html import escape
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from tobruk.engine.errors import TobrukError
from tobruk.engine.system import find_system, system_for
from tobruk.loading.helpfile import ClauseHelp, clause_help, section_help, system_help

NO_CRT = "this system's charts hold no combat results table the program plays"


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/static/style.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head>\n'
        f'<body class="help-page"><main class="help">{body}</main></body></html>\n'
    )
    return HTMLResponse(html, status_code=status, headers={"cache-control": "no-cache"})


def _missing(reason: str) -> HTMLResponse:
    return _page("Not found", f'<h1>Not found</h1><p class="error">{escape(reason)}</p>', 404)


def _link(entry: ClauseHelp, rel: str) -> str:
    return f'<a rel="{rel}" href="/help/{escape(entry.clause)}">{escape(entry.clause)} {escape(entry.title)}</a>'


def clause_page(clause: str) -> HTMLResponse:
    """One clause's page: the system, the id, the title, what it does, this program's ruling, and the way on."""
    found = clause_help(clause)
    if found is None:
        return section_page(clause)
    system, entry = found
    before, after = system.neighbours(entry.clause)
    ruling = f'<p class="ruling"><b>How this program rules it:</b> {escape(entry.ruling)}</p>' if entry.ruling else ""
    nav = " · ".join(
        part
        for part in (
            _link(before, "prev") if before else "",
            f'<a href="/help/system/{escape(system.system)}">all the clauses of {escape(system.title)}</a>',
            _link(after, "next") if after else "",
        )
        if part
    )
    body = (
        f'<p class="system">{escape(system.title)}</p>'
        f'<h1><span class="clause-id">{escape(entry.clause)}</span> {escape(entry.title)}</h1>'
        f'<p class="text">{escape(entry.text)}</p>{ruling}<nav>{nav}</nav>'
    )
    return _page(f"{entry.clause} {entry.title}", body)


def section_page(clause: str) -> HTMLResponse:
    """A section's page (an id a scenario's option may cite, GG-V.B): each of its clauses, title and text."""
    found = section_help(clause)
    if found is None:
        return _missing(f"no rule clause {clause!r} has help: a clause id reads like GG-XIII.A.1")
    system, under = found
    items = "".join(
        f'<li><a href="/help/{escape(c.clause)}">{escape(c.clause)} {escape(c.title)}</a>: {escape(c.text)}</li>' for c in under
    )
    body = (
        f'<p class="system">{escape(system.title)}</p><h1><span class="clause-id">{escape(clause)}</span></h1>'
        f'<ul class="clauses">{items}</ul><nav><a href="/help/system/{escape(system.system)}">all the clauses of '
        f"{escape(system.title)}</a></nav>"
    )
    return _page(f"{clause} ({system.title})", body)


def system_page(name: str) -> HTMLResponse:
    """A system's index: every clause with its title, in the rules' order, and the way to its charts."""
    system = system_help(name)
    if system is None:
        return _missing(f"no game system {name!r} has help")
    items = "".join(f'<li><a href="/help/{escape(c.clause)}">{escape(c.clause)}</a> {escape(c.title)}</li>' for c in system.clauses)
    body = (
        f"<h1>{escape(system.title)}: the rules, clause by clause</h1>"
        f'<p><a href="/help/system/{escape(name)}/crt">Combat results table</a></p><ul class="clauses">{items}</ul>'
    )
    return _page(f"{system.title}: rules", body)


def crt_data(name: str) -> dict[str, Any] | None:
    """The system's results tables as the page shows them, and the meaning of every code in them (None: no such
    system; no tables: a system whose combat the program does not play)."""
    try:
        kind = find_system(name)
    except TobrukError:
        return None
    system = system_for(name) if kind.playable or kind.preview else None
    tables = [t.data() for t in system.result_tables()] if system else []
    meanings = dict(system.result_meanings()) if system else {}
    return {"system": name, "title": kind.title, "tables": tables, "codes": meanings, "note": "" if tables else NO_CRT}


def crt_page(name: str) -> HTMLResponse:
    """The system's results tables as a page, each code explained below them."""
    data = crt_data(name)
    if data is None:
        return _missing(f"no game system {name!r}")
    parts = [f"<h1>{escape(data['title'])}: results tables</h1>"]
    if data["note"]:
        parts.append(f"<p>{escape(data['note'])}</p>")
    for t in data["tables"]:
        head = "".join(f"<th>{escape(c)}</th>" for c in [t["corner"], *t["columns"]])
        body = "".join(
            f"<tr><th>{escape(r['label'])}</th>{''.join(f'<td>{escape(str(c))}</td>' for c in r['cells'])}</tr>" for r in t["rows"]
        )
        parts.append(f'<table class="crt"><caption>{escape(t["title"])}</caption><tr>{head}</tr>{body}</table>')
    if data["codes"]:
        items = "".join(f"<dt>{escape(code)}</dt><dd>{escape(meaning)}</dd>" for code, meaning in data["codes"].items())
        parts.append(f'<h2>What the results mean</h2><dl class="codes">{items}</dl>')
    parts.append(f'<p><a href="/help/system/{escape(name)}">all the clauses</a></p>')
    return _page(f"{data['title']}: results tables", "".join(parts))


async def _clause(request: Request) -> Response:
    return clause_page(request.path_params["clause"])


async def _system(request: Request) -> Response:
    return system_page(request.path_params["name"])


async def _crt(request: Request) -> Response:
    return crt_page(request.path_params["name"])


async def _crt_json(request: Request) -> Response:
    data = crt_data(request.path_params["name"])
    found = data is not None
    return Response(
        msgspec.json.encode(data if found else {"error": "no such game system"}), 200 if found else 404, media_type="application/json"
    )


def routes() -> list[Route]:
    """The help's routes, for the server's table (pages first: ``/help/system/...`` is not a clause)."""
    return [
        Route("/help/system/{name}/crt", _crt),
        Route("/help/system/{name}", _system),
        Route("/help/{clause}", _clause),
        Route("/api/help/system/{name}/crt", _crt_json),
    ]
