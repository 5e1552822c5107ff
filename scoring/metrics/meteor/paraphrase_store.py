"""Reading METEOR's paraphrase table, through a cache of its parsed form.

Parsing the gzipped table (5.3 million entries for English) and numbering
its phrases costs about 15 s of CPU and 2 GB; every process that scores METEOR with
paraphrases (each Celery worker, each test process, each command-line run)
paid it. The parsed arrays (:class:`ParaphraseTable`) are therefore kept in
an uncompressed ``.npz`` file (170 MB for English) that the next process
loads in 0.3 s of CPU.

The cache file sits next to the table when that directory is writable,
else under ``$MTDASH_DATA_DIR/cache/meteor`` (else ``~/.cache/mtdash/meteor``);
``METEOR_PARAPHRASE_CACHE_DIR`` chooses the directory, and ``off`` there
turns the cache off. It is one file per table path, and it records the
table's absolute path, size, modification time and the format version: a
file that does not match (the table was replaced), cannot be read
(truncated, corrupted: the zip's CRC) or is inconsistent is ignored and
rebuilt. It is written to a temporary file and renamed into place, under
an exclusive lock, so that two workers starting together build it once and
never read half a file.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from scoring.memory import collector_paused
from scoring.metrics.meteor.paraphrase_table import ParaphraseTable, Phrase

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: builders may race, harmlessly
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

#: Raise when the arrays or their meaning change.
FORMAT_VERSION = 1
CACHE_DIR_ENV = "METEOR_PARAPHRASE_CACHE_DIR"
_ARRAYS = ("slot_keys", "para_offsets", "para_phrases", "phrase_offsets",
           "phrase_tokens")  # fmt: skip


def parse_table(path: str | Path) -> ParaphraseTable:
    """METEOR's table: blocks of three lines (probability, phrase, paraphrase)."""
    phrases: dict[Phrase, list[Phrase]] = {}
    # Millions of tuples and lists, not one cycle: 4 of the English table's
    # 18 s of CPU were the cycle collector's passes.
    with collector_paused(), gzip.open(path, "rt", encoding="utf-8") as lines:
        for _probability in lines:
            source = tuple(next(lines).split())
            target = tuple(next(lines).split())
            phrases.setdefault(source, []).append(target)
        return ParaphraseTable.from_mapping(phrases)


def load_table(path: str | Path) -> ParaphraseTable:
    """The table at ``path``, from its cache when that is current."""
    # Not resolved: a linked table is cached next to the link (a copy of the
    # checkout with a linked table builds its own, as a newcomer's would).
    source = Path(os.path.abspath(path))
    identity = _identity(source)
    cache = cache_path(source)
    if cache is None:
        return parse_table(source)
    table = read_cache(cache, identity)
    if table is not None:
        return table
    with _exclusive(cache):
        # Another process may have written it while this one waited.
        table = read_cache(cache, identity)
        if table is None:
            table = parse_table(source)
            if _identity(source) == identity:  # not replaced meanwhile
                try:
                    write_cache(cache, table, identity)
                except OSError as error:
                    logger.warning(
                        "paraphrase table cache %s not written: %s", cache, error
                    )
    return table


def cache_path(source: Path) -> Path | None:
    """Where the cache of the table ``source`` (absolute) lives; None: off."""
    chosen = os.environ.get(CACHE_DIR_ENV, "")
    if chosen.lower() == "off":
        return None
    if chosen:
        directory = Path(chosen)
    elif os.access(source.parent, os.W_OK):
        directory = source.parent
    elif os.environ.get("MTDASH_DATA_DIR"):
        directory = Path(os.environ["MTDASH_DATA_DIR"]) / "cache" / "meteor"
    else:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        directory = Path(base) / "mtdash" / "meteor"
    digest = hashlib.sha256(str(source).encode()).hexdigest()[:12]
    return directory / f"{source.name}.{digest}.parsed.npz"


def _identity(source: Path) -> dict[str, object]:
    stat = source.stat()
    return {
        "format": FORMAT_VERSION,
        "table": str(source),
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
    }


def read_cache(cache: Path, identity: dict[str, object]) -> ParaphraseTable | None:
    """The cached table if ``cache`` is readable, whole and of this table."""
    try:
        with np.load(cache, allow_pickle=False) as data:
            if json.loads(data["identity"].tobytes()) != identity:
                return None
            arrays = {name: data[name] for name in _ARRAYS}
            words = data["words"].tobytes().decode("utf-8")
            max_len, n_keys = (int(value) for value in data["sizes"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        logger.warning("ignoring paraphrase table cache %s: %s", cache, error)
        return None
    table = ParaphraseTable(
        words=tuple(words.split("\n")) if words else (),
        max_len=max_len,
        n_keys=n_keys,
        **arrays,
    )
    if not _consistent(table):
        logger.warning("ignoring inconsistent paraphrase table cache %s", cache)
        return None
    return table


def _consistent(table: ParaphraseTable) -> bool:
    """Cheap checks that the arrays fit together (indices stay in bounds)."""
    arrays = [getattr(table, name) for name in _ARRAYS]
    if any(a.dtype != np.int64 or a.ndim != 1 for a in arrays):
        return False
    n_phrases = table.phrase_offsets.size - 1
    n_slots = table.slot_keys.size
    return (
        n_slots >= 16
        and n_slots & (n_slots - 1) == 0
        and 0 <= table.n_keys <= n_phrases
        and table.para_offsets.size == n_phrases + 1
        and int(table.phrase_offsets[-1]) == table.phrase_tokens.size
        and int(table.para_offsets[-1]) == table.para_phrases.size
        and np.count_nonzero(table.slot_keys >= 0) == table.n_keys
        and _within(table.phrase_tokens, len(table.words))
        and _within(table.para_phrases, n_phrases)
        and _within(table.slot_keys, table.n_keys, low=-1)
        and bool(np.all(np.diff(table.phrase_offsets) >= 0))
        and bool(np.all(np.diff(table.para_offsets) >= 0))
    )


def _within(values: np.ndarray, bound: int, low: int = 0) -> bool:
    return values.size == 0 or (int(values.min()) >= low and int(values.max()) < bound)


def write_cache(cache: Path, table: ParaphraseTable, identity: dict[str, object]):
    """Write ``table`` to ``cache`` atomically (a temporary file, renamed)."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(
        dir=cache.parent, prefix=f".{cache.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            np.savez(
                handle,
                identity=np.frombuffer(json.dumps(identity).encode(), dtype=np.uint8),
                words=np.frombuffer("\n".join(table.words).encode(), dtype=np.uint8),
                sizes=np.array([table.max_len, table.n_keys], dtype=np.int64),
                **{name: getattr(table, name) for name in _ARRAYS},
            )
            handle.flush()
            os.fsync(handle.fileno())
            # Readable by the other accounts that read the table (a
            # temporary file is private).
            os.fchmod(handle.fileno(), 0o644)
        os.replace(handle.name, cache)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


@contextmanager
def _exclusive(cache: Path) -> Iterator[None]:
    """Hold ``cache``'s lock file: one builder at a time per cache (without
    a lock file, builders may race: each still writes whole files)."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        lock = open(cache.with_name(cache.name + ".lock"), "a")  # noqa: SIM115
    except OSError as error:
        logger.warning("paraphrase table cache %s not locked: %s", cache, error)
        yield
        return
    with lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield  # closing the file releases the lock
