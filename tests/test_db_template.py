"""A SQLite test database is migrated once, then copied
(tests/support/db_template.py): the second process to create one applies no
migration and gets the same tables and migration records."""

import json
import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]

# Creates a test database as pytest-django does, counting the migrations
# applied; prints them with the tables and migration records it ends with.
CHILD = r"""
import json
import django
django.setup()
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from tests.support import db_template

db_template.install()
applied = []
apply = MigrationExecutor.apply_migration
def counting(self, state, migration, **kwargs):
    applied.append(migration.name)
    return apply(self, state, migration, **kwargs)
MigrationExecutor.apply_migration = counting

name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
with connection.cursor() as cursor:
    cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    tables = sorted(row[0] for row in cursor.fetchall())
    cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
    records = [list(row) for row in cursor.fetchall()]
    cursor.execute("SELECT COUNT(*) FROM auth_permission")
    permissions = cursor.fetchone()[0]
connection.creation.destroy_test_db(name, verbosity=0)
print(json.dumps({"applied": len(applied), "tables": tables, "records": records,
                  "permissions": permissions, "file_left": __import__("os").path.exists(name)}))
"""


def create_test_database(data_dir: Path, suffix: str) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "MTDASH_TEST_DB_SUFFIX")
    }
    env.update(
        MTDASH_DATA_DIR=str(data_dir),
        MTDASH_TEST_DB_SUFFIX=suffix,
        DJANGO_SETTINGS_MODULE="mtdash.settings",
    )
    completed = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_the_second_database_is_a_copy_with_every_migration_applied(tmp_path):
    first = create_test_database(tmp_path, "first")
    templates = list((tmp_path / "test-db-templates").glob("*.sqlite3"))
    second = create_test_database(tmp_path, "second")

    assert first["applied"] > 40  # every migration of every app, run
    assert len(templates) == 1
    assert second["applied"] == 0  # copied: nothing left to apply
    assert second["tables"] == first["tables"]
    assert "evaluation_testset" in second["tables"]
    assert second["records"] == first["records"]
    assert len(second["records"]) == first["applied"]
    assert second["permissions"] == first["permissions"] > 0
    assert not first["file_left"] and not second["file_left"]
