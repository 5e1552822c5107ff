"""``python manage.py bench_orange_job`` on a tiny corpus: a gzip upload
through the real upload path, the check and the job on two real workers,
the CLI on the same files, the times and ratio printed."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from mtdash.orange.models import NBestList, OrangeJob
from mtdash.teams.models import Team

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_the_benchmark_runs_end_to_end_on_a_tiny_corpus(celery_worker_process):
    # Artifacts in the default directory: the test's own worker reads them too.
    out = StringIO()

    call_command(
        "bench_orange_job", "--sentences", "6", "--candidates", "8",
        "--bootstrap", "10", "--metric", "bleus:n=4", "--metric", "rouge-l",
        stdout=out,
    )  # fmt: skip

    report = out.getvalue()
    print(report)
    assert "6 sentences x 8-best x 4 references, 2 metrics, 2 Celery workers" in report
    for step in ("upload (gzip", "check by a worker", "ORANGE job", "scoring orange"):
        assert step in report
    assert "job / CLI" in report and "result page" in report
    # Nothing is left behind (the rows take their files with them).
    assert not NBestList.objects.exists() and not OrangeJob.objects.exists()
    assert not Team.objects.filter(name__startswith="bench-orange-").exists()
