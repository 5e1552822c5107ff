"""Checking an uploaded Moses n-best list and storing it as an artifact.

Everything is checked before anything is written: UTF-8 (with the line of a
bad byte), the Moses fields (the reader's line-precise messages), sentence
ids inside the test set's segments. Only then is the artifact written and
the row created; if the row cannot be created the artifact is removed again
(and if another upload took the name in the meantime, ``AlreadyExists``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from mtdash.common.upload_checks import UploadProblem, read_segments
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.uploads import AlreadyExists
from mtdash.orange.models import NBestList
from mtdash.orange.services.artifacts import remove_artifact, write_nbest_artifact
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
            )
    except BaseException:
        remove_artifact(relative)
        raise
