"""A slow, plain reference for the Kendall variants and tie calibration.

Written from the definitions of Deutsch, Foster & Freitag (2023), "Ties
Matter", independently of :mod:`scoring.stats.kendall_variants`: Python loops
over the pairs of each group, one pair classified at a time, and a
brute-force tie calibration that recomputes the grouped statistic from
scratch at every candidate threshold. Also the real data the tests compare
on: WMT21 en-de expert MQM and sentence chrF.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from functools import cache

import numpy as np

from scoring import get_metric
from tests.scoring.support.realdata import WMT21_DIR, load_test_set
from tests.scoring.support.stats_data import read_tsv

OUTCOMES = ("C", "D", "T_h", "T_m", "T_hm")


def groups_of_points(
    shape: tuple[int, int], group_by: str
) -> list[list[tuple[int, int]]]:
    """The (system, segment) points of each group, in group order."""
    systems, segments = shape
    if group_by == "item":
        return [[(s, g) for s in range(systems)] for g in range(segments)]
    if group_by == "system":
        return [[(s, g) for g in range(segments)] for s in range(systems)]
    assert group_by == "none"
    return [[(s, g) for s in range(systems) for g in range(segments)]]


def reference_pairs(
    metric: np.ndarray, human: np.ndarray, group_by: str
) -> tuple[list[tuple[int, float, float, float, float]], int, int]:
    """Counted pairs as (group, h_i, h_j, m_i, m_j); dropped pairs; groups."""
    groups = groups_of_points(metric.shape, group_by)
    pairs, dropped = [], 0
    for index, points in enumerate(groups):
        for i in range(len(points)):
            for j in range(i + 1, len(points)):
                a, b = points[i], points[j]
                values = (human[a], human[b], metric[a], metric[b])
                if any(math.isnan(v) for v in values):
                    dropped += 1
                    continue
                pairs.append((index, *(float(v) for v in values)))
    return pairs, dropped, len(groups)


def classify(h_i: float, h_j: float, m_i: float, m_j: float, epsilon: float) -> str:
    """C, D, T_h, T_m or T_hm for one pair."""
    human_tie = h_i == h_j
    metric_tie = abs(m_i - m_j) <= epsilon
    if human_tie and metric_tie:
        return "T_hm"
    if human_tie:
        return "T_h"
    if metric_tie:
        return "T_m"
    if (h_i > h_j and m_i > m_j) or (h_i < h_j and m_i < m_j):
        return "C"
    return "D"


def reference_counts(
    metric: np.ndarray, human: np.ndarray, group_by: str, epsilon: float = 0.0
) -> tuple[dict[int, dict[str, int]], int]:
    """Outcome counts of each group with a counted pair; dropped pairs."""
    pairs, dropped, _ = reference_pairs(metric, human, group_by)
    counts: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for group, h_i, h_j, m_i, m_j in pairs:
        counts[group][classify(h_i, h_j, m_i, m_j, epsilon)] += 1
    return dict(counts), dropped


def group_value(
    counts: dict[str, int], variant: str, points: int = 0, distinct: int = 0
) -> float | None:
    """One group's statistic, None when undefined."""
    c, d, t_h, t_m, t_hm = (counts[name] for name in OUTCOMES)
    total = c + d + t_h + t_m + t_hm
    if variant == "b":
        denominator = math.sqrt((c + d + t_h) * (c + d + t_m))
        return (c - d) / denominator if denominator > 0 else None
    if variant == "c":
        if total == 0 or distinct < 2:
            return None
        return 2 * (c - d) / (points**2 * (distinct - 1) / distinct)
    if total == 0:
        return None
    if variant == "23":
        return (c + t_hm - d - t_h - t_m) / total
    assert variant == "acc23"
    return (c + t_hm) / total


def reference_statistics(
    metric: np.ndarray, human: np.ndarray, group_by: str, epsilon: float = 0.0
) -> dict[str, tuple[float, int, int, int]]:
    """variant -> (statistic, groups averaged, pairs counted, pairs dropped),
    for every variant (tau_c only at epsilon 0); the pairs are walked once."""
    counts, dropped = reference_counts(metric, human, group_by, epsilon)
    n_pairs = sum(sum(group.values()) for group in counts.values())
    variants = ("b", "c", "23", "acc23") if epsilon == 0 else ("b", "23", "acc23")
    values: dict[str, list[float]] = {variant: [] for variant in variants}
    for index, points in enumerate(groups_of_points(metric.shape, group_by)):
        if index not in counts:
            continue
        complete = [
            p for p in points if not (math.isnan(metric[p]) or math.isnan(human[p]))
        ]
        distinct = min(
            len({float(metric[p]) for p in complete}),
            len({float(human[p]) for p in complete}),
        )
        for variant in variants:
            value = group_value(counts[index], variant, len(complete), distinct)
            if value is not None:
                values[variant].append(value)
    return {
        variant: (
            sum(found) / len(found) if found else float("nan"),
            len(found),
            n_pairs,
            dropped,
        )
        for variant, found in values.items()
    }


def brute_force_calibration(
    metric: np.ndarray,
    human: np.ndarray,
    variant: str,
    group_by: str,
    exact: bool = False,
) -> tuple[float, float]:
    """(epsilon, statistic): every candidate threshold tried from scratch.

    Candidates: 0 and every |m_i - m_j| of a counted pair. The smallest
    epsilon wins among equal maxima: compared as fractions with ``exact``,
    else as floats within 1e-12.
    """
    pairs, _, _ = reference_pairs(metric, human, group_by)
    if not pairs:
        return 0.0, float("nan")
    group = np.array([p[0] for p in pairs], dtype=np.int64)
    h_i, h_j, m_i, m_j = (np.array([p[k] for p in pairs]) for k in range(1, 5))
    gaps = np.abs(m_i - m_j)
    human_tie = h_i == h_j
    agree = ((h_i > h_j) & (m_i > m_j)) | ((h_i < h_j) & (m_i < m_j))
    sizes = np.bincount(group)
    used = np.flatnonzero(sizes)
    best: tuple[Fraction | float, float] | None = None
    scored = []
    for epsilon in sorted({0.0, *gaps.tolist()}):
        metric_tie = gaps <= epsilon
        if variant == "acc23":
            good = np.where(metric_tie, human_tie, ~human_tie & agree)
            score = good.astype(np.int64)
        else:
            plus = np.where(metric_tie, human_tie, ~human_tie & agree)
            score = np.where(plus, 1, -1)
        numerators = np.bincount(group, weights=score, minlength=sizes.size)
        if exact:
            value: Fraction | float = sum(
                (Fraction(int(numerators[g]), int(sizes[g])) for g in used), Fraction(0)
            ) / len(used)
        else:
            value = float(np.mean(numerators[used] / sizes[used]))
        scored.append((epsilon, value))
    top = max(value for _, value in scored)
    for epsilon, value in scored:
        if value == top if exact else value >= top - 1e-12:
            best = (value, epsilon)
            break
    assert best is not None
    return best[1], float(best[0])


@cache
def wmt21_en_de_mqm_chrf() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """(sentence chrF against reference A, expert MQM, systems) of WMT21
    en-de: ``(8, 1002)`` each, MQM NaN where a segment was not rated. The
    systems are those rated by MQM that have an output."""
    rows = read_tsv(WMT21_DIR / "en-de" / "human" / "mqm_seg.tsv")
    test_set = load_test_set("en-de", "A")
    systems = tuple(
        sorted(
            {row["system"] for row in rows}
            & {path.stem for path in (test_set.directory / "sys").glob("*.de")}
        )
    )
    human = np.full((len(systems), len(test_set.references[0])), np.nan)
    for row in rows:
        if row["system"] in systems and row["mqm_avg_score"] != "None":
            segment = int(row["seg_id"]) - 1
            human[systems.index(row["system"]), segment] = float(row["mqm_avg_score"])
    chrf = get_metric("chrf")
    metric = np.array(
        [
            chrf.score(
                test_set.system(system), test_set.references, sentence=True
            ).sentence_scores
            for system in systems
        ]
    )
    return metric, human, systems
