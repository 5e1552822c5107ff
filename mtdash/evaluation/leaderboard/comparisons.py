"""Intervals, paired tests and significance clusters of a test set's leaderboard.

The leaderboard never resamples inside a request: a worker runs a
:class:`~mtdash.evaluation.models.ComparisonJob` whenever an output's scores
change (a scoring job succeeds, external scores or judgments are imported, a
system is hidden, shown or deleted) and stores one
:class:`~mtdash.evaluation.models.MetricComparison` per column, computed by
:func:`scoring.stats.compare_systems` from the stored per-segment statistics
with the configured seed, resamples and trials: the numbers
``python -m scoring compare`` prints for the same files and seed.

- Metric columns compare the visible outputs scored under the column's main
  signature (a score computed by another version is not comparable and is
  left out, as the leaderboard marks it).
- External metric columns (COMET...) are means of segment scores: their
  statistics are (segment score, 1) per segment.
- Human columns are the WMT system-level means (raw and per-judge z) with a
  two-sided percentile bootstrap interval of the z mean over the judged
  segments, and clusters from a two-sided paired approximate randomisation of
  each pair's z over the segments judged for both systems.

Every column stores its clusters under each correction for multiple
comparisons (Holm, Bonferroni, none: :data:`scoring.stats.CORRECTIONS`) and
the adjusted p-value matrices besides the raw ones, so a page or the API picks
the correction per request without resampling again; the correction is named
wherever clusters or p-values are shown. The summary's keys of one cluster
(``bootstrap_cluster``, ``bootstrap_rank``...) hold the default's (Holm).

A column whose inputs did not change since it was stored (``inputs`` digest)
is not recomputed, so running a job twice costs a few queries.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

import numpy as np
from django.conf import settings

from mtdash.common.metric_specs import at_main_signature
from mtdash.common.numbers import finite_list
from mtdash.common.registry import analysis_refreshers, leaderboard_column_sources
from mtdash.common.running import run_claimed
from mtdash.common.server_metrics import server_metric
from mtdash.evaluation.leaderboard import comparison_queue
from mtdash.evaluation.leaderboard.build import column_names
from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ExternalMetric,
    ExternalSegmentScore,
    MetricComparison,
    SystemOutput,
    TestSet,
    human_translation_ids,
)
from mtdash.evaluation.references import diagnostics as reference_diagnostics
from mtdash.evaluation.services.statistics_store import unpack_statistics
from mtdash.evaluation.systems import analyses as system_analyses
from scoring import MetricError
from scoring import __version__ as SCORING_VERSION
from scoring.stats import (
    CORRECTIONS,
    DEFAULT_CORRECTION,
    adjust_p_values,
    compare_systems,
    significance_clusters,
)

logger = logging.getLogger(__name__)

# The layout of what is stored (summary and matrices): a change recomputes
# every stored column once. 2: clusters and adjusted p-values per correction,
# clusters that never hold two significantly different systems, human clusters.
STORED_LAYOUT = 2


@dataclass(frozen=True)
class ComparisonSettings:
    seed: int
    n_samples: int
    n_trials: int
    confidence: float
    alpha: float

    @classmethod
    def from_settings(cls) -> ComparisonSettings:
        return cls(
            seed=settings.MTDASH_COMPARISON_SEED,
            n_samples=settings.MTDASH_COMPARISON_SAMPLES,
            n_trials=settings.MTDASH_COMPARISON_TRIALS,
            confidence=0.95,
            alpha=settings.MTDASH_COMPARISON_ALPHA,
        )


class SegmentMean:
    """The corpus score of an external metric: the mean of its segment
    scores, from statistics (segment score, 1) per segment."""

    statistics_names = ("score", "segments")

    def __init__(self, name: str, higher_is_better: bool) -> None:
        self.name = name
        self.higher_is_better = higher_is_better

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        summed = np.asarray(summed, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            return summed[..., 0] / summed[..., 1]


def request_comparison(test_set_id: int) -> ComparisonJob | None:
    """Queue a comparison of the test set unless one is already waiting
    (one queued job covers every change made before it starts); see
    :mod:`~mtdash.evaluation.leaderboard.comparison_queue`."""
    return comparison_queue.request_comparison(ComparisonJob, test_set_id)


def run_comparison_job(job_id: int) -> bool:
    """Compare every column of the job's test set; False if another worker
    has the job, it is finished, or another job of its test set runs (that
    one sends this one again when it ends)."""
    jobs = ComparisonJob.objects.filter(pk=job_id)
    if not jobs.claim():
        logger.info(
            "comparison job %s is not queued any more or waits for its test "
            "set's running job; skipping",
            job_id,
        )
        return False
    job = jobs.select_related("test_set").get()
    if run_claimed(jobs, lambda: compare_test_set(job.test_set, job)):
        jobs.succeed()
    # It ended (succeeded, failed, or another worker took it over): the job
    # waiting behind it may start. A transient fault raises above instead,
    # and the hand-back either starts the waiting job (this one superseded)
    # or leaves this one queued for the task's retry, with its back-off.
    comparison_queue.start_waiting_job(ComparisonJob, job.test_set_id)
    return True


def compare_test_set(
    test_set: TestSet,
    job: ComparisonJob | None = None,
    options: ComparisonSettings | None = None,
    *,
    analyses: bool = True,
) -> list[str]:
    """Store a comparison for every column whose inputs changed; delete those
    of columns that are gone; then (with ``analyses``) refresh the pages'
    other precomputed analyses. Returns the columns (re)computed."""
    options = options or ComparisonSettings.from_settings()
    visible = dict(
        SystemOutput.objects.filter(test_set=test_set, hidden=False).values_list(
            "pk", "system__name"
        )
    )
    computed: list[str] = []
    kept: set[tuple[str, str]] = set()
    for kind, column, work in _columns(test_set, visible):
        kept.add((kind, column))
        digest, compute = work
        digest = _digest(digest, options)
        stored = MetricComparison.objects.filter(
            test_set=test_set, kind=kind, column=column
        ).first()
        if stored is not None and stored.inputs == digest:
            continue
        fields = compute(options)
        if fields is None:
            continue
        if job is not None:
            ComparisonJob.objects.filter(pk=job.pk).hold_lease()
        MetricComparison.objects.update_or_create(
            test_set=test_set,
            kind=kind,
            column=column,
            defaults={**fields, "inputs": digest, "job": job},
        )
        computed.append(column)
    for comparison in MetricComparison.objects.filter(test_set=test_set):
        if (comparison.kind, comparison.column) not in kept:
            comparison.delete()
    # The pages' other precomputed analyses (each skips what did not change).
    for refresh in (
        system_analyses.refresh,
        reference_diagnostics.refresh,
        *analysis_refreshers(),  # correlation tables (judgments)
    ):
        if not analyses:
            break
        if job is not None:
            ComparisonJob.objects.filter(pk=job.pk).hold_lease()
        refresh(test_set, sorted(visible))
    return computed


def _digest(parts: list, options: ComparisonSettings) -> str:
    text = repr((parts, options, SCORING_VERSION, STORED_LAYOUT))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _columns(test_set: TestSet, visible: dict[int, str]):
    """(kind, column, (digest parts, compute(options))) for every column."""
    yield from _metric_columns(test_set, visible)
    yield from _external_columns(test_set, visible)
    for source in leaderboard_column_sources():  # human columns (judgments)
        yield from source(test_set, visible)


def _metric_columns(test_set: TestSet, visible: dict[int, str]):
    stored = list(
        CorpusScore.objects.filter(output__test_set=test_set)
        .order_by("computed_at", "pk")
        .values_list("pk", "output_id", "metric", "signature", "computed_at")
    )
    column_of = column_names(
        [(metric, signature) for _, _, metric, signature, _ in stored]
    )
    latest: dict[str, dict[int, tuple[int, str, str, object]]] = {}
    for pk, output_id, metric, signature, computed_at in stored:
        name = column_of[metric, signature]
        latest.setdefault(name, {})[output_id] = (pk, metric, signature, computed_at)
    human = human_translation_ids(test_set)
    for name, by_output in sorted(latest.items()):
        main, at_main = at_main_signature(by_output, lambda row: row[2], human)
        chosen = {oid: row for oid, row in at_main.items() if oid in visible}
        if not chosen:
            continue
        parts = [(oid, pk, str(at)) for oid, (pk, _, _, at) in chosen.items()]

        def compute(options, name=name, chosen=chosen, main=main):
            return _compare_metric(name, chosen, main, visible, options)

        yield MetricComparison.Kind.METRIC, name, (parts, compute)


def _compare_metric(name, chosen, signature, visible, options):
    payloads = dict(
        CorpusScore.objects.filter(
            pk__in=[pk for pk, *_ in chosen.values()]
        ).values_list("pk", "statistics")
    )
    output_ids, statistics = [], []
    for output_id, (pk, *_rest) in chosen.items():
        array = unpack_statistics(payloads.get(pk, b""))
        if array is None:  # scored before statistics were kept
            continue
        output_ids.append(output_id)
        statistics.append(array)
    if not statistics or len({array.shape for array in statistics}) != 1:
        return None
    try:  # the metric that wrote the statistics, as the scoring job built it
        metric = server_metric(name, signature=signature)
    except MetricError:
        return None
    return _comparison_fields(
        metric, signature, output_ids, statistics, visible, options
    )


def _external_columns(test_set: TestSet, visible: dict[int, str]):
    for metric in ExternalMetric.objects.filter(test_set=test_set).order_by("name"):
        rows = (
            ExternalSegmentScore.objects.filter(
                corpus_score__metric=metric, corpus_score__output_id__in=list(visible)
            )
            .order_by("corpus_score__output_id", "index")
            .values_list("corpus_score__output_id", "score")
        )
        per_output: dict[int, list[float]] = {}
        for output_id, score in rows.iterator():
            per_output.setdefault(output_id, []).append(score)
        if not per_output:
            continue
        parts = [
            metric.pk,
            metric.description,
            metric.higher_is_better,
            sorted((oid, len(s), float(np.sum(s))) for oid, s in per_output.items()),
        ]

        def compute(options, metric=metric, per_output=per_output):
            lengths = {len(scores) for scores in per_output.values()}
            if len(lengths) != 1:
                return None
            output_ids = sorted(per_output)
            statistics = [
                np.column_stack([per_output[oid], np.ones(len(per_output[oid]))])
                for oid in output_ids
            ]
            mean = SegmentMean(metric.name, metric.higher_is_better)
            return _comparison_fields(
                mean, metric.description, output_ids, statistics, visible, options
            )

        yield MetricComparison.Kind.EXTERNAL, metric.name, (parts, compute)


def _comparison_fields(metric, signature, output_ids, statistics, visible, options):
    names = [str(output_id) for output_id in output_ids]
    comparison = compare_systems(
        metric,
        names,
        statistics,
        signature=signature,
        n_samples=options.n_samples,
        n_trials=options.n_trials,
        seed=options.seed,
        confidence=options.confidence,
        alpha=options.alpha,
    )
    data = comparison.to_dict()
    summary = {name: dict(data["systems"][name]) for name in names}
    raw = {"bootstrap": comparison.bootstrap_p}
    if comparison.ar_p is not None:
        raw["ar"] = comparison.ar_p
    for name, entry in clusters_by_correction(
        raw, comparison.scores, metric.higher_is_better, options.alpha, output_ids
    ).items():
        summary[name].update(entry)
    p_values = {"bootstrap_p": comparison.bootstrap_p, "ar_p": comparison.ar_p}
    return {
        "signature": signature,
        "higher_is_better": bool(metric.higher_is_better),
        "output_ids": output_ids,
        "seed": options.seed,
        "n_samples": options.n_samples,
        "n_trials": options.n_trials,
        "confidence": options.confidence,
        "alpha": options.alpha,
        "n_segments": comparison.n_segments,
        "summary": summary,
        "matrices": {
            **tested_matrices(p_values),
            "bootstrap_wins": _matrix(comparison.bootstrap_wins),
        },
    }


def tested_matrices(p_values: dict[str, np.ndarray | None]) -> dict:
    """The raw p-value matrices by name (``bootstrap_p``, ``ar_p``) and,
    under ``adjusted``, the same adjusted by Holm and by Bonferroni."""
    stored: dict = {
        key: None if values is None else _matrix(values)
        for key, values in p_values.items()
    }
    # "none" is the raw matrices again: not stored twice.
    stored["adjusted"] = {
        correction: {
            key: None
            if values is None
            else _matrix(adjust_p_values(values, correction))
            for key, values in p_values.items()
        }
        for correction in CORRECTIONS
        if correction != "none"
    }
    return stored


def clusters_by_correction(
    raw_p: dict[str, np.ndarray],
    scores: np.ndarray,
    higher_is_better: bool,
    alpha: float,
    output_ids: list[int],
) -> dict[str, dict]:
    """Per output (by id as text): ``clusters[test][correction] = [cluster,
    first rank, last rank]`` for every test in ``raw_p`` (``bootstrap``,
    ``ar``) and every correction, plus the default correction's figures under
    the keys ``{test}_cluster`` and ``{test}_rank``."""
    names = [str(output_id) for output_id in output_ids]
    entries: dict[str, dict] = {name: {"clusters": {}} for name in names}
    for test, p_values in raw_p.items():
        for correction in CORRECTIONS:
            groups = significance_clusters(
                np.asarray(scores, dtype=np.float64),
                adjust_p_values(p_values, correction),
                higher_is_better=bool(higher_is_better),
                alpha=alpha,
            )
            clusters = tuple(tuple(names[i] for i in group) for group in groups)
            for name, (cluster, first, last) in _rank_ranges(clusters).items():
                entry = entries[name]
                entry["clusters"].setdefault(test, {})[correction] = [
                    cluster,
                    first,
                    last,
                ]
                if correction == DEFAULT_CORRECTION:
                    entry[f"{test}_cluster"] = cluster
                    entry[f"{test}_rank"] = [first, last]
    return entries


def _matrix(values: np.ndarray) -> list[list[float | None]]:
    return [finite_list(row) for row in values]


def _rank_ranges(
    clusters: tuple[tuple[str, ...], ...],
) -> dict[str, tuple[int, int, int]]:
    """name -> (cluster number from 1, first rank, last rank), WMT style: every
    system of a cluster shares the cluster's range of ranks."""
    ranks = {}
    position = 1
    for number, cluster in enumerate(clusters, start=1):
        last = position + len(cluster) - 1
        for name in cluster:
            ranks[name] = (number, position, last)
        position = last + 1
    return ranks
