"""The paired test between a job's metrics, and what it needs, kept at merge.

When a job merges, each metric's per-sentence normalised ranks
(Rank_i / (N_i + 1), what ORANGE averages) are stored as one compressed
``.npz`` next to the chunk partials (``orange/jobs/<id>/normalised-ranks.npz``:
``metrics`` as JSON bytes and ``ranks`` (M, S) float64, sentences in list
order), so the test can be run again or with other settings without the
chunks. :func:`compare_job` runs ``scoring.orange.compare_metrics`` with the
job's bootstrap samples and seed; the merge stores its answer on each
``OrangeScore`` (best, equivalent, difference, interval, p-value).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence

import numpy as np

from mtdash.common.numbers import finite
from mtdash.orange.artifact_storage import (
    artifact_storage,
    read_bytes,
    save_file,
)
from mtdash.orange.models import OrangeJob, OrangeScore
from scoring.orange import OrangeComparison, compare_metrics

RANKS_FILE = "normalised-ranks.npz"


def save_normalised_ranks(job: OrangeJob, ranks: Mapping[str, np.ndarray]) -> None:
    """Store every metric's per-sentence normalised ranks (replacing any)."""
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        metrics=np.frombuffer(json.dumps(list(ranks)).encode("utf-8"), np.uint8),
        ranks=np.vstack([np.asarray(r, dtype=np.float64) for r in ranks.values()]),
    )
    save_file(f"{job.artifact}/{RANKS_FILE}", buffer.getvalue())


def load_normalised_ranks(job: OrangeJob) -> dict[str, np.ndarray] | None:
    """The stored ranks by metric, or None if this job never stored them."""
    name = f"{job.artifact}/{RANKS_FILE}"
    if not artifact_storage().exists(name):
        return None
    stored = io.BytesIO(read_bytes(name))
    with np.load(stored, allow_pickle=False) as data:
        metrics = json.loads(data["metrics"].tobytes().decode("utf-8"))
        matrix = data["ranks"]
    return dict(zip(metrics, matrix))


def compare_job(job: OrangeJob) -> OrangeComparison | None:
    """The paired test over the job's stored ranks (None without them)."""
    ranks = load_normalised_ranks(job)
    if ranks is None or list(ranks) != list(job.metrics):
        return None
    return compare_metrics(ranks, n_bootstrap=job.n_bootstrap, seed=job.seed)


def comparison_fields(comparison: OrangeComparison | None, metric: str) -> dict:
    """``OrangeScore`` fields of one metric from the test (untested: defaults)."""
    if comparison is None:
        return {"tested": False}
    row = comparison.for_metric(metric)

    return {
        "tested": True,
        "best": row.best,
        "equivalent": row.equivalent,
        "difference": row.difference,
        "difference_ci_low": finite(row.ci_low),
        "difference_ci_high": finite(row.ci_high),
        "p_value": row.p_value,
    }


def best_metrics(scores: Sequence[OrangeScore]) -> set[str]:
    """The best metric by the paired test; for results merged before the
    test existed, the lowest ORANGE (ties all count)."""
    if not scores:
        return set()
    if any(score.tested for score in scores):
        return {score.metric for score in scores if score.best}
    lowest = min(score.orange for score in scores)
    return {score.metric for score in scores if score.orange <= lowest + 1e-12}


def equivalent_metrics(scores: Sequence[OrangeScore]) -> set[str]:
    """Metrics statistically equivalent to the best (gray cells of Table 6)."""
    return {score.metric for score in scores if score.tested and score.equivalent}
