"""Metric–human correlation tables of a test set, precomputed by the worker.

The comparison job (:func:`mtdash.evaluation.leaderboard.comparisons.compare_test_set`)
calls :func:`refresh` after every change of scores or judgments. It computes
:func:`scoring.stats.correlation_table` (ORANGE Table 1: coefficient, 95 %
bootstrap interval, the best metric and those a paired bootstrap test cannot
tell from it) for both levels and the three coefficients, from
:mod:`~mtdash.judgments.correlations.inputs` with the comparison
settings' seed and resamples, so the numbers are those of ``python -m
scoring correlate`` run on the same scores and judgments with the same seed.

Everything goes into one :class:`~mtdash.evaluation.models.TestSetAnalysis`
of kind ``correlations``, saved after each table (cheapest first: system
level takes well under a second, sentence-level Spearman and Kendall on
tens of thousands of points take minutes), so the page shows the tables
that are ready while the others are computed. Its ``inputs`` digest is set
once all six are stored; an unchanged test set is skipped. The scatter
plots' points are in analyses of their own (:mod:`.correlation_points`).

Sentence-level Spearman and Kendall intervals use at most
:data:`SENTENCE_RANK_SAMPLES` resamples (each resample re-ranks every
point); the table says how many it used (``n_samples``). Sentence-level
intervals resample whole segments (:data:`RESAMPLE`, WMT's way), and every
table names its interval, its resampling unit and its paired test with the
test's sidedness (``interval``, ``resampling_unit``, ``equivalence_test``),
which the page, the exports and the API show as stored.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Max

from mtdash.evaluation.models import Segment, SystemOutput, TestSet, TestSetAnalysis
from mtdash.judgments.correlations import points as correlation_points
from mtdash.judgments.correlations.inputs import (
    inputs_digest,
    metric_scores,
    with_sentence_scores,
)
from mtdash.judgments.reading import stored_judgments
from scoring import ScoringError
from scoring.stats import (
    Judgments,
    MetricScores,
    correlation_table,
    describe_interval,
    describe_test,
)

KIND = "correlations"
LEVELS = ("system", "sentence")
METHODS = ("pearson", "spearman", "kendall")
# Resamples of sentence-level rank correlations: 100 keep the worker to
# minutes at 20 systems x 2,000 judged segments x 30 metrics x 3 criteria.
SENTENCE_RANK_SAMPLES = 100
TEST = "bootstrap"
CONFIDENCE = 0.95
# Sentence level: whole segments, every system's point of a drawn segment
# together (resampling points gives intervals about a fifth too narrow).
RESAMPLE = "segments"


@dataclass(frozen=True)
class CorrelationSettings:
    seed: int
    n_samples: int
    sentence_rank_samples: int
    confidence: float
    alpha: float
    # In the inputs digest (its repr): tables stored under another unit are
    # recomputed.
    resample: str = RESAMPLE

    @classmethod
    def from_settings(cls) -> CorrelationSettings:
        return cls(
            seed=settings.MTDASH_COMPARISON_SEED,
            n_samples=settings.MTDASH_COMPARISON_SAMPLES,
            sentence_rank_samples=min(
                settings.MTDASH_COMPARISON_SAMPLES, SENTENCE_RANK_SAMPLES
            ),
            confidence=CONFIDENCE,
            alpha=settings.MTDASH_COMPARISON_ALPHA,
        )

    def samples(self, level: str, method: str) -> int:
        if level == "sentence" and method != "pearson":
            return self.sentence_rank_samples
        return self.n_samples


def table_key(level: str, method: str) -> str:
    return f"{level}:{method}"


def compute_table(
    scores: MetricScores,
    judgments: Judgments,
    level: str,
    method: str,
    options: CorrelationSettings,
) -> dict:
    """``CorrelationTable.to_dict()`` of every criterion (one with fewer than
    three points has ``status`` "too few points" and no coefficient); a
    criterion that cannot be correlated at all is listed in ``unavailable``
    with the reason (one criterion at a time gives the same numbers: each
    draws its own resamples from the seed)."""
    if level == "sentence":
        scores = with_sentence_scores(scores)
    table: dict | None = None
    unavailable = []
    for criterion in judgments.criteria:
        if not scores.metrics:
            unavailable.append({"criterion": criterion, "reason": "no metric scores"})
            continue
        try:
            one = correlation_table(
                scores,
                judgments,
                level=level,
                method=method,
                criteria=[criterion],
                n_samples=options.samples(level, method),
                seed=options.seed,
                confidence=options.confidence,
                test=TEST,
                alpha=options.alpha,
                resample=options.resample,
            ).to_dict()
        except ScoringError as error:
            unavailable.append({"criterion": criterion, "reason": str(error)})
            continue
        if table is None:
            table = one
        else:
            table["criteria"] += one["criteria"]
    if table is None:
        unit = "system" if level == "system" else options.resample[:-1]
        n_samples = options.samples(level, method)
        table = {
            "level": level,
            "method": method,
            "kendall_variant": "b" if method == "kendall" else None,
            "test": TEST,
            "resampling_unit": unit,
            "interval": describe_interval(
                options.confidence, unit, n_samples, options.seed
            ),
            "equivalence_test": describe_test(TEST, options.alpha),
            "human": "z",
            "metrics": list(scores.metrics),
            "negated": [m for m in scores.metrics if not scores.higher_is_better[m]],
            "n_samples": n_samples,
            "seed": options.seed,
            "confidence": options.confidence,
            "alpha": options.alpha,
            "criteria": [],
        }
    table["unavailable"] = unavailable
    return table


def _visible(test_set: TestSet, visible_output_ids: list[int]) -> dict[int, str]:
    return dict(
        SystemOutput.objects.filter(
            test_set=test_set, pk__in=visible_output_ids
        ).values_list("pk", "system__name")
    )


def refresh(test_set: TestSet, visible_output_ids: list[int]) -> bool:
    """Compute and store the tables and scatter points unless their inputs are
    unchanged; True when something was computed."""
    options = CorrelationSettings.from_settings()
    visible = _visible(test_set, visible_output_ids)
    digest = inputs_digest(test_set, visible, options)
    stored = TestSetAnalysis.objects.filter(test_set=test_set, kind=KIND).first()
    if stored is not None and stored.inputs == digest:
        return False
    judgments = stored_judgments(test_set, visible)
    if len(judgments) == 0:
        TestSetAnalysis.objects.filter(
            test_set=test_set, kind__startswith=KIND
        ).delete()
        return False
    n_segments = Segment.objects.filter(test_set=test_set).aggregate(n=Max("index"))
    scores = metric_scores(test_set, visible, (n_segments["n"] or 0) + 1)
    data = {
        "digest": digest,
        "complete": False,
        "tables": {},
        "seconds": {},
        "n_judgments": len(judgments),
        "criteria": list(judgments.criteria),
        "systems": sorted(visible.values()),
    }
    analysis, _ = TestSetAnalysis.objects.update_or_create(
        test_set=test_set, kind=KIND, defaults={"inputs": "", "data": data}
    )
    started = time.perf_counter()
    correlation_points.refresh(test_set, scores, judgments, options.seed)
    data["seconds"]["scatter points"] = time.perf_counter() - started
    for level in LEVELS:
        for method in METHODS:
            started = time.perf_counter()
            table = compute_table(scores, judgments, level, method, options)
            data["tables"][table_key(level, method)] = table
            data["seconds"][table_key(level, method)] = time.perf_counter() - started
            analysis.data = data
            analysis.save(update_fields=["data", "computed_at"])
    data["complete"] = True
    analysis.data = data
    analysis.inputs = digest
    analysis.save(update_fields=["data", "inputs", "computed_at"])
    return True
