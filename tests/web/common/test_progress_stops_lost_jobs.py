"""A progress report that finds its row gone stops the work.

``report_progress_or_stop`` writes the progress and renews the lease like
``report_progress``; when this worker no longer holds the row (deleted with
its output, failed by someone, taken over) it raises ``LeaseLost``, which
``run_claimed`` takes as "leave the row alone". A scoring job reports about
every 1 % of a metric, so a deleted output stops its job within that.
"""

from __future__ import annotations

import logging

import pytest

from mtdash.common.jobs import LeaseLost
from mtdash.evaluation.manage.actions import delete_output
from mtdash.evaluation.models import CorpusScore, ScoringJob, SystemOutput
from mtdash.evaluation.services import scoring_jobs
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output

HYPOTHESES = ["the cat sat on the mat", "it is raining", "hello all of you"]


@pytest.fixture
def claimed(test_set, owner):
    job = create_system_output(test_set, owner, "sys1", HYPOTHESES, queue=False)
    rows = ScoringJob.objects.filter(pk=job.pk)
    assert rows.claim() == 1
    return rows


def test_a_report_on_a_held_row_writes_the_progress(claimed):
    claimed.report_progress_or_stop(40)
    assert claimed.get().progress == 40


def test_a_report_on_a_deleted_row_stops_the_work(claimed):
    ScoringJob.objects.filter(pk__in=claimed.values("pk")).delete()
    with pytest.raises(LeaseLost, match="stopping the work"):
        claimed.report_progress_or_stop(40)


def test_a_report_on_a_row_another_worker_took_stops_the_work(claimed):
    claimed.update(claimed_by="elsewhere:1")
    with pytest.raises(LeaseLost):
        claimed.report_progress_or_stop(40)
    assert claimed.get().progress == 40  # written; it is the other's row now


def test_a_report_on_a_failed_row_stops_the_work(claimed):
    claimed.fail("stopped by hand")
    with pytest.raises(LeaseLost):
        claimed.report_progress_or_stop(40)


def test_plain_report_progress_still_never_raises(claimed):
    ScoringJob.objects.filter(pk__in=claimed.values("pk")).delete()
    assert claimed.report_progress(40) == 0


def test_a_scoring_job_stops_inside_a_metric_once_its_output_is_deleted(
    test_set, owner, monkeypatch, caplog
):
    job = create_system_output(
        test_set, owner, "doomed", HYPOTHESES, metrics=["bleu"], queue=False
    )
    segments_scored = []
    real = scoring_jobs.server_metric

    class DeletedMidway:
        """Scores one segment at a time and deletes the output after the
        first, as a person might while a long metric runs."""

        def __init__(self, metric):
            self.metric = metric

        def __getattr__(self, name):
            return getattr(self.metric, name)

        def score(self, hypotheses, references, *, progress, **kwargs):
            for index in range(len(hypotheses)):
                segments_scored.append(index)
                if index == 1:
                    delete_output(SystemOutput.objects.get(pk=job.output_id))
                progress((index + 1) / len(hypotheses))
            raise AssertionError("the metric ran to its end")

    monkeypatch.setattr(
        scoring_jobs, "server_metric", lambda spec: DeletedMidway(real(spec))
    )
    with caplog.at_level(logging.INFO):
        assert run_scoring_job(job.pk) is True

    assert segments_scored == [0, 1]
    assert "stopping the work" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not ScoringJob.objects.exists() and not CorpusScore.objects.exists()
