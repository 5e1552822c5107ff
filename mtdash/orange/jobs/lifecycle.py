"""ORANGE jobs, split into chunks of sentences that any number of workers share.

A job over an n-best list is planned as chunks of consecutive sentences
(:func:`plan_chunks`); each chunk is one Celery task. A chunk task

1. claims its chunk with a conditional UPDATE (``QUEUED → RUNNING``, or a
   ``RUNNING`` chunk whose worker's lease expired, while the job is still
   alive); 0 rows means another worker has it, it is done, or the job
   failed, and the task does nothing more than step 4;
2. ranks its sentences for every metric with ``scoring.orange.rank_nbest_chunk``
   and stores the ``SentenceRankings`` as one ``.npz`` (written to a temporary
   file and renamed, so running a chunk again *replaces* its partial result);
3. marks the chunk ``DONE`` and sets the job's progress from the share of
   finished chunks;
4. if every chunk is done, tries to claim the merge (``RUNNING → MERGING``,
   again a conditional UPDATE, so exactly one task merges): it loads the
   partials in chunk order, which is sentence order, merges them with
   ``merge_rankings`` and summarises each metric with ``summarise``, then
   replaces the job's scores in one transaction. The merge is leased like a
   chunk: if its worker dies the sweeper wakes a chunk task that claims the
   merge again, and a merger that lost its lease saves nothing.

Each task marks its own chunk done *before* counting, so whichever finishes
last sees every chunk done; the merge is the same computation as one run
over all sentences, so the result equals ``scoring.orange.orange_for_metric``.
Transient database errors hand the chunk (or the merge) back and retry; any
other failure is recorded on the chunk and the job with a readable message.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

import scoring.orange
from mtdash.common.jobs import JobQuerySet, lease_deadline, worker_name
from mtdash.common.metric_specs import check_metric_specs
from mtdash.common.numbers import finite
from mtdash.common.queueing import send_job_tasks
from mtdash.common.running import run_claimed
from mtdash.common.server_metrics import server_metric
from mtdash.evaluation.models import ReferenceSegment, TestSet
from mtdash.orange.jobs.artifacts import (
    load_nbest_index,
    load_partial,
    read_chunk_words,
    save_partial,
)
from mtdash.orange.jobs.metric_significance import (
    compare_job,
    comparison_fields,
    save_normalised_ranks,
)
from mtdash.orange.jobs.metrics import chunk_metrics
from mtdash.orange.models import NBestList, OrangeChunk, OrangeJob, OrangeScore
from mtdash.orange.nbest.uploads import (
    not_ready_message,
    references_problem,
)
from scoring import MetricError, get_metric
from scoring.orange import (
    OrangeOptions,
    OrangeResult,
    auto_curve_step,
    curve_points,
    merge_rankings,
    normalised_ranks,
    summarise,
)

logger = logging.getLogger(__name__)


def rank_nbest_chunk(*args, **kwargs):
    """``scoring.orange.rank_nbest_chunk``, looked up on use: it loads the
    compiled kernels (Numba), which the web processes, importing this module
    for its other functions, must not (issue 24 item 6)."""
    return scoring.orange.rank_nbest_chunk(*args, **kwargs)


# A chunk holds at most this many sentences and, unless a single sentence is
# longer, this many candidates: a 1024-best list gives chunks of 16 sentences,
# a 16384-best list one sentence per chunk.
DEFAULT_CHUNK_SENTENCES = 16
DEFAULT_CHUNK_CANDIDATES = 16_384

_ALIVE = (OrangeJob.Status.QUEUED, OrangeJob.Status.RUNNING)


class OrangeJobError(ValueError):
    """A job that cannot be created as asked; the message is for people."""


def check_orange_metrics(specs: Sequence[str], *, has_document_ids: bool) -> list[str]:
    """Registry specs checked like every upload's, plus what ORANGE can score.

    ORANGE scores one sentence at a time against that sentence's references;
    what a metric takes from the whole test set is bound once for every
    chunk (:mod:`mtdash.orange.jobs.metrics`). WNM's saliences need
    the test set's document ids, so it is refused for a test set uploaded
    without them; a metric that needs anything else is refused.
    """
    checked = check_metric_specs(specs, has_document_ids=True)
    for spec in checked:
        needs = get_metric(spec).requires
        if any(need != "document_ids" for need in needs):
            raise MetricError(
                f"{spec} needs {', '.join(n.replace('_', ' ') for n in needs)}, which "
                "ORANGE's sentence-by-sentence ranking does not provide; "
                "choose another metric"
            )
        if needs and not has_document_ids:
            raise MetricError(
                f"{spec} needs document ids; this test set was uploaded without "
                "them (upload it again with a document id file)"
            )
    return checked


def plan_chunks(
    n_candidates: Sequence[int],
    *,
    max_sentences: int = DEFAULT_CHUNK_SENTENCES,
    max_candidates: int = DEFAULT_CHUNK_CANDIDATES,
) -> list[tuple[int, int]]:
    """``(first, stop)`` positions of consecutive sentences, covering all of them.

    >>> plan_chunks([3, 3, 3, 3, 3], max_sentences=2, max_candidates=100)
    [(0, 2), (2, 4), (4, 5)]
    >>> plan_chunks([5, 5, 20, 1], max_sentences=10, max_candidates=10)
    [(0, 2), (2, 3), (3, 4)]
    """
    if max_sentences < 1 or max_candidates < 1:
        raise ValueError("chunk limits must be positive")
    spans: list[tuple[int, int]] = []
    first, in_chunk = 0, 0
    for position, count in enumerate(n_candidates):
        full = position - first >= max_sentences or in_chunk + count > max_candidates
        if position > first and full:
            spans.append((first, position))
            first, in_chunk = position, 0
        in_chunk += count
    if len(n_candidates) > first:
        spans.append((first, len(n_candidates)))
    return spans


def queue_chunks(chunk_ids: Sequence[int]) -> None:
    """Send one task per chunk to the Celery workers."""
    send_job_tasks(OrangeChunk, chunk_ids)


@transaction.atomic
def create_orange_job(
    nbest: NBestList,
    user: AbstractBaseUser | None,
    metrics: Sequence[str],
    options: OrangeOptions | None = None,
    *,
    queue: bool = True,
    max_sentences: int = DEFAULT_CHUNK_SENTENCES,
    max_candidates: int = DEFAULT_CHUNK_CANDIDATES,
) -> OrangeJob:
    """A job and its chunks; the chunks go to Celery once the transaction commits.

    A curve step of 0 means "adapted to N" (:func:`auto_curve_step`)."""
    options = options or OrangeOptions()
    if options.curve_step == 0:  # the step left to the job: adapted to N
        options = replace(options, curve_step=auto_curve_step(nbest.max_candidates))
    test_set: TestSet = nbest.test_set
    problem = references_problem(test_set)
    if problem:
        raise OrangeJobError(problem)
    if not nbest.is_ready:  # still being checked, or refused
        raise OrangeJobError(not_ready_message(nbest))
    if options.curve_step < 1 or options.n_bootstrap < 0 or options.seed < 0:
        raise OrangeJobError(
            "the curve step must be ≥ 1, bootstrap samples and seed ≥ 0"
        )
    checked = check_orange_metrics(
        metrics, has_document_ids=test_set.has_document_ids()
    )
    index = load_nbest_index(nbest.artifact)
    spans = plan_chunks(
        index.n_candidates.tolist(),
        max_sentences=max_sentences,
        max_candidates=max_candidates,
    )
    labels = list(
        test_set.reference_sets.order_by("label").values_list("label", flat=True)
    )
    job = OrangeJob.objects.create(
        nbest=nbest,
        metrics=checked,
        reference_labels=labels,
        all_references=options.all_references,
        curve_step=options.curve_step,
        n_bootstrap=options.n_bootstrap,
        seed=options.seed,
        n_chunks=len(spans),
        created_by=user,
    )
    OrangeChunk.objects.bulk_create(
        OrangeChunk(job=job, index=i, first=first, stop=stop)
        for i, (first, stop) in enumerate(spans)
    )
    if queue:
        chunk_ids = list(job.chunks.values_list("pk", flat=True))
        transaction.on_commit(lambda: queue_chunks(chunk_ids))
    return job


def job_options(job: OrangeJob) -> OrangeOptions:
    return OrangeOptions(
        all_references=job.all_references,
        curve_step=job.curve_step,
        n_bootstrap=job.n_bootstrap,
        seed=job.seed,
    )


def run_orange_chunk(chunk_id: int) -> bool:
    """Rank one chunk (if still queued), then merge if it was the last one.

    Returns whether this call ranked the chunk. Safe to run any number of
    times and in any order with the other chunks of the job.
    """
    chunks = OrangeChunk.objects.filter(pk=chunk_id)
    claimed = chunks.filter(job__status__in=_ALIVE).claim()
    chunk = chunks.select_related("job__nbest__test_set").first()
    if chunk is None:
        logger.info("ORANGE chunk %s no longer exists; skipping", chunk_id)
        return False
    job = chunk.job
    if claimed:
        jobs = OrangeJob.objects.filter(pk=job.pk)
        jobs.start()  # the first chunk claimed starts the job
        ranked = run_claimed(
            chunks,
            lambda: _rank(chunk),
            where=_where(chunk),
            also_fail=jobs.filter(status__in=_ALIVE),
        )
        if not ranked:
            return True
        chunks.filter(
            status=OrangeChunk.Status.RUNNING, claimed_by=worker_name()
        ).succeed()
        _update_progress(job)
    else:
        logger.info(
            "ORANGE chunk %s is not queued (or its job ended); skipping", chunk_id
        )
    finish_if_complete(job.pk)
    return bool(claimed)


def chunk_references(
    test_set: TestSet, labels: Sequence[str], sentence_ids: Sequence[int]
) -> list[tuple[str, ...]]:
    """The K references of each sentence, in ``labels`` order: ``[(r_1..r_K), ...]``."""
    rows = ReferenceSegment.objects.filter(
        reference_set__test_set=test_set,
        reference_set__label__in=labels,
        index__in=list(sentence_ids),
    ).values_list("reference_set__label", "index", "text")
    texts = {(label, index): text for label, index, text in rows}
    try:
        return [tuple(texts[(label, i)] for label in labels) for i in sentence_ids]
    except KeyError as missing:
        label, index = missing.args[0]
        raise OrangeJobError(
            f"reference {label} of segment {index} is missing"
        ) from None


def _rank(chunk: OrangeChunk) -> None:
    job, nbest = chunk.job, chunk.job.nbest
    if settings.MTDASH_JOB_TEST_DELAY_SECONDS and chunk.attempts == 1:
        time.sleep(settings.MTDASH_JOB_TEST_DELAY_SECONDS)  # tests: kill me now
    words = read_chunk_words(nbest.artifact, chunk.first, chunk.stop)
    ids = words.sentence_ids.tolist()
    references = chunk_references(nbest.test_set, job.reference_labels, ids)
    curve_n = curve_points(nbest.max_candidates, job.curve_step)
    options = job_options(job)
    # All metrics at once, each token view made once per distinct word of
    # the chunk (as the command line does for the whole list).
    rankings = rank_nbest_chunk(
        chunk_metrics(job),  # NIST, WNM: the whole test set's weights
        words,
        references,
        curve_n=curve_n,
        options=options,
    )
    save_partial(job.artifact, chunk.partial_name, rankings, job.metrics)


def _where(chunk: OrangeChunk) -> str:
    """Which part of the job a chunk's failure message is about."""
    return chunk.where


def _update_progress(job: OrangeJob) -> None:
    done = OrangeChunk.objects.filter(
        job_id=job.pk, status=OrangeChunk.Status.DONE
    ).count()
    OrangeJob.objects.filter(pk=job.pk, status__in=_ALIVE).report_progress(
        100 * done // job.n_chunks
    )


def finish_if_complete(job_id: int) -> bool:
    """Merge and summarise if every chunk is done and nobody else is merging
    (or the worker that was merging stopped renewing its lease)."""
    job = OrangeJob.objects.filter(id=job_id).select_related("nbest").first()
    if job is None or job.status not in _MERGEABLE:
        return False
    done = OrangeChunk.objects.filter(
        job_id=job_id, status=OrangeChunk.Status.DONE
    ).count()
    if done < job.n_chunks:
        return False
    if not _claim_merge(job_id):
        return False
    run_claimed(
        OrangeJob.objects.filter(pk=job_id, status=OrangeJob.Status.MERGING),
        lambda: _save_results(job, merge_job(job)),
        where="merging the chunks",
        hand_back_to=OrangeJob.Status.RUNNING,
    )
    return True


_MERGEABLE = (OrangeJob.Status.RUNNING, OrangeJob.Status.MERGING)


def _claim_merge(job_id: int) -> bool:
    """running (or merging under an expired lease) → merging, leased to this
    worker; a merge whose workers stopped too often fails the job instead."""
    now = timezone.now()
    jobs = OrangeJob.objects.filter(pk=job_id)
    jobs.give_up_exhausted(now)
    mergeable = jobs.filter(
        Q(status=OrangeJob.Status.RUNNING) | Q(pk__in=jobs.lease_expired(now))
    ).exclude(attempts__gte=settings.MTDASH_JOB_MAX_ATTEMPTS)
    return bool(
        mergeable.update(
            status=OrangeJob.Status.MERGING,
            attempts=F("attempts") + 1,
            claimed_by=worker_name(),
            lease_expires_at=lease_deadline(now),
        )
    )


def merge_job(job: OrangeJob) -> list[OrangeResult]:
    """Every metric's result from the chunks' partials (in sentence order)."""
    chunks = list(job.chunks.order_by("index"))
    parts = [
        load_partial(job.artifact, chunk.partial_name, job.metrics) for chunk in chunks
    ]
    merged = {
        spec: merge_rankings([part[position] for part in parts])
        for position, spec in enumerate(job.metrics)
    }
    # What the paired test between metrics needs, kept with the job.
    save_normalised_ranks(
        job, {spec: normalised_ranks(rankings) for spec, rankings in merged.items()}
    )
    return [
        summarise(rankings, metric=spec, n_bootstrap=job.n_bootstrap, seed=job.seed)
        for spec, rankings in merged.items()
    ]


@transaction.atomic
def _save_results(job: OrangeJob, results: Sequence[OrangeResult]) -> None:
    merging = OrangeJob.objects.filter(pk=job.pk, status=OrangeJob.Status.MERGING)
    merging.hold_lease()  # a merger that lost its lease saves nothing
    n_references = len(job.reference_labels)
    nrefs = n_references if job.all_references else n_references - 1
    OrangeScore.objects.filter(job=job).delete()
    comparison = compare_job(job)
    # As the chunks ranked with them: the signatures of NIST and WNM name
    # the test set their weights come from.
    ranked_with = dict(zip(job.metrics, chunk_metrics(job)))
    rows = []
    for position, result in enumerate(results):
        metric = ranked_with.get(result.metric) or server_metric(result.metric)
        above = [
            [
                item["sentence"],
                item["oracle_score"],
                [[c["index"], c["score"]] for c in item["candidates"]],
            ]
            for item in result.above_reference
        ]
        rows.append(
            OrangeScore(
                job=job,
                position=position,
                metric=result.metric,
                signature=metric.sentence_signature(nrefs)[:400],
                higher_is_better=metric.higher_is_better,
                scale=float(metric.scale),
                orange=result.orange,
                avg_rank=result.avg_rank,
                ci_low=finite(result.ci_low),
                ci_high=finite(result.ci_high),
                orange_ci_low=finite(result.orange_ci_low),
                orange_ci_high=finite(result.orange_ci_high),
                n_sentences=result.n_sentences,
                n_short=result.n_short,
                max_candidates=result.max_candidates,
                n_bootstrap=result.n_bootstrap,
                seed=result.seed,
                curve=[[n, value] for n, value in result.curve],
                above_reference=above,
                n_sentences_above=sum(1 for item in above if item[2]),
                n_candidates_above=sum(len(item[2]) for item in above),
                **comparison_fields(comparison, result.metric),
            )
        )
    OrangeScore.objects.bulk_create(rows)
    merging.succeed()


class NotRetryable(OrangeJobError):
    """A retry asked of a job that neither failed nor is stuck."""


@transaction.atomic
def retry_orange_job(job: OrangeJob) -> list[int]:
    """Queue the unfinished chunks of a failed or stuck job again; returns
    the ids of the chunks sent (done chunks keep their results).

    Conditional UPDATEs decide, each on the columns of the rows it changes,
    so a second click racing this one waits for its row locks and then
    matches nothing (PostgreSQL re-checks the condition on the committed
    row; SQLite runs one writing transaction at a time):

    - a failed job → running (queued if no chunk is done), attempts afresh;
    - a stuck merge (merging under an expired lease, or every chunk done
      long ago and never merged) → running, with a lease that says a merge
      was asked for, so the job is not offered again within a lease;
    - failed chunks, and chunks running under an expired lease (a dead
      worker's) → queued, attempts afresh; chunks a live worker holds are
      left to it.

    If none of these changed a row the job is left alone and
    :class:`NotRetryable` says why. Otherwise every queued chunk of the job
    is sent once the transaction commits (or, with none left to rank, one
    chunk task that finds its chunk done and claims the merge).
    """
    now = timezone.now()
    jobs = OrangeJob.objects.filter(pk=job.pk)
    revived = jobs.filter(status=OrangeJob.Status.FAILED).update(
        status=OrangeJob.Status.RUNNING,
        error_message="",
        started_at=now,
        finished_at=None,
        attempts=0,
        claimed_by="",
        lease_expires_at=None,
    )
    merge_asked = _ask_for_merge(jobs, now)
    expired = Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True)
    stranded = Q(status=OrangeChunk.Status.FAILED) | (
        Q(status=OrangeChunk.Status.RUNNING) & expired
    )
    requeued = (
        OrangeChunk.objects.filter(job_id=job.pk)
        .filter(stranded)
        .update(
            status=OrangeChunk.Status.QUEUED,
            error_message="",
            progress=0,
            attempts=0,
            claimed_by="",
            lease_expires_at=None,
            started_at=None,
            finished_at=None,
        )
    )
    if not (revived or merge_asked or requeued):
        raise NotRetryable(
            "Only a failed job, or one whose workers stopped, can run again."
        )
    chunks = OrangeChunk.objects.filter(job_id=job.pk)
    if revived and not chunks.filter(status=OrangeChunk.Status.DONE).exists():
        jobs.update(status=OrangeJob.Status.QUEUED, started_at=None)
    chunk_ids = list(
        chunks.filter(status=OrangeChunk.Status.QUEUED)
        .order_by("index")
        .values_list("pk", flat=True)
    )
    if not chunk_ids and not chunks.exclude(status=OrangeChunk.Status.DONE).exists():
        # Nothing to rank: ask for the merge, and one chunk task claims it.
        jobs.update(lease_expires_at=lease_deadline(now))
        to_send = list(chunks.order_by("index").values_list("pk", flat=True)[:1])
    else:
        to_send = chunk_ids
    transaction.on_commit(lambda: queue_chunks(to_send))
    return chunk_ids


def _ask_for_merge(jobs: JobQuerySet, now: datetime) -> int:
    """Stuck merge → running with a request's lease; returns rows changed.

    The condition's own columns (status, lease) change here, so a racing
    second request re-checks to no match."""
    quiet_since = now - timedelta(seconds=settings.MTDASH_JOB_LEASE_SECONDS)
    no_request = Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True)
    merging_dead = Q(status=OrangeJob.Status.MERGING) & no_request
    never_merged = (
        Q(status=OrangeJob.Status.RUNNING)
        & no_request
        & ~Q(chunks__status__in=OrangeChunk.unfinished_statuses())
        & ~Q(chunks__finished_at__gte=quiet_since)
    )
    return jobs.filter(merging_dead | never_merged).update(
        status=OrangeJob.Status.RUNNING,
        attempts=0,
        claimed_by="",
        lease_expires_at=lease_deadline(now),
    )


def run_orange_job_now(job: OrangeJob) -> OrangeJob:
    """Run every chunk in this process (demo ``--score-now``, tests)."""
    for chunk_id in job.chunks.order_by("index").values_list("pk", flat=True):
        run_orange_chunk(chunk_id)
    return OrangeJob.objects.get(pk=job.pk)
