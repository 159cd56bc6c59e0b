"""The database every store and API test runs on: ``db_url`` is an SQLite file, then a PostgreSQL database
(tests/web/databases.py says where that server comes from, and the PostgreSQL cases are skipped where none can run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.databases import database, postgres_admin, why_no_postgres


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgresql" and postgres_admin() is None:
        pytest.skip(why_no_postgres())
    with database(request.param, tmp_path) as url:
        yield url
