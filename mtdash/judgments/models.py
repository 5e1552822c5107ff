"""Human judgments of system outputs, and the campaigns that collect them.

Judgments keep every raw value with its judge and criterion, so per-judge
z-scores and WMT-style aggregates are computed from them, never
stored instead of them. Segments are addressed by their 0-based ``index``
(line number − 1), as in :mod:`mtdash.evaluation.models`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from mtdash.common.jobs import Job
from mtdash.evaluation.models import SystemOutput, TestSet
from mtdash.teams.models import Team


class Criterion(models.Model):
    """What judges rated on a test set (adequacy, fluency, DA, MQM...) and the
    range its values must lie in (``None``: unbounded on that side).

    ``scale`` says what a value is: a judge's rating (``raw``: aggregated as
    raw means and as means of per-judge z-scores), a z-score its file
    already carries (``z``: WMT's own, aggregated as given and labelled
    "WMT z"), or a per-segment mean of judges the file does not name
    (``mean``: WMT's raw DA of a segment, aggregated as given). ``left_out`` lists the sources (imports, campaigns) whose
    judgments of this criterion the aggregates do not read: a campaign's
    ratings never join imported judgments unless the user says so.
    """

    class Scale(models.TextChoices):
        RAW = "raw", "judges' values (standardised per judge)"
        Z = "z", "z-scores as given in the file (WMT z)"
        MEAN = "mean", "per-segment means as given in the file"

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="criteria"
    )
    name = models.CharField(max_length=100)
    minimum = models.FloatField(null=True, blank=True)
    maximum = models.FloatField(null=True, blank=True)
    higher_is_better = models.BooleanField(default=True)
    scale = models.CharField(max_length=4, choices=Scale, default=Scale.RAW)
    left_out = models.ManyToManyField(
        "JudgmentImport", blank=True, related_name="left_out_of"
    )

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "criteria"
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "name"], name="criterion_name_per_test_set"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.range_label})"

    @property
    def range_label(self) -> str:
        """``1–5``, ``0–100``, ``≤ 0`` or ``any value``."""
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            return f"{low:g}–{high:g}"
        if high is not None:
            return f"≤ {high:g}"
        if low is not None:
            return f"≥ {low:g}"
        return "any value"

    @property
    def as_given(self) -> bool:
        """Aggregated as given: never standardised per judge."""
        return self.scale != self.Scale.RAW

    @property
    def score_label(self) -> str:
        """What its system score is: "mean z" (of per-judge z-scores),
        "WMT z" or "raw mean" (as the file gives them)."""
        return {"raw": "mean z", "z": "WMT z", "mean": "raw mean"}[self.scale]

    def admits(self, value: float) -> bool:
        return (self.minimum is None or value >= self.minimum) and (
            self.maximum is None or value <= self.maximum
        )


class JudgmentImport(models.Model):
    """One imported file of judgments: who, when, what, how many.

    An error-span file (layout ``mqm-tsv`` or ``spans-jsonl``) is an import
    too: its :class:`ErrorSpanAnnotation` rows hang from it, and so do the
    ``mqm`` or ``esa`` judgments its human annotations give (none for a
    metric's spans). Deleting the import deletes both.
    """

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="judgment_imports"
    )
    file_name = models.CharField(max_length=255)
    layout = models.CharField(max_length=40, help_text="e.g. csv, wmt-mqm")
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True)
    n_judgments = models.PositiveIntegerField(default=0)
    n_skipped = models.PositiveIntegerField(
        default=0, help_text="rows without a value (not judged)"
    )
    counts = models.JSONField(default=dict, help_text="criterion -> system -> count")
    # Error-span files only (blank, 0 and null for a file of judgments).
    span_source = models.CharField(
        max_length=100,
        blank=True,
        help_text='whose spans: "human" (annotators) or the name of a metric',
    )
    n_annotations = models.PositiveIntegerField(
        default=0, help_text="(segment, system, annotator) annotations"
    )
    n_spans = models.PositiveIntegerField(default=0)
    mqm_weights = models.JSONField(
        null=True,
        blank=True,
        help_text="MQM rules severity[/category] -> weight the judgments used",
    )

    class Meta:
        ordering = ["-imported_at"]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.n_judgments} judgments)"

    @property
    def is_campaign(self) -> bool:
        return self.layout == "campaign"

    @property
    def source_label(self) -> str:
        """How pages name the source: the file, or "campaign <name>" (a
        campaign's batch is named so)."""
        return self.file_name


class Judgment(models.Model):
    """One judge's raw value for one segment of one output under one criterion.

    A judge judges a segment once, except where a file records them meeting
    it again (WMT's raw DA: a ``REPEAT`` control, or the item in another
    HIT): ``look`` numbers a judge's judgments of the segment (1 the first;
    the file's regular items before its repeats) and ``kind`` is ``repeat``
    for a quality-control repeat, as :class:`Assignment` marks a campaign's.
    Aggregates average every look (as WMT does); agreement between judges
    reads first looks only, and a repeat against the first look is the
    judge's agreement with themselves.
    """

    class Kind(models.TextChoices):
        # The words of Assignment.Kind: a campaign's repeats stay there.
        REGULAR = "regular"
        REPEAT = "repeat"

    output = models.ForeignKey(
        SystemOutput, on_delete=models.CASCADE, related_name="judgments"
    )
    index = models.PositiveIntegerField(help_text="segment line number − 1")
    judge = models.CharField(max_length=200)
    criterion = models.ForeignKey(
        Criterion, on_delete=models.CASCADE, related_name="judgments"
    )
    value = models.FloatField()
    batch = models.ForeignKey(
        JudgmentImport, on_delete=models.CASCADE, related_name="judgments"
    )
    line = models.PositiveIntegerField(help_text="line in the imported file")
    look = models.PositiveSmallIntegerField(
        default=1, help_text="the judge's n-th judgment of this segment (1: first)"
    )
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.REGULAR)

    class Meta:
        ordering = ["output", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["output", "index", "judge", "criterion", "look"],
                name="one_judgment_per_judge_and_look",
            )
        ]


class ErrorSpanAnnotation(models.Model):
    """The error spans one annotator (or one metric) marked in one segment of
    one output (``scoring.spans.SpanAnnotation``), with its score: ESA's
    given 0–100, a metric's own, or the annotator's MQM score computed with
    the import's weights (0 = no error, more negative = worse)."""

    class Kind(models.TextChoices):
        HUMAN = "human"
        METRIC = "metric"

    output = models.ForeignKey(
        SystemOutput, on_delete=models.CASCADE, related_name="error_span_annotations"
    )
    index = models.PositiveIntegerField(help_text="segment line number − 1")
    annotator = models.CharField(max_length=200, help_text="a rater, or the metric")
    kind = models.CharField(max_length=6, choices=Kind)
    score = models.FloatField(null=True, blank=True)
    batch = models.ForeignKey(
        JudgmentImport, on_delete=models.CASCADE, related_name="span_annotations"
    )
    line = models.PositiveIntegerField(help_text="first line in the imported file")

    class Meta:
        ordering = ["output", "index", "kind", "annotator"]
        constraints = [
            # Its index, led by (output, index), is the one the sentence page
            # reads a segment's annotations through.
            models.UniqueConstraint(
                fields=["output", "index", "kind", "annotator"],
                name="one_span_annotation_per_annotator",
            )
        ]

    def __str__(self) -> str:
        return (
            f"{self.annotator} on segment {self.index + 1} of output {self.output_id}"
        )


class ErrorSpan(models.Model):
    """One marked error: characters ``[start, end)`` (code points) of the
    target (the output's hypothesis) or of the source; both null for an error
    without position (an MQM Non-translation of the whole segment)."""

    class Side(models.TextChoices):
        TARGET = "target"
        SOURCE = "source"

    annotation = models.ForeignKey(
        ErrorSpanAnnotation, on_delete=models.CASCADE, related_name="spans"
    )
    side = models.CharField(max_length=6, choices=Side, default=Side.TARGET)
    start = models.PositiveIntegerField(null=True, blank=True)
    end = models.PositiveIntegerField(null=True, blank=True)
    severity = models.CharField(max_length=10, help_text="minor, major, critical…")
    category = models.CharField(max_length=200, blank=True)
    confidence = models.FloatField(null=True, blank=True, help_text="a metric's")

    class Meta:
        ordering = ["annotation", "pk"]
        indexes = [
            # The segments of a category (``category = X OR category LIKE
            # 'X/%'``, and a severity) start from the few spans it keeps
            # instead of every span of the test set. PostgreSQL answers a
            # LIKE prefix through a btree only with the pattern operator
            # class unless the database collation is C; other databases
            # ignore opclasses.
            models.Index(
                fields=["category", "severity"],
                name="errorspan_category_severity",
                opclasses=["varchar_pattern_ops", "varchar_pattern_ops"],
            )
        ]


class Campaign(models.Model):
    """Judges rating a seeded sample of a test set's outputs in the browser.

    Ratings of the sampled items are stored as :class:`Judgment` rows of
    ``batch`` (a :class:`JudgmentImport` of layout ``campaign``); hidden
    quality controls (repeated and degraded items) stay in
    :class:`Assignment` only. An ESA campaign (``kind`` ``esa``: Error Span
    Annotation, Kocmi et al. 2024) also stores each sampled item's spans as
    an :class:`ErrorSpanAnnotation` of ``batch``, whose span counts it keeps.
    """

    class Kind(models.TextChoices):
        RATING = "rating", "ratings on scales (fluency, adequacy, DA)"
        ESA = "esa", "ESA: error spans, then a 0–100 score"

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="campaigns"
    )
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=6, choices=Kind, default=Kind.RATING)
    outputs = models.ManyToManyField(SystemOutput, related_name="+")
    criteria = models.ManyToManyField(Criterion, related_name="campaigns")
    judges = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="+")
    segments_per_system = models.PositiveIntegerField()
    judges_per_item = models.PositiveSmallIntegerField()
    controls_per_judge = models.PositiveSmallIntegerField(
        default=5, help_text="repeated items, and as many degraded ones, per judge"
    )
    seed = models.PositiveIntegerField()
    batch = models.OneToOneField(
        JudgmentImport, on_delete=models.CASCADE, related_name="campaign"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["test_set", "name"], name="campaign_name_per_test_set"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("campaign_detail", args=[self.pk])

    @property
    def is_esa(self) -> bool:
        return self.kind == self.Kind.ESA


class CampaignItem(models.Model):
    """One sampled translation: a segment of one output."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="items"
    )
    output = models.ForeignKey(SystemOutput, on_delete=models.CASCADE, related_name="+")
    index = models.PositiveIntegerField(help_text="segment line number − 1")

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "output", "index"], name="campaign_item_once"
            )
        ]


class Assignment(models.Model):
    """One screen of one judge's queue: an item under a criterion, shown as
    sampled (``regular``), again (``repeat``) or degraded (``degraded``).

    A degraded screen's damage is characters ``[damage_start, damage_end)``
    of ``degraded_text`` (null when the replacement changed nothing). An
    ESA screen keeps the judge's ``spans`` beside its ``value`` (the score).
    """

    class Kind(models.TextChoices):
        REGULAR = "regular"
        REPEAT = "repeat"
        DEGRADED = "degraded"

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="assignments"
    )
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    position = models.PositiveIntegerField(help_text="order in the judge's queue")
    item = models.ForeignKey(
        CampaignItem, on_delete=models.CASCADE, related_name="assignments"
    )
    criterion = models.ForeignKey(Criterion, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.REGULAR)
    control_of = models.ForeignKey(
        "self", null=True, on_delete=models.CASCADE, related_name="controls"
    )
    degraded_text = models.TextField(blank=True)
    damage_start = models.PositiveIntegerField(null=True, blank=True)
    damage_end = models.PositiveIntegerField(null=True, blank=True)
    value = models.FloatField(null=True, blank=True)
    spans = models.JSONField(
        null=True,
        blank=True,
        help_text="ESA: [{side, start, end, severity, category}] as marked",
    )
    judged_at = models.DateTimeField(null=True, blank=True)
    judgment = models.OneToOneField(
        Judgment, null=True, on_delete=models.SET_NULL, related_name="assignment"
    )

    class Meta:
        ordering = ["campaign", "judge", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "judge", "position"], name="assignment_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign} #{self.position} for {self.judge}"


class AgreementSnapshot(models.Model):
    """A test set's agreement summary, kept until its judgments change."""

    test_set = models.OneToOneField(
        TestSet, on_delete=models.CASCADE, related_name="agreement_snapshot"
    )
    inputs = models.CharField(max_length=64, help_text="digest of what it read")
    summary = models.JSONField()
    computed_at = models.DateTimeField(auto_now=True)


class MetaEvaluation(Job):
    """The WMT metrics task's meta-evaluation of the metrics of one or several
    test sets against one criterion (``scoring.stats.run_protocol`` per test
    set, pooled by ``pool_protocols`` when there are several), computed by a
    worker (:mod:`mtdash.judgments.meta_evaluation.jobs`).

    ``weights`` keeps the test sets' order and weights; ``inputs`` digests
    everything the result depends on (each test set's scores, judgments and
    name, the weights, the criterion and the settings), so the same request
    on unchanged inputs finds this row instead of queueing another. Deleting
    a test set deletes the meta-evaluations that use it
    (:mod:`mtdash.judgments.meta_evaluation.signals`).
    """

    task_name = "mtdash.judgments.tasks.run_meta_evaluation"
    job_noun = "meta-evaluation"

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="meta_evaluations"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    test_sets = models.ManyToManyField(TestSet, related_name="meta_evaluations")
    weights = models.JSONField(
        help_text='[{"test_set": id, "weight": w}, ...] in the order of the tables'
    )
    criterion = models.CharField(max_length=100)
    protocol_settings = models.JSONField(help_text="ProtocolSettings.to_dict()")
    inputs = models.CharField(
        max_length=64, help_text="digest of everything the result depends on"
    )
    result = models.JSONField(null=True, blank=True)

    class Meta(Job.Meta):
        verbose_name = "meta-evaluation"
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["team", "inputs"], name="meta_eval_inputs")]

    def __str__(self) -> str:
        return f"meta-evaluation {self.pk} ({self.status}) of {self.criterion}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("meta_evaluation_detail", args=[self.pk])

    @property
    def test_set_ids(self) -> list[int]:
        """The test sets' ids in the order of the tables."""
        return [entry["test_set"] for entry in self.weights]

    @property
    def is_pooled(self) -> bool:
        return len(self.weights) > 1


class ErrorSpanEvaluation(Job):
    """Span-level meta-evaluation of a test set: each metric's error spans
    against the human spans (``scoring.stats.evaluate_spans``: precision,
    recall and F1 in every variant and averaging, per system and overall,
    with bootstrap intervals over segments), computed by a worker
    (:mod:`mtdash.judgments.error_spans.agreement_jobs`).

    ``inputs`` digests the spans of the visible outputs and the settings, so
    asking again on unchanged spans finds this row, and a page can tell
    when the spans changed since it ran.
    """

    task_name = "mtdash.judgments.tasks.run_error_span_evaluation"
    job_noun = "error-span evaluation"

    test_set = models.ForeignKey(
        TestSet, on_delete=models.CASCADE, related_name="error_span_evaluations"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    n_samples = models.PositiveIntegerField(help_text="bootstrap resamples (0: none)")
    seed = models.PositiveBigIntegerField()
    inputs = models.CharField(
        max_length=64, help_text="digest of the spans and settings it read"
    )
    result = models.JSONField(null=True, blank=True)

    class Meta(Job.Meta):
        verbose_name = "error-span evaluation"
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["test_set", "inputs"], name="span_eval_inputs")]

    def __str__(self) -> str:
        return f"error-span evaluation {self.pk} ({self.status})"
