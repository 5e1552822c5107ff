"""Test sets, references, systems, their outputs, scoring jobs and scores.

Segments are addressed by their 0-based ``index`` (line number − 1 of the
uploaded file); every per-segment table is keyed by (parent, index).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from mtdash.common.jobs import Job, JobQuerySet
from mtdash.evaluation.leaderboard.comparison_queue import (
    ComparisonJobQuerySet,
    start_waiting_job,
)
from mtdash.teams.models import Team


class TestSet(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="test_sets")
    name = models.CharField(max_length=200)
    source_language = models.CharField(max_length=16, help_text="e.g. fr, de, zh")
    target_language = models.CharField(max_length=16, help_text="e.g. en")
    text_type = models.CharField(
        max_length=100, blank=True, help_text="genre or text type, e.g. news"
    )
    description = models.TextField(blank=True)
    hidden = models.BooleanField(
        default=False, help_text="kept, but left out of the test set list"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # pytest would otherwise try to collect this class as a test case.
    __test__ = False

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "name"], name="test_set_name_per_team"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("test_set_detail", args=[self.pk])

    @property
    def language_pair(self) -> str:
        return f"{self.source_language}-{self.target_language}"

    def has_document_ids(self) -> bool:
        """Whether the test set was uploaded with document ids (every segment
        has one or none does: ``mtdash.common.upload_checks.check_document_ids``)."""
        return self.segments.exclude(document_id="").exists()

    def sources_and_document_ids(self) -> tuple[list[str], list[str] | None]:
        """Source segments, and their document ids if every segment has one."""
        rows = list(
            self.segments.order_by("index").values_list("source", "document_id")
        )
        sources = [source for source, _ in rows]
        document_ids = [doc for _, doc in rows]
        return sources, (document_ids if all(document_ids) else None)

    def reference_streams(self, reference_sets=None) -> list[list[str]]:
        """One list of texts per reference set (all of them, or those given),
        each in segment order."""
        if reference_sets is None:
            reference_sets = self.reference_sets.order_by("label")
        streams = []
        for reference_set in reference_sets:
            texts = reference_set.segments.order_by("index").values_list(
                "text", flat=True
            )
            streams.append(list(texts))
        return streams


class Segment(models.Model):
    """One source segment of a test set."""

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="segments"
    )
    index = models.PositiveIntegerField()
    source = models.TextField()
    document_id = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["test_set", "index"], name="segment_index")
        ]

    def __str__(self) -> str:
        return f"{self.test_set} #{self.index + 1}"


class ReferenceSet(models.Model):
    """One human reference translation of the whole test set."""

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="reference_sets"
    )
    label = models.CharField(max_length=100, help_text="translator label, e.g. A")

    class Meta:
        ordering = ["label"]
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "label"], name="reference_label"
            )
        ]

    def __str__(self) -> str:
        return f"{self.test_set} ref {self.label}"


class ReferenceSegment(models.Model):
    reference_set = models.ForeignKey(
        ReferenceSet, on_delete=models.CASCADE, related_name="segments"
    )
    index = models.PositiveIntegerField()
    text = models.TextField(blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(
                fields=["reference_set", "index"], name="reference_segment_index"
            )
        ]


class System(models.Model):
    """An MT system; it may have outputs on several test sets."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="systems")
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "name"], name="system_name_per_team"
            )
        ]

    def __str__(self) -> str:
        return self.name


class SystemOutput(models.Model):
    """A system's translation of a test set: one hypothesis per segment."""

    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="outputs")
    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="outputs"
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(
        default=False,
        help_text="kept and scored, but left out of the leaderboard and its tests",
    )
    # A human translation entered as a system, as WMT does: the text of this
    # reference, scored against the test set's other references. Deleting
    # the reference deletes the output.
    reference = models.OneToOneField(
        ReferenceSet,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="as_system",
        help_text="the reference this output is (a human translation as a system)",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["system", "test_set"], name="one_output_per_test_set"
            )
        ]

    def __str__(self) -> str:
        return f"{self.system} on {self.test_set}"

    def hypotheses(self) -> list[str]:
        return list(
            self.hypothesis_set.order_by("index").values_list("text", flat=True)
        )

    @property
    def is_human_translation(self) -> bool:
        return self.reference_id is not None

    def reference_sets(self) -> models.QuerySet[ReferenceSet]:
        """The references this output is scored against: all of the test
        set's, but its own when it is a human translation."""
        references = self.test_set.reference_sets.order_by("label")
        if self.reference_id is not None:
            references = references.exclude(pk=self.reference_id)
        return references

    def reference_streams(self) -> list[list[str]]:
        """One list of texts per reference it is scored against, in segment
        order (see :meth:`reference_sets`)."""
        return self.test_set.reference_streams(self.reference_sets())


def human_translation_ids(test_set: TestSet) -> set[int]:
    """Ids of the test set's outputs that are references entered as systems."""
    return set(
        SystemOutput.objects.filter(
            test_set=test_set, reference__isnull=False
        ).values_list("pk", flat=True)
    )


class Hypothesis(models.Model):
    output = models.ForeignKey(SystemOutput, on_delete=models.CASCADE)
    index = models.PositiveIntegerField()
    text = models.TextField(blank=True)

    class Meta:
        ordering = ["index"]
        verbose_name_plural = "hypotheses"
        constraints = [
            models.UniqueConstraint(fields=["output", "index"], name="hypothesis_index")
        ]


class ScoringJob(Job):
    """Every metric of ``metrics`` computed for one output (see ``mtdash.common``)."""

    task_name = "mtdash.evaluation.tasks.score_output"

    output = models.ForeignKey(
        SystemOutput, on_delete=models.CASCADE, related_name="scoring_jobs"
    )
    metrics = models.JSONField(help_text="metric names as in the scoring registry")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"job {self.pk} ({self.status}) for {self.output}"

    def get_absolute_url(self) -> str:
        return reverse("job_detail", args=[self.pk])


class CorpusScore(models.Model):
    """The corpus-level score of one output under one metric, with signatures."""

    output = models.ForeignKey(
        SystemOutput, on_delete=models.CASCADE, related_name="corpus_scores"
    )
    metric = models.CharField(max_length=100, help_text="registry name, e.g. bleu")
    score = models.FloatField()
    signature = models.CharField(max_length=400)
    sentence_signature = models.CharField(max_length=400, blank=True)
    # The metric's per-segment sufficient statistics, (n_segments, n_stats),
    # packed by mtdash.evaluation.services.statistics_store: what bootstrap
    # intervals and paired tests resample. Empty for scores saved before they
    # were kept (a rescore fills them in).
    statistics = models.BinaryField(blank=True, default=b"", editable=False)
    statistics_names = models.JSONField(default=list, blank=True)
    # The metric's own figures from the summed statistics (BLEU: precisions
    # in percent, brevity penalty, lengths), as MetricResult.details.
    details = models.JSONField(default=dict, blank=True)
    job = models.ForeignKey(
        ScoringJob, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["metric"]
        constraints = [
            models.UniqueConstraint(
                fields=["output", "metric"], name="one_score_per_metric"
            )
        ]

    def __str__(self) -> str:
        return f"{self.metric}={self.score:.4f} for {self.output}"


class SegmentScore(models.Model):
    """A sentence-level score; its signature is the parent's sentence_signature."""

    corpus_score = models.ForeignKey(
        CorpusScore, on_delete=models.CASCADE, related_name="segment_scores"
    )
    index = models.PositiveIntegerField()
    score = models.FloatField()

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(
                fields=["corpus_score", "index"], name="segment_score_index"
            )
        ]


class ComparisonJob(Job):
    """Bootstrap intervals, paired tests and clusters of every leaderboard
    column of a test set, and its human columns (computed by a worker
    whenever scores change; ``mtdash.evaluation.leaderboard.comparisons``)."""

    task_name = "mtdash.evaluation.tasks.compare_outputs"

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="comparison_jobs"
    )

    # One running and one waiting per test set (leaderboard.comparison_queue).
    objects = ComparisonJobQuerySet.as_manager()

    class Meta(Job.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["test_set"],
                condition=models.Q(status="queued"),
                name="one_waiting_comparison_per_test_set",
            ),
            models.UniqueConstraint(
                fields=["test_set"],
                condition=models.Q(status="running"),
                name="one_running_comparison_per_test_set",
            ),
        ]

    def __str__(self) -> str:
        return f"comparison job {self.pk} ({self.status}) for {self.test_set}"

    @classmethod
    def sweepable(cls) -> JobQuerySet:
        """Not a job waiting behind a running one: that one starts it."""
        blocked = cls.objects.blocked().values("pk")
        return cls.objects.exclude(pk__in=blocked)

    @classmethod
    def gave_up(cls, pk: int, message: str) -> None:
        """The job waiting behind one whose workers kept stopping may start."""
        for test_set_id in cls.objects.filter(pk=pk).values_list(
            "test_set_id", flat=True
        ):
            start_waiting_job(cls, test_set_id)


class ReadabilityJob(Job):
    """ASL, ASW and the Flesch figures of a test set's source and references,
    counted by a worker (``mtdash.evaluation.readability.jobs``) and
    stored as its ``readability`` :class:`TestSetAnalysis`; queued when the
    test set is uploaded and when its page finds no result for its inputs."""

    task_name = "mtdash.evaluation.tasks.measure_readability"
    job_noun = "readability job"

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="readability_jobs"
    )
    inputs = models.CharField(
        max_length=64, blank=True, help_text="digest of the inputs when queued"
    )

    def __str__(self) -> str:
        return f"readability job {self.pk} ({self.status}) for {self.test_set}"


class MetricComparison(models.Model):
    """The stored outcome of ``scoring.stats.compare_systems`` for one
    leaderboard column over the test set's visible outputs.

    ``summary`` holds what the leaderboard shows, keyed by output id (score,
    interval, cluster and rank range under both tests); the p-value matrices
    are in ``matrices`` (read only on demand). ``inputs`` digests the scores
    it was computed from, so a worker recomputes only what changed.
    """

    class Kind(models.TextChoices):
        METRIC = "metric", "metric"
        EXTERNAL = "external", "external metric"
        HUMAN = "human", "human judgments"

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="comparisons"
    )
    column = models.CharField(max_length=200, help_text="leaderboard column name")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.METRIC)
    signature = models.CharField(max_length=400, blank=True)
    higher_is_better = models.BooleanField(default=True)
    output_ids = models.JSONField(help_text="outputs in the order of the matrices")
    seed = models.IntegerField()
    n_samples = models.PositiveIntegerField()
    n_trials = models.PositiveIntegerField()
    confidence = models.FloatField()
    alpha = models.FloatField()
    n_segments = models.PositiveIntegerField()
    inputs = models.CharField(max_length=64, help_text="digest of the inputs")
    summary = models.JSONField()
    matrices = models.JSONField()
    job = models.ForeignKey(
        ComparisonJob, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["column"]
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "kind", "column"], name="one_comparison_per_column"
            )
        ]

    def __str__(self) -> str:
        return f"{self.column} comparison on {self.test_set}"


class WordCounts(models.Model):
    """Word frequencies of a training corpus (``word<TAB>count`` lines), for
    the word-frequency buckets of the system page."""

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="word_counts"
    )
    name = models.CharField(max_length=200)
    counts = models.JSONField(help_text="word -> count")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-uploaded_at"]
        verbose_name_plural = "word counts"

    def __str__(self) -> str:
        return f"{self.name} word counts for {self.test_set}"


class TestSetAnalysis(models.Model):
    """A precomputed analysis of a test set (per-reference diagnostics, an
    output's bucketed analyses...), stored by the comparison job so that
    pages only read it. ``kind`` names it (e.g. ``references`` or
    ``output:12``); ``inputs`` digests what it was computed from."""

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="analyses"
    )
    kind = models.CharField(max_length=100)
    inputs = models.CharField(max_length=64)
    data = models.JSONField()
    computed_at = models.DateTimeField(auto_now=True)

    __test__ = False

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "kind"], name="one_analysis_per_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} analysis of {self.test_set}"


# Metrics computed elsewhere: leaderboard columns beside the metrics scored here.
class ExternalMetric(models.Model):
    """A metric computed outside mtdash (COMET, MetricX...) on a test set; its
    ``description`` (model and version) is its signature."""

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="external_metrics"
    )
    name = models.CharField(max_length=100)
    description = models.CharField(max_length=300)
    higher_is_better = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "name"], name="external_metric_name_per_test_set"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def signature(self) -> str:
        return self.description


class ExternalCorpusScore(models.Model):
    """An output's corpus score under an external metric: the mean of its
    segment scores (stored, so the leaderboard reads one row per cell)."""

    metric = models.ForeignKey(
        ExternalMetric, on_delete=models.CASCADE, related_name="corpus_scores"
    )
    output = models.ForeignKey(
        SystemOutput, on_delete=models.CASCADE, related_name="external_scores"
    )
    score = models.FloatField()
    n_segments = models.PositiveIntegerField()
    file_name = models.CharField(max_length=255)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["metric", "output"]
        constraints = [
            models.UniqueConstraint(
                fields=["metric", "output"], name="one_external_score_per_output"
            )
        ]

    def __str__(self) -> str:
        return f"{self.metric}={self.score:.4f} for {self.output}"


class ExternalSegmentScore(models.Model):
    """One segment's score; resampling reads an output's rows in index order."""

    corpus_score = models.ForeignKey(
        ExternalCorpusScore, on_delete=models.CASCADE, related_name="segment_scores"
    )
    index = models.PositiveIntegerField(help_text="segment line number − 1")
    score = models.FloatField()

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(
                fields=["corpus_score", "index"], name="external_segment_index"
            )
        ]
