"""n-best lists, ORANGE jobs split into chunks of sentences, and their results.

Candidates are never database rows: an n-best list is a compressed file
artifact (``services.artifacts``), and so is each chunk's partial result.
The database holds what pages and workers coordinate on: which chunk is
claimed or done, the job's status, and the merged per-metric results.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.db import models
from django.urls import reverse

from mtdash.evaluation.models import TestSet
from scoring.orange import OrangeResult


class NBestList(models.Model):
    """A system's n-best lists for (some of) a test set's segments.

    Moses sentence id i is the test set's segment index i (line i + 1).
    """

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="nbest_lists"
    )
    name = models.CharField(
        max_length=200, help_text="e.g. the system and N: AlTemp 1024-best"
    )
    description = models.TextField(blank=True)
    file_name = models.CharField(max_length=255, help_text="name of the uploaded file")
    artifact = models.CharField(
        max_length=255,
        help_text="directory of the stored list, relative to MTDASH_ARTIFACT_DIR",
    )
    n_sentences = models.PositiveIntegerField()
    n_candidates = models.PositiveBigIntegerField()
    min_candidates = models.PositiveIntegerField()
    max_candidates = models.PositiveIntegerField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "n-best list"
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "name"], name="nbest_name_per_test_set"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} on {self.test_set}"

    def get_absolute_url(self) -> str:
        return reverse("nbest_detail", args=[self.pk])


class OrangeJob(models.Model):
    """ORANGE of some metrics over one n-best list, computed chunk by chunk."""

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
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(
        default=0, help_text="0–100, from finished chunks"
    )
    error_message = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "ORANGE job"

    def __str__(self) -> str:
        return f"ORANGE job {self.pk} ({self.status}) on {self.nbest}"

    def get_absolute_url(self) -> str:
        return reverse("orange_job_detail", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)

    @property
    def artifact(self) -> str:
        """Directory of the chunks' partial results, relative to MTDASH_ARTIFACT_DIR."""
        return f"orange/jobs/{self.pk}"


class OrangeChunk(models.Model):
    """Sentences ``first`` ≤ s < ``stop`` (positions in the n-best list) of a job."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    job = models.ForeignKey(OrangeJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_by = models.CharField(
        max_length=200, blank=True, help_text="host:pid of the worker"
    )
    error_message = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        verbose_name = "ORANGE chunk"
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="orange_chunk_index")
        ]

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
