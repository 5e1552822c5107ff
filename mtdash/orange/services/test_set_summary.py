"""The ORANGE results of a test set's n-best lists, for other pages (issue #12)."""

from __future__ import annotations

from typing import Any

from mtdash.evaluation.models import TestSet
from mtdash.orange.models import OrangeJob


def orange_summary(test_set: TestSet) -> list[dict[str, Any]]:
    """One entry per finished ORANGE job of the test set (newest first):
    ``{"job_id", "nbest", "url", "metrics": [{"metric", "label", "orange",
    "orange_ci_low", "orange_ci_high", "avg_rank", "best", "equivalent"}]}``;
    lower ORANGE is better."""
    summary = []
    jobs = OrangeJob.objects.filter(
        nbest__test_set=test_set, status=OrangeJob.Status.SUCCEEDED
    ).select_related("nbest")
    for job in jobs.order_by("-pk"):
        rows = list(job.scores.order_by("position"))
        best = min((row.orange for row in rows), default=None)
        summary.append(
            {
                "job_id": job.pk,
                "nbest": job.nbest.name,
                "url": f"/orange/jobs/{job.pk}/",
                "metrics": [
                    {
                        "metric": row.metric,
                        "label": row.metric,
                        "orange": row.orange,
                        "orange_ci_low": row.orange_ci_low,
                        "orange_ci_high": row.orange_ci_high,
                        "avg_rank": row.avg_rank,
                        "best": row.orange == best,
                        "equivalent": False,
                    }
                    for row in rows
                ],
            }
        )
    return summary
