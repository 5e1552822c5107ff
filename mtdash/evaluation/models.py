"""Test sets, references, systems, their outputs, scoring jobs and scores.

Segments are addressed by their 0-based ``index`` (line number − 1 of the
uploaded file); every per-segment table is keyed by (parent, index).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from mtdash.common.jobs import Job
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

    def sources_and_document_ids(self) -> tuple[list[str], list[str] | None]:
        """Source segments, and their document ids if every segment has one."""
        rows = list(
            self.segments.order_by("index").values_list("source", "document_id")
        )
        sources = [source for source, _ in rows]
        document_ids = [doc for _, doc in rows]
        return sources, (document_ids if all(document_ids) else None)

    def reference_streams(self) -> list[list[str]]:
        """One list of texts per reference set, each in segment order."""
        streams = []
        for reference_set in self.reference_sets.order_by("label"):
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
