"""The metrics an ORANGE chunk ranks with, bound to the job's whole test set.

A job's chunks are ranked in separate Celery tasks, each holding only its
own sentences. Two metrics nevertheless count something over the whole test
set, so every chunk binds its metrics to the stored references of *all*
segments (:func:`scoring.orange.prepare.prepare_metrics`):

- NIST's information weights come from every reference of the test set
  (mteval-v13a, SPEC section 2);
- WNM's salience weights compare each document's reference text with the
  rest of the test set, so WNM also takes the test set's document ids (the
  segments' ``document_id``) and the id of every sentence (its segment
  index, as the n-best list and the chunks name it); a chunk then picks
  each sentence's document from them.

Each chunk gets the same weights, and the merged job equals one run of
``python -m scoring orange`` over the test set's reference files (with
``--docs`` for WNM). NIST's weights are cached per worker process
(:func:`scoring.metrics.ngram.nist_reference_weights.reference_weights_of_texts`),
so a worker counts them once per test set, not once per chunk; the
references are read only when a metric needs them.
"""

from __future__ import annotations

from collections.abc import Sequence

from mtdash.common.server_metrics import server_metric
from mtdash.evaluation.models import ReferenceSegment, Segment, TestSet
from mtdash.orange.models import OrangeJob
from scoring import Metric
from scoring.orange import (
    for_sentences,
    needs_test_set_references,
    prepare_metrics,
)

References = tuple[str | None, ...]


def references_by_segment(
    test_set: TestSet, labels: Sequence[str]
) -> tuple[list[int], list[References]]:
    """The segment indices that have references, in order, and the references
    of each in ``labels`` order: ``([i_0, ...], [(r_1..r_K) of i_0, ...])``,
    ``None`` where a reference set lacks the segment."""
    rows = ReferenceSegment.objects.filter(
        reference_set__test_set=test_set, reference_set__label__in=list(labels)
    ).values_list("reference_set__label", "index", "text")
    by_index: dict[int, dict[str, str]] = {}
    for label, index, text in rows:
        by_index.setdefault(index, {})[label] = text
    indices = sorted(by_index)
    return indices, [
        tuple(by_index[index].get(label) for label in labels) for index in indices
    ]


def document_ids_of(test_set: TestSet, indices: Sequence[int]) -> list[str] | None:
    """The document id of each segment ``indices[p]``; ``None`` unless every
    one has an id (a test set uploaded without document ids has none)."""
    documents = dict(
        Segment.objects.filter(test_set=test_set).values_list("index", "document_id")
    )
    ids = [documents.get(index, "") for index in indices]
    return ids if ids and all(ids) else None


def bound_to_test_set(job: OrangeJob, metrics: list[Metric]) -> list[Metric]:
    """``metrics`` bound to the job's test set: NIST to the weights of every
    reference (of the job's reference sets), WNM to the saliences of every
    document and the document of every sentence; others unchanged.

    A WNM over a test set without document ids raises ``MetricError``
    (job creation refuses it first: ``check_orange_metrics``)."""
    if any(needs_test_set_references(metric) for metric in metrics):
        test_set = job.nbest.test_set
        # Sentence ids, references and documents all in one order.
        indices, references = references_by_segment(test_set, job.reference_labels)
        metrics = prepare_metrics(
            metrics,
            references,
            document_ids_of(test_set, indices),
            sentence_ids=indices,
        )
    return metrics


def chunk_metrics(job: OrangeJob) -> list[Metric]:
    """The job's metrics in order, as every chunk ranks with them."""
    return bound_to_test_set(job, [server_metric(spec) for spec in job.metrics])


def job_metric(job: OrangeJob, spec: str, sentence_id: int | None = None) -> Metric:
    """One of the job's metrics as its chunks scored it (e.g. to show a
    reference's jackknife score next to the stored oracle score).

    A WNM bound to the test set still has to be told which sentence it
    scores, to take that sentence's document's saliences: give the sentence
    (segment index) as ``sentence_id``; other metrics ignore it."""
    metric = bound_to_test_set(job, [server_metric(spec)])[0]
    if sentence_id is not None:
        metric = for_sentences([metric], [sentence_id])[0]
    return metric
