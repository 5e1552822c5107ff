"""What the correlation tables are computed from, read from the database.

- :func:`metric_scores`: every leaderboard metric column at its main
  signature (the signature most outputs were scored under, as the
  comparison job chooses it) over the visible outputs, plus every external
  metric (COMET...), as :class:`scoring.stats.MetricScores` keyed by system
  name: corpus scores and per-segment scores (NaN where a segment has none).
- :func:`inputs_digest`: a digest of those scores and of the visible
  outputs' judgments (which the tables read with
  :func:`mtdash.judgments.reading.stored_judgments`: a hidden system is out
  of the evaluation, so it does not shift the judges' z-scores either),
  cheap to compute (no segment rows read), so an unchanged test set is not
  recomputed.
"""

from __future__ import annotations

import hashlib
from types import MappingProxyType

import numpy as np
from django.db.models import Count, Max, QuerySet, Sum

from mtdash.common.metric_specs import at_main_signature, higher_is_better
from mtdash.common.rows import value_columns
from mtdash.evaluation.leaderboard.build import column_names
from mtdash.evaluation.models import (
    CorpusScore,
    ExternalCorpusScore,
    ExternalSegmentScore,
    SegmentScore,
    TestSet,
    human_translation_ids,
)
from mtdash.judgments.models import Criterion, Judgment
from mtdash.judgments.sources import in_use
from scoring import __version__ as SCORING_VERSION
from scoring.stats import MetricScores

# Bump when what is stored changes shape: every test set is recomputed.
ANALYSIS_VERSION = 1


def metric_columns(
    test_set: TestSet, visible: dict[int, str]
) -> dict[str, dict[int, tuple[int, str]]]:
    """Column name -> {visible output id: (CorpusScore id, signature)} of the
    latest score of each output under the column's main signature."""
    stored = list(
        CorpusScore.objects.filter(output__test_set=test_set)
        .order_by("computed_at", "pk")
        .values_list("pk", "output_id", "metric", "signature")
    )
    column_of = column_names([(metric, sig) for _, _, metric, sig in stored])
    latest: dict[str, dict[int, tuple[int, str]]] = {}
    for pk, output_id, metric, signature in stored:  # oldest first: latest wins
        latest.setdefault(column_of[metric, signature], {})[output_id] = (
            pk,
            signature,
        )
    columns = {}
    human = human_translation_ids(test_set)
    for name, by_output in sorted(latest.items()):
        _, at_main = at_main_signature(by_output, lambda row: row[1], human)
        chosen = {oid: row for oid, row in at_main.items() if oid in visible}
        if chosen:
            columns[name] = chosen
    return columns


def score_vectors(rows: QuerySet, n_segments: int) -> dict[int, np.ndarray]:
    """A ``values_list`` query of (owner, index, score) -> owner: (n_segments,) read-only vector,
    NaN where unscored (or the score is None); rows past ``n_segments`` are
    ignored. Vectorised: the pages read tens of thousands of rows."""
    owners, indices, scores = value_columns(rows, 3)
    if not owners:
        return {}
    indices = np.fromiter(indices, dtype=np.int64, count=len(owners))
    scores = np.array(scores, dtype=np.float64)  # None -> NaN
    found, rows_of = np.unique(np.array(owners), return_inverse=True)
    table = np.full((found.size, n_segments), np.nan)
    kept = indices < n_segments
    table[rows_of[kept], indices[kept]] = scores[kept]
    table.setflags(write=False)
    return {int(owner): table[i] for i, owner in enumerate(found)}


def metric_scores(
    test_set: TestSet, visible: dict[int, str], n_segments: int
) -> MetricScores:
    """Every metric column and external metric over the visible outputs."""
    metrics: dict[str, bool] = {}
    corpus: dict[str, dict[str, float]] = {}
    sentence: dict[str, dict[str, np.ndarray]] = {}
    columns = metric_columns(test_set, visible)
    score_ids = [pk for chosen in columns.values() for pk, _ in chosen.values()]
    values = dict(
        CorpusScore.objects.filter(pk__in=score_ids).values_list("pk", "score")
    )
    rows = SegmentScore.objects.filter(corpus_score_id__in=score_ids).values_list(
        "corpus_score_id", "index", "score"
    )
    vectors = score_vectors(rows, n_segments)
    for name, chosen in columns.items():
        metrics[name] = higher_is_better(name)
        for output_id, (pk, _) in chosen.items():
            system = visible[output_id]
            corpus.setdefault(name, {})[system] = float(values[pk])
            if pk in vectors:
                sentence.setdefault(name, {})[system] = vectors[pk]
    external = list(
        ExternalCorpusScore.objects.filter(
            metric__test_set=test_set, output_id__in=list(visible)
        )
        .order_by("metric__name", "output_id")
        .values_list(
            "pk", "output_id", "score", "metric__name", "metric__higher_is_better"
        )
    )
    rows = ExternalSegmentScore.objects.filter(
        corpus_score_id__in=[pk for pk, *_ in external]
    ).values_list("corpus_score_id", "index", "score")
    vectors = score_vectors(rows, n_segments)
    for pk, output_id, score, name, higher in external:
        if name in columns:  # a registered metric's column has this name
            name = f"{name} (external)"
        metrics[name] = bool(higher)
        system = visible[output_id]
        corpus.setdefault(name, {})[system] = float(score)
        if pk in vectors:
            sentence.setdefault(name, {})[system] = vectors[pk]
    for per_system in sentence.values():
        for vector in per_system.values():
            vector.setflags(write=False)
    return MetricScores(
        metrics=tuple(metrics),
        systems=tuple(sorted(visible.values())),
        higher_is_better=MappingProxyType(metrics),
        corpus=MappingProxyType({m: MappingProxyType(v) for m, v in corpus.items()}),
        sentence=MappingProxyType(
            {m: MappingProxyType(v) for m, v in sentence.items()}
        ),
    )


def with_sentence_scores(scores: MetricScores) -> MetricScores:
    """The metrics that have sentence scores for every system they scored
    (a metric with corpus scores only cannot be correlated per sentence and
    would otherwise leave no sentence-level point at all)."""
    kept = tuple(
        m
        for m in scores.metrics
        if m in scores.sentence and set(scores.sentence[m]) >= set(scores.corpus[m])
    )
    return MetricScores(
        metrics=kept,
        systems=scores.systems,
        higher_is_better=MappingProxyType(
            {m: scores.higher_is_better[m] for m in kept}
        ),
        corpus=MappingProxyType({m: scores.corpus[m] for m in kept}),
        sentence=MappingProxyType({m: scores.sentence[m] for m in kept}),
    )


def inputs_digest(test_set: TestSet, visible: dict[int, str], settings) -> str:
    """Digest of the scores, judgments and settings the tables depend on."""
    columns = metric_columns(test_set, visible)
    scores = sorted(
        CorpusScore.objects.filter(
            pk__in=[pk for chosen in columns.values() for pk, _ in chosen.values()]
        ).values_list("pk", "computed_at")
    )
    external = sorted(
        ExternalCorpusScore.objects.filter(
            metric__test_set=test_set, output_id__in=list(visible)
        ).values_list("pk", "imported_at", "metric__name", "metric__higher_is_better")
    )
    judgments = Judgment.objects.filter(output_id__in=list(visible))
    if Criterion.left_out.through.objects.filter(criterion__test_set=test_set).exists():
        judgments = in_use(judgments)  # a check per judgment: only if it matters
    judgments = judgments.aggregate(n=Count("pk"), total=Sum("value"), last=Max("pk"))
    parts = (
        sorted(visible.items()),
        sorted(columns),
        [(pk, str(at)) for pk, at in scores],
        [(pk, str(at), name, up) for pk, at, name, up in external],
        sorted(judgments.items()),
        repr(settings),
        SCORING_VERSION,
        ANALYSIS_VERSION,
    )
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()
