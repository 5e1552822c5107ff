"""The worker's check of an uploaded n-best list (the runner of ``NBestList``).

The request stored the file as it came (``upload.gz``) and a row waiting
for its check. :func:`run_nbest_validation` claims the row (the shared job
machinery: lease, heartbeat, attempts), streams the file through the
complete check (:mod:`.nbest_checks`, the request-time messages), writes
the candidates one sentence at a time with their index, and marks the list
ready with its counts. Progress is the share of the stored file read.

A refused file keeps nothing: the artifact directory is deleted and the row
is ``failed`` with the message naming the file, line and problem (and
``refusal``, the same in the API's shape), so no ORANGE job can use it.
Running the task again does nothing once the row is finished; a worker that
died part-way leaves the upload in place for the next claim, which writes
the candidates again from the start (replacing, never adding).
"""

from __future__ import annotations

import gzip
import logging
import time
import zlib
from typing import BinaryIO

from django.conf import settings
from django.db import transaction

from mtdash.common.jobs import worker_name
from mtdash.common.running import run_claimed
from mtdash.common.upload_checks import UploadProblem
from mtdash.orange.artifact_storage import artifact_storage
from mtdash.orange.jobs.artifacts import (
    UPLOAD_FILE,
    NBestArtifactWriter,
    remove_artifact,
)
from mtdash.orange.models import NBestList
from mtdash.orange.nbest.checks import checked_sentences

logger = logging.getLogger(__name__)

# Progress is written at most this often (seconds): it is one UPDATE.
PROGRESS_INTERVAL = 1.0


class _CountingReader:
    """Counts the compressed bytes read, for progress."""

    def __init__(self, raw: BinaryIO):
        self.raw = raw
        self.consumed = 0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.consumed += len(data)
        return data

    def readable(self) -> bool:
        return True


class _DecompressedReader:
    """``read(n)`` of the decompressed upload, capped and with readable
    messages for broken gzip data or content over the limit."""

    def __init__(self, compressed: BinaryIO, upload_name: str):
        self.stream = gzip.GzipFile(fileobj=compressed, mode="rb")
        self.upload_name = upload_name
        self.limit = settings.MTDASH_MAX_NBEST_BYTES
        self.total = 0

    def read(self, size: int) -> bytes:
        try:
            data = self.stream.read(size)
        except (OSError, EOFError, zlib.error) as problem:
            raise UploadProblem(
                self.upload_name,
                None,
                f"the gzip data cannot be decompressed ({problem})",
            ) from None
        self.total += len(data)
        if self.total > self.limit:
            raise UploadProblem(
                self.upload_name,
                None,
                f"decompressed, the file is more than {self.limit:,} bytes; "
                f"the limit for an n-best list is {self.limit:,}",
            )
        return data


def run_nbest_validation(nbest_id: int) -> bool:
    """Check and store one uploaded list, if it still waits; returns whether
    this call checked it. Safe to run any number of times."""
    rows = NBestList.objects.filter(pk=nbest_id)
    if not rows.claim():
        logger.info("n-best list %s is not waiting for a check; skipping", nbest_id)
        return False
    nbest = rows.select_related("test_set").get()
    started = time.perf_counter()
    checked = run_claimed(
        rows,
        lambda: _check_and_store(nbest, rows),
        where=f"checking {nbest.upload_name or nbest.file_name}",
    )
    if not checked and rows.filter(status=NBestList.Status.FAILED).exists():
        remove_artifact(nbest.artifact)  # an unexpected error keeps nothing either
    logger.info(
        "n-best list %s checked in %.2f s: %s",
        nbest_id,
        time.perf_counter() - started,
        rows.values_list("status", flat=True).first(),
    )
    return True


def _check_and_store(nbest: NBestList, rows) -> None:
    mine = rows.filter(claimed_by=worker_name())
    n_segments = nbest.test_set.segments.count()
    counts: list[int] = []
    try:
        with (
            artifact_storage().open(f"{nbest.artifact}/{UPLOAD_FILE}", "rb") as stored,
            NBestArtifactWriter(nbest.artifact) as writer,
        ):
            counted = _CountingReader(stored)
            size = max(stored.size, 1)
            stream = _DecompressedReader(counted, nbest.upload_name or nbest.file_name)
            reported = time.monotonic()
            for entries in checked_sentences(stream.read, nbest.file_name, n_segments):
                writer.add(entries)
                counts.append(len(entries))
                if time.monotonic() - reported > PROGRESS_INTERVAL:
                    mine.report_progress(95 * counted.consumed // size)
                    reported = time.monotonic()
            writer.finish()
    except UploadProblem as problem:
        _refuse(nbest, mine, problem)
        return
    with transaction.atomic():
        mine.hold_lease()  # a worker that lost the row saves nothing
        mine.succeed(
            n_sentences=len(counts),
            n_candidates=sum(counts),
            min_candidates=min(counts),
            max_candidates=max(counts),
        )
    artifact_storage().delete(f"{nbest.artifact}/{UPLOAD_FILE}")


def _refuse(nbest: NBestList, rows, problem: UploadProblem) -> None:
    """Keep nothing of a refused file; the row says why."""
    remove_artifact(nbest.artifact)
    with transaction.atomic():
        if rows.fail(str(problem)):
            rows.update(
                refusal={
                    "file": problem.file_name,
                    "line": problem.line,
                    "message": problem.problem,
                }
            )
    logger.info("n-best list %s refused: %s", nbest.pk, problem)
