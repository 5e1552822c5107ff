"""The ORANGE results of a test set's n-best lists, for other pages (the test set's and metric-evaluation pages)."""

from __future__ import annotations

from typing import Any

from mtdash.evaluation.models import TestSet
from mtdash.orange.jobs.metric_significance import best_metrics, equivalent_metrics
from mtdash.orange.labels import metric_label
from mtdash.orange.models import OrangeJob


def orange_summary(test_set: TestSet) -> list[dict[str, Any]]:
    """One entry per finished ORANGE job of the test set (newest first):
    ``{"job_id", "nbest", "url", "metrics": [{"metric", "label", "orange",
    "orange_ci_low", "orange_ci_high", "avg_rank", "best", "equivalent"}]}``;
    lower ORANGE is better. ``best`` and ``equivalent`` come from the paired
    test between the job's metrics (``scoring.orange.compare_metrics``, stored
    at merge); ``label`` is the metric's spec with its variant parameter
    (``bleus:n=4``)."""
    summary = []
    jobs = OrangeJob.objects.filter(
        nbest__test_set=test_set, status=OrangeJob.Status.SUCCEEDED
    ).select_related("nbest")
    for job in jobs.order_by("-pk"):
        rows = list(job.scores.defer("above_reference").order_by("position"))
        best, equivalent = best_metrics(rows), equivalent_metrics(rows)
        summary.append(
            {
                "job_id": job.pk,
                "nbest": job.nbest.name,
                "url": job.get_absolute_url(),
                "metrics": [
                    {
                        "metric": row.metric,
                        "label": metric_label(row.metric),
                        "orange": row.orange,
                        "orange_ci_low": row.orange_ci_low,
                        "orange_ci_high": row.orange_ci_high,
                        "avg_rank": row.avg_rank,
                        "best": row.metric in best,
                        "equivalent": row.metric in equivalent,
                    }
                    for row in rows
                ],
            }
        )
    return summary
