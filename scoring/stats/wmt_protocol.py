"""The WMT metrics task's meta-evaluation of metrics, on one or several test sets.

Since WMT23 the metrics shared task ranks metrics by several statistics at
once, each with rank clusters from a permutation test between metrics, and
overall by a weighted mean (Freitag et al. 2023, "Results of WMT23 Metrics
Shared Task"; mt-metrics-eval). A *task* is one statistic at one level:

==================  =========================================================
``system:pearson``  Pearson's r of the systems' corpus scores and human means
``system:accuracy`` pairwise accuracy (Kocmi et al. 2021)
``system:spa``      soft pairwise accuracy (Thompson et al. 2024)
``segment:acc_eq``  acc_eq, tie-calibrated, grouped (Deutsch et al. 2023)
``segment:kendall`` a Kendall variant (23, acc23 or b), grouped
``segment:pearson`` Pearson's r of segment scores (WMT23: ungrouped)
==================  =========================================================

Every task ranks all metrics with :func:`~scoring.stats.metric_permutation.
permutation_ranking` (PERM-BOTH; score swaps for Pearson, outcome swaps for
the accuracies and Kendall variants) and reports, per metric, the statistic,
the tie threshold epsilon where calibrated, the p-value of "the best metric
is better than this one" and the rank cluster (1 = top). Metrics whose lower
scores are better (TER, WER...) are negated first, so every statistic reads
"higher is better".

Points: the systems judged on the criterion that every metric scored
(corpus scores at system level, sentence scores at segment level and for
SPA); segments are those judged for at least one of them, a (system,
segment) without a human or metric score is missing (NaN), and SPA keeps
only the segments every kept system has both scores for (it says how many
it dropped and why).

Randomness: the permutation draws of task j (its position in :data:`TASKS`)
on test set ``name`` come from ``SeedSequence([seed, crc32(name), j])``, so
a task's results are the same whichever other tasks run with it, and a test
set's the same alone or pooled with others; pooling pairs draw r of every task
(:func:`~scoring.stats.pooled_meta_evaluation.pool_rankings`). The overall
score of a metric is the weighted mean of its task statistics, each rescaled
to [0, 1] (correlations r -> (r + 1) / 2); a test set's weight is shared
equally by its tasks.
"""

from __future__ import annotations

import math
import numbers
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.stats.human import human_scores
from scoring.stats.judgments import Judgments
from scoring.stats.metric_permutation import permutation_ranking
from scoring.stats.metric_swaps import ScoreSwap
from scoring.stats.outcome_sources import agreement_swap, kendall_swap, spa_swap
from scoring.stats.pairwise_accuracy import pairwise_accuracy
from scoring.stats.pooled_meta_evaluation import PooledRanking, pool_rankings
from scoring.stats.scores_file import MetricScores
from scoring.stats.soft_pairwise import human_permutation_test, soft_pairwise_accuracy
from scoring.stats.tie_calibration import calibrate_ties
from scoring.stats.wmt_results import ProtocolResult, TaskResult

TASKS = (
    "system:pearson",
    "system:accuracy",
    "system:spa",
    "segment:acc_eq",
    "segment:kendall",
    "segment:pearson",
)
DEFAULT_TASKS = TASKS  # WMT23/24's statistics plus a Kendall variant
GROUPINGS = ("none", "item", "system")
KENDALL_VARIANTS = ("23", "acc23", "b")

Progress = Callable[[int, int], None]  # (tasks done, tasks in all)


@dataclass(frozen=True)
class ProtocolSettings:
    """How the tasks are computed (all stored with the results)."""

    tasks: tuple[str, ...] = DEFAULT_TASKS
    n_permutations: int = 1000
    seed: int = 1
    alpha: float = 0.05
    group_by: str = "item"  # segment acc_eq and Kendall grouping (WMT: item)
    # Segment Pearson: WMT23 correlates all (system, segment) points at once;
    # grouped Pearson costs a correlation per group and draw.
    pearson_group_by: str = "none"
    tie_calibration: bool = True  # segment:acc_eq (and kendall 23/acc23)
    tie_sample_rate: float = 1.0  # 1: the exact search over every threshold
    # segment:kendall. tau_23 by default: with tie calibration it is the
    # Kendall-like statistic of Deutsch et al. 2023, and its draws are masked
    # sums; tau_b is recomputed per draw and metric pair (minutes, not seconds).
    kendall_variant: str = "23"
    standardise: bool = True  # human scores as per-judge z-scores (WMT)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", tuple(self.tasks))  # a list stays put
        unknown = [task for task in self.tasks if task not in TASKS]
        if unknown or not self.tasks:
            raise ScoringError(f"unknown task(s) {unknown}; valid: {', '.join(TASKS)}")
        if len(set(self.tasks)) != len(self.tasks):
            # A task's draws come from its name: a repeat would only repeat it.
            raise ScoringError("a task is asked for more than once")
        if self.group_by not in GROUPINGS or self.pearson_group_by not in GROUPINGS:
            raise ScoringError(f"group_by must be one of {', '.join(GROUPINGS)}")
        if self.kendall_variant not in KENDALL_VARIANTS:
            raise ScoringError(
                f"kendall variant must be one of {', '.join(KENDALL_VARIANTS)}"
            )
        if not _is_integer(self.n_permutations) or self.n_permutations < 1:
            raise ScoringError(
                f"permutations must be a whole number >= 1, not {self.n_permutations!r}"
            )
        if not _is_integer(self.seed):
            raise ScoringError(f"the seed must be a whole number, not {self.seed!r}")
        if not 0.0 < self.alpha < 1.0:
            raise ScoringError(f"alpha must lie in (0, 1), not {self.alpha!r}")
        if not 0.0 < self.tie_sample_rate <= 1.0:
            raise ScoringError("the tie sample rate must lie in (0, 1]")
        # Plain numbers, so that to_dict() is JSON whatever NumPy type came in.
        for name, kind in (
            ("n_permutations", int),
            ("seed", int),
            ("alpha", float),
            ("tie_sample_rate", float),
        ):
            object.__setattr__(self, name, kind(getattr(self, name)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "tasks": list(self.tasks),
            "permutations": self.n_permutations,
            "seed": self.seed,
            "alpha": self.alpha,
            "group_by": self.group_by,
            "pearson_group_by": self.pearson_group_by,
            "tie_calibration": self.tie_calibration,
            "tie_sample_rate": self.tie_sample_rate,
            "kendall_variant": self.kendall_variant,
            "human": "z" if self.standardise else "raw",
        }


def _is_integer(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def task_seed(seed: int, name: str, task_index: int) -> np.random.Generator:
    """The generator of task ``TASKS[task_index]`` on test set ``name``
    (module docstring: the same alone or pooled)."""
    key = [seed & 0xFFFFFFFF, zlib.crc32(name.encode("utf-8")), task_index]
    return np.random.default_rng(np.random.SeedSequence(key))


@dataclass(frozen=True)
class _Inputs:
    """The scores every task reads, metrics negated to "higher is better"."""

    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    human_system: np.ndarray  # (S,)
    human_segment: np.ndarray  # (S, G), NaN = not judged
    metric_system: np.ndarray  # (M, S)
    metric_segment: np.ndarray  # (M, S, G), NaN = no score


def _inputs(
    scores: MetricScores, human, settings: ProtocolSettings
) -> tuple[_Inputs, tuple[str, ...]]:
    needs_corpus = any(
        t in ("system:pearson", "system:accuracy") for t in settings.tasks
    )
    needs_sentence = any(
        t.startswith("segment:") or t == "system:spa" for t in settings.tasks
    )

    def scored(system: str) -> bool:
        return all(
            (not needs_corpus or system in scores.corpus.get(m, {}))
            and (not needs_sentence or system in scores.sentence.get(m, {}))
            for m in scores.metrics
        )

    systems = tuple(s for s in human.systems if scored(s))
    excluded = tuple(s for s in human.systems if s not in systems)
    rows = [human.systems.index(s) for s in systems]
    signs = np.array(
        [1.0 if scores.higher_is_better[m] else -1.0 for m in scores.metrics]
    )
    metric_system = np.array(
        [
            [scores.corpus.get(m, {}).get(s, np.nan) for s in systems]
            for m in scores.metrics
        ],
        dtype=np.float64,
    ).reshape(len(scores.metrics), len(systems))
    positions = human.segments - 1
    metric_segment = np.full(
        (len(scores.metrics), len(systems), positions.size), np.nan
    )
    if needs_sentence:
        for m, metric in enumerate(scores.metrics):
            for s, system in enumerate(systems):
                vector = scores.sentence[metric][system]
                if positions.size and positions[-1] >= vector.size:
                    # The last judged segment may be another system's: every
                    # system translated the same segments, so a short vector
                    # is misaligned.
                    raise ScoringError(
                        f"segments up to {positions[-1] + 1} were judged but metric "
                        f"{metric!r} has only {vector.size} sentence scores for "
                        f"system {system!r}"
                    )
                metric_segment[m, s] = vector[positions]
    inputs = _Inputs(
        metrics=scores.metrics,
        systems=systems,
        human_system=np.asarray(human.system_scores[rows], dtype=np.float64),
        human_segment=np.asarray(human.segment_scores[rows], dtype=np.float64),
        metric_system=metric_system * signs[:, None],
        metric_segment=metric_segment * signs[:, None, None],
    )
    return inputs, excluded


def _task(
    task: str, data: _Inputs, settings: ProtocolSettings, rng: np.random.Generator
) -> TaskResult:
    metrics, epsilons, notes = data.metrics, {}, {}
    if task == "system:pearson":
        swap = ScoreSwap(data.human_system, data.metric_system, metrics)
    elif task == "system:accuracy":
        results = {
            m: pairwise_accuracy(data.metric_system[i], data.human_system, data.systems)
            for i, m in enumerate(metrics)
        }
        swap = agreement_swap(results)
    elif task == "system:spa":
        human = human_permutation_test(
            data.human_segment,
            systems=data.systems,
            n_permutations=settings.n_permutations,
            seed=rng,
        )
        results = {
            m: soft_pairwise_accuracy(data.metric_segment[i], human)
            for i, m in enumerate(metrics)
        }
        # SPA needs every kept system's human and metric score of a segment.
        notes = {
            "segments": human.human_scores.shape[1],
            "segments_used": min(r.segments_used.size for r in results.values()),
            "segments_missing_human_score": max(
                r.segments_missing_human for r in results.values()
            ),
            "segments_missing_metric_score": max(
                r.segments_missing_metric for r in results.values()
            ),
        }
        swap = spa_swap(results)
    elif task == "segment:pearson":
        swap = ScoreSwap(
            data.human_segment,
            data.metric_segment,
            metrics,
            grouping=settings.pearson_group_by,
        )
    else:  # segment:acc_eq or segment:kendall
        _check_pair_count(data.human_segment, settings.group_by)
        variant = "acc23" if task == "segment:acc_eq" else settings.kendall_variant
        calibrated = settings.tie_calibration and variant != "b"
        by_metric = {m: data.metric_segment[i] for i, m in enumerate(metrics)}
        if calibrated:
            epsilons = {
                m: calibrate_ties(
                    scores,
                    data.human_segment,
                    variant=variant,
                    group_by=settings.group_by,
                    sample_rate=settings.tie_sample_rate,
                    seed=rng if settings.tie_sample_rate < 1.0 else None,
                ).epsilon
                for m, scores in by_metric.items()
            }
        else:
            epsilons = dict.fromkeys(metrics, 0.0)
        swap = kendall_swap(
            by_metric,
            data.human_segment,
            variant=variant,
            group_by=settings.group_by,
            epsilons=epsilons,
        )
        notes = {"variant": variant, "tie_calibration": calibrated}
        if not calibrated:
            epsilons = {}
    ranking = permutation_ranking(
        swap, n_draws=settings.n_permutations, seed=rng, alpha=settings.alpha
    )
    # The draws come from the task's own generator (task_seed); the ranking
    # names the seed a person gave, which reproduces them.
    ranking = replace(ranking, seed=settings.seed)
    return TaskResult(task, ranking, epsilons, notes)


# Pairs a segment-level pair statistic may compare (each costs about 40 bytes
# per metric): item grouping compares the systems of one segment, but no
# grouping compares every judged point with every other.
MAX_PAIRS = 30_000_000


def _check_pair_count(human: np.ndarray, group_by: str) -> None:
    judged = np.isfinite(human)
    if group_by == "none":
        counts = np.array([judged.sum()])
    elif group_by == "item":
        counts = judged.sum(axis=0)
    else:
        counts = judged.sum(axis=1)
    pairs = int((counts * (counts - 1) // 2).sum())
    if pairs > MAX_PAIRS:
        raise ScoringError(
            f"grouping {group_by!r} compares {pairs:,} pairs of judged points "
            f"(at most {MAX_PAIRS:,}): group by item, as WMT does"
        )


def run_protocol(
    scores: MetricScores,
    judgments: Judgments,
    criterion: str,
    settings: ProtocolSettings | None = None,
    *,
    name: str = "",
    progress: Progress | None = None,
) -> ProtocolResult:
    """Every task of ``settings`` on one test set's scores and judgments."""
    settings = settings or ProtocolSettings()
    human = human_scores(judgments, criterion, standardise=settings.standardise)
    data, excluded = _inputs(scores, human, settings)
    if len(data.systems) < 3:
        raise ScoringError(
            f"{name or 'the test set'}: {len(data.systems)} system(s) have a human "
            f"score for {criterion!r} and every metric's scores; at least 3 needed"
        )
    if len(data.metrics) < 2:
        raise ScoringError(
            f"{name or 'the test set'}: {len(data.metrics)} metric(s); ranking "
            "metrics needs at least two metrics"
        )
    results = []
    for done, task in enumerate(settings.tasks, start=1):
        # Keyed by the task, not by its place in the list: asking for fewer
        # tasks, or in another order, must not change a task's draws.
        rng = task_seed(settings.seed, name, TASKS.index(task))
        results.append(_task(task, data, settings, rng))
        if progress is not None:
            progress(done, len(settings.tasks))
    return ProtocolResult(
        name=name,
        criterion=criterion,
        settings=settings,
        metrics=data.metrics,
        negated=tuple(m for m in data.metrics if not scores.higher_is_better[m]),
        systems=data.systems,
        excluded_systems=excluded,
        tasks=tuple(results),
    )


def pool_protocols(
    results: Sequence[ProtocolResult], weights: Sequence[float] | None = None
) -> PooledRanking:
    """The overall ranking of several test sets' results (module docstring):
    every (test set, task) ranking, weighted by its test set's weight shared
    equally among that test set's tasks."""
    if not results:
        raise ScoringError("pooling needs at least one test set")
    weights = list(weights) if weights is not None else [1.0] * len(results)
    if len(weights) != len(results) or not all(
        math.isfinite(w) and w > 0 for w in weights
    ):
        raise ScoringError("give one positive, finite weight per test set")
    names = [result.name for result in results]
    if len(set(names)) != len(names):
        raise ScoringError("the pooled test sets need distinct names")
    rankings, task_weights = {}, []
    for result, weight in zip(results, weights):
        for task in result.tasks:
            rankings[f"{result.name}/{task.task}"] = task.ranking
            task_weights.append(weight / len(result.tasks))
    return pool_rankings(
        rankings,
        task_weights,
        alpha=results[0].settings.alpha,
        seed=results[0].settings.seed,
    )
