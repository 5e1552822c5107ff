"""Human translations as systems: a reference entered as a system output, as
the WMT evaluations do (a second translator's work ranked beside the MT
systems, and judged like them).

The output holds the reference's text and is scored against the test set's
other references, so a test set needs two references at least. Its scores
are the same metrics as the test set's other outputs, under a signature
that differs only in the references (``nrefs``, and chrF's ``refs``
fingerprint): :func:`mtdash.common.metric_specs.same_but_references` lets
the leaderboard and the metric evaluation read them in the same column.
Judgments name it like any system (WMT21's MQM files call the references
``ref-A``, ``ref-C``…, the default name here).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser

from mtdash.common.metric_specs import stored_spec
from mtdash.evaluation.models import (
    CorpusScore,
    ReferenceSet,
    ScoringJob,
    SystemOutput,
    TestSet,
)
from mtdash.evaluation.services.scoring_jobs import DEFAULT_METRICS
from mtdash.evaluation.services.uploads import (
    AlreadyExists,
    create_system_output,
    language_metric_specs,
)


class CannotEnterReference(Exception):
    """Why a reference cannot be entered as a system (the message says)."""


def default_system_name(label: str) -> str:
    """``ref-A`` for reference A: the name WMT21's MQM files use."""
    return f"ref-{label}"


def metrics_of(test_set: TestSet) -> list[str]:
    """The metric specs the test set's outputs were scored with, else the
    defaults for its target language."""
    stored = CorpusScore.objects.filter(output__test_set=test_set).values_list(
        "metric", flat=True
    )
    specs = sorted({stored_spec(metric) for metric in stored})
    return specs or language_metric_specs(DEFAULT_METRICS, test_set.target_language)


def enter_reference_as_system(
    test_set: TestSet,
    label: str,
    user: AbstractBaseUser | None,
    *,
    system_name: str = "",
    metrics: Sequence[str] | None = None,
    queue: bool = True,
) -> ScoringJob:
    """Store reference ``label`` of ``test_set`` as a system output (named
    ``system_name``, by default :func:`default_system_name`) and queue its
    scoring job with ``metrics`` (checked specs; default
    :func:`metrics_of`); raise :class:`CannotEnterReference` with a message
    for the person when it cannot be done."""
    reference = ReferenceSet.objects.filter(test_set=test_set, label=label).first()
    if reference is None:
        labels = ", ".join(test_set.reference_sets.values_list("label", flat=True))
        raise CannotEnterReference(
            f"{test_set.name!r} has no reference {label!r} (its references: "
            f"{labels or 'none'})"
        )
    if test_set.reference_sets.count() < 2:
        raise CannotEnterReference(
            f"{test_set.name!r} has one reference: a human translation is scored "
            "against the other references, so it needs two at least"
        )
    entered = SystemOutput.objects.filter(reference=reference).first()
    if entered is not None:
        raise CannotEnterReference(
            f"reference {label!r} is already a system ({entered.system.name!r})"
        )
    name = system_name.strip() or default_system_name(label)
    if len(name) > 200:
        raise CannotEnterReference("a system name has at most 200 characters")
    if SystemOutput.objects.filter(
        test_set=test_set, system__team=test_set.team, system__name=name
    ).exists():
        raise CannotEnterReference(f"system {name!r} already has an output here")
    texts = list(reference.segments.order_by("index").values_list("text", flat=True))
    try:
        return create_system_output(
            test_set,
            user,
            name,
            texts,
            system_description=f"human translation: reference {label}",
            metrics=metrics_of(test_set) if metrics is None else metrics,
            queue=queue,
            reference=reference,
        )
    except AlreadyExists:
        # Entered by someone else between the checks and the insert.
        raise CannotEnterReference(
            f"reference {label!r} or system {name!r} was entered meanwhile"
        ) from None
