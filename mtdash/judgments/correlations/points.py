"""The points behind each correlation cell, for its scatter plot.

Stored by :func:`refresh` (from the same scores and judgments as the
tables) as :class:`~mtdash.evaluation.models.TestSetAnalysis` rows, one per
level and criterion, so a click on a cell reads one small row:

- ``correlations-points:system:<n>`` (criterion number ``n``): per system
  its human score (mean per-judge z-score, as the table) and every metric's
  corpus score, as printed on the leaderboard (not negated);
- ``correlations-points:sentence:<n>``: the pooled (system, segment) points
  of the table, of which a seeded sample of at most :data:`SENTENCE_SAMPLE`
  is kept for drawing; the regression line (least squares of the human
  score on the metric score) and the point count are computed on all of them.
"""

from __future__ import annotations

import numpy as np

from mtdash.common.numbers import finite_list
from mtdash.evaluation.models import TestSet, TestSetAnalysis
from scoring.stats import Judgments, MetricScores, human_scores

KIND_PREFIX = "correlations-points:"
SENTENCE_SAMPLE = 1000


def points_kind(level: str, criterion_number: int) -> str:
    return f"{KIND_PREFIX}{level}:{criterion_number}"


def _fit(x: np.ndarray, y: np.ndarray) -> dict | None:
    """Least-squares line y = slope * x + intercept; None if x is constant."""
    if x.size < 2 or not np.ptp(x) > 0:
        return None
    slope, intercept = np.polyfit(x, y, 1)
    return {"slope": float(slope), "intercept": float(intercept)}


def system_points(scores: MetricScores, judgments: Judgments, criterion: str) -> dict:
    human = human_scores(judgments, criterion, standardise=True)
    metrics = {}
    for metric in scores.metrics:
        by_system = scores.corpus.get(metric, {})
        systems = [s for s in human.systems if s in by_system]
        x = np.array([by_system[s] for s in systems], dtype=np.float64)
        y = np.array([human.system_score(s) for s in systems], dtype=np.float64)
        metrics[metric] = {
            "systems": systems,
            "metric": finite_list(x),
            "human": finite_list(y),
            "fit": _fit(x, y),
            "n_points": len(systems),
            "higher_is_better": scores.higher_is_better[metric],
        }
    return {"criterion": criterion, "level": "system", "metrics": metrics}


def sentence_points(
    scores: MetricScores, judgments: Judgments, criterion: str, seed: int
) -> dict:
    human = human_scores(judgments, criterion, standardise=True)
    metrics = {}
    for metric in scores.metrics:
        per_system = scores.sentence.get(metric, {})
        systems, segments, x, y = [], [], [], []
        for row, system in enumerate(human.systems):
            if system not in per_system:
                continue
            judged = np.isfinite(human.segment_scores[row])
            numbers = human.segments[judged]
            vector = per_system[system]
            numbers = numbers[numbers <= vector.size]
            values = vector[numbers - 1]
            scored = np.isfinite(values)
            systems.append(np.full(int(scored.sum()), len(systems)))
            segments.append(numbers[scored])
            x.append(values[scored])
            y.append(human.segment_scores[row][judged][: numbers.size][scored])
        names = [s for s in human.systems if s in per_system]
        if not x:
            continue
        system_ids, numbers = np.concatenate(systems), np.concatenate(segments)
        xs, ys = np.concatenate(x), np.concatenate(y)
        sample = np.arange(xs.size)
        if xs.size > SENTENCE_SAMPLE:
            rng = np.random.default_rng(seed)
            sample = np.sort(rng.choice(xs.size, SENTENCE_SAMPLE, replace=False))
        metrics[metric] = {
            "systems": names,
            "system_of_point": system_ids[sample].tolist(),
            "segment": numbers[sample].tolist(),
            "metric": finite_list(xs[sample]),
            "human": finite_list(ys[sample]),
            "fit": _fit(xs, ys),
            "n_points": int(xs.size),
            "sampled": int(sample.size),
            "higher_is_better": scores.higher_is_better[metric],
        }
    return {"criterion": criterion, "level": "sentence", "metrics": metrics}


def refresh(
    test_set: TestSet, scores: MetricScores, judgments: Judgments, seed: int
) -> None:
    kinds = []
    for number, criterion in enumerate(judgments.criteria):
        for level, data in (
            ("system", system_points(scores, judgments, criterion)),
            ("sentence", sentence_points(scores, judgments, criterion, seed)),
        ):
            kind = points_kind(level, number)
            kinds.append(kind)
            TestSetAnalysis.objects.update_or_create(
                test_set=test_set, kind=kind, defaults={"inputs": "", "data": data}
            )
    TestSetAnalysis.objects.filter(
        test_set=test_set, kind__startswith=KIND_PREFIX
    ).exclude(kind__in=kinds).delete()


def read_points(
    test_set: TestSet, level: str, criterion: str, metric: str
) -> dict | None:
    """The scatter points of one cell, or None if not stored."""
    criteria = (
        TestSetAnalysis.objects.filter(test_set=test_set, kind="correlations")
        .values_list("data__criteria", flat=True)
        .first()
    )
    if not criteria or criterion not in criteria:
        return None
    stored = TestSetAnalysis.objects.filter(
        test_set=test_set, kind=points_kind(level, criteria.index(criterion))
    ).first()
    if stored is None:
        return None
    points = stored.data["metrics"].get(metric)
    if points is None:
        return None
    return {"criterion": criterion, "level": level, "name": metric, **points}


def first_cell(test_set: TestSet) -> tuple[str, str]:
    """(metric, criterion) of the first stored cell (for the benchmark)."""
    data = TestSetAnalysis.objects.get(test_set=test_set, kind="correlations").data
    table = data["tables"]["system:pearson"]
    return table["metrics"][0], data["criteria"][0]
