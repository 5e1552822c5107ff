"""The version of a test set's leaderboard: a digest of everything its
renderings show, read on every request before a stored rendering is served.

The version is the content's own digest, not a counter bumped by the code
that writes: scores, jobs and outputs change through bulk inserts,
``QuerySet.update``, cascading deletes and raw imports, and one write path
that forgot to bump a counter would leave a stale leaderboard. A digest of
the rows cannot miss one. It covers the outputs (with their systems' names,
hidden flags and references), their scoring jobs' statuses, the corpus and
external scores (count, last id, last computation, sum), the external
metrics, the stored statistics (intervals, clusters, the human columns that
judgments become) and whether a statistics job is pending, plus the test
set's own fields the page shows.

It is read with four plain SQL statements (no ORM query building, which
cost more than the SQL itself: about 0.5 ms of CPU for all four at 50
systems x 20 metrics, against 8 ms for the ORM queries it replaces).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import connection

from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ExternalCorpusScore,
    ExternalMetric,
    MetricComparison,
    ReferenceSet,
    ScoringJob,
    Segment,
    System,
    SystemOutput,
    TestSet,
)
from scoring import __version__ as SCORING_VERSION

# Bump when a rendering changes for the same data (a template or a format
# changed) and the cache outlives the deploy (a shared cache such as Redis).
# 2: the signatures sidecar and LaTeX caption name the human columns' test;
# 3: the LaTeX caption writes "$p < 0.05$" (a bare "<" printed "¡" under OT1).
RENDERING_REVISION = 3


@dataclass(frozen=True)
class LeaderboardVersion:
    digest: str  # changes whenever anything a rendering shows changes
    # A worker will change the leaderboard: scoring jobs unfinished or
    # statistics pending (the page then polls and reloads itself).
    pending: bool
    n_segments: int
    reference_labels: tuple[str, ...]


def _tables() -> dict[str, str]:
    return {
        "output": SystemOutput._meta.db_table,
        "system": System._meta.db_table,
        "reference": ReferenceSet._meta.db_table,
        "job": ScoringJob._meta.db_table,
        "score": CorpusScore._meta.db_table,
        "external_metric": ExternalMetric._meta.db_table,
        "external_score": ExternalCorpusScore._meta.db_table,
        "comparison": MetricComparison._meta.db_table,
        "comparison_job": ComparisonJob._meta.db_table,
        "segment": Segment._meta.db_table,
    }


def _statements() -> tuple[str, str, str, str]:
    t = _tables()
    outputs = (
        f"SELECT o.id, s.name, o.hidden, r.label FROM {t['output']} o"
        f" JOIN {t['system']} s ON s.id = o.system_id"
        f" LEFT JOIN {t['reference']} r ON r.id = o.reference_id"
        " WHERE o.test_set_id = %s ORDER BY o.id"
    )
    jobs = (
        f"SELECT j.id, j.status FROM {t['job']} j"
        f" JOIN {t['output']} o ON o.id = j.output_id"
        " WHERE o.test_set_id = %s ORDER BY j.id"
    )
    metrics = (
        "SELECT 'metric', id, name, description, higher_is_better"
        f" FROM {t['external_metric']} WHERE test_set_id = %s"
        " UNION ALL SELECT 'reference', id, label, '', NULL"
        f" FROM {t['reference']} WHERE test_set_id = %s ORDER BY 1, 3, 2"
    )
    # One row of aggregates: single-row derived tables, joined.
    aggregates = (
        "SELECT * FROM"
        " (SELECT COUNT(*), MAX(c.id), MAX(c.computed_at), SUM(c.score)"
        f"  FROM {t['score']} c JOIN {t['output']} o ON o.id = c.output_id"
        "  WHERE o.test_set_id = %s) scores,"
        " (SELECT COUNT(*), MAX(e.id), SUM(e.score)"
        f"  FROM {t['external_score']} e"
        f"  JOIN {t['external_metric']} m ON m.id = e.metric_id"
        "  WHERE m.test_set_id = %s) external,"
        " (SELECT COUNT(*), MAX(id), MAX(computed_at)"
        f"  FROM {t['comparison']} WHERE test_set_id = %s) comparisons,"
        f" (SELECT COUNT(*) FROM {t['comparison_job']}"
        "  WHERE test_set_id = %s AND status IN (%s, %s)) pending,"
        f" (SELECT COUNT(*) FROM {t['segment']} WHERE test_set_id = %s) segments"
    )
    return outputs, jobs, metrics, aggregates


_STATEMENTS: tuple[str, str, str, str] | None = None


def leaderboard_version(test_set: TestSet) -> LeaderboardVersion:
    """The version of ``test_set``'s leaderboard as it is now."""
    global _STATEMENTS
    if _STATEMENTS is None:  # table names are known once the app is ready
        _STATEMENTS = _statements()
    outputs, jobs, metrics, aggregates = _STATEMENTS
    pk = test_set.pk
    waiting = (ComparisonJob.Status.QUEUED, ComparisonJob.Status.RUNNING)
    with connection.cursor() as cursor:
        cursor.execute(outputs, [pk])
        output_rows = cursor.fetchall()
        cursor.execute(jobs, [pk])
        job_rows = cursor.fetchall()
        cursor.execute(metrics, [pk, pk])
        metric_rows = cursor.fetchall()
        cursor.execute(aggregates, [pk, pk, pk, pk, *waiting, pk])
        totals = cursor.fetchone()
    finished = set(ScoringJob.finished_statuses())
    statistics_pending = totals[-2] > 0
    state = repr(
        (
            RENDERING_REVISION,
            SCORING_VERSION,
            pk,
            test_set.team_id,
            test_set.team.name,
            test_set.name,
            test_set.source_language,
            test_set.target_language,
            test_set.text_type,
            test_set.description,
            test_set.hidden,
            output_rows,
            job_rows,
            metric_rows,
            # Times come back as text (SQLite) or datetimes (PostgreSQL);
            # either way they differ when the rows do.
            tuple(str(value) for value in totals),
        )
    )
    return LeaderboardVersion(
        digest=hashlib.sha256(state.encode("utf-8")).hexdigest()[:24],
        pending=statistics_pending
        or any(status not in finished for _, status in job_rows),
        n_segments=totals[-1],
        reference_labels=tuple(
            label for kind, _, label, _, _ in metric_rows if kind == "reference"
        ),
    )
