"""The migration that allows one waiting and one running comparison job per
test set fails the duplicates an older server made, naming the job that
covers each, before the database enforces it.

The migrations run in a process of their own on a fresh database (see
``tests/support/comparison_jobs_migration.py``): a SQLite file, and, where
``DATABASE_URL`` points to PostgreSQL, a new database on that server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def run_migration(database_url: str, data_dir: Path) -> dict:
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MTDASH_DATA_DIR": str(data_dir),
    }
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.comparison_jobs_migration"],
        cwd=PROJECT_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def check(result: dict) -> None:
    ids = result.pop("ids")
    first_waiting = ids["crowded waiting 1"]
    later_running = ids["crowded running later"]
    assert result == {
        "crowded waiting 1": ["queued", ""],
        "crowded waiting 2": [
            "failed",
            f"superseded by comparison job {first_waiting} "
            "(queued for the same test set)",
        ],
        "crowded waiting 3": [
            "failed",
            f"superseded by comparison job {first_waiting} "
            "(queued for the same test set)",
        ],
        "crowded running earlier": [
            "failed",
            f"superseded by comparison job {later_running} "
            "(running for the same test set)",
        ],
        "crowded running later": ["running", ""],
        "crowded done": ["succeeded", ""],
        "tidy waiting": ["queued", ""],
        "tidy running": ["running", ""],
    }


def test_duplicate_comparison_jobs_are_failed_by_the_migration_on_sqlite(tmp_path):
    check(run_migration(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path))


def test_duplicate_comparison_jobs_are_failed_by_the_migration_on_postgresql(
    tmp_path,
):
    server = os.environ.get("DATABASE_URL", "")
    if not server.startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL names no PostgreSQL server (SQLite run)")
    psycopg = pytest.importorskip("psycopg")
    name = f"mtdash_migration_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        parts = urlsplit(server)
        check(run_migration(urlunsplit(parts._replace(path=f"/{name}")), tmp_path))
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
