"""Slow, plain references for the permutation tests between metrics, and the
real WMT21 data they run on.

The references follow Deutsch, Dror & Roth (2021) and mt-metrics-eval's
``PermutationSigDiff`` / ``PairwisePermutationSigDiff`` literally: for each
ordered pair of metrics and each draw, a loop over the units swaps the two
metrics' standardised scores (or per-pair outcomes) where the draw says so,
the statistic is recomputed from scratch, and the draw counts
when its difference reaches the observed one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from scoring import MetricResult, get_metric
from scoring.stats.metric_permutation import swap_masks
from tests.scoring.support.realdata import WMT21_DIR, load_test_set
from tests.scoring.support.stats_data import read_tsv

TOLERANCE = 1e-9  # the tie tolerance of scoring.stats.metric_permutation


def all_masks(n_units: int, n_draws: int, seed: int) -> np.ndarray:
    """Every mask of a run, ``(R, U)``, as the run draws them."""
    return np.concatenate(list(swap_masks(n_units, n_draws, seed)))


def plain_zscores(values: np.ndarray) -> np.ndarray:
    """(x - mean) / population sd, element by element (scipy.stats.zscore)."""
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    return np.array([(v - mean) / sd for v in values])


def grouped_pearson(human: np.ndarray, scores: np.ndarray, grouping: str) -> float:
    """Mean over groups of Pearson's r (NumPy's two-pass corrcoef; the tests
    compare the observed values with SciPy too), groups with an undefined r
    (fewer than two points, a constant side) left out. ``(S, N)``, NaN = no
    point."""
    if grouping == "none":
        rows = [(human.ravel(), scores.ravel())]
    elif grouping == "system":
        rows = list(zip(human, scores))
    else:
        rows = list(zip(human.T, scores.T))
    values = []
    for h, x in rows:
        kept = np.isfinite(h)
        h, x = h[kept], x[kept]
        if h.size < 2 or np.ptp(h) == 0 or np.ptp(x) <= 1e-12 * np.abs(x).max():
            continue
        values.append(np.corrcoef(h, x)[0, 1])
    return float(np.mean(values)) if values else math.nan


def unit_of_point(unit: str, shape: tuple[int, int]) -> np.ndarray:
    """The unit label of each (system, segment), as the paper defines it."""
    n_systems, n_segments = shape
    labels = np.zeros(shape, dtype=np.int64)
    for s in range(n_systems):
        for n in range(n_segments):
            labels[s, n] = {"point": s * n_segments + n, "item": n, "system": s}[unit]
    return labels


def reference_score_p_values(
    human: np.ndarray,
    scores: np.ndarray,
    statistic: Callable[[np.ndarray, np.ndarray], float],
    units: np.ndarray,
    masks: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """(statistics (M,), p-values (M, M)) of a score-swapping test.

    ``human`` ``(S, N)`` (NaN = not judged), ``scores`` ``(M, S, N)`` raw,
    ``units`` ``(S, N)`` labels, ``masks`` ``(R, U)`` (True = swap). Each
    metric is z-scored over the judged points; then, per ordered pair and
    draw, every judged point whose unit the draw swaps exchanges its two
    scores.
    """
    judged = np.isfinite(human)
    points = list(zip(*np.nonzero(judged)))
    z = np.full(scores.shape, np.nan)
    for m in range(scores.shape[0]):
        values = plain_zscores(np.array([scores[m][p] for p in points]))
        for p, v in zip(points, values):
            z[m][p] = v
    observed = np.array([statistic(human, z[m]) for m in range(scores.shape[0])])
    n_metrics = scores.shape[0]
    p_values = np.full((n_metrics, n_metrics), np.nan)
    for a in range(n_metrics):
        for b in range(n_metrics):
            if a == b:
                continue
            target = observed[a] - observed[b]
            scale = max(1.0, abs(observed[a]), abs(observed[b]))
            count = 0
            for mask in masks:
                x, y = z[a].copy(), z[b].copy()
                for p in points:
                    if mask[units[p]]:
                        x[p], y[p] = z[b][p], z[a][p]
                if (
                    statistic(human, x) - statistic(human, y)
                    >= target - TOLERANCE * scale
                ):
                    count += 1
            p_values[a, b] = count / len(masks)
    return observed, p_values


def grouped_mean(values: Sequence[float], groups: Sequence[object]) -> float:
    """Mean over groups of each group's mean, with plain dictionaries."""
    members: dict[object, list[float]] = {}
    for value, group in zip(values, groups):
        members.setdefault(group, []).append(float(value))
    return sum(sum(v) / len(v) for v in members.values()) / len(members)


def reference_outcome_p_values(
    outcomes: np.ndarray,
    groups: Sequence[object],
    unit_of_pair: Sequence[int],
    masks: np.ndarray,
    statistic: Callable[[Sequence[float]], float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(statistics, p-values) of an outcome-swapping test: per ordered pair
    and draw, every pair whose unit the draw swaps takes the other metric's
    outcome."""
    statistic = statistic or (lambda values: grouped_mean(values, groups))
    n_metrics, n_pairs = outcomes.shape
    observed = np.array([statistic(list(row)) for row in outcomes])
    p_values = np.full((n_metrics, n_metrics), np.nan)
    for a in range(n_metrics):
        for b in range(n_metrics):
            if a == b:
                continue
            target = observed[a] - observed[b]
            scale = max(1.0, abs(observed[a]), abs(observed[b]))
            count = 0
            for mask in masks:
                x, y = list(outcomes[a]), list(outcomes[b])
                for k in range(n_pairs):
                    if mask[unit_of_pair[k]]:
                        x[k], y[k] = outcomes[b][k], outcomes[a][k]
                if statistic(x) - statistic(y) >= target - TOLERANCE * scale:
                    count += 1
            p_values[a, b] = count / len(masks)
    return observed, p_values


# Real data: WMT21 expert MQM against sentence scores of our metrics.
MQM_SYSTEMS = {
    "en-de": ("Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin",
              "VolcTrans-AT", "VolcTrans-GLAT", "eTranslation", "ref-C", "ref-D"),
    "zh-en": ("Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS",
              "NiuTrans", "Online-W", "SMU"),
}  # fmt: skip
# Sentence-level metrics, all read higher-is-better (WER negated).
REAL_METRICS = ("chrf", "bleu", "wer")


@cache
def mqm_matrix(pair: str) -> np.ndarray:
    """MQM segment scores ``(S, N)`` of :data:`MQM_SYSTEMS`, NaN = not rated."""
    systems = MQM_SYSTEMS[pair]
    n_segments = len(load_test_set(pair, "A").references[0])
    human = np.full((len(systems), n_segments), np.nan)
    for row in read_tsv(WMT21_DIR / pair / "human" / "mqm_seg.tsv"):
        if row["system"] in systems and row["mqm_avg_score"] != "None":
            segment = int(row["seg_id"]) - 1
            human[systems.index(row["system"]), segment] = float(row["mqm_avg_score"])
    return human


def _hypotheses(pair: str, system: str) -> tuple[str, ...]:
    test_set = load_test_set(pair, "A")
    if system.startswith("ref-"):  # a human translation entered as a system
        return load_test_set(pair, system[-1]).references[0]
    return test_set.system(system)


@cache
def _results(pair: str, metric: str) -> tuple[MetricResult, ...]:
    """Our ``metric`` of every system against reference A, with sentence
    scores (scored once per test run)."""
    scorer = get_metric(metric)
    references = load_test_set(pair, "A").references
    return tuple(
        scorer.score(_hypotheses(pair, system), references, sentence=True)
        for system in MQM_SYSTEMS[pair]
    )


def metric_matrix(pair: str, metric: str) -> np.ndarray:
    """Sentence scores ``(S, N)`` of one metric, higher is better."""
    results = _results(pair, metric)
    sign = 1.0 if results[0].higher_is_better else -1.0
    return sign * np.array([result.sentence_scores for result in results])


def corpus_scores(pair: str, metric: str) -> np.ndarray:
    """Corpus scores ``(S,)`` of one metric, higher is better."""
    results = _results(pair, metric)
    sign = 1.0 if results[0].higher_is_better else -1.0
    return sign * np.array([result.score for result in results])
