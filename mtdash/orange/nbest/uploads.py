"""Receiving an uploaded Moses n-best list, and storing a checked one.

An upload from the web or the API is received by
:func:`receive_nbest_upload`: the file is stored as it came (gzip-compressed,
``upload.gz`` in the list's artifact directory) with a row that waits for
its check, and a worker checks it completely and writes the candidates
(:mod:`mtdash.orange.nbest.validation`). The request refuses only
what it can tell without reading the file: its size, a name taken.

Lists read on the server (``import_nbest``, the demo, tests) are checked in
the calling process instead (:func:`parse_nbest_upload`, the same messages)
and stored ready by :func:`create_nbest_list`.

In both, a row that cannot be created takes its artifact with it (and if
another upload took the name in the meantime, ``AlreadyExists``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from mtdash.common.queueing import send_job_tasks
from mtdash.common.upload_checks import UploadProblem, read_segments
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.uploads import AlreadyExists
from mtdash.orange.artifact_storage import save_file
from mtdash.orange.jobs.artifacts import (
    UPLOAD_FILE,
    new_nbest_artifact,
    remove_artifact,
    write_nbest_artifact,
)
from mtdash.orange.models import NBestList
from mtdash.orange.nbest.upload_handlers import ReceivedNBest
from scoring import InputFileError
from scoring.orange import NBestEntry, iter_nbest

MIN_REFERENCES = 2


@dataclass(frozen=True)
class ParsedNBest:
    """A validated n-best list: candidates grouped by sentence, ids increasing."""

    file_name: str
    sentences: tuple[tuple[NBestEntry, ...], ...]

    @property
    def n_candidates(self) -> int:
        return sum(len(entries) for entries in self.sentences)

    @property
    def sentence_ids(self) -> tuple[int, ...]:
        return tuple(entries[0].sentence_id for entries in self.sentences)

    @property
    def candidates(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(e.hypothesis for e in entries) for entries in self.sentences)


def references_problem(test_set: TestSet) -> str | None:
    """Why ORANGE cannot run on this test set, or None if it can."""
    labels = list(test_set.reference_sets.values_list("label", flat=True))
    if len(labels) >= MIN_REFERENCES:
        return None
    having = f"only {len(labels)} ({', '.join(labels)})" if labels else "none"
    return (
        f"ORANGE needs at least {MIN_REFERENCES} reference translations of every "
        "sentence (each reference is scored against the others); "
        f"this test set has {having}. "
        "Upload the test set again with two or more reference files."
    )


def not_ready_message(nbest: NBestList) -> str:
    """Why an ORANGE job cannot use this list yet (or at all)."""
    if nbest.status == NBestList.Status.FAILED:
        return f"the n-best list was refused: {nbest.error_message}"
    return (
        "the n-best list is still being checked "
        f"({nbest.get_status_display().lower()}, {nbest.progress}%); "
        "start ORANGE once it is ready"
    )


def parse_nbest_upload(data: bytes, file_name: str, n_segments: int) -> ParsedNBest:
    """Decode and check a Moses n-best file; raise ``UploadProblem`` naming the line."""
    lines = read_segments(data, file_name)
    sentences: list[list[NBestEntry]] = []
    try:
        for entry in iter_nbest(lines, file_name):
            if entry.sentence_id >= n_segments:
                raise UploadProblem(
                    file_name,
                    entry.line_number,
                    f"sentence id {entry.sentence_id} is not a segment of the test "
                    f"set, which has {n_segments} (ids 0–{n_segments - 1}; "
                    "Moses counts from 0)",
                )
            if not sentences or sentences[-1][0].sentence_id != entry.sentence_id:
                sentences.append([])
            sentences[-1].append(entry)
    except InputFileError as error:
        problem = str(error).removeprefix(f"{file_name}: line {error.line}: ")
        raise UploadProblem(file_name, error.line, problem) from None
    if not sentences:
        raise UploadProblem(file_name, None, "no candidates: every line is blank")
    return ParsedNBest(file_name, tuple(tuple(entries) for entries in sentences))


def create_nbest_list(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    name: str,
    parsed: ParsedNBest,
    *,
    description: str = "",
) -> NBestList:
    """Store the artifact, then the row; a failed row takes the artifact with it.

    Raise ``AlreadyExists`` if the test set has an n-best list of that name by
    now (an identical upload won the race).
    """
    try:
        return _store_nbest_list(test_set, user, name, parsed, description)
    except IntegrityError:
        if NBestList.objects.filter(test_set=test_set, name=name).exists():
            raise AlreadyExists(name) from None
        raise


def _store_nbest_list(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    name: str,
    parsed: ParsedNBest,
    description: str,
) -> NBestList:
    relative = write_nbest_artifact(parsed.sentences)
    counts = [len(entries) for entries in parsed.sentences]
    try:
        with transaction.atomic():
            return NBestList.objects.create(
                test_set=test_set,
                name=name,
                description=description,
                file_name=parsed.file_name[:255],
                artifact=relative,
                n_sentences=len(counts),
                n_candidates=sum(counts),
                min_candidates=min(counts),
                max_candidates=max(counts),
                uploaded_by=user,
                status=NBestList.Status.SUCCEEDED,
                progress=100,
            )
    except BaseException:
        remove_artifact(relative)
        raise


def content_name(file_name: str, compressed: bool) -> str:
    """The name messages about a gzip file's content use: without ``.gz``."""
    return (file_name.removesuffix(".gz") or file_name) if compressed else file_name


def check_nbest_size(uploaded: ReceivedNBest) -> None:
    """Refuse a file over ``MTDASH_MAX_NBEST_BYTES`` as sent (a gzip file's
    content is measured by the check, as it is decompressed)."""
    limit = settings.MTDASH_MAX_NBEST_BYTES
    if uploaded.over_limit or uploaded.size > limit:
        raise UploadProblem(
            uploaded.name,
            None,
            f"the file is {uploaded.size:,} bytes; the limit for an n-best list "
            f"is {limit:,}",
        )


def receive_nbest_upload(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    name: str,
    uploaded: ReceivedNBest,
    *,
    description: str = "",
) -> NBestList:
    """Store the file as received and a row waiting for its check, queued
    once the transaction commits.

    A refused list of the same name is replaced (it kept nothing but its
    message); any other list of that name raises ``AlreadyExists``.
    """
    relative = new_nbest_artifact()
    save_file(f"{relative}/{UPLOAD_FILE}", uploaded)
    try:
        with transaction.atomic():
            NBestList.objects.filter(
                test_set=test_set, name=name, status=NBestList.Status.FAILED
            ).delete()
            nbest = NBestList.objects.create(
                test_set=test_set,
                name=name,
                description=description,
                file_name=content_name(uploaded.name, uploaded.sent_compressed)[:255],
                upload_name=uploaded.name[:255],
                artifact=relative,
                uploaded_bytes=uploaded.size,
                uploaded_by=user,
            )
            transaction.on_commit(lambda: send_job_tasks(NBestList, [nbest.pk]))
            return nbest
    except IntegrityError:
        remove_artifact(relative)
        if NBestList.objects.filter(test_set=test_set, name=name).exists():
            raise AlreadyExists(name) from None
        raise
    except BaseException:
        remove_artifact(relative)
        raise
