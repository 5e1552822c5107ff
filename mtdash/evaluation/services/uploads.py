"""Creating test sets and system outputs from validated segment lists.

Callers validate files first (``corpus_files`` for every format); these functions write
everything in one transaction, so a failure leaves nothing behind.

The forms check that a name is free, but two identical uploads can both pass
that check: the database's unique constraint then refuses the slower one,
whose transaction is rolled back and which raises ``AlreadyExists`` for its
form to show, instead of an ``IntegrityError`` (HTTP 500).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from mtdash.common.bulk_insert import insert_rows
from mtdash.evaluation.models import (
    Hypothesis,
    ReferenceSegment,
    ReferenceSet,
    ScoringJob,
    Segment,
    System,
    SystemOutput,
    TestSet,
)
from mtdash.evaluation.readability.jobs import request_readability
from mtdash.evaluation.services.scoring_jobs import DEFAULT_METRICS, create_scoring_job
from mtdash.teams.models import Team
from scoring.language_defaults import apply_language_defaults


class AlreadyExists(Exception):
    """Another upload stored the same object first; nothing of this one is kept."""


@dataclass(frozen=True)
class TestSetData:
    name: str
    source_language: str
    target_language: str
    text_type: str
    description: str
    sources: Sequence[str]
    references: dict[str, Sequence[str]]  # translator label -> segments
    document_ids: Sequence[str] | None = None

    __test__ = False  # not a pytest test class


def create_test_set(
    team: Team, user: AbstractBaseUser | None, data: TestSetData
) -> TestSet:
    """Store a test set with its segments and reference sets.

    Raise ``AlreadyExists`` if the team has a test set of that name by now.
    """
    try:
        return _store_test_set(team, user, data)
    except IntegrityError:
        if TestSet.objects.filter(team=team, name=data.name).exists():
            raise AlreadyExists(data.name) from None
        raise


@transaction.atomic
def _store_test_set(
    team: Team, user: AbstractBaseUser | None, data: TestSetData
) -> TestSet:
    test_set = TestSet.objects.create(
        team=team,
        name=data.name,
        source_language=data.source_language,
        target_language=data.target_language,
        text_type=data.text_type,
        description=data.description,
        created_by=user,
    )
    document_ids = data.document_ids or [""] * len(data.sources)
    # Plain rows, not model instances: a WMT-size upload's segments went
    # through the ORM's per-field preparation (mtdash/common/bulk_insert.py).
    insert_rows(
        Segment,
        ("test_set", "index", "source", "document_id"),
        (
            (test_set.pk, i, text, doc)
            for i, (text, doc) in enumerate(
                zip(data.sources, document_ids, strict=True)
            )
        ),
    )
    for label, texts in data.references.items():
        reference_set = ReferenceSet.objects.create(test_set=test_set, label=label)
        insert_rows(
            ReferenceSegment,
            ("reference_set", "index", "text"),
            ((reference_set.pk, i, text) for i, text in enumerate(texts)),
        )
    # Its readability is counted by a worker now, not by the first page view.
    request_readability(test_set)
    return test_set


def create_system_output(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    system_name: str,
    hypotheses: Sequence[str],
    *,
    system_description: str = "",
    metrics: Sequence[str] = DEFAULT_METRICS,
    queue: bool = True,
    reference: ReferenceSet | None = None,
) -> ScoringJob:
    """Store a system's output on a test set and create its scoring job;
    with ``reference``, the output is that human translation entered as a
    system (scored against the other references).

    With ``queue`` the job is sent to Celery only after the transaction
    commits, so a worker never looks for rows that are not there yet.
    Raise ``AlreadyExists`` if the system has an output on the test set by now.
    """
    try:
        return _store_system_output(
            test_set,
            user,
            system_name,
            hypotheses,
            system_description=system_description,
            metrics=metrics,
            queue=queue,
            reference=reference,
        )
    except IntegrityError:
        taken = SystemOutput.objects.filter(
            test_set=test_set, system__team=test_set.team, system__name=system_name
        )
        if reference is not None and not taken.exists():
            taken = SystemOutput.objects.filter(reference=reference)
        if taken.exists():
            raise AlreadyExists(system_name) from None
        raise


@transaction.atomic
def _store_system_output(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    system_name: str,
    hypotheses: Sequence[str],
    *,
    system_description: str,
    metrics: Sequence[str],
    queue: bool,
    reference: ReferenceSet | None = None,
) -> ScoringJob:
    system, _ = System.objects.get_or_create(
        team=test_set.team,
        name=system_name,
        defaults={"description": system_description},
    )
    output = SystemOutput.objects.create(
        system=system, test_set=test_set, uploaded_by=user, reference=reference
    )
    insert_rows(
        Hypothesis,
        ("output", "index", "text"),
        ((output.pk, i, text) for i, text in enumerate(hypotheses)),
    )
    return create_scoring_job(output, user, metrics, queue=queue)


def language_metric_specs(specs: Sequence[str], target_language: str) -> list[str]:
    """``specs`` with the target language's defaults (``bleu`` ->
    ``bleu:tokenize=zh`` for Chinese), de-duplicated in order. The specs
    must have been checked (``check_metric_specs``) first: building a metric
    from an unchecked spec could open a file the spec names."""
    return list(
        dict.fromkeys(apply_language_defaults(spec, target_language) for spec in specs)
    )


def create_test_set_with_outputs(
    team: Team,
    user: AbstractBaseUser | None,
    data: TestSetData,
    outputs: Mapping[str, Sequence[str]],
    *,
    metrics: Sequence[str] = DEFAULT_METRICS,
    queue: bool = True,
) -> tuple[TestSet, list[ScoringJob]]:
    """Store a test set and the system outputs that came with it (a WMT XML
    file or a ZIP of a WMT folder), each with a scoring job, in one
    transaction. Raise ``AlreadyExists`` if the team has a test set of that
    name by now."""
    try:
        with transaction.atomic():
            test_set = _store_test_set(team, user, data)
            jobs = _store_outputs(test_set, user, outputs, "", metrics, queue)
    except IntegrityError:
        if TestSet.objects.filter(team=team, name=data.name).exists():
            raise AlreadyExists(data.name) from None
        raise
    return test_set, jobs


def create_system_outputs(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    outputs: Mapping[str, Sequence[str]],
    *,
    system_description: str = "",
    metrics: Sequence[str] = DEFAULT_METRICS,
    queue: bool = True,
) -> list[ScoringJob]:
    """Store several outputs on a test set (system name -> hypotheses), each
    with its scoring job, all or none. Raise ``AlreadyExists`` naming the
    first system that has an output on the test set by now."""
    try:
        with transaction.atomic():
            return _store_outputs(
                test_set, user, outputs, system_description, metrics, queue
            )
    except IntegrityError:
        taken = SystemOutput.objects.filter(
            test_set=test_set, system__team=test_set.team, system__name__in=outputs
        ).values_list("system__name", flat=True)
        if taken:
            raise AlreadyExists(taken[0]) from None
        raise


def _store_outputs(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    outputs: Mapping[str, Sequence[str]],
    system_description: str,
    metrics: Sequence[str],
    queue: bool,
) -> list[ScoringJob]:
    return [
        _store_system_output(
            test_set,
            user,
            name,
            hypotheses,
            system_description=system_description,
            metrics=metrics,
            queue=queue,
        )
        for name, hypotheses in outputs.items()
    ]
