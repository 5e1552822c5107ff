"""Running readability jobs in the test process, as a worker would."""

from __future__ import annotations

from mtdash.evaluation.models import ReadabilityJob
from mtdash.evaluation.readability.jobs import run_readability_job


def count_readability(test_set=None) -> int:
    """Run every waiting readability job (of ``test_set``, or all); returns
    how many ran."""
    jobs = ReadabilityJob.objects.unfinished()
    if test_set is not None:
        jobs = jobs.filter(test_set=test_set)
    ids = list(jobs.values_list("pk", flat=True))
    for pk in ids:
        run_readability_job(pk)
    return len(ids)
