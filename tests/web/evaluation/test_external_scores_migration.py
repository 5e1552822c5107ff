"""The external metrics' scores moved from the judgments app to the
evaluation app (models and tables): a database filled at the schema before
the move keeps every row, read back through the current models.

The migrations run in a process of their own on a fresh database (see
``tests/support/external_scores_migration.py``): a SQLite file, and, where
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


def run_migration_check(database_url: str, data_dir: Path) -> dict:
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MTDASH_DATA_DIR": str(data_dir),
    }
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.external_scores_migration"],
        cwd=PROJECT_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def check(result: dict) -> None:
    written = sorted(result["written"], key=lambda row: (row[0], row[3]))
    assert len(written) == 4 and result["rows"] == written
    assert result["tables"] == [
        "evaluation_externalcorpusscore",
        "evaluation_externalmetric",
        "evaluation_externalsegmentscore",
    ]
    assert result["content_types"] == [
        "evaluation.externalcorpusscore",
        "evaluation.externalmetric",
        "evaluation.externalsegmentscore",
    ]
    assert result["left"] == 0  # deleting the test set cascaded


def test_every_external_score_row_survives_the_move_on_sqlite(tmp_path):
    check(run_migration_check(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path))


def test_every_external_score_row_survives_the_move_on_postgresql(tmp_path):
    server = os.environ.get("DATABASE_URL", "")
    if not server.startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL names no PostgreSQL server (SQLite run)")
    psycopg = pytest.importorskip("psycopg")
    name = f"mtdash_migration_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        parts = urlsplit(server)
        check(
            run_migration_check(urlunsplit(parts._replace(path=f"/{name}")), tmp_path)
        )
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
