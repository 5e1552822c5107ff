"""A SQLite test database made by migrating once, then copied.

Every test process creates its own test database (pytest-xdist's workers,
the timed tests' process after them, the nested runs some tests start), and
migrating a new one costs about 5.5 s of CPU (54 migrations, most of it
Django rendering model states). The first process to need one migrates as
before and keeps a copy, a template named by a digest of every migration
file and of Django's version, in ``$MTDASH_DATA_DIR/test-db-templates``;
the others copy it, and Django's ``migrate`` then finds nothing to apply.
A migration added or edited gets a new digest, hence a new template.

Only file databases on SQLite: on PostgreSQL every process migrates as
before.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import os
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path

KEEP_SECONDS = 24 * 3600  # templates of other digests are removed after this


@functools.cache
def migrations_digest() -> str:
    """Digest of Django's version and of every migration file of every app
    (once per process: the files do not change during a run)."""
    import django
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    digest = hashlib.sha256(django.get_version().encode())
    for key in sorted(loader.disk_migrations):
        module = sys.modules[type(loader.disk_migrations[key]).__module__]
        digest.update("\0".join(key).encode())
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


def template_folder() -> Path:
    from django.conf import settings

    return Path(settings.DATA_DIR) / "test-db-templates"


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _remove_old(folder: Path, keep: Path) -> None:
    cutoff = time.time() - KEEP_SECONDS
    for old in folder.glob("*.sqlite3"):
        if old != keep and old.stat().st_mtime < cutoff:
            old.unlink(missing_ok=True)


def _copy(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` to ``target`` with SQLite's
    backup API: a consistent copy, even of a database another connection
    has open."""
    with contextlib.closing(sqlite3.connect(source)) as reading:
        with contextlib.closing(sqlite3.connect(target)) as writing:
            reading.backup(writing)


def _save(database: Path, template: Path) -> None:
    """Copy the migrated ``database`` to a scratch file, then rename it to
    ``template``: another process never opens half a template."""
    scratch = template.with_name(f"{template.name}.{os.getpid()}.partial")
    scratch.unlink(missing_ok=True)
    _copy(database, scratch)
    scratch.rename(template)


def from_template(create_test_db):
    """``create_test_db`` of SQLite's ``DatabaseCreation``, seeded from the
    template when there is one, else keeping one for the next process."""
    if getattr(create_test_db, "seeds_from_template", False):
        return create_test_db

    def create_from_template(
        self, verbosity=1, autoclobber=False, serialize=True, keepdb=False
    ):
        name = self._get_test_db_name()
        if keepdb or self.is_in_memory_db(name):
            return create_test_db(self, verbosity, autoclobber, serialize, keepdb)
        folder = template_folder()
        template = folder / f"{migrations_digest()}.sqlite3"
        with _exclusive(folder / "build.lock"):
            if template.is_file():
                Path(name).unlink(missing_ok=True)
                _copy(template, Path(name))
                # keepdb: Django keeps the copied file and migrates it,
                # finding every migration applied.
                return create_test_db(self, verbosity, autoclobber, serialize, True)
            created = create_test_db(self, verbosity, autoclobber, serialize, False)
            _save(Path(name), template)
            _remove_old(folder, keep=template)
            return created

    create_from_template.seeds_from_template = True
    return create_from_template


def install() -> None:
    """Seed every SQLite test database of this process from the template."""
    from django.db.backends.sqlite3.creation import DatabaseCreation

    DatabaseCreation.create_test_db = from_template(DatabaseCreation.create_test_db)


def seed(path: Path) -> bool:
    """Copy the template to ``path``, for a test that starts a server on a
    database of its own: its ``migrate`` then has nothing to apply. False
    (and nothing copied) when there is no template, as in a run on
    PostgreSQL, whose test processes make none."""
    template = template_folder() / f"{migrations_digest()}.sqlite3"
    if not template.is_file():
        return False
    _copy(template, path)
    return True
