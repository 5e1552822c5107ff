"""The metrics an ORANGE chunk ranks with, bound to the job's whole test set.

A job's chunks are ranked in separate Celery tasks, each holding only its
own sentences. NIST's information weights must nevertheless come from every
reference of the test set (mteval-v13a, SPEC section 2), so every chunk
binds its metrics to the stored references of *all* segments
(:func:`scoring.orange.prepare.prepare_metrics`): each chunk gets the same
weights, and the merged job equals one run of ``python -m scoring orange``
over the test set's reference files. The weights are cached per worker
process (:func:`scoring.metrics.ngram.nist_reference_weights.reference_weights_of_texts`),
so a worker counts them once per test set, not once per chunk; the
references are read only when a metric needs them.
"""

from __future__ import annotations

from collections.abc import Sequence

from mtdash.evaluation.models import ReferenceSegment, TestSet
from mtdash.orange.models import OrangeJob
from scoring import Metric, get_metric
from scoring.orange import needs_test_set_references, prepare_metrics


def all_references_of(
    test_set: TestSet, labels: Sequence[str]
) -> list[tuple[str | None, ...]]:
    """The references of every segment of ``test_set`` in ``labels`` order,
    segment by segment: ``[(r_1..r_K) of segment 0, ...]``, ``None`` where a
    reference set lacks the segment."""
    rows = ReferenceSegment.objects.filter(
        reference_set__test_set=test_set, reference_set__label__in=list(labels)
    ).values_list("reference_set__label", "index", "text")
    by_index: dict[int, dict[str, str]] = {}
    for label, index, text in rows:
        by_index.setdefault(index, {})[label] = text
    return [
        tuple(by_index[index].get(label) for label in labels)
        for index in sorted(by_index)
    ]


def bound_to_test_set(job: OrangeJob, metrics: list[Metric]) -> list[Metric]:
    """``metrics`` with NIST bound to the weights of every reference (of the
    job's reference sets) of the job's test set; others unchanged."""
    if any(needs_test_set_references(metric) for metric in metrics):
        references = all_references_of(job.nbest.test_set, job.reference_labels)
        metrics = prepare_metrics(metrics, references)
    return metrics


def chunk_metrics(job: OrangeJob) -> list[Metric]:
    """The job's metrics in order, as every chunk ranks with them."""
    return bound_to_test_set(job, [get_metric(spec) for spec in job.metrics])


def job_metric(job: OrangeJob, spec: str) -> Metric:
    """One of the job's metrics as its chunks scored it (e.g. to show a
    reference's jackknife score next to the stored oracle score)."""
    return bound_to_test_set(job, [get_metric(spec)])[0]
