"""The static files as collectstatic lays them out for a server, made once
per state of the sources and shared by test runs.

Pages link hashed names from collectstatic's manifest (settings: WhiteNoise's
CompressedManifestStaticFilesStorage), so the tests need a collected folder
as every server has one. Collecting (hashing and gzipping some 200 files)
takes seconds; the folder is named by a digest of every source file's path,
size and modification time, so a run reuses it until a file changes, and two
runs at once each collect into a folder of their own and rename it into
place (the loser drops its copy).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

KEEP_SECONDS = 24 * 3600  # older folders of other states are removed


def sources_digest() -> str:
    """Digest of every file the static finders list (path, size, mtime)."""
    from django.contrib.staticfiles import finders

    entries = []
    for finder in finders.get_finders():
        for path, storage in finder.list(None):
            prefix = getattr(storage, "prefix", None) or ""
            stat = os.stat(storage.path(path))
            entries.append(f"{prefix}/{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(sorted(entries)).encode()).hexdigest()[:16]


def collected_static_root(base: Path) -> Path:
    """A folder under ``base`` holding collectstatic's output (with its
    manifest) for the static files as they are now."""
    from django.core.management import call_command
    from django.test import override_settings

    root = base / f"static-{sources_digest()}"
    if (root / "staticfiles.json").is_file():
        return root
    base.mkdir(parents=True, exist_ok=True)
    _remove_old(base, keep=root)
    scratch = base / f"{root.name}.{os.getpid()}.partial"
    shutil.rmtree(scratch, ignore_errors=True)
    with override_settings(STATIC_ROOT=str(scratch)):
        call_command("collectstatic", interactive=False, verbosity=0)
    try:
        scratch.rename(root)
    except OSError:  # another run put the same state in place first
        shutil.rmtree(scratch, ignore_errors=True)
    return root


def _remove_old(base: Path, keep: Path) -> None:
    cutoff = time.time() - KEEP_SECONDS
    for folder in base.glob("static-*"):
        if folder != keep and folder.stat().st_mtime < cutoff:
            shutil.rmtree(folder, ignore_errors=True)


def remember_scans() -> None:
    """Build WhiteNoise's table of static files once per state of a folder,
    not once per middleware (once per process).

    Django's test client loads the middleware anew for every client, that
    is for every test, and WhiteNoise then stats and describes every file
    of ``STATIC_ROOT`` (some 800 with the compressed copies): about 0.1 s a
    test, a quarter of a web test's CPU. The table a scan adds depends on
    the folder's files and on the settings the middleware read, so those
    are the key: a changed file, manifest or setting gets a new scan.
    """
    from whitenoise.base import WhiteNoise, scantree

    scan = WhiteNoise.update_files_dictionary
    if getattr(scan, "remembered", False):
        return
    tables: dict[tuple, dict] = {}

    def update_files_dictionary(self, root, prefix):
        listing = tuple(
            sorted(
                (path, stat.st_size, stat.st_mtime_ns) for path, stat in scantree(root)
            )
        )
        key = (type(self), root, prefix, _settings_read(self), listing)
        table = tables.get(key)
        if table is None:
            before = dict(self.files)
            scan(self, root, prefix)
            table = {
                url: entry
                for url, entry in self.files.items()
                if before.get(url) is not entry
            }
            tables[key] = table
        self.files.update(table)

    update_files_dictionary.remembered = True
    WhiteNoise.update_files_dictionary = update_files_dictionary


def _settings_read(middleware) -> tuple:
    """What a scan's entries depend on besides the files: the middleware's
    options, and the manifest its immutable-file test reads."""
    from django.conf import settings

    manifest = Path(settings.STATIC_ROOT or ".") / "staticfiles.json"
    try:
        stat = manifest.stat()
        manifest_state = (str(manifest), stat.st_size, stat.st_mtime_ns)
    except OSError:
        manifest_state = None
    return (
        middleware.max_age,
        middleware.allow_all_origins,
        middleware.charset,
        middleware.index_file,
        getattr(middleware, "static_prefix", None),
        repr(getattr(settings, "WHITENOISE_MIMETYPES", None)),
        id(getattr(settings, "WHITENOISE_ADD_HEADERS_FUNCTION", None)),
        id(getattr(settings, "WHITENOISE_IMMUTABLE_FILE_TEST", None)),
        settings.STATIC_URL,
        manifest_state,
    )
