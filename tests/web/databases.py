"""The databases the store and API tests run on: an SQLite file, and a real PostgreSQL server when one can run.

PostgreSQL: the server named by ``TOBRUK_TEST_POSTGRES`` (an SQLAlchemy URL of a role that may create databases),
or else a private server this module starts for the test session when PostgreSQL's programs are installed
(Debian's ``postgresql`` package; ``.ci/run`` installs it): a new cluster in a temporary folder, on a free
loopback port, with fsync off (a test database is thrown away), stopped when the tests end.  As root, the cluster
runs as the ``postgres`` user the package creates, since PostgreSQL refuses to run as root.  Each test gets a new
database of its own.  Where neither is possible the PostgreSQL cases are skipped with the reason.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa

from tests.web.web_server import free_port

_started: str | None = None
_why_not: str | None = None


def _bindir() -> Path | None:
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    for candidate in sorted(found, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True):
        if (candidate / "pg_ctl").exists():
            return candidate
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path and shutil.which("pg_ctl") else None


def _start() -> str:
    """Start a private PostgreSQL server; its admin URL (raises RuntimeError with the reason when it cannot)."""
    bindir = _bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL's programs are not installed (Debian: apt-get install postgresql)")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="tobruk-pg-"))
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise RuntimeError("running as root and there is no 'postgres' user to run PostgreSQL as") from None
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    data = folder / "data"
    r = subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "tobruk", "-E", "UTF8", "--no-sync"],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    if r.returncode:
        raise RuntimeError(f"initdb failed: {r.stderr.strip()[:300]}")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=300"
    r = subprocess.run(
        [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    if r.returncode:
        raise RuntimeError(f"PostgreSQL did not start: {(folder / 'log').read_text()[-300:] if (folder / 'log').exists() else r.stderr}")

    def stop() -> None:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True, cwd=folder)
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    return f"postgresql+psycopg://tobruk@127.0.0.1:{port}/postgres"


def postgres_admin() -> str | None:
    """The URL of a PostgreSQL server for the tests (started once), or ``None``: see :func:`why_no_postgres`."""
    global _started, _why_not
    if os.environ.get("TOBRUK_TEST_POSTGRES"):
        return os.environ["TOBRUK_TEST_POSTGRES"]
    if _started is None and _why_not is None:
        try:
            _started = _start()
        except (RuntimeError, OSError) as exc:
            _why_not = str(exc)
    return _started


def why_no_postgres() -> str:
    return f"no PostgreSQL for the tests: {_why_not or 'not started'}"


@contextlib.contextmanager
def new_postgres_database() -> Iterator[str]:
    """A new, empty database on the tests' PostgreSQL server, dropped afterwards: its URL."""
    admin_url = postgres_admin()
    if admin_url is None:
        raise RuntimeError(why_no_postgres())
    name = f"tobruk_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """A new database of ``kind`` ('sqlite': a file in ``folder``; 'postgresql'): its URL."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'games.sqlite'}"
    else:
        with new_postgres_database() as url:
            yield url


def rows(db: str | Path, table: str) -> int:
    """How many rows a table of the database (a URL, or an SQLite file) holds."""
    engine = sa.create_engine(db if isinstance(db, str) else f"sqlite:///{db}", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as c:
            return int(c.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar_one())
    finally:
        engine.dispose()


def stored_events(db_url: str, game: str) -> list[tuple[int, str, str]]:
    """A game's stored events (number, kind, text) in order."""
    engine = sa.create_engine(db_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as c:
            query = sa.text("SELECT seq, kind, text FROM game_event WHERE game_id = :g ORDER BY seq")
            return [(int(r[0]), str(r[1]), str(r[2])) for r in c.execute(query, {"g": game})]
    finally:
        engine.dispose()
