"""A worker whose rows are deleted under it (an output or a test set deleted
while it is scored or compared) gives up quietly: no exception escapes to
Celery, nothing is saved for rows that are gone, nothing is left behind."""

import logging
import threading

import pytest
from django.db import connection, connections, transaction

from mtdash.common.jobs import JobQuerySet
from mtdash.evaluation.leaderboard import comparisons
from mtdash.evaluation.leaderboard.comparisons import run_comparison_job
from mtdash.evaluation.manage.actions import delete_output, delete_test_set
from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ScoringJob,
    SegmentScore,
    SystemOutput,
)
from mtdash.evaluation.services import scoring_jobs
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.web.evaluation.test_manage_support import (
    add_scored_output,
    finish_comparisons,
)


class DeletesItsOutput:
    """A metric that deletes the output it is scoring halfway through."""

    def __init__(self, metric, output):
        self.metric, self.output = metric, output
        self.statistics_names = metric.statistics_names

    def score(self, *args, **kwargs):
        delete_output(self.output)
        return self.metric.score(*args, **kwargs)


def test_an_output_deleted_while_it_is_scored_is_given_up_quietly(
    test_set, owner, monkeypatch, caplog
):
    job = create_system_output(test_set, owner, "doomed", ["a", "b", "c"], queue=False)
    real = scoring_jobs.server_metric
    monkeypatch.setattr(
        scoring_jobs,
        "server_metric",
        lambda spec: DeletesItsOutput(real(spec), job.output),
    )
    with caplog.at_level(logging.INFO):
        assert run_scoring_job(job.pk) is True  # claimed, then given up
    assert not SystemOutput.objects.exists()
    assert not ScoringJob.objects.exists()
    assert not CorpusScore.objects.exists() and not SegmentScore.objects.exists()
    assert "lease lost" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_an_output_deleted_right_after_the_claim_is_given_up_quietly(
    test_set, owner, monkeypatch
):
    job = create_system_output(test_set, owner, "doomed", ["a", "b", "c"], queue=False)
    real_claim = JobQuerySet.claim

    def claim_then_delete(self, **changes):
        claimed = real_claim(self, **changes)
        delete_output(job.output)
        return claimed

    monkeypatch.setattr(JobQuerySet, "claim", claim_then_delete)
    run_scoring_job(job.pk)
    assert not ScoringJob.objects.exists()


def test_a_test_set_deleted_while_it_is_compared_is_given_up_quietly(
    test_set, owner, monkeypatch, caplog
):
    add_scored_output(test_set, owner, "good")
    finish_comparisons()
    job = ComparisonJob.objects.create(test_set=test_set)
    real_columns = comparisons._columns

    def delete_then_list(test_set, visible):
        delete_test_set(test_set)
        yield from real_columns(test_set, visible)

    monkeypatch.setattr(comparisons, "_columns", delete_then_list)
    with caplog.at_level(logging.INFO):
        assert run_comparison_job(job.pk) is True
    assert not ComparisonJob.objects.exists()
    assert "lease lost" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.django_db(transaction=True)
def test_a_deletion_waits_for_a_worker_saving_a_result(test_set, owner):
    """The worker holds its job row while it saves; the deletion locks the
    job rows before collecting, so it waits and then deletes the new score
    too (collected earlier, that score's output would be deleted under it:
    a foreign key error when the deletion commits)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite lets one writer at a time: there is no race")
    job = create_system_output(test_set, owner, "racing", ["a", "b", "c"], queue=False)
    ScoringJob.objects.filter(pk=job.pk).claim()
    saving, finish, errors = threading.Event(), threading.Event(), []

    def worker_saving() -> None:
        try:
            with transaction.atomic():
                ScoringJob.objects.filter(pk=job.pk).hold_lease()
                CorpusScore.objects.create(
                    output_id=job.output_id, metric="bleu", score=1.0, signature="s"
                )
                saving.set()
                finish.wait(10)
        except Exception as error:  # noqa: BLE001 - reported by the assert below
            errors.append(error)
        finally:
            connections.close_all()

    worker = threading.Thread(target=worker_saving)
    worker.start()
    assert saving.wait(10)
    threading.Timer(0.5, finish.set).start()  # the deletion is waiting by then

    summary = delete_output(job.output)

    worker.join()
    assert errors == []
    assert "1 score" in str(summary)
    assert not CorpusScore.objects.exists() and not SystemOutput.objects.exists()
