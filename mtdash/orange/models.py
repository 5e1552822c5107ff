"""n-best lists, ORANGE jobs split into chunks of sentences, and their results.

Candidates are never database rows: an n-best list is a compressed file
artifact (``services.artifacts``), and so is each chunk's partial result.
The database holds what pages and workers coordinate on: which chunk is
claimed or done, the job's status, and the merged per-metric results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Count, Max, Q, Sum
from django.urls import reverse
from django.utils import timezone

from mtdash.common.jobs import Job, JobQuerySet, status_field
from mtdash.common.queueing import send_job_tasks
from mtdash.evaluation.models import TestSet
from scoring.orange import OrangeResult


class NBestList(Job):
    """A system's n-best lists for (some of) a test set's segments.

    Moses sentence id i is the test set's segment index i (line i + 1).

    The row is also the job that checks the upload: the request stores the
    file as it came (``artifact``/``upload.gz``) and a worker validates it
    completely (``services.nbest_validation``), then writes the candidates
    and their index and fills in the counts. Only a ``succeeded`` ("ready")
    list can have ORANGE jobs; a refused one keeps its row (``failed``, the
    file and line in ``error_message``) and nothing of its file.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting to be checked"
        RUNNING = "running", "Checking"
        SUCCEEDED = "succeeded", "Ready"
        FAILED = "failed", "Refused"

    task_name = "mtdash.orange.validation_tasks.validate_nbest_list"
    job_noun = "check of the n-best list"

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="nbest_lists"
    )
    name = models.CharField(
        max_length=200, help_text="e.g. the system and N: AlTemp 1024-best"
    )
    description = models.TextField(blank=True)
    file_name = models.CharField(max_length=255, help_text="name of the uploaded file")
    upload_name = models.CharField(
        max_length=255,
        blank=True,
        help_text="the file's name as sent (with .gz when it came compressed)",
    )
    artifact = models.CharField(
        max_length=255,
        help_text="directory of the stored list, relative to MTDASH_ARTIFACT_DIR",
    )
    # Counts are 0 until the check has read the whole list.
    n_sentences = models.PositiveIntegerField(default=0)
    n_candidates = models.PositiveBigIntegerField(default=0)
    min_candidates = models.PositiveIntegerField(default=0)
    max_candidates = models.PositiveIntegerField(default=0)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = status_field(Status)
    uploaded_bytes = models.PositiveBigIntegerField(
        default=0, help_text="size of the file as it was sent (compressed or not)"
    )
    refusal = models.JSONField(
        null=True,
        blank=True,
        help_text='why the check refused the list: {"file", "line", "message"}',
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "n-best list"
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "name"], name="nbest_name_per_test_set"
            )
        ]

    @classmethod
    def gave_up(cls, pk: int, message: str) -> None:
        """A check whose workers kept stopping keeps nothing of the file."""
        from mtdash.orange.jobs.artifacts import remove_artifact

        artifact = cls.objects.filter(pk=pk).values_list("artifact", flat=True)
        for relative in artifact:
            remove_artifact(relative)

    def __str__(self) -> str:
        return f"{self.name} on {self.test_set}"

    def get_absolute_url(self) -> str:
        return reverse("nbest_detail", args=[self.pk])

    @property
    def is_ready(self) -> bool:
        """Checked and stored: ORANGE jobs may use it."""
        return self.status == self.Status.SUCCEEDED


@dataclass(frozen=True)
class ChunkCounts:
    """How a job's chunks stand, counted in one query (``OrangeJob.chunk_counts``).

    ``stuck`` chunks are running under a lease nobody renewed in time (their
    worker died); ``attempts`` sums every chunk's claims by workers.
    """

    done: int
    running: int
    queued: int
    failed: int
    stuck: int
    attempts: int
    last_finished_at: datetime | None


class OrangeJob(Job):
    """ORANGE of some metrics over one n-best list, computed chunk by chunk.

    The job itself is never sent to a worker: its chunks are, and the task
    that finishes the last chunk claims the merge (``running → merging``).
    While the job is ``running`` its ``lease_expires_at`` is empty, unless a
    person asked for the merge again (:func:`retry_orange_job`): then it says
    until when that request is given to work before the job counts as stuck.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        MERGING = "merging", "Merging"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    nbest = models.ForeignKey(
        NBestList, on_delete=models.CASCADE, related_name="orange_jobs"
    )
    metrics = models.JSONField(
        help_text="metric specs as in the scoring registry, in order"
    )
    reference_labels = models.JSONField(help_text="reference sets used, in order")
    all_references = models.BooleanField(
        default=False,
        help_text="score candidates against all K references (no jackknife)",
    )
    curve_step = models.PositiveIntegerField(default=64)
    n_bootstrap = models.PositiveIntegerField(default=1000)
    seed = models.PositiveIntegerField(default=1)
    n_chunks = models.PositiveIntegerField()
    status = status_field(Status)
    progress = models.PositiveSmallIntegerField(
        default=0, help_text="0–100, from finished chunks"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    # Only the merge is leased: while chunks run, they hold the leases.
    leased_statuses = (Status.MERGING,)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "ORANGE job"

    @classmethod
    def recover(cls, now: datetime) -> int:
        """Wake jobs whose merge nobody runs: every chunk done but the job
        still running a lease's time later (the last chunk's worker died
        before claiming the merge), or merging under an expired lease. One
        chunk task is sent; it finds its chunk done and claims the merge."""
        quiet_since = now - timedelta(seconds=settings.MTDASH_JOB_LEASE_SECONDS)
        unmerged = (
            cls.objects.filter(status=cls.Status.RUNNING)
            .exclude(chunks__status__in=OrangeChunk.unfinished_statuses())
            .exclude(chunks__finished_at__gte=quiet_since)
        )
        ids = set(unmerged.values_list("pk", flat=True))
        ids |= set(cls.objects.all().lease_expired(now).values_list("pk", flat=True))
        first_chunks = [
            OrangeChunk.objects.filter(job_id=pk).order_by("index").first()
            for pk in sorted(ids)
        ]
        return send_job_tasks(OrangeChunk, [c.pk for c in first_chunks if c])

    def __str__(self) -> str:
        return f"ORANGE job {self.pk} ({self.status}) on {self.nbest}"

    def get_absolute_url(self) -> str:
        return reverse("orange_job_detail", args=[self.pk])

    @property
    def artifact(self) -> str:
        """Directory of the chunks' partial results, relative to MTDASH_ARTIFACT_DIR."""
        return f"orange/jobs/{self.pk}"

    @cached_property
    def chunk_counts(self) -> ChunkCounts:
        """Done, running, queued, failed and stuck chunks: one query, kept
        for the life of this instance (a page asks several times)."""
        now = timezone.now()
        done = Q(status=OrangeChunk.Status.DONE)
        running = Q(status=OrangeChunk.Status.RUNNING)
        expired = Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True)
        counts = OrangeChunk.objects.filter(job_id=self.pk).aggregate(
            done=Count("pk", filter=done),
            running=Count("pk", filter=running),
            queued=Count("pk", filter=Q(status=OrangeChunk.Status.QUEUED)),
            failed=Count("pk", filter=Q(status=OrangeChunk.Status.FAILED)),
            stuck=Count("pk", filter=running & expired),
            attempts=Sum("attempts"),
            last_finished_at=Max("finished_at", filter=done),
        )
        counts["attempts"] = counts["attempts"] or 0
        return ChunkCounts(**counts)

    @property
    def merge_is_stuck(self) -> bool:
        """Nobody is merging finished chunks: the merging worker's lease
        expired, or every chunk has been done for a lease's time and the merge
        was never claimed (the last chunk's worker died first), and no retry
        asked for it within the last lease."""
        now = timezone.now()
        if self.status == self.Status.MERGING:
            return self.lease_expires_at is None or self.lease_expires_at < now
        if self.status != self.Status.RUNNING:
            return False
        if self.lease_expires_at is not None and self.lease_expires_at >= now:
            return False
        counts = self.chunk_counts
        quiet_since = now - timedelta(seconds=settings.MTDASH_JOB_LEASE_SECONDS)
        return (
            counts.done == self.n_chunks
            and counts.last_finished_at is not None
            and counts.last_finished_at < quiet_since
        )

    @property
    def is_stuck(self) -> bool:
        """Unfinished, and some chunk's worker (or the merging worker)
        stopped renewing its lease: the job would otherwise wait for the
        sweeper (and a person may run the unfinished chunks again)."""
        if self.is_finished:
            return False
        return self.chunk_counts.stuck > 0 or self.merge_is_stuck

    def waiting_rows(self) -> JobQuerySet:
        """The job's chunks that wait for a worker (the job itself never
        goes to one)."""
        return self.chunks.filter(status=OrangeChunk.Status.QUEUED)

    def running_chunks(self, limit: int = 10) -> list[OrangeChunk]:
        """The first ``limit`` running chunks (stuck ones included), for the page."""
        running = self.chunks.filter(status=OrangeChunk.Status.RUNNING)
        return list(running.order_by("index")[:limit])


class OrangeChunk(Job):
    """Sentences ``first`` ≤ s < ``stop`` (positions in the n-best list) of a job.

    The unit a worker claims; ``attempts`` and ``claimed_by`` record each claim.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    task_name = "mtdash.orange.tasks.rank_orange_chunk"
    succeeded_status = Status.DONE
    job_noun = "chunk"

    job = models.ForeignKey(OrangeJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    status = status_field(Status)

    class Meta:
        ordering = ["index"]
        verbose_name = "ORANGE chunk"
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="orange_chunk_index")
        ]

    @classmethod
    def unfinished_statuses(cls) -> tuple[str, ...]:
        return (cls.Status.QUEUED, cls.Status.RUNNING, cls.Status.FAILED)

    @classmethod
    def sweepable(cls) -> JobQuerySet:
        """Chunks of jobs still alive: those of a failed job wait for a retry."""
        return cls.objects.filter(
            job__status__in=(OrangeJob.Status.QUEUED, OrangeJob.Status.RUNNING)
        )

    @classmethod
    def gave_up(cls, pk: int, message: str) -> None:
        """A chunk out of attempts fails its job, saying which chunk."""
        chunk = cls.objects.select_related("job").get(pk=pk)
        OrangeJob.objects.filter(pk=chunk.job_id).exclude(
            status__in=OrangeJob.finished_statuses()
        ).update(
            status=OrangeJob.Status.FAILED,
            error_message=f"{chunk.where}: {message}",
            finished_at=chunk.finished_at,
            lease_expires_at=None,
        )

    @property
    def where(self) -> str:
        """Which part of the job this chunk is, for failure messages."""
        return (
            f"chunk {self.index + 1} of {self.job.n_chunks} "
            f"(n-best sentences {self.first + 1}–{self.stop})"
        )

    def __str__(self) -> str:
        span = f"sentences {self.first}–{self.stop - 1}"
        return f"chunk {self.index} ({span}) of job {self.job_id}"

    @property
    def partial_name(self) -> str:
        """File name of this chunk's partial result inside the job's directory."""
        return f"chunk-{self.index:05d}.npz"


class OrangeScore(models.Model):
    """ORANGE of one metric, merged from every chunk of a job.

    ``orange`` and its CI are percentages (0–100, lower is better); ranks are
    1-based mid-ranks; the CIs are 95% bootstrap intervals over sentences
    (None when the job asked for no bootstrap samples).
    """

    job = models.ForeignKey(OrangeJob, on_delete=models.CASCADE, related_name="scores")
    position = models.PositiveSmallIntegerField(
        help_text="order of the metric in the job"
    )
    metric = models.CharField(max_length=200, help_text="metric spec, e.g. rouge-s:d=4")
    signature = models.CharField(
        max_length=400, help_text="signature of the sentence scores"
    )
    higher_is_better = models.BooleanField()
    scale = models.FloatField(help_text="metric scores lie in [0, scale]")
    orange = models.FloatField()
    avg_rank = models.FloatField()
    ci_low = models.FloatField(null=True)
    ci_high = models.FloatField(null=True)
    orange_ci_low = models.FloatField(null=True)
    orange_ci_high = models.FloatField(null=True)
    n_sentences = models.PositiveIntegerField()
    n_short = models.PositiveIntegerField()
    max_candidates = models.PositiveIntegerField()
    n_bootstrap = models.PositiveIntegerField()
    seed = models.PositiveIntegerField()
    curve = models.JSONField(
        help_text="[[n, ORANGE % using the first n candidates], ...]"
    )
    # Compact: [[sentence id, oracle score, [[candidate index, score], ...]], ...]
    # for every sentence, in sentence order (empty lists included).
    above_reference = models.JSONField()
    n_sentences_above = models.PositiveIntegerField(
        help_text="sentences with a candidate ranked above the references"
    )
    n_candidates_above = models.PositiveBigIntegerField()
    # The paired test against the best metric of the job (scoring.orange.
    # compare_metrics): empty for results merged before it existed.
    tested = models.BooleanField(
        default=False, help_text="the paired test between metrics was run"
    )
    best = models.BooleanField(default=False, help_text="lowest ORANGE of the job")
    equivalent = models.BooleanField(
        default=False,
        help_text="statistically equivalent to the best (95% interval contains 0)",
    )
    difference = models.FloatField(
        null=True, help_text="ORANGE minus the best metric's, percent"
    )
    difference_ci_low = models.FloatField(null=True)
    difference_ci_high = models.FloatField(null=True)
    p_value = models.FloatField(null=True, help_text="paired bootstrap, two-sided")

    class Meta:
        ordering = ["position"]
        verbose_name = "ORANGE score"
        constraints = [
            models.UniqueConstraint(
                fields=["job", "metric"], name="one_orange_score_per_metric"
            )
        ]

    def __str__(self) -> str:
        return f"ORANGE {self.metric} = {self.orange:.2f}% (job {self.job_id})"

    @property
    def decimals(self) -> int:
        """Digits worth showing for the metric's own scores (0–100: 2, 0–1: 4)."""
        return 2 if self.scale >= 10 else 4

    def to_orange_result(self) -> OrangeResult:
        """The stored result as ``scoring``'s dataclass (NaN for a missing CI)."""

        def number(value: float | None) -> float:
            return math.nan if value is None else value

        return OrangeResult(
            metric=self.metric,
            orange=self.orange,
            avg_rank=self.avg_rank,
            ci_low=number(self.ci_low),
            ci_high=number(self.ci_high),
            orange_ci_low=number(self.orange_ci_low),
            orange_ci_high=number(self.orange_ci_high),
            n_sentences=self.n_sentences,
            n_short=self.n_short,
            max_candidates=self.max_candidates,
            n_bootstrap=self.n_bootstrap,
            seed=self.seed,
            curve=tuple((int(n), float(value)) for n, value in self.curve),
            above_reference=tuple(
                {
                    "sentence": int(sentence),
                    "oracle_score": float(oracle),
                    "candidates": [
                        {"index": int(index), "score": float(score)}
                        for index, score in candidates
                    ],
                }
                for sentence, oracle, candidates in self.above_reference
            ),
        )


# Review of the candidates ranked above the references (their own module).
from mtdash.orange.reviews.models import (  # noqa: E402
    OrangeReview,
    OrangeReviewItem,
    OrangeReviewMark,
)

__all__ = [
    "ChunkCounts",
    "NBestList",
    "OrangeChunk",
    "OrangeJob",
    "OrangeReview",
    "OrangeReviewItem",
    "OrangeReviewMark",
    "OrangeScore",
]
