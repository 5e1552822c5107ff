"""Request and response shapes for the OpenAPI schema and the browsable API.

Requests are validated by the web forms' own code (the views map fields onto
the upload forms), so these serializers document; they do not validate.
"""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    file = serializers.CharField(allow_null=True, help_text="uploaded file at fault")
    line = serializers.IntegerField(allow_null=True, help_text="1-based line")
    message = serializers.CharField()


class ErrorsSerializer(serializers.Serializer):
    errors = ErrorSerializer(many=True)


class TestSetUploadSerializer(serializers.Serializer):
    name = serializers.CharField()
    team = serializers.CharField(
        required=False, help_text="team name; optional when you are in one team"
    )
    source_language = serializers.CharField(help_text="e.g. fr")
    target_language = serializers.CharField(help_text="e.g. en")
    text_type = serializers.CharField(required=False, help_text="e.g. news")
    description = serializers.CharField(required=False)
    source = serializers.FileField(
        help_text="UTF-8, one segment per line (or a file holding everything)"
    )
    reference = serializers.ListField(
        child=serializers.FileField(), help_text="one or more reference files"
    )
    reference_label = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="one per reference file, same order (default A, B, C…)",
    )
    document_ids = serializers.FileField(
        required=False, help_text="one document id per line"
    )
    format = serializers.ChoiceField(
        choices=["auto", "plain", "sgml", "wmt-xml", "tsv"],
        required=False,
        help_text="auto (default: detected) or the format of every file; a "
        "single SGML, WMT XML or TSV file (as source) may hold everything",
    )

    __test__ = False


class TestSetSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    n_segments = serializers.IntegerField()
    references = serializers.ListField(child=serializers.CharField())

    __test__ = False


class TestSetSerializer(TestSetSummarySerializer):
    team = serializers.CharField()
    source_language = serializers.CharField()
    target_language = serializers.CharField()
    text_type = serializers.CharField()
    description = serializers.CharField()
    created_at = serializers.DateTimeField()


class OutputUploadSerializer(serializers.Serializer):
    system = serializers.CharField()
    description = serializers.CharField(required=False)
    hypotheses = serializers.FileField(help_text="one hypothesis per line")
    metric = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="metric specs (e.g. bleu, chrf, rouge-s:d=4); default: the "
        "test set's leaderboard metrics, else bleu and chrf",
    )


class OutputCreatedSerializer(serializers.Serializer):
    output_id = serializers.IntegerField()
    job_id = serializers.IntegerField()


class JobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["scoring", "orange"])
    status = serializers.ChoiceField(
        choices=["queued", "running", "succeeded", "failed"]
    )
    progress = serializers.IntegerField(help_text="0–100")
    error_message = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    attempts = serializers.IntegerField()
    stuck = serializers.BooleanField(help_text="its worker stopped; retry it")
    metrics = serializers.ListField(child=serializers.CharField())


class ScoreSerializer(serializers.Serializer):
    score = serializers.FloatField(allow_null=True)
    ci_low = serializers.FloatField(allow_null=True)
    ci_high = serializers.FloatField(allow_null=True)
    rank = serializers.IntegerField(
        allow_null=True, help_text="first rank of the system's significance cluster"
    )
    rank_range = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="[first, last] rank shared by the cluster",
    )
    cluster = serializers.IntegerField(
        allow_null=True, help_text="significance cluster, 1 = best"
    )


class HumanScoreSerializer(serializers.Serializer):
    z = serializers.FloatField(help_text="mean per-judge z-score (WMT)")
    mean = serializers.FloatField(help_text="raw mean")
    ci_low = serializers.FloatField(
        allow_null=True, help_text="two-sided 95% percentile bootstrap interval of z"
    )
    ci_high = serializers.FloatField(allow_null=True)
    judged_segments = serializers.IntegerField()
    judgments = serializers.IntegerField()
    rank_range = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="[first, last] rank shared by the cluster of z",
    )
    cluster = serializers.IntegerField(
        allow_null=True,
        help_text="significance cluster of z, 1 = best (two-sided paired "
        "approximate randomisation over the segments judged for both systems)",
    )


class MetricColumnSerializer(serializers.Serializer):
    spec = serializers.CharField()
    signature = serializers.CharField()
    higher_is_better = serializers.BooleanField()
    scale = serializers.FloatField(
        allow_null=True,
        help_text="scores lie in [0, scale]; null: unbounded or unknown",
    )
    external = serializers.BooleanField(help_text="imported, not computed by mtdash")


class LeaderboardSystemSerializer(serializers.Serializer):
    system = serializers.CharField()
    output_id = serializers.IntegerField()
    scores = serializers.DictField(child=ScoreSerializer())
    human = serializers.DictField(child=HumanScoreSerializer())


class LeaderboardSerializer(serializers.Serializer):
    metrics = MetricColumnSerializer(many=True)
    systems = LeaderboardSystemSerializer(many=True)
    correction = serializers.ChoiceField(
        choices=["holm", "bonferroni", "none"],
        help_text="correction of the all-pairs p-values behind every cluster",
    )
    significance = serializers.DictField(
        help_text="per metric: test, sides, correction, interval, resamples, "
        "trials, seed, alpha (and p-value matrices with p_values)"
    )
    human_significance = serializers.DictField(
        help_text="per human criterion: interval, test, sides, correction"
    )


class NBestUploadSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, help_text="default: the file name")
    description = serializers.CharField(required=False)
    nbest = serializers.FileField(help_text="Moses format, optionally gzip-compressed")


class CreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()


class OrangeJobRequestSerializer(serializers.Serializer):
    metrics = serializers.ListField(child=serializers.CharField())
    all_references = serializers.BooleanField(required=False, default=False)
    bootstrap = serializers.IntegerField(required=False, default=1000)
    seed = serializers.IntegerField(required=False, default=1)
    curve_step = serializers.IntegerField(required=False, default=64)


class JobCreatedSerializer(serializers.Serializer):
    job_id = serializers.IntegerField()


class JudgmentsUploadSerializer(serializers.Serializer):
    """``POST .../judgments/`` (multipart)."""

    file = serializers.FileField(
        help_text="WMT DA/MQM TSV, per-annotator CSV or segment,system,judge,"
        "criterion,value"
    )
    human_rows = serializers.ChoiceField(
        choices=["auto", "keep", "skip"], required=False, default="auto"
    )
    segment_order = serializers.ChoiceField(
        choices=["line", "sorted-document"], required=False
    )
    dry_run = serializers.BooleanField(
        required=False, default=False, help_text="preview only, nothing stored"
    )


class ExternalScoresUploadSerializer(serializers.Serializer):
    """``POST .../external-scores/`` (multipart)."""

    file = serializers.FileField(help_text="system<TAB>segment<TAB>score per line")
    metric = serializers.CharField(help_text="a name of your own, e.g. comet-22")
    description = serializers.CharField(help_text="model and version")
    higher_is_better = serializers.BooleanField(required=False, default=True)
